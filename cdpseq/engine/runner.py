"""act: run a validated step sequence on one tab and say what happened to each step.

The request is validated whole before anything runs. Each step then runs under two bounds: its
own timeout (``timeoutMs`` or ``perStepTimeoutMs``) and what is left of the whole call
(``timeoutMs`` of the request). A step that fails is retried when its ``onError`` is ``retry``
(with backoff), then either stops the sequence (``stop``, the default when ``failFast``) or is
marked ``skipped`` and the sequence goes on (``skip``, the default otherwise). A tab that closes,
crashes, or loses its connection ends the sequence at once. Credential values are resolved only
when their fill runs and are scrubbed from everything the result carries.

``act`` and ``read_page`` take the tab's turn: one of them at a time per tab (in this process).
"""

from __future__ import annotations

import json
import logging
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import msgspec
import trio

from ..browser import Tab
from ..cdp import page
from ..errors import CdpseqError, InvalidRequest
from ..page.agent import AgentError, PageAgent
from ..page.read import Compression, read_view
from ..page.view import PageView, ReadFilter
from .delta import collect_state_change
from .request import ActRequest, Fill, ReadPage, Step, WaitFor, is_action, step_label, step_type
from .result import (
    ActResult,
    StepFailure,
    StepResult,
    TabState,
    error_code,
    invalid_result,
)
from .secrets import SECRET_ENV_PREFIX, Secrets, scrub
from .settle_watch import DEFAULT_QUIET, NEW_TAB_WAIT, Watch, open_watch
from .steps import EXECUTORS, StepContext, StepError
from .validate import parse_request, show_value

log = logging.getLogger("cdpseq.act")

_RETRY_BASE = 0.1
_RETRY_CAP = 1.0
_DEFAULT_RETRIES = 2
# Time a step gets beyond its own deadline to report why it failed, before it is cut off.
_GRACE = 1.0


_READ_FILTERS: tuple[str, ...] = typing.get_args(ReadFilter)
_COMPRESSIONS: tuple[str, ...] = typing.get_args(Compression)


class _Turn:
    """One act or read at a time per tab: ``tab.extension(_Turn).lock``."""

    def __init__(self, tab: Tab) -> None:
        self.lock = trio.Lock()


def _check_credentials(request: ActRequest, secrets: Secrets) -> None:
    for index, step in enumerate(request.steps):
        if isinstance(step, Fill) and step.credential_ref is not None:
            if secrets.lookup(step.credential_ref) is None:
                raise InvalidRequest(
                    f"steps[{index}].credentialRef",
                    f"no secret named {step.credential_ref!r}: set "
                    f"{SECRET_ENV_PREFIX}{step.credential_ref.upper()} or pass it in secrets",
                    index=index, step_type="fill", total_steps=len(request.steps))


async def read_page(tab: Tab, filter: ReadFilter = "interactive",
                    compression: Literal["none", "delta"] = "none") -> PageView:
    """The page as a compact view in which every interactive element carries a ref, remembered
    as the tab's latest read (the baseline of a later ``compression="delta"`` read).

    Raises ``InvalidRequest`` naming ``filter`` or ``compression`` for a value they do not
    take."""
    for name, value, choices in (("filter", filter, _READ_FILTERS),
                                 ("compression", compression, _COMPRESSIONS)):
        if not isinstance(value, str) or value not in choices:
            raise InvalidRequest(name, f"invalid value {show_value(value)} (expected one of "
                                       f"{', '.join(choices)})")
    async with tab.extension(_Turn).lock:
        tab.check_alive()
        view = await read_view(tab.extension(PageAgent), filter, compression)
        return view


