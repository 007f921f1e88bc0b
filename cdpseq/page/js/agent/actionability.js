// Actionability: whether an element can take a pointer action now, where, and afterwards
// whether the action really reached it.
//
// aim() checks, in order: attached, visible, enabled (not for hover), stable (its box does not
// move between two animation frames), on screen (scrolling with a different alignment on each
// attempt), and that the hit test at the point finds the element, or something inside it, after
// retargeting: a click on a span in a button or link is a click on the button or link, a control's
// state is read through its <label>. It then arms the interceptor: capture-phase listeners that
// see the real input events of the action. A trusted event that would land on another element is
// stopped before the page sees it (the action is retried, so nothing is clicked by mistake), and
// verdict() tells whether the events reached the element. A refusal says why and whether to retry.

function resolve(target) {
  if (target.element) return { el: target.element };
  if (target.ref !== undefined) return lookup(target.ref);
  const found = deepQuery(target.selector);
  if (!found) {
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
  // watching the page to know.
  if (!model.built) return true;
  noteMutations(reg.tracking.observer.takeRecords());
  if (performance.now() - reg.tracking.lastStyleChange < 100) return true;
  const around = new Set();
  for (let node = el; node; node = composedParent(node) ||
    (node.ownerDocument.defaultView && node.ownerDocument.defaultView.frameElement)) {
    around.add(node);
  }
  const docs = new Set([...around].map(node => node.ownerDocument));
  for (const doc of docs) {
    for (const animation of doc.getAnimations()) {
      const target = animation.effect && animation.effect.target;
      if (target && around.has(target) && movesBox(animation)) return true;
    }
  }
  return false;
}

function nextFrame(win) {
  // The next animation frame; a throttled (hidden) page gets 50 ms instead.
  return new Promise(done => {
    const timer = setTimeout(done, 50);
    win.requestAnimationFrame(() => { clearTimeout(timer); done(); });
  });
}

async function unstableReason(el) {
  // null when el keeps the same box over two animation frames (at once when nothing can move it).
  if (!mayBeMoving(el)) return null;
  const win = el.ownerDocument.defaultView;
  await nextFrame(win);
  const first = el.getBoundingClientRect();
  await nextFrame(win);
  const second = el.getBoundingClientRect();
  const same = ["top", "left", "width", "height"].every(k => Math.abs(first[k] - second[k]) < 0.5);
  return same ? null : "not stable (it is moving or resizing)";
}

function hitAt(x, y) {
  // The element the browser's hit test finds at (x, y) of the top-level viewport, through
  // open shadow roots and same-origin frames (elements with pointer-events:none are see-through).
  let root = document, ox = 0, oy = 0, hit = null;
  for (let depth = 0; depth < 32; depth++) {
    const found = root.elementFromPoint(x - ox, y - oy);
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

function reaches(hit, expected) {
  // Whether a hit on `hit` is a hit on `expected`: inside it (slots and shadow roots included),
  // or on a <label> of it; for a label, also its control, which the browser's activation of
  // the label clicks (a label[for] outside its hidden input: a CSS switch).
  for (let node = hit; node; node = composedParent(node)) if (node === expected) return true;
  if (expected.tagName === "LABEL" && hit === expected.control) return true;
  const label = hit && hit.closest && hit.closest("label");
  return !!(label && label.control === expected);
}

// -- the interceptor ----------------------------------------------------------------------------

const POINTER_EVENTS = ["pointerdown", "mousedown", "pointerup", "mouseup", "click", "auxclick",
  "dblclick", "contextmenu"];
const REACHED = new Set(["mousedown", "mouseup", "click", "auxclick", "dblclick", "contextmenu",
  "touchend"]);
// A tap's events: the touch events, the pointer events of the touch, and the mouse events and
// click the browser makes of the tap.
const TAP_EVENTS = ["touchstart", "touchend", ...POINTER_EVENTS];
const guard = { expected: null, hover: false, seen: null, wrong: null, stop: null, releases: 0,
  expect: 0, done: null, late: false, touchstart: null };

// Where the mouse pointer is, as this document last saw it: any client's trusted mouse input
// (another process's, a person's), in this window's coordinates. A click aimed exactly there
// needs no move first (a person clicking twice in place makes none); null when unknown: not
// seen yet, gone into a frame or out of the window, the viewport changed under it, or input
// of another kind came (a touch, a wheel turned elsewhere: the browser may place the mouse
// there).
let pointerAt = null;
for (const type of ["pointermove", "pointerdown", "pointerup"]) {
  window.addEventListener(type, event => {
    if (event.isTrusted) {
      pointerAt = event.pointerType === "mouse" ? { x: event.clientX, y: event.clientY } : null;
    }
  }, true);
}
window.addEventListener("wheel", event => {
  if (event.isTrusted && !pointerThere({ x: event.clientX, y: event.clientY })) pointerAt = null;
}, true);
window.addEventListener("pointerover", event => {
  if (event.isTrusted && (event.target.tagName === "IFRAME" || event.target.tagName === "FRAME")) {
    pointerAt = null;
  }
}, true);
window.addEventListener("pointerout", event => {
  if (event.isTrusted && !event.relatedTarget) pointerAt = null;
}, true);
window.addEventListener("resize", () => { pointerAt = null; }, true);

function pointerThere(point) {
  // Whether the pointer is at point already (the top document only: a frame's own agent sees
  // only what reaches its frame).
  return window.top === window && pointerAt !== null && Math.abs(pointerAt.x - point.x) < 0.01 &&
    Math.abs(pointerAt.y - point.y) < 0.01;
}

function stopGuard() {
  if (guard.stop) guard.stop();
  guard.stop = null;
}

function armGuard(expected, intent, releases) {
  // Watch the real input events of one action in every window from expected's up to the top:
  // `releases` mouse buttons released (or one move, for hover; one touchend, for tap) end it.
  const hover = intent === "hover", tap = intent === "tap";
  stopGuard();
  Object.assign(guard, { expected, hover, seen: new Set(), wrong: null, releases: 0,
    expect: hover ? 1 : releases, done: null, late: false, touchstart: null });
  const kinds = ["pointermove", "mousemove", ...(hover ? [] : tap ? TAP_EVENTS : POINTER_EVENTS)];
  // A tap ends with the click the browser makes of it, or with its touchend when the page
  // cancelled the touch (then no click comes).
  const ending = hover ? "pointermove" : tap ? "click" : "pointerup";
  const release = () => { if (++guard.releases >= guard.expect && guard.done) setTimeout(guard.done, 0); };
  const onEvent = event => {
    if (!event.isTrusted || guard.expected !== expected) return;
    // A pointerup is dispatched for every release, even over a disabled control, and the
    // mouseup and click it brings are dispatched in the same task: once the last one is in,
    // the action's events all are by the next task (not the next microtask: microtasks run
    // between one event's listeners, before that click).
    if (event.type === ending) release();
    if (tap && event.type === "touchend") {
      const start = guard.touchstart;
      setTimeout(() => {
        if (event.defaultPrevented || (start && start.defaultPrevented)) release();
      }, 0);
    }
    if (tap && event.type === "touchstart") guard.touchstart = event;
    const hit = event.composedPath()[0];
    if (!reaches(hit, expected) || guard.wrong || guard.late) {
      guard.wrong = guard.wrong || describe(hit);
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    guard.seen.add(event.type);
  };
  const windows = [];
  for (let win = expected.ownerDocument.defaultView; win; win = win.parent === win ? null : win.parent) {
    try { void win.document; } catch (e) { break; }  // a cross-origin parent: nothing to see there
    windows.push(win);
  }
  // passive: false, or a window's touch listeners could not cancel (Chromium makes them passive).
  const options = { capture: true, passive: false };
  for (const win of windows) for (const kind of kinds) win.addEventListener(kind, onEvent, options);
  const timer = setTimeout(stopGuard, 10000);
  guard.stop = () => {
    clearTimeout(timer);
    for (const win of windows) for (const kind of kinds) win.removeEventListener(kind, onEvent, true);
  };
}

// How long the verdict waits for the action's last event, and how long events that come later
// are still stopped: on a starved renderer input can be that late.
const VERDICT_WAIT = 2000;

async function verdict() {
  // What the armed action's events did: reached the element, were stopped because they would
  // have landed on another one, or were not seen at all. The input may still be on its way to
  // the page (the browser answers CDP's input commands before the page has run every event):
  // wait for its last event, up to VERDICT_WAIT ms.
  if (guard.seen && guard.releases < guard.expect) {
    await new Promise(resolve => {
      const timer = setTimeout(resolve, VERDICT_WAIT);
      guard.done = () => { clearTimeout(timer); resolve(); };
    });
  }
  const { seen, wrong, hover } = guard;
  if (seen && guard.releases < guard.expect) {
    // The action is not over yet and will be reported as not done: whatever of it still
    // comes is stopped, so that it cannot land after all.
    guard.late = true;
    setTimeout(() => { if (guard.late) stopGuard(); }, VERDICT_WAIT);
  } else {
    stopGuard();
  }
  guard.expected = guard.late ? guard.expected : null;
  if (!seen) return { none: true };
  if (wrong) return { intercepted: wrong };
  // Nothing of it at all: the browser has not delivered it (it may still, and is then stopped),
  // as when it hit-tests with a stale picture of where out-of-process frames are.
  if (guard.late && !hover) return seen.size ? { unfinished: true } : { unfinished: true, unseen: true };
  if (hover || [...seen].some(kind => REACHED.has(kind))) return { reached: [...seen] };
  return { none: true };
}

function visibleLabel(el) {
  // A control hidden behind its label (a CSS switch): the label that shows instead.
  if (!el.labels) return null;
  for (const label of el.labels) if (!hiddenReason(label)) return label;
  return null;
}

async function aim(el, args) {
  // Where to point at el for an action ("click", "hover", "check"), once el is actionable;
  // {quads: true} when only the browser can tell (el is in a transformed frame).
  if (!el.isConnected) return { error: "STALE_REF", reason: "element was removed from the page" };
  let hidden = hiddenReason(el);
  if (hidden && args.intent === "check" && visibleLabel(el)) {
    el = visibleLabel(el);
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
  const box = visibleBoxes(el)[0];
  if (!box) {
    return { error: "NOT_ACTIONABLE", reason: "outside the viewport (could not scroll it into view)",
      retry: true };
  }
  return aimAt(el, { ...centerOf(box), intent: args.intent, releases: args.releases,
    checkHit: true });
}

function aimAt(el, args) {
  // Arm the interceptor for an action at (x, y); with checkHit, first make sure the hit test
  // there finds el (retargeted to the button or link around it).
  const expected = retarget(el, "button-link");
  let point = args;
  if (args.quads) {
    point = quadsToPoint(args.quads);
    if (!point) return { error: "NOT_ACTIONABLE", reason: "outside the viewport", retry: true };
  }
  if (args.checkHit) {
    const hit = hitAt(point.x, point.y);
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
  return { x: point.x, y: point.y, ...(pointerThere(point) ? { pointerThere: true } : {}) };
}
