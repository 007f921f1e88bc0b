// Watching during an act: arm() before the first step opens the page model's journal (the
// delta is computed from it, see delta.js), and the settle probe says when the page last
// changed and whether a loading indicator is visible. Both read what the tracking observer
// (tracking.js) sees, in every root of the page the model has walked.
//
// Once the DOM moved, an animation still running counts as a change to come: a page that waits
// for transitionend (a modal shown once its backdrop faded in, focus taken once the modal is in
// place) is not done before it ends, nor is a panel half open. Only finite animations that end
// within ANIMATION_BOUND count, and no transition of a color or a shadow (a hover's, a focus
// ring's). The end of the last one seen counts as a change at that time: quietMs is negative
// until it ends, and the quiet window runs from its end (its transitionend comes a frame later,
// and what the page does then is seen).
//
// No quiet window is waited out when the page is provably idle: settleWait lets an animation
// frame pass (what a click handler defers with requestAnimationFrame, or a framework to its
// next frame, has run by then; a frame asked for from that frame is the timer watch's to count)
// and two tasks more (every microtask queued meanwhile, and the intersection observers' reports
// of that frame, have run). After a pointer action that frame is the one the input brought,
// noted as its last event came (noteFrame): when it has passed, it is not waited for again.
// When nothing moved since arm() it answers `moved: false`; when the DOM moved, it waits for no
// mutation and no counted animation across a frame after the last change, and answers
// `framesQuiet: true` with `changedAt`, the page-clock time of that change (the caller's other
// readings must be later than it to join the proof).

// A progress bar is a loading indicator while it is indeterminate (no value: a spinner); one
// with a value is a measure (a checkout's step indicator), and while it moves the page changes.
const SPINNERS = '[aria-busy="true"], .spinner, .loading, .skeleton, ' +
  '[role="progressbar"]:not([aria-valuenow]), progress:indeterminate';
const watch = { url: "", title: "", armedAt: 0, animatedUntil: 0, leaving: 0,
  frameAt: -Infinity, noting: null };
// Leaving: the navigations to another document and the downloads the page began since arm().
// The browser reports each (Page.frameStartedNavigating, Browser.downloadWillBegin) in its own
// time, not ordered with this world's answers: a download's only once the server answered.
// The settle waits (bounded) until it has as many reports as the page began (settle_decision).
// One the page cancelled (preventDefault) or took over (intercept: the address changed at
// once, in the same document) does not count.
if (window.navigation && typeof navigation.addEventListener === "function") {
  navigation.addEventListener("navigate", event => {
    if (event.destination.sameDocument && event.downloadRequest === null) return;
    const entry = navigation.currentEntry;
    watch.leaving++;  // at once: the page's other listeners decide after this one
    setTimeout(() => {
      if ((event.defaultPrevented || navigation.currentEntry !== entry) && watch.leaving > 0) {
        watch.leaving--;
      }
    }, 0);
  });
  // A document restored from the back/forward cache begins anew: its count was of before.
  window.addEventListener("pageshow", event => { if (event.persisted) watch.leaving = 0; });
}
// How long a noted frame is waited for before asking for one anew (a tab that draws none).
const NOTE_WAIT = 100;
const ANIMATION_BOUND = 1000;
const LOOKS_ONLY = /color|shadow|outline|filter|fill|stroke|caret/i;

