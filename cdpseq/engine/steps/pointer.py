"""Pointer steps: click, hover and scroll, with input sent the way a user's arrives.

A click or hover is verified: the agent aims (the element is actionable, see
js/agent/actionability.js) and arms an interceptor; the mouse events go out with a request for
its verdict in the same round trip. Events that would have landed on another element were
stopped before the page saw them, so the step tries again (with the next scroll alignment);
a click that reached nothing fails. A click's move to where the page last saw the mouse
pointer (any client's input) is stopped before the page sees it, as a person clicking again in
place makes none (the interceptor decides as the events arrive: input another client sent just
before, a wheel that may place the mouse elsewhere, is taken in first). A scroll
is real mouse-wheel input, and reports what moved, or which element's script took the wheel (it
cancelled it: a map that zooms, a custom scroller); a scroll into view brings the element's
layout box into view, even one that shows nothing (visibility:hidden, zero size).
"""

from __future__ import annotations

from typing import Any

import trio

from ...cdp import input as cdp_input
from ...page.agent import AgentError
from ...page.answers import WheelOutcome
from ...page.targets import PAGE, Node, Target, describe
from ..keys import MODIFIER_BITS
from ..request import Click, Hover, Scroll, Step
from .context import (
    StepContext,
    StepError,
    required_target,
    retrying,
    target_of,
    until_ready,
)

_BUTTON_BITS = {"left": 1, "right": 2, "middle": 4}
# The pressure of a pressed mouse button: 0.5, as PointerEvent reports for a mouse (a pressure
# of 0 with a button down is how some libraries tell a screen reader's virtual click).
_PRESSED = 0.5
# How long a wheel's effect may take to show, and to settle.
_WHEEL_WAIT = 1.0
_WHEEL_POLL = 0.02


def _mouse(kind: str, x: float, y: float, *, button: str = "none", click_count: int = 0,
           modifiers: int = 0, buttons: int = 0, force: float | None = None
           ) -> cdp_input.DispatchMouseEvent:
    return cdp_input.DispatchMouseEvent(
        type=kind, x=x, y=y, button=button, clickCount=click_count, modifiers=modifiers,
        buttons=buttons, force=force)


def click_events(x: float, y: float, button: str = "left", count: int = 1,
                 modifiers: int = 0) -> list[cdp_input.DispatchMouseEvent]:
    """A move to (x, y), then a press and a release per click."""
    events = [_mouse("mouseMoved", x, y, modifiers=modifiers)]
    bits = _BUTTON_BITS[button]
    for n in range(1, count + 1):
        events.append(_mouse("mousePressed", x, y, button=button, click_count=n,
                             modifiers=modifiers, buttons=bits, force=_PRESSED))
        events.append(_mouse("mouseReleased", x, y, button=button, click_count=n,
                             modifiers=modifiers))
    return events


def _aim_args(attempt: int, intent: str, releases: int) -> dict[str, Any]:
    return {"attempt": attempt, "intent": intent, "releases": releases}


def first_aim(step: Step) -> tuple[Target, dict[str, Any]] | None:
    """The aim a click or hover starts with (its target and arguments), which the act's setup
    may send ahead for step 0 (``PageAgent.ahead_command``); None for other steps, a step with an
    ``if`` (its aim may never come) and a node_N (aimed through the browser's node)."""
    if not isinstance(step, Click | Hover) or step.when is not None:
        return None
    target = required_target(step)
    if isinstance(target, Node):
        return None
    if isinstance(step, Click):
        return target, _aim_args(0, "click", step.click_count)
    return target, _aim_args(0, "hover", 1)


async def _aim(ctx: StepContext, target: Target, args: dict[str, Any]
               ) -> dict[str, Any]:
    point: dict[str, Any] = await ctx.agent.call("aim", target, args)
    if point.get("quads"):  # in a transformed frame: the browser's geometry, no pre-check
        quads = await ctx.agent.content_quads(target)
        point = await ctx.agent.call("aimAt", target, {**args, "quads": quads})
    return point


