"""Pointer steps: click, hover and scroll, with mouse events sent the way a user's arrive."""

from __future__ import annotations

import json
from typing import Any

from ...browser import Tab
from ...cdp import input as cdp_input
from ..keys import MODIFIER_BITS
from ..request import Click, Hover, Scroll
from .context import StepContext, required_target, target_of, until_ready

_BUTTON_BITS = {"left": 1, "right": 2, "middle": 4}


def _mouse(kind: str, x: float, y: float, *, button: str = "none", click_count: int = 0,
           modifiers: int = 0, buttons: int = 0) -> cdp_input.DispatchMouseEvent:
    return cdp_input.DispatchMouseEvent(
        type=kind, x=x, y=y, button=button, clickCount=click_count, modifiers=modifiers,
        buttons=buttons)


async def click_at(tab: Tab, x: float, y: float, button: str = "left", count: int = 1,
                    modifiers: int = 0) -> None:
    # One round trip: waiting for each answer would cost a rendering frame per move.
    events = [_mouse("mouseMoved", x, y, modifiers=modifiers)]
    bits = _BUTTON_BITS[button]
    for n in range(1, count + 1):
        events.append(_mouse("mousePressed", x, y, button=button, click_count=n,
                             modifiers=modifiers, buttons=bits))
        events.append(_mouse("mouseReleased", x, y, button=button, click_count=n,
                             modifiers=modifiers))
    await tab.send_all(*events)


async def click(ctx: StepContext, step: Click) -> Any:
    target = required_target(step)
    point = await until_ready(ctx, target, "point")
    modifiers = sum(MODIFIER_BITS[m] for m in step.modifiers)
    await click_at(ctx.tab, point["x"], point["y"], step.button, step.click_count, modifiers)
    return None


async def hover(ctx: StepContext, step: Hover) -> Any:
    point = await until_ready(ctx, required_target(step), "point")
    await ctx.tab.send(_mouse("mouseMoved", point["x"], point["y"]))
    return None


async def scroll(ctx: StepContext, step: Scroll) -> Any:
    target = target_of(step)
    if target is not None:
        return await until_ready(ctx, target, "scrollIntoView")
    return await ctx.agent.evaluate(
        f"__cdpseq.scrollPage({json.dumps({'direction': step.direction, 'pixels': step.pixels})})")
