// Geometry: where an element is on screen, in the top-level viewport's CSS pixels, which is what
// Input.dispatchMouseEvent takes. Same-origin frames are crossed by adding each frame element's
// content-box offset; a frame that is CSS-transformed (or sits inside a transformed element)
// cannot be crossed that way, so such elements get their quads from the browser instead
// (DOM.getContentQuads, see geometryFromBrowser in the Python side).

function frameChain(el) {
  // The frame elements that contain el's document, innermost first.
  const chain = [];
  let win = el.ownerDocument.defaultView;
  while (win && win.frameElement) {
    chain.push(win.frameElement);
    win = win.frameElement.ownerDocument.defaultView;
  }
  return chain;
}

function composedParent(node) {
  return node.assignedSlot || node.parentElement ||
    (node.parentNode && node.parentNode.host) || null;
}

function transformedFrames(el) {
  // Whether a frame around el, or anything around such a frame, is transformed or zoomed.
  for (const frame of frameChain(el)) {
    for (let node = frame; node; node = composedParent(node)) {
      const style = getComputedStyle(node);
      if (style.transform !== "none" || (style.zoom && style.zoom !== "1")) return true;
    }
  }
  return false;
}

function frameContentOffset(frame) {
  const rect = frame.getBoundingClientRect();
  const style = getComputedStyle(frame);
  return {
    x: rect.left + frame.clientLeft + parseFloat(style.paddingLeft),
    y: rect.top + frame.clientTop + parseFloat(style.paddingTop),
    width: frame.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
    height: frame.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom),
  };
}

function viewportOf(win) {
  // The visible part of a window in its own coordinates (scrollbars excluded).
  const vv = win.visualViewport;
  if (vv) return { left: vv.offsetLeft, top: vv.offsetTop, right: vv.offsetLeft + vv.width,
    bottom: vv.offsetTop + vv.height };
  const root = win.document.documentElement;
  return { left: 0, top: 0, right: root.clientWidth, bottom: root.clientHeight };
}

function clip(rect, box) {
  const left = Math.max(rect.left, box.left), top = Math.max(rect.top, box.top);
  const right = Math.min(rect.right, box.right), bottom = Math.min(rect.bottom, box.bottom);
  return right > left && bottom > top ? { left, top, right, bottom } : null;
}

function boxesOf(el) {
  // The element's layout boxes in its own document. A display:contents element has none of its
  // own: it is where its children are.
  const own = Array.from(el.getClientRects());
  if (own.length || getComputedStyle(el).display !== "contents") return own;
  const boxes = [];
  for (const child of el.childNodes) {
    if (child.nodeType === 1) boxes.push(...boxesOf(child));
    else if (child.nodeType === 3 && child.data.trim()) {
      const range = child.ownerDocument.createRange();
      range.selectNodeContents(child);
      boxes.push(...range.getClientRects());
    }
  }
  return boxes;
}

function onScreen(el, box) {
  // The part of one of el's boxes that is on screen, clipped by every viewport and frame on the
  // way up, in top-level coordinates; null when none of it is.
  let part = clip(box, viewportOf(el.ownerDocument.defaultView));
  for (const frame of frameChain(el)) {
    if (!part) return null;
    const at = frameContentOffset(frame);
    part = clip({ left: part.left + at.x, top: part.top + at.y, right: part.right + at.x,
      bottom: part.bottom + at.y }, { left: at.x, top: at.y, right: at.x + at.width,
      bottom: at.y + at.height });
    if (part) part = clip(part, viewportOf(frame.ownerDocument.defaultView));
  }
  return part;
}

function visibleBoxes(el) {
  // The on-screen parts of el's boxes; parts of less than 1 px² do not count.
  const out = [];
  for (const box of boxesOf(el)) {
    const part = onScreen(el, box);
    if (part && (part.right - part.left) * (part.bottom - part.top) > 0.99) out.push(part);
  }
  return out;
}

function centerOf(box) {
  return { x: Math.round((box.left + box.right) * 50) / 100,
    y: Math.round((box.top + box.bottom) * 50) / 100 };
}

function fullyInView(el) {
  // Whether el's first box is on screen whole, or as much of it as the viewport can show.
  const box = boxesOf(el)[0];
  const part = box && onScreen(el, box);
  if (!part) return false;
  const view = viewportOf(el.ownerDocument.defaultView);
  const fits = (seen, whole, room) => seen >= Math.min(whole, room) - 1;
  return fits(part.right - part.left, box.width, view.right - view.left) &&
    fits(part.bottom - part.top, box.height, view.bottom - view.top);
}

function boxed(el) {
  // el, or for a display:contents element its first descendant that has a box.
  if (getComputedStyle(el).display !== "contents") return el;
  for (const child of el.children) {
    const found = boxed(child);
    if (found.getClientRects().length) return found;
  }
  return el;
}

const ALIGNMENTS = [null, "end", "center", "start"];

function scrollForAttempt(el, attempt) {
  // Attempt 0, 4, 8...: scroll only if el is not wholly in view. The others scroll it to the
  // end, the center, then the start of its scroll areas: a target under a sticky or fixed
  // header is uncovered by one of them.
  const align = ALIGNMENTS[attempt % 4];
  if (align === null && fullyInView(el)) return;
  const block = align || "center";
  const target = boxed(el);
  if (target.getClientRects().length) {
    target.scrollIntoView({ block, inline: block, behavior: "instant" });
    return;
  }
  // Text right inside a display:contents element has no element to scroll into view: bring the
  // nearest ancestor with a box in, then center the text's own box in its window.
  let host = el.parentElement;
  while (host && !host.getClientRects().length) host = host.parentElement;
  if (host) host.scrollIntoView({ block: "nearest", inline: "nearest", behavior: "instant" });
  const box = boxesOf(el)[0];
  const win = el.ownerDocument.defaultView;
  const view = viewportOf(win);
  if (box) {
    win.scrollBy({ left: box.left - (view.left + view.right - box.width) / 2,
      top: box.top - (view.top + view.bottom - box.height) / 2, behavior: "instant" });
  }
}

function quadsToPoint(quads) {
  // The center of the first quad (from DOM.getContentQuads, top-level coordinates) that is
  // on screen after clipping to the top-level viewport.
  const view = viewportOf(window);
  for (const q of quads) {
    const xs = [q[0], q[2], q[4], q[6]].map(x => Math.min(Math.max(x, view.left), view.right));
    const ys = [q[1], q[3], q[5], q[7]].map(y => Math.min(Math.max(y, view.top), view.bottom));
    let area = 0;
    for (let i = 0; i < 4; i++) {
      const j = (i + 1) % 4;
      area += (xs[i] * ys[j] - xs[j] * ys[i]) / 2;
    }
    if (Math.abs(area) > 0.99) {
      return { x: Math.round(xs.reduce((a, b) => a + b) * 25) / 100,
        y: Math.round(ys.reduce((a, b) => a + b) * 25) / 100 };
    }
  }
  return null;
}
