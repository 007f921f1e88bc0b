// Actionability: whether an element can take a pointer action now, where, and afterwards
// whether the action really reached it.
//
// aim() checks, in order: attached, visible, enabled (not for hover), stable (its box does not
// move between two animation frames), on screen (scrolling with a different alignment on each
// attempt), and that the hit test at the point finds the element, or something inside it, after
// retargeting: a click on a span in a button or link is a click on the button or link, a
// control's state is read through its <label>, and a control that cannot take a click where it
// is (hidden behind its label, clipped, display:none) is clicked through its label. Text a web
// component's host holds is hit where its slot renders it (a button component's label, inside
// its inner button). The point aimed at is on the element's own content (aimPoint in
// geometry.js). It then arms the interceptor (intercept.js), which watches the action's
// real input events and tells whether they reached the element. A refusal says why and whether
// to retry.

function resolve(target) {
  if (target.element) return { el: target.element };
  if (target.ref !== undefined) return lookup(target.ref);
  const found = deepQuery(target.selector);
  if (!found) {
    const crossed = crossing(target.selector);
    if (crossed) {  // the rest of the chain is the agent's of a cross-origin frame
      return { error: "NODE_NOT_FOUND", inFrame: crossed, reason: `selector ${target.selector} ` +
        `goes on in a cross-origin frame (${crossed.rest})` };
    }
    return { error: "NODE_NOT_FOUND", reason: `no element matches selector ${target.selector}` };
  }
  return found;
}

const NEVER_RETARGETED = "input, textarea, select";

function retarget(el, behavior) {
  // The element an action on el really concerns. "button-link": the button or link around el
  // (what a click on el hits); "follow-label": also a label's control (whose state and value a
  // check, fill or select means).
  if (!el.matches(NEVER_RETARGETED) && !el.isContentEditable) {
    const around = behavior === "button-link" ? "button, [role=button], a, [role=link]"
      : "button, [role=button], [role=checkbox], [role=radio]";
    el = el.closest(around) || el;
  }
  if (behavior === "follow-label" && !el.isContentEditable && !el.matches(
    "a, input, textarea, button, select, [role=link], [role=button], [role=checkbox], [role=radio]")) {
    const label = el.closest("label");
    if (label && label.control) el = label.control;
  }
  return el;
}

function hiddenReason(el) {
  // Why el is not visible, or null when it is.
  const style = getComputedStyle(el);
  if (style.display === "contents") {
    for (const child of el.childNodes) {
      if (child.nodeType === 1 && !hiddenReason(child)) return null;
      if (child.nodeType === 3 && child.data.trim()) {
        const range = el.ownerDocument.createRange();
        range.selectNodeContents(child);
        if (range.getClientRects().length) return null;
      }
    }
    return "hidden (display:contents with nothing visible inside)";
  }
  if (!el.checkVisibility()) {
    return style.display === "none" ? "hidden (display:none)" : "hidden (an ancestor is not rendered)";
  }
  if (style.visibility !== "visible") return `hidden (visibility:${style.visibility})`;
  const rect = el.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) return "zero-size";
  return null;
}

const ARIA_DISABLABLE = new Set(["application", "button", "composite", "gridcell", "group",
  "input", "link", "menuitem", "scrollbar", "separator", "tab", "checkbox", "columnheader",
  "combobox", "grid", "listbox", "menu", "menubar", "menuitemcheckbox", "menuitemradio", "option",
  "radio", "radiogroup", "row", "rowheader", "searchbox", "select", "slider", "spinbutton",
  "switch", "tablist", "textbox", "toolbar", "tree", "treegrid", "treeitem"]);
const NATIVE_DISABLABLE = new Set(["BUTTON", "INPUT", "SELECT", "TEXTAREA", "OPTION", "OPTGROUP"]);

