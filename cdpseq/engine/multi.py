"""Act in several tabs in one call: ``{"sequences": [{tabId, steps, ...}, ...], "timeoutMs"}``.

Each sequence is a whole act request (its own steps and options) for one tab, named by its
``tabId``. The sequences run concurrently, each taking its own tab's turn, and each answers its
own :class:`ActResult`, in the order given: a failure in one (a step, the tab closing, a tab that
is not there) is that sequence's result and does not cancel the others. ``timeoutMs`` bounds the
whole call: each sequence's own ``timeoutMs`` is cut to it, so every sequence ends, with the
results it has, by then. Two sequences for one tab would only wait for each other's turn, so a
tab named twice is INVALID_REQUEST (``sequences[1].tabId``), as is a sequence without a tabId.
Each sequence acts in the browser context its tab lives in (``Browser.new_tab(isolated=True)``
gives each tab one of its own), and a tab one of its steps opens joins its opener's context, as
Chromium keeps popups: so contexts need no option here.

Validation is whole, as for one act: any invalid sequence makes the call invalid and nothing
runs (the error names the field as ``sequences[i].steps[j].url``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Annotated, Any

import msgspec
import trio
from msgspec import Meta

from ..browser import Browser
from ..errors import CdpseqError, InvalidRequest
from .request import ActRequest, ReturnMode
from .result import ActResult, StepFailure, error_code, invalid_result, nothing_ran
from .runner import run_validated
from .shown import show_name, show_value
from .validate import parse_request

MAX_SEQUENCES = 16
"""The most tabs one call acts in."""

# Time a sequence gets past the call's timeout to hand in its result before it is cut off
# (its own bounds end it first; this catches a sequence still waiting for its tab's turn).
_GRACE = 2.0

_Sequences = Annotated[
    list[ActRequest],
    Meta(min_length=1, max_length=MAX_SEQUENCES,
         description="One act request per tab, each with its tabId, run concurrently."),
]


class MultiActRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                      omit_defaults=True, rename="camel"):
    """Act in several tabs at once: one request per tab, each answered on its own."""

    sequences: _Sequences
    timeout_ms: Annotated[
        int, Meta(ge=1, le=600000, description="Timeout of the whole call in ms; bounds "
                                               "every sequence."),
    ] = 30000


class MultiActResult(msgspec.Struct, kw_only=True, rename="camel"):
    """The outcome of acting in several tabs: one act result per sequence, in order."""

    ok: Annotated[bool, Meta(description="Whether every sequence succeeded.")]
    failed: Annotated[StepFailure | None,
                      Meta(description="Why the request as a whole was refused (nothing ran), "
                                       "or null; a sequence's own failure is in its result.")]
    results: Annotated[list[ActResult],
                       Meta(description="One act result per sequence, in the order given.")]


async def act_many(browser: Browser,
                   request: MultiActRequest | Mapping[str, Any] | Sequence[ActRequest
                                                                          | Mapping[str, Any]],
                   *, secrets: Mapping[str, str] | None = None) -> MultiActResult:
    """Act in several tabs of ``browser`` at once: ``request`` is a :class:`MultiActRequest`,
    its plain data, or a bare list of act requests (each with its ``tab_id``).

    Never raises for a bad request or a misbehaving page: an invalid request answers a result
    whose ``failed.code`` is INVALID_REQUEST (nothing ran); each sequence's failures are in its
    own result. ``secrets`` is as for :func:`~cdpseq.act`."""
    if not isinstance(request, MultiActRequest | Mapping):
        request = {"sequences": list(request)}
    try:
        parsed = parse_multi_request(request)
    except InvalidRequest as exc:
        return invalid_multi_result(exc)

    async def act_one(sequence: ActRequest) -> ActResult:
        return await run_validated(await browser.tab(sequence.tab_id), sequence,
                                   secrets=secrets)

    return await run_sequences(parsed, act_one)


def is_multi(data: object) -> bool:
    """Whether ``data`` (plain data or a request) asks to act in several tabs."""
    return isinstance(data, MultiActRequest) or (isinstance(data, Mapping)
                                                 and "sequences" in data)


def parse_multi_request(data: MultiActRequest | Mapping[str, Any] | bytes | str
                        ) -> MultiActRequest:
    """Validate a multi-tab request; raise :class:`InvalidRequest` naming the field."""
    if isinstance(data, MultiActRequest):
        data = msgspec.to_builtins(data)
    if isinstance(data, bytes | str):
        try:
            data = msgspec.json.decode(data)
        except msgspec.DecodeError as exc:
            raise InvalidRequest("request", f"invalid JSON: {exc}") from None
        except RecursionError:
            raise InvalidRequest("request", "invalid JSON: nested too deeply") from None
    if not isinstance(data, Mapping):
        raise InvalidRequest("request", "expected an object with sequences")
    allowed = ("sequences", "timeoutMs")
    for name in data:
        if name not in allowed:
            raise InvalidRequest(show_name(str(name)), f"unknown field (allowed with sequences: "
                                                        f"{', '.join(allowed)})")
    timeout = data.get("timeoutMs", 30000)
    if type(timeout) is not int or not 1 <= timeout <= 600000:
        raise InvalidRequest("timeoutMs", f"invalid value {show_value(timeout)} (expected an "
                                          "integer from 1 to 600000)")
    sequences = data.get("sequences")
    if not isinstance(sequences, Sequence) or isinstance(sequences, str | bytes) \
            or not 1 <= len(sequences) <= MAX_SEQUENCES:
        raise InvalidRequest("sequences", f"expected a list of 1 to {MAX_SEQUENCES} requests, "
                                          f"got {show_value(sequences)}")
    parsed: list[ActRequest] = []
    seen: dict[str, int] = {}
    for index, sequence in enumerate(sequences):
        at = f"sequences[{index}]"
        if not isinstance(sequence, Mapping | ActRequest):
            raise InvalidRequest(at, "expected an act request: an object with tabId and steps")
        try:
            request = parse_request(sequence)
        except InvalidRequest as exc:
            raise InvalidRequest(f"{at}.{exc.field}", exc.reason) from None
        if request.tab_id is None:
            raise InvalidRequest(f"{at}.tabId", "required: each sequence names its tab")
        if request.tab_id in seen:
            raise InvalidRequest(f"{at}.tabId", f"tab {request.tab_id!r} is already "
                                                f"sequences[{seen[request.tab_id]}]'s (one "
                                                "sequence per tab)")
        seen[request.tab_id] = index
        parsed.append(msgspec.structs.replace(request,
                                              timeout_ms=min(request.timeout_ms, timeout)))
    return MultiActRequest(sequences=parsed, timeout_ms=timeout)


def is_multi_json(raw: bytes | str) -> bool:
    """Whether a JSON request asks to act in several tabs (an object with ``sequences``);
    JSON that does not decode is left for ``parse_request`` to refuse."""
    try:
        return is_multi(msgspec.json.decode(raw))
    except (msgspec.DecodeError, RecursionError, UnicodeDecodeError):
        return False


def with_return_mode(request: ActRequest | MultiActRequest, mode: ReturnMode
                     ) -> ActRequest | MultiActRequest:
    """``request`` with every sequence's ``returnMode`` set to ``mode``."""
    if isinstance(request, ActRequest):
        return msgspec.structs.replace(request, return_mode=mode)
    return msgspec.structs.replace(request, sequences=[
        msgspec.structs.replace(sequence, return_mode=mode) for sequence in request.sequences])