async def act(tab: Tab, request: ActRequest | Mapping[str, Any] | Sequence[Any] | str | bytes,
              *, secrets: Mapping[str, str] | None = None) -> ActResult:
    """Run ``request`` (an ActRequest, its JSON, a dict, or a bare list of steps) on ``tab``.

    Never raises for a bad request or a misbehaving page: an invalid request answers a result
    whose ``failed.code`` is ``INVALID_REQUEST`` (nothing ran), and every failure of a step is
    in the result. ``secrets`` maps ``credentialRef`` names to values (else
    ``$CDPSEQ_SECRET_<NAME>``)."""
    known = Secrets(secrets)
    try:
        parsed = parse_request(request)
        _check_credentials(parsed, known)
        if parsed.tab_id is not None and parsed.tab_id != tab.id:
            raise InvalidRequest("tabId", f"names tab {show_value(parsed.tab_id)}, but act was "
                                          f"given tab {tab.id!r}",
                                 total_steps=len(parsed.steps))
    except InvalidRequest as exc:
        return invalid_result(exc)
    used_secrets: list[str] = []

    def resolve_secret(name: str) -> str:
        value = known.lookup(name)
        assert value is not None, "checked before the run"
        used_secrets.append(value)
        return value

    async with tab.extension(_Turn).lock:
        result = await _run(tab, parsed, resolve_secret)
    if not any(used_secrets):
        return result
    return msgspec.convert(scrub(msgspec.to_builtins(result), used_secrets), ActResult)


async def _check_selectors(agent: PageAgent, request: ActRequest) -> InvalidRequest | None:
    """The first selector of the request that the page's own parser refuses, as the request's
    error: selectors are part of the request, checked in one round trip before step 0."""
    given: list[tuple[int, str]] = [
        (i, selector) for i, step in enumerate(request.steps)
        if (selector := getattr(step, "selector", None)) is not None]
    if not given:
        return None
    try:
        problems = await agent.evaluate(
            f"__cdpseq.checkSelectors({json.dumps([selector for _, selector in given])})")
    except (CdpseqError, AgentError) as exc:  # the page is going away: the steps will say so
        log.info("selectors not checked before the run: %s", exc)
        return None
    for (index, selector), problem in zip(given, problems, strict=True):
        if problem is not None:
            return InvalidRequest(f"steps[{index}].selector",
                                  f"invalid selector {selector!r}: {problem}", index=index,
                                  step_type=step_type(request.steps[index]),
                                  total_steps=len(request.steps))
    return None


