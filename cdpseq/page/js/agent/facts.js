// What the page model's entries carry for the delta alone. Some of what a user sees lives in no
// role, name or state: a control's class tokens, the validity tokens of a field's wrapper (on
// many sites a class is the only sign of an error), and a table's or list's first rows and
// sorted column (a re-sort moves rows and changes nothing else). entryOf (model.js) asks
// deltaFacts for them and puts them in the entry's signature, so that a change is journaled;
// delta.js reports them.

// Class tokens that follow focus or the pointer, or a form library's note of what was touched
// (MUI's Mui-focused, `focus-visible`, `is-focused`, `hover`; Angular's ng-touched, ng-dirty,
// ng-pristine): every fill moves focus and touches a field, so their changes are no news; and
// tokens that follow whether a field holds anything (Quill's ql-blank, `is-empty`, `filled`,
// `has-value`): the value is reported itself.
const CLASS_NOISE = /focus|hover|touched|dirty|pristine|blank|empty|filled|has-?value/i;
// On a form field, `active` follows its picker or its focus too (flatpickr's input is "active"
// while its calendar is open); on a button it may be the only sign that it is toggled on.
const FIELD_CLASS_NOISE = new RegExp(`${CLASS_NOISE.source}|(^|\\s)(is-)?active(\\s|$)`, "i");
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

function deltaFacts(el, tag, rich, entry) {
  // Sets on a new entry what only the delta reports of it, and answers it as a suffix of the
  // entry's signature (so that a change of it is journaled). Runs for every entry a walk makes:
  // a control costs a class read, a list or table its first rows.
  if (entry.kind === "control") {
    if (!rich) return "";
    entry.classes = classTokens(el.getAttribute("class"),
      FIELD_TAGS.has(tag) ? FIELD_CLASS_NOISE : CLASS_NOISE);
    if (FIELD_TAGS.has(tag)) entry.wrapper = wrapperTokens(el);
    return entry.classes || entry.wrapper ? `\nc${entry.classes}\nw${entry.wrapper || ""}` : "";
  }
  if (entry.kind !== "container" || !ORDERED.has(entry.role)) return "";
  const { header, rows } = tableRows(el, entry.role, ORDER_ROWS);
  entry.order = rows.map(row => clean(rowText(row, null, 40), 40)).filter(Boolean);
  entry.sort = header ? sortOf(header) : "";
  return `\no${entry.order.join("\n")}\ns${entry.sort}`;
}

function classTokens(raw, noise) {
  // A class attribute without the tokens that follow focus and the pointer, spaced once.
  if (!raw) return "";
  if (!noise.test(raw)) return UNCLEAN.test(raw) ? raw.replace(/\s+/g, " ").trim() : raw;
  return raw.split(/\s+/).filter(token => token && !noise.test(token)).join(" ");
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
    // Named as a reader names it: without an aria-hidden arrow that shows the direction.
    if (sort && sort !== "none") sorted.push(`${clean(contentName(cell), 40)} ${sort}`);
  }
  return sorted.join("; ");
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
