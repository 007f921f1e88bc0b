// The state delta: what an act changed on the page, as the page model tells it (model.js): the
// entries before the first step, kept in the journal, against the entries once the page settled.
//
// An element that came into view appeared; one that went out of view, removed or hidden by any
// means (a class, a style, an ancestor), disappeared; one that stayed and whose name, text,
// value or states differ changed. A container that appeared (a dialog, a table, a list, a
// menu, a form...) is reported once, with its name, its size, its first lines of text and its
// controls with refs, so that the next act can use them without reading the page; what is
// inside it is not reported again. The lists are capped; the totals say how many there were.
//
// Some of what a user sees lives in no role, name or state, so the entries carry it for the
// delta alone (deltaFacts, called by entryOf in model.js): a control's class tokens, the
// validity tokens of a field's wrapper (on many sites a class is the only sign of an error),
// and a table's or list's first rows and sorted column (a re-sort moves rows and changes
// nothing else).

const CONTAINER_CONTROLS = 8;
const CONTAINER_LINES = 3;
// Class tokens that follow focus or the pointer, or a form library's note of what was touched
// (MUI's Mui-focused, `focus-visible`, `is-focused`, `hover`; Angular's ng-touched, ng-dirty,
// ng-pristine): every fill moves focus and touches a field, so their changes are no news.
const CLASS_NOISE = /focus|hover|touched|dirty|pristine/i;
// The tokens of a field's wrapper that speak of its validity (Semantic UI's `.field.error`,
// Bootstrap 3's `has-error`, Ant's `ant-form-item-has-error`); a wrapper's other tokens follow
// presentation (a floating label, a filled look) and are not reported.
const VALIDITY = /error|invalid|valid|danger|warning|success/i;
const WRAPPER_LEVELS = 3;  // how far above a field its wrapper may be
const WRAPPER_SIZE = 40;   // the most elements a wrapper holds: a field's, not a form's
// Containers whose order is told: by their first rows (not header rows), and the column sorted.
const ORDERED = new Set(["table", "grid", "treegrid", "list"]);
const ORDER_ROWS = 3;
const ROW_SELECTOR = "tr, li, [role=row], [role=listitem], [role=treeitem]";
const ITEM_ROLES = { listbox: /^option$/, menu: /^menuitem/, menubar: /^menuitem/,
  tree: /^treeitem$/, tablist: /^tab$/, radiogroup: /^radio$/, toolbar: /./, grid: /^(row|gridcell)$/ };

function delta(args) {
  return withWalkMemos(() => changesSince(args));
}

// -- what entries carry for the delta alone -------------------------------------------------------

function deltaFacts(el, tag, rich, entry) {
  // Sets on a new entry what only the delta reports of it, and answers it as a suffix of the
  // entry's signature (so that a change of it is journaled). Runs for every entry a walk makes:
  // a control costs a class read, a list or table its first rows.
  if (entry.kind === "control") {
    if (!rich) return "";
    entry.classes = classTokens(el.getAttribute("class"));
    if (FIELD_TAGS.has(tag)) entry.wrapper = wrapperTokens(el);
    return entry.classes || entry.wrapper ? `\nc${entry.classes}\nw${entry.wrapper || ""}` : "";
  }
  if (entry.kind !== "container" || !ORDERED.has(entry.role)) return "";
  const { header, rows } = tableRows(el, entry.role, ORDER_ROWS);
  entry.order = rows.map(row => clean(rowText(row, null, 40), 40)).filter(Boolean);
  entry.sort = header ? sortOf(header) : "";
  return `\no${entry.order.join("\n")}\ns${entry.sort}`;
}

function classTokens(raw) {
  // A class attribute without the tokens that follow focus and the pointer, spaced once.
  if (!raw) return "";
  if (!CLASS_NOISE.test(raw)) return UNCLEAN.test(raw) ? raw.replace(/\s+/g, " ").trim() : raw;
  return raw.split(/\s+/).filter(token => token && !CLASS_NOISE.test(token)).join(" ");
}