async def pointer_action(ctx: StepContext, target: Target, intent: str,
                         events: Any, releases: int = 1) -> dict[str, Any]:
    """Aim at the target, send ``events(x, y)`` (which release a mouse button ``releases``
    times), and make sure they reached it; retried until the step's deadline while the element
    is not actionable or the events were stopped."""

    async def attempt(n: int) -> dict[str, Any]:
        point = await _aim(ctx, target, _aim_args(n, intent, releases))
        verdict = await ctx.agent.after_input(events(point["x"], point["y"]))
        if verdict is None:  # the input took the page to another document: it landed
            return {"x": point["x"], "y": point["y"], "navigated": True}
        if "reached" in verdict or (intent == "hover" and "none" in verdict):
            return {"x": point["x"], "y": point["y"], "at": verdict.get("at")}
        if "unseen" in verdict:  # nothing reached the page: safe to aim and send again
            raise AgentError("NOT_ACTIONABLE", f"no event of the {intent} reached the page "
                             "within 2 s (stopped if it still comes)", retryable=True)
        if "unfinished" in verdict:
            raise AgentError("NOT_ACTIONABLE", f"the page did not take the whole {intent} within "
                             "2 s (too busy?); the rest of it was stopped")
        if "intercepted" in verdict:
            raise AgentError("NOT_ACTIONABLE", f"the {intent} would have landed on "
                             f"{verdict['intercepted']} (stopped before the page saw it)",
                             retryable=True)
        raise AgentError("NOT_ACTIONABLE", f"no {intent} event reached the element at "
                         f"({point['x']}, {point['y']})")

    return await retrying(ctx, target, attempt)


async def click(ctx: StepContext, step: Click) -> Any:
    """Click an actionable element where it is, verified to have landed on it."""
    modifiers = sum(MODIFIER_BITS[m] for m in step.modifiers)
    done = await pointer_action(ctx, required_target(step), "click", lambda x, y: click_events(
        x, y, step.button, step.click_count, modifiers), releases=step.click_count)
    _ended(ctx, done)
    return None


async def hover(ctx: StepContext, step: Hover) -> Any:
    """Move the mouse over an actionable element, verified to have reached it."""
    done = await pointer_action(ctx, required_target(step), "hover",
                                lambda x, y: [_mouse("mouseMoved", x, y)])
    _ended(ctx, done)
    return None


def _ended(ctx: StepContext, done: dict[str, Any]) -> None:
    """The step's last action was this pointer input: when it ended in the page (its clock),
    for the settle after it (``PageAgent.input_at``)."""
    at = done.get("at")
    ctx.agent.input_at = at if isinstance(at, int | float) else None


_DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


async def scroll(ctx: StepContext, step: Scroll) -> Any:
    """Scroll an element into view, or the page or an element in a direction."""
    target = target_of(step)
    direction = step.direction or (None if target is not None else "down")
    if direction is None:
        assert target is not None
        done = await until_ready(ctx, target, "scrollIntoView")
        return {"scrolled": done["scrolled"], **({"invisible": done["invisible"]}
                                                 if "invisible" in done else {})}
    sx, sy = _DIRECTIONS[direction]
    dx, dy = sx * step.pixels, sy * step.pixels
    where = target if target is not None else PAGE
    point = await until_ready(ctx, where, "wheelAt", {"dx": dx, "dy": dy, "direction": direction})
    await ctx.tab.send(cdp_input.DispatchMouseEvent(
        type="mouseWheel", x=point["x"], y=point["y"], deltaX=dx, deltaY=dy))
    done = await _wheel_settled(ctx, point["scrollable"])
    place = describe(target) if target is not None else "the viewport's center"
    if done.taken_by:
        return {"moved": done.moved, "handledBy": done.taken_by}
    if done.moved:
        return {"moved": done.moved}
    if not point["scrollable"]:
        raise StepError("NOT_ACTIONABLE", f"nothing at {place} ({point['x']}, {point['y']}) can "
                        f"scroll {direction} any further, and no script of the page took the "
                        "wheel")
    raise StepError("NOT_ACTIONABLE", f"a wheel {direction} at {place} moved nothing "
                    "and no script of the page took it")


async def _wheel_settled(ctx: StepContext, scrollable: bool) -> WheelOutcome:
    """What the wheel did (``wheelMoved()`` in js/agent/input.js): as soon as the page took it
    (cancelled it), or got it with nothing that could scroll; else once what it scrolled
    stopped moving, or after ``_WHEEL_WAIT``."""
    last = WheelOutcome()
    with trio.move_on_after(min(_WHEEL_WAIT, max(ctx.remaining(), 0))):
        while True:
            done = await ctx.agent.wheel_moved()
            if done.taken_by or (done.seen and not scrollable):
                return done
            if done.moved and done.moved == last.moved:
                break
            last = done
            await trio.sleep(_WHEEL_POLL)
    return last
