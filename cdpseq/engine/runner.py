"""act: run a validated step sequence on one tab and say what happened to each step.

The request is validated whole before anything runs. Each step then runs under two bounds: its
own timeout (``timeoutMs`` or ``perStepTimeoutMs``) and what is left of the whole call
(``timeoutMs`` of the request). A step that fails is retried when its ``onError`` is ``retry``
(with backoff), then either stops the sequence (``stop``, the default when ``failFast``) or is
marked ``skipped`` and the sequence goes on (``skip``, the default otherwise). A tab that closes,
crashes, or loses its connection ends the sequence at once. Credential values are resolved only
when their fill runs and are scrubbed from everything the result carries.

``act`` and ``read_page`` take the tab's turn: one of them at a time per tab (in this process).
Both are bounded as a whole: a page that stops answering mid-call (a dialog, a busy script) ends
the call with the results so far, never a hang.
"""

from __future__ import annotations

import json
import logging
import typing
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, Literal

import msgspec
import trio

from ..browser import Tab
from ..errors import CdpseqError, DialogOpen, InvalidRequest, PageUnresponsive
from ..page.agent import AgentError, PageAgent
from ..page.frames import agent_for
from ..page.read import Compression, read_view
from ..page.view import PageView, ReadFilter, ReadOptions
from .delta import DELTA_LIMIT, collect_state_change
from .dialogs import HANDLE_HINT, clear_before, refuse_if_paused
from .dialogs import guard as guard_dialogs
from .emulation import prepare_emulation
from .preconditions import check_precondition
from .reports import DialogReport, StateChange
from .request import (
    ActRequest,
    Fill,
    Navigate,
    ReadPage,
    Reload,
    Step,
    WaitFor,
    is_action,
    step_label,
    step_type,
)
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
from .steps.context import target_of
from .steps.files import check_upload_files
from .steps.observation import read_options
from .steps.script import refused_evaluation
from .url_guard import BlockedNavigation, NavigationGuard, guard_navigations
from .validate import parse_request, show_value

log = logging.getLogger("cdpseq.act")

READ_TIMEOUT = 30.0
"""Seconds a read_page gets before the page counts as not answering."""
_RETRY_BASE = 0.1
_RETRY_CAP = 1.0
_DEFAULT_RETRIES = 2
# Time a step gets beyond its own deadline to report why it failed, before it is cut off.
_GRACE = 1.0
# Least time the setup before step 0 (selectors, the watch) gets, whatever perStepTimeoutMs.
_SETUP_FLOOR = 5.0
# Least time the delta gets after the sequence ran out; a page that answers nothing (a hung
# renderer) gives no delta rather than holding the act.
_DELTA_FLOOR = 1.0


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
                    compression: Literal["none", "delta"] = "none", *,
                    answer_timeout: float = READ_TIMEOUT, target: str | None = None,
                    selector: str | None = None, roles: Sequence[str] | None = None,
                    viewport_only: bool = False, max_elements: int | None = None,
                    include_bounds: bool = False) -> PageView:
    """The page as a compact view in which every interactive element carries a ref, remembered
    as the tab's latest read (the baseline of a later ``compression="delta"`` read).

    Raises ``DialogOpen`` when a JavaScript dialog pauses the page (reads never handle one),
    ``PageUnresponsive`` when the page does not answer within ``answer_timeout`` seconds, and
    ``InvalidRequest`` naming ``filter`` or ``compression`` for a value they do not take.

    The options are the read_page step's (``read_options``): ``target`` (a ref) or
    ``selector`` reads one element's subtree, ``roles`` only those roles, ``viewport_only`` only
    what intersects the viewport — a narrowed read, which is not the baseline of a later delta
    read and cannot be one; ``max_elements`` caps the elements (``omitted`` says how many went),
    ``include_bounds`` adds each element's box. A bad option raises ``InvalidRequest`` naming
    it (camelCase, as in the step)."""
    for name, value, choices in (("filter", filter, _READ_FILTERS),
                                 ("compression", compression, _COMPRESSIONS)):
        if not isinstance(value, str) or value not in choices:
            raise InvalidRequest(name, f"invalid value {show_value(value)} (expected one of "
                                       f"{', '.join(choices)})")
    options = _read_options(filter, compression, target, selector, roles, viewport_only,
                            max_elements, include_bounds)
    async with tab.extension(_Turn).lock:
        tab.check_alive()
        await refuse_if_paused(tab)
        try:
            with trio.fail_after(answer_timeout):
                await prepare_emulation(tab, None)
                return await read_view(tab.extension(PageAgent), filter, compression, options)
        except trio.TooSlowError:
            await refuse_if_paused(tab)  # a dialog that opened during the read says so
            raise PageUnresponsive(tab.id, f"the page did not answer the read within "
                                           f"{answer_timeout:g} s (a busy script)") from None


