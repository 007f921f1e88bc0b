"""Saving and restoring a browser's login state: cookies, localStorage and sessionStorage.

**Cookies** are all of the browser context of the tab the call works on (``Storage.getCookies``
and ``Storage.setCookies`` with its ``browserContextId``), but for cdpseq's own notes on
``*.cdpseq.invalid`` (``page/tab_notes``, ``front/selection``), which name this browser's tabs.
Loading *merges*: a saved cookie replaces the browser's cookie of the same name, domain and
path; the browser's other cookies stay.

**DOM storage** is per origin. The origins saved are those of the frames of that context's
open tabs, and any the caller names (``origins``: a site visited earlier whose tabs are closed).
Chromium 156's ``DOMStorage`` reads and writes an origin's storage only through a tab that shows
a document of that origin ("Frame not found for the given storage id" otherwise: measured). So
an origin no tab shows is reached as Playwright reaches it: a tab navigates to the origin, the
navigation is answered by ``Fetch.fulfillRequest`` with an empty page (nothing reaches the
site), the items are read or written there, and the tab goes back.

**sessionStorage** belongs to one tab. It is saved from the tab the call works on (its frames'
origins) and restored into the tab the load works on, which then goes back where it was: to
about:blank, or to its page, loaded again (it sees the restored state). localStorage alone is
written in a scratch tab of the same context, closed afterwards, and leaves every tab as it was.
"""

from __future__ import annotations

import base64
import os
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, ClassVar, Literal

import msgspec
import trio

from ..cdp import network, page, target
from ..errors import CdpseqError, PageUnresponsive, ProtocolError
from ..wire.protocol import Command, NoResult
from . import Browser
from .state_file import (
    STATE_VERSION,
    CookiePartition,
    OriginStorage,
    StorageState,
    StoredCookie,
    StoredItem,
    check_origin,
    read_state,
    write_state,
)
from .tab import Tab

_INTERNAL_DOMAIN = ".cdpseq.invalid"
_DOCUMENT_TIMEOUT = 10.0
"""Seconds a tab gets to show an origin's empty page (nothing is fetched: it is answered)."""
_EMPTY_PAGE = base64.b64encode(b"<!doctype html><title>cdpseq state</title>").decode()


class OriginSummary(msgspec.Struct, kw_only=True, rename="camel"):
    """What was saved or loaded for one origin: counts only."""

    origin: str
    local_storage: int
    session_storage: int


class StateSummary(msgspec.Struct, kw_only=True, rename="camel"):
    """What a save or load did, without a single value, cookie name or storage key."""

    action: Literal["saved", "loaded"]
    path: str | None
    cookies: int
    origins: list[OriginSummary]


def summarize(state: StorageState, action: Literal["saved", "loaded"], path: str | None = None
              ) -> StateSummary:
    """The counts of ``state`` (nothing of its values)."""
    return StateSummary(action=action, path=path, cookies=len(state.cookies), origins=[
        OriginSummary(origin=o.origin, local_storage=len(o.local_storage),
                      session_storage=len(o.session_storage)) for o in state.origins])


async def save_state(where: Browser | Tab, path: str | os.PathLike[str] | None = None, *,
                     origins: Sequence[str] = ()) -> StorageState:
    """The login state of ``where``'s browser context (a Browser: its first tab's), and of its
    tab's sessionStorage; written to ``path`` (mode 0600) when given. ``origins`` adds origins
    no tab shows now. See the module's docstring."""
    named = [check_origin(o, f"origins[{i}]") for i, o in enumerate(origins)]
    tab = where if isinstance(where, Tab) else await where.tab()
    browser, context = tab.browser, await _context_of(tab)
    found = await browser.send(_GetCookies(browserContextId=context))
    cookies = [_stored(c) for c in found.cookies if not _internal(c.domain)]
    local: dict[str, list[StoredItem]] = {}
    session: dict[str, list[StoredItem]] = {}
    for info in (await browser.send(target.GetTargets())).targetInfos:
        if info.type != "page" or info.browserContextId != context:
            continue
        shown = tab if info.targetId == tab.id else await browser.tab(info.targetId)
        for origin in await _frame_origins(shown):
            # None: an out-of-process iframe's origin, which this session cannot read.
            if origin not in local and (items := await _items(shown, origin, local=True)
                                        ) is not None:
                local[origin] = items
            if shown is tab and origin not in session and (
                    items := await _items(tab, origin, local=False)) is not None:
                session[origin] = items
    unseen = [o for o in dict.fromkeys(named) if o not in local]
    if unseen:
        async with _scratch_tab(browser, context) as scratch:
            for origin in unseen:
                async with _showing(scratch, origin):
                    local[origin] = await _items(scratch, origin, local=True) or []
    state = StorageState(version=STATE_VERSION, cookies=cookies, origins=[
        OriginStorage(origin=o, local_storage=local.get(o, []),
                      session_storage=session.get(o, []))
        for o in dict.fromkeys([*local, *session]) if local.get(o) or session.get(o)])
    if path is not None:
        write_state(path, state)
    return state


