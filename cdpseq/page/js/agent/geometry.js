// Geometry: where an element is on screen, in the top-level viewport's CSS pixels, which is what
// Input.dispatchMouseEvent takes. Same-origin frames are crossed by adding each frame element's
// content-box offset; a frame that is CSS-transformed (or sits inside a transformed element)
// cannot be crossed that way, so such elements get their quads from the browser instead
// (DOM.getContentQuads, see geometryFromBrowser in the Python side). Also where on an element to
// aim (aimPoint): the middle of its box, or a point on its own content when the middle is on a
// control or item it holds, or on none of its content.

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

// -- where on an element to aim -----------------------------------------------------------------

// What an element may hold that a click on the element must not land on: a control, or an item
// of a composite (a tree item's child items, a row's buttons, a label's link).
const HELD_TAGS = "a[href], button, input:not([type=hidden]), select, textarea, summary";
const HELD_ROLES = new Set(["button", "link", "checkbox", "radio", "switch", "textbox",
  "searchbox", "combobox", "slider", "spinbutton", "menuitem", "menuitemcheckbox",
  "menuitemradio", "option", "treeitem", "tab"]);
// Elements whose blank middle is theirs to click (a field, a picture, an editor): their
// middle is aimed at even where none of their content is.
const FILLED_WHOLE = "input, select, textarea, img, svg, canvas, video, audio, iframe, object, embed";

function holdsItsOwn(node, el) {
  // Whether node, inside el, is a control or item of its own (el's own <label> control is not).
  if (node === el || node.nodeType !== 1) return false;
  if (el.tagName === "LABEL" && el.control === node) return false;
  const role = roleOf(node);
  return node.matches(HELD_TAGS) || HELD_ROLES.has(role) ||
    (role !== "generic" && role === roleOf(el));
}

function innerControl(hit, el) {
  // The control or item inside el that a hit on hit is on, or null (also when hit is not
  // inside el).
  let found = null;
  for (let node = hit; node; node = composedParent(node)) {
    if (node === el) return found;
    if (!found && holdsItsOwn(node, el)) found = node;
  }
  return null;
}

function flatChildren(node) {
  // node's children as rendered: a shadow host's shadow tree, a slot's assigned nodes.
  if (node.shadowRoot) return node.shadowRoot.childNodes;
  if (node.tagName === "SLOT") {
    const assigned = node.assignedNodes();
    if (assigned.length) return assigned;
  }
  return node.childNodes;
}

function textBoxes(text) {
  const range = text.ownerDocument.createRange();
  range.selectNodeContents(text);
  return range.getClientRects();
}

function onBlank(el, point) {
  // Whether point, where the hit test finds el itself, is on none of el's content: el holds
  // content, but its own text is not there (a wide tree item or option whose label is at its
  // left, which the page may listen on). The text's whole extent counts (between its lines
  // too).
  if (el.matches(FILLED_WHOLE) || el.isContentEditable) return false;
  let x = point.x, y = point.y;  // in el's document
  for (const frame of frameChain(el)) {
    const at = frameContentOffset(frame);
    x -= at.x;
    y -= at.y;
  }
  let content = false;
  for (const child of flatChildren(el)) {
    if (child.nodeType === 1) content = true;
    if (child.nodeType !== 3 || !child.data.trim()) continue;
    content = true;
    const range = child.ownerDocument.createRange();
    range.selectNodeContents(child);
    const box = range.getBoundingClientRect();
    if (x >= box.left && x <= box.right && y >= box.top && y <= box.bottom) return false;
  }
  return content;
}

// How many nodes of an element the search for its own content looks at, and how many of its
// boxes it tries.
const OWN_CONTENT_NODES = 400;
const OWN_CONTENT_TRIES = 8;

function ownContentBoxes(el) {
  // The on-screen boxes of el's own content, in order: its text and its childless elements
  // (icons, pictures), not what is inside a control or item it holds; any: whether it has own
  // content at all (on screen or not).
  const boxes = [];
  let budget = OWN_CONTENT_NODES, any = false;
  const add = rects => {
    for (const rect of rects) {
      if (rect.width * rect.height < 1) continue;
      any = true;
      const part = onScreen(el, rect);
      if (part && (part.right - part.left) * (part.bottom - part.top) > 0.99) boxes.push(part);
    }
  };
  const visit = node => {
    if (--budget < 0 || boxes.length >= OWN_CONTENT_TRIES) return;
    if (node.nodeType === 3) {
      if (node.data.trim()) add(textBoxes(node));
      return;
    }
    if (node.nodeType !== 1 || holdsItsOwn(node, el)) return;
    const children = [...flatChildren(node)].filter(child => child.nodeType === 1 ||
      (child.nodeType === 3 && child.data.trim()));
    if (!children.length) {
      if (node !== el && !["STYLE", "SCRIPT", "TEMPLATE", "SLOT"].includes(node.tagName)) {
        add(node.getClientRects());
      }
      return;
    }
    for (const child of children) visit(child);
  };
  visit(el);
  return { boxes, any };
}

function aimPoint(el, box) {
  // Where to aim at el: the middle of its box on screen, unless a hit there is on a control or
  // item el holds (an expanded tree item's middle is on its child items, a row's on a button)
  // or on none of its content: then the middle of the first piece of its own content (its text,
  // its label row) that the hit test finds there. {x, y, hit}, or a refusal when el has own
  // content but none of it can be hit (the next attempt scrolls otherwise).
  const point = centerOf(box);
  const hit = hitAt(point.x, point.y);
  const inner = innerControl(hit, el);
  if (!inner && !(hit === el && onBlank(el, point))) return { ...point, hit };
  const expected = retarget(el, "button-link");
  const own = ownContentBoxes(el);
  for (const part of own.boxes) {
    const spot = centerOf(part);
    const there = hitAt(spot.x, spot.y);
    if (reaches(there, expected) && !innerControl(there, el)) return { ...spot, hit: there };
  }
  if (inner && own.any) {
    return { error: "NOT_ACTIONABLE", retry: true, reason: `its middle is on ${describe(inner)}, ` +
      "which it holds, and none of its own content (text, label) is where it can be clicked" };
  }
  return { ...point, hit };
}
