"""Stop, for the length of an act, the navigations its steps lead to a host the policy refuses.

Theory of operation
-------------------
A navigate step checks its URL before sending anything. A click, a form submit or a page script
setting ``location`` can still lead the tab elsewhere; what stops those was measured on headless
Chromium 156 (``tests/engine/test_url_guard.py``):

- A page on http(s) cannot itself open file:, data:, chrome:, devtools: or view-source: in its
  tab or a new one: Chromium refuses such renderer-initiated navigations before they start (a
  form submit to file: is announced by ``Page.frameRequestedNavigation`` and goes no further; a
  server redirect to file: ends on Chromium's error page). ``about:`` pages other than blank
  become ``about:blank#blocked``. So the schemes need nothing more from us.
- Hosts do. With a host allow- or deny-list, the guard enables the Fetch domain on the tab for
  Document requests at the request stage: every main-frame document request — a link, a form, a
  script, and every hop of a server redirect (Fetch pauses each one) — waits for our answer. A
  refused one is failed with ``Aborted``: Chromium then drops the navigation without an error
  page (``BlockedByClient`` would commit one), so the tab stays on its document. Fetch does not
  see data:, about: or blob: navigations, which is why schemes are not left to it.
- A new tab the page opens (``window.open``, ``target=_blank``) is another target, outside the
  tab's Fetch: the guard closes it as soon as the browser names a refused URL for it. Its first
  request has been sent by then; that is said in the report.

Each block is recorded; the runner blames the action it follows (the step that returned last
before it, even when a wait or read step ran meanwhile, or during the final settle) with
``URL_BLOCKED``. Iframes are not judged: the policy is about where the tab goes, not what an
allowed page embeds. Between acts nobody answers Fetch, so interception lasts the act only: a
navigation a page starts by itself after the act has ended is not stopped.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec
import trio

from ..browser import Tab
from ..errors import CdpseqError
from ..wire.connection import Subscription
from ..wire.url_policy import UrlPolicy

log = logging.getLogger("cdpseq.url_guard")

_DOCUMENTS = {"patterns": [{"urlPattern": "*", "resourceType": "Document",
                            "requestStage": "Request"}]}
# Fetch.disable releases what is still paused; it gets this long when the act ends.
_DISABLE_TIMEOUT = 2.0


class BlockedNavigation(msgspec.Struct, frozen=True):
    """A navigation the guard stopped: where to, why, and whether in a popup."""

    url: str
    reason: str
    popup: bool = False
    """True when the page opened a new tab there (closed by the guard)."""

    def describe(self, tab_url: str) -> str:
        """The failure message of the step that led there."""
        if self.popup:
            return (f"the page opened {self.url} in a new tab, which is blocked: {self.reason}; "
                    "the tab was closed (its first request had been sent)")
        return (f"the navigation to {self.url} was stopped before it loaded: {self.reason}; "
                f"the tab stayed at {tab_url}")


class _Request(msgspec.Struct):
    url: str


class _Paused(msgspec.Struct):
    requestId: str
    request: _Request
    frameId: str = ""


class _TargetInfo(msgspec.Struct):
    targetId: str
    type: str
    url: str = ""
    openerId: str | None = None


class _TargetEvent(msgspec.Struct):
    targetInfo: _TargetInfo


class NavigationGuard:
    """What the guard blocked during one act, in order."""

    def __init__(self) -> None:
        self.blocked: list[BlockedNavigation] = []
        self._reported = 0

    def unreported(self) -> list[BlockedNavigation]:
        """What was blocked since the last call."""
        fresh = self.blocked[self._reported:]
        self._reported = len(self.blocked)
        return fresh


@asynccontextmanager
async def guard_navigations(tab: Tab, policy: UrlPolicy) -> AsyncIterator[NavigationGuard]:
    """Guard ``tab`` for the block's duration. Without host lists there is nothing to
    intercept (see the module comment) and this costs nothing."""
    guard = NavigationGuard()
    if not policy.restricts_hosts:
        yield guard
        return
    async with tab.subscribe("Fetch.requestPaused", buffer=1000) as paused, \
            tab.browser.subscribe("Target.targetCreated", "Target.targetInfoChanged",
                                  buffer=1000) as targets:
        await tab.execute("Fetch.enable", _DOCUMENTS)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_answer, tab, policy, guard, paused)
            nursery.start_soon(_close_popups, tab, policy, guard, targets)
            try:
                yield guard
            finally:
                # Disabled while requests are still answered: Fetch.disable lets go what is
                # paused, so a request paused now must be judged before that.
                with trio.move_on_after(_DISABLE_TIMEOUT) as scope:
                    scope.shield = True
                    try:
                        await tab.execute("Fetch.disable")
                    except CdpseqError:
                        pass  # the tab or the connection is gone, and its interception too
                nursery.cancel_scope.cancel()


async def _answer(tab: Tab, policy: UrlPolicy, guard: NavigationGuard,
                  paused: Subscription[Any]) -> None:
    async for event in paused:
        try:
            request = msgspec.json.decode(event.params, type=_Paused)
        except msgspec.DecodeError:
            continue
        url = request.request.url
        reason = policy.check(url) if request.frameId == tab.frame_id else None
        try:
            if reason is None:
                await tab.execute("Fetch.continueRequest", {"requestId": request.requestId})
            else:
                guard.blocked.append(BlockedNavigation(url, reason))
                log.info("blocked %s in %s: %s", url, tab.id, reason)
                await tab.execute("Fetch.failRequest", {"requestId": request.requestId,
                                                        "errorReason": "Aborted"})
        except CdpseqError as exc:  # the request or the tab went away meanwhile
            log.debug("paused request %s not answered: %s", request.requestId, exc)


async def _close_popups(tab: Tab, policy: UrlPolicy, guard: NavigationGuard,
                        targets: Subscription[Any]) -> None:
    closed: set[str] = set()
    async for event in targets:
        try:
            info = msgspec.json.decode(event.params, type=_TargetEvent).targetInfo
        except msgspec.DecodeError:
            continue
        if info.openerId != tab.id or info.type != "page" or info.targetId in closed or \
                info.url in ("", "about:blank"):
            continue
        reason = policy.check(info.url)
        if reason is None:
            continue
        closed.add(info.targetId)
        guard.blocked.append(BlockedNavigation(info.url, reason, popup=True))
        log.info("closing %s opened by %s at %s: %s", info.targetId, tab.id, info.url, reason)
        try:
            await tab.browser.close_tab(info.targetId, destroy_timeout=2.0)
        except CdpseqError as exc:
            log.debug("could not close %s: %s", info.targetId, exc)
