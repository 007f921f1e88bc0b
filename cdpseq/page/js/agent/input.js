// The operations act's steps call on an element, through call(op, target, args): aiming pointer
// actions (actionability.js), focus, fill (fill.js), checked state, select, and scrolling.
// An operation answers what it did, or {error, reason, retry} with retry set when waiting may
// help (the caller retries until the step's timeout).

const CHECKABLE_ROLES = new Set(["checkbox", "menuitemcheckbox", "option", "radio", "switch",
  "menuitemradio", "treeitem"]);

function touch(el) {
  // An element a step acts on: focus that goes to it (or inside it) is not worth reporting.
  if (model.touched) model.touched.add(el);
}

function pointsAt(holder, el) {
  // Whether holder, a composite widget (listbox, grid, tree, menu, combobox) that keeps DOM
  // focus on itself, points at el as its active item (aria-activedescendant): focus on it is
  // focus on el, and the keys it gets are el's.
  if (!holder || holder.nodeType !== 1 || !holder.hasAttribute("aria-activedescendant")) return false;
  if (holder.ariaActiveDescendantElement === el) return true;
  return !!el.id && holder.getAttribute("aria-activedescendant") === el.id;
}

function focusHolderOf(el) {
  // The composite that keeps focus for el: the one whose aria-activedescendant names it, else
  // the nearest ancestor with an aria-activedescendant (pointing at another item); or null.
  if (el.id) {
    const by = el.getRootNode().querySelector(`[aria-activedescendant="${CSS.escape(el.id)}"]`);
    if (by) return by;
  }
  for (let node = el.parentElement; node; node = node.parentElement) {
    if (node.hasAttribute("aria-activedescendant")) return node;
  }
  return null;
}

function hasFocus(el) {
  const active = el.getRootNode().activeElement;
  return active === el || (active && el.contains(active)) ||
    (el.shadowRoot && el.shadowRoot.activeElement) || pointsAt(active, el);
}

function focusOn(el) {
  // Give el the focus, or find it on the composite that points at el (the item becomes its
  // active descendant as the composite takes focus: a grid that hands a focused cell's focus
  // to itself, a listbox whose options take none).
  el = retarget(el, "follow-label");
  touch(el);
  if (hasFocus(el)) return { ok: true };
  el.focus();
  if (hasFocus(el)) return { ok: true };
  const holder = focusHolderOf(el);
  if (holder && holder !== el.getRootNode().activeElement) {
    touch(holder);
    holder.focus();
    if (hasFocus(el)) return { ok: true };
  }
  const active = el.getRootNode().activeElement;
  if (holder && active === holder) {
    const at = active.getAttribute("aria-activedescendant");
    return { error: "NOT_ACTIONABLE", retry: true, reason: `${describe(active)} keeps the focus for ` +
      `it and points at ${at ? `#${at}` : "nothing"} (aria-activedescendant), not at ` +
      `${describe(el)}: click it or move there with keys first` };
  }
  const reason = active && active !== el.ownerDocument.body ? `focus went to ${describe(active)}`
    : `${describe(el)} does not take focus (hidden, disabled or not focusable)`;
  return { error: "NOT_ACTIONABLE", reason, retry: true };
}

function checkedState(el) {
  // {checked, radio} of a checkbox, radio or switch (a <label> stands for its control):
  // checked is true, false, or "mixed" for a tri-state checkbox showing neither (a native
  // indeterminate one, or aria-checked="mixed"); an ARIA checkable without aria-checked is
  // unchecked.
  el = retarget(el, "follow-label");
  if (el.tagName === "INPUT" && (el.type === "checkbox" || el.type === "radio")) {
    const mixed = el.type === "checkbox" && el.indeterminate;
    return { checked: mixed ? "mixed" : el.checked, radio: el.type === "radio" };
  }
  const role = roleOf(el);
  if (CHECKABLE_ROLES.has(role)) {
    const value = (el.getAttribute("aria-checked") || "").trim().toLowerCase();
    const mixed = value === "mixed" && (role === "checkbox" || role === "menuitemcheckbox");
    return { checked: mixed ? "mixed" : value === "true", radio: role.endsWith("radio") };
  }
  return { error: "NOT_EDITABLE", reason: `${describe(el)} is not a checkbox, radio or switch` };
}

