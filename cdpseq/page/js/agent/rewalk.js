// read_page again, walking only what changed. The rows of a document's last read are kept with
// their elements, in the order the Reader (read.js) walks them: document order, a shadow root or
// a frame's document right after its host. The next read takes the marks the tracking observer
// and events left since (tracking.js; the page model takes the same marks on its own: model.js),
// walks each marked subtree again, and each marked element alone, splices their rows in place,
// drops the rows of elements that left, and redoes what is page-wide over all the rows: which
// role+name pairs are ambiguous, the hints and contexts of those and of unnamed controls (kept
// per element while no change touched what they were made of). Marks decide where to look,
// never what is reported: a walked place gives the rows a whole walk gives there.
//
// The whole page is walked instead when: there is no earlier walk of this document with this
// filter; a resize or a page shown again (media queries), or a burst of mutations too big to
// mark (tracking.js); a modal dialog opened or closed (all outside it is inert); a disabled
// fieldset appeared or went; a style sheet was added, removed or edited, or the document's
// sheet count moved; a label's `for` changed; focus moved into or out of a frame; the root
// element was marked; more than REWALK_MAX places to walk. Fields a script set without an event
// are compared (formKey); elements that take a name or state from elsewhere by id
// (aria-labelledby, aria-describedby, aria-activedescendant) and the controls of marked labels
// are looked at again on every read. No mark tells of a rule a script inserts into a sheet
// (CSSOM), nor of a shadow root attached to an element already on the page (readAgain's sweep
// finds one when nothing else changed, `upgraded` one a custom element's definition attached):
// those show at the next whole walk.

const REWALK_SHAPE = 1;
const REWALK_MAX = 64;  // marked subtrees; elements alone count a tenth
// Style sheets: adding, removing or editing one may show or hide anything.
const SHEETS = "style,link[rel~=stylesheet]";
// What hints are made of besides positions: a change of one voids every kept hint.
const NAMING = "[id],[data-testid],[name]";
// Disables every control inside it, however deep (the Reader asks once per walk whether the
// page has one).
const DISABLED_FIELDSET = "fieldset[disabled]";
const NOTABLE = `${SHEETS},${NAMING},${DISABLED_FIELDSET},label`;
// What takes a name or state from other elements by id: looked at again on every read (found
// by a query at a whole walk, then in the places walked again).
const REFERRING = "[aria-labelledby],[aria-describedby],[aria-activedescendant]";
// Custom elements not defined yet: their definition may attach a shadow root later, with no
// mutation to tell (found the same way as REFERRING; see upgraded).
const UNDEFINED = ":not(:defined)";

if (!reg.rewalk || reg.rewalk.shape !== REWALK_SHAPE) {
  reg.rewalk = { shape: REWALK_SHAPE, last: null, marks: freshMarks() };
}

function freshMarks() {
  // entries: elements to look at alone; subtrees: to walk again; removed: elements taken out
  // (or moved); structure: parents whose children changed (the positions in path hints).
  return { entries: new Set(), subtrees: new Set(), removed: new Set(), structure: new Set(),
    naming: false, full: "" };
}

function markForRead(node, subtree) {
  const state = reg.rewalk;
  if (!state.last || !node || node.nodeType !== 1) return;
  const marks = state.marks;
  (subtree ? marks.subtrees : marks.entries).add(node);
  if (node.tagName === "LABEL" && node.control) marks.entries.add(node.control);
  else if (node.matches(SHEETS)) marks.full = marks.full || "a style sheet changed";
}

function markReadAll(reason) {
  if (reg.rewalk.last) reg.rewalk.marks.full = reg.rewalk.marks.full || reason;
}