function wrapperTokens(field) {
  // The validity tokens of the elements around a field that hold no other field (up to
  // WRAPPER_LEVELS up): what marks a field in error when the field itself carries nothing.
  let tokens = "";
  const body = field.ownerDocument.body;
  for (let p = field.parentElement, level = 0; p && p !== body && level < WRAPPER_LEVELS;
    p = p.parentElement, level++) {
    const raw = p.getAttribute("class");
    if (!raw || !VALIDITY.test(raw)) continue;
    if (!holdsOnly(p, field)) break;
    for (const token of raw.split(/\s+/)) {
      if (VALIDITY.test(token) && !CLASS_NOISE.test(token)) tokens += (tokens ? " " : "") + token;
    }
  }
  return tokens;
}

function holdsOnly(wrapper, field) {
  // Whether wrapper is small and holds no field but `field`.
  const walker = wrapper.ownerDocument.createTreeWalker(wrapper, NodeFilter.SHOW_ELEMENT);
  let seen = 0;
  for (let el = walker.nextNode(); el; el = walker.nextNode()) {
    if (++seen > WRAPPER_SIZE || (el !== field && FIELD_TAGS.has(el.tagName))) return false;
  }
  return true;
}

function headerRow(row) {
  // A row of column headers: in a <thead>, or of <th>s only, or of ARIA column headers.
  if (row.parentElement && row.parentElement.tagName === "THEAD") return true;
  const first = row.firstElementChild;
  if (!first) return false;
  if (first.getAttribute("role") === "columnheader") return true;
  return first.tagName === "TH" && !row.querySelector(":scope > td");
}

function tableRows(el, role, n) {
  // {header, rows}: a table's or grid's header row and first n other rows, or a list's first
  // n items. An ARIA grid's rows are looked for among its first elements only: a grid that
  // shows its rows later than 300 elements in is not told by them.
  const rows = [];
  let header = null;
  if (el.tagName === "TABLE") {
    header = el.tHead ? el.tHead.rows[0] || null : null;
    for (const body of el.tBodies) {
      for (const row of body.rows) {
        if (headerRow(row)) header = header || row;
        else if (rows.push(row) >= n) return { header, rows };
      }
    }
    return { header, rows };
  }
  if (role === "list") {
    for (let item = el.firstElementChild; item && rows.length < n; item = item.nextElementSibling) {
      if (item.tagName === "LI" || item.getAttribute("role") === "listitem") rows.push(item);
    }
    return { header, rows };
  }
  const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_ELEMENT);
  let seen = 0;
  for (let node = walker.nextNode(); node && rows.length < n && seen < 300;
    node = walker.nextNode(), seen++) {
    if (node.getAttribute("role") !== "row") continue;
    if (headerRow(node)) header = header || node;
    else rows.push(node);
  }
  return { header, rows };
}

