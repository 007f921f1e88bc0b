// cdpseq's timer watch, evaluated in a page's main world when an act starts. A timer the page
// sets after an action (setTimeout(render, 300)) is invisible to DOM and network signals until it
// fires; this lets settling wait for it. setTimeout stays a native-looking function (a Proxy),
// and its bookkeeping is reachable only through a registered symbol: on the Proxy, and on window
// itself, so that a page that wraps setTimeout after us (a library patching timers, chaining to
// the Proxy it found) does not hide the timers counted so far. A page that calls a setTimeout it
// kept from before us, or one that makes window.setTimeout read-only first, is not watched.
//
// Counted: one-shot timers of at most 1000 ms set since the watch was (re)armed, not those set
// from inside another watched timer's callback (a polling loop would otherwise never end).
// Returns the ms until the last counted timer falls due, or -1 when none is pending.
(() => {
  const KEY = Symbol.for("cdpseq.timers");
  const MAX_DELAY = 1000;
  const existing = window[KEY] || window.setTimeout[KEY];
  if (existing) return existing.reset();
  const pending = new Map();  // id -> due (performance.now())
  let depth = 0;
  const native = window.setTimeout;
  const nativeClear = window.clearTimeout;
  const api = {
    reset() { pending.clear(); return -1; },
    due() {
      // A timer past its due time that has not run yet is about to: it counts, as 0.
      const now = performance.now();
      let last = -1;
      for (const [id, due] of pending) {
        if (due < now - 1000) pending.delete(id);  // its page task was dropped: give up on it
        else last = Math.max(last, due - now, 0);
      }
      return last;
    },
  };
  window.setTimeout = new Proxy(native, {
    apply(target, self, args) {
      const [callback, delay] = args;
      const ms = Math.max(Number(delay) || 0, 0);
      if (typeof callback !== "function" || ms > MAX_DELAY || depth > 0) {
        return Reflect.apply(target, self, args);
      }
      let id = 0;
      args[0] = function (...inner) {
        pending.delete(id);
        depth++;
        try { return callback.apply(this, inner); } finally { depth--; }
      };
      id = Reflect.apply(target, self, args);
      pending.set(id, performance.now() + ms);
      return id;
    },
    get(target, prop, receiver) {
      return prop === KEY ? api : Reflect.get(target, prop, receiver);
    },
  });
  Object.defineProperty(window, KEY, { value: api, configurable: true });
  window.clearTimeout = new Proxy(nativeClear, {
    apply(target, self, args) {
      pending.delete(args[0]);
      return Reflect.apply(target, self, args);
    },
  });
  return -1;
})()