function noteForRead(record) {
  // What a mutation record tells the next read beyond the marks (tracking.js's noteMutations).
  const state = reg.rewalk;
  if (!state.last) return;
  const marks = state.marks;
  if (record.type === "attributes") {
    const name = record.attributeName;
    if (name === "id" || name === "data-testid" || name === "name") marks.naming = true;
    else if (name === "for" && record.target.tagName === "LABEL") {
      marks.full = marks.full || "a label's for changed";
    } else if (name === "disabled" && record.target.tagName === "FIELDSET") {
      marks.full = marks.full || "a disabled fieldset appeared or went";
    }
    return;
  }
  if (record.type !== "childList") return;
  marks.structure.add(record.target);
  for (const [nodes, removed] of [[record.addedNodes, false], [record.removedNodes, true]]) {
    for (const node of nodes) {
      if (node.nodeType !== 1) continue;
      if (removed) marks.removed.add(node);
      const inside = node.firstElementChild !== null;
      // Most added or removed subtrees hold none of these: one query says so.
      if (!node.matches(NOTABLE) && !(inside && node.querySelector(NOTABLE))) continue;
      if (node.matches(SHEETS) || (inside && node.querySelector(SHEETS))) {
        marks.full = marks.full || "a style sheet was added or removed";
      }
      if (node.matches(NAMING) || (inside && node.querySelector(NAMING))) marks.naming = true;
      if (node.matches(DISABLED_FIELDSET) || (inside && node.querySelector(DISABLED_FIELDSET))) {
        marks.full = marks.full || "a disabled fieldset appeared or went";
      }
      const labels = node.tagName === "LABEL" ? [node] : inside ? node.querySelectorAll("label") : [];
      for (const label of labels) {
        const control = removed
          ? label.htmlFor && record.target.getRootNode().getElementById(label.htmlFor)
          : label.control;
        if (control) marks.entries.add(control);
      }
    }
  }
}

// -- the walk ----------------------------------------------------------------------------------

class KeepingReader extends Reader {
  // A Reader that also keeps, per row, what its ambiguity and hints are decided by.
  constructor(all, limit) {
    super(all, limit);
    this.meta = [];
  }

  push(el, row, text, role, name, strong, inDocument) {
    this.meta[this.rows.length] = { role, name, hintable: !strong && inDocument };
    super.push(el, row, text, role, name, strong, inDocument);
  }
}

function walkPage(all, limit, opts) {
  // The rows of a read, finished (hints, contexts), with `walk`: "patched" or why the whole
  // page was walked.
  const state = reg.rewalk;
  const reader = new KeepingReader(all, limit);
  // A read with a limit stops early, and one asked to walk the whole page (to check a patched
  // read against) leaves the kept walk and the marks alone.
  if (limit !== Infinity) return wholeWalk(reader, false, "a read with a limit");
  if (opts.wholeWalk) return wholeWalk(reader, false, "asked");
  if (state.last) upgraded(state.last);  // marks what it finds: before the marks are taken
  const marks = state.marks;
  state.marks = freshMarks();
  const last = state.last;
  const filter = all ? "all" : "interactive";
  let why = !last ? "no earlier walk of this document" : last.filter !== filter
    ? "the last walk used another filter" : marks.full;
  if (!why) why = pageWide(last, reader);
  if (!why) why = patch(last, marks, reader);
  if (!why) return finishKept(last, marks);
  return wholeWalk(reader, true, why);
}

function pageWide(last, reader) {
  // Why the whole page must be walked though no mark says so, or "".
  if (reader.modal !== last.modal) return "a modal dialog opened or closed";
  if (sheetCount() !== last.sheets) return "a style sheet was added or removed";
  const active = reader.active, before = last.active;
  if (active !== before && ((active && active.ownerDocument !== document) ||
    (before && before.ownerDocument !== document))) return "focus moved into or out of a frame";
  return "";
}

function sheetCount() {
  return document.styleSheets.length + (document.adoptedStyleSheets || []).length;
}

function wholeWalk(reader, keep, why) {
  reader.root(document, true);
  for (const root of reader.roots) track(root);
  if (!keep) {
    reader.finish();
    return { rows: reader.rows, texts: reader.texts, owners: reader.owners, forms: reader.forms,
      walk: why };
  }
  const items = reader.rows.map((row, i) => ({ el: reader.owners[i], row, text: reader.texts[i],
    meta: reader.meta[i] || null }));
  reader.finish();
  // What the finish made is kept per element for the next reads (while nothing touched it).
  for (const i of reader.ambiguous) {
    if (items[i].meta.hintable) items[i].hint = reader.rows[i][4];
  }
  for (const i of [...reader.ambiguous, ...reader.unnamed]) {
    const state = reader.rows[i][3];
    keepContext(items[i], (state && state.context) || null);
  }
  const referring = new Set(), upgrading = new Set();
  for (const root of reader.roots) {
    for (const el of root.querySelectorAll(REFERRING)) referring.add(el);
    for (const el of root.querySelectorAll(UNDEFINED)) upgrading.add(el);
  }
  reg.rewalk.last = { filter: reader.all ? "all" : "interactive", items, forms: reader.forms,
    referring, upgrading,
    modal: reader.modal, active: reader.active, sheets: sheetCount() };
  reg.rewalk.marks = freshMarks();  // what the walk itself noted (new roots) is in it already
  return { rows: reader.rows, texts: reader.texts, owners: reader.owners, forms: reader.forms,
    walk: why };
}