def invalid_multi_result(exc: InvalidRequest) -> MultiActResult:
    """The result of a multi-tab request that failed validation: nothing ran."""
    return MultiActResult(ok=False, results=[], failed=StepFailure(
        index=None, type=None, code="INVALID_REQUEST", error=str(exc), retryable=False))


async def run_sequences(request: MultiActRequest,
                        act_one: Callable[[ActRequest], Awaitable[ActResult]]) -> MultiActResult:
    """Run each sequence of a validated request with ``act_one`` (which picks the tab by the
    request's tabId), concurrently; every sequence answers a result."""
    results: list[ActResult | None] = [None] * len(request.sequences)
    deadline = trio.current_time() + request.timeout_ms / 1000 + _GRACE

    async def run_one(index: int, sequence: ActRequest) -> None:
        with trio.move_on_at(deadline):
            try:
                results[index] = await act_one(sequence)
            except InvalidRequest as exc:
                results[index] = invalid_result(exc, sequence)
            except CdpseqError as exc:  # the tab or the connection went away before it ran
                results[index] = _not_run(sequence, error_code(exc) or "TARGET_CLOSED", str(exc))
        if results[index] is None:
            results[index] = _not_run(sequence, "SEQUENCE_TIMEOUT", f"the call ran out of its "
                                      f"{request.timeout_ms} ms before this tab's turn came")

    async with trio.open_nursery() as nursery:
        for index, sequence in enumerate(request.sequences):
            nursery.start_soon(run_one, index, sequence)
    done = [result for result in results if result is not None]
    return MultiActResult(ok=all(result.ok for result in done), failed=None, results=done)


def _not_run(sequence: ActRequest, code: str, reason: str) -> ActResult:
    return nothing_ran(sequence, StepFailure(index=None, type=None,
                                             code=code,  # type: ignore[arg-type]
                                             error=f"tab {sequence.tab_id}: {reason}",
                                             retryable=code == "SEQUENCE_TIMEOUT"))
