"""Browser and Tab: the objects users hold, as CDP sessions and nothing more.

``open_browser`` attaches to a running Chrome, ``launch_browser`` starts one first. A ``Tab`` is
one page target attached through a flat session; it enables what it needs once and follows its
own lifecycle (main-frame navigations, crash, close, detach) through a synchronous tap on the
connection, so its state is current before any later response reaches the caller.

A JavaScript dialog pauses the page: every command the renderer must answer waits until the
dialog closes. Chromium tells only the sessions that had Page enabled when it opened, and no
later session can handle it (``Page.handleJavaScriptDialog`` answers "No dialog is showing"; a
new session's ``Page.enable`` gets no answer — measured on Chromium 156). So a Tab keeps the
dialog it was told of (``dialog``), attaching is bounded (a tab that does not answer has
``answering`` False), and ``dismiss_unseen_dialog`` closes a dialog nobody can see the only way
the browser allows: a same-document navigation to the page's own address, which closes it as
dismissed and keeps the document and its state.

This layer knows nothing of refs, reads or act: those live above it (``cdpseq.page``,
``cdpseq.engine``) and keep their per-tab state through ``Tab.extension``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar, cast, overload

import msgspec
import trio

from .cdp import browser as cdp_browser
from .cdp import inspector, page, runtime, target
from .errors import (
    BrowserUnreachable,
    CdpseqError,
    InvalidRequest,
    TargetClosed,
    TargetCrashed,
    UrlBlocked,
)
from .wire.connection import (
    Batch,
    Connection,
    ConnectionStatistics,
    SessionFilter,
    _SubscriptionContext,
    open_connection,
)
from .wire.endpoint import discover, parse_endpoint
from .wire.events import AttachedToTarget, DetachedFromTarget
from .wire.launch import launch_chromium
from .wire.protocol import Command, Event
from .wire.router import IncomingEvent
from .wire.url_policy import UrlPolicy

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


class BrowserVersion(msgspec.Struct, kw_only=True):
    """What ``Browser.getVersion`` answered."""

    product: str
    """e.g. ``Chrome/156.0.8078.73``"""
    protocol_version: str
    revision: str
    user_agent: str
    js_version: str


class BrowserStatistics(msgspec.Struct, kw_only=True):
    """What a ``Browser`` holds, to check that nothing outlives the tabs it was for."""

    attached_tabs: int
    """Tabs attached and not known to be closed."""
    attaching: int
    """Attaches under way."""
    connection: ConnectionStatistics


class Tab:
    """A page target attached through its own session."""

    def __init__(self, browser: Browser, target_id: str, session_id: str) -> None:
        self.browser = browser
        self.id = target_id
        self.session_id = session_id
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
        return _tab_info(result.targetInfo)

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
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self.send, page.Enable())
                nursery.start_soon(self.send, inspector.Enable())
                nursery.start_soon(self.send, page.SetLifecycleEventsEnabled(enabled=True))
                nursery.start_soon(self._read_main_frame)
        self.answering = not waited.cancelled_caught
        return self.answering

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


class Browser:
    """A connection to one browser; use ``open_browser`` or ``launch_browser``.

    ``policy`` says where its tabs may go: ``new_tab`` and act's navigate steps refuse what it
    refuses, and act stops the navigations its steps lead to a refused host.

    ``allow_evaluate`` lets act run ``evaluate`` steps (arbitrary JavaScript in the page); off,
    a request with one answers ``EVALUATE_DISABLED`` and nothing of it runs."""

    def __init__(self, connection: Connection, endpoint: str, version: BrowserVersion,
                 policy: UrlPolicy | None = None, *, allow_evaluate: bool = False) -> None:
        self.connection = connection
        self.endpoint = endpoint
        self.version = version
        self.policy = policy or UrlPolicy()
        self.allow_evaluate = allow_evaluate
        self._tabs: dict[str, Tab] = {}
        self._attaching: dict[str, trio.Event] = {}
        self._seen: set[str] = set()
        """Ids of the page tabs this Browser has listed, opened or attached: one of them that
        is gone was closed (TargetClosed); any other id never named a tab (InvalidRequest)."""
        connection._tap(None, self._observe)

    def statistics(self) -> BrowserStatistics:
        """Counters of attached tabs and of the connection, for diagnostics."""
        return BrowserStatistics(attached_tabs=len(self._tabs), attaching=len(self._attaching),
                                 connection=self.connection.statistics())

    async def send(self, command: Command[R]) -> R:
        """A browser-level command."""
        return await self.connection.send(command)

    def subscribe(self, *events: type[Event] | str, session_id: SessionFilter = None,
                  buffer: int = 256) -> _SubscriptionContext[Any]:
        """A bounded stream of events of the browser session, one session or all."""
        return self.connection.subscribe(*events, session_id=session_id, buffer=buffer)

    async def tabs(self) -> list[TabInfo]:
        """Page tabs, in the browser's order."""
        result = await self.send(target.GetTargets())
        pages = [_tab_info(t) for t in result.targetInfos if t.type == "page"]
        self._seen.update(info.id for info in pages)
        return pages

    async def find_tab(self, tab_id: str) -> TabInfo:
        """The page tab ``tab_id``, as the browser lists it now.

        Raises ``InvalidRequest`` (field ``tabId``) for an id that names no page tab this
        Browser has known — a typo, another kind of target, garbage, which is never sent to the
        browser — and ``TargetClosed`` for a tab it knew that has closed since."""
        for info in await self.tabs():
            if info.id == tab_id:
                return info
        if tab_id in self._seen:
            raise TargetClosed(tab_id, None, "the tab was closed")
        raise InvalidRequest("tabId", f"no page tab has the id {_show_id(tab_id)} (list the "
                                      "tabs for their ids)")

    def check_url(self, url: str) -> None:
        """Raise ``UrlBlocked`` if the policy refuses ``url``."""
        reason = self.policy.check(url)
        if reason is not None:
            raise UrlBlocked(url, reason)

    async def new_tab(self, url: str = "about:blank") -> Tab:
        """A new tab at ``url``; raises ``UrlBlocked`` (and opens nothing) if the policy
        refuses it."""
        self.check_url(url)
        created = await self.send(target.CreateTarget(url=url))
        self._seen.add(created.targetId)
        return await self.tab(created.targetId)

    async def tab(self, tab_id: str | None = None, *, answer_timeout: float = ATTACH_ANSWER
                  ) -> Tab:
        """Attach to ``tab_id`` (once per Browser; later calls return the same Tab), or to the
        first page tab, or to a new blank tab when there is none. Returns within about
        ``answer_timeout`` seconds even when the page does not answer (``Tab.answering``).

        An id that names no page tab raises ``InvalidRequest``; a tab that closed,
        ``TargetClosed`` (see ``find_tab``)."""
        if tab_id is not None and not isinstance(tab_id, str):
            raise InvalidRequest("tabId", f"expected str, got {type(tab_id).__name__}")
        if tab_id is None:
            pages = await self.tabs()
            if not pages:
                return await self.new_tab()
            tab_id = pages[0].id
        while True:
            known = self._tabs.get(tab_id)
            if known is not None and known.closed is None:
                return known
            attaching = self._attaching.get(tab_id)
            if attaching is None:
                break
            await attaching.wait()
        self._attaching[tab_id] = done = trio.Event()
        try:
            await self.find_tab(tab_id)
            try:
                attached = await self.send(target.AttachToTarget(targetId=tab_id, flatten=True))
            except CdpseqError as exc:
                raise TargetClosed(tab_id, None, f"cannot attach: {exc}") from None
            tab = Tab(self, tab_id, attached.sessionId)
            try:
                await tab._start(answer_timeout)
            except BaseException:  # failed or cancelled: leave no session or observer behind
                self.connection._untap(tab.session_id)
                with trio.CancelScope(shield=True), trio.move_on_after(2):
                    try:
                        await self.send(target.DetachFromTarget(sessionId=tab.session_id))
                    except CdpseqError:
                        pass  # already gone
                raise
            self._forget(self._tabs.get(tab_id))
            self._tabs[tab_id] = tab
            return tab
        finally:
            del self._attaching[tab_id]
            done.set()

    async def activate_tab(self, tab_id: str) -> None:
        """Bring the tab ``tab_id`` to the front."""
        await self.send(target.ActivateTarget(targetId=tab_id))

    async def close_tab(self, tab_id: str, *, destroy_timeout: float = 10.0) -> None:
        """Close a tab and return once the browser has destroyed it (Chrome answers
        ``Target.closeTarget`` before that)."""
        async with self.subscribe(target.TargetDestroyed) as destroyed:
            await self.send(target.CloseTarget(targetId=tab_id))
            with trio.move_on_after(destroy_timeout):
                async for event in destroyed:
                    if event.targetId == tab_id:
                        break
        self._forget(self._tabs.get(tab_id))

    def _observe(self, event: IncomingEvent) -> None:
        # A tab whose session ended — closed here or by anyone else, or detached — is forgotten
        # with all that was kept for it (its observer, its extensions: the page agent and its
        # cached reads). Without this a long-lived Browser grows with every tab a user closes.
        if event.method == "Target.detachedFromTarget":
            try:
                session_id = msgspec.json.decode(event.params, type=DetachedFromTarget).sessionId
            except msgspec.DecodeError:
                return  # the router logged it; nothing here may stop the reader
            for tab in list(self._tabs.values()):
                if tab.session_id == session_id:
                    self._forget(tab)

    def _forget(self, tab: Tab | None) -> None:
        if tab is not None and self._tabs.get(tab.id) is tab:
            del self._tabs[tab.id]
            self.connection._untap(tab.session_id)
            for session_id in tab.frames:
                self.connection._untap(session_id)