function disabledReason(el) {
  // Natively disabled (the element, its <fieldset> outside the first legend, an <option>'s
  // <optgroup>), or aria-disabled: the nearest explicit aria-disabled on el or an ancestor, for
  // roles that can be disabled.
  if (NATIVE_DISABLABLE.has(el.tagName) && el.matches(":disabled")) {
    if (el.hasAttribute("disabled")) return "disabled";
    return el.closest("fieldset[disabled]") ? "disabled (inside a disabled <fieldset>)"
      : "disabled (inside a disabled <optgroup>)";
  }
  if (!ARIA_DISABLABLE.has(roleOf(el))) return null;
  for (let node = el; node; node = node.parentElement || (node.parentNode && node.parentNode.host)) {
    const value = node.getAttribute("aria-disabled");
    if (value === null) continue;
    if (value.toLowerCase() === "true") {
      return node === el ? "disabled (aria-disabled)" : `disabled (aria-disabled on ${describe(node)})`;
    }
    if (value.toLowerCase() === "false") return null;
  }
  return null;
}

// Animated properties that cannot move an element or change its size.
const BOX_NEUTRAL = new Set(["opacity", "color", "background-color", "background", "box-shadow",
  "outline", "outline-color", "border-color", "fill", "stroke", "filter", "text-shadow",
  "text-decoration-color", "caret-color", "backgroundColor", "boxShadow", "outlineColor",
  "borderColor", "textShadow"]);

function movesBox(animation) {
  if (animation.playState !== "running" || !animation.effect) return false;
  if (animation.transitionProperty) return !BOX_NEUTRAL.has(animation.transitionProperty);
  try {
    for (const frame of animation.effect.getKeyframes()) {
      for (const name in frame) {
        if (!["offset", "computedOffset", "easing", "composite"].includes(name) &&
          !BOX_NEUTRAL.has(name)) return true;
      }
    }
    return false;
  } catch (e) {
    return true;
  }
}

function mayBeMoving(el) {
  // Whether el's box might be moving: an animation that can move a box runs on el or around it
  // (frames included), the page changed styles or classes in the last 100 ms, or cdpseq is not
  // watching the page to know. null: not moving; else the animated elements around it.
  if (!model.built) return [];
  noteMutations(reg.tracking.observer.takeRecords());
  if (performance.now() - reg.tracking.lastStyleChange < 100) return [];
  const around = new Set();
  for (let node = el; node; node = composedParent(node) ||
    (node.ownerDocument.defaultView && node.ownerDocument.defaultView.frameElement)) {
    around.add(node);
  }
  // Each document and shadow root around it: a document's getAnimations() leaves out those
  // in its shadow roots (a dialog component's panel sliding in).
  const roots = new Set([...around].map(node => node.getRootNode()));
  const moving = new Set();
  for (const root of roots) {
    for (const animation of root.getAnimations()) {
      const target = animation.effect && animation.effect.target;
      if (target && around.has(target) && movesBox(animation)) moving.add(target);
    }
  }
  return moving.size ? [...moving] : null;
}

function placement(el, moving) {
  // el's box, and the transforms of the animated elements around it: a box turning about its
  // centre has the same bounding box at angles mirrored about a quarter turn.
  const box = el.getBoundingClientRect();
  return [box.top, box.left, box.width, box.height,
    ...moving.map(node => node.isConnected ? getComputedStyle(node).transform : "")];
}

function nextFrame(win, patience = 50) {
  // The next animation frame; a throttled (hidden) page gets `patience` ms instead.
  return new Promise(done => {
    const timer = setTimeout(done, patience);
    win.requestAnimationFrame(() => { clearTimeout(timer); done(); });
  });
}

