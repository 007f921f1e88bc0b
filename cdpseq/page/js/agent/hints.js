// Selector hints: a readable selector for each element a read or delta reports.

// Per parent, its children's positions by tag: counted once per read or delta (a read asks for
// every row of a table), and counted afresh by the next (rows come and go in between).
let siblingIndex = new WeakMap();
// A parent with at most this many children is counted on the spot (no map to keep: a list
// item's few parts), one with more once per walk (a table's rows).
const FEW_CHILDREN = 8;

function nthOfType(el) {
  // [el's position among its parent's children of its tag, how many there are], 1-based.
  const parent = el.parentNode;
  if (!parent || (!el.previousElementSibling && !el.nextElementSibling)) return [1, 1];
  let map = siblingIndex.get(parent);
  if (!map) {
    // Counted on the spot while the children are few (looked at up to one more than that:
    // childElementCount goes over every child, and a list's 2,000 items each asked it).
    const tag = el.tagName;
    let index = 1, of = 0, looked = 0, kid = parent.firstElementChild;
    for (; kid && looked <= FEW_CHILDREN; kid = kid.nextElementSibling, looked++) {
      if (kid.tagName !== tag) continue;
      of++;
      if (kid === el) index = of;
    }
    if (!kid) return [index, of];
    map = new Map();
    const counts = new Map();
    for (const kid of parent.children) {
      const count = (counts.get(kid.tagName) || 0) + 1;
      counts.set(kid.tagName, count);
      map.set(kid, [count, counts]);
    }
    siblingIndex.set(parent, map);
  }
  const entry = map.get(el);
  return entry ? [entry[0], entry[1].get(el.tagName)] : [1, 1];
}

const cssEscape = s => (globalThis.CSS && CSS.escape ? CSS.escape(s) : s);

// What a walk over the page (a read, a delta, a refresh of the page model) asks of many elements
// and would otherwise compute per element, kept for that walk only (see withWalkMemos): nothing
// changes the page while one runs.
// Per root, how many elements carry each test id or form name, so that checking a hint's
// uniqueness costs a map lookup.
let hintCounts = null;
// Per row element, its text for the contexts of action controls in it (contextOf), for the same
// walk; per parent of action controls, their context from the row around them; per parent of
// controls with a row's context, each element around them: its depth and the rows around it
// (context.js's rowsAt).
let rowTexts = null;
let rowContexts = null;
let rowScopes = null;
// Per ancestor of a hinted element, its path (pathOf, ancestorPath).
let pathsAbove = null;
// Per root, each labelled control's labels (labelsOf).
let labelsIn = null;
// Per table row, whether it is in an ARIA grid (roleOf's cells).
let gridRows = null;
// The modal dialog on top, once asked (topModal), or undefined.
let modalNow;
// Per root, how often a cursor or generated content was asked, then which elements its rules
// may give one (seen.js's styledBy).
let styledIn = null;

function withWalkMemos(run) {
  if (hintCounts) return run();  // inside one already (a delta refreshes the page model)
  hintCounts = new Map();
  rowTexts = new Map();
  rowContexts = new Map();
  rowScopes = new Map();
  pathsAbove = new Map();
  labelsIn = new Map();
  gridRows = new Map();
  modalNow = undefined;
  siblingIndex = new WeakMap();
  styledIn = new Map();
  try { return run(); } finally {
    hintCounts = rowTexts = rowContexts = rowScopes = pathsAbove = labelsIn = gridRows =
      styledIn = null;
    modalNow = undefined;
    siblingIndex = new WeakMap();
  }
}

function labelsOf(el) {
  // el.labels, which Chrome finds by going over every label of the root: a read asks it of
  // every field, so within one it is one pass over the labels (a list of 3,000 to-dos, each
  // with a label and a checkbox, took seconds).
  if (!labelsIn) return el.labels ? Array.from(el.labels) : [];
  const root = el.getRootNode();
  let controls = labelsIn.get(root);
  if (!controls) {
    labelsIn.set(root, controls = new Map());
    for (const label of root.querySelectorAll("label")) {
      const control = label.control;
      if (!control) continue;
      const labels = controls.get(control);
      if (labels) labels.push(label);
      else controls.set(control, [label]);
    }
  }
  return controls.get(el) || [];
}

function countIn(root, attr, key) {
  // How many elements of root have `attr` with the value (and, for name, the tag) in key.
  const keyOf = attr === "name" ? e => `${e.tagName}\n${e.getAttribute(attr)}` : e => e.getAttribute(attr);
  if (!hintCounts) {
    let n = 0;
    for (const e of root.querySelectorAll(`[${attr}]`)) if (keyOf(e) === key) n++;
    return n;
  }
  let perRoot = hintCounts.get(root);
  if (!perRoot) hintCounts.set(root, perRoot = {});
  let counts = perRoot[attr];
  if (!counts) {
    counts = perRoot[attr] = new Map();
    for (const e of root.querySelectorAll(`[${attr}]`)) {
      const k = keyOf(e);
      counts.set(k, (counts.get(k) || 0) + 1);
    }
  }
  return counts.get(key) || 0;
}