function patch(last, marks, reader) {
  // Bring the kept rows up to date by walking the marked places again; "" when done, else
  // why the whole page must be walked.
  const entries = marks.entries, subtrees = marks.subtrees;
  if (reader.active !== last.active) {  // focus moves without a mutation
    for (const el of [last.active, reader.active]) if (el && el.nodeType === 1) entries.add(el);
  }
  last.active = reader.active;
  for (const [el, key] of last.forms) {  // a value a script set: no mutation, no event
    if (!alive(el)) last.forms.delete(el);
    else if (formKey(el) !== key) entries.add(el);
  }
  for (const root of subtrees) {
    if (root.nodeType !== 1) continue;
    for (const label of root.querySelectorAll("label")) if (label.control) entries.add(label.control);
    for (const [selector, found] of [[REFERRING, last.referring], [UNDEFINED, last.upgrading]]) {
      if (root.matches(selector)) found.add(root);
      for (const el of root.querySelectorAll(selector)) found.add(el);
    }
  }
  for (const el of last.referring) {
    if (alive(el)) entries.add(el);
    else last.referring.delete(el);
  }
  // A row's own hint (a strong selector, a path in a frame or shadow root, a container's) is
  // made of ids and positions: the row is made again when those may have changed.
  const shifted = new Map();
  for (const item of last.items) {
    if (item.row[0] && item.row[4] && (marks.naming || underAny(item.el, marks.structure, shifted))) {
      entries.add(item.el);
    }
  }
  if (subtrees.has(document.documentElement)) return "the whole document was marked";
  const roots = [...subtrees].filter(el => el.nodeType === 1 && alive(el));
  const top = new Set(roots);
  for (const el of roots) {
    for (let p = walkParent(el); p; p = walkParent(p)) if (top.has(p)) { top.delete(el); break; }
  }
  if (top.size + entries.size / 10 > REWALK_MAX) return "more changed places than are worth walking one by one";
  // Rows of elements that left (only a removal or a frame's new document takes elements away:
  // asking every kept element costs a DOM call each), or moved (their new place is marked).
  let items = last.items;
  if (marks.removed.size || roots.some(el => el.tagName === "IFRAME" || el.tagName === "FRAME")) {
    const moved = new Set([...marks.removed].filter(el => el.isConnected));
    const memo = new Map();
    items = items.filter(item => alive(item.el) && !(moved.size && underAny(item.el, moved, memo)));
  }
  const walkAgain = (el, only) => {
    const lo = firstAt(items, el);
    let hi = lo;
    while (hi < items.length && (items[hi].el === el || (!only && holds(el, items[hi].el)))) hi++;
    const start = reader.rows.length;
    const context = walkContext(el);
    if (context) {
      reader.inside = context.inside;
      reader.scopes = context.scopes;
      reader.root(el, context.inDocument, only);
    }
    const fresh = [];
    for (let i = start; i < reader.rows.length; i++) {
      fresh.push({ el: reader.owners[i], row: reader.rows[i], text: reader.texts[i],
        meta: reader.meta[i] || null });
    }
    items = fresh.length > 1000 ? items.slice(0, lo).concat(fresh, items.slice(hi))
      : (items.splice(lo, hi - lo, ...fresh), items);
  };
  for (const el of top) walkAgain(el, false);
  const topMemo = new Map();
  for (const el of entries) {
    if (alive(el) && !underAny(el, top, topMemo)) walkAgain(el, true);
  }
  for (const root of reader.roots) if (root.nodeType !== 1) track(root);
  for (const [el, key] of reader.forms) last.forms.set(el, key);
  last.items = items;
  return "";
}

function upgraded(last) {
  // Mark the host of each shadow root that a custom element defined since the last read
  // attached (no mutation tells of it). A shadow root attached to an element that is no
  // custom element, or later than its definition, is seen by a read of an unchanged page
  // (readAgain's sweepRoots) or the next whole walk.
  for (const el of last.upgrading) {
    if (!el.matches(UNDEFINED)) last.upgrading.delete(el);
    const shadow = el.shadowRoot;
    if (shadow && !reg.tracking.roots.has(shadow)) {
      track(shadow);
      markSubtree(el);
    }
  }
}