def _read_options(filter: str, compression: str, target: str | None, selector: str | None,
                  roles: Sequence[str] | None, viewport_only: bool, max_elements: int | None,
                  include_bounds: bool) -> ReadOptions | None:
    """The read options of ``read_page``, validated as the read_page step's."""
    given = {"target": target, "selector": selector,
             "roles": list(roles) if roles is not None and not isinstance(roles, str) else roles,
             "viewportOnly": viewport_only or None, "maxElements": max_elements,
             "includeBounds": include_bounds or None}
    step = {"type": "read_page", "filter": filter, "compression": compression,
            **{name: value for name, value in given.items() if value is not None}}
    try:
        parsed = parse_request([step]).steps[0]
    except InvalidRequest as exc:
        raise InvalidRequest(exc.field.removeprefix("steps[0]."), exc.reason) from None
    assert isinstance(parsed, ReadPage)
    return read_options(parsed)


async def act(tab: Tab,
              request: ActRequest | Sequence[Step | Mapping[str, Any]] | Mapping[str, Any]
              | str | bytes,
              *, secrets: Mapping[str, str] | None = None) -> ActResult:
    """Run ``request`` (an ActRequest, its JSON, a dict, or a bare list of steps — Structs
    such as ``Click(target="ref_1")`` or dicts) on ``tab``.

    Never raises for a bad request or a misbehaving page: an invalid request answers a result
    whose ``failed.code`` is ``INVALID_REQUEST`` (nothing ran), and every failure of a step is
    in the result. ``secrets`` maps ``credentialRef`` names to values (else
    ``$CDPSEQ_SECRET_<NAME>``)."""
    known = Secrets(secrets)
    try:
        parsed = parse_request(request)
        _check_credentials(parsed, known)
        check_upload_files(parsed)
        if parsed.tab_id is not None and parsed.tab_id != tab.id:
            raise InvalidRequest("tabId", f"names tab {show_value(parsed.tab_id)}, but act was "
                                          f"given tab {tab.id!r}",
                                 total_steps=len(parsed.steps))
    except InvalidRequest as exc:
        return invalid_result(exc)
    if (refused := _refused_navigation(parsed, tab)) is not None:
        return refused
    if (refused := refused_evaluation(parsed, tab.browser.allow_evaluate)) is not None:
        return refused
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


def _refused_navigation(request: ActRequest, tab: Tab) -> ActResult | None:
    """The result of a request with a navigate step the URL policy refuses: like an invalid
    one, nothing of it runs (``URL_BLOCKED``, naming the step)."""
    for index, step in enumerate(request.steps):
        if isinstance(step, Navigate) and (reason := tab.browser.policy.check(step.url)):
            return ActResult(ok=False, completed=0, total=len(request.steps), steps=[], tab=None,
                             failed=StepFailure(index=index, type="navigate", code="URL_BLOCKED",
                                                error=f"steps[{index}].url: {step.url} is "
                                                      f"blocked: {reason}; nothing ran",
                                                retryable=False))
    return None


