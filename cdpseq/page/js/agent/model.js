// The page model: what the page shows, as a walk of it sees it. Every meaningful element that is
// rendered gets an entry: controls, containers (dialogs, forms, lists, tables, menus, trees,
// landmarks...), headings, live regions and text, with role, accessible name, value, states and
// own text, across the document, open shadow roots and same-origin frames. read_page renders
// entries (read.js); an act's delta is the difference between the entries before its first step
// and after it settled (delta.js).
//
// The model stays current without walking the whole page every time. The tracking observer
// (tracking.js) and a few events (input, focus, hover, transitions, resize) mark where the page
// may have changed: an element, or a subtree. refreshModel() walks just those places again with
// the same entry function, so marks decide where to look, never what is reported. A burst too
// big to mark, a resize, or a model not built yet means a walk of the whole page. While an act
// runs, the journal keeps the entry each element had before its first change; the delta is the
// journal against the model.

const CONTAINER_ROLES = new Set(["form", "dialog", "alertdialog", "navigation", "main", "banner",
  "contentinfo", "complementary", "search", "region", "table", "grid", "treegrid", "list",
  "menu", "menubar", "tablist", "listbox", "tree", "toolbar", "radiogroup", "group", "feed",
  "sectionheader", "sectionfooter", "tooltip"]);
const LIVE_ROLES = new Set(["alert", "status", "log", "marquee", "timer"]);
// Elements whose text belongs to the block around them.
const INLINE_TAGS = new Set(["A", "ABBR", "B", "BDI", "BDO", "BR", "CITE", "CODE", "DATA", "DEL",
  "DFN", "EM", "FONT", "I", "INS", "KBD", "LABEL", "MARK", "Q", "RP", "RT", "RUBY", "S", "SAMP",
  "SMALL", "SPAN", "STRONG", "SUB", "SUP", "TIME", "TT", "U", "VAR", "WBR", "IMG", "svg", "SLOT"]);
const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "META", "LINK", "TITLE"]);

// Elements inside which a header or footer is the section's (ARIA's sectionheader and
// sectionfooter, as Chrome has them), not the page's banner or contentinfo.
const SECTIONING = new Set(["ARTICLE", "ASIDE", "MAIN", "NAV", "SECTION"]);

function inSection(el) {
  // Whether el is inside sectioning content, across shadow roots (a component's <header> in a
  // page's <section> is that section's, as Chrome has it).
  for (let p = composedParent(el); p; p = composedParent(p)) {
    if (SECTIONING.has(p.tagName)) return true;
  }
  return false;
}

function landmarkRole(el, role) {
  if (role !== "generic") return role;
  switch (el.tagName) {
    case "HEADER": return inSection(el) ? "sectionheader" : "banner";
    case "FOOTER": return inSection(el) ? "sectionfooter" : "contentinfo";
    case "ASIDE": return "complementary";
    case "SECTION": return el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby")
      ? "region" : "generic";
    case "TABLE": return "table";
    case "UL": case "OL": return "list";
    case "FIELDSET": return el.querySelector(":scope > legend") ? "group" : "generic";
    default: return role;
  }
}

function classify(el, tag, rich) {
  // [kind, role] for what an element is to a reader, or null: "control", "heading",
  // "container", "live" (text only or nothing is decided by ownText).
  const role = roleOf(el, rich);
  // An ARIA listbox is a popup of options (its options are the controls); a <select> is one.
  if (role === "listbox" && tag !== "SELECT") return ["container", role];
  if (isInteractive(el, role, rich)) return ["control", role];
  if (HEADINGS[tag] || role === "heading") return ["heading", "heading"];
  const landmark = landmarkRole(el, role);
  if (CONTAINER_ROLES.has(landmark)) {
    // A group or a form is a container a reader notices only when it is named.
    if ((landmark === "group" || landmark === "form" || landmark === "region") && !rich &&
      tag !== "FIELDSET") return null;
    return ["container", landmark];
  }
  if (LIVE_ROLES.has(role)) return ["live", role];
  if (rich && el.hasAttribute("aria-live") && el.getAttribute("aria-live") !== "off") {
    return ["live", "status"];
  }
  return null;
}

