// The state delta: what an act changed on the page, as the page model tells it (model.js): the
// entries before the first step, kept in the journal, against the entries once the page settled.
//
// An element that came into view appeared; one that went out of view, removed or hidden by any
// means (a class, a style, an ancestor), disappeared; one that stayed and whose name, text,
// value or states differ changed. A container that appeared (a dialog, a table, a list, a
// menu, a form...) is reported once, with its name, its size, its first lines of text and its
// controls with refs, so that the next act can use them without reading the page; what is
// inside it is not reported again. The lists are capped; the totals say how many there were.

const CONTAINER_CONTROLS = 8;
const CONTAINER_LINES = 3;
const ITEM_ROLES = { listbox: /^option$/, menu: /^menuitem/, menubar: /^menuitem/,
  tree: /^treeitem$/, tablist: /^tab$/, radiogroup: /^radio$/, toolbar: /./, grid: /^(row|gridcell)$/ };

function delta(args) {
  return withWalkMemos(() => changesSince(args));
}

function composedPath(node) {
  const path = [];
  for (let p = node; p; p = composedParent(p) || (p.ownerDocument && p.ownerDocument.defaultView &&
    p.ownerDocument.defaultView.frameElement)) path.push(p);
  return path.reverse();
}

function documentOrder(a, b) {
  // Order across shadow roots and frames: the first place the two paths part decides.
  const pa = composedPath(a), pb = composedPath(b);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  if (i === pa.length) return -1;
  if (i === pb.length) return 1;
  const x = pa[i], y = pb[i];
  if (x.getRootNode() !== y.getRootNode()) return x.getRootNode() instanceof ShadowRoot ? -1 : 1;
  return x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
}

function inOrder(items) {
  return items.length <= 500 ? items.sort((a, b) => documentOrder(a[0], b[0])) : items;
}

function shownStates(states) {
  // The states worth saying of an element (not focus: the delta says where focus went).
  if (!states) return null;
  const out = {};
  for (const key in states) {
    // Not selected is what options mostly are: only being selected is worth saying.
    if (key !== "focused" && key !== "inputType" && !(key === "selected" && !states[key])) {
      out[key] = states[key];
    }
  }
  for (const _ in out) return out;
  return null;
}

function controlList(controls, mint) {
  // Up to CONTAINER_CONTROLS controls, each with a context when its role and name repeat.
  const counts = new Map();
  for (const [, e] of controls) counts.set(`${e.role}\n${e.name}`, (counts.get(`${e.role}\n${e.name}`) || 0) + 1);
  return controls.slice(0, CONTAINER_CONTROLS).map(([node, e]) => {
    const item = report(node, e, mint);
    delete item.tag;
    if (!item.context && counts.get(`${e.role}\n${e.name}`) > 1 && node.isConnected) {
      const context = contextOf(node, e.name);
      if (context) item.context = context;
    }
    return item;
  });
}

function report(el, entry, mint) {
  // One element as the delta reports it: ref, tag, role, name or text, states, selector hint.
  const out = {};
  const ref = mint ? refOf(el, true) : reg.byEl.get(el);
  if (ref !== undefined) out.ref = ref;
  out.tag = el.tagName.toLowerCase();
  out.role = entry.role;
  const name = entry.kind === "text" || entry.kind === "live" ? entry.text : entry.name;
  if (name) out.name = clean(name, 50);
  const states = shownStates(entry.states);
  if (states && entry.kind !== "heading") out.states = states;
  if (entry.kind === "control" && !name) {
    const context = el.isConnected && contextOf(el, "");
    if (context) out.context = context;
  }
  out.selector = el.isConnected ? hintOf(el) : selectorOf(el);
  return out;
}

function entriesIn(root) {
  // The model's entries inside root, in document order (shadow roots and frames included).
  const found = [];
  const walk = node => {
    for (let el = node.firstElementChild; el; el = el.nextElementSibling) {
      const entry = model.entries.get(el);
      if (entry) found.push([el, entry]);
      if (el.shadowRoot) walk(el.shadowRoot);
      if (el.tagName === "IFRAME" || el.tagName === "FRAME") {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        if (doc) walk(doc);
      }
      walk(el);
    }
  };
  walk(root.shadowRoot || root);
  if (root.shadowRoot) walk(root);
  return found;
}

function sizeOf(el, role, inside) {
  if (el.tagName === "TABLE" || role === "table") {
    const rows = el.tBodies ? Array.from(el.tBodies).reduce((n, body) => n + body.rows.length, 0) : 0;
    return `${rows} row${rows === 1 ? "" : "s"}`;
  }
  if (role === "list") {
    const items = Array.from(el.children).filter(c => c.tagName === "LI" ||
      c.getAttribute("role") === "listitem" || c.tagName.includes("-")).length;
    return `${items} item${items === 1 ? "" : "s"}`;
  }
  const pattern = ITEM_ROLES[role];
  const controls = inside.filter(([, e]) => e.kind === "control" && (!pattern || pattern.test(e.role)));
  const noun = pattern ? "item" : "control";
  if (!controls.length && !pattern) return null;
  return `${controls.length} ${noun}${controls.length === 1 ? "" : "s"}`;
}