def _selectors_given(request: ActRequest) -> list[tuple[int, str, str]]:
    """(step index, selector, field) of every selector of the request."""
    given: list[tuple[int, str, str]] = [
        (i, selector, "selector") for i, step in enumerate(request.steps)
        if (selector := getattr(step, "selector", None)) is not None]
    given += [(i, step.when.selector, "if.selector") for i, step in enumerate(request.steps)
              if step.when is not None and step.when.selector is not None]
    return given


def _selectors_check(given: list[tuple[int, str, str]]) -> str | None:
    """The agent's expression that checks the selectors with the page's own parser."""
    if not given:
        return None
    return f"__cdpseq.checkSelectors({json.dumps([selector for _, selector, _ in given])})"


def _selector_problem(request: ActRequest, given: list[tuple[int, str, str]],
                      problems: list[str | None]) -> InvalidRequest | None:
    """The first selector of the request that the page's own parser refuses, as the request's
    error: selectors are part of the request, checked before step 0."""
    for (index, selector, field), problem in zip(given, problems, strict=True):
        if problem is not None:
            return InvalidRequest(f"steps[{index}].{field}",
                                  f"invalid selector {selector!r}: {problem}", index=index,
                                  step_type=step_type(request.steps[index]),
                                  total_steps=len(request.steps))
    return None


async def _check_selectors(agent: PageAgent, request: ActRequest) -> InvalidRequest | None:
    """``_selector_problem`` in a round trip of its own (when no watch took the check along)."""
    given = _selectors_given(request)
    expression = _selectors_check(given)
    if expression is None:
        return None
    try:
        problems = await agent.evaluate(expression)
    except (CdpseqError, AgentError) as exc:  # the page is going away: the steps will say so
        log.info("selectors not checked before the run: %s", exc)
        return None
    return _selector_problem(request, given, problems)


async def _run(tab: Tab, request: ActRequest, resolve_secret: Any) -> ActResult:
    agent = tab.extension(PageAgent)
    sequence_deadline = trio.current_time() + request.timeout_ms / 1000
    # A hung renderer never answers: what runs before the first step waits no longer than a
    # step would (and never past the sequence), then the steps run and time out themselves.
    setup_deadline = min(sequence_deadline, trio.current_time() + max(
        request.per_step_timeout_ms / 1000, _SETUP_FLOOR))
    steps = [StepResult(index=i, type=step_type(step), status="not_started",
                          duration_ms=0.0, url="", **_label(step))
             for i, step in enumerate(request.steps)]
    dialogs: list[dict[str, Any]] = []
    if tab.closed is None and not tab.crashed:
        try:
            found = await clear_before(tab, request.dialog, request.prompt_text)
        except (DialogOpen, PageUnresponsive) as exc:
            return ActResult(ok=False, completed=0, total=len(steps), steps=steps,
                             failed=StepFailure(index=None, type=None, code=exc.code,  # type: ignore[arg-type]
                                                error=str(exc), retryable=False),
                             tab=TabState(id=tab.id, url=tab.url, title=""),
                             dialog=_dialog_report([exc.dialog])
                             if isinstance(exc, DialogOpen) and exc.dialog else msgspec.UNSET)
        if found is not None:
            dialogs.append(found)
        with trio.move_on_at(setup_deadline):
            try:  # the tab's device emulation, before anything looks at the page
                await prepare_emulation(tab, request.emulate)
            except InvalidRequest as exc:
                return invalid_result(exc)
    # Every command below is bounded by the sequence's deadline; this is the backstop for one
    # that a page stops answering (a dialog left open, a script that never yields).
    with trio.move_on_at(sequence_deadline + 2 * _GRACE) as backstop:
        result = await _run_steps(tab, agent, request, resolve_secret, steps, dialogs,
                                  sequence_deadline, setup_deadline)
    if backstop.cancelled_caught:
        return _cut_short(tab, request, steps, dialogs)
    return result


