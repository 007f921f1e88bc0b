"""The act result: what happened to each step, the tab, and what the steps changed.

Wire names are camelCase (``rename="camel"``); Python attributes are snake_case.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, Literal, cast

import msgspec
from msgspec import UNSET, Meta, UnsetType

from ..errors import CdpseqError, ConnectionClosed, InvalidRequest, TargetClosed, TargetCrashed
from ..page.view import PageView
from .reports import DialogReport, Download, NewTab, PendingRequest, StateChange, StepEffects
from .request import ActRequest, object_schema, step_label, step_type

ErrorCode = Literal[
    "INVALID_REQUEST", "STALE_REF", "NODE_NOT_FOUND", "NOT_ACTIONABLE", "NOT_EDITABLE",
    "INVALID_VALUE", "OPTION_NOT_FOUND", "WAIT_TIMEOUT", "STEP_TIMEOUT", "NAVIGATION_FAILED",
    "TARGET_CLOSED", "TARGET_CRASHED", "CONNECTION_LOST", "SEQUENCE_TIMEOUT", "DIALOG_OPEN",
    "URL_BLOCKED", "PAGE_UNRESPONSIVE",
    "CONDITION_FAILED", "EVALUATE_DISABLED", "EVALUATE_FAILED", "PAGE_TOO_COMPLEX",
    "AGENT_FAILED",
]
"""Why a step or a request failed, as the result's ``failed.code`` says it. Closed: any other
code a part of cdpseq might carry is ``AGENT_FAILED`` by the time it reaches a result
(``error_code``)."""
ERROR_CODES: frozenset[str] = frozenset(typing.get_args(ErrorCode))
"""Every code of ``ErrorCode``."""
StepStatus = Literal["ok", "error", "skipped", "not_started"]


class StepFailure(msgspec.Struct, kw_only=True, rename="camel"):
    """Why a step (or the whole request) failed."""

    index: Annotated[int | None,
                     Meta(description="Index of the failed step; null if not step-specific.")]
    type: Annotated[str | None, Meta(description="Type of the failed step, if known.")]
    code: Annotated[ErrorCode, Meta(description="Machine-readable error code.")]
    error: Annotated[str, Meta(description="Human-readable explanation.")]
    retryable: Annotated[bool, Meta(description="Whether the same request may succeed if "
                                                "sent again.")]


class StepResult(msgspec.Struct, kw_only=True, rename="camel"):
    """The outcome of one step."""

    index: Annotated[int, Meta(description="Position of the step in the request.")]
    type: Annotated[str, Meta(description="Step type.")]
    label: Annotated[str | UnsetType, Meta(description="The step's label, if it had one.")] = (
        UNSET)
    status: Annotated[StepStatus, Meta(description="ok, error, skipped or not_started.")]
    duration_ms: Annotated[float, Meta(description="Time the step took in ms.")]
    url: Annotated[str, Meta(description="The tab's URL after the step.")]
    attempts: Annotated[int | UnsetType,
                        Meta(description="Attempts made, when retried.")] = UNSET
    error: Annotated[StepFailure | UnsetType,
                     Meta(description="Why the step failed.")] = UNSET
    output: Annotated[Any | UnsetType,
                      Meta(description="What an observing step returned.")] = UNSET
    skip_reason: Annotated[
        str | UnsetType,
        Meta(description="Why the step did not run: its if condition did not hold."),
    ] = UNSET
    effects: Annotated[
        StepEffects | UnsetType,
        Meta(description="What the step caused beyond the DOM: console errors, failed "
                         "requests, downloads, tabs, dialogs (absent: none)."),
    ] = UNSET


class TabState(msgspec.Struct, kw_only=True, rename="camel"):
    """The tab acted in."""

    id: str
    url: str
    title: str


class ActResult(msgspec.Struct, kw_only=True, rename="camel"):
    """The outcome of an act request."""

    ok: Annotated[bool, Meta(description="Whether every step succeeded.")]
    completed: Annotated[int, Meta(description="Number of steps that succeeded.")]
    total: Annotated[int, Meta(description="Number of steps in the request.")]
    failed: Annotated[StepFailure | None,
                      Meta(description="The failure that ended or marred the run, or null.")]
    steps: Annotated[list[StepResult], Meta(description="One result per step run.")]
    tab: Annotated[TabState | None, Meta(description="The tab acted in, if known.")]
    page: Annotated[PageView | UnsetType,
                    Meta(description="Output of the last read_page step.")] = UNSET
    stable: Annotated[bool | UnsetType,
                      Meta(description="Whether the page settled after the actions.")] = UNSET
    stability_wait_ms: Annotated[int | UnsetType,
                                 Meta(description="How long settling took, in ms.")] = UNSET
    unstable_reason: Annotated[str | UnsetType,
                               Meta(description="Why the page did not settle.")] = UNSET
    pending: Annotated[list[PendingRequest] | UnsetType,
                       Meta(description="Requests still in flight: url, type, ageMs, "
                                        "stalled.")] = UNSET
    dialog: Annotated[DialogReport | list[DialogReport] | UnsetType,
                      Meta(description="The JavaScript dialog(s) met, and how each was "
                                       "handled.")] = UNSET
    download: Annotated[Download | list[Download] | UnsetType,
                        Meta(description="Download(s) started: url, suggestedFilename.")] = UNSET
    new_tabs: Annotated[list[NewTab] | UnsetType,
                        Meta(description="Tabs the steps opened: id, url, title.")] = UNSET
    state_change: Annotated[StateChange | None | UnsetType,
                            Meta(description="What the steps changed on the page; null when "
                                             "nothing did or it is unknown.")] = UNSET


def result_schema() -> dict[str, Any]:
    """JSON Schema of :class:`ActResult`."""
    return object_schema(ActResult)


def not_started(request: ActRequest) -> list[StepResult]:
    """One ``not_started`` row per step of ``request``: where every act's step list begins."""
    return [StepResult(index=i, type=step_type(step), status="not_started", duration_ms=0.0,
                       url="", label=UNSET if (label := step_label(step)) is None else label)
            for i, step in enumerate(request.steps)]