function strongSelector(el) {
  // A selector that names this element on purpose, and only it in its root: test id,
  // stable-looking id, form field name. Its root is asked only when it has one of them (most
  // controls have none).
  if (!el.hasAttributes()) return null;
  const testid = el.getAttribute("data-testid");
  const id = el.id;
  const tag = el.tagName;
  const name = tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA"
    ? el.getAttribute("name") : null;
  if (!testid && !id && !name) return null;
  const root = el.getRootNode();
  if (testid && countIn(root, "data-testid", testid) === 1) {
    return `[data-testid="${cssEscape(testid)}"]`;
  }
  if (id && !/\d{3,}|^:/.test(id)) {
    const byId = `#${cssEscape(id)}`;
    if (root.querySelectorAll(byId).length === 1) return byId;
  }
  if (name && countIn(root, "name", `${tag}\n${name}`) === 1) {
    return `${tag.toLowerCase()}[name="${cssEscape(name)}"]`;
  }
  return null;
}

function pathOf(el) {
  // A CSS path to el of child steps (a tag, and its :nth-of-type when its parent has several
  // of that tag), from the nearest ancestor that makes it unique by construction: one with an id
  // no other element of the root carries (not a generated-looking one), or body. Then it names
  // el alone without a query of the page (a read of a big grid asks for thousands of these).
  // Only a path from the top of a shadow root is not anchored: { path, anchored }. The paths of
  // the ancestors on the way are kept for the read or delta (the rows of a table share all but
  // their last steps). A loop up the ancestors, not recursion: a tree may be 10,000 levels deep.
  const tag = el.tagName.toLowerCase();
  if (tag === "html" || tag === "body") return { path: tag, anchored: true };
  const chain = [el];  // el, then the ancestors whose paths are built from the one above
  let above = null;  // the path of the ancestor the chain hangs from (none: a shadow root's top)
  for (let node = el.parentNode; node && node.nodeType === 1; node = node.parentNode) {
    above = ancestorPath(node);
    if (above) break;
    chain.push(node);
  }
  let path = null;
  for (let k = chain.length - 1; k >= 0; k--) {
    const node = chain[k];
    const [index, of] = nthOfType(node);
    const name = node.tagName.toLowerCase();
    const step = of > 1 ? `${name}:nth-of-type(${index})` : name;
    path = above ? { path: `${above.path} > ${step}`, anchored: above.anchored }
      : { path: step, anchored: false };
    if (k > 0 && pathsAbove) pathsAbove.set(node, path);
    above = path;
  }
  return path;
}

function ancestorPath(node) {
  // The path of an ancestor of the element being hinted when it is known without the ones
  // above it: kept already, its own id when that is unique, or html or body; else null.
  let known = pathsAbove && pathsAbove.get(node);
  if (known) return known;
  const id = node.id;
  const tag = node.tagName.toLowerCase();
  if (id && !/\d{3,}/.test(id) && countIn(node.getRootNode(), "id", id) === 1) {
    known = { path: `#${cssEscape(id)}`, anchored: true };
  } else if (tag === "html" || tag === "body") {
    known = { path: tag, anchored: true };
  } else {
    return null;
  }
  if (pathsAbove) pathsAbove.set(node, known);
  return known;
}

function selectorOf(el) {
  // A selector that finds el in its root: a strong one, else a CSS path, with ">> nth=K" when
  // a path that is not anchored also matches other elements there.
  const strong = strongSelector(el);
  if (strong) return strong;
  const { path, anchored } = pathOf(el);
  if (anchored || !el.isConnected) return path;
  const matches = el.getRootNode().querySelectorAll(path);
  if (matches.length <= 1) return path;
  const index = Array.prototype.indexOf.call(matches, el);
  return index >= 0 ? `${path} >> nth=${index}` : path;
}

function hintOf(el) {
  // Elements inside iframes or shadow roots: the host's hint, then ">>", then the inner hint.
  let hint = selectorOf(el);
  let root = el.getRootNode();
  while (true) {
    if (root instanceof ShadowRoot) {
      hint = `${selectorOf(root.host)} >> ${hint}`;
      root = root.host.getRootNode();
    } else if (root.defaultView && root.defaultView.frameElement) {
      const frame = root.defaultView.frameElement;
      hint = `${selectorOf(frame)} >> ${hint}`;
      root = frame.getRootNode();
    } else {
      return hint;
    }
  }
}