async function checkedAfter(el, args) {
  // The checked state once it is no longer args.was, or as it is after args.waitMs: a page may
  // show a click's new state a little later (a switch that waits for its server to agree).
  const deadline = performance.now() + args.waitMs;
  let state = checkedState(el);
  while (!state.error && state.checked === args.was && performance.now() < deadline) {
    await new Promise(resolve => setTimeout(resolve, 20));
    state = checkedState(el);
  }
  return state;
}

function optionLabel(option) {
  return clean(option.label || option.text, 1000);
}

function selectOptions(el, args) {
  // Make exactly the options asked for selected, waiting for them to exist and be enabled.
  el = retarget(el, "follow-label");
  if (el.tagName !== "SELECT") {
    return { error: "NOT_EDITABLE", reason: `${describe(el)} is not a <select>` };
  }
  const hidden = hiddenReason(el);
  if (hidden) return { error: "NOT_ACTIONABLE", reason: hidden, retry: true };
  const disabled = disabledReason(el);
  if (disabled) return { error: "NOT_ACTIONABLE", reason: disabled, retry: true };
  const byValue = args.by === "value";
  if (!el.multiple && args.wanted.length > 1) {
    return { error: "INVALID_VALUE", reason: `${describe(el)} is not a <select multiple>: it takes ` +
      `one option, not ${args.wanted.length}` };
  }
  const options = Array.from(el.options);
  const matches = [];
  for (const want of args.wanted) {
    const match = options.find(o => byValue ? o.value === want : optionLabel(o) === clean(want, 1000));
    if (!match) {
      const have = options.slice(0, 20).map(o => byValue ? o.value : clean(optionLabel(o), 40));
      return { error: "OPTION_NOT_FOUND", retry: true, reason: `no option with ` +
        `${byValue ? "value" : "label"} ${JSON.stringify(want)}; options: ${JSON.stringify(have)}` };
    }
    if (match.matches(":disabled")) {
      return { error: "NOT_ACTIONABLE", retry: true,
        reason: `the option ${JSON.stringify(optionLabel(match))} is disabled` };
    }
    matches.push(match);
  }
  touch(el);
  el.focus();
  for (const option of options) option.selected = matches.includes(option);
  if (!matches.length) el.selectedIndex = -1;
  el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  el.dispatchEvent(new Event("change", { bubbles: true }));
  const selected = Array.from(el.selectedOptions);
  if (selected.length !== matches.length || matches.some(o => !o.selected)) {
    return { error: "INVALID_VALUE", reason: `the page changed the selection to ` +
      `${JSON.stringify(selected.map(o => clean(optionLabel(o), 40)))}` };
  }
  return { values: selected.map(o => o.value), labels: selected.map(o => clean(optionLabel(o), 80)) };
}

function boxInView(el) {
  // Whether el's first layout box is on screen, even an empty one (a zero-size sentinel).
  const box = boxesOf(el)[0];
  return !!box && !!onScreen(el, { left: box.left - 0.5, top: box.top - 0.5,
    right: box.right + 0.5, bottom: box.bottom + 0.5 });
}

function scrollIntoViewOp(el, args) {
  // Scroll el into view. What shows nothing but has a layout box (visibility:hidden, zero size:
  // an anchor, an infinite list's sentinel) is scrolled to as well, and said so (invisible);
  // args.visible (a screenshot) waits for it to show.
  const hidden = hiddenReason(el);
  if (hidden && (args.visible || !boxesOf(el).length)) {
    return { error: "NOT_ACTIONABLE", reason: hidden, retry: true };
  }
  const before = hidden ? boxInView(el) : fullyInView(el);
  scrollForAttempt(el, 0);
  if (hidden ? !boxInView(el) : !visibleBoxes(el).length) {
    return { error: "NOT_ACTIONABLE", reason: "could not be scrolled into view", retry: true };
  }
  if (!hidden) return { scrolled: !before };
  return { scrolled: !before, invisible: hidden.replace(/^hidden \((.*)\)$/, "$1") };
}

// -- the wheel ---------------------------------------------------------------------------------

const wheel = { chain: [], scrollable: false, event: null, target: null, takenBy: null,
  stop: null };

function scrollChain(x, y) {
  // What a wheel at (x, y) can scroll: the scrollable elements from the hit up, then each
  // document's scrolling element up to the top.
  const chain = [];
  const seen = new Set();
  const add = el => { if (el && !seen.has(el)) { seen.add(el); chain.push(el); } };
  for (let node = hitAt(x, y); node; ) {
    if (node.nodeType === 1) {
      const style = getComputedStyle(node);
      if (/(auto|scroll|overlay)/.test(style.overflowY + style.overflowX)) add(node);
    }
    const next = composedParent(node);
    if (next) { node = next; continue; }
    const doc = node.ownerDocument || node;
    add(doc.scrollingElement);
    const frame = doc.defaultView && doc.defaultView.frameElement;
    node = frame || null;
  }
  return chain;
}