function ownText(el) {
  // The text an element holds itself: its text nodes and those of its inline elements, not of
  // blocks inside it (they hold their own), nor of controls and headings (their names). As the
  // page renders it: a shadow host's text is its shadow root's, a slot's what is slotted into
  // it (a dialog component's text is in its dialog box, a button component's in its button).
  // A stack of [children, next index] instead of recursion: inline elements may nest deep.
  let text = "";
  const stack = [[flatKids(el), 0]];
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top[1] >= top[0].length) {
      stack.pop();
      continue;
    }
    const node = top[0][top[1]++];
    if (node.nodeType === 3) text += node.data;
    else if (node.nodeType === 1 && INLINE_TAGS.has(node.tagName) && !SKIP.has(node.tagName)) {
      if (node.tagName === "LABEL" && node.control) continue;  // its control carries it
      if (node.tagName === "A" && roleOf(node) === "link") continue;  // a link: a control
      if (node.hasAttributes() && (node.getAttribute("aria-hidden") === "true" ||
        (node.getAttribute("role") && isInteractive(node, roleOf(node))))) continue;
      stack.push([flatKids(node), 0]);
    }
  }
  return text;
}

function holdsText(el) {
  // Whether a block has text of its own (ownText), without building it (most blocks hold only
  // blocks).
  for (const node of flatKids(el)) {
    if (node.nodeType === 3 ? /\S/.test(node.data) : node.nodeType === 1 &&
      INLINE_TAGS.has(node.tagName) && node.tagName !== "BR" && flatText(node).trim()) return true;
  }
  return false;
}

function entryOf(el, tag, rich, kind, role, scope) {
  // The entry of a rendered element of a known kind.
  const entry = { kind, role, name: "", text: "", states: null };
  if (kind === "control") {
    entry.name = nameOf(el, rich);
    const states = stateOf(el, role, rich, scope.active);
    entry.states = scopedState(scope.scopes || [], states, rich, role);
  } else if (kind === "heading") {
    entry.name = clean(el.innerText, 120);
    const level = HEADINGS[tag] || Number(el.getAttribute("aria-level")) || 2;
    entry.states = { level };
  } else {
    if (kind === "container") entry.name = containerName(el, role);
    if (holdsText(el)) entry.text = clean(ownText(el), 200);
    if (kind === "container" && rich) entry.states = stateOf(el, role, rich, scope.active);
  }
  // What only the delta says of it (facts.js): a control's classes, a table's order and sort.
  entry.sig = JSON.stringify([kind, role, entry.name, entry.text, entry.states]) +
    deltaFacts(el, tag, rich, entry);
  return entry;
}

function textEntry(el) {
  const text = clean(ownText(el), 200);
  if (!text) return null;
  return { kind: "text", role: "text", name: "", text, states: null, sig: "t\n" + text };
}

// -- the walk ------------------------------------------------------------------------------------

