"""Form steps: check, uncheck and select, each verified afterwards."""

from __future__ import annotations

from typing import Any

from ..request import Check, Select, Uncheck
from .context import StepContext, StepError, describe, required_target, until_ready
from .pointer import click_events, pointer_action


async def _set_checked(ctx: StepContext, step: Check | Uncheck, want: bool) -> Any:
    """Click the checkbox, radio or switch (or its label) if its state is not ``want`` yet, and
    make sure the click changed it."""
    target = required_target(step)
    state = await until_ready(ctx, target, "checkedState")
    if state["checked"] == want:
        return {"changed": False}
    if not want and state["radio"]:
        raise StepError("NOT_ACTIONABLE", f"{describe(target)}: a radio button cannot be "
                        "unchecked; check another one of its group")
    await pointer_action(ctx, target, "check", click_events)
    after = await until_ready(ctx, target, "checkedState")
    if after["checked"] != want:
        raise StepError("NOT_ACTIONABLE", f"{describe(target)}: clicking it did not "
                        f"{'check' if want else 'uncheck'} it (the page kept its state)")
    return {"changed": True}


async def check(ctx: StepContext, step: Check) -> Any:
    return await _set_checked(ctx, step, True)


async def uncheck(ctx: StepContext, step: Uncheck) -> Any:
    return await _set_checked(ctx, step, False)


async def select(ctx: StepContext, step: Select) -> Any:
    """Select exactly the options asked for, waiting for them to exist and be enabled."""
    target = required_target(step)
    if step.values is not None:
        wanted, by = step.values, "value"
    elif step.labels is not None:
        wanted, by = step.labels, "label"
    elif step.value is not None:
        wanted, by = [step.value], "value"
    else:
        assert step.option_label is not None, "validated: select names its options"
        wanted, by = [step.option_label], "label"
    done = await until_ready(ctx, target, "select", {"wanted": wanted, "by": by})
    if step.values is None and step.labels is None:
        return {"value": done["values"][0], "label": done["labels"][0]}
    return done
