"""A step's ``if``: the element state that must hold for the step to run.

The condition is awaited in the page by the agent's own ``waitFor`` (js/agent/waits.js): the
same visible/hidden/attached/detached states as ``wait_for``, plus enabled/disabled from the
actionability checks, so "visible" means the same thing everywhere. ``timeoutMs`` 0 checks
once; the runner lets the page settle from the previous action first, so "once" is after the
page stopped moving, not in the middle of its reaction. A condition that does not hold skips the
step (``else: "skip"``, the default: the act stays ok) or fails it with ``CONDITION_FAILED``
(``else: "fail"``: the step's onError then decides, as for any failure).
"""

from __future__ import annotations

import trio

from ..errors import CdpseqError
from ..page.agent import AgentError, PageAgent
from ..page.targets import Node, describe, to_agent
from .request import Condition, Step, step_type
from .result import ErrorCode, StepFailure, error_code
from .steps.context import REPORT_MARGIN, target_of

# The wire state names of a condition, as waits.js spells those it shares with wait_for.
_PAGE_STATES = {"exists": "attached", "gone": "detached"}


async def check_precondition(agent: PageAgent, step: Step, index: int, deadline: float
                             ) -> tuple[str | None, StepFailure | None]:
    """(why the step is skipped, why it failed): both None when its ``if`` holds."""
    condition = step.when
    assert condition is not None, "called for a step with an if"
    try:
        unmet = await unmet_condition(agent, condition, deadline)
    except (AgentError, CdpseqError) as exc:
        code: ErrorCode = error_code(exc) or "NAVIGATION_FAILED"
        return None, StepFailure(index=index, type=step_type(step), code=code,
                                 error=f"if: {getattr(exc, 'reason', None) or exc}",
                                 retryable=False)
    if unmet is None:
        return None, None
    if condition.otherwise == "skip":
        return unmet, None
    return None, StepFailure(index=index, type=step_type(step), code="CONDITION_FAILED",
                             error=unmet, retryable=True)


async def unmet_condition(agent: PageAgent, condition: Condition, deadline: float) -> str | None:
    """None once the condition holds (within its timeout and before ``deadline``), else why
    it does not."""
    target = target_of(condition)
    assert target is not None, "validated: a condition names an element"
    assert not isinstance(target, Node), "validated: a condition names a ref or a selector"
    left = max(deadline - trio.current_time() - REPORT_MARGIN, 0)
    budget_ms = int(min(condition.timeout_ms / 1000, left) * 1000)
    state = _PAGE_STATES.get(condition.state, condition.state)
    try:
        outcome = await agent.wait_for({**to_agent(target), "state": state}, budget_ms)
    except AgentError as exc:
        if exc.code == "AGENT_FAILED":  # the page's parser refused the selector
            raise AgentError("INVALID_REQUEST", exc.message) from None
        raise
    if outcome.matched:
        return None
    waited = "checked once" if condition.timeout_ms == 0 else f"waited {budget_ms} ms"
    return f"if: {describe(target)} is not {condition.state} ({waited})"
