// The agent's entry points, as the Python side calls them (__cdpseq.read(...), ...).

globalThis.__cdpseq = { version: VERSION, init, read, readAgain, elements, call, scrollPage, waitFor,
  arm, probe, settleWait, delta };
return VERSION;