function summary(el, entry) {
  // A container that appeared: itself, its size, its first lines and its controls.
  const out = report(el, entry, true);
  const inside = entriesIn(el);
  const size = sizeOf(el, entry.role, inside);
  if (size) out.size = size;
  const lines = [];
  if (entry.text) lines.push(entry.text);
  for (const [, e] of inside) {
    if (lines.length >= CONTAINER_LINES) break;
    const line = e.kind === "heading" ? e.name : e.kind === "text" || e.kind === "live" ? e.text : "";
    if (line && line !== entry.name) lines.push(line);
  }
  if (lines.length) out.lines = lines.map(line => clean(line, 80));
  const controls = inside.filter(([, e]) => e.kind === "control");
  if (controls.length) {
    out.controls = controlList(controls, true);
    if (controls.length > CONTAINER_CONTROLS) out.controlsMore = controls.length - CONTAINER_CONTROLS;
  }
  return out;
}

function homeOf(el) {
  // The nearest container around el that is still on the page with an entry; a removed
  // subtree is followed to where it was removed from.
  for (let p = composedParent(el) || model.placed.get(el); p;
    p = composedParent(p) || model.placed.get(p)) {
    const entry = model.entries.get(p);
    if (entry && entry.kind === "container") return [p, entry];
  }
  return null;
}

const GROUP_AT = 3;

function grouped(items, verb) {
  // Items that came into (or went from) one container that stays, three or more, as one:
  // "3 rows added" to a table, with their first lines and controls, in the first item's place.
  const homes = new Map();
  for (const item of items) {
    const home = homeOf(item[0]);
    if (!home) continue;
    if (!homes.has(home[0])) homes.set(home[0], [home[1], []]);
    homes.get(home[0])[1].push(item);
  }
  const out = [];
  const done = new Set();
  for (const item of items) {
    const home = homeOf(item[0]);
    const group = home && homes.get(home[0]);
    if (!group || group[1].length < GROUP_AT) { out.push(item); continue; }
    if (done.has(home[0])) continue;
    done.add(home[0]);
    out.push([home[0], group[0], group[1], verb]);
  }
  return out;
}

function groupReport(el, entry, items, verb, mint) {
  const out = report(el, entry, true);
  delete out.states;
  const rows = new Set(items.map(([node]) => node.closest && node.closest("tr, li, [role=row], [role=listitem]")));
  rows.delete(null);
  const unit = rows.size ? (entry.role === "table" || entry.role === "grid" ? "row" : "item")
    : "element";
  const count = rows.size || items.length;
  out[verb] = `${count} ${unit}${count === 1 ? "" : "s"}`;
  // A line per row (its own text), or per item when they are not in rows.
  const lines = rows.size ? [...rows].slice(0, CONTAINER_LINES).map(row => rowText(row, null, 80))
    : items.filter(([, e]) => e.kind !== "control").slice(0, CONTAINER_LINES)
      .map(([, e]) => e.kind === "heading" ? e.name : e.text);
  const shown = lines.map(line => clean(line, 80)).filter(Boolean);
  if (shown.length) out.lines = shown;
  const controls = items.filter(([, e]) => e.kind === "control");
  if (controls.length) {
    out.controls = controlList(controls, mint);
    if (controls.length > CONTAINER_CONTROLS) out.controlsMore = controls.length - CONTAINER_CONTROLS;
  }
  return out;
}

function insideAny(node, set) {
  for (let p = composedParent(node); p; p = composedParent(p)) if (set.has(p)) return true;
  return false;
}

function fieldsChanged(before, after) {
  // [field, from, to] for what differs between two entries of one element.
  const out = [];
  if (before.role !== after.role) out.push(["role", before.role, after.role]);
  const textual = after.kind === "text" || after.kind === "live";
  if (before.name !== after.name && !textual) out.push(["name", before.name, after.name]);
  if (before.text !== after.text) out.push(["text", before.text, after.text]);
  const was = before.states || {}, now = after.states || {};
  const worded = was.valuetext !== now.valuetext;  // the value as words says it: not as a number
  for (const key of new Set([...Object.keys(was), ...Object.keys(now)])) {
    if (key === "focused" || key === "inputType" || (key === "valuenow" && worded)) continue;
    const from = key in was ? was[key] : null, to = key in now ? now[key] : null;
    if (from !== to && !(from === null && to === false) && !(from === false && to === null)) {
      out.push([key, from, to]);
    }
  }
  return out;
}

function placeOf(el) {
  // Where an element came or went: the node its added or removed subtree hung from (during
  // this act), or null when it was shown or hidden in place.
  for (let node = el; node; node = composedParent(node)) {
    const at = model.placed.get(node);
    if (at) return at;
  }
  return null;
}

