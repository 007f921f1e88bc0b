// wait_for: conditions on the page's text, URL and elements, awaited in the page.

function pageText() {
  let text = document.body ? document.body.innerText : "";
  for (const el of walk(document.documentElement)) {
    if (el.shadowRoot) text += "\n" + el.shadowRoot.textContent;
    if (el.tagName === "IFRAME") {
      try { if (el.contentDocument && el.contentDocument.body) text += "\n" + el.contentDocument.body.innerText; } catch (e) { /* x-origin */ }
    }
  }
  return text;
}

function condition(args) {
  if (args.text !== undefined) return pageText().includes(args.text);
  if (args.textGone !== undefined) return !pageText().includes(args.textGone);
  if (args.url !== undefined) return location.href.includes(args.url);
  // A ref that is gone or stale names no element (a step's `if` on a ref: "gone" holds).
  const found = args.ref !== undefined ? lookup(args.ref) : deepQuery(args.selector);
  if (found && found.error && found.error !== "STALE_REF") throw new Error(found.reason);
  const el = found && found.el;
  switch (args.state) {
    case "attached": return !!el;
    case "detached": return !el;
    case "enabled": return !!el && !disabledReason(retarget(el, "follow-label"));
    case "disabled": return !!el && !!disabledReason(retarget(el, "follow-label"));
    case "hidden": return !el || !el.checkVisibility({ checkVisibilityCSS: true });
    default: return !!el && el.checkVisibility({ checkVisibilityCSS: true });
  }
}

function waitFor(args) {
  // Resolves true once the condition holds, false at the deadline. Checked on every DOM
  // mutation (batched per frame) and on a slow interval for changes mutations do not show
  // (layout, visibility through CSS).
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (value, error) => {
      if (done) return;
      done = true;
      observer.disconnect();
      clearInterval(timer);
      clearTimeout(deadline);
      if (error) reject(error); else resolve({ matched: value, waitedMs: Math.round(performance.now() - started) });
    };
    const check = () => {
      try { if (condition(args)) finish(true); } catch (e) { finish(false, e); }
    };
    let scheduled = false;
    const observer = new MutationObserver(() => {
      if (scheduled) return;
      scheduled = true;
      setTimeout(() => { scheduled = false; check(); }, 16);
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const timer = setInterval(check, 100);
    const deadline = setTimeout(() => finish(false), args.timeoutMs);
    check();
  });
}
