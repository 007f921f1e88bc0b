// Gestures: a swipe's finger path and what it did; a drag's ends and whether its drop landed.
//
// A swipe is judged by its effect: something scrolled (the wheel's scroll chain, input.js), or
// the page took the gesture for itself (it cancelled a touch event, or its touch-action leaves
// the pan to scripts, and it changed the DOM around the finger). A drag is watched from the
// press to the release: an HTML5 drag (a trusted dragstart) landed when a trusted drop reached
// the destination; a mouse-driven one landed when the press reached the source, the page
// changed the DOM meanwhile, and at the release the destination (or the dragged element, which
// took its place in a sortable) is under the pointer (an HTML5 drop too may land on the dragged
// element, which a sortable moved into the destination's place). A drag's path goes a step per
// frame, as a hand's does (dragStep).

function clampInto(view, x, y) {
  return { x: Math.round(Math.min(Math.max(x, view.left + 2), view.right - 2)),
    y: Math.round(Math.min(Math.max(y, view.top + 2), view.bottom - 2)) };
}

const FINGER = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };
const swipeState = { chain: [], hit: null, events: [], mutations: 0, observer: null, stop: null };

function stopSwipeWatch() {
  if (swipeState.stop) swipeState.stop();
  swipeState.stop = null;
}

function swipePath(el, args) {
  // Where the finger goes for a swipe of args.pixels in args.direction: from el's center, or
  // so that the path is centered in the viewport; cut to what the viewport holds.
  const view = viewportOf(window);
  const [fx, fy] = FINGER[args.direction];
  let from;
  if (el) {
    const hidden = hiddenReason(el);
    if (hidden) return { error: "NOT_ACTIONABLE", reason: hidden, retry: true };
    scrollForAttempt(el, args.attempt || 0);
    const box = visibleBoxes(el)[0];
    if (!box) return { error: "NOT_ACTIONABLE", reason: "outside the viewport", retry: true };
    from = centerOf(box);
    const hit = hitAt(from.x, from.y);
    if (!reaches(hit, el)) {
      return { error: "NOT_ACTIONABLE", reason: `covered by ${describe(hit)}`, retry: true };
    }
  } else {
    const cx = (view.left + view.right) / 2, cy = (view.top + view.bottom) / 2;
    from = clampInto(view, cx - fx * args.pixels / 2, cy - fy * args.pixels / 2);
  }
  const to = clampInto(view, from.x + fx * args.pixels, from.y + fy * args.pixels);
  watchSwipe(from);
  touch(el);
  return { from, to };
}

