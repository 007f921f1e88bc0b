"""The run of one act's steps on its tab: setup, each step in turn, finish, the result.

``StepSequence.run`` goes through four phases, each a method:

- ``_prepare``: a dialog already open (handled as the request's ``dialog`` says, else nothing
  runs) and the tab's device emulation.
- ``_setup``: the dialog guard, the settle watch (whose first round trip also takes the
  selector check of ``engine/preflight``) and the navigation guard, as tasks of one nursery.
- ``_step``: one step (``engine/attempt``), after the page settled from the previous action;
  its outcome recorded in its row. A failed step stops the sequence (``onError: "stop"``, the
  default when ``failFast``) or is ``skipped`` and the sequence goes on; a tab that closes,
  crashes or loses its connection ends it at once. A navigation the URL policy blocked fails
  the action that led to it, even one that had returned.
- ``_finish``: the settle after the last action, the delta, the tabs the steps opened; then
  ``_result`` assembles the ``ActResult``, each step with what it caused beyond the DOM
  (``engine/effects``: from its start to the next step's, the settle after it included).

Every command is bounded by the act's deadline; a backstop cuts off a page that stops answering
past it (a dialog left open, a script that never yields), with the results so far.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

import msgspec
import trio

from ..browser import Tab
from ..errors import CdpseqError, DialogOpen, InvalidRequest, PageUnresponsive
from ..page.agent import AgentError, PageAgent
from ..page.targets import Target
from ..page.view import PageView
from .attempt import FATAL, GRACE, Acting, Outcome, run_step
from .delta import DELTA_LIMIT, collect_state_change
from .dialogs import HANDLE_HINT, clear_before
from .dialogs import guard as guard_dialogs
from .effects import ActEffects, TabLog, cut
from .emulation import prepare_emulation
from .preflight import SelectorCheck
from .reports import DialogReport, StateChange
from .request import ActRequest, ReadPage, Step, WaitFor, is_action, step_type
from .result import ActResult, StepFailure, TabState, invalid_result, not_started, nothing_ran
from .settle_watch import DEFAULT_QUIET, NEW_TAB_WAIT, Watch, open_watch
from .steps.pointer import first_aim
from .url_guard import BlockedNavigation, NavigationGuard, guard_navigations

log = logging.getLogger("cdpseq.act")

# Least time the setup before step 0 (selectors, the watch) gets, whatever perStepTimeoutMs.
_SETUP_FLOOR = 5.0
# Least time the delta gets after the sequence ran out; a page that answers nothing (a hung
# renderer) gives no delta rather than holding the act.
_DELTA_FLOOR = 1.0
_LAST_LOOK = 0.1
"""Seconds the settle at the end still gets once the settles since the last action used up
their settleTimeoutMs: one probe, for a report of the page as it is now."""
_NO_ANSWER = "the page did not answer while settling (a script may be hung)"
_SNAKE = {"stable": "stable", "stabilityWaitMs": "stability_wait_ms",
          "unstableReason": "unstable_reason", "pending": "pending"}


class StepSequence:
    """One act's steps on one tab, from the first check on the page to the result."""

    def __init__(self, tab: Tab, request: ActRequest,
                 resolve_secret: Callable[[str], str]) -> None:
        now = trio.current_time()
        self.tab, self.request = tab, request
        self.acting = Acting(tab, request, resolve_secret, now + request.timeout_ms / 1000)
        # A hung renderer never answers: what runs before the first step waits no longer than
        # a step would (and never past the sequence), then the steps time out themselves.
        self.setup_deadline = min(self.acting.deadline, now + max(
            request.per_step_timeout_ms / 1000, _SETUP_FLOOR))
        self.steps = not_started(request)
        self.dialogs: list[dict[str, Any]] = []
        self.failed: StepFailure | None = None
        """The first failure, which the result's ``failed`` reports."""
        self.dialog_left_open = False
        self.acted = False
        self.last_action: int | None = None
        """The last action that ran: blamed for a navigation blocked after it returned."""
        self.last_page: PageView | msgspec.UnsetType = msgspec.UNSET
        self.report: dict[str, Any] = {}
        """The settle's report (stable, stabilityWaitMs, unstableReason, pending)."""
        self.state_change: StateChange | None = None
        self.seen: tuple[str, str] | None = None
        """(url, title) as the delta last saw them."""
        self.settle_timeout = request.settle_timeout_ms / 1000
        self.settle_spent = 0.0
        """Seconds the settles since the last action took: the settles before the steps after
        an action and the one at the end share one ``settle_timeout`` (a page that never settles
        costs it once, not once per step)."""
        self.effects = ActEffects()
        """What the steps cause beyond the DOM; the tab's log feeds it once the watch is on."""
        self.dialog_steps: list[int | None] = []
        """The step running when each dialog of the act opened."""

    @property
    def watch(self) -> Watch | None:
        """The settle watch of the act, while one is open."""
        return self.acting.watch

    async def run(self) -> ActResult:
        """Run the request's steps on the tab and answer its result (``_prepare`` refuses it
        with the one "nothing ran" result, or ``_setup`` / ``_step`` / ``_finish`` run it)."""
        refused = await self._prepare()
        if refused is not None:
            return refused
        # Every command below is bounded by the sequence's deadline; this is the backstop for
        # one that a page stops answering (a dialog left open, a script that never yields).
        logged = self.tab.extension(TabLog)
        try:
            with trio.move_on_at(self.acting.deadline + 2 * GRACE):
                async with trio.open_nursery() as nursery:
                    refused = await self._setup(nursery)
                    if refused is not None:
                        nursery.cancel_scope.cancel()
                        return refused
                    # After the setup: what Runtime and Log replayed when enabled is older.
                    logged.start_act(self.effects)
                    guard: NavigationGuard = await nursery.start(_guarding_navigations,
                                                                 self.tab)
                    for index, step in enumerate(self.request.steps):
                        if not await self._step(guard, index, step):
                            break
                    await self._finish(guard)
                    nursery.cancel_scope.cancel()
                return self._effects(await self._result())
            return self._effects(self._cut_short())  # the backstop cut the run off
        finally:
            logged.end_act()

    # -- setup ---------------------------------------------------------------------------------

    async def _prepare(self) -> ActResult | None:
        """A dialog open before the act, and the tab's device emulation; a refusal when the act
        cannot start."""
        tab, request = self.tab, self.request
        if tab.closed is not None or tab.crashed:
            return None
        try:
            found = await clear_before(tab, request.dialog, request.prompt_text)
        except (DialogOpen, PageUnresponsive) as exc:
            refused = nothing_ran(request, StepFailure(
                index=None, type=None, code=exc.code,  # type: ignore[arg-type]
                error=str(exc), retryable=False), tab=TabState(id=tab.id, url=tab.url, title=""))
            if isinstance(exc, DialogOpen) and exc.dialog:
                refused.dialog = _dialog_report([exc.dialog])
            return refused
        if found is not None:
            self.dialogs.append(found)
        with trio.move_on_at(self.setup_deadline):
            try:  # the tab's device emulation, before anything looks at the page
                await prepare_emulation(tab, request.emulate)
            except InvalidRequest as exc:
                return invalid_result(exc, request)
        return None

    async def _setup(self, nursery: trio.Nursery) -> ActResult | None:
        """The dialog guard and the settle watch, and the selector check; a refusal when the
        page's parser refuses a selector."""
        tab, request, agent = self.tab, self.request, self.acting.agent
        selectors = SelectorCheck(request)
        await nursery.start(guard_dialogs, tab, request.dialog, request.prompt_text,
                            self.dialogs, self._dialog_opened)
        try:
            tab.check_alive()
            quiet = (request.stability_ms if request.stability_ms is not None
                     else DEFAULT_QUIET * 1000) / 1000
            will_settle = request.settle or any(
                isinstance(step, WaitFor) and step.stable for step in request.steps)
            # Step 0's aim goes with the setup's commands, unless another step's selector could
            # make the page refuse the request (the aim scrolls and arms the interceptor).
            ahead = first_aim(request.steps[0]) if selectors.only_of_step(0) else None
            with trio.move_on_at(self.setup_deadline):
                self.acting.watch = await nursery.start(
                    _watching, tab, agent, quiet, will_settle, selectors.expression,
                    request.download_dir, ahead)
            if self.watch is not None:
                self.watch.effects = self.effects
            if self.watch is None:
                log.info("act on %s without a watch: the page did not answer", tab.id)
        except* (CdpseqError, AgentError) as failed_setup:  # open_watch's nursery groups them
            log.info("act on %s without a watch: %s", tab.id, failed_setup.exceptions[0])
        if selectors.expression is None:
            return None
        if self.watch is not None and self.watch.checked is not None:
            return selectors.refusal(self.watch.checked)
        with trio.move_on_at(self.setup_deadline):  # no watch, or the document changed under it
            return await selectors.ask(agent)
        return None

    def _dialog_opened(self, leave: bool) -> None:
        """The dialog guard's word that a dialog opened (``leave``: and was left open)."""
        self.dialog_left_open = self.dialog_left_open or leave
        self.dialog_steps.append(self.effects.step)
        if self.watch is not None:
            self.watch.dialog_opened(left_open=leave)

    # -- the steps -----------------------------------------------------------------------------

    async def _step(self, guard: NavigationGuard, index: int, step: Step) -> bool:
        """Run and record one step; whether the sequence goes on."""
        request, watch, record = self.request, self.watch, self.steps[index]
        self.acting.agent.input_at = None  # a step begins: an earlier input is not the last action
        if self.dialog_left_open:
            record.status = "error"
            record.error = self.failed = self.failed or StepFailure(
                index=index, type=step_type(step), code="DIALOG_OPEN",
                error=f"a JavaScript dialog was left open (dialog: leave) and pauses the "
                      f"page; {HANDLE_HINT}", retryable=False)
            return False
        if watch is not None and self.acted:  # the previous action's effects first
            # A wait for stable is this settle itself, within the step's own timeout.
            waits_stable = isinstance(step, WaitFor) and step.stable and step.when is None
            if (isinstance(step, WaitFor | ReadPage) or type(step).REPORTS
                    or step.when is not None) and request.settle and not waits_stable:
                await self._settle_share(watch.settle)
            elif is_action(step):
                await self._bounded(watch.wait_for_document,
                                    (step.timeout_ms or request.per_step_timeout_ms) / 1000)
        if self.last_action is not None and (blocked := guard.unreported()):
            self._blame_last_action(blocked)
            if self.steps[self.last_action].status == "error":
                return False
        self.effects.began(index)
        outcome = await run_step(self.acting, index, step)
        if outcome.skip_reason is not None:  # its if did not hold: it did not run
            record.status, record.url = "skipped", self.tab.url
            record.duration_ms, record.skip_reason = outcome.duration_ms, outcome.skip_reason
            return True
        # What a wait or read saw blocked is the last action's doing: blamed before the next
        # step, or at the end.
        if (is_action(step) or self.last_action is None) and (blocked := guard.unreported()):
            outcome.error = self._blocked(index, step, blocked)
        if is_action(step):
            self.acted, self.last_action = True, index
            if outcome.error is None:  # a failed action's effects share the earlier budget
                self.settle_spent = 0.0
        return self._record(index, step, outcome)

    def _record(self, index: int, step: Step, outcome: Outcome) -> bool:
        """Write a step's outcome into its row; whether the sequence goes on."""
        record = self.steps[index]
        record.duration_ms, record.url = outcome.duration_ms, self.tab.url
        if outcome.attempts > 1:
            record.attempts = outcome.attempts
        if outcome.error is None:
            record.status = "ok"
            if isinstance(step, ReadPage) and isinstance(outcome.raw, PageView):
                self.last_page = outcome.raw
            if ((self.request.return_mode != "final" or type(step).REPORTS)
                    and outcome.output is not None):
                record.output = outcome.output
            return True
        record.error = outcome.error
        self.failed = self.failed or outcome.error
        if self._on_error(step) == "skip" and outcome.error.code not in FATAL:
            record.status = "skipped"
            return True
        record.status = "error"
        return False

    def _on_error(self, step: Step) -> str:
        return step.on_error or ("stop" if self.request.fail_fast else "skip")

    def _blocked(self, index: int, step: Step, blocked: list[BlockedNavigation]
                 ) -> StepFailure:
        return StepFailure(index=index, type=step_type(step), code="URL_BLOCKED",
                           error="; ".join(b.describe(self.tab.url) for b in blocked),
                           retryable=False)

    def _blame_last_action(self, blocked: list[BlockedNavigation]) -> None:
        """Mark the last action, which already returned, as failed by the navigation it led
        to: ``error`` (the sequence stops) or ``skipped``, as its ``onError`` says."""
        assert self.last_action is not None
        record = self.steps[self.last_action]
        step = self.request.steps[record.index]
        record.error = failure = self._blocked(record.index, step, blocked)
        record.status = "skipped" if self._on_error(step) == "skip" else "error"
        self.failed = self.failed or failure

    # -- finish --------------------------------------------------------------------------------

    async def _finish(self, guard: NavigationGuard) -> None:
        """The settle after the last action and the delta; late blocked navigations; the tabs
        the steps opened."""
        tab, watch, deadline = self.tab, self.watch, self.acting.deadline
        if watch is not None and not _tab_gone(tab) and not watch.dialog_left_open:
            if self.request.settle and self.acted:
                self.report = await self._settle_share(
                    partial(watch.settle, delta=DELTA_LIMIT),
                    max(deadline, trio.current_time() + 0.5),
                    floor=min(_LAST_LOOK, self.settle_timeout)) or {}
                if not self.report and self.settle_timeout > 0 and not _tab_gone(tab):
                    self.report = {"stable": False, "unstableReason": _NO_ANSWER}
                elif watch.downloads:  # within what is left of the settle's budget
                    await self._bounded(watch.downloads_finished,
                                        self.settle_timeout - self.settle_spent)
            # A page that did not answer the settle will not answer the delta either.
            if not _tab_gone(tab) and self.report.get("unstableReason") != _NO_ANSWER:
                with trio.move_on_at(max(deadline, trio.current_time() + _DELTA_FLOOR)):
                    self.state_change, self.seen = await collect_state_change(
                        tab, self.acting.agent, watch)
        elif watch is not None and watch.dialog_left_open:
            self.report = await self._bounded(watch.settle, 0.1, trio.current_time() + 1) or {}
        if watch is not None and watch.new_tabs:
            await watch.new_tabs_known(min(NEW_TAB_WAIT, max(
                deadline - trio.current_time(), 0)))
            # The navigation guard judges the same new tabs from the same browser events, in a
            # task of its own: its turn before its word is read (else a popup to a blocked host
            # that the settle saw first was reported as an ordinary new tab).
            await trio.lowlevel.checkpoint()
        if self.last_action is not None and (blocked := guard.unreported()):
            self._blame_last_action(blocked)

    async def _result(self) -> ActResult:
        steps, watch, tab = self.steps, self.watch, self.tab
        completed = sum(1 for r in steps if r.status == "ok")
        passed = completed + sum(1 for r in steps if r.skip_reason)  # skipped by their if
        result = ActResult(ok=passed == len(steps), completed=completed, total=len(steps),
                           failed=self.failed, steps=steps,
                           tab=TabState(id=tab.id, url=self.seen[0], title=self.seen[1])
                           if self.seen else await _tab_state(tab))
        if not isinstance(self.last_page, msgspec.UnsetType):
            result.page = self.last_page
        for key, value in self.report.items():
            setattr(result, _SNAKE[key], value)
        if self.dialogs:
            result.dialog = _dialog_report(self.dialogs)
        if watch is not None and watch.downloads:
            result.download = (watch.downloads[-1] if len(watch.downloads) == 1
                               else watch.downloads)
        if watch is not None and watch.new_tabs:
            result.new_tabs = watch.new_tabs
        result.state_change = self.state_change
        return result

    def _cut_short(self) -> ActResult:
        """The result of an act whose page stopped answering past every bound: the first
        failure stands; when no step had failed, the first that did not finish is cut off."""
        steps = self.steps
        earlier = [r.error for r in steps if r.status in ("error", "skipped")]
        failure = next((e for e in earlier if isinstance(e, StepFailure)), None)
        if failure is None:
            index = next((r.index for r in steps if r.status == "not_started"), None)
            failure = StepFailure(index=index,
                                  type=steps[index].type if index is not None else None,
                                  code="SEQUENCE_TIMEOUT", retryable=True,
                                  error=f"the page stopped answering; the act was cut off "
                                        f"after its {self.request.timeout_ms} ms")
            if index is not None:
                steps[index].status, steps[index].error = "error", failure
        completed = sum(1 for r in steps if r.status == "ok")
        result = ActResult(ok=False, completed=completed, total=len(steps), failed=failure,
                           steps=steps, tab=TabState(id=self.tab.id, url=self.tab.url, title=""),
                           state_change=None)  # what a page that stopped answering did is unknown
        if self.dialogs:
            result.dialog = _dialog_report(self.dialogs)
        return result

    def _effects(self, result: ActResult) -> ActResult:
        """Each step's row with what it caused beyond the DOM (the dialogs attributed now:
        the guard reports them as they are handled)."""
        opened_before = len(self.dialogs) - len(self.dialog_steps)
        for step, dialog in zip(self.dialog_steps, self.dialogs[opened_before:], strict=False):
            self.effects.add(step, "dialogs", cut(f"{dialog['type']}: {dialog['message']}", 80))
        for record in result.steps:
            caused = self.effects.of(record.index)
            if caused is not None:
                record.effects = caused
        return result

    async def _settle_share(self, settle: Any, deadline: float | None = None,
                            floor: float = 0.0) -> Any:
        """A settle after the last action within what the settles since it left of their one
        ``settle_timeout`` (at least ``floor`` seconds), and the sequence's timeout."""
        started = trio.current_time()
        try:
            return await self._bounded(
                settle, max(self.settle_timeout - self.settle_spent, floor), deadline)
        finally:
            self.settle_spent += trio.current_time() - started

    async def _bounded(self, wait: Any, budget: float, deadline: float | None = None) -> Any:
        """Run a settle-style wait within both its own timeout and the sequence's (or
        ``deadline``); a failure of the page under it (closed, navigating away) ends the wait
        rather than the act."""
        budget = min(budget, (self.acting.deadline if deadline is None else deadline)
                     - trio.current_time())
        if budget <= 0:
            return None
        try:
            with trio.move_on_after(budget + 1):
                return await wait(budget)
        except (CdpseqError, AgentError) as exc:
            log.info("settle wait ended early: %s", exc)
        return None


