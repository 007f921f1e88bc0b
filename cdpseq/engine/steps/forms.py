"""Form steps: check, uncheck and select."""

from __future__ import annotations

from typing import Any

from ..request import Check, Select, Uncheck
from .context import StepContext, StepError, describe, required_target, until_ready
from .pointer import click_at


async def _set_checked(ctx: StepContext, step: Check | Uncheck, want: bool) -> Any:
    target = required_target(step)
    state = await until_ready(ctx, target, "checkedState")
    if state["checked"] == want:
        return {"changed": False}
    point = await until_ready(ctx, target, "point")
    await click_at(ctx.tab, point["x"], point["y"])
    after = await until_ready(ctx, target, "checkedState")
    if after["checked"] != want:
        raise StepError("NOT_ACTIONABLE", f"{describe(target)}: clicking it did not "
                        f"{'check' if want else 'uncheck'} it (a radio can't be unchecked)")
    return {"changed": True}


async def check(ctx: StepContext, step: Check) -> Any:
    return await _set_checked(ctx, step, True)


async def uncheck(ctx: StepContext, step: Uncheck) -> Any:
    return await _set_checked(ctx, step, False)


async def select(ctx: StepContext, step: Select) -> Any:
    target = required_target(step)
    args = {"value": step.value} if step.value is not None else {"label": step.option_label}
    return await until_ready(ctx, target, "select", args)