function watchSwipe(from) {
  stopSwipeWatch();
  // The finger moving one way scrolls the other way.
  const hit = hitAt(from.x, from.y);
  swipeState.chain = scrollChain(from.x, from.y).map(s => [s, s.scrollLeft, s.scrollTop]);
  swipeState.hit = hit;
  swipeState.events = [];
  swipeState.mutations = 0;
  const onTouch = event => { if (event.isTrusted) swipeState.events.push(event); };
  const kinds = ["touchstart", "touchmove", "touchend"];
  for (const kind of kinds) window.addEventListener(kind, onTouch, { capture: true, passive: true });
  const observer = new MutationObserver(records => {
    for (const record of records) {
      const node = record.target;
      if (hit && (node.contains(hit) || hit.contains(node))) swipeState.mutations++;
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true,
    characterData: true });
  const timer = setTimeout(stopSwipeWatch, 10000);
  swipeState.stop = () => {
    clearTimeout(timer);
    observer.disconnect();
    for (const kind of kinds) window.removeEventListener(kind, onTouch, { capture: true });
  };
}

function touchActionOwner(hit, direction) {
  // The element whose touch-action keeps the browser from panning this way (the page's
  // scripts then take the finger), or null.
  const vertical = direction === "up" || direction === "down";
  for (let node = hit; node && node.nodeType === 1; node = composedParent(node)) {
    const action = getComputedStyle(node).touchAction;
    if (action === "none" || (vertical && /pan-x/.test(action) && !/pan-y/.test(action)) ||
      (!vertical && /pan-y/.test(action) && !/pan-x/.test(action))) return node;
  }
  return null;
}

async function swipeDone(_, args) {
  // What the swipe did, two frames after it (a scroll shows in the next frame): {moved: [...]}
  // what scrolled, {handled: "..."} the element whose scripts took it, {touches: n} how many
  // touch events the page got.
  await nextFrame(window);
  await nextFrame(window);
  const events = swipeState.events;
  const moved = swipeState.chain.filter(([s, left, top]) => s.scrollLeft !== left || s.scrollTop !== top)
    .map(([s, left, top]) => ({ element: describeScroller(s), dx: Math.round(s.scrollLeft - left),
      dy: Math.round(s.scrollTop - top) }));
  const cancelled = events.find(event => event.defaultPrevented && event.type !== "touchend");
  const owner = touchActionOwner(swipeState.hit, args.direction);
  const changed = swipeState.mutations > 0;
  let handled = null;
  if (changed && (cancelled || owner)) handled = describe(cancelled ? cancelled.target : owner);
  stopSwipeWatch();
  return { moved, handled, touches: events.length };
}

// -- drag ---------------------------------------------------------------------------------------

const dragState = { source: null, dest: null, from: null, to: null, seen: null, stop: null,
  frame: 0, stepFrame: -1 };

function stopDragWatch() {
  if (dragState.stop) dragState.stop();
  dragState.stop = null;
}

async function dragFrom(el, args) {
  // Aim at the drag's source (actionable, as for a click) and start watching the drag.
  const point = await aim(el, { attempt: args.attempt, intent: "drag" });
  if (point.error || point.quads) return point.quads
    ? { error: "NOT_ACTIONABLE", reason: "a drag in a transformed frame is not supported" } : point;
  watchDrag(el, point);
  return point;
}

function watchDrag(source, from) {
  stopDragWatch();
  Object.assign(dragState, { source, dest: null, from, to: null,
    seen: { down: false, dragstart: null, dragged: null, drop: null, dropEffect: null,
      mutations: 0, rearranged: 0, release: null } });
  const seen = dragState.seen;
  const onEvent = event => {
    if (!event.isTrusted) return;
    const hit = event.composedPath()[0];
    if (event.type === "pointerdown" || event.type === "mousedown") {
      seen.down = seen.down || reaches(hit, source);
    } else if (event.type === "dragstart") {
      seen.dragstart = event;
      seen.dragged = hit;
    } else if (event.type === "drop") {
      seen.drop = hit;
    } else if (event.type === "dragend") {
      seen.dropEffect = event.dataTransfer ? event.dataTransfer.dropEffect : null;
    }
  };
  const kinds = ["pointerdown", "mousedown", "dragstart", "drop", "dragend"];
  for (const kind of kinds) window.addEventListener(kind, onEvent, true);
  // Only what changed once the button was down (not a hover effect on the way there); what
  // the page rearranged (elements added, removed, moved) is counted apart.
  const observer = new MutationObserver(records => {
    if (!seen.down) return;
    seen.mutations += records.length;
    seen.rearranged += records.filter(record => record.type === "childList").length;
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true,
    characterData: true });
  // The frames the page draws during the drag (dragStep spaces the moves by them).
  let frameRequest = 0;
  const tick = () => {
    dragState.frame++;
    frameRequest = window.requestAnimationFrame(tick);
  };
  tick();
  dragState.stepFrame = dragState.frame;
  const timer = setTimeout(stopDragWatch, 30000);
  dragState.stop = () => {
    clearTimeout(timer);
    window.cancelAnimationFrame(frameRequest);
    observer.disconnect();
    for (const kind of kinds) window.removeEventListener(kind, onEvent, true);
  };
}

function dropPoint(el, args) {
  // Where to drop: el's center (el in view, the drag's source still where it was aimed at), or
  // args.dx/dy from the start, inside the viewport.
  const source = dragState.source, from = dragState.from;
  if (!source || !from) return { error: "NOT_ACTIONABLE", reason: "the drag was not started" };
  let to;
  if (el) {
    const hidden = hiddenReason(el);
    if (hidden) return { error: "NOT_ACTIONABLE", reason: `the destination is ${hidden}`, retry: true };
    if (!fullyInView(el)) el.scrollIntoView({ block: "nearest", inline: "nearest" });
    const box = visibleBoxes(el)[0];
    if (!box) return { error: "NOT_ACTIONABLE", reason: "the destination is outside the viewport",
      retry: true };
    to = centerOf(box);
    if (!reaches(hitAt(from.x, from.y), source)) {
      return { error: "NOT_ACTIONABLE", reason: "the source and the destination do not fit in the " +
        "viewport together (bringing one into view hides the other)" };
    }
    dragState.dest = el;
  } else {
    const view = viewportOf(window);
    to = { x: from.x + args.dx, y: from.y + args.dy };
    if (to.x < view.left || to.x >= view.right || to.y < view.top || to.y >= view.bottom) {
      return { error: "NOT_ACTIONABLE", reason: `the drop point (${to.x}, ${to.y}) is outside ` +
        "the viewport" };
    }
  }
  dragState.to = to;
  return to;
}

function dragStarted() {
  // Whether an HTML5 drag started (a trusted dragstart the page did not cancel).
  const start = dragState.seen && dragState.seen.dragstart;
  return !!(start && !start.defaultPrevented);
}

async function dragStep() {
  // One step of a drag's path, as a hand makes one per frame: unless a frame went by since the
  // last step (the browser may hold a move until the next frame), the next animation frame
  // (what the page does with a move often waits for it, and a sortable can ignore moves that
  // come too close together); then whether an HTML5 drag started and how many times the page
  // rearranged its elements since the press.
  if (dragState.frame === dragState.stepFrame) await nextFrame(window);
  dragState.stepFrame = dragState.frame;
  return { started: dragStarted(), rearranged: dragState.seen ? dragState.seen.rearranged : 0 };
}

function underPointer(point) {
  // The elements at a point, through open shadow roots (same document only).
  return document.elementsFromPoint(point.x, point.y);
}

function dragDone() {
  // Whether the drop landed: {landed: true, ...} or {landed: false, reason}.
  const { seen, source, dest, to } = dragState;
  stopDragWatch();
  if (!seen) return { landed: false, reason: "the drag was not watched" };
  const html5 = !!(seen.dragstart && !seen.dragstart.defaultPrevented);
  if (html5) {
    if (!seen.drop) {
      return { landed: false, html5, reason: `nothing accepted the drop at (${to.x}, ${to.y}): no ` +
        "element there let it in (its dragover did not call preventDefault)" };
    }
    // A sortable moves the dragged element into the destination's place as it passes over it:
    // the drop then lands on the dragged element, where the destination was.
    const tookItsPlace = seen.mutations > 0 && seen.dragged && seen.dragged.isConnected &&
      composedContains(seen.dragged, seen.drop);
    if (dest && !reaches(seen.drop, dest) && !dest.contains(seen.drop) && !tookItsPlace) {
      return { landed: false, html5, reason: `the drop landed on ${describe(seen.drop)}, not on ` +
        `${describe(dest)}` };
    }
    return { landed: true, html5, droppedOn: describe(seen.drop), dropEffect: seen.dropEffect };
  }
  if (!seen.down) {
    return { landed: false, html5, reason: "the press did not reach the element to drag" };
  }
  if (!seen.mutations) {
    return { landed: false, html5, reason: "the page did not react to the drag (nothing in it " +
      "changed between the press and the release)" };
  }
  if (dest) {
    const under = underPointer(to);
    const over = under.some(node => dest.contains(node) || (source.isConnected && source.contains(node)));
    if (!over && !dest.contains(source)) {
      return { landed: false, html5, reason: `at the release, ${describe(under[0] || document.body)}` +
        ` was under the pointer, not ${describe(dest)}` };
    }
  }
  return { landed: true, html5, changes: seen.mutations };
}

Object.assign(ops, { swipePath, swipeDone, dragFrom, dropPoint, dragStep, dragDone });
