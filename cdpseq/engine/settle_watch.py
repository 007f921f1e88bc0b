"""The trio shell around the settle decision: watch one tab for the length of an act.

``open_watch(tab, ...)`` enables the Network domain on the tab (once), auto-attaches
out-of-process iframes so their network counts too, arms the in-page mutation recorder and the
timer watch, and runs one task that pumps CDP events into ``SettleState``. ``Watch.settle()``
then alternates between waiting for those events (while the network or a navigation blocks) and
asking the page, in one awaited call, to report once it is provably idle (no change across two
animation frames after the last one) or its DOM has been quiet for the window. The watch also
collects what the act should report: dialogs, and (``settle_opened``) downloads and tabs the
page opened.

A step may take the tab to a new document mid-act. The new document is watched as the first
was: network events are the tab's whatever the document, the agent (and its mutation tracking)
is installed in it on first use, and the timer watch is registered to run in every document the
act commits before the page's own scripts (``Page.addScriptToEvaluateOnNewDocument``, removed
when the act ends), so a timer the new page sets while loading — a render, a redirect by
``location.href`` — keeps the act from settling before it fires.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import msgspec
import trio

from ..browser import Tab
from ..cdp import page, runtime
from ..errors import CdpseqError
from ..page.agent import AgentError, PageAgent
from ..page.answers import Delta, PageState, Settling
from ..page.answers import decode as decode_answer
from ..page.frames import arm_frames, frames_quiet
from ..page.script import (
    timers_after_frames,
    timers_due,
    timers_key,
    timers_reset,
    timers_script,
)
from ..page.targets import Target
from ..wire.connection import ANY_SESSION, RawEvent
from ..wire.events import (
    AttachedToTarget,
    DetachedFromTarget,
    FrameEvent,
    FrameNavigated,
    FrameStartedNavigating,
    LifecycleEvent,
    RequestEnded,
    RequestWillBeSent,
    ResponseReceived,
)
from ..wire.protocol import Command
from .reports import PendingRequest
from .settle_decision import SettleState
from .settle_opened import NEW_TAB_WAIT as NEW_TAB_WAIT  # where the act's sequence finds it
from .settle_opened import Opened
from .tab_network import enable_frame_network, enable_watching, unregister_script

log = logging.getLogger("cdpseq.settle")

STALL_CAP = 2.0
DEFAULT_QUIET = 0.1
_PROBE_SLICE = 0.25
_DRAIN_ROUNDS = 50

_WATCHED = (
    "Network.requestWillBeSent", "Network.responseReceived", "Network.loadingFinished",
    "Network.loadingFailed", "Network.requestServedFromCache", "Network.dataReceived",
    "Page.frameStartedNavigating",
    "Page.frameNavigated", "Page.lifecycleEvent", "Page.frameDetached",
    "Page.frameStoppedLoading", "Target.attachedToTarget", "Target.detachedFromTarget",
)
_BROWSER_WATCHED = ("Target.targetCreated", "Target.targetInfoChanged",
                    "Browser.downloadWillBegin", "Browser.downloadProgress")


_SAME_DOCUMENT = ("sameDocument", "historySameDocument")


def _due(value: Any) -> float | None:
    """Seconds until the last counted timer falls due, from the timer watch's answer in ms
    (-1: none); None when none is pending or the watch did not answer."""
    return float(value) / 1000 if isinstance(value, int | float) and value >= 0 else None


class Watch(Opened):
    """One tab watched for the length of an act: CDP events fed into a ``SettleState`` (and the
    browser's, of what the page opened, into ``Opened``)."""

    def __init__(self, tab: Tab, agent: PageAgent, quiet: float) -> None:
        super().__init__(tab)
        self.agent = agent
        self.quiet = quiet
        now = trio.current_time()
        self.state = SettleState(quiet=quiet, stall_cap=STALL_CAP, deadline=now, now=now)
        self.cross_document = False
        self.dialog_left_open = False
        self.arm_state = PageState()
        self.timers_key = timers_key(tab.id)
        """What this tab's timer watch answers to."""
        self.timers_script: str | None = None
        """The identifier of the timer watch registered for new documents, while it is."""
        self.probe_delta: Delta | None = None
        self.settled_delta: Delta | None = None
        """The delta the probe that ended the last settle answered (``settle(delta=...)``)."""
        self.checked: Any = None
        """The value of the expression ``arm`` was asked to check, when it answered."""
        self.step_scope: trio.CancelScope | None = None
        self._backlog: Callable[[], int] | None = None
        """How many events wait in the pump's buffer, not yet fed to the state."""

    # -- events ------------------------------------------------------------------------------

    def _download_began(self) -> None:
        self.state.download_began()  # maybe a navigation that became a download

    def _poke(self) -> None:
        self.changed.set()
        self.changed = trio.Event()

    def _ours(self, session_id: str | None) -> bool:
        return session_id == self.tab.session_id or session_id in self.tab.frame_sessions

    def _feed(self, event: RawEvent) -> None:
        now = trio.current_time()
        method, sid, state = event.method, event.session_id, self.state
        decode = msgspec.json.decode
        if method == "Network.requestWillBeSent":
            sent = decode(event.params, type=RequestWillBeSent)
            state.request_started(sid, sent.requestId, sent.request.url, sent.type,
                                  sent.frameId, now)
        elif method in ("Network.loadingFinished", "Network.loadingFailed",
                        "Network.requestServedFromCache"):
            state.request_ended(sid, decode(event.params, type=RequestEnded).requestId, now)
        elif method == "Network.dataReceived":
            state.data_received(sid, decode(event.params, type=RequestEnded).requestId, now)
        elif method == "Network.responseReceived":
            got = decode(event.params, type=ResponseReceived)
            state.response_received(sid, got.requestId, got.response.mimeType, now)
        elif sid != self.tab.session_id:
            return
        elif method == "Page.frameStartedNavigating":
            started = decode(event.params, type=FrameStartedNavigating)
            if started.frameId == self.tab.frame_id and \
                    started.navigationType not in _SAME_DOCUMENT:
                state.navigation_started(now)
        elif method == "Page.frameNavigated":
            navigated = decode(event.params, type=FrameNavigated)
            if navigated.frame.parentId is None:
                self.cross_document = True
                state.navigation_committed(
                    now, restored_from_cache=navigated.type == "BackForwardCacheRestore")
        elif method == "Page.lifecycleEvent":
            life = decode(event.params, type=LifecycleEvent)
            if life.frameId == self.tab.frame_id and life.name == "DOMContentLoaded":
                state.content_loaded(now)
        elif method == "Page.frameStoppedLoading":
            if decode(event.params, type=FrameEvent).frameId == self.tab.frame_id and \
                    not state.committed:
                state.navigating_since = None  # cancelled, or became a download
        elif method == "Page.frameDetached":
            state.frame_detached(decode(event.params, type=FrameEvent).frameId, now)
        elif method == "Target.detachedFromTarget":  # the tab's tap keeps frame_sessions
            state.session_ended(decode(event.params, type=DetachedFromTarget).sessionId, now)

    async def _pump(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
                    ) -> None:
        conn = self.tab.connection
        async with conn.subscribe(*_WATCHED, session_id=ANY_SESSION, buffer=10_000) as events, \
                conn.subscribe(*_BROWSER_WATCHED, buffer=1000) as browser_events:
            self._backlog = events.backlog
            task_status.started()
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._pump_browser, browser_events)
                async for event in events:
                    if self._ours(event.session_id):
                        try:
                            self._feed(event)
                        except msgspec.DecodeError:
                            continue
                        self._poke()
                    if event.method == "Target.attachedToTarget" and \
                            self._ours(event.session_id):  # nested iframes too
                        nursery.start_soon(self._enable_child, event)

    async def _pump_browser(self, events: Any) -> None:
        async for event in events:
            try:
                self._feed_browser(event)
            except msgspec.DecodeError:
                continue
            self._poke()

    async def _enable_child(self, event: RawEvent) -> None:
        attached = msgspec.json.decode(event.params, type=AttachedToTarget)
        if attached.targetInfo.type == "iframe":
            await enable_frame_network(self.tab, attached.sessionId)

    def dialog_opened(self, left_open: bool) -> None:
        """A dialog left open pauses the page: the step that opened it ends now (its action
        was done), and nothing more can be read or done until someone handles the dialog."""
        self.dialog_left_open = self.dialog_left_open or left_open
        self.state.dialog_opened(left_open=left_open)
        if left_open and self.step_scope is not None:
            self.step_scope.cancel()
        self._poke()

    # -- the page ----------------------------------------------------------------------------

    async def arm(self, timers: bool, check: str | None = None,
                  ahead: tuple[Target, dict[str, Any]] | None = None) -> None:
        """Start recording before the first action: mutations and form values, and (when the
        act will settle) short timers — in one round trip once the document is known. ``check``
        is an agent expression evaluated in that round trip too (its value: ``checked``), and
        ``ahead`` the aim step 0 starts with (``PageAgent.ahead_command``)."""
        commands: list[Command[Any]] = [await self.agent.arm_command()]
        context = await self.agent.context_id()
        if check is not None:
            commands.append(runtime.Evaluate(expression=check, contextId=context,
                                             returnByValue=True))
        if timers:
            commands.append(runtime.Evaluate(expression=timers_reset(self.timers_key),
                                             returnByValue=True))
            commands.append(page.AddScriptToEvaluateOnNewDocument(
                source=timers_script(self.timers_key)))
        count = len(commands)
        aim = None if ahead is None else await self.agent.ahead_command("aim", *ahead)
        batch = await self.tab.dispatch(*commands, *([aim] if aim else []))
        if aim is not None:  # its answer is the step's to wait for
            self.agent.sent_ahead(aim, batch, count)
        armed, *rest = await batch.results(count)
        if check is not None:
            checked = rest.pop(0)
            self.checked = checked.result.value if checked.exceptionDetails is None else None
        if timers:
            self.timers_script = rest.pop().identifier
        if armed.exceptionDetails is not None:  # the document changed under us: once more
            self.agent.forget_context()
            self.arm_state = await self.agent.arm()
        else:
            self.arm_state = decode_answer(armed.result.value, PageState)
        if rest and rest[0].result.value is None:  # a document without the watch yet
            await self._install_timers()

    async def _install_timers(self) -> None:
        """Evaluate the timer watch in a document that does not have it yet."""
        try:
            await self.tab.send(runtime.Evaluate(expression=timers_script(self.timers_key),
                                                   returnByValue=True))
        except CdpseqError:
            pass  # the document is going away: the next probe sees the new one

    async def _probe(self, wait_up_to: float, delta: int | None = None) -> None:
        # One round trip: the timer watch answers (in the main world) one task after an
        # animation frame, and the agent's settleWait (see watch.js) a task after that, or once
        # the DOM was quiet for the window when it moved. Timers first, then the DOM: a timer
        # that fires between the two readings shows up as a mutation in the second, so no
        # reading is ever staler than the one before it; and what the frame scheduled (a
        # timer set in a requestAnimationFrame callback) is counted.
        # With ``delta``, settleWait also answers the act's delta as the page is when it
        # answers (the delta of a settle that ends with this probe). Once the DOM moved, the
        # proof that it is idle again holds only when the timers were read after its last
        # change (else the next probe is asked at once).
        sent = trio.current_time()
        (timers_answer,), state = await self._settle_wait(wait_up_to, delta, behind=[
            runtime.Evaluate(expression=timers_after_frames(self.timers_key,
                                                        max(round(self.quiet * 1000), 50),
                                                        self.agent.input_at),
                             returnByValue=True, awaitPromise=True)])
        watched: Any = timers_answer.result.value
        # The timers read before the DOM (both clocks are the document's): else (a document
        # without the watch until now, or one whose own requestAnimationFrame never calls
        # back) the readings are taken again, one after the other.
        if not (isinstance(watched, dict) and isinstance(watched.get("due"), int | float)
                and watched.get("at", 0) <= state.at):
            if watched is None and timers_answer.exceptionDetails is None:
                await self._install_timers()
            await self._probe_in_steps(wait_up_to, delta)
            return
        proven = not state.moved or (state.frames_quiet and watched["at"] >= state.changed_at)
        await self._probed(state, _due(watched["due"]), animating=watched.get("frames") is True,
                           sent=sent if proven else None)

    async def _settle_wait(self, wait_up_to: float, delta: int | None,
                           behind: list[Command[Any]] | None = None
                           ) -> tuple[list[Any], Settling]:
        """The agent's settleWait for this watch's quiet window, waiting at most ``wait_up_to``
        seconds, and answering the delta too when ``delta`` (a limit) is given; ``behind``:
        commands sent first in the same round trip."""
        quiet_ms, max_ms = round(self.quiet * 1000), round(max(wait_up_to, 0) * 1000)
        try:
            return await self.agent.settle_wait(quiet_ms, max_ms, delta, behind=behind or ())
        finally:
            # The frame the last input brought proves once: a later probe asks for a frame of
            # its own. Probes that answer at once, one after another, leave the renderer no
            # idle period, and an idle callback the act is waiting for would never run.
            self.agent.input_at = None

    async def _probe_in_steps(self, wait_up_to: float, delta: int | None) -> None:
        """The probe in three round trips: the timers, then the DOM, and when it did not move,
        the timers and the DOM once more (what the frames scheduled is counted too)."""
        sent = trio.current_time()
        timers = await self._timers()
        read_at = trio.current_time()
        _, state = await self._settle_wait(wait_up_to, delta)
        if not state.moved:
            later, moved = await self._recheck()
            if timers is not None:
                timers -= trio.current_time() - read_at
                later = timers if later is None else max(later, timers)
            timers = later
            if moved:
                state.moved, state.delta = True, None  # the delta: maybe stale
        # Only the idle page is proved this way: the timers were read before the DOM moved.
        await self._probed(state, timers, sent=None if state.moved else sent)

    async def _timers(self) -> float | None:
        """Seconds until the last short timer set since arming falls due, or None."""
        try:
            result = await self.tab.send(runtime.Evaluate(
                expression=timers_due(self.timers_key), returnByValue=True))
        except CdpseqError:
            return None
        return _due(result.result.value)

    async def _probed(self, state: Settling, timers: float | None,
                      animating: bool = False, sent: float | None = None) -> None:
        """What one probe found (the DOM's state, the timers read before it, whether a script
        animation was among them, when it was sent if it proved the page idle), fed to the
        decision."""
        self.probe_delta = state.delta
        # Out-of-process iframes run in other renderers: a message the page posts to one, and
        # the request that frame then makes, are not ordered with this page's answers, so two
        # frames prove nothing there and the quiet windows stay.
        provable = not self.tab.frame_sessions
        moved = state.moved or not provable
        proven_since = sent if provable else None
        if proven_since is not None:
            # Every event the page sent before its answers must have reached the state.
            await self._drain_events()
        quiet_for, spinner = state.quiet_ms / 1000, state.spinner
        in_frames = await frames_quiet(self.tab)  # out-of-process iframes' DOMs count too
        if in_frames is not None:
            quiet_for, spinner = min(quiet_for, in_frames[0]), spinner or in_frames[1]
        self.state.probe(trio.current_time(), quiet_for=quiet_for, spinner=spinner,
                         timers_due_in=timers, moved=moved, animating=animating,
                         proven_since=proven_since, provable=provable,
                         leaving=state.leaving)

    async def _recheck(self) -> tuple[float | None, bool]:
        """(the timers, whether the DOM moved since arming), read in this order."""
        timers, dom = await self.tab.send_all(
            runtime.Evaluate(expression=timers_due(self.timers_key), returnByValue=True),
            await self.agent.moved_command())
        if dom.exceptionDetails is not None or timers.exceptionDetails is not None:
            return None, True  # the document changed under us: not idle
        return _due(timers.result.value), dom.result.value is not False

    async def _drain_events(self) -> None:
        """Let the pump take in every event received so far (the page sends a request's
        events before the answer to a later probe: they are in our buffer, maybe not fed)."""
        for _ in range(_DRAIN_ROUNDS):
            if self._backlog is None or self._backlog() == 0:
                break
            await trio.lowlevel.checkpoint()
        # The receiving end takes an event off the buffer a checkpoint before the pump feeds
        # it; two more rounds of the scheduler see the last one fed.
        await trio.lowlevel.checkpoint()
        await trio.lowlevel.checkpoint()

    def _can_probe(self, decision_pending: list[dict[str, object]]) -> bool:
        """Asking the page only helps when neither a navigation, a request nor a dialog
        blocks anyway."""
        return (self.state.navigating_since is None and not self.dialog_left_open
                and not any(p.get("stalled") is False for p in decision_pending))

    async def settle(self, budget: float, delta: int | None = None) -> dict[str, Any]:
        """Wait until settled, or ``budget`` seconds; returns the result's report fields.

        Every decision that could say "settled" is taken right after a fresh probe; between
        probes the loop sleeps until an event arrives or the answer could change by itself.
        With ``delta`` (a limit), a settle that ends settled right after a probe keeps the
        delta that probe answered (``settled_delta``), so that none is asked again."""
        started = trio.current_time()
        state = self.state
        state.deadline = started + budget
        state.probed, state.proven_since = False, None
        self.settled_delta = None
        while True:
            now = trio.current_time()
            self.probe_delta = None
            if self._can_probe(state.decide(now).pending):
                try:
                    with trio.move_on_at(state.deadline + 1):
                        await self._probe(min(state.deadline - now, _PROBE_SLICE), delta)
                except (AgentError, CdpseqError) as exc:
                    if self.tab.closed is not None or self.tab.crashed or \
                            self.tab.connection.closed:
                        raise  # a crashed renderer never answers: waiting on is pointless
                    log.debug("settle probe failed (%s); looking again", exc)
                    state.probed = False  # the document is changing under us
            decision = state.decide(trio.current_time())
            if decision.done:
                if decision.settled:
                    self.settled_delta = self.probe_delta
                break
            changed = self.changed
            with trio.move_on_at(max(decision.wake_at or state.deadline,
                                     trio.current_time() + 0.005)):
                await changed.wait()
        report: dict[str, Any] = {
            "stable": decision.settled,
            "stabilityWaitMs": round((trio.current_time() - started) * 1000),
        }
        if not decision.settled:
            report["unstableReason"] = "; ".join(decision.reasons)
        if decision.pending:  # a long-poll does not keep the page unsettled, but is news
            report["pending"] = msgspec.convert(decision.pending, list[PendingRequest])
        return report

    async def wait_for_document(self, budget: float) -> None:
        """If an action started a cross-document navigation, wait (bounded) for the new
        document's DOMContentLoaded before the next step."""
        with trio.move_on_after(budget):
            while self.state.navigating_since is not None:
                changed = self.changed
                await changed.wait()


@asynccontextmanager
async def open_watch(tab: Tab, agent: PageAgent, *, quiet: float = DEFAULT_QUIET,
                     timers: bool = True, check: str | None = None,
                     downloads: str | None = None,
                     ahead: tuple[Target, dict[str, Any]] | None = None
                     ) -> AsyncIterator[Watch]:
    """Watch ``tab`` for the block: events pumped, the page's recorders armed (``check`` and
    ``ahead`` sent with them, see ``Watch.arm``), downloads saved into ``downloads`` (see
    ``tab_network.download_dir``)."""
    watch = Watch(tab, agent, quiet)
    await enable_watching(tab, downloads)
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(watch._pump)
            await watch.arm(timers, check, ahead)
            await arm_frames(tab)
            yield watch
            nursery.cancel_scope.cancel()
    finally:
        if watch.timers_script is not None:
            await unregister_script(tab, watch.timers_script)
