// Change tracking, so that a repeated read of an unchanged page costs next to nothing.
//
// A counter that moves on every DOM mutation (style-only churn aside) in every root a full
// read walked, and on the events after which a page can look different without a mutation:
// input and change (form values are properties), focus and hover (:focus, :hover styles),
// resize (media queries). readAgain() also re-checks form values and looks for shadow roots
// and frames no read has walked yet; anything off and it reads in full.
//
// The same observer keeps what a read can reuse. Every element a mutation may have changed
// the name of (the mutated node and its ancestors, across shadow roots) goes into `dirty`; a
// control outside it keeps the name, kind, hint and row text the last read computed for it
// (`rows`). A batch of mutations too big to mark moves `epoch` on, which voids every cached
// row. Attribute changes that can make elements interactive, and added elements, void the
// cached query results of RICH (`richStale`).

const TRACKING = 2;  // the shape of reg.tracking; a newer agent replaces an older one's
const RICH_NAMES = new Set(["role", "onclick", "tabindex", "contenteditable", "aria-label",
  "aria-labelledby", "aria-checked", "aria-disabled", "aria-expanded", "aria-selected", "title"]);
const MAX_MARKED_RECORDS = 2000;

function noteMutations(records) {
  const t = reg.tracking;
  const marked = records.length <= MAX_MARKED_RECORDS ? new Set() : null;
  let counted = false;
  for (const r of records) {
    if (r.type === "attributes") {
      // Style-only churn (animations, hover effects) is not a change of content.
      if (r.attributeName === "style") continue;
      if (RICH_NAMES.has(r.attributeName)) t.richStale = true;
    } else if (r.type === "childList" && !t.richStale) {
      for (const node of r.addedNodes) if (node.nodeType === 1) t.richStale = true;
    }
    counted = true;
    if (!marked) continue;
    for (let n = r.target; n && !marked.has(n); n = n.parentNode || n.host) {
      marked.add(n);
      t.dirty.add(n);
    }
  }
  if (!marked && counted) t.epoch++;
  if (counted) t.version++;
}

if (!reg.tracking || reg.tracking.shape !== TRACKING) {
  if (reg.tracking) reg.tracking.observer.disconnect();
  const tracking = reg.tracking = {
    shape: TRACKING, version: 0, roots: new WeakSet(), values: new Map(),
    dirty: new WeakSet(), epoch: 0, rows: new WeakMap(), rich: new WeakMap(), richStale: false,
  };
  tracking.observer = new MutationObserver(noteMutations);
  for (const type of ["input", "change", "focusin", "focusout", "mouseover", "mouseout",
    "resize", "pageshow"]) {
    window.addEventListener(type, () => { tracking.version++; }, true);
  }
}

function track(root) {
  if (reg.tracking.roots.has(root)) return;
  reg.tracking.roots.add(root);
  reg.tracking.observer.observe(root, { subtree: true, childList: true, attributes: true,
    characterData: true });
}

function formKey(el) {
  return el.type === "checkbox" || el.type === "radio" ? String(el.checked)
    : el.tagName === "SELECT" ? String(el.selectedIndex) : el.value;
}

function unchangedSince(args) {
  const t = reg.tracking;
  noteMutations(t.observer.takeRecords());
  if (t.version !== args.version || location.href !== args.url ||
      document.title !== args.title) {
    return false;
  }
  for (const [el, key] of t.values) if (!el.isConnected || formKey(el) !== key) return false;
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_ELEMENT);
  for (let el = walker.currentNode; el; el = walker.nextNode()) {
    if (el.shadowRoot && !t.roots.has(el.shadowRoot)) return false;
    if (el.tagName === "IFRAME") {
      let doc = null;
      try { doc = el.contentDocument; } catch (e) { doc = null; }
      if (doc && !t.roots.has(doc)) return false;
    }
  }
  return t.version === args.version;
}

function readAgain(opts) {
  return unchangedSince(opts) ? JSON.stringify({ unchanged: true }) : read(opts);
}
