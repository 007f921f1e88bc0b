"""Touch steps: tap and swipe, sent as a finger's touch events (Input.dispatchTouchEvent).

A tap is a click's sibling: the same actionability checks and interceptor (pointer.py,
js/agent/actionability.js), with a touchstart and a touchend at the element's center; it is ok
only when the touchend reached the element (the browser then makes its click of the tap, as for
a finger). Chromium delivers touch input to any page, so a tap works without touch emulation;
a page that sniffs a touch screen when it loads (navigator.maxTouchPoints, pointer: coarse)
needs ``emulate`` (touch or a device) and a load after it.

A swipe moves one finger in steps along a straight path, then holds still a moment before
lifting it, so the browser sees no fling: the page scrolls by the distance moved, as under a
careful finger. It is ok when something scrolled or the page's scripts took the gesture
(js/agent/gestures.js).
"""

from __future__ import annotations

import time
from typing import Any

from ...cdp import input as cdp_input
from ...page.targets import PAGE, describe
from ..request import Swipe, Tap
from .context import StepContext, StepError, required_target, target_of, until_ready
from .pointer import pointer_action

# Moves along a swipe's path, their spacing, and the hold before the finger lifts (long enough
# that the browser's velocity estimate falls to zero: no fling).
SWIPE_MOVES = 10
_MOVE_INTERVAL = 0.016
_HOLD = 0.1


def _touch(kind: str, points: list[tuple[float, float]], timestamp: float | None = None
           ) -> cdp_input.DispatchTouchEvent:
    return cdp_input.DispatchTouchEvent(
        type=kind, touchPoints=[cdp_input.TouchPoint(x=x, y=y, id=0) for x, y in points],
        timestamp=timestamp)


def tap_events(x: float, y: float) -> list[cdp_input.DispatchTouchEvent]:
    """A finger down and up at (x, y)."""
    return [_touch("touchStart", [(x, y)]), _touch("touchEnd", [])]


def swipe_events(start: tuple[float, float], end: tuple[float, float], moves: int = SWIPE_MOVES,
                 now: float | None = None) -> list[cdp_input.DispatchTouchEvent]:
    """A finger put down at ``start``, moved in ``moves`` even steps to ``end``, held there
    still, and lifted; timestamped as a finger's would be (seconds since the epoch)."""
    t = time.time() if now is None else now
    (x0, y0), (x1, y1) = start, end
    events = [_touch("touchStart", [start], t)]
    for n in range(1, moves + 1):
        t += _MOVE_INTERVAL
        events.append(_touch("touchMove", [(x0 + (x1 - x0) * n / moves,
                                            y0 + (y1 - y0) * n / moves)], t))
    t += _HOLD
    events.append(_touch("touchMove", [end], t))
    events.append(_touch("touchEnd", [], t + _MOVE_INTERVAL))
    return events


async def tap(ctx: StepContext, step: Tap) -> Any:
    """Tap an actionable element with a finger, verified to have reached it."""
    await pointer_action(ctx, required_target(step), "tap", tap_events)
    return None


async def swipe(ctx: StepContext, step: Swipe) -> Any:
    """Swipe a finger across the page or an element in a direction."""
    target = target_of(step)
    where = target if target is not None else PAGE
    path = await until_ready(ctx, where, "swipePath",
                             {"direction": step.direction, "pixels": step.pixels})
    start = (path["from"]["x"], path["from"]["y"])
    end = (path["to"]["x"], path["to"]["y"])
    # One at a time: the browser answers each once the renderer has it, as a finger's come.
    for event in swipe_events(start, end):
        await ctx.tab.send(event)
    done = await ctx.agent.call("swipeDone", PAGE, {"direction": step.direction})
    place = describe(target) if target is not None else "the viewport's center"
    if not done["touches"]:
        raise StepError("NOT_ACTIONABLE", f"no touch event of the swipe reached the page at "
                        f"{place}")
    if not done["moved"] and not done["handled"]:
        raise StepError("NOT_ACTIONABLE", f"a swipe {step.direction} at {place} moved nothing "
                        "and no script of the page took it")
    output: dict[str, Any] = {"from": path["from"], "to": path["to"]}
    if done["moved"]:
        output["moved"] = done["moved"]
    if done["handled"]:
        output["handledBy"] = done["handled"]
    return output