function pairRerendered(appeared, disappeared) {
  // Pages that render again (innerHTML, a list without keys) replace elements with new ones
  // of the same kind, role and name in the same place: to a reader those stayed. Each such
  // pair is taken out of appeared and disappeared; what differs is a change.
  const places = new Map();  // where -> key -> disappeared items, in order
  const keyOf = entry => entry.kind === "text" || entry.kind === "live" ? entry.kind
    : `${entry.kind}\n${entry.role}\n${entry.name}`;
  for (const item of disappeared) {
    const at = placeOf(item[0]);
    if (!at) continue;
    let keys = places.get(at);
    if (!keys) places.set(at, keys = new Map());
    const key = keyOf(item[1]);
    if (!keys.has(key)) keys.set(key, []);
    keys.get(key).push(item);
  }
  const pairs = [], paired = new Set();
  for (const item of appeared) {
    const at = placeOf(item[0]);
    const waiting = at && places.has(at) && places.get(at).get(keyOf(item[1]));
    if (!waiting || !waiting.length) continue;
    const old = waiting.shift();
    pairs.push([old, item]);
    paired.add(old).add(item);
  }
  return [appeared.filter(item => !paired.has(item)), disappeared.filter(item => !paired.has(item)),
    pairs];
}

function changesSince(args) {
  refreshModel();
  const journal = model.journal || new Map();
  if (!args.keep) model.journal = null;  // kept: a settle probe's delta, maybe not the last
  const limit = args.limit || 15;
  const appeared = [], disappeared = [], changed = [];
  for (const [el, before] of journal) {
    const after = model.entries.get(el) || null;
    if (!before && after) appeared.push([el, after]);
    else if (before && !after) disappeared.push([el, before]);
    else if (before && after && before.sig !== after.sig) changed.push([el, before, after]);
  }
  const [shown, hidden, pairs] = pairRerendered(inOrder(appeared), inOrder(disappeared));
  appeared.length = 0;
  appeared.push(...shown);
  disappeared.length = 0;
  disappeared.push(...hidden);
  const replaced = [];
  for (const [[oldEl, before], [newEl, after]] of pairs) {
    if (before.sig !== after.sig) changed.push([newEl, before, after]);
    const oldRef = reg.byEl.get(oldEl);
    if (oldRef !== undefined && after.kind === "control") {
      replaced.push({ from: oldRef, to: refOf(newEl, true), role: after.role,
        ...(after.name ? { name: clean(after.name, 50) } : {}) });
    }
  }
  const came = new Set(appeared.filter(([, e]) => e.kind === "container").map(([el]) => el));
  const tops = inOrder(appeared.filter(([el]) => !insideAny(el, came)));
  const went = new Set(disappeared.filter(([, e]) => e.kind === "container").map(([el]) => el));
  const gone = inOrder(disappeared.filter(([el]) => !insideAny(el, went)));
  const out = { appeared: [], disappeared: [], changed: [] };
  const cameGroups = grouped(tops, "added");
  const wentGroups = grouped(gone, "removed");
  for (const [el, entry, items, verb] of cameGroups.slice(0, limit)) {
    out.appeared.push(items ? groupReport(el, entry, items, verb, true)
      : entry.kind === "container" ? summary(el, entry) : report(el, entry, true));
  }
  for (const [el, entry, items, verb] of wentGroups.slice(0, limit)) {
    if (items) {
      out.disappeared.push(groupReport(el, entry, items, verb, false));
      continue;
    }
    const item = report(el, entry, false);
    if (entry.kind === "container") {
      const inside = disappeared.filter(([node]) => node !== el && insideAny(node, new Set([el])));
      if (inside.length) item.size = `${inside.length} element${inside.length === 1 ? "" : "s"}`;
    }
    out.disappeared.push(item);
  }
  let changes = 0;
  for (const [el, before, after] of inOrder(changed)) {
    for (const [field, from, to] of fieldsChanged(before, after)) {
      changes++;
      if (out.changed.length >= limit) continue;
      const item = report(el, after, true);
      delete item.states;
      const short = value => typeof value === "string" ? clean(value, 80) : value;
      out.changed.push({ ...item, field, from: short(from), to: short(to) });
    }
  }
  const focus = model.armedFocus !== model.focused && model.focused &&
    !(model.touched && [...model.touched].some(el => el === model.focused ||
      el.contains(model.focused) || model.focused.contains(el))) ? model.focused : null;
  const focusEntry = focus && model.entries.get(focus);
  return {
    url: { from: watch.url, to: location.href },
    title: { from: watch.title, to: document.title },
    appeared: out.appeared, appearedTotal: cameGroups.length,
    disappeared: out.disappeared, disappearedTotal: wentGroups.length,
    changed: out.changed, changedTotal: changes,
    focus: focusEntry ? report(focus, focusEntry, true) : null,
    replaced: replaced.slice(0, limit), replacedTotal: replaced.length,
    overflow: false, next: reg.next,
  };
}