async function unstableReason(el) {
  // null when el keeps the same box over two animation frames (at once when nothing can move it).
  // A visible page draws frames, but a busy machine may draw one well after 50 ms: two readings
  // with no frame between them would see a moving element stand still.
  const moving = mayBeMoving(el);
  if (!moving) return null;
  const win = el.ownerDocument.defaultView;
  const patience = win.document.visibilityState === "hidden" ? 50 : 500;
  const timeline = win.document.timeline;
  await nextFrame(win, patience);
  const first = placement(el, moving), firstAt = timeline.currentTime;
  // A frame whose animation time did not move on (a busy machine's) shows the same box.
  for (let frames = 0; frames < 4; frames++) {
    await nextFrame(win, patience);
    if (timeline.currentTime !== firstAt) break;
  }
  const second = placement(el, moving);
  const same = first.every((value, i) => typeof value === "number"
    ? Math.abs(value - second[i]) < 0.5 : value === second[i]);
  return same ? null : "not stable (it is moving or resizing)";
}

function hitAt(x, y) {
  // The element the browser's hit test finds at (x, y) of the top-level viewport, through
  // open shadow roots and same-origin frames (elements with pointer-events:none are see-through).
  let root = document, ox = 0, oy = 0, hit = null;
  for (let depth = 0; depth < 32; depth++) {
    const found = root.elementFromPoint(x - ox, y - oy);
    if (found === hit && hit && root === hit.shadowRoot) {
      // A shadow root answers its own host for text slotted into it (a button's label given as
      // the host's text): the hit is on that text, rendered where its slot is.
      hit = slottedTextAt(hit, x - ox, y - oy) || hit;
      break;
    }
    if (!found || found === hit) break;
    hit = found;
    if (hit.shadowRoot && hit.shadowRoot !== root) { root = hit.shadowRoot; continue; }
    if (hit.tagName === "IFRAME" || hit.tagName === "FRAME") {
      let doc = null;
      try { doc = hit.contentDocument; } catch (e) { doc = null; }
      if (!doc) break;
      const at = frameContentOffset(hit);
      ox += at.x;
      oy += at.y;
      root = doc;
      continue;
    }
    break;
  }
  return hit;
}

function slottedTextAt(host, x, y) {
  // The slot that renders the host's text at (x, y) of its document, or null.
  for (const child of host.childNodes) {
    if (child.nodeType !== 3 || !child.assignedSlot || !child.data.trim()) continue;
    const range = host.ownerDocument.createRange();
    range.selectNodeContents(child);
    for (const box of range.getClientRects()) {
      if (x >= box.left && x <= box.right && y >= box.top && y <= box.bottom) return child.assignedSlot;
    }
  }
  return null;
}

function reaches(hit, expected) {
  // Whether a hit on `hit` is a hit on `expected`: inside it (slots and shadow roots included),
  // or on a <label> of it; for a label, also its control, which the browser's activation of
  // the label clicks (a label[for] outside its hidden input: a CSS switch).
  for (let node = hit; node; node = composedParent(node)) if (node === expected) return true;
  if (expected.tagName === "LABEL" && hit === expected.control) return true;
  const label = hit && hit.closest && hit.closest("label");
  return !!(label && label.control === expected);
}

function visibleLabel(el) {
  // A control hidden behind its label (a CSS switch), or out of the way of clicks (moved off
  // screen, clipped to nothing, as accessible CSS kits hide it): the label that shows instead.
  if (!el.labels) return null;
  for (const label of el.labels) if (!hiddenReason(label)) return label;
  return null;
}

function labelToClick(el) {
  // For a check on el (a control, or a label of it): the label to click when the control
  // cannot take the click itself: the one given if it shows, else the control's first that
  // does; or null.
  const control = retarget(el, "follow-label");
  const given = el.closest && el.closest("label");
  if (given && given.control === control && !hiddenReason(given)) return given;
  return visibleLabel(control);
}

const INTERACTIVE = "a, button, input, select, textarea, [role=link], [role=button]";
// Where on a label's box to try a click, as fractions of its width along its middle.
const LABEL_SPOTS = [0.5, 0.25, 0.75, 0.1, 0.9];

