// Watching during an act: the settle probe (when did the DOM last change, is a loading
// indicator visible) and the mutation records the delta is computed from.

//
// arm() starts recording DOM mutations (with old values) and notes form values; the records
// drive both the settle probe (when did the DOM last change, is a loading indicator visible)
// and delta() (what appeared, disappeared or changed), so neither needs a second full read.

const MAX_RECORDS = 50000;
const SPINNERS = '[aria-busy="true"], .spinner, .loading, .skeleton, [role="progressbar"]';
const watch = globalThis.__cdpseqWatch || (globalThis.__cdpseqWatch = {
  observer: null, records: [], overflow: false, lastMutation: 0, lastStyleChange: 0, url: "",
  title: "", values: new Map(),
});

function onMutations(records) {
  let counted = false, styled = false;
  for (const r of records) {
    // Style-only churn (animations, hover effects) is not a change of content; but a style or
    // class change may move things, which actionability's stable check wants to know.
    if (r.type === "attributes" && (r.attributeName === "style" || r.attributeName === "class")) {
      styled = true;
    }
    if (r.type !== "attributes" || r.attributeName !== "style") counted = true;
    if (watch.records.length < MAX_RECORDS) watch.records.push(r);
    else watch.overflow = true;
  }
  if (counted) watch.lastMutation = performance.now();
  if (styled) watch.lastStyleChange = performance.now();
}

function noteValues(root) {
  for (const el of root.querySelectorAll("input, select, textarea")) {
    watch.values.set(el, fieldValue(el));
  }
}

function fieldValue(el) {
  const type = (el.getAttribute("type") || "").toLowerCase();
  if (type === "checkbox" || type === "radio") return { checked: el.checked };
  if (type === "password" || reg.secrets.has(el)) return { value: el.value ? "••••" : "" };
  return { value: clean(el.value, 60) };
}

function arm() {
  if (watch.observer) watch.observer.disconnect();
  watch.observer = new MutationObserver(onMutations);
  watch.records = [];
  watch.overflow = false;
  watch.values = new Map();
  watch.lastMutation = performance.now();
  watch.url = location.href;
  watch.title = document.title;
  const options = { subtree: true, childList: true, attributes: true, characterData: true,
    attributeOldValue: true, characterDataOldValue: true };
  const roots = [document];
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_ELEMENT);
  for (let el = walker.currentNode; el; el = walker.nextNode()) {
    if (el.shadowRoot) roots.push(el.shadowRoot);
    if (el.tagName === "IFRAME") {
      try { if (el.contentDocument) roots.push(el.contentDocument); } catch (e) { /* x-origin */ }
    }
  }
  for (const root of roots) {
    watch.observer.observe(root, options);
    noteValues(root);
  }
  return { url: watch.url, title: watch.title };
}

function visibleSpinner() {
  for (const el of document.querySelectorAll(SPINNERS)) {
    if (el.checkVisibility({ checkVisibilityCSS: true, opacityProperty: true })) {
      const rect = el.getBoundingClientRect();
      if (rect.width > 0 && rect.height > 0) return describe(el);
    }
  }
  return null;
}

function probe() {
  if (!watch.observer) arm();
  return { quietMs: performance.now() - watch.lastMutation, spinner: visibleSpinner() };
}

function settleWait(args) {
  // Resolves once the DOM has been quiet for quietMs with no loading indicator visible, or
  // after maxMs; either way with what it saw.
  if (!watch.observer) arm();
  const started = performance.now();
  return new Promise(resolve => {
    const check = () => {
      const state = probe();
      const waited = performance.now() - started;
      if ((state.quietMs >= args.quietMs && !state.spinner) || waited >= args.maxMs) {
        resolve(state);
        return;
      }
      const untilQuiet = Math.max(args.quietMs - state.quietMs, 0);
      setTimeout(check, Math.max(Math.min(untilQuiet + 1, args.maxMs - waited, 50), 5));
    };
    check();
  });
}
