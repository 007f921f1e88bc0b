// Part of the timer watch (js/timers.js), spliced in where it says so by page/script.py: the
// callbacks the act awaits that are not timers or animation frames. It runs inside the watch's
// function, with its helpers (wrap, await_, done, scheduled, follows, run, native, clock).
  // -- other callbacks the act awaits ------------------------------------------------------
  const await_ = () => {
    const token = {};
    if (follows(scheduled(0))) awaited.set(token, clock() + MAX_WAIT);
    return token;
  };
  const done = token => { native(() => awaited.delete(token), 0); };
  const wrap = (owner, name, make) => {
    const original = owner && owner[name];
    if (typeof original !== "function") return;
    owner[name] = disguise(original, make);
  };
  // Idle callbacks: counted until they run (or are cancelled).
  const idle = new Map();  // id -> token
  wrap(window, "requestIdleCallback", (target, self, args) => {
    if (typeof args[0] !== "function") return Reflect.apply(target, self, args);
    const callback = args[0];
    const work = scheduled(0);
    work.kind = "idle";
    const token = {};
    if (follows(work)) awaited.set(token, clock() + MAX_WAIT);
    let id = 0;
    args[0] = function (...inner) {
      awaited.delete(token);
      idle.delete(id);
      return run(work, callback, this, inner, false);
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
  // Asking another side: a message posted to a worker is counted until it answers (a message
  // or an error), one sent on a WebSocket until the socket's next message (or error, or close):
  // a page renders the server's answer. Answers are taken in order, one a message.
  const asked = new WeakMap();  // worker or socket -> tokens
  const ask = (events) => (target, self, args) => {
    const result = Reflect.apply(target, self, args);
    let tokens = asked.get(self);
    if (!tokens) {
      asked.set(self, tokens = []);
      const answered = () => { if (tokens.length) done(tokens.shift()); };
      for (const type of events) self.addEventListener(type, answered);
    }
    tokens.push(await_());
    return result;
  };
  if (window.Worker) wrap(Worker.prototype, "postMessage", ask(["message", "error"]));
  if (window.WebSocket) wrap(WebSocket.prototype, "send", ask(["message", "error", "close"]));
  // A BroadcastChannel message, until a channel of our own of that name (made before the first
  // message, so it is one of the message's destinations) hears it: the page's channels in this
  // window were made before ours, and hear it first.
  const hearing = new Map();  // channel name -> tokens
  if (window.BroadcastChannel) {
    const NativeChannel = window.BroadcastChannel;
    wrap(NativeChannel.prototype, "postMessage", (target, self, args) => {
      let name = null;
      try { name = Reflect.get(NativeChannel.prototype, "name", self); } catch (e) { /* not one */ }
      if (name !== null && !hearing.has(name)) {
        const tokens = [];
        hearing.set(name, tokens);
        new NativeChannel(name).onmessage = () => { if (tokens.length) done(tokens.shift()); };
      }
      const result = Reflect.apply(target, self, args);
      if (name !== null) hearing.get(name).push(await_());
      return result;
    });
  }
  // A response's body, from the call until it is read (a chained fetch starts from its .then:
  // counted until then, it cannot fall between two readings).
  if (window.Response) {
    for (const name of ["json", "text", "arrayBuffer", "blob", "formData"]) {
      wrap(Response.prototype, name, (target, self, args) => {
        const reading = Reflect.apply(target, self, args);
        const token = await_();
        reading.then(() => done(token), () => done(token));
        return reading;
      });
    }
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
