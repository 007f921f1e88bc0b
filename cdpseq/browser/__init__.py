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

- ``contexts``: isolated browser contexts, recorded in the browser and disposed with their
  last page by whichever cdpseq process sees it go.
- ``tab``: ``Tab`` and the Structs that describe tabs and their out-of-process frames.
- ``state_file``: the storage state file: its typed schema, read validated, written 0600.
- ``storage_state``: ``save_state`` and ``load_state``: cookies, localStorage, sessionStorage.
- this package: ``Browser`` (its tabs, the URL policy, statistics), ``open_browser``,
  ``launch_browser``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from os import PathLike
from typing import Any, TypeVar

import msgspec
import trio

from ..cdp import browser as cdp_browser
from ..cdp import target
from ..errors import (
    BrowserUnreachable,
    CdpseqError,
    InvalidRequest,
    TargetClosed,
    UrlBlocked,
)
from ..wire.connection import (
    Connection,
    ConnectionStatistics,
    SessionFilter,
    _SubscriptionContext,
    open_connection,
)
from ..wire.endpoint import discover, parse_endpoint
from ..wire.events import DetachedFromTarget
from ..wire.launch import launch_chromium
from ..wire.protocol import Command, Event
from ..wire.router import IncomingEvent
from ..wire.url_policy import UrlPolicy
from . import contexts
from .tab import ATTACH_ANSWER, FrameTarget, Tab, TabInfo, tab_info

R = TypeVar("R")
T = TypeVar("T")
E = TypeVar("E", bound=Event)


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



