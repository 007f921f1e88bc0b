"""What every step executor shares: its context, its error, and waiting for a target.

Every executor gets a ``StepContext`` (the tab, its page agent, the step's deadline) and either
returns the step's output (JSON-able, or None) or raises ``StepError`` with a stable code. Element
steps wait for their target to be actionable — attached, visible, enabled, in view, and the one
the hit test finds at the click point — retrying until just before the deadline, then fail with
the last reason they saw ("covered by div.modal-backdrop"), never with a bare timeout.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import trio

from ...browser import Tab
from ...errors import ActError
from ...page.agent import AgentError, InFrame, PageAgent
from ...page.frame_steps import route_selector
from ...page.targets import Node, Ref, Selector, Target, describe
from ..settle_watch import Watch
from ..shown import parse_target

# Stop an in-page wait this long before the deadline, to report why rather than time out.
REPORT_MARGIN = 0.05
# The last try of an action starts no later than this before the deadline: a try takes a round
# trip or two, and the step has a grace period after its deadline to report.
_LAST_TRY = 0.005

T = TypeVar("T")


class StepError(ActError):
    """A step failed: what its result's ``error`` says (``code``, ``message``, ``retryable``)."""

    def __init__(self, code: str, message: str, retryable: bool = False) -> None:
        super().__init__(code, message, retryable)
        self.args = (f"{code}: {message}",)


class StepContext:
    """What an executor works with: the tab, its agent, the deadline, the watch."""

    def __init__(self, tab: Tab, agent: PageAgent, deadline: float,
                 secrets: Callable[[str], str], watch: Watch | None,
                 return_mode: str = "final") -> None:
        self.tab = tab
        self.return_mode = return_mode
        self.watch = watch
        self.agent = agent
        self.deadline = deadline
        self.secret = secrets

    def remaining(self) -> float:
        """Seconds left before the step's deadline (negative once past)."""
        return self.deadline - trio.current_time()


# -- targets ------------------------------------------------------------------------------------


def target_of(step: Any) -> Target | None:
    """The element a step (or its ``if``) names, or None when it names none."""
    return target_named(getattr(step, "target", None), getattr(step, "selector", None))


def target_named(target: str | int | None, selector: str | None) -> Target | None:
    """The target a step's validated ``target`` (``ref_N``, ``node_N``, N) or ``selector`` names."""
    if selector is not None:
        return Selector(selector)
    if target is None:
        return None
    parsed = parse_target(target)
    return Ref(parsed.number) if parsed.kind == "ref" else Node(parsed.number)


async def retrying(ctx: StepContext, target: Target,
                   attempt: Callable[[int], Awaitable[T]]) -> T:
    """``attempt(n)`` for n = 0, 1, ... until it succeeds or a refusal that waiting cannot
    help (``AgentError`` not ``retryable``), the last try falling right at the deadline.
    A refusal becomes a ``StepError`` saying what was still so at the timeout. A selector chain
    that goes on inside a cross-origin frame moves the step to that frame's agent
    (``ctx.agent``), and the try is made again there at once."""
    delay = 0.0
    tries = 0
    last: AgentError
    while True:
        try:
            return await attempt(tries)
        except InFrame as exc:
            last = exc
            if isinstance(target, Selector):
                try:
                    ctx.agent = await route_selector(ctx.agent, target.selector, exc)
                    continue
                except AgentError as unrouted:
                    last = unrouted
        except AgentError as exc:
            waitable = exc.retryable or (exc.code == "NODE_NOT_FOUND"
                                         and isinstance(target, Selector))
            if not waitable:
                raise step_error(exc, target) from None
            last = exc
        tries += 1
        left = ctx.remaining()
        if left <= _LAST_TRY:
            raise step_error(last, target, waited=True) from None
        await trio.sleep(min(delay, left - _LAST_TRY))
        delay = min(0.1, max(0.01, delay * 2))


async def until_ready(ctx: StepContext, target: Target, op: str,
                      args: dict[str, Any] | None = None) -> Any:
    """Run agent ``op`` on the target, retrying refusals that may pass (not there yet, covered,
    disabled, hidden, moving) until the step's deadline."""
    return await retrying(ctx, target, lambda _: ctx.agent.call(op, target, args))


def step_error(exc: AgentError, target: Target, waited: bool = False) -> StepError:
    """The step's error for what the agent refused, the target named in the message."""
    message = f"{describe(target)}: {exc.message}"
    if exc.code == "STALE_REF":
        message += "; read the page again for fresh refs"
    if waited:
        message += " (still so at the step timeout)"
    retryable = exc.code in ("NOT_ACTIONABLE", "NODE_NOT_FOUND", "NAVIGATION_FAILED")
    return StepError(exc.code, message, retryable)


def required_target(step: Any) -> Target:
    """The target of an element step (validation made sure there is one)."""
    target = target_of(step)
    assert target is not None, "validated: element steps have a target or a selector"
    return target
