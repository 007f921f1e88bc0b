"""The drag step: press on an element, move the mouse in steps, release on another element (or
at an offset), for both kinds of drag a page can have.

The mouse goes down on the source (aimed and checked as for a click) with Chrome's drag
interception on (``Input.setInterceptDrags``). Each move goes out with a question to the agent
in the same round trip: did an HTML5 drag start (a trusted dragstart the page let go)? If so,
Chrome hands over the drag's data (``Input.dragIntercepted``, the page's dataTransfer), and the
rest of the way is drag events (``Input.dispatchDragEvent``: dragEnter, dragOver..., drop) that
carry it, as Playwright does. If not, it is a mouse-driven drag (a sortable list on pointer
events): the moves go on and the mouse is released at the end.

The path is paced as a hand drags: one move (or dragover) per animation frame of the page, then
a rest over the drop point for a few frames, and on while the page still rearranges itself,
before the release. Pages need it: SortableJS takes no dragover for 30 ms after it moved an
item, so dragovers sent back to back left a card in the column it passed over; libraries that
handle a move in their next frame need the frame before the release. A drag takes about as
long as the frames it spans (a quarter of a second at 60 frames a second).

Whether the drop landed is the page's to show (js/agent/gestures.js): an HTML5 drop landed when
the page accepted it where it was dropped (a trusted drop event on the destination, or on the
dragged element that a sortable moved into its place); a mouse-driven one when the page changed
while the mouse was down and the destination (or the dragged element, which took its place) is
under the pointer at the release.
"""

from __future__ import annotations

from typing import Any

import trio

from ...cdp import input as cdp_input
from ...page.agent import AgentError
from ...page.targets import PAGE, Target
from ..request import Drag
from .context import (
    StepContext,
    StepError,
    required_target,
    retrying,
    step_error,
    target_named,
    until_ready,
)

DRAG_MOVES = 10
"""Mouse moves from the press to the drop point (libraries want several before they react)."""
# A pressed mouse button's pressure, as for a click (pointer.py).
PRESSED_FORCE = 0.5
# How long Chrome may take to hand over the data of a drag that started.
_INTERCEPT_WAIT = 1.0
# Before the drop, the hand rests over the destination for at least this many frames, and for
# as long as the page still rearranges itself (at most _DWELL_MAX seconds): a sortable that
# ignored the last moves (SortableJS takes no dragover for 30 ms after it moved an item) or
# handles a move in its next frame has it done by the release.
_DWELL_FRAMES = 3
_DWELL_MAX = 0.3


def drag_path(start: tuple[float, float], end: tuple[float, float], moves: int = DRAG_MOVES
              ) -> list[tuple[float, float]]:
    """``moves`` evenly spaced points from just after ``start`` to ``end`` (end included)."""
    (x0, y0), (x1, y1) = start, end
    return [(round(x0 + (x1 - x0) * n / moves, 2), round(y0 + (y1 - y0) * n / moves, 2))
            for n in range(1, moves + 1)]


def _destination(step: Drag) -> Target | None:
    return target_named(step.to_target, step.to_selector)


def _move(x: float, y: float, kind: str = "mouseMoved") -> cdp_input.DispatchMouseEvent:
    pressed = kind == "mousePressed"
    return cdp_input.DispatchMouseEvent(
        type=kind, x=x, y=y, button="left", buttons=0 if kind == "mouseReleased" else 1,
        clickCount=1 if kind != "mouseMoved" else 0, force=PRESSED_FORCE if pressed else None)


