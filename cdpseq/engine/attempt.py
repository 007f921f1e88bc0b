"""One step of an act: its ``if``, then its executor under its own timeout, retried as its
``onError`` says.

A step runs within two bounds: its own timeout (``timeoutMs``, else the request's
``perStepTimeoutMs``) and what is left of the whole act. A step whose ``onError`` is ``retry``
runs again after a backoff (0.1 s, doubling, at most 1 s) up to ``retries`` more times (2 by
default), unless its failure cannot be cured by trying again (the tab or the connection gone, a
stale ref, an invalid or blocked step) or the backoff would outlast the act.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import trio

from ..browser import Tab
from ..errors import CdpseqError
from ..page.agent import AgentError, PageAgent
from ..page.frame_steps import agent_for
from .preconditions import check_precondition
from .request import ActRequest, Navigate, Reload, Step, is_action, step_type
from .result import StepFailure, error_code
from .settle_watch import Watch
from .steps import EXECUTORS, StepContext, StepError
from .steps.context import target_of

FATAL = ("TARGET_CLOSED", "TARGET_CRASHED", "CONNECTION_LOST", "SEQUENCE_TIMEOUT")
"""Codes that end the whole act whatever the step's ``onError``: nothing after can run."""
GRACE = 1.0
"""Time a step gets beyond its own deadline to report why it failed, before it is cut off."""
_RETRY_BASE = 0.1
_RETRY_CAP = 1.0
_DEFAULT_RETRIES = 2
_NOT_RETRIED = (*FATAL, "STALE_REF", "INVALID_REQUEST", "URL_BLOCKED")


class Acting:
    """What every step of one act runs with: the tab and its agent, the request, the act's
    deadline, the credentials' resolver, and the settle watch (None until the sequence opened
    one, and when the page gave none)."""

    def __init__(self, tab: Tab, request: ActRequest, resolve_secret: Callable[[str], str],
                 deadline: float) -> None:
        self.tab = tab
        self.agent = tab.extension(PageAgent)
        self.request = request
        self.resolve_secret = resolve_secret
        self.deadline = deadline
        self.watch: Watch | None = None


class Outcome:
    """What became of one step: its failure (None when it did its work), its output, how long
    it took and how many attempts, or why it was skipped (its ``if`` did not hold)."""

    __slots__ = ("attempts", "duration_ms", "error", "output", "raw", "skip_reason")

    def __init__(self) -> None:
        self.attempts = 0
        self.duration_ms = 0.0
        self.error: StepFailure | None = None
        self.output: Any = None
        self.skip_reason: str | None = None
        self.raw: Any = None
        """What the executor returned, before ``output`` made it plain data."""


async def run_step(acting: Acting, index: int, step: Step) -> Outcome:
    """Run ``step`` (the ``index``-th of the request): its ``if``, then its attempts."""
    outcome = Outcome()
    started = trio.current_time()
    if step.when is not None:
        outcome.skip_reason, outcome.error = await check_precondition(
            acting.agent, step, index, acting.deadline)
        if outcome.skip_reason is not None or outcome.error is not None:
            outcome.duration_ms = round((trio.current_time() - started) * 1000, 1)
            return outcome
    tries = 1
    if step.on_error == "retry":
        tries += step.retries if step.retries is not None else _DEFAULT_RETRIES
    for attempt in range(tries):
        outcome.attempts = attempt + 1
        error = await _attempt(acting, step, outcome)
        if error is None:
            break
        if trio.current_time() >= acting.deadline and error.code != "TARGET_CLOSED":
            error = StepError("SEQUENCE_TIMEOUT", f"the whole act ran out of its "
                              f"{acting.request.timeout_ms} ms before step {index} finished "
                              f"({error.message})")
        outcome.error = StepFailure(index=index, type=step_type(step),
                                    code=error_code(error) or "AGENT_FAILED",
                                    error=error.message, retryable=error.retryable)
        if error.code in _NOT_RETRIED:
            break
        if attempt + 1 < tries:
            backoff = min(_RETRY_BASE * 2 ** attempt, _RETRY_CAP)
            if trio.current_time() + backoff >= acting.deadline:
                break
            await trio.sleep(backoff)
    outcome.duration_ms = round((trio.current_time() - started) * 1000, 1)
    return outcome


async def _attempt(acting: Acting, step: Step, outcome: Outcome) -> StepError | None:
    """One attempt at ``step``: its output into ``outcome``, or why it failed."""
    tab, agent, watch = acting.tab, acting.agent, acting.watch
    timeout = (step.timeout_ms or acting.request.per_step_timeout_ms) / 1000
    now = trio.current_time()
    deadline = min(now + timeout, acting.deadline)
    context = StepContext(tab, agent, deadline, acting.resolve_secret, watch,
                          acting.request.return_mode)
    try:
        if not (tab.crashed and isinstance(step, Navigate | Reload)):
            tab.check_alive()  # a crashed tab is revived by loading a page: a new renderer
        elif isinstance(step, Navigate):
            # A tab attached already crashed first needs a renderer that tells it of the load
            # (``Tab.revive``; not before a reload, which would reload its about:blank).
            await tab.revive(max(deadline - now, 0) / 2)
        with trio.fail_after(max(deadline - now, 0) + GRACE), trio.CancelScope() as step_scope:
            if watch is not None:
                watch.step_scope = step_scope
            context.agent = await agent_for(agent, target_of(step))  # a frame's ref?
            output = await EXECUTORS[type(step)](context, step)
        if step_scope.cancelled_caught:  # a dialog left open paused the page mid-step
            output = {"dialogOpened": True}
        outcome.raw = output
        outcome.output = msgspec.to_builtins(output) if output is not None else None
        outcome.error = None
        return None
    except trio.TooSlowError:
        return StepError("STEP_TIMEOUT", f"{step_type(step)} did not finish within "
                         f"{timeout * 1000:.0f} ms", retryable=True)
    except CdpseqError as exc:
        return _step_error(exc, step)


def _step_error(exc: CdpseqError, step: Step) -> StepError:
    """The failure of a step that raised ``exc``."""
    if isinstance(exc, StepError):
        return exc
    if isinstance(exc, AgentError):
        return StepError(exc.code, exc.message, exc.retryable)
    code = error_code(exc)
    if code is not None:  # the tab or the connection went away
        return StepError(code, str(exc))
    return StepError("NAVIGATION_FAILED" if is_action(step) else "STEP_TIMEOUT", str(exc),
                     retryable=True)