function labelPoint(label) {
  // A point on the label, on screen, that is not on a link or another control inside it (a
  // click there would follow the link, and the label would not pass it on); else the middle of
  // its first box, or null.
  const boxes = visibleBoxes(label);
  for (const box of boxes) {
    for (const spot of LABEL_SPOTS) {
      const point = { x: Math.round((box.left + (box.right - box.left) * spot) * 100) / 100,
        y: centerOf(box).y };
      const hit = hitAt(point.x, point.y);
      const inner = hit && hit.closest && hit.closest(INTERACTIVE);
      if (!inner || !label.contains(inner) || inner === label.control) return point;
    }
  }
  return boxes.length ? centerOf(boxes[0]) : null;
}

async function aim(el, args) {
  // Where to point at el for an action ("click", "hover", "check", "tap", "drag"), once el is
  // actionable; {quads: true} when only the browser can tell (el is in a transformed frame).
  // The point is on el's own content (aimPoint). A control that cannot take the click itself
  // (hidden behind its label, display:none, moved off screen, clipped to nothing) is clicked
  // through a label of it, as a person clicks it (not for a drag). A check clicks the control
  // itself (a label's text may hold a link), or its label only when it cannot.
  if (!el.isConnected) return { error: "STALE_REF", reason: "element was removed from the page" };
  const check = args.intent === "check";
  // The label to click instead: a check's is known at once (it may be the target); for any
  // other intent it is looked for only when the control cannot take the click.
  let label = check ? labelToClick(el) : undefined;
  if (check) el = retarget(el, "follow-label");
  const standIn = () => {
    if (label === undefined) label = args.intent === "drag" ? null : visibleLabel(el);
    return label;
  };
  let hidden = hiddenReason(el);
  if (hidden && standIn()) {
    el = label;
    hidden = null;
  }
  if (hidden) return { error: "NOT_ACTIONABLE", reason: hidden, retry: true };
  const hover = args.intent === "hover";
  if (!hover) {
    const disabled = disabledReason(retarget(el, "follow-label"));
    if (disabled) return { error: "NOT_ACTIONABLE", reason: disabled, retry: true };
  }
  const unstable = await unstableReason(el);
  if (unstable) return { error: "NOT_ACTIONABLE", reason: unstable, retry: true };
  scrollForAttempt(el, args.attempt || 0);
  if (transformedFrames(el)) return { quads: true };
  const box = el !== label ? visibleBoxes(el)[0] : null;
  let aimed = box ? aimPoint(el, box) : null;
  const blocked = !aimed || !!aimed.error || !reaches(aimed.hit, retarget(el, "button-link"));
  if (el === label || (blocked && standIn())) {
    if (el !== label) scrollForAttempt(label, args.attempt || 0);
    el = label;
    aimed = labelPoint(label);
  }
  if (!aimed) {
    return { error: "NOT_ACTIONABLE", reason: "outside the viewport (could not scroll it into view)",
      retry: true };
  }
  if (aimed.error) return aimed;
  return aimAt(el, { x: aimed.x, y: aimed.y, hit: aimed.hit, intent: args.intent,
    releases: args.releases, checkHit: true });
}

function aimAt(el, args) {
  // Arm the interceptor for an action at (x, y); with checkHit, first make sure the hit test
  // there (args.hit when aim() just made it) finds el (retargeted to the button or link around
  // it).
  const expected = retarget(el, "button-link");
  let point = args;
  if (args.quads) {
    point = quadsToPoint(args.quads);
    if (!point) return { error: "NOT_ACTIONABLE", reason: "outside the viewport", retry: true };
  }
  if (args.checkHit) {
    const hit = args.hit !== undefined ? args.hit : hitAt(point.x, point.y);
    if (!reaches(hit, expected)) {
      return { error: "NOT_ACTIONABLE", reason: `covered by ${describe(hit)}`, retry: true };
    }
  }
  if (args.intent === "drag") {  // a drag watches its events itself (gestures.js)
    touch(el);
    return { x: point.x, y: point.y };
  }
  armGuard(expected, args.intent, args.releases || 1);
  touch(el);
  return { x: point.x, y: point.y };
}
