"""The drag step: press on an element, move the mouse in steps, release on another element (or
at an offset), for both kinds of drag a page can have.

The mouse goes down on the source (aimed and checked as for a click) with Chrome's drag
interception on (``Input.setInterceptDrags``). Each move goes out with a question to the agent
in the same round trip: did an HTML5 drag start (a trusted dragstart the page let go)? If so,
Chrome hands over the drag's data (``Input.dragIntercepted``, the page's dataTransfer), and the
rest of the way is drag events (``Input.dispatchDragEvent``: dragEnter, dragOver..., drop) that
carry it, as Playwright does. If not, it is a mouse-driven drag (a sortable list on pointer
events): the moves go on and the mouse is released at the end.

Whether the drop landed is the page's to show (js/agent/gestures.js): an HTML5 drop landed when
the page accepted it where it was dropped (a trusted drop event on the destination); a
mouse-driven one when the page changed while the mouse was down and the destination (or the
dragged element, which took its place) is under the pointer at the release.
"""

from __future__ import annotations

from typing import Any

import trio

from ...cdp import input as cdp_input
from ...page.agent import AgentError
from ..request import Drag
from ..validate import parse_target
from .context import StepContext, StepError, required_target, retrying, step_error, until_ready

DRAG_MOVES = 10
"""Mouse moves from the press to the drop point (libraries want several before they react)."""
# A pressed mouse button's pressure, as for a click (pointer.py).
PRESSED_FORCE = 0.5
# How long Chrome may take to hand over the data of a drag that started.
_INTERCEPT_WAIT = 1.0


def drag_path(start: tuple[float, float], end: tuple[float, float], moves: int = DRAG_MOVES
              ) -> list[tuple[float, float]]:
    """``moves`` evenly spaced points from just after ``start`` to ``end`` (end included)."""
    (x0, y0), (x1, y1) = start, end
    return [(round(x0 + (x1 - x0) * n / moves, 2), round(y0 + (y1 - y0) * n / moves, 2))
            for n in range(1, moves + 1)]


def _destination(step: Drag) -> dict[str, Any] | None:
    if step.to_selector is not None:
        return {"selector": step.to_selector}
    if step.to_target is None:
        return None
    parsed = parse_target(step.to_target)
    return {"ref": parsed.number} if parsed.kind == "ref" else {"node": parsed.number}


def _move(x: float, y: float, kind: str = "mouseMoved") -> cdp_input.DispatchMouseEvent:
    pressed = kind == "mousePressed"
    return cdp_input.DispatchMouseEvent(
        type=kind, x=x, y=y, button="left", buttons=0 if kind == "mouseReleased" else 1,
        clickCount=1 if kind != "mouseMoved" else 0, force=PRESSED_FORCE if pressed else None)


async def drag(ctx: StepContext, step: Drag) -> Any:
    source = required_target(step)
    start = await retrying(ctx, source, lambda n: ctx.agent.call("dragFrom", source,
                                                                 {"attempt": n}))
    dest = _destination(step)
    try:
        if dest is not None:
            end = await until_ready(ctx, dest, "dropPoint")
        else:
            end = await ctx.agent.call("dropPoint", {"page": True},
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
                if await ctx.agent.call("dragStarted", {"page": True}, after=_move(x, y)):
                    with trio.move_on_after(min(_INTERCEPT_WAIT, max(ctx.remaining(), 0.1))):
                        data = (await intercepted.receive()).data
                        html5 = True
                    if not html5:
                        raise StepError("NOT_ACTIONABLE", "an HTML5 drag started but Chrome "
                                        "did not hand over its data", retryable=True)
                    await ctx.tab.send_all(*_drag_events(data, (x, y), path[index + 1:]))
                    break
        finally:
            with trio.CancelScope(shield=True), trio.move_on_after(2):
                await ctx.tab.send_all(_move(x1, y1, "mouseReleased"),
                                       cdp_input.SetInterceptDrags(enabled=False))
    done = await ctx.agent.call("dragDone", {"page": True})
    if not done["landed"]:
        raise StepError("NOT_ACTIONABLE", f"the drop did not land: {done['reason']}")
    output: dict[str, Any] = {"kind": "html5" if html5 else "mouse", "from": start,
                              "to": {"x": x1, "y": y1}}
    if "droppedOn" in done:
        output["droppedOn"] = done["droppedOn"]
    return output


def _drag_events(data: cdp_input.DragData, at: tuple[float, float],
                 rest: list[tuple[float, float]]) -> list[cdp_input.DispatchDragEvent]:
    """The rest of an HTML5 drag, from ``at``: it enters, moves over the rest of the path, drops
    at its end."""
    points = [at, *rest]
    events = [cdp_input.DispatchDragEvent(type="dragEnter", x=at[0], y=at[1], data=data)]
    events += [cdp_input.DispatchDragEvent(type="dragOver", x=x, y=y, data=data)
               for x, y in points]
    x, y = points[-1]
    events.append(cdp_input.DispatchDragEvent(type="drop", x=x, y=y, data=data))
    return events
