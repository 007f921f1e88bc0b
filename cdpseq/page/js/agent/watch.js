// Watching during an act: arm() before the first step opens the page model's journal (the
// delta is computed from it, see delta.js), and the settle probe says when the page last
// changed and whether a loading indicator is visible. Both read what the tracking observer
// (tracking.js) sees, in every root of the page the model has walked.

const SPINNERS = '[aria-busy="true"], .spinner, .loading, .skeleton, [role="progressbar"]';
const watch = { url: "", title: "" };

function arm() {
  // Bring the model up to date (walking the whole page only the first time), then keep what
  // each entry was before it changes.
  refreshModel();
  model.journal = new Map();
  model.armedFocus = model.focused;
  model.touched = new Set();  // what the steps act on: focus going there is no news
  model.placed = new WeakMap();  // where this act's added and removed subtrees hung
  reg.tracking.lastMutation = performance.now();
  watch.url = location.href;
  watch.title = document.title;
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
  if (!model.built) arm();
  const t = reg.tracking;
  noteMutations(t.observer.takeRecords());
  return { quietMs: performance.now() - t.lastMutation, spinner: visibleSpinner() };
}

function settleWait(args) {
  // Resolves once the DOM has been quiet for quietMs with no loading indicator visible, or
  // after maxMs; either way with what it saw.
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
