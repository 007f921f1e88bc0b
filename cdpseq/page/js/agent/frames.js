// Out-of-process iframes (see page/frames.py). An iframe from another site runs in another
// renderer, where this agent is installed on its own, with its own registry; its refs there are
// *local*. The tab's top agent hands out the global numbers a client sees: adopt() gives each
// (frame, agent instance, local ref) one number from the top registry's counter, so numbers stay
// unique across the tab and covered by the tab's ref floor, and remoteRef() tells any process
// where a number lives (the table is in the shared world, like the registry). The agent instance
// is a token drawn when the agent starts in a document: a frame that navigated has a new one,
// so callAs() refuses a ref of its previous document as stale.

function frameToken() {
  if (!reg.token) {
    const bytes = crypto.getRandomValues(new Uint32Array(2));
    reg.token = bytes[0].toString(36) + bytes[1].toString(36);
  }
  return reg.token;
}

function adopt(frame, token, locals) {
  if (!reg.remote) reg.remote = { byRef: new Map(), byKey: new Map() };
  const remote = reg.remote;
  const refs = locals.map(local => {
    const key = `${frame} ${token} ${local}`;
    let n = remote.byKey.get(key);
    if (n === undefined) {
      n = reg.next++;
      remote.byKey.set(key, n);
      remote.byRef.set(n, { frame, token, local });
    }
    return n;
  });
  return { refs, next: reg.next };
}

function remoteRef(n) {
  return (reg.remote && reg.remote.byRef.get(n)) || null;
}

function callAs(token, op, target, args) {
  if (reg.token !== token) {
    return { error: "STALE_REF", reason: "its frame has loaded another document since" };
  }
  return call(op, target, args);
}
