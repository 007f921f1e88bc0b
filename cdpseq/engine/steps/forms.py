"""Form steps: check, uncheck and select, each verified afterwards.

A check or uncheck clicks the control (or its label) and reads its state again once it changed
(or a moment later: a page may show it only once its server agreed); a tri-state checkbox that
shows "mixed" is neither checked nor unchecked, and is clicked again until it is what was asked,
as far as its cycle goes.
"""

from __future__ import annotations

from typing import Any

from ...page.targets import describe
from ..request import Check, Select, Uncheck
from .context import (
    REPORT_MARGIN,
    StepContext,
    StepError,
    required_target,
    until_ready,
)
from .pointer import click_events, pointer_action

# The clicks a check or uncheck may take: a tri-state checkbox cycles through three states, so
# any state is at most two clicks away.
_MAX_CLICKS = 2
# How long a click's new state may take to show (a switch that waits for its server).
_STATE_WAIT = 1.0


def _state_name(checked: bool | str) -> str:
    return "mixed" if checked == "mixed" else "checked" if checked else "unchecked"


async def _set_checked(ctx: StepContext, step: Check | Uncheck, want: bool) -> Any:
    """Click the checkbox, radio or switch (or its label) until its state is ``want``,
    checking it after each click (once it changed, or ``_STATE_WAIT`` later): once for a
    two-state control, at most ``_MAX_CLICKS`` for a tri-state one that shows (or goes through)
    "mixed"."""
    target = required_target(step)
    state = await until_ready(ctx, target, "checkedState")
    if state["checked"] is want:
        return {"changed": False}
    if not want and state["radio"]:
        raise StepError("NOT_ACTIONABLE", f"{describe(target)}: a radio button cannot be "
                        "unchecked; check another one of its group")
    went = [state["checked"]]
    for clicks in range(1, _MAX_CLICKS + 1):
        await pointer_action(ctx, target, "check", click_events)
        wait_ms = round(max(min(_STATE_WAIT, ctx.remaining() - REPORT_MARGIN), 0) * 1000)
        now = (await until_ready(ctx, target, "checkedAfter",
                                 {"was": went[-1], "waitMs": wait_ms}))["checked"]
        if now is want:
            return {"changed": True, **({"clicks": clicks} if clicks > 1 else {})}
        went.append(now)
        if now in went[:-1]:  # the click changed nothing, or the cycle came back
            break
    path = " -> ".join(_state_name(checked) for checked in went)
    verb = "check" if want else "uncheck"
    if len(went) == 2 and went[0] == went[1]:
        raise StepError("NOT_ACTIONABLE", f"{describe(target)}: clicking it did not {verb} it "
                        f"(the page kept its state: {path})")
    raise StepError("NOT_ACTIONABLE", f"{describe(target)}: clicking it did not {verb} it (it "
                    f"went {path})")


async def check(ctx: StepContext, step: Check) -> Any:
    """Click a checkbox, radio or switch (or its label) until it shows checked."""
    return await _set_checked(ctx, step, True)


async def uncheck(ctx: StepContext, step: Uncheck) -> Any:
    """Click a checkbox or switch (or its label) until it shows unchecked."""
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