def _show_id(tab_id: object) -> str:
    shown = repr(tab_id)
    return shown if len(shown) <= 60 else f"{shown[:48]}… ({len(shown)} characters)"


def _tab_info(info: target.TargetInfo) -> TabInfo:
    return TabInfo(id=info.targetId, type=info.type, url=info.url, title=info.title)


@asynccontextmanager
async def open_browser(endpoint: str | int, *, connect_timeout: float = 10.0,
                       policy: UrlPolicy | None = None, allow_evaluate: bool = False
                       ) -> AsyncIterator[Browser]:
    """Attach to a running Chrome at ``endpoint`` (a port, ``host:port``, ``http://host:port`` or
    the browser's ``ws://`` URL). The connection closes when the block exits; the browser and
    its tabs stay as they are. ``policy`` (default: ``UrlPolicy()``, no file:, data: or browser
    pages) says where tabs may go. ``allow_evaluate`` lets act's ``evaluate`` steps run
    JavaScript in pages (off by default: see ``Browser``)."""
    parsed = parse_endpoint(endpoint)
    ws_url = await discover(parsed, answer_timeout=connect_timeout)
    async with open_connection(ws_url, connect_timeout=connect_timeout) as connection:
        try:
            with trio.fail_after(connect_timeout):
                version = await connection.send(cdp_browser.GetVersion())
                await connection.send(target.SetDiscoverTargets(discover=True))
        except trio.TooSlowError:
            raise BrowserUnreachable(parsed.text, f"Browser.getVersion got no answer within "
                                     f"{connect_timeout:g} s") from None
        except CdpseqError as exc:
            raise BrowserUnreachable(parsed.text, f"not a browser endpoint: {exc}") from None
        yield Browser(connection, parsed.text, BrowserVersion(
            product=version.product, protocol_version=version.protocolVersion,
            revision=version.revision, user_agent=version.userAgent,
            js_version=version.jsVersion), policy, allow_evaluate=allow_evaluate)


@asynccontextmanager
async def launch_browser(*, port: int = 0, executable: str | None = None, headless: bool = True,
                         extra_args: Sequence[str] = (), startup_timeout: float = 30.0,
                         policy: UrlPolicy | None = None, allow_evaluate: bool = False
                         ) -> AsyncIterator[Browser]:
    """Start a local headless Chromium on 127.0.0.1 with a temporary profile and attach to it.
    The process and the profile are removed when the block exits, however it exits.
    ``policy`` and ``allow_evaluate`` are ``open_browser``'s."""
    async with launch_chromium(port=port, executable=executable, headless=headless,
                               extra_args=extra_args, startup_timeout=startup_timeout) as chromium:
        async with open_browser(chromium.ws_url, policy=policy,
                                allow_evaluate=allow_evaluate) as browser:
            yield browser


__all__ = ["Browser", "BrowserStatistics", "BrowserVersion", "FrameTarget", "Tab", "TabInfo",
           "launch_browser", "open_browser"]
