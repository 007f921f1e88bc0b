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
//
// Also counted, because they run page code later without a timer, a request or a mutation to
// show for it (settling no longer waits a quiet window on a page where nothing moved): an idle
// callback until it runs, a message the page posts to its own window until it is delivered, a
// message posted to a worker until the worker answers, an IndexedDB transaction until it
// completes and a database opening until it succeeds. Each is awaited at most MAX_WAIT ms (a
// worker that never answers); while one is, due() answers at most POLL ms, so that the caller
// looks again soon. An item ends a task after its event, so the page's own handlers of that
// event have run by then.
(() => {
  const KEY = Symbol.for("cdpseq.timers");
  const MAX_DELAY = 1000;
  const MAX_WAIT = 1000;
  const POLL = 10;
  const existing = window[KEY] || window.setTimeout[KEY];
  if (existing) return existing.reset();
  const pending = new Map();  // id -> due (performance.now())
  const awaited = new Map();  // token -> give up at (performance.now())
  let depth = 0;
  const native = window.setTimeout;
  const nativeClear = window.clearTimeout;
  const nativeFrame = window.requestAnimationFrame;
  const NativePromise = Promise;
  const clock = performance.now.bind(performance);
  const api = {
    reset() { pending.clear(); awaited.clear(); return -1; },
    afterFrames(bound) {
      // {due: due(), at: when read} once two animation frames and a task after them have
      // passed (or `bound` ms when no frames come): sent in the round trip of the agent's
      // settleWait, whose own frames end a task later, so this reading comes first and what
      // the frames scheduled is counted (the caller compares the times to be sure).
      return new NativePromise(resolve => {
        let done = false;
        const answer = () => {
          if (!done) { done = true; resolve({ due: api.due(), at: clock() }); }
        };
        native(answer, bound);
        nativeFrame(() => nativeFrame(() => native(answer, 0)));
      });
    },
    due() {
      // A timer past its due time that has not run yet is about to: it counts, as 0.
      const now = performance.now();
      let last = -1;
      for (const [id, due] of pending) {
        if (due < now - 1000) pending.delete(id);  // its page task was dropped: give up on it
        else last = Math.max(last, due - now, 0);
      }
      for (const [token, until] of awaited) {
        if (until <= now) awaited.delete(token);
        else last = Math.max(last, Math.min(until - now, POLL));
      }
      return last;
    },
  };
  const await_ = () => {
    const token = {};
    if (depth === 0) awaited.set(token, performance.now() + MAX_WAIT);
    return token;
  };
  const done = token => { native(() => awaited.delete(token), 0); };
  const wrap = (owner, name, make) => {
    const original = owner && owner[name];
    if (typeof original !== "function") return;
    owner[name] = new Proxy(original, { apply: make });
  };
  // Idle callbacks: counted until they run (or are cancelled).
  const idle = new Map();  // id -> token
  wrap(window, "requestIdleCallback", (target, self, args) => {
    if (typeof args[0] !== "function" || depth > 0) return Reflect.apply(target, self, args);
    const callback = args[0];
    const token = await_();
    let id = 0;
    args[0] = function (...inner) {
      awaited.delete(token);
      idle.delete(id);
      depth++;
      try { return callback.apply(this, inner); } finally { depth--; }
    };
    id = Reflect.apply(target, self, args);
    idle.set(id, token);
    return id;
  });
  wrap(window, "cancelIdleCallback", (target, self, args) => {
    const token = idle.get(args[0]);
    if (token) { awaited.delete(token); idle.delete(args[0]); }
    return Reflect.apply(target, self, args);
  });
  // Messages to this window from itself, delivered in the order posted.
  const posted = [];
  wrap(window, "postMessage", (target, self, args) => {
    const result = Reflect.apply(target, self, args);
    if (self === window || self === undefined) posted.push(await_());
    return result;
  });
  window.addEventListener("message", event => {
    if (event.source === window && posted.length) done(posted.shift());
  }, true);
  // Workers: a message posted is counted until the worker answers (any message or error).
  const asked = new WeakMap();  // worker -> tokens
  if (window.Worker) {
    wrap(Worker.prototype, "postMessage", (target, self, args) => {
      const result = Reflect.apply(target, self, args);
      let tokens = asked.get(self);
      if (!tokens) {
        asked.set(self, tokens = []);
        const answered = () => { if (tokens.length) done(tokens.shift()); };
        self.addEventListener("message", answered);
        self.addEventListener("error", answered);
      }
      tokens.push(await_());
      return result;
    });
  }
  // IndexedDB: a transaction until it completes or aborts, an open until it succeeds or fails.
  const until = (target, events, token) => {
    const end = () => {
      for (const type of events) target.removeEventListener(type, end);
      done(token);
    };
    for (const type of events) target.addEventListener(type, end);
  };
  if (window.IDBDatabase) {
    wrap(IDBDatabase.prototype, "transaction", (target, self, args) => {
      const transaction = Reflect.apply(target, self, args);
      until(transaction, ["complete", "abort", "error"], await_());
      return transaction;
    });
  }
  if (window.IDBFactory) {
    for (const name of ["open", "deleteDatabase"]) {
      wrap(IDBFactory.prototype, name, (target, self, args) => {
        const request = Reflect.apply(target, self, args);
        until(request, ["success", "error", "blocked"], await_());
        return request;
      });
    }
  }
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
