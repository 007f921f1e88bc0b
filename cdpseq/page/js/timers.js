// cdpseq's timer watch, evaluated in a page's main world when an act starts. A timer the page
// sets after an action (setTimeout(render, 300)) is invisible to DOM and network signals until it
// fires; this lets settling wait for it. Nothing of it is on window: every function it wraps is a
// Proxy of the native one that Function.prototype.toString (wrapped the same way) describes as
// the native, and its bookkeeping is reached only by reading the key cdpseq put in this source
// (KEY, made from the tab's target id, which the page never sees) off one of those Proxies:
// setTimeout, or one a page that wraps setTimeout after us is unlikely to replace too. A page
// that calls a setTimeout it kept from before us, or one that makes window.setTimeout read-only
// first, is not watched. Errors the natives throw lose our frames from their stacks.
//
// What counts is the act's own work, followed from callback to callback. Each callback the page
// schedules (a timer, an animation frame, an idle callback) carries where it came from: the act
// (scheduled from an event handler, a microtask or a script since the watch was (re)armed), a
// callback of the act's own work (a chain), or older work (a poll that began before the act:
// never counted, nor anything it schedules).
//
// - Timers: one-shot timers of at most MAX_DELAY ms. A timer set inside the callback of a
//   counted timer is the next link of a chain (a modal library's fallback for transitionend set
//   once the "server" answered, a grid's row removal set by its debounced filter): counted up to
//   MAX_LINKS links after the first, and only while it falls due within CHAIN_SPAN ms of the
//   chain's start, or of the latest input (a key, a pointer press) since then.
// - Polls: a timer that sets its own callback again (the same function, or the same source)
//   with the same delay for the second time in a row is a poll, not a link: it counts only as a
//   loop does (below). The first time it is still a link: lodash's debounce sets itself again
//   once, with the time left, when calls came meanwhile.
// - Loops: a timer that sets its own callback again, an interval, and an animation frame that
//   asks for the next are a loop. A loop counts while its runs change the DOM or inline styles
//   (an animation in progress: jQuery's fades and slides, a step animation), for at most
//   LOOP_SPAN ms from its first change in the act; a loop whose runs change nothing (a poll, a
//   frame loop that reads the scroll position) does not. A frame loop that had been changing
//   the page for over LOOP_SPAN when the act began (a perpetual animation) does not count in
//   that act; one that was idle then (an animation library's ticker waiting for work) counts
//   once it starts changing the page, and one whose changes began less than LOOP_SPAN before
//   (a tween finishing, or the page's own just begun, that the act may take over) counts
//   within LOOP_SPAN of their beginning. A frame loop that may carry the act's work also counts
//   for its first INPUT_TICKS runs after the act's input, changed or not (a tween renders its
//   start values on its first tick). What a run changed is read by a MutationObserver of our
//   own, connected around the run and the microtasks it queued (a framework applies state
//   there), on the document (not inside shadow roots).
// - Frames: an animation frame the act asked for, and the frames its callbacks ask for up to
//   FRAME_LINKS deep (a framework deferring to the frame after next), count until they run, so
//   that one frame of quiet proves the page idle; not once frames stop coming (FRAME_STALL).
// Bounded both ways, a page polling every 100 ms forever or turning a logo every frame never
// holds an act to its settle cap, and work the page began before the act never holds it.
//
// Also counted, because they run page code later without a timer, a request or a mutation to
// show for it (settling no longer waits a quiet window on a page where nothing moved): an idle
// callback until it runs, a message the page posts to its own window until it is delivered, a
// message posted to a worker until the worker answers, an IndexedDB transaction until it
// completes and a database opening until it succeeds, a message sent on a WebSocket until the
// socket's next message, a BroadcastChannel message until it is delivered, a response's body
// until it is read. Each is awaited at most MAX_WAIT ms (a worker or a server that never
// answers); while one is, due() answers at most POLL ms, so that the caller looks again soon. An item ends a task after its event, so the page's own handlers of that
// event have run by then.
(() => {
  const KEY = "__CDPSEQ_TIMERS_KEY__";
  const MAX_DELAY = 1000;
  const MAX_WAIT = 1000;
  const POLL = 10;
  const MAX_LINKS = 4;
  const CHAIN_SPAN = 2000;
  const LOOP_SPAN = 1000;
  // A loop still counts when it changed the page this long before its last run (an animation
  // that skips a frame), and a frame loop stops counting when its frames stop coming.
  const LOOP_GRACE = 50;
  const FRAME_STALL = 100;
  const FRAME_LINKS = 2;
  const INPUT_TICKS = 2;
  const EARLY = 2;
  const found = [window.setTimeout, window.clearTimeout, window.requestAnimationFrame,
    Function.prototype.toString].map(carrier => carrier && carrier[KEY]).find(Boolean);
  if (found) return found.reset();
  const native = window.setTimeout;
  const nativeClear = window.clearTimeout;
  const nativeFrame = window.requestAnimationFrame;
  const NativePromise = Promise;
  const NativeObserver = window.MutationObserver;
  const clock = performance.now.bind(performance);
  const toSource = Function.prototype.toString;

  // -- looking native ----------------------------------------------------------------------
  const natives = new WeakMap();  // our Proxy -> the native it stands for
  // The frames above the page's call: ours (this script has no URL) and Reflect.apply's.
  const OURS = /^\s+at (?:Reflect\.apply \(<anonymous>\)|.*<anonymous>:\d+:\d+\)?)$/;
  const BUILTIN = /^\s+at [^(]*\(<anonymous>\)$/;
  function unframed(error) {
    if (!(error instanceof Error) || typeof error.stack !== "string") return error;
    const lines = error.stack.split("\n");
    let at = lines.findIndex(line => /^\s+at /.test(line));
    const kept = at < 0 ? lines : lines.slice(0, at);
    for (; at >= 0 && at < lines.length; at++) {
      if (OURS.test(lines[at])) continue;
      if (!BUILTIN.test(lines[at])) break;
      kept.push(lines[at]);
    }
    if (at >= 0) kept.push(...lines.slice(at));
    error.stack = kept.join("\n");
    return error;
  }
  function disguise(original, apply) {
    // A Proxy of `original` calling `apply`: its name, length, keys and descriptor are the
    // native's, and so is what toString says of it; an error it throws has no frame of ours.
    const proxy = new Proxy(original, {
      apply(target, self, args) {
        try {
          return apply(target, self, args);
        } catch (error) {
          throw unframed(error);
        }
      },
      get(target, prop, receiver) {
        return prop === KEY ? api : Reflect.get(target, prop, receiver === proxy ? target : receiver);
      },
    });
    natives.set(proxy, original);
    return proxy;
  }
  Function.prototype.toString = disguise(toSource, (target, self, args) =>
    Reflect.apply(target, natives.has(self) ? natives.get(self) : self, args));

  let act = 0;  // moves on at every reset(): work of an older act is never counted
  let armedAt = Infinity;  // when the act began (reset())
  let lastInput = -Infinity;  // when the latest trusted key, pointer press or input came
  for (const type of ["keydown", "pointerdown", "input"]) {
    window.addEventListener(type, event => {
      if (event.isTrusted) lastInput = clock();
    }, { capture: true, passive: true });
  }
  // The frame each pointer action's end brings (its time, once a task after it has run): the
  // reading after a frame need not wait for another when that one came after the action.
  let frameAt = -Infinity;
  let noting = null;  // settled once the frame asked for last is noted (or NOTE_WAIT ms passed)
  let openedAt = -Infinity;  // when the page last called window.open
  const NOTE_WAIT = 100;
  for (const type of ["pointerup", "pointermove", "touchend"]) {
    window.addEventListener(type, event => {
      if (!event.isTrusted) return;
      const note = noting = new NativePromise(resolve => {
        const timer = native(resolve, NOTE_WAIT);
        nativeFrame(() => {
          const at = clock();
          native(() => { frameAt = Math.max(frameAt, at); nativeClear(timer); resolve(); }, 0);
        });
      });
      note.then(() => { if (noting === note) noting = null; });
    }, { capture: true, passive: true });
  }
  let running = null;  // the work whose callback runs now (null: none of ours, i.e. the act's)
  const pending = new Map();  // timer id -> {due, work}
  const frames = new Map();  // animation frame id -> work
  const loops = new Set();  // frame loops with a frame asked for, and the act's intervals
  const awaited = new Map();  // token -> give up at

  // -- where a callback comes from ---------------------------------------------------------
  // work: {act, counted (on its own: the act's, or a link of its chain within the bounds),
  // root (when its chain began), depth (links after the first), loop (the loop it runs in)}
  function follows(work) {
    // Is this work the act's (counted on its own, or a run of a loop the act started)?
    return work.act === act &&
      (work.counted || (work.loop !== null && work.loop.act === act && work.loop.counted));
  }
  function link(from, root, depth, delay, now) {
    // Would a callback scheduled from `from` count as a link of its chain (begun at `root`)?
    return follows(from) && depth <= MAX_LINKS && now + delay - root <= CHAIN_SPAN;
  }
  function scheduled(delay) {
    // The work a callback scheduled now belongs to.
    const now = clock();
    const from = running;
    if (from === null) return { act, counted: true, root: now, depth: 0, loop: null };
    const { root, depth } = next(from);
    return { act: from.act, counted: link(from, root, depth, delay, now), root, depth,
      loop: null };
  }
  function next(from) {
    // Where the chain of work scheduled from `from` began, and its depth. Input since the
    // chain began (the act still typing while a debounce sets itself again for the time
    // left) begins its bounds again: a slow machine's keys do not outrun them.
    return lastInput > from.root ? { root: lastInput, depth: 1 }
      : { root: from.root, depth: from.depth + 1 };
  }
  function loopOf(work, kind) {
    // The loop a run of `work` belongs to, made on its first repeat.
    if (!work.loop) {
      work.loop = { kind, act: work.act, counted: follows(work), lastRun: 0,
        changedAt: -Infinity, streakAt: 0, firstChange: 0, changedInAct: -1, idleAtArm: -1,
        asked: 0, inputAt: -Infinity, ticks: 0 };
    }
    return work.loop;
  }
  function repeats(from, callback, delay) {
    // Does a timer set from `from`'s callback set that callback again (a poll, a step loop, a
    // debounce waiting longer)? The same function, or the same source with the same delay.
    if (from.kind !== "timer") return false;
    if (callback === from.callback) return true;
    if (delay !== from.delay) return false;
    try { return toSource.call(callback) === toSource.call(from.callback); } catch (e) { return false; }
  }

  // -- what a run changed ------------------------------------------------------------------
  const WATCHED = { subtree: true, childList: true, attributes: true, characterData: true };
  let observer = null;
  let delivered = false;  // records the observer's own callback took before we looked
  function watchRun() {
    // Observe what the run (and the microtasks it queues) changes in the document. Runs never
    // overlap: each ends (its microtasks drained) before the next begins.
    if (!NativeObserver || !document.documentElement) return null;
    if (!observer) observer = new NativeObserver(records => { if (records.length) delivered = true; });
    observer.takeRecords();
    delivered = false;
    observer.observe(document, WATCHED);
    return observer;
  }
  function endRun(watching, work) {
    // After the run's microtasks: note what it changed on its loop.
    const finish = () => {
      const changed = watching !== null && (watching.takeRecords().length > 0 || delivered);
      if (watching !== null) watching.disconnect();
      const loop = work.loop;
      if (!loop) return;
      const now = clock();
      const wasChanging = loop.changedAt >= loop.lastRun - LOOP_GRACE;
      loop.lastRun = now;
      if (loop.inputAt !== lastInput) { loop.inputAt = lastInput; loop.ticks = 0; }
      loop.ticks++;
      if (!changed) return;
      if (!wasChanging) loop.streakAt = now;
      loop.changedAt = now;
      if (loop.changedInAct !== act) { loop.changedInAct = act; loop.firstChange = now; }
    };
    NativePromise.resolve().then(() => NativePromise.resolve()).then(finish);
  }
  function run(work, callback, self, args, watch) {
    const before = running;
    running = work;
    const watching = watch ? watchRun() : null;
    try {
      return callback.apply(self, args);
    } finally {
      running = before;
      if (watch) endRun(watching, work);
    }
  }
  function counts(work, now) {
    // A pending timer of the act: on its own, or as the next run of a loop that counts.
    return work.counted || (work.loop !== null && loopCounts(work.loop, now));
  }
  function changing(loop, now) {
    // Do the loop's latest runs change the page (and do its runs still come)?
    if (loop.changedAt < loop.lastRun - LOOP_GRACE) return false;  // its last runs changed nothing
    if (loop.kind === "frame" && now - loop.lastRun > FRAME_STALL) return false;
    if (loop.kind === "interval" && now - loop.lastRun > loop.every + FRAME_STALL) return false;
    return true;
  }
  function framePending(work) {
    // An animation frame the act asked for, or the next of its frames up to FRAME_LINKS deep
    // (a framework that defers to the frame after next): what it does is not seen yet.
    return follows(work) && work.frameDepth <= FRAME_LINKS;
  }
  function loopCounts(loop, now) {
    if (loop.kind === "frame" && loop.idleAtArm === act && lastInput > armedAt &&
        now - lastInput <= FRAME_STALL + LOOP_GRACE &&
        (loop.inputAt !== lastInput || loop.ticks < INPUT_TICKS)) {
      return true;  // a tween the act's input gave it may render its start values first
    }
    if (loop.changedInAct !== act || now - loop.firstChange > LOOP_SPAN) return false;
    if (!changing(loop, now)) return false;
    // A loop of this act, or one that was idle when the act began.
    return (loop.act === act && loop.counted) || loop.idleAtArm === act;
  }

  // -- the reading -------------------------------------------------------------------------
  const api = {
    reset() {
      pending.clear();
      awaited.clear();
      act++;
      const now = armedAt = clock();
      for (const loop of loops) {
        if (loop.kind === "interval") {
          loops.delete(loop);  // an older act's interval never counts again
          for (const [id, each] of intervals) if (each === loop) intervals.delete(id);
        } else if (!changing(loop, now)) {
          loop.idleAtArm = act;  // not a perpetual animation: it may carry the act's work
        } else if (now - loop.streakAt <= LOOP_SPAN) {
          // Changing the page for less than LOOP_SPAN: a tween finishing (the last act's, on a
          // loaded machine) or just begun, not yet a perpetual animation. It counts as one that
          // was idle, within LOOP_SPAN of when its changes began.
          loop.idleAtArm = loop.changedInAct = act;
          loop.firstChange = loop.streakAt;
        }
      }
      return -1;
    },
    afterFrames(bound, since) {
      // {due: due(), at: when read, frames} once an animation frame and a task after it
      // have passed (or `bound` ms when no frames come): sent in the round trip of the agent's
      // settleWait, whose own frame ends a task later, so this reading comes first and what
      // the frame scheduled is counted (the caller compares the times to be sure). `frames`:
      // a frame loop is changing the page (an animation in progress). A frame the last pointer
      // event brought that came after `since` (the action's end) has passed already: at once.
      return new NativePromise(resolve => {
        let done = false;
        const answer = () => {
          if (!done) { done = true; resolve({ due: api.due(), at: clock(), frames: api.animating() }); }
        };
        const wait = () => {
          native(answer, bound);
          nativeFrame(() => native(answer, 0));
        };
        if (typeof since !== "number") return wait();
        if (openedAt >= since) return wait();  // a window opened: the browser tells in its time
        // Read at once: the agent's settleWait, evaluated after this, reads the DOM after it
        // (its noted frame is settled a task later than this one).
        if (frameAt > since) return answer();
        if (noting) return noting.then(() => frameAt > since ? answer() : wait());
        return wait();
      });
    },
    animating() {
      // Is a loop (frames, an interval, a timer that sets itself) of the act changing the page?
      const now = clock();
      for (const loop of loops) if (loopCounts(loop, now)) return true;
      for (const { work } of pending.values()) {
        if (!work.counted && work.loop !== null && loopCounts(work.loop, now)) return true;
      }
      return false;
    },
    due() {
      // A timer past its due time that has not run yet is about to: it counts, as 0.
      const now = clock();
      let last = -1;
      for (const [id, { due, work }] of pending) {
        if (due < now - 1000) pending.delete(id);  // its page task was dropped: give up on it
        else if (counts(work, now)) last = Math.max(last, due - now, 0);
      }
      for (const [id, work] of frames) {
        if (now - work.since > FRAME_STALL) frames.delete(id);  // frames do not come
        else if (framePending(work)) last = Math.max(last, 0);
      }
      for (const [token, until] of awaited) {
        if (until <= now) awaited.delete(token);
        else last = Math.max(last, Math.min(until - now, POLL));
      }
      if (api.animating()) last = Math.max(last, POLL);
      return last;
    },
    busy() {
      // What counts now, for tests and diagnosis: [{kind, ...}].
      const now = clock();
      const out = [];
      for (const { due, work } of pending.values()) {
        if (counts(work, now)) {
          out.push({ kind: work.counted ? "timer" : "timer loop", dueIn: Math.round(due - now),
            depth: work.depth });
        }
      }
      for (const work of frames.values()) {
        if (framePending(work)) out.push({ kind: "frame", depth: work.frameDepth });
      }
      for (const loop of loops) if (loopCounts(loop, now)) out.push({ kind: "frame loop" });
      if (awaited.size) out.push({ kind: "awaited", count: awaited.size });
      return out;
    },
  };

  // -- timers ------------------------------------------------------------------------------
  if (typeof window.open === "function") {
    window.open = disguise(window.open, (target, self, args) => {
      openedAt = clock();
      return Reflect.apply(target, self, args);
    });
  }
  window.setTimeout = disguise(native, (target, self, args) => {
      const [callback, delay] = args;
      if (typeof callback !== "function") return Reflect.apply(target, self, args);
      const ms = Math.max(Number(delay) || 0, 0);
      const from = running;
      let work;
      const now = clock();
      if (from !== null && follows(from) && repeats(from, callback, ms)) {
        if (now + ms <= from.due + EARLY) {
          // Again for what is left of its wait (it ran before its time: a timer may fire a
          // little before the page's clock says it is due, and lodash's debounce then sets
          // itself again, for under a millisecond, until it is): the same link, not the next
          // one, nor a poll's next run.
          work = { act: from.act, root: from.root, depth: from.depth, loop: from.loop,
            again: from.again, counted: from.counted && now + ms - from.root <= CHAIN_SPAN };
        } else {
          // The next run of a loop, which counts while its runs change the page. It is also
          // the next link of the chain, unless the callback sets itself with the same delay
          // for the second time in a row: a poll (lodash's debounce waiting out the calls that
          // came meanwhile sets itself again once, with the time left).
          const again = ms === from.delay;
          const { root, depth } = next(from);
          work = { act: from.act, root, depth, loop: loopOf(from, "timer"), again,
            counted: !(again && from.again) && link(from, root, depth, ms, now) };
        }
      } else {
        work = scheduled(ms);
      }
      work.kind = "timer";
      work.callback = callback;
      work.delay = ms;
      work.due = now + ms;
      const followed = follows(work) && ms <= MAX_DELAY;
      let id = 0;
      args[0] = function (...inner) {
        pending.delete(id);
        return run(work, callback, this, inner, followed);
      };
      id = Reflect.apply(target, self, args);
      if (followed) pending.set(id, { due: work.due, work });
      return id;
  });
  window.clearTimeout = disguise(nativeClear, (target, self, args) => {
      pending.delete(args[0]);
      return Reflect.apply(target, self, args);
  });
  // An interval is a loop from its start: it counts only while its runs change the page (a
  // step animation), as a loop does; what its callbacks schedule is followed as for a timer's.
  const intervals = new Map();  // id -> loop, for the act's own intervals
  if (typeof window.setInterval === "function") {
    window.setInterval = disguise(window.setInterval, (target, self, args) => {
        const callback = args[0];
        if (typeof callback !== "function") return Reflect.apply(target, self, args);
        const ms = Math.max(Number(args[1]) || 0, 0);
        const work = scheduled(0);
        work.kind = "interval";
        const watch = follows(work) && ms <= MAX_DELAY;
        const loop = watch ? loopOf(work, "interval") : null;
        let id = 0;
        args[0] = function (...inner) {
          pending.delete(id);
          return run(work, callback, this, inner, watch);
        };
        id = Reflect.apply(target, self, args);
        if (loop) {
          loop.every = ms;
          loops.add(loop);
          intervals.set(id, loop);
          // Its first run is awaited as a timer's: until then no run has changed the page, and
          // the loop could not count (a ticker started by a click is not idle in between).
          pending.set(id, { due: clock() + ms, work });
        }
        return id;
    });
  }
  if (typeof window.clearInterval === "function") {
    window.clearInterval = disguise(window.clearInterval, (target, self, args) => {
        const loop = intervals.get(args[0]);
        if (loop) { loops.delete(loop); intervals.delete(args[0]); pending.delete(args[0]); }
        return Reflect.apply(target, self, args);
    });
  }

  // -- animation frames --------------------------------------------------------------------
  if (typeof nativeFrame === "function") {
    window.requestAnimationFrame = disguise(nativeFrame, (target, self, args) => {
        const callback = args[0];
        if (typeof callback !== "function") return Reflect.apply(target, self, args);
        const from = running;
        let work;
        if (from && from.kind === "frame") {
          // Asked from a frame: the next frame of the same loop.
          work = { act: from.act, counted: from.counted, root: from.root, depth: from.depth,
            loop: loopOf(from, "frame"), kind: "frame", frameDepth: from.frameDepth + 1 };
        } else {
          work = scheduled(0);
          work.kind = "frame";
          work.frameDepth = 0;
        }
        work.since = clock();
        let id = 0;
        args[0] = function (...inner) {
          frames.delete(id);
          const loop = work.loop;
          if (loop) {
            loop.asked--;
            if (loop.asked <= 0) loops.delete(loop);
          }
          return run(work, callback, this, inner, true);
        };
        id = Reflect.apply(target, self, args);
        frames.set(id, work);
        if (work.loop) {
          work.loop.asked++;
          loops.add(work.loop);
        }
        return id;
    });
    if (typeof window.cancelAnimationFrame === "function") {
      window.cancelAnimationFrame = disguise(window.cancelAnimationFrame, (target, self, args) => {
          const work = frames.get(args[0]);
          if (work) {
            frames.delete(args[0]);
            if (work.loop && --work.loop.asked <= 0) loops.delete(work.loop);
          }
          return Reflect.apply(target, self, args);
      });
    }
  }

  // __CDPSEQ_TIMERS_AWAITED__ (js/timers_awaited.js, spliced in here by page/script.py)
  return -1;
})()
