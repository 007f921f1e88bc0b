// The agent's entry points, as the Python side calls them (__cdpseq.read(...), ...).

function resolveElement(target) {
  // The element a target names (for the browser's own geometry), or null.
  const found = resolve(target);
  return found && found.el ? found.el : null;
}

function which(selector) {
  // The refs of every element a selector matches, in order (0 for one without a ref yet).
  try {
    return queryChain(selector).map(el => reg.byEl.get(el) || 0);
  } catch (e) {
    return { error: "INVALID_SELECTOR", reason: e.message };
  }
}

globalThis.__cdpseq = { version: VERSION, init, read, readAgain, elements, call, verdict,
  resolveElement, checkSelectors, which, wheelMoved, waitFor, arm, probe, settleWait, delta,
  frameToken, adopt, remoteRef, callAs, bounds, frameOwner };
return VERSION;
