"""``Tab``: one page target attached through a flat session, as the browser package's docstring
tells (its lifecycle followed by a synchronous tap, its dialog, ``extension`` for the layers
above), and the Structs that describe tabs and their out-of-process frames."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast, overload

import msgspec
import trio

from ..cdp import inspector, page, runtime, target
from ..errors import (
    TargetClosed,
    TargetCrashed,
)
from ..wire.connection import (
    Batch,
    Connection,
    _SubscriptionContext,
)
from ..wire.events import AttachedToTarget, DetachedFromTarget
from ..wire.protocol import Command, Event
from ..wire.router import IncomingEvent

if TYPE_CHECKING:
    from . import Browser

R = TypeVar("R")
T = TypeVar("T")
E = TypeVar("E", bound=Event)


ATTACH_ANSWER = 5.0
"""Seconds a newly attached tab's renderer gets to answer before the Tab counts as not
answering (a dialog nobody can see, or a script that keeps the page busy)."""


class FrameTarget(msgspec.Struct, kw_only=True):
    """An out-of-process iframe of a tab, attached through its own flat session."""

    session_id: str
    frame_id: str
    """The frame's id, which is also its target's id."""
    parent_session: str
    """The session of the document that holds the iframe element: the tab's, or another
    frame's (an iframe in an iframe)."""
    url: str


class TabInfo(msgspec.Struct, kw_only=True):
    """A page tab as the browser lists it."""

    id: str
    type: str
    url: str
    title: str