function sortOf(header) {
  // The column a table is sorted by, as its header says it (aria-sort): "Amount descending".
  const sorted = [];
  for (const cell of header.children) {
    const sort = cell.getAttribute("aria-sort");
    if (sort && sort !== "none") sorted.push(`${clean(cell.textContent, 40)} ${sort}`);
  }
  return sorted.join("; ");
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

function controlList(controls, mint, texts = null) {
  // Up to CONTAINER_CONTROLS controls, each with a context when its role and name repeat (of
  // a removed row: the text its entries had, from `texts`).
  const counts = new Map();
  for (const [, e] of controls) counts.set(`${e.role}\n${e.name}`, (counts.get(`${e.role}\n${e.name}`) || 0) + 1);
  return controls.slice(0, CONTAINER_CONTROLS).map(([node, e]) => {
    const item = report(node, e, mint);
    delete item.tag;
    if (!item.context && counts.get(`${e.role}\n${e.name}`) > 1) {
      const row = !node.isConnected && texts && node.closest(ROW_SELECTOR);
      const text = row && clean(texts.get(row) || "", 40);
      const context = node.isConnected ? contextOf(node, e.name)
        : text ? `${row.tagName === "TR" ? "row" : "item"}: ${JSON.stringify(text)}` : null;
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

function rowOf(node, container) {
  // The row or item of a container that node is in (itself maybe), or null.
  const row = node.closest ? node.closest(ROW_SELECTOR) : null;
  return row && !composedContains(row, container) ? row : null;  // not a row around it
}

function withLines(out, units, kept) {
  // Sets out.lines to the first CONTAINER_LINES of units (each [row] or [null, text]) that
  // `kept` does not skip, each a whole row or text; out.linesMore counts the others (without
  // reading them: a table of thousands of rows that appears costs its first rows). A table's
  // header row is a line of its own, beyond the count.
  const lines = [];
  let header = null, more = 0;
  for (const [row, text] of units) {
    if (lines.length >= CONTAINER_LINES && (header !== null || !row || !headerRow(row))) {
      more++;
      continue;
    }
    const line = clean(row && row.isConnected ? rowText(row, null, 80) : text, 80);
    if (!line || (kept && !kept(line))) continue;
    if (row && header === null && headerRow(row)) header = line;
    else lines.push(line);
  }
  if (header !== null) lines.unshift(header);
  if (lines.length) out.lines = lines;
  if (more) out.linesMore = more;
}

function unitsIn(container, items) {
  // The lines a container's entries make, in order: one per row or item they are in (its text:
  // not a row cut in the middle), else one per text, heading or live region. A row that is a
  // control (a tree item, an option) is said by that control. A removed row can no longer be
  // read: its line is the text its entries had.
  const units = [], rows = new Map();
  for (const [node, e] of items) {
    if (e.kind === "control") continue;
    const text = e.kind === "heading" ? e.name : e.text;
    const row = rowOf(node, container);
    if (!row) {
      units.push([null, text]);
      continue;
    }
    let unit = rows.get(row);
    if (!unit) {
      rows.set(row, unit = [row, row.isConnected ? null : ""]);
      const own = model.entries.get(row);
      if (!own || own.kind !== "control") units.push(unit);
    }
    if (!row.isConnected && text) unit[1] += (unit[1] ? " " : "") + text;
  }
  return units;
}

function summary(el, entry) {
  // A container that appeared: itself, its size, its first lines and its controls. A live
  // region (an alert, a toast) is said by its text.
  const out = report(el, entry, true);
  const inside = entriesIn(el);
  const size = entry.kind === "container" ? sizeOf(el, entry.role, inside) : null;
  if (size) out.size = size;
  const units = unitsIn(el, inside);
  if (entry.text) units.unshift([null, entry.text]);
  if (entry.kind === "live" && !entry.text && units.length) {
    const [row, text] = units.shift();
    out.name = clean(row ? rowText(row, null, 50) : text, 50);
  }
  withLines(out, units, line => line !== entry.name && line !== out.name);
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
  const rows = new Set(items.map(([node]) => rowOf(node, el)));
  rows.delete(null);
  // Rows of a table, items of a list or a tree (its tree items are its items), else elements.
  const pattern = ITEM_ROLES[entry.role];
  const asItems = pattern && items.every(([, e]) => e.kind === "control" && pattern.test(e.role));
  const unit = rows.size ? (entry.role === "table" || entry.role === "grid" ? "row" : "item")
    : asItems ? "item" : "element";
  const count = rows.size || items.length;
  out[verb] = `${count} ${unit}${count === 1 ? "" : "s"}`;
  // A line per row (its own text), or per text when they are not in rows.
  withLines(out, unitsIn(el, items), null);
  const controls = items.filter(([, e]) => e.kind === "control");
  if (controls.length) {
    out.controls = controlList(controls, mint, mint ? null : textsByRow(items));
    if (controls.length > CONTAINER_CONTROLS) out.controlsMore = controls.length - CONTAINER_CONTROLS;
  }
  return out;
}

function insideAny(node, set) {
  for (let p = composedParent(node); p; p = composedParent(p)) if (set.has(p)) return true;
  return false;
}

// The fields of a change that are no state: a class change beside only these is news.
const PLAIN_FIELDS = new Set(["role", "name", "text", "value"]);

function classChange(field, from, to) {
  // [field, from, to, {classesAdded, classesRemoved}] when two class strings differ in tokens.
  const was = new Set((from || "").split(" ")), now = new Set((to || "").split(" "));
  const added = [...now].filter(token => token && !was.has(token));
  const removed = [...was].filter(token => token && !now.has(token));
  if (!added.length && !removed.length) return null;
  return [field, from || "", to || "", { ...(added.length ? { classesAdded: added } : {}),
    ...(removed.length ? { classesRemoved: removed } : {}) }];
}

function fieldsChanged(before, after) {
  // [field, from, to, more?] for what differs between two entries of one element.
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
  // A class change beside a state's styles that state (Bootstrap's `active` with
  // aria-selected, `collapsed` with aria-expanded): the state says it already.
  if (!out.some(([field]) => !PLAIN_FIELDS.has(field))) {
    for (const change of [classChange("className", before.classes, after.classes),
      classChange("wrapperClassName", before.wrapper, after.wrapper)]) if (change) out.push(change);
  }
  if ((before.sort || "") !== (after.sort || "")) {
    out.push(["sort", before.sort || "none", after.sort || "none"]);
  }
  if (before.order && after.order && before.order.join("\n") !== after.order.join("\n")) {
    out.push(["order", before.order, after.order]);  // kept only when no row changed (below)
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

function textsByRow(items) {
  // Per row or item, the text its text entries among items hold (read from the entries: a
  // removed row can no longer be read).
  const texts = new Map();
  for (const [el, e] of items) {
    if (e.kind !== "text") continue;
    const row = el.closest ? el.closest(ROW_SELECTOR) : null;
    if (row) texts.set(row, (texts.get(row) || "") + "\n" + e.text);
  }
  return texts;
}

function pairRerendered(appeared, disappeared) {
  // Pages that render again (innerHTML, a list without keys) replace elements with new ones
  // of the same kind, role and name in the same place: to a reader those stayed. Each such
  // pair is taken out of appeared and disappeared; what differs is a change. Exact pairs come
  // first: the same text, a control of the same name in a row of the same text, wherever it
  // went (a list sorted by rendering it again: a row's "Done" is the new "Done" of that row,
  // not of the row now in its place); then the rest, in order.
  const keyOf = entry => entry.kind === "text" || entry.kind === "live" ? entry.kind
    : `${entry.kind}\n${entry.role}\n${entry.name}`;
  const texts = [textsByRow(disappeared), textsByRow(appeared)];
  const exactOf = (side, [el, entry]) => {
    if (entry.kind === "text" || entry.kind === "live") return `${entry.kind}\n${entry.text}`;
    const row = el.closest ? el.closest(ROW_SELECTOR) : null;
    return `${keyOf(entry)}\n${(row && texts[side].get(row)) || ""}`;
  };
  const pairs = [], paired = new Set();
  const pass = (oldKey, newKey, eligible = () => true) => {
    const places = new Map();  // where -> key -> disappeared items, in order
    for (const item of disappeared) {
      const at = !paired.has(item) && eligible(item) && placeOf(item[0]);
      if (!at) continue;
      let keys = places.get(at);
      if (!keys) places.set(at, keys = new Map());
      const key = oldKey(item);
      if (!keys.has(key)) keys.set(key, []);
      keys.get(key).push(item);
    }
    for (const item of appeared) {
      const at = !paired.has(item) && eligible(item) && placeOf(item[0]);
      const waiting = at && places.has(at) && places.get(at).get(newKey(item));
      if (!waiting || !waiting.length) continue;
      const old = waiting.shift();
      pairs.push([old, item]);
      paired.add(old).add(item);
    }
  };
  pass(item => exactOf(0, item), item => exactOf(1, item));
  // Then the rest in order, but rows that came and went whole pair so only when one row is
  // left at their place on each side (that row, edited): several rows that differ are other
  // rows (a table's next page), and pairing them would give an old row's ref to another's.
  const rowsLeft = side => {
    const rows = new Map();  // where -> rows left
    for (const item of side) {
      const row = !paired.has(item) && wholeRow(item[0]);
      if (!row) continue;
      const at = placeOf(item[0]);
      if (!rows.has(at)) rows.set(at, new Set());
      rows.get(at).add(row);
    }
    return rows;
  };
  const left = [rowsLeft(disappeared), rowsLeft(appeared)];
  const alone = item => {
    if (!wholeRow(item[0])) return true;
    const at = placeOf(item[0]);
    return left.every(rows => rows.has(at) && rows.get(at).size === 1);
  };
  pass(item => keyOf(item[1]), item => keyOf(item[1]), alone);
  const order = new Map(appeared.map((item, index) => [item, index]));
  pairs.sort((a, b) => order.get(a[1]) - order.get(b[1]));
  return [appeared.filter(item => !paired.has(item)), disappeared.filter(item => !paired.has(item)),
    pairs];
}

function wholeRow(el) {
  // The row or item el is in when that row came or went whole in this act (not a row whose
  // cells were rendered again), else null.
  const row = el.closest ? el.closest(ROW_SELECTOR) : null;
  if (!row) return null;
  for (let node = el; node; node = composedParent(node)) {
    if (model.placed.has(node)) return node === row || node.contains(row) ? row : null;
  }
  return null;
}

function rowContent(node, container) {
  // Whether node is (or was, until this act removed it) in a row of container that is not a
  // header row.
  let row = null;
  for (let p = node; p; p = composedParent(p) || model.placed.get(p)) {
    if (p === container) return row !== null && !headerRow(row);
    if (!row && p.nodeType === 1 && p.matches(ROW_SELECTOR)) row = p;
  }
  return false;
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
  // A container, or a live region (an alert with its dismiss button), comes with what it holds.
  const whole = ([, e]) => e.kind === "container" || e.kind === "live";
  const came = new Set(appeared.filter(whole).map(([el]) => el));
  const tops = inOrder(appeared.filter(([el]) => !insideAny(el, came)));
  const went = new Set(disappeared.filter(whole).map(([el]) => el));
  const gone = inOrder(disappeared.filter(([el]) => !insideAny(el, went)));
  const out = { appeared: [], disappeared: [], changed: [] };
  const cameGroups = grouped(tops, "added");
  const wentGroups = grouped(gone, "removed");
  for (const [el, entry, items, verb] of cameGroups.slice(0, limit)) {
    out.appeared.push(items ? groupReport(el, entry, items, verb, true)
      : whole([el, entry]) ? summary(el, entry) : report(el, entry, true));
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
  // What changed inside rows: a table or list whose rows did not change in content, only in
  // order, was sorted.
  const moved = [...appeared, ...disappeared, ...changed.map(([el]) => [el])].map(([el]) => el);
  let changes = 0;
  for (const [el, before, after] of inOrder(changed)) {
    for (const [field, from, to, more] of fieldsChanged(before, after)) {
      if (field === "order" && moved.some(node => rowContent(node, el))) continue;
      changes++;
      if (out.changed.length >= limit) continue;
      const item = report(el, after, true);
      delete item.states;
      const short = value => typeof value === "string" ? clean(value, 80) : value;
      out.changed.push({ ...item, field, from: short(from), to: short(to), ...more });
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