def _dialog_report(dialogs: list[dict[str, Any]]) -> DialogReport | list[DialogReport]:
    """The result's ``dialog``: the one dialog met, or the list of them."""
    typed = [msgspec.convert(dialog, DialogReport) for dialog in dialogs]
    return typed[0] if len(typed) == 1 else typed


def _tab_gone(tab: Tab) -> bool:
    return tab.closed is not None or tab.crashed or tab.connection.closed


async def _tab_state(tab: Tab) -> TabState:
    if _tab_gone(tab):
        return TabState(id=tab.id, url=tab.url, title="")
    try:
        with trio.move_on_after(2):
            info = await tab.info()
            return TabState(id=tab.id, url=info.url, title=info.title)
    except CdpseqError:
        pass
    return TabState(id=tab.id, url=tab.url, title="")


async def _watching(tab: Tab, agent: PageAgent, quiet: float, timers: bool, check: str | None,
                    downloads: str | None, ahead: tuple[Target, dict[str, Any]] | None,
                    task_status: trio.TaskStatus[Watch] = trio.TASK_STATUS_IGNORED) -> None:
    async with open_watch(tab, agent, quiet=quiet, timers=timers, check=check,
                          downloads=downloads, ahead=ahead) as watch:
        task_status.started(watch)
        await trio.sleep_forever()


async def _guarding_navigations(tab: Tab, task_status: trio.TaskStatus[NavigationGuard]
                                = trio.TASK_STATUS_IGNORED) -> None:
    async with guard_navigations(tab, tab.browser.policy) as guard:
        task_status.started(guard)
        await trio.sleep_forever()