async def load_state(where: Browser | Tab, state: StorageState | str | os.PathLike[str]
                     ) -> StateSummary:
    """Restore a saved state (or the file at that path) into ``where``'s browser context and
    tab (a Browser: its first tab). Cookies merge; see the module's docstring. A bad file is
    ``InvalidRequest`` naming the field, before anything is written."""
    path = None
    if not isinstance(state, StorageState):
        path = os.fspath(state)
        state = read_state(path)
    for i, stored in enumerate(state.origins):
        check_origin(stored.origin, f"origins[{i}].origin")
    tab = where if isinstance(where, Tab) else await where.tab()
    for stored in state.origins:
        tab.browser.check_url(stored.origin + "/")
    context = await _context_of(tab)
    cookies = [_param(c) for c in state.cookies if not _internal(c.domain)]
    if cookies:
        await tab.browser.send(_SetCookies(cookies=cookies, browserContextId=context))
    writes = [o for o in state.origins if o.local_storage or o.session_storage]
    if writes:
        with_session = any(o.session_storage for o in writes)
        async with (_returning(tab) if with_session
                    else _scratch_tab(tab.browser, context)) as shown:
            for stored in writes:
                async with _showing(shown, stored.origin):
                    await shown.send_all(*_setters(stored, session=shown is tab))
    return summarize(state, "loaded", path)


# -- the protocol commands this needs (Storage and DOMStorage are not generated) ---------------


class _GetCookies(Command[network.GetAllCookiesResult], kw_only=True):
    METHOD: ClassVar[str] = "Storage.getCookies"
    RESULT: ClassVar[type[network.GetAllCookiesResult]] = network.GetAllCookiesResult
    browserContextId: str | None = None


class _SetCookies(Command[NoResult], kw_only=True):
    METHOD: ClassVar[str] = "Storage.setCookies"
    RESULT: ClassVar[type[NoResult]] = NoResult
    cookies: list[network.CookieParam]
    browserContextId: str | None = None


class _StorageId(msgspec.Struct, kw_only=True):
    securityOrigin: str
    isLocalStorage: bool


class _ItemsResult(msgspec.Struct, kw_only=True):
    entries: list[list[str]]


class _GetItems(Command[_ItemsResult], kw_only=True):
    METHOD: ClassVar[str] = "DOMStorage.getDOMStorageItems"
    RESULT: ClassVar[type[_ItemsResult]] = _ItemsResult
    storageId: _StorageId


class _SetItem(Command[NoResult], kw_only=True):
    METHOD: ClassVar[str] = "DOMStorage.setDOMStorageItem"
    RESULT: ClassVar[type[NoResult]] = NoResult
    storageId: _StorageId
    key: str
    value: str


def _internal(domain: str) -> bool:
    return ("." + domain.lstrip(".")).endswith(_INTERNAL_DOMAIN)


def _stored(cookie: network.Cookie) -> StoredCookie:
    key = cookie.partitionKey
    same_site = cookie.sameSite if cookie.sameSite in ("Strict", "Lax", "None") else None
    return StoredCookie(
        name=cookie.name, value=cookie.value, domain=cookie.domain, path=cookie.path,
        expires=-1 if cookie.session else cookie.expires, http_only=cookie.httpOnly,
        secure=cookie.secure, same_site=same_site,  # type: ignore[arg-type]
        partition_key=None if key is None else CookiePartition(
            top_level_site=key.topLevelSite, has_cross_site_ancestor=key.hasCrossSiteAncestor))


def _param(cookie: StoredCookie) -> network.CookieParam:
    # A host-only cookie (no leading dot) is set through a URL of its host: given as a domain,
    # Chromium would make it a domain cookie, sent to every subdomain.
    host_only = not cookie.domain.startswith(".")
    scheme = "https" if cookie.secure else "http"
    key = cookie.partition_key
    return network.CookieParam(
        name=cookie.name, value=cookie.value,
        url=f"{scheme}://{cookie.domain}{cookie.path}" if host_only else None,
        domain=None if host_only else cookie.domain, path=cookie.path,
        secure=cookie.secure, httpOnly=cookie.http_only, sameSite=cookie.same_site,
        expires=None if cookie.expires < 0 else cookie.expires,
        partitionKey=None if key is None else network.CookiePartitionKey(
            topLevelSite=key.top_level_site, hasCrossSiteAncestor=key.has_cross_site_ancestor))