async def _run(tab: Tab, request: ActRequest, resolve_secret: Any) -> ActResult:
    agent = tab.extension(PageAgent)
    if tab.closed is None and not tab.crashed:
        invalid = await _check_selectors(agent, request)
        if invalid is not None:
            return invalid_result(invalid)
    steps = [StepResult(index=i, type=step_type(step), status="not_started",
                          duration_ms=0.0, url="", **_label(step))
             for i, step in enumerate(request.steps)]
    failed: StepFailure | None = None
    last_page: Any = msgspec.UNSET
    dialogs: list[dict[str, Any]] = []
    report: dict[str, Any] = {}
    state_change: Any = None
    seen: tuple[str, str] | None = None  # (url, title) as the delta last saw them
    sequence_deadline = trio.current_time() + request.timeout_ms / 1000
    quiet = (request.stability_ms if request.stability_ms is not None
             else DEFAULT_QUIET * 1000) / 1000
    settle_timeout = request.settle_timeout_ms / 1000

    async with trio.open_nursery() as nursery:
        watch: Watch | None = None
        try:
            tab.check_alive()
            will_settle = request.settle or any(
                isinstance(step, WaitFor) and step.stable for step in request.steps)
            watch = await nursery.start(_watching, tab, agent, quiet, will_settle)
        except (CdpseqError, AgentError) as exc:
            log.info("act on %s without a watch: %s", tab.id, exc)
        await nursery.start(_guard_dialogs, tab, request.dialog, dialogs, watch)
        acted = False
        for index, step in enumerate(request.steps):
            if watch is not None and watch.dialog_left_open:
                steps[index].status = "error"
                steps[index].error = failed = failed or StepFailure(
                    index=index, type=step_type(step), code="NOT_ACTIONABLE",
                    error="a JavaScript dialog is open (dialog: leave) and pauses the page; "
                          "handle it before further steps", retryable=False)
                break
            if watch is not None and acted:
                if isinstance(step, WaitFor | ReadPage) and request.settle:
                    await _bounded(watch.settle, settle_timeout, sequence_deadline)
                elif is_action(step):
                    await _bounded(watch.wait_for_document,
                                   (step.timeout_ms or request.per_step_timeout_ms) / 1000,
                                   sequence_deadline)
            outcome = await _run_step(tab, agent, request, index, step, resolve_secret,
                                      sequence_deadline, watch)
            acted = acted or is_action(step)
            record = steps[index]
            record.duration_ms = outcome.duration_ms
            record.url = tab.url
            if outcome.attempts > 1:
                record.attempts = outcome.attempts
            if outcome.error is None:
                record.status = "ok"
                if isinstance(step, ReadPage):
                    last_page = outcome.output
                if request.return_mode != "final" and outcome.output is not None:
                    record.output = outcome.output
                continue
            record.error = outcome.error
            failed = failed or outcome.error
            on_error = step.on_error or ("stop" if request.fail_fast else "skip")
            fatal = outcome.error.code in _FATAL
            if on_error == "skip" and not fatal:
                record.status = "skipped"
                continue
            record.status = "error"
            break
        if watch is not None and not _tab_gone(tab) and not watch.dialog_left_open:
            if request.settle and acted:
                report = await _bounded(watch.settle, settle_timeout,
                                        max(sequence_deadline, trio.current_time() + 0.5)) or {}
            state_change, seen = await collect_state_change(tab, agent, watch)
        elif watch is not None and watch.dialog_left_open:
            report = await _bounded(watch.settle, 0.1, trio.current_time() + 1) or {}
        if watch is not None and watch.new_tabs:
            await watch.new_tabs_known(min(NEW_TAB_WAIT, max(
                sequence_deadline - trio.current_time(), 0)))
        nursery.cancel_scope.cancel()

    completed = sum(1 for r in steps if r.status == "ok")
    result = ActResult(ok=completed == len(steps), completed=completed, total=len(steps),
                         failed=failed, steps=steps,
                         tab=TabState(id=tab.id, url=seen[0], title=seen[1]) if seen
                         else await _tab_state(tab))
    if last_page is not msgspec.UNSET:
        result.page = last_page
    for key, value in report.items():
        setattr(result, _SNAKE[key], value)
    if dialogs:
        result.dialog = dialogs[-1] if len(dialogs) == 1 else dialogs
    if watch is not None and watch.downloads:
        result.download = watch.downloads[-1] if len(watch.downloads) == 1 else watch.downloads
    if watch is not None and watch.new_tabs:
        result.new_tabs = watch.new_tabs
    result.state_change = state_change
    return result


_FATAL = ("TARGET_CLOSED", "TARGET_CRASHED", "CONNECTION_LOST", "SEQUENCE_TIMEOUT")
_SNAKE = {"stable": "stable", "stabilityWaitMs": "stability_wait_ms",
          "unstableReason": "unstable_reason", "pending": "pending"}


def _tab_gone(tab: Tab) -> bool:
    return tab.closed is not None or tab.crashed or tab.connection.closed


async def _bounded(wait: Any, budget: float, sequence_deadline: float) -> Any:
    """Run a settle-style wait within both its own timeout and the sequence's; a failure of the
    page under it (closed, navigating away) ends the wait rather than the act."""
    budget = min(budget, sequence_deadline - trio.current_time())
    if budget <= 0:
        return None
    try:
        with trio.move_on_after(budget + 1):
            return await wait(budget)
    except (CdpseqError, AgentError) as exc:
        log.info("settle wait ended early: %s", exc)
    return None


async def _watching(tab: Tab, agent: PageAgent, quiet: float, timers: bool,
                    task_status: trio.TaskStatus[Watch] = trio.TASK_STATUS_IGNORED) -> None:
    async with open_watch(tab, agent, quiet=quiet, timers=timers) as watch:
        task_status.started(watch)
        await trio.sleep_forever()


class _Outcome:
    __slots__ = ("attempts", "duration_ms", "error", "output")

    def __init__(self) -> None:
        self.attempts = 0
        self.duration_ms = 0.0
        self.error: StepFailure | None = None
        self.output: Any = None