function walkContext(el) {
  // What the Reader knows when it reaches el: the controls around it (whose inside gives no
  // text), the scopes around it, whether it is in the document itself. null when the Reader
  // does not reach el (inert, or in what it skips).
  const inside = [], scopes = [];
  let top = el;
  for (let p = walkParent(el); p; p = walkParent(p)) {
    top = p;
    const tag = p.tagName;
    if (SKIP.has(tag)) return null;
    const flags = richFlags(p);
    if (flags & INERT_FLAG) return null;
    if (flags & SCOPE_FLAG) {
      const scope = scopeOf(p);
      if (scope) scopes.unshift(scope);
    }
    const rich = flags !== 0;
    if ((rich || NATIVE_INTERACTIVE.has(tag) || CLICKABLE_TAGS.has(tag) || PLAIN_TAGS.has(tag)) &&
      isInteractive(p, roleOf(p, rich), rich)) inside.unshift(p);
  }
  if (top !== document.documentElement) return null;
  return { inside, scopes, inDocument: el.getRootNode() === document };
}

// -- what is page-wide -------------------------------------------------------------------------

function finishKept(last, marks) {
  // The rows of the kept walk, finished as Reader.finish() does: hints for controls whose role
  // and name another shares, contexts for those and unnamed ones.
  const items = last.items;
  const seen = new Map();
  const ambiguous = [], unnamed = [];
  for (let index = 0; index < items.length; index++) {
    const meta = items[index].meta;
    if (!meta) continue;
    let names = seen.get(meta.role);
    if (names === undefined) seen.set(meta.role, names = new Map());
    const prior = names.get(meta.name);
    if (prior === undefined) names.set(meta.name, index);
    else {
      if (prior >= 0) { ambiguous.push(prior); names.set(meta.name, -1); }
      ambiguous.push(index);
    }
    if (!meta.name) unnamed.push(index);
  }
  const hints = new Map(), contexts = new Map();
  const stable = new Map();
  for (const i of ambiguous) {
    const item = items[i];
    if (!item.meta.hintable) continue;
    if (item.hint === undefined || marks.naming || underAny(item.el, marks.structure, stable)) {
      item.hint = selectorOf(item.el);
    }
    hints.set(i, item.hint);
  }
  let touched = null;  // made when a kept context asks: most pages have no context to keep
  for (const i of [...ambiguous, ...unnamed]) {
    if (contexts.has(i)) continue;
    const item = items[i];
    const kept = item.context;
    if (!kept || !kept.scope || !kept.scope.isConnected ||
      (touched || (touched = touchedBy(marks))).has(kept.scope)) {
      keepContext(item, contextOf(item.el, item.row[2]));
    }
    contexts.set(i, item.context.value);
  }
  const rows = new Array(items.length), texts = new Array(items.length);
  const owners = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    owners[i] = item.el;
    const hint = hints.get(i), context = contexts.get(i) || null;
    // What this read did not use goes: the marks of a later read would not void it.
    if (hint === undefined) item.hint = undefined;
    if (!contexts.has(i)) item.context = undefined;
    if (hint === undefined && !context) {
      rows[i] = item.row;
      texts[i] = item.text;
      continue;
    }
    let done = item.finished;
    if (!done || done.hint !== hint || done.context !== context) {
      const row = item.row.slice();
      if (hint !== undefined) withHint(row, hint);
      if (context) withState(row, { context });
      done = item.finished = { hint, context, row, text: JSON.stringify(row) };
    }
    rows[i] = done.row;
    texts[i] = done.text;
  }
  return { rows, texts, owners, forms: last.forms, walk: "patched" };
}

function keepContext(item, value) {
  // A context from a row (its text) holds while nothing in the outermost row around the
  // control changed; any other (text beside it, a description) is made again on every read.
  const row = value && /^(row|item|in): /.test(value);
  item.context = { value, scope: row ? outermostRow(composedParent(item.el)) : null };
}

function touchedBy(marks) {
  // Every element a change was in or under: the marked ones and all around them.
  const touched = new Set(marks.entries);
  for (const el of marks.subtrees) {
    for (let n = el; n && !touched.has(n); n = composedParent(n)) touched.add(n);
  }
  return touched;
}