def _cut_short(tab: Tab, request: ActRequest, steps: list[StepResult],
               dialogs: list[dict[str, Any]]) -> ActResult:
    """The result of an act whose page stopped answering past every bound: the first failure
    stands; when no step had failed, the first that did not finish is cut off."""
    earlier = [r.error for r in steps if r.status in ("error", "skipped")]
    failure = next((e for e in earlier if isinstance(e, StepFailure)), None)
    if failure is None:
        index = next((r.index for r in steps if r.status == "not_started"), None)
        failure = StepFailure(index=index,
                              type=steps[index].type if index is not None else None,
                              code="SEQUENCE_TIMEOUT", retryable=True,
                              error=f"the page stopped answering; the act was cut off after "
                                    f"its {request.timeout_ms} ms")
        if index is not None:
            steps[index].status, steps[index].error = "error", failure
    completed = sum(1 for r in steps if r.status == "ok")
    result = ActResult(ok=False, completed=completed, total=len(steps), failed=failure,
                       steps=steps, tab=TabState(id=tab.id, url=tab.url, title=""),
                       state_change=None)  # what a page that stopped answering did is unknown
    if dialogs:
        result.dialog = _dialog_report(dialogs)
    return result


async def _run_steps(tab: Tab, agent: PageAgent, request: ActRequest, resolve_secret: Any,
                     steps: list[StepResult], dialogs: list[dict[str, Any]],
                     sequence_deadline: float, setup_deadline: float) -> ActResult:
    failed: StepFailure | None = None
    last_page: PageView | msgspec.UnsetType = msgspec.UNSET
    report: dict[str, Any] = {}
    state_change: StateChange | None = None
    seen: tuple[str, str] | None = None  # (url, title) as the delta last saw them
    quiet = (request.stability_ms if request.stability_ms is not None
             else DEFAULT_QUIET * 1000) / 1000
    settle_timeout = request.settle_timeout_ms / 1000

    # Selectors are checked by the page's own parser before step 0, in the watch's round trip.
    selectors = _selectors_given(request)
    check = _selectors_check(selectors)

    async with trio.open_nursery() as nursery:
        watch: Watch | None = None
        left_open = False

        def dialog_opened(leave: bool) -> None:
            nonlocal left_open
            left_open = left_open or leave
            if watch is not None:
                watch.dialog_opened(left_open=leave)

        await nursery.start(guard_dialogs, tab, request.dialog, request.prompt_text, dialogs,
                            dialog_opened)
        try:
            tab.check_alive()
            will_settle = request.settle or any(
                isinstance(step, WaitFor) and step.stable for step in request.steps)
            with trio.move_on_at(setup_deadline):
                watch = await nursery.start(_watching, tab, agent, quiet, will_settle, check)
            if watch is None:
                log.info("act on %s without a watch: the page did not answer", tab.id)
        except* (CdpseqError, AgentError) as failed_setup:  # open_watch's nursery groups them
            log.info("act on %s without a watch: %s", tab.id, failed_setup.exceptions[0])
        if check is not None:
            invalid: InvalidRequest | None = None
            if watch is not None and watch.checked is not None:
                invalid = _selector_problem(request, selectors, watch.checked)
            else:  # no watch, or the document changed under it: in a round trip of its own
                with trio.move_on_at(setup_deadline):
                    invalid = await _check_selectors(agent, request)
            if invalid is not None:
                nursery.cancel_scope.cancel()
                return invalid_result(invalid)
        guard: NavigationGuard = await nursery.start(_guarding_navigations, tab)
        acted = False
        last_action: int | None = None  # blamed for a navigation blocked after it returned
        for index, step in enumerate(request.steps):
            if left_open:
                steps[index].status = "error"
                steps[index].error = failed = failed or StepFailure(
                    index=index, type=step_type(step), code="DIALOG_OPEN",
                    error=f"a JavaScript dialog was left open (dialog: leave) and pauses the "
                          f"page; {HANDLE_HINT}", retryable=False)
                break
            if watch is not None and acted:
                if (isinstance(step, WaitFor | ReadPage) or type(step).REPORTS
                        or step.when is not None) and request.settle:
                    await _bounded(watch.settle, settle_timeout, sequence_deadline)
                elif is_action(step):
                    await _bounded(watch.wait_for_document,
                                   (step.timeout_ms or request.per_step_timeout_ms) / 1000,
                                   sequence_deadline)
            if last_action is not None and (blocked := guard.unreported()):
                blamed = _blame(steps[last_action], request, blocked, tab)
                failed = failed or blamed
                if steps[last_action].status == "error":
                    break
            outcome = await _run_step(tab, agent, request, index, step, resolve_secret,
                                      sequence_deadline, watch)
            if outcome.skip_reason is not None:  # its if did not hold: it did not run
                steps[index].status, steps[index].url = "skipped", tab.url
                steps[index].duration_ms = outcome.duration_ms
                steps[index].skip_reason = outcome.skip_reason
                continue
            # What a wait or read saw blocked is the last action's doing: blamed before the next
            # step, or at the end.
            if (is_action(step) or last_action is None) and (blocked := guard.unreported()):
                outcome.error = _blocked_failure(index, step, blocked, tab)
            acted = acted or is_action(step)
            last_action = index if is_action(step) else last_action
            record = steps[index]
            record.duration_ms = outcome.duration_ms
            record.url = tab.url
            if outcome.attempts > 1:
                record.attempts = outcome.attempts
            if outcome.error is None:
                record.status = "ok"
                if isinstance(step, ReadPage) and isinstance(outcome.raw, PageView):
                    last_page = outcome.raw
                if ((request.return_mode != "final" or type(step).REPORTS)
                        and outcome.output is not None):
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
                report = await _bounded(partial(watch.settle, delta=DELTA_LIMIT), settle_timeout,
                                        max(sequence_deadline, trio.current_time() + 0.5)) or {}
                if not report and settle_timeout > 0 and not _tab_gone(tab):
                    report = {"stable": False, "unstableReason": _NO_ANSWER}
            # A page that did not answer the settle will not answer the delta either.
            if not _tab_gone(tab) and report.get("unstableReason") != _NO_ANSWER:
                with trio.move_on_at(max(sequence_deadline,
                                         trio.current_time() + _DELTA_FLOOR)):
                    state_change, seen = await collect_state_change(tab, agent, watch)
        elif watch is not None and watch.dialog_left_open:
            report = await _bounded(watch.settle, 0.1, trio.current_time() + 1) or {}
        if last_action is not None and (blocked := guard.unreported()):
            blamed = _blame(steps[last_action], request, blocked, tab)
            failed = failed or blamed
        if watch is not None and watch.new_tabs:
            await watch.new_tabs_known(min(NEW_TAB_WAIT, max(
                sequence_deadline - trio.current_time(), 0)))
        nursery.cancel_scope.cancel()

    completed = sum(1 for r in steps if r.status == "ok")
    passed = completed + sum(1 for r in steps if r.skip_reason)  # skipped by their if
    result = ActResult(ok=passed == len(steps), completed=completed, total=len(steps),
                         failed=failed, steps=steps,
                         tab=TabState(id=tab.id, url=seen[0], title=seen[1]) if seen
                         else await _tab_state(tab))
    if not isinstance(last_page, msgspec.UnsetType):
        result.page = last_page
    for key, value in report.items():
        setattr(result, _SNAKE[key], value)
    if dialogs:
        result.dialog = _dialog_report(dialogs)
    if watch is not None and watch.downloads:
        result.download = watch.downloads[-1] if len(watch.downloads) == 1 else watch.downloads
    if watch is not None and watch.new_tabs:
        result.new_tabs = watch.new_tabs
    result.state_change = state_change
    return result