function canScroll(el, dx, dy) {
  const maxX = el.scrollWidth - el.clientWidth, maxY = el.scrollHeight - el.clientHeight;
  return (dy > 0 && el.scrollTop < maxY - 1) || (dy < 0 && el.scrollTop > 0) ||
    (dx > 0 && el.scrollLeft < maxX - 1) || (dx < 0 && el.scrollLeft > 0);
}

function describeScroller(el) {
  return el === el.ownerDocument.scrollingElement
    ? (el.ownerDocument === document ? "the page" : "a frame's page") : describe(el);
}

function wheelAt(el, args) {
  // Where to send a wheel for (dx, dy): el's center, or the viewport's, with scrollable: whether
  // anything there can scroll that way. Notes the scroll positions and watches the wheel, for
  // wheelMoved(): a map or a custom scroller takes the wheel for itself (it cancels it).
  let point;
  if (el) {
    const hidden = hiddenReason(el);
    if (hidden) return { error: "NOT_ACTIONABLE", reason: hidden, retry: true };
    const box = visibleBoxes(el)[0];
    if (!box) return { error: "NOT_ACTIONABLE", reason: "outside the viewport", retry: true };
    point = centerOf(box);
  } else {
    const view = viewportOf(window);
    point = { x: Math.round((view.left + view.right) / 2), y: Math.round((view.top + view.bottom) / 2) };
  }
  const chain = scrollChain(point.x, point.y);
  wheel.chain = chain.map(s => [s, s.scrollLeft, s.scrollTop]);
  wheel.scrollable = chain.some(s => canScroll(s, args.dx, args.dy));
  const hit = hitAt(point.x, point.y);
  watchWheel(hit ? hit.ownerDocument.defaultView : window);
  return { ...point, scrollable: wheel.scrollable };
}

function stopWheelWatch() {
  if (wheel.stop) wheel.stop();
  wheel.stop = null;
}

function watchWheel(win) {
  // Watch the next trusted wheel in win: which element cancelled it, if one did. A listener of ours on
  // each element of its path, added as it starts, runs after the page's own there: the first
  // that finds it cancelled names the element whose script took it.
  stopWheelWatch();
  Object.assign(wheel, { event: null, target: null, takenBy: null });
  const added = [];
  const passive = { passive: true };
  const onWheel = event => {
    if (!event.isTrusted || wheel.event) return;
    wheel.event = event;
    wheel.target = event.composedPath()[0];
    for (const node of event.composedPath()) {
      if (node.nodeType !== 1) continue;
      const check = () => { if (event.defaultPrevented && !wheel.takenBy) wheel.takenBy = node; };
      node.addEventListener("wheel", check, passive);
      added.push([node, check]);
    }
  };
  win.addEventListener("wheel", onWheel, { capture: true, passive: true });
  const timer = setTimeout(stopWheelWatch, 10000);
  wheel.stop = () => {
    clearTimeout(timer);
    win.removeEventListener("wheel", onWheel, { capture: true });
    for (const [node, check] of added) node.removeEventListener("wheel", check, passive);
  };
}

function wheelMoved() {
  // What the wheel did since wheelAt(): moved, [{element, dx, dy}] of what scrolled; seen,
  // whether the page got it; takenBy, the element whose script cancelled it (or null).
  const moved = wheel.chain.filter(([s, left, top]) => s.scrollLeft !== left || s.scrollTop !== top)
    .map(([s, left, top]) => ({ element: describeScroller(s), dx: Math.round(s.scrollLeft - left),
      dy: Math.round(s.scrollTop - top) }));
  const event = wheel.event;
  const cancelled = !!(event && event.defaultPrevented);
  return { moved, seen: !!event,
    takenBy: cancelled ? describe(wheel.takenBy || wheel.target) : null };
}

// -- the operations ----------------------------------------------------------------------------

const ops = {
  aim, aimAt, focus: focusOn, fill: fillField, finishFill, clearSelection, checkedState,
  checkedAfter,
  select: selectOptions, scrollIntoView: scrollIntoViewOp, wheelAt,
};

function call(op, target, args) {
  if (target.page) return ops[op](null, args);
  const found = resolve(target);
  if (!found || found.error) return found;
  return ops[op](found.el, args || {});
}
