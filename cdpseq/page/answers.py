"""What the in-page agent answers, typed: the values of its entry points and its refusals
(and, below them, the value of one evaluation in its world, or that its document went).

Each Struct is one entry point's answer as js/agent/*.js writes it (wire names kept, so the
fields read as the JavaScript does), decoded once where ``PageAgent`` receives it. Lists of
delta items stay as the agent wrote them: the act result types them (``StateChange``).
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, TypeVar, cast

import msgspec

from ..cdp import runtime
from ..errors import ActError, ProtocolError


class AgentError(ActError):
    """The agent refused: ``code`` is an act error code (STALE_REF, NOT_ACTIONABLE, ...)."""


class InFrame(AgentError):
    """A selector chain that matches nothing in this document goes on inside cross-origin
    frames (``crossing()`` in js/agent/selectors.js): ``rest`` is the chain from there on,
    ``frames`` how many frame elements it may go on in."""

    def __init__(self, message: str, rest: str, frames: int) -> None:
        super().__init__("NODE_NOT_FOUND", message, retryable=True)
        self.rest = rest
        self.frames = frames


def refusal(value: dict[str, Any]) -> AgentError:
    """The AgentError of an agent's refusal ``{error, reason, retry, inFrame?}``."""
    message = str(value.get("reason", value["error"]))
    crossing = value.get("inFrame")
    if isinstance(crossing, dict):
        return InFrame(message, str(crossing["rest"]), int(crossing["frames"]))
    return AgentError(str(value["error"]), message, bool(value.get("retry")))


A = TypeVar("A")
T = TypeVar("T")


def decode(value: Any, answer: type[A]) -> A:
    """The agent's ``value`` as ``answer``; an answer of another shape is the agent's failure."""
    try:
        return msgspec.convert(value, answer)
    except msgspec.ValidationError as exc:
        raise AgentError("AGENT_FAILED", f"in-page agent answered no {answer.__name__}: "
                         f"{exc}") from None


class PageState(msgspec.Struct):
    """The document's address and title when ``arm()`` started recording."""

    url: str = ""
    title: str = ""


class FromTo(msgspec.Struct):
    """A value before the act and after it (``delta()``'s url and title)."""

    to: str
    from_: str = msgspec.field(name="from")


class Delta(msgspec.Struct, rename="camel"):
    """What ``delta()`` (js/agent/delta.js) says the act changed; ``next`` the next ref number."""

    url: FromTo
    title: FromTo
    next: int
    appeared: list[dict[str, Any]]
    disappeared: list[dict[str, Any]]
    changed: list[dict[str, Any]]
    appeared_total: int
    disappeared_total: int
    changed_total: int
    focus: dict[str, Any] | None = None
    replaced: list[dict[str, Any]] = []
    replaced_total: int = 0


class Settling(msgspec.Struct, rename="camel"):
    """What ``settleWait()`` saw (js/agent/watch.js): ms since the DOM last moved, a visible
    loading indicator, whether anything moved since ``arm()``, the page clock, the delta;
    ``frames_quiet``: no change across an animation frame after the last one, at
    ``changed_at`` (page clock)."""

    quiet_ms: float
    spinner: str | None = None
    moved: bool = True
    at: float = 0
    delta: Delta | None = None
    frames_quiet: bool = False
    changed_at: float = 0
    leaving: int = 0
    """How many navigations to another document and downloads the page began since arm()."""


class WaitOutcome(msgspec.Struct, rename="camel"):
    """Whether ``waitFor()``'s condition held before its timeout (js/agent/waits.js)."""

    matched: bool
    waited_ms: int = 0


class WheelOutcome(msgspec.Struct, rename="camel"):
    """What a wheel did (``wheelMoved()`` in js/agent/input.js): what scrolled, whether the
    page got it, the element whose script took it."""

    moved: list[dict[str, Any]] = []
    seen: bool = False
    taken_by: str | None = None


# -- the value of one evaluation in an agent's world -----------------------------------------


class ContextGone(Exception):
    """The document an evaluation ran in went away (a navigation) before it answered."""


GONE: Any = object()
"""What ``unless_gone`` answers for a call whose document went."""


async def unless_gone(call: Awaitable[T]) -> T:
    """What ``call`` answers, or ``GONE`` when the document it ran in went meanwhile."""
    try:
        return await call
    except ContextGone:
        return cast(T, GONE)
    except ProtocolError as exc:
        if is_context_gone(exc.message):
            return cast(T, GONE)
        raise


def answered(result: runtime.EvaluateResult, agent: str = "in-page agent") -> Any:
    """The value an evaluation answered; ``ContextGone`` when its document went, an
    ``AgentError`` when it threw (naming the ``agent`` that failed)."""
    if result.exceptionDetails is not None:
        details = result.exceptionDetails
        text = details.exception.description if details.exception else details.text
        if is_context_gone(text or ""):
            raise ContextGone()
        if any(limit in (text or "") for limit in _LIMITS):
            raise AgentError("PAGE_TOO_COMPLEX", f"{agent} hit a limit of the page's "
                             f"JavaScript engine on this page: {text}")
        raise AgentError("AGENT_FAILED", f"{agent} failed: {text}")
    return result.result.value


# What V8 says when a walk of a page outgrows it (a tree nested too deep, a list too long).
_LIMITS = ("Maximum call stack size exceeded", "Invalid array length", "Invalid string length",
           "out of memory")


def is_context_gone(message: str) -> bool:
    """Whether a protocol or exception message says the evaluation's document went away."""
    # The last: what a command still pending in a document's renderer gets when the tab commits
    # a navigation in another renderer (a cross-site link) meanwhile.
    return ("Cannot find context" in message or "context was destroyed" in message
            or "Execution context was destroyed" in message
            or "Inspected target navigated or closed" in message)



__all__ = ["GONE", "AgentError", "ContextGone", "Delta", "FromTo", "InFrame", "PageState",
           "Settling", "WaitOutcome", "WheelOutcome", "answered", "decode", "is_context_gone",
           "refusal", "unless_gone"]