_NO_ANSWER = "the page did not answer while settling (a script may be hung)"
_FATAL = ("TARGET_CLOSED", "TARGET_CRASHED", "CONNECTION_LOST", "SEQUENCE_TIMEOUT")
_SNAKE = {"stable": "stable", "stabilityWaitMs": "stability_wait_ms",
          "unstableReason": "unstable_reason", "pending": "pending"}


def _dialog_report(dialogs: list[dict[str, Any]]) -> DialogReport | list[DialogReport]:
    """The result's ``dialog``: the one dialog met, or the list of them."""
    typed = [msgspec.convert(dialog, DialogReport) for dialog in dialogs]
    return typed[0] if len(typed) == 1 else typed


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


async def _guarding_navigations(tab: Tab, task_status: trio.TaskStatus[NavigationGuard]
                                = trio.TASK_STATUS_IGNORED) -> None:
    async with guard_navigations(tab, tab.browser.policy) as guard:
        task_status.started(guard)
        await trio.sleep_forever()


def _blocked_failure(index: int, step: Step, blocked: list[BlockedNavigation],
                     tab: Tab) -> StepFailure:
    return StepFailure(index=index, type=step_type(step), code="URL_BLOCKED",
                       error="; ".join(b.describe(tab.url) for b in blocked), retryable=False)