function scan(root, scope) {
  // Visit every element under root (a document, shadow root or element, itself included), with
  // open shadow roots and same-origin frames, calling scope.visit(el, entry or null). Subtrees
  // that are not rendered are skipped (scope.drop(el) is told of them); a control's inside is
  // only looked at for more controls.
  if (root.nodeType !== 1) track(root);
  const doc = root.ownerDocument || root;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  // The scopes (seen.js's scopeOf) the walk is in: those around root, then those it enters.
  const scopes = scope.scopes || (scope.scopes = root.nodeType === 1 ? scopesAbove(root) : []);
  const base = scopes.length;
  let el = root.nodeType === 1 ? root : walker.nextNode();
  while (el) {
    while (scopes.length > base && !scopes[scopes.length - 1].el.contains(el)) scopes.pop();
    const tag = el.tagName;
    if (SKIP.has(tag)) {
      el = el === root ? null : skipSubtree(walker);
      continue;
    }
    const rich = el.hasAttributes();
    if (rich && (el.hasAttribute("aria-disabled") || el.hasAttribute("aria-sort"))) {
      const around = scopeOf(el);
      if (around) scopes.push(around);
    }
    const kind = classify(el, tag, rich);
    let entry = null;
    if (kind || (!scope.controlsOnly && !INLINE_TAGS.has(tag) && holdsText(el))) {
      const shown = kind && kind[0] === "control" ? rendered(el, tag) : renders(el);
      if (!shown && !el.checkVisibility()) {  // not rendered, nor anything inside it
        if (scope.drop) scope.drop(el);
        el = el === root ? null : skipSubtree(walker);
        continue;
      }
      if (shown) {
        if (!kind) entry = textEntry(el);
        else if (!scope.controlsOnly || kind[0] === "control") {
          entry = entryOf(el, tag, rich, kind[0], kind[1], scope);
        }
      }
    }
    scope.visit(el, entry);
    if (kind && kind[0] === "control" && !scope.controlsOnly) {
      const inside = { ...scope, controlsOnly: true };  // a control's text is its name
      for (let child = el.firstElementChild; child; child = child.nextElementSibling) {
        scan(child, inside);
      }
      if (el.shadowRoot) scan(el.shadowRoot, inside);
      el = el === root ? null : skipSubtree(walker);
      continue;
    }
    if (el.shadowRoot && (SHADOW_HOSTS.has(tag) || tag.includes("-"))) scan(el.shadowRoot, scope);
    if (tag === "IFRAME" || tag === "FRAME") {
      let inner = null;
      try { inner = el.contentDocument; } catch (e) { inner = null; }
      if (inner && inner.documentElement) scan(inner, scope);
    }
    el = walker.nextNode();
  }
  scopes.length = base;
}

// -- the store -----------------------------------------------------------------------------------

// The shape of reg.model (tracking.js's TRACKING moves with it). `placed` holds, for each
// subtree added or removed, the node it was added to or removed from. `fields` holds each form
// field with an entry and its value as the entry saw it (formKey): a script sets values without
// a mutation or an event, so a refresh compares them all, which costs a property read each
// (an entry is made again only for those that differ).
const MODEL_SHAPE = 4;
if (!reg.model || reg.model.shape !== MODEL_SHAPE) {
  reg.model = { shape: MODEL_SHAPE, entries: new Map(), fields: new Map(), built: false,
    journal: null, focused: null, placed: new WeakMap(), pending: { entries: new Set(),
      subtrees: new Set(), removed: new Set(), full: false } };
}
const model = reg.model;

// The next read takes the same marks (rewalk.js: markForRead), kept apart from these.
function markEntry(el) {
  markForRead(el, false);
  if (model.built && el && el.nodeType === 1) model.pending.entries.add(el);
}
function markSubtree(el) {
  markForRead(el, true);
  if (model.built && el) model.pending.subtrees.add(el);
}
function markAll() {
  markReadAll("a resize, a page shown again, or a burst of changes too big to mark");
  model.pending.full = true;
}

const FIELD_TAGS = new Set(["INPUT", "SELECT", "TEXTAREA"]);

function setEntry(el, entry) {
  // Fields change value without a mutation: each refresh compares their values.
  if (entry && FIELD_TAGS.has(el.tagName)) model.fields.set(el, formKey(el));
  else model.fields.delete(el);
  const old = model.entries.get(el);
  if (old === entry || (old && entry && old.sig === entry.sig)) return;
  if (model.journal && !model.journal.has(el)) model.journal.set(el, old || null);
  if (entry) model.entries.set(el, entry);
  else model.entries.delete(el);
}