function arm() {
  // Bring the model up to date (walking the whole page only the first time), then keep what
  // each entry was before it changes.
  refreshModel();
  model.journal = new Map();
  model.armedFocus = model.focused;
  model.touched = new Set();  // what the steps act on: focus going there is no news
  model.placed = new WeakMap();  // where this act's added and removed subtrees hung
  reg.tracking.lastMutation = watch.armedAt = performance.now();
  watch.animatedUntil = watch.leaving = 0;
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

function animationsLeft() {
  // Milliseconds until the last running animation that counts ends (see the top), or 0: of the
  // document's elements and of those in its shadow roots (a dialog component's panel).
  let left = 0;
  const animations = document.getAnimations();
  for (const root of shadowRoots()) animations.push(...root.getAnimations());
  for (const animation of animations) {
    if (animation.playState !== "running" || !animation.effect) continue;
    if (animation.transitionProperty && LOOKS_ONLY.test(animation.transitionProperty)) continue;
    const timing = animation.effect.getComputedTiming();
    const ends = (timing.endTime - timing.localTime) / Math.abs(animation.playbackRate || 1);
    if (ends > 0 && ends <= ANIMATION_BOUND) left = Math.max(left, ends);
  }
  return left;
}

function probe() {
  if (!model.built) arm();
  const t = reg.tracking;
  noteMutations(t.observer.takeRecords());
  const moved = t.lastMutation !== watch.armedAt;
  const now = performance.now();
  const animating = moved ? animationsLeft() : 0;
  if (animating) watch.animatedUntil = Math.max(watch.animatedUntil, now + animating);
  const changedAt = Math.max(t.lastMutation, watch.animatedUntil);
  return { quietMs: now - changedAt, changedAt, spinner: visibleSpinner(), moved,
    leaving: watch.leaving, at: performance.now() };
}

function noteFrame() {
  // Note the next animation frame (its time, once two tasks after it have run): a pointer
  // action's last event asks for it, so that it is the frame the input brings. `noting` is
  // settled once it is noted, or after NOTE_WAIT ms without a frame.
  const noting = watch.noting = new Promise(resolve => {
    const timer = setTimeout(resolve, NOTE_WAIT);
    requestAnimationFrame(() => {
      const at = performance.now();
      setTimeout(() => setTimeout(() => {
        watch.frameAt = Math.max(watch.frameAt, at);
        clearTimeout(timer);
        resolve();
      }, 0), 0);
    });
  });
  noting.then(() => { if (watch.noting === noting) watch.noting = null; });
}

function framesPassed(bound, since) {
  // One animation frame and two tasks after it, or `bound` ms when frames do not come (a
  // hidden tab renders none). The second task lets the timer watch's reading sent in the same
  // round trip (afterFrames in timers.js, one task after the same frame) come first. A frame
  // noted after `since` (noteFrame) has passed already: at once.
  if (since !== null && watch.frameAt > since) return Promise.resolve();
  if (since !== null && watch.noting) {
    return watch.noting.then(() => watch.frameAt > since ? undefined : framesPassed(bound, null));
  }
  return new Promise(resolve => {
    const timer = setTimeout(() => setTimeout(resolve, 0), bound);
    requestAnimationFrame(() => setTimeout(() => setTimeout(() => {
      clearTimeout(timer);
      resolve();
    }, 0), 0));
  });
}

function settleWait(args) {
  // Resolves once the DOM has been quiet for quietMs with no loading indicator visible, or
  // after maxMs; either way with what it saw. Nothing moved since arm(): after a frame.
  const started = performance.now();
  // args.since: when the act's last action (a pointer input) ended; the frame it brought, once
  // passed, is a frame after it (null: the act's last action was of another kind).
  const since = typeof args.since === "number" ? args.since : null;
  return new Promise(answer => {
    // Asked for the delta too: the page as it is when the settle probe answers.
    const resolve = state => answer(args.delta ? { ...state, delta: delta({ limit: args.delta, keep: true }) } : state);
    let framesChecked = false;
    let framesWaiting = false;
    const check = () => {
      const state = probe();
      const waited = performance.now() - started;
      if (!state.moved && !framesChecked) {
        framesChecked = true;
        framesPassed(Math.max(args.quietMs, 50), since).then(() => {
          const after = probe();
          if (!after.moved && !after.spinner) resolve(after);
          else check();
        });
        return;
      }
      if ((state.quietMs >= args.quietMs && !state.spinner) || waited >= args.maxMs) {
        resolve(state);
        return;
      }
      if (state.moved && state.quietMs >= 0 && !state.spinner && !framesWaiting) {
        // The DOM moved and no counted animation runs: quiet across a frame from here is
        // the proof (any change meanwhile, or an animation it starts, moves changedAt on).
        framesWaiting = true;
        framesPassed(Math.max(args.quietMs, 50),
          since === null ? null : Math.max(since, state.changedAt)).then(() => {
          framesWaiting = false;
          const after = probe();
          if (after.changedAt === state.changedAt && !after.spinner) {
            resolve({ ...after, framesQuiet: true });
          } else {
            check();
          }
        });
        return;
      }
      const untilQuiet = Math.max(args.quietMs - state.quietMs, 0);
      setTimeout(check, Math.max(Math.min(untilQuiet + 1, args.maxMs - waited, 50), 5));
    };
    check();
  });
}