def _blame(record: StepResult, request: ActRequest, blocked: list[BlockedNavigation],
           tab: Tab) -> StepFailure:
    """Mark an action that already returned as failed by the navigation it led to: ``error``
    (the sequence stops) or ``skipped``, as its ``onError`` says."""
    step = request.steps[record.index]
    record.error = failure = _blocked_failure(record.index, step, blocked, tab)
    on_error = step.on_error or ("stop" if request.fail_fast else "skip")
    record.status = "skipped" if on_error == "skip" else "error"
    return failure


async def _watching(tab: Tab, agent: PageAgent, quiet: float, timers: bool, check: str | None,
                    task_status: trio.TaskStatus[Watch] = trio.TASK_STATUS_IGNORED) -> None:
    async with open_watch(tab, agent, quiet=quiet, timers=timers, check=check) as watch:
        task_status.started(watch)
        await trio.sleep_forever()


class _Outcome:
    __slots__ = ("attempts", "duration_ms", "error", "output", "raw", "skip_reason")

    def __init__(self) -> None:
        self.attempts = 0
        self.duration_ms = 0.0
        self.error: StepFailure | None = None
        self.output: Any = None
        self.skip_reason: str | None = None
        self.raw: Any = None
        """What the executor returned, before ``output`` made it plain data."""


async def _run_step(tab: Tab, agent: PageAgent, request: ActRequest,
                    index: int, step: Step, resolve_secret: Any, sequence_deadline: float,
                    watch: Watch | None) -> _Outcome:
    outcome = _Outcome()
    kind = step_type(step)
    tries = 1
    if step.on_error == "retry":
        tries += step.retries if step.retries is not None else _DEFAULT_RETRIES
    started = trio.current_time()
    if step.when is not None:
        outcome.skip_reason, outcome.error = await check_precondition(
            agent, step, index, sequence_deadline)
        if outcome.skip_reason is not None or outcome.error is not None:
            outcome.duration_ms = round((trio.current_time() - started) * 1000, 1)
            return outcome
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
            if not (tab.crashed and isinstance(step, Navigate | Reload)):
                tab.check_alive()  # a crashed tab is revived by loading a page: a new renderer
            with trio.fail_after(max(deadline - now, 0) + _GRACE), \
                    trio.CancelScope() as step_scope:
                if watch is not None:
                    watch.step_scope = step_scope
                context.agent = await agent_for(agent, target_of(step))  # a frame's ref?
                output = await executor(context, step)
            if step_scope.cancelled_caught:  # a dialog left open paused the page mid-step
                output = {"dialogOpened": True}
            outcome.raw = output
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
        if error.code in (*_FATAL, "STALE_REF", "INVALID_REQUEST", "URL_BLOCKED"):
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