def nothing_ran(request: ActRequest | None, failure: StepFailure, *, total: int = 0,
                tab: TabState | None = None) -> ActResult:
    """The one result of an act of which no step ran, whatever stopped it first: a request
    that failed validation or a check before step 0 (``engine/preflight``), a tab that could
    not be had, a dialog already open.

    A request that was read has one ``not_started`` row per step, like the steps a failFast
    stop left behind: every result of a request that was read then has ``len(steps) ==
    total``, and an agent reads each step's fate in one place (``status``) whatever ended the
    act, instead of telling an empty list from a run apart. A request that could not be read
    (``request`` None) has no steps to list: ``steps`` is empty, ``total`` how many it sent."""
    steps = [] if request is None else not_started(request)
    return ActResult(ok=False, completed=0, total=len(steps) if request is not None else total,
                     failed=failure, steps=steps, tab=tab)


def invalid_result(exc: InvalidRequest, request: ActRequest | None = None) -> ActResult:
    """The result of an act request that failed validation (``request`` None: it could not be
    read) or a check of the valid ``request`` before step 0: nothing ran."""
    return nothing_ran(request, StepFailure(index=exc.index, type=exc.step_type,
                                            code="INVALID_REQUEST", error=str(exc),
                                            retryable=False), total=exc.total_steps or 0)


def no_tab_result(request: ActRequest, tab_id: str | None, reason: str) -> ActResult:
    """The result of a valid request whose tab could not be had: nothing ran."""
    return nothing_ran(request, StepFailure(index=None, type=None, code="TARGET_CLOSED",
                                            error=f"tab {tab_id or '(first)'}: {reason}",
                                            retryable=False))


def error_code(exc: BaseException) -> ErrorCode | None:
    """The act error code an exception stands for, or None when it is not one of cdpseq's.

    The one mapping from exceptions to codes: the runner uses it for step failures, the CLI
    and the MCP server for everything else. A code outside ``ErrorCode`` (a part of cdpseq
    that named its failure otherwise) is ``AGENT_FAILED``: the vocabulary stays closed."""
    if isinstance(exc, TargetCrashed):
        return "TARGET_CRASHED"
    if isinstance(exc, TargetClosed):
        return "TARGET_CLOSED"
    if isinstance(exc, ConnectionClosed):
        return "CONNECTION_LOST"
    if isinstance(exc, InvalidRequest):
        return "INVALID_REQUEST"
    code = getattr(exc, "code", None)  # refusals of the page agent and of steps carry one
    if not isinstance(code, str) or not isinstance(exc, CdpseqError):
        return None
    return cast(ErrorCode, code) if code in ERROR_CODES else "AGENT_FAILED"