class Tab:
    """A page target attached through its own session."""

    def __init__(self, browser: Browser, target_id: str, session_id: str,
                 context_id: str | None = None) -> None:
        self.browser = browser
        self.id = target_id
        self.session_id = session_id
        self.context_id = context_id
        """The browser context the tab lives in (``Browser.new_tab(isolated=True)`` opens a
        tab in a new one; the others share the default context)."""
        self.url = ""
        self.frame_id: str | None = None
        self.loader_id: str | None = None
        self.crashed = False
        self.navigations = 0
        """Main-frame cross-document navigations seen since attach."""
        self.frame_sessions: set[str] = set()
        """Sessions of this tab's out-of-process iframes (auto-attached), at any depth."""
        self.frames: dict[str, FrameTarget] = {}
        """The same iframes by session id, with where each hangs."""
        self.dialog: page.JavascriptDialogOpening | None = None
        """The JavaScript dialog open in the tab, as this session was told of it."""
        self._attached_crashed = False
        """Whether the renderer had crashed before this session enabled anything (``revive``)."""
        self.answering = True
        """False when the renderer did not answer when attached (see ``wake``)."""
        self._extensions: dict[Callable[[Tab], Any], Any] = {}

    @property
    def connection(self) -> Connection:
        """The browser's one connection, which this tab's session shares."""
        return self.browser.connection

    @property
    def closed(self) -> TargetClosed | None:
        """Why the tab's session ended, or None while it is attached."""
        return self.connection.router.ended(self.session_id)

    def check_alive(self) -> None:
        """Raise ``TargetClosed``/``TargetCrashed`` if the tab cannot take commands, or
        ``ConnectionClosed`` once the connection to the browser is gone."""
        lost = self.connection.router.closed
        if lost is not None:
            raise lost
        ended = self.closed
        if ended is not None:
            raise ended
        if self.crashed:
            raise TargetCrashed(self.id, self.session_id)

    async def send(self, command: Command[R]) -> R:
        """A typed command on this tab's session, answered with its typed result."""
        return await self.connection.send(command, session_id=self.session_id)

    async def post(self, command: Command[Any]) -> None:
        """Send a command without waiting for its answer (see ``Connection.post``)."""
        await self.connection.post(command, session_id=self.session_id)

    async def send_all(self, *commands: Command[Any]) -> list[Any]:
        """Several commands in one round trip (see ``Connection.send_all``)."""
        return await self.connection.send_all(*commands, session_id=self.session_id)

    async def dispatch(self, *commands: Command[Any]) -> Batch:
        """Several commands sent, their answers awaited later (see ``Connection.dispatch``)."""
        return await self.connection.dispatch(*commands, session_id=self.session_id)

    async def execute(self, method: str, params: Mapping[str, Any] | None = None) -> Any:
        """A command by method name on this tab's session; its result as plain JSON."""
        return await self.connection.execute(method, params, session_id=self.session_id)

    @overload
    def subscribe(self, *events: type[E], buffer: int = ...) -> _SubscriptionContext[E]: ...
    @overload
    def subscribe(self, *events: type[Event] | str, buffer: int = ...
                  ) -> _SubscriptionContext[Any]: ...

    def subscribe(self, *events: type[Event] | str, buffer: int = 256
                  ) -> _SubscriptionContext[Any]:
        """A bounded stream of this tab's events (typed, or raw for a method name)."""
        return self.connection.subscribe(*events, session_id=self.session_id, buffer=buffer)

    def tap(self, observer: Callable[[str, bytes], None]) -> None:
        """Call ``observer(method, params)`` synchronously with each event of the tab's session,
        as it arrives, for as long as the tab lives (a log kept between calls)."""
        self.connection._tap(self.session_id, lambda event: observer(event.method,
                                                                      event.params))

    def extension(self, make: Callable[[Tab], T]) -> T:
        """The tab's one ``make(tab)``, made on first use and kept as long as the Tab.

        This is how the layers above keep per-tab state (the page agent, the act engine's
        lock) without the session knowing them: ``tab.extension(PageAgent)``."""
        try:
            return cast(T, self._extensions[make])
        except KeyError:
            made = self._extensions[make] = make(self)
            return made

    async def info(self) -> TabInfo:
        """The tab's current url, title and type, as the browser tells them now."""
        result = await self.browser.connection.send(target.GetTargetInfo(targetId=self.id))
        return tab_info(result.targetInfo)

    async def activate(self) -> None:
        """Bring the tab to the front (``Browser.activate_tab``)."""
        await self.browser.activate_tab(self.id)

    async def close(self) -> None:
        """Close the tab and return once the browser destroyed it."""
        await self.browser.close_tab(self.id)

    async def _start(self, answer_timeout: float) -> None:
        self.connection._tap(self.session_id, self._observe)
        await self.wake(answer_timeout)

    async def wake(self, answer_timeout: float) -> bool:
        """Enable what the tab needs, within ``answer_timeout`` seconds; ``answering`` says
        whether the renderer answered (the browser side of each domain is on either way)."""
        with trio.move_on_after(answer_timeout) as waited:
            try:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self.send, page.Enable())
                    nursery.start_soon(self.send, inspector.Enable())
                    nursery.start_soon(self.send, page.SetLifecycleEventsEnabled(enabled=True))
                    nursery.start_soon(self._read_main_frame)
            except* TargetCrashed:
                # Its renderer crashed before this session (another process's, or one woken
                # later): the browser says so at once and fails what was sent. The Tab stays
                # attached, crashed, as if it had seen the crash: a navigation revives it.
                self.crashed = self._attached_crashed = True
                if self.frame_id is None:  # a page target's main frame bears the target's id
                    self.frame_id = self.id
        self.answering = not waited.cancelled_caught
        return self.answering

    async def revive(self, answer_timeout: float) -> None:
        """Give a tab whose renderer had crashed before it was attached (by another process)
        a new renderer at about:blank and enable what the tab needs there, each stage within
        ``answer_timeout`` seconds. Chromium carries a session's domains into a new renderer
        only when they were enabled in a live one: without this, the page loaded next would
        tell this session nothing (no navigation, no load). Any other tab is left as it is."""
        if not (self.crashed and self._attached_crashed):
            return
        with trio.move_on_after(answer_timeout):
            async with self.subscribe(inspector.TargetReloadedAfterCrash) as revived:
                await self.send(page.Navigate(url="about:blank"))
                await revived.receive()
        self.crashed = self._attached_crashed = False
        await self.wake(answer_timeout)
        # One more blank load, seen to its end: the next navigation, sent while the first was
        # still settling in the new renderer, was never reported (measured on Chromium 156).
        # Its end is network idle, not load: while a session attached before the crash stays
        # attached (another process's, a daemon's), a navigation sent between the two was
        # aborted at commit (net::ERR_ABORTED, or no event at all) in 6 runs of 7; none of 10
        # after waiting for idle (tests/faults/test_crash_kept_session.py).
        with trio.move_on_after(answer_timeout):
            async with self.subscribe(page.LifecycleEvent) as lifecycle:
                await self.send(page.Navigate(url="about:blank"))
                async for event in lifecycle:
                    if event.name == "networkIdle":
                        break

    async def dismiss_unseen_dialog(self, answer_timeout: float) -> bool:
        """Close a dialog this session was never told of (it opened while no client listened,
        or another client left it open), as dismissed, keeping the document. Returns whether
        the renderer answers afterwards. A page that is only busy gets the same navigation
        once it is free: its address may then end in ``#``."""
        history = await self.send(page.GetNavigationHistory())  # answered by the browser
        url = history.entries[history.currentIndex].url
        with trio.move_on_after(answer_timeout):
            await self.send(page.Navigate(url=url if "#" in url else url + "#"))
        if not await self.wake(answer_timeout):
            return False
        if "#" not in url:  # the same address again, without a navigation or an event
            with trio.move_on_after(answer_timeout):
                await self.send(runtime.Evaluate(
                    expression=f"history.replaceState(history.state, '', {json.dumps(url)})"))
        return True

    async def _read_main_frame(self) -> None:
        tree = await self.send(page.GetFrameTree())
        frame = tree.frameTree.frame
        if self.frame_id is None:  # a navigation seen meanwhile is newer
            self.frame_id, self.loader_id, self.url = frame.id, frame.loaderId, frame.url

    def _observe(self, event: IncomingEvent) -> None:
        method = event.method
        if method == "Page.frameNavigated":
            frame = msgspec.json.decode(event.params, type=page.FrameNavigated).frame
            if frame.parentId is None:
                self.frame_id, self.loader_id, self.url = frame.id, frame.loaderId, frame.url
                self.crashed = False  # a navigation gives a crashed tab a new renderer
                self.navigations += 1
        elif method == "Page.navigatedWithinDocument":
            moved = msgspec.json.decode(event.params, type=page.NavigatedWithinDocument)
            if moved.frameId == self.frame_id:
                self.url = moved.url
        elif method == "Page.javascriptDialogOpening":
            self.dialog = msgspec.json.decode(event.params, type=page.JavascriptDialogOpening)
        elif method == "Page.javascriptDialogClosed":
            self.dialog = None
        elif method == "Inspector.targetCrashed":
            self.crashed = True
        elif method == "Inspector.detached":
            # The session ended (the router fails its commands from now on): forgotten now,
            # not when the browser's Target.detachedFromTarget comes after it.
            self.browser._forget(self)
        else:
            self._observe_frames(event)

    def _observe_frames(self, event: IncomingEvent) -> None:
        # Tapped on the tab's session and on each iframe's: an iframe in an out-of-process
        # iframe attaches through the session of the frame that holds it.
        if event.method == "Target.attachedToTarget":
            attached = msgspec.json.decode(event.params, type=AttachedToTarget)
            info = attached.targetInfo
            if info.type == "iframe" and event.session_id is not None:
                self.frame_sessions.add(attached.sessionId)
                self.frames[attached.sessionId] = FrameTarget(
                    session_id=attached.sessionId, frame_id=info.targetId,
                    parent_session=event.session_id, url=info.url)
                self.connection._tap(attached.sessionId, self._observe_frames)
        elif event.method == "Target.detachedFromTarget":
            gone = {msgspec.json.decode(event.params, type=DetachedFromTarget).sessionId}
            while True:  # and the iframes inside it, whose sessions end with it
                inside = {s for s, f in self.frames.items() if f.parent_session in gone} - gone
                if not inside:
                    break
                gone |= inside
            for session_id in gone:
                if self.frames.pop(session_id, None) is not None:
                    self.connection._untap(session_id)
                self.frame_sessions.discard(session_id)

    def __repr__(self) -> str:
        return f"<Tab {self.id} {self.url!r}>"


def tab_info(info: target.TargetInfo) -> TabInfo:
    """A target's info as a ``TabInfo``."""
    return TabInfo(id=info.targetId, type=info.type, url=info.url, title=info.title)