def _setters(stored: OriginStorage, *, session: bool) -> list[Command[Any]]:
    areas = [(True, stored.local_storage)] + ([(False, stored.session_storage)] if session
                                              else [])
    return [_SetItem(storageId=_StorageId(securityOrigin=stored.origin, isLocalStorage=local),
                     key=item.name, value=item.value)
            for local, items in areas for item in items]


async def _context_of(tab: Tab) -> str | None:
    found = await tab.browser.send(target.GetTargetInfo(targetId=tab.id))
    return found.targetInfo.browserContextId


async def _frame_origins(tab: Tab) -> list[str]:
    """The http(s) origins of the tab's frames (none when the page does not answer)."""
    origins: list[str] = []
    with trio.move_on_after(_DOCUMENT_TIMEOUT):
        trees = [(await tab.send(page.GetFrameTree())).frameTree]
        while trees:
            tree = trees.pop(0)
            origin = tree.frame.securityOrigin
            if origin.startswith(("http://", "https://")) and origin not in origins:
                origins.append(origin)
            trees += tree.childFrames or []
    return origins


async def _items(tab: Tab, origin: str, *, local: bool) -> list[StoredItem] | None:
    """The origin's items, or None when no frame of this tab's session shows it (a frame in
    another process: an out-of-process iframe)."""
    try:
        found = await tab.send(_GetItems(storageId=_StorageId(securityOrigin=origin,
                                                             isLocalStorage=local)))
    except ProtocolError:
        return None
    return [StoredItem(name=name, value=value) for name, value in found.entries]


@asynccontextmanager
async def _scratch_tab(browser: Browser, context: str | None) -> AsyncIterator[Tab]:
    """A blank tab of ``context``, closed when the block exits (without waiting for the
    browser to destroy it, which ``Browser.close_tab`` does: nothing here needs it gone)."""
    created = await browser.send(target.CreateTarget(url="about:blank",
                                                     browserContextId=context))
    try:
        yield await browser.tab(created.targetId)
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(_DOCUMENT_TIMEOUT):
            try:
                await browser.send(target.CloseTarget(targetId=created.targetId))
            except CdpseqError:
                pass  # closed already


@asynccontextmanager
async def _returning(tab: Tab) -> AsyncIterator[Tab]:
    """``tab``, sent back where it was when the block exits (its page loaded again)."""
    back = tab.url if tab.url.startswith(("http://", "https://")) else "about:blank"
    try:
        yield tab
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(_DOCUMENT_TIMEOUT):
            try:
                await tab.send(page.Navigate(url=back))
            except CdpseqError:
                pass  # the tab is gone: nothing to send back


@asynccontextmanager
async def _showing(tab: Tab, origin: str) -> AsyncIterator[None]:
    """``tab`` shows an empty document of ``origin`` for the block: the navigation is
    answered here, so nothing reaches the site."""
    url = origin + "/"
    async with tab.subscribe("Fetch.requestPaused", buffer=16) as paused:
        await tab.execute("Fetch.enable", {"patterns": [
            {"urlPattern": url, "resourceType": "Document", "requestStage": "Request"}]})
        went: page.NavigateResult | None = None
        try:
            with trio.move_on_after(_DOCUMENT_TIMEOUT):
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(_answer_with_empty_page, tab, paused)
                    went = await tab.send(page.Navigate(url=url))
                    nursery.cancel_scope.cancel()
        finally:
            with trio.CancelScope(shield=True), trio.move_on_after(_DOCUMENT_TIMEOUT):
                try:
                    await tab.execute("Fetch.disable")
                except CdpseqError:
                    pass  # the tab is gone, and its interception with it
    if went is None or went.errorText:
        why = went.errorText if went else f"no answer within {_DOCUMENT_TIMEOUT:g} s"
        raise PageUnresponsive(tab.id, f"could not show an empty page of {origin}: {why}")
    yield


async def _answer_with_empty_page(tab: Tab, paused: Any) -> None:
    async for event in paused:
        request_id = msgspec.json.decode(event.params)["requestId"]
        await tab.execute("Fetch.fulfillRequest", {
            "requestId": request_id, "responseCode": 200, "body": _EMPTY_PAGE,
            "responseHeaders": [{"name": "Content-Type", "value": "text/html"}]})
