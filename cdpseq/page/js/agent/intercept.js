// The input interceptor: capture-phase listeners armed for one pointer action (aimAt() in
// actionability.js arms it) that see its real input events in every window from the element's
// up to the top. A trusted event that would land on another element is stopped before the page
// sees it, so nothing is clicked by mistake (the action is retried); verdict() then tells
// whether the events reached the element. What lands elsewhere after the press reached the
// element is the browser's own and goes through: the rest of the gesture when the element went
// away or was replaced on the press (a person's click goes on the same way), and the click a
// <label> the real click reached sends to its control (its activation). Also here: where the
// mouse pointer is, as the page last saw it: a click's move to where it already was is stopped
// (a person clicking again in place makes none), decided as the events arrive.

const POINTER_EVENTS = ["pointerdown", "mousedown", "pointerup", "mouseup", "click", "auxclick",
  "dblclick", "contextmenu"];
const REACHED = new Set(["mousedown", "mouseup", "click", "auxclick", "dblclick", "contextmenu",
  "touchend"]);
// A tap's events: the touch events, the pointer events of the touch, and the mouse events and
// click the browser makes of the tap.
const TAP_EVENTS = ["touchstart", "touchend", ...POINTER_EVENTS];
const guard = { expected: null, hover: false, seen: null, wrong: null, stop: null, releases: 0,
  expect: 0, done: null, late: false, touchstart: null, activates: null, pressed: false,
  touched: false, inPlace: false };

// Where the mouse pointer is, as this document last saw it: any client's trusted mouse input
// (another process's, a person's), in this window's coordinates; null when unknown: not seen
// yet, gone into a frame or out of the window, the viewport changed under it, or input of
// another kind came (a touch, a wheel turned elsewhere: the browser may place the mouse there).
// The move an armed click sends before its press, to where the pointer already was (whoever
// put it there: the click cannot know what input of others comes first), the page does not
// see, as a person clicking again in place makes none: it is stopped here, in listeners added
// with the agent (before the page's own, in a document it was installed in first), and the
// mousemove that follows it.
let pointerAt = null;
for (const type of ["pointermove", "pointerdown", "pointerup"]) {
  window.addEventListener(type, event => {
    if (!event.isTrusted) return;
    const was = pointerAt;
    pointerAt = event.pointerType === "mouse" ? { x: event.clientX, y: event.clientY } : null;
    guard.inPlace = type === "pointermove" && guard.expected !== null && !guard.hover &&
      pointerAt !== null && samePlace(was, pointerAt);
    if (guard.inPlace) event.stopImmediatePropagation();
  }, true);
}
window.addEventListener("mousemove", event => {
  if (event.isTrusted && guard.inPlace) event.stopImmediatePropagation();
}, true);
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

function samePlace(at, point) {
  return at !== null && Math.abs(at.x - point.x) < 0.01 && Math.abs(at.y - point.y) < 0.01;
}

function pointerThere(point) {
  // Whether the pointer is at point already (the top document only: a frame's own agent sees
  // only what reaches its frame).
  return window.top === window && samePlace(pointerAt, point);
}

function activatedBy(hit) {
  // The control a click on hit makes the browser click next: the control of the <label> hit is
  // in (through shadow roots), when it is not inside hit itself; else null.
  for (let node = hit; node; node = composedParent(node)) {
    if (node.tagName === "LABEL") {
      const control = node.control;
      return control && !composedContains(hit, control) ? control : null;
    }
  }
  return null;
}

function stopGuard() {
  if (guard.stop) guard.stop();
  guard.stop = null;
}

function opensWindow(el, event) {
  // Whether the action may open another window: a click with a modifier or the middle button,
  // on a link, or a link or a form's submitter whose target is another browsing context.
  if (event.ctrlKey || event.metaKey || event.shiftKey || event.button === 1) return true;
  const link = el.closest && el.closest("a[href], area[href]");
  const form = !link && (el.form || (el.closest && el.closest("form")));
  const owner = link || form;
  if (!owner) return false;
  const base = document.querySelector("base[target]");
  const target = (owner.getAttribute("target") ?? (base ? base.getAttribute("target") : "")) || "";
  return !["", "_self", "_top", "_parent"].includes(target.toLowerCase());
}