async def _run_step(tab: Tab, agent: PageAgent, request: ActRequest,
                    index: int, step: Step, resolve_secret: Any, sequence_deadline: float,
                    watch: Watch | None) -> _Outcome:
    outcome = _Outcome()
    kind = step_type(step)
    tries = 1
    if step.on_error == "retry":
        tries += step.retries if step.retries is not None else _DEFAULT_RETRIES
    started = trio.current_time()
    timeout = (step.timeout_ms or request.per_step_timeout_ms) / 1000
    executor = EXECUTORS[type(step)]
    for attempt in range(tries):
        outcome.attempts = attempt + 1
        now = trio.current_time()
        deadline = min(now + timeout, sequence_deadline)
        context = StepContext(tab, agent, deadline, resolve_secret, watch,
                              request.return_mode)
        error: StepError | None = None
        try:
            tab.check_alive()
            with trio.fail_after(max(deadline - now, 0) + _GRACE), \
                    trio.CancelScope() as step_scope:
                if watch is not None:
                    watch.step_scope = step_scope
                output = await executor(context, step)
            if step_scope.cancelled_caught:  # a dialog left open paused the page mid-step
                output = {"dialogOpened": True}
            outcome.output = msgspec.to_builtins(output) if output is not None else None
            outcome.error = None
            break
        except trio.TooSlowError:
            error = StepError("STEP_TIMEOUT", f"{kind} did not finish within {timeout * 1000:.0f}"
                              " ms", retryable=True)
        except CdpseqError as exc:
            error = _step_error(exc, step)
        if trio.current_time() >= sequence_deadline and error.code != "TARGET_CLOSED":
            error = StepError("SEQUENCE_TIMEOUT", f"the whole act ran out of its "
                              f"{request.timeout_ms} ms before step {index} finished "
                              f"({error.message})")
        outcome.error = StepFailure(index=index, type=kind, code=error.code,  # type: ignore[arg-type]
                                      error=error.message, retryable=error.retryable)
        if error.code in (*_FATAL, "STALE_REF", "INVALID_REQUEST"):
            break
        if attempt + 1 < tries:
            backoff = min(_RETRY_BASE * 2 ** attempt, _RETRY_CAP)
            if trio.current_time() + backoff >= sequence_deadline:
                break
            await trio.sleep(backoff)
    outcome.duration_ms = round((trio.current_time() - started) * 1000, 1)
    return outcome


def _step_error(exc: CdpseqError, step: Step) -> StepError:
    """The failure of a step that raised ``exc``."""
    if isinstance(exc, StepError):
        return exc
    if isinstance(exc, AgentError):
        return StepError(exc.code, exc.reason, exc.retry)
    code = error_code(exc)
    if code is not None:  # the tab or the connection went away
        return StepError(code, str(exc))
    return StepError("NAVIGATION_FAILED" if is_action(step) else "STEP_TIMEOUT", str(exc),
                     retryable=True)


def _label(step: Step) -> dict[str, Any]:
    label = step_label(step)
    return {"label": label} if label is not None else {}


async def _guard_dialogs(tab: Tab, policy: str, seen: list[dict[str, Any]], watch: Watch | None,
                         task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """A JavaScript dialog pauses the page: every evaluate, and the click that opened it, would
    wait forever. Handle it per the request's ``dialog`` policy and report it."""
    async with tab.subscribe(page.JavascriptDialogOpening) as dialogs:
        task_status.started()
        async for dialog in dialogs:
            entry: dict[str, Any] = {"type": dialog.type, "message": dialog.message[:200]}
            if watch is not None:
                watch.dialog_opened(left_open=policy == "leave")
            if policy != "leave":
                accept = policy == "accept"
                try:
                    await tab.send(page.HandleJavaScriptDialog(accept=accept))
                    entry["handled"] = "accepted" if accept else "dismissed"
                except CdpseqError as exc:
                    entry["handled"] = f"failed: {exc}"
            else:
                entry["handled"] = "left open"
            seen.append(entry)


async def _tab_state(tab: Tab) -> TabState:
    if tab.closed is not None or tab.crashed or tab.connection.closed:
        return TabState(id=tab.id, url=tab.url, title="")
    try:
        with trio.move_on_after(2):
            info = await tab.info()
            return TabState(id=tab.id, url=info.url, title=info.title)
    except CdpseqError:
        pass
    return TabState(id=tab.id, url=tab.url, title="")
