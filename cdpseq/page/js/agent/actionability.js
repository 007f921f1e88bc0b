// Targets and actionability: resolving a ref, node or selector, and whether (and where) the
// element can be clicked.

function resolve(target) {
  if (target.element) return { el: target.element };
  if (target.ref !== undefined) return lookup(target.ref);
  const found = deepQuery(target.selector);
  if (!found) {
    return { error: "NODE_NOT_FOUND", reason: `no element matches selector ${target.selector}` };
  }
  return found;
}

function frameOffset(el) {
  // Offset of el's document viewport within the top-level viewport (same-origin iframes).
  let x = 0, y = 0;
  let win = el.ownerDocument.defaultView;
  while (win && win.frameElement) {
    const frame = win.frameElement;
    const rect = frame.getBoundingClientRect();
    const style = getComputedStyle(frame);
    x += rect.left + frame.clientLeft + parseFloat(style.paddingLeft);
    y += rect.top + frame.clientTop + parseFloat(style.paddingTop);
    win = frame.ownerDocument.defaultView;
  }
  return { x, y };
}

function hitTest(el, x, y) {
  // Deep elementFromPoint through same-origin iframes and open shadow roots, in top-level
  // viewport coordinates.
  let root = document;
  let ox = 0, oy = 0;
  let hit = null;
  for (let depth = 0; depth < 32; depth++) {
    const found = root.elementFromPoint(x - ox, y - oy);
    if (!found || found === hit) break;
    hit = found;
    if (hit.shadowRoot && hit.shadowRoot !== root) { root = hit.shadowRoot; continue; }
    if (hit.tagName === "IFRAME" || hit.tagName === "FRAME") {
      let doc = null;
      try { doc = hit.contentDocument; } catch (e) { doc = null; }
      if (!doc) break;
      const rect = hit.getBoundingClientRect();
      const style = getComputedStyle(hit);
      ox += rect.left + hit.clientLeft + parseFloat(style.paddingLeft);
      oy += rect.top + hit.clientTop + parseFloat(style.paddingTop);
      root = doc;
      continue;
    }
    break;
  }
  return hit;
}

function actionable(el, opts) {
  if (!el.isConnected) return { error: "STALE_REF", reason: "element was removed from the page" };
  if (!el.checkVisibility({ checkVisibilityCSS: true })) {
    const style = getComputedStyle(el);
    const why = style.display === "none" ? "hidden (display:none)"
      : style.visibility !== "visible" ? `hidden (visibility:${style.visibility})`
      : "hidden (an ancestor is not rendered)";
    return { error: "NOT_ACTIONABLE", reason: why, retry: true };
  }
  if (opts.enabled !== false && disabled(el)) {
    return { error: "NOT_ACTIONABLE", reason: "disabled", retry: true };
  }
  let rect = el.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) {
    return { error: "NOT_ACTIONABLE", reason: "zero-size", retry: true };
  }
  const win = el.ownerDocument.defaultView;
  if (rect.top < 0 || rect.left < 0 || rect.bottom > win.innerHeight ||
      rect.right > win.innerWidth || win !== window) {
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    rect = el.getBoundingClientRect();
  }
  const off = frameOffset(el);
  const rects = Array.from(el.getClientRects());
  const box = rects.find(r => r.width > 0 && r.height > 0) || rect;
  const x = off.x + box.left + box.width / 2;
  const y = off.y + box.top + box.height / 2;
  if (opts.hitTest !== false) {
    const hit = hitTest(el, x, y);
    if (hit && !composedContains(el, hit)) {
      // A label pointing at this control receives its clicks; that is fine.
      const label = hit.closest && hit.closest("label");
      if (!(label && label.control === el)) {
        return { error: "NOT_ACTIONABLE", reason: `covered by ${describe(hit)}`, retry: true };
      }
    }
  }
  return { x, y };
}