class Browser:
    """A connection to one browser; use ``open_browser`` or ``launch_browser``.

    ``policy`` says where its tabs may go: ``new_tab`` and act's navigate steps refuse what it
    refuses, and act stops the navigations its steps lead to a refused host.

    ``allow_evaluate`` lets act run ``evaluate`` steps (arbitrary JavaScript in the page); off,
    a request with one answers ``EVALUATE_DISABLED`` and nothing of it runs."""

    def __init__(self, connection: Connection, endpoint: str, version: BrowserVersion,
                 policy: UrlPolicy | None = None, *, allow_evaluate: bool = False,
                 default_context: str | None = None) -> None:
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
        self._sweeper = contexts.Sweeper(connection)
        self._default_context = default_context
        self._page_contexts: dict[str, str | None] = {}
        """The browser context of each page target, as target discovery tells them."""
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
        pages = [tab_info(t) for t in result.targetInfos if t.type == "page"]
        self._seen.update(info.id for info in pages)
        return pages

    async def find_tab(self, tab_id: str) -> TabInfo:
        """The page tab ``tab_id``, as the browser lists it now.

        Raises ``InvalidRequest`` (field ``tabId``) for an id that names no page tab this
        Browser has known — a typo, another kind of target, garbage, which is never sent to the
        browser — and ``TargetClosed`` for a tab it knew that has closed since."""
        return tab_info(await self._find_target(tab_id))

    async def _find_target(self, tab_id: str) -> target.TargetInfo:
        result = await self.send(target.GetTargets())
        pages = [info for info in result.targetInfos if info.type == "page"]
        self._seen.update(info.targetId for info in pages)
        for info in pages:
            if info.targetId == tab_id:
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

    async def new_tab(self, url: str = "about:blank", *, isolated: bool = False) -> Tab:
        """A new tab at ``url``; raises ``UrlBlocked`` (and opens nothing) if the policy
        refuses it.

        ``isolated`` opens it in a new browser context of its own: cookies, storage and cache
        that no other context sees, shared only with the popups it opens. The context lasts
        until its last page closes (by ``close_tab``, the page, or anyone), across processes:
        the tab's id is its handle (see ``cdpseq.browser.contexts``)."""
        self.check_url(url)
        if not isolated:
            created = await self.send(target.CreateTarget(url=url))
        else:
            context_id = await contexts.open_context(self.connection)
            try:
                created = await self.send(target.CreateTarget(url=url,
                                                              browserContextId=context_id))
                await contexts.record(self.connection, context_id)
            except BaseException:  # no tab in it: nothing will ever dispose it but us
                with trio.CancelScope(shield=True), trio.move_on_after(2):
                    try:
                        await contexts.dispose(self.connection, context_id)
                    except CdpseqError:
                        pass  # the browser went away with it
                raise
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
            found = await self._find_target(tab_id)
            try:
                attached = await self.send(target.AttachToTarget(targetId=tab_id, flatten=True))
            except CdpseqError as exc:
                raise TargetClosed(tab_id, None, f"cannot attach: {exc}") from None
            tab = Tab(self, tab_id, attached.sessionId, found.browserContextId)
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
        ``Target.closeTarget`` before that), and disposed its isolated context if it was the
        context's last page."""
        async with self.subscribe(target.TargetDestroyed) as destroyed:
            await self.send(target.CloseTarget(targetId=tab_id))
            with trio.move_on_after(destroy_timeout):
                async for event in destroyed:
                    if event.targetId == tab_id:
                        break
        self._forget(self._tabs.get(tab_id))
        await contexts.sweep(self.connection)

    def _observe(self, event: IncomingEvent) -> None:
        # A tab whose session ended — closed here or by anyone else, or detached — is forgotten
        # with all that was kept for it (its observer, its extensions: the page agent and its
        # cached reads). Without this a long-lived Browser grows with every tab a user closes.
        if event.method in ("Target.targetCreated", "Target.targetInfoChanged"):
            try:
                info = msgspec.json.decode(event.params, type=target.TargetCreated).targetInfo
            except msgspec.DecodeError:
                return
            if info.type == "page":
                self._page_contexts[info.targetId] = info.browserContextId
        elif event.method == "Target.targetDestroyed":
            try:
                gone = msgspec.json.decode(event.params, type=target.TargetDestroyed).targetId
            except msgspec.DecodeError:
                return
            context = self._page_contexts.pop(gone, None)
            if context not in (None, self._default_context) \
                    and context not in self._page_contexts.values():
                self._sweeper.notice()  # the last page of an isolated context, perhaps ours
        elif event.method == "Target.detachedFromTarget":
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
                try:
                    known: target.GetBrowserContextsResult | None = await connection.send(
                        target.GetBrowserContexts())
                except CdpseqError:  # a gateway that does not offer contexts
                    known = None
                browser = Browser(connection, parsed.text, BrowserVersion(
                    product=version.product, protocol_version=version.protocolVersion,
                    revision=version.revision, user_agent=version.userAgent,
                    js_version=version.jsVersion), policy, allow_evaluate=allow_evaluate,
                    default_context=None if known is None else known.defaultBrowserContextId)
                # Discovery once the Browser taps the connection: it learns every page's
                # context (isolated contexts go with their last page, see ``contexts``).
                await connection.send(target.SetDiscoverTargets(discover=True))
        except trio.TooSlowError:
            raise BrowserUnreachable(parsed.text, f"Browser.getVersion got no answer within "
                                     f"{connect_timeout:g} s") from None
        except CdpseqError as exc:
            raise BrowserUnreachable(parsed.text, f"not a browser endpoint: {exc}") from None
        async with trio.open_nursery() as nursery:
            nursery.start_soon(browser._sweeper.run, known is None or bool(known.browserContextIds))
            yield browser
            nursery.cancel_scope.cancel()


@asynccontextmanager
async def launch_browser(*, port: int = 0, executable: str | None = None, headless: bool = True,
                         extra_args: Sequence[str] = (), startup_timeout: float = 30.0,
                         policy: UrlPolicy | None = None, allow_evaluate: bool = False,
                         user_data_dir: str | PathLike[str] | None = None,
                         window_size: tuple[int, int] | None = None) -> AsyncIterator[Browser]:
    """Start a local headless Chromium on 127.0.0.1 with a temporary profile and attach to it.
    The process and the profile are removed when the block exits, however it exits; a
    persistent ``user_data_dir`` is kept (``ProfileInUse`` when another browser holds it).
    ``window_size`` (width, height) is the window's; ``headless=False`` needs a display.
    ``policy`` and ``allow_evaluate`` are ``open_browser``'s."""
    async with launch_chromium(port=port, executable=executable, headless=headless,
                               extra_args=extra_args, startup_timeout=startup_timeout,
                               user_data_dir=user_data_dir, window_size=window_size
                               ) as chromium:
        async with open_browser(chromium.ws_url, policy=policy,
                                allow_evaluate=allow_evaluate) as browser:
            yield browser


__all__ = ["Browser", "BrowserStatistics", "BrowserVersion", "FrameTarget", "Tab", "TabInfo",
           "launch_browser", "open_browser"]