function dropTree(root) {
  // Every entry under root goes (root removed from the page, or not rendered), in the order the
  // journal had them before: each element, then its shadow root's, then its children's. A stack
  // of the elements to visit next, not recursion: a tree may be 10,000 levels deep.
  if (root.nodeType === 1 && model.entries.has(root)) setEntry(root, null);
  const next = [];
  if (root.shadowRoot) next.push(root.firstElementChild);
  next.push((root.shadowRoot || root).firstElementChild);
  while (next.length) {
    const el = next.pop();
    if (!el) continue;
    next.push(el.nextElementSibling, el.firstElementChild);
    if (el.shadowRoot) next.push(el.shadowRoot.firstElementChild);
    if (model.entries.has(el)) setEntry(el, null);
  }
}

function fullBuild() {
  const fresh = new Map();
  scan(document, { active: deepActive(), visit: (el, entry) => { if (entry) fresh.set(el, entry); } });
  if (model.journal) {
    for (const [el, old] of model.entries) {
      if (!fresh.has(el) || fresh.get(el).sig !== old.sig) {
        if (!model.journal.has(el)) model.journal.set(el, old);
      }
    }
    for (const el of fresh.keys()) {
      if (!model.entries.has(el) && !model.journal.has(el)) model.journal.set(el, null);
    }
  }
  model.entries = fresh;
  model.fields = new Map();
  for (const el of fresh.keys()) if (FIELD_TAGS.has(el.tagName)) model.fields.set(el, formKey(el));
  model.built = true;
}

function within(node, roots) {
  for (let p = node; p; p = composedParent(p)) if (roots.has(p)) return true;
  return false;
}

function refreshModel() {
  // Bring the model up to date with the page.
  withWalkMemos(refreshModelNow);
}

function refreshModelNow() {
  noteMutations(reg.tracking.observer.takeRecords());
  const pending = model.pending;
  const active = deepActive();
  if (!model.built || pending.full) {
    model.pending = { entries: new Set(), subtrees: new Set(), removed: new Set(), full: false };
    fullBuild();
    model.focused = active;
    return;
  }
  if (active !== model.focused) {  // focus moves without mutations
    markEntry(model.focused);
    markEntry(active);
    model.focused = active;
  }
  for (const [el, key] of model.fields) if (formKey(el) !== key) markEntry(el);  // set by scripts
  model.pending = { entries: new Set(), subtrees: new Set(), removed: new Set(), full: false };
  for (const node of pending.removed) if (!node.isConnected) dropTree(node);
  const roots = new Set();
  for (const el of pending.subtrees) if (el.isConnected) roots.add(el);
  for (const el of [...roots]) {
    const parent = composedParent(el);
    if (parent && within(parent, roots)) roots.delete(el);
  }
  for (const el of roots) {
    scan(el, { active, visit: setEntry, drop: dropTree, controlsOnly: insideControl(el) });
  }
  for (const el of pending.entries) {
    if (!el.isConnected || within(el, roots)) continue;
    setEntry(el, entryNow(el, active));
  }
}

function insideControl(el) {
  // Whether an ancestor is a control (whose name holds el's text).
  for (let p = composedParent(el); p; p = composedParent(p)) {
    const entry = model.entries.get(p);
    if (entry && entry.kind === "control") return true;
  }
  return false;
}

function entryNow(el, active) {
  // The entry one element has right now.
  const tag = el.tagName;
  if (SKIP.has(tag)) return null;
  const rich = el.hasAttributes();
  const kind = classify(el, tag, rich);
  if (!(kind && kind[0] === "control" ? rendered(el, tag) : renders(el))) return null;
  const scope = { active, scopes: kind && kind[0] === "control" ? scopesAbove(el) : [] };
  if (insideControl(el)) {
    return kind && kind[0] === "control" ? entryOf(el, tag, rich, "control", kind[1], scope)
      : null;
  }
  if (kind) return entryOf(el, tag, rich, kind[0], kind[1], scope);
  return !INLINE_TAGS.has(tag) && holdsText(el) ? textEntry(el) : null;
}