function armGuard(expected, intent, releases) {
  // Watch the real input events of one action in every window from expected's up to the top:
  // `releases` mouse buttons released (or one move, for hover; one touchend, for tap) end it.
  const hover = intent === "hover", tap = intent === "tap";
  stopGuard();
  Object.assign(guard, { expected, hover, seen: new Set(), wrong: null, releases: 0, inputAt: null,
    expect: hover ? 1 : releases, done: null, late: false, touchstart: null, activates: null,
    pressed: false, touched: false, inPlace: false });
  const kinds = ["pointermove", "mousemove", ...(hover ? [] : tap ? TAP_EVENTS : POINTER_EVENTS)];
  // A tap ends with the click the browser makes of it, or with its touchend when the page
  // cancelled the touch (then no click comes).
  const ending = hover ? "pointermove" : tap ? "click" : "pointerup";
  const release = event => {
    if (++guard.releases < guard.expect) return;
    // The action's last event: the frame after it is the one a settle can take as its proof
    // (noteFrame, watch.js), asked for now so that it is the frame the input itself brings.
    guard.inputAt = performance.now();
    // Not for what may open another window: the browser tells of a new tab in its own time,
    // and the settle then waits a frame anew. (A navigation of this one, or a download, the
    // settle waits for the browser to report: `leaving` in watch.js.)
    if (!opensWindow(expected, event)) noteFrame();
    if (guard.done) setTimeout(guard.done, 0);
  };
  const onEvent = event => {
    if (!event.isTrusted || guard.expected !== expected) return;
    // A pointerup is dispatched for every release, even over a disabled control, and the
    // mouseup and click it brings are dispatched in the same task: once the last one is in,
    // the action's events all are by the next task (not the next microtask: microtasks run
    // between one event's listeners, before that click).
    if (event.type === ending) release(event);
    if (tap && event.type === "touchend") {
      const start = guard.touchstart;
      setTimeout(() => {
        if (event.defaultPrevented || (start && start.defaultPrevented)) release(event);
      }, 0);
    }
    if (tap && event.type === "touchstart") guard.touchstart = event;
    const hit = event.composedPath()[0];
    if (event.type === "click" && hit === guard.activates) {
      // The click a label's activation sends to its control: the browser's own, not a
      // misdirected one (it comes right after the click that reached the label).
      guard.activates = null;
      return;
    }
    if (!guard.late && (guard.pressed || (guard.touched && !expected.isConnected))) {
      return;  // the rest of a press that reached it: the browser's
    }
    if (!reaches(hit, expected) || guard.wrong || guard.late) {
      guard.wrong = guard.wrong || describe(hit);
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    guard.seen.add(event.type);
    // Once a mouse press reached the element, the rest of the gesture is the browser's,
    // wherever it goes: a menu item that closes its menu on pointerdown, a button re-rendered
    // on press (the browser then sends the mouse events to what is there now), as under a
    // person's hand. A finger's press likewise once the element is gone; but the mouse events
    // the browser makes of a tap come after the finger lifted, and a layer they show over the
    // element (a hover effect) takes a click the person did not aim at: that one is stopped.
    if (event.type === "mousedown" || (event.type === "pointerdown" && event.pointerType !== "touch")) {
      guard.pressed = true;
    }
    if (event.type === "touchstart" || event.type === "pointerdown") guard.touched = true;
    if (event.type === "click") guard.activates = activatedBy(hit);
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
  const { seen, wrong, hover, expected } = guard;
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
  if (hover || guard.pressed || (guard.touched && expected && !expected.isConnected) ||
    [...seen].some(kind => REACHED.has(kind))) {
    return { reached: [...seen], at: guard.inputAt };
  }
  return { none: true };
}