async def drag(ctx: StepContext, step: Drag) -> Any:
    """Drag the source onto the destination element or offset, and report the drop."""
    source = required_target(step)
    start = await retrying(ctx, source, lambda n: ctx.agent.call("dragFrom", source,
                                                                 {"attempt": n}))
    dest = _destination(step)
    try:
        if dest is not None:
            end = await until_ready(ctx, dest, "dropPoint")
        else:
            end = await ctx.agent.call("dropPoint", PAGE,
                                       {"dx": step.dx or 0, "dy": step.dy or 0})
    except AgentError as exc:
        raise step_error(exc, dest or source) from None
    x0, y0, x1, y1 = start["x"], start["y"], end["x"], end["y"]
    html5 = False
    async with ctx.tab.subscribe(cdp_input.DragIntercepted, buffer=4) as intercepted:
        await ctx.tab.send_all(cdp_input.SetInterceptDrags(enabled=True),
                               cdp_input.DispatchMouseEvent(type="mouseMoved", x=x0, y=y0),
                               _move(x0, y0, "mousePressed"))
        try:
            path = drag_path((x0, y0), (x1, y1))
            for index, (x, y) in enumerate(path):
                state = await _step(ctx, _move(x, y))
                if state["started"]:
                    with trio.move_on_after(min(_INTERCEPT_WAIT, max(ctx.remaining(), 0.1))):
                        data = (await intercepted.receive()).data
                        html5 = True
                    if not html5:
                        raise StepError("NOT_ACTIONABLE", "an HTML5 drag started but Chrome "
                                        "did not hand over its data", retryable=True)
                    await _html5_rest(ctx, data, (x, y), path[index + 1:])
                    break
            else:
                await _dwell(ctx, None, state["rearranged"])
        finally:
            with trio.CancelScope(shield=True), trio.move_on_after(2):
                await ctx.tab.send_all(_move(x1, y1, "mouseReleased"),
                                       cdp_input.SetInterceptDrags(enabled=False))
    done = await ctx.agent.call("dragDone", PAGE)
    if not done["landed"]:
        raise StepError("NOT_ACTIONABLE", f"the drop did not land: {done['reason']}")
    output: dict[str, Any] = {"kind": "html5" if html5 else "mouse", "from": start,
                              "to": {"x": x1, "y": y1}}
    if "droppedOn" in done:
        output["droppedOn"] = done["droppedOn"]
    return output


async def _step(ctx: StepContext, event: Any) -> dict[str, Any]:
    """Send one event of the drag's path and wait for the page's next frame (``dragStep`` in
    js/agent/gestures.js), in one round trip: whether an HTML5 drag started, and how many times
    the page rearranged its elements since the press."""
    state: dict[str, Any] = await ctx.agent.call("dragStep", PAGE, after=event)
    return state


async def _html5_rest(ctx: StepContext, data: cdp_input.DragData, at: tuple[float, float],
                      rest: list[tuple[float, float]]) -> None:
    """The rest of an HTML5 drag, from ``at``: it enters, moves over the rest of the path a
    frame at a time, rests over its end (the browser repeats the dragover there, as it does
    while a person's hand is still), and drops there."""
    await ctx.tab.send(cdp_input.DispatchDragEvent(type="dragEnter", x=at[0], y=at[1], data=data))
    rearranged = 0
    for x, y in [at, *rest]:
        rearranged = (await _step(ctx, _drag_event("dragOver", (x, y), data)))["rearranged"]
    end = rest[-1] if rest else at
    await _dwell(ctx, _drag_event("dragOver", end, data), rearranged)
    await ctx.tab.send(_drag_event("drop", end, data))


async def _dwell(ctx: StepContext, event: Any, rearranged: int) -> None:
    """Rest over the drop point for ``_DWELL_FRAMES`` frames, and on while the page still
    rearranges its elements (``rearranged`` times so far), for at most ``_DWELL_MAX`` seconds;
    ``event`` (an HTML5 dragover) is sent in each frame, a still mouse sends nothing."""
    deadline = trio.current_time() + min(_DWELL_MAX, max(ctx.remaining() - 0.1, 0))
    frames = 0
    while trio.current_time() < deadline:
        state = await (ctx.agent.call("dragStep", PAGE) if event is None
                       else _step(ctx, event))
        frames += 1
        if frames >= _DWELL_FRAMES and state["rearranged"] == rearranged:
            return
        rearranged = state["rearranged"]


def _drag_event(kind: str, at: tuple[float, float], data: cdp_input.DragData
                ) -> cdp_input.DispatchDragEvent:
    return cdp_input.DispatchDragEvent(type=kind, x=at[0], y=at[1], data=data)
