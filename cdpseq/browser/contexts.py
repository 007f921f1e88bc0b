"""Isolated browser contexts: opened for a tab, disposed with their last page.

A context (``Target.createBrowserContext``) is a separate cookie jar and storage, like an
incognito window. Chromium keeps one until it is disposed or the browser exits, so a context
outlives the cdpseq process that opened it, and its tab id is all a later process needs to act
in it. Which contexts are cdpseq's is written down in the browser itself, as session cookies of
the default context on a host no page can load (``selected.cdpseq.invalid`` in
``front/selection`` does the same for the selected tab): any process can then tell a context it
may dispose from one another client (Playwright, Puppeteer) made on the same browser.

A context is recorded only once its first tab exists, and ``sweep`` disposes each recorded
context that has no page left (its tabs and their popups). Each Browser sweeps when it attaches
(a last tab that closed while no cdpseq process was attached), after every ``close_tab``, and
whenever target discovery reports the last page of a context other than the default one
destroyed (``window.close()``, a user, another client): ``Sweeper`` runs those sweeps in a task
of the Browser's, woken by its synchronous tap (no subscription: a Browser at rest holds none,
and one that only uses the default context sends nothing for them).
"""

from __future__ import annotations

import trio

from ..cdp import target
from ..errors import CdpseqError
from ..wire.connection import Connection

_DOMAIN = "contexts.cdpseq.invalid"
_URL = f"http://{_DOMAIN}/"


async def open_context(connection: Connection) -> str:
    """A new, empty browser context's id; ``record`` it once a tab lives in it."""
    created = await connection.send(target.CreateBrowserContext())
    return created.browserContextId


async def record(connection: Connection, context_id: str) -> None:
    """Mark ``context_id`` as cdpseq's, to be disposed with its last page."""
    await connection.execute("Storage.setCookies", {"cookies": [
        {"name": context_id, "value": "1", "url": _URL}]})


async def recorded(connection: Connection) -> set[str]:
    """The ids of the contexts cdpseq opened in this browser that were not disposed yet."""
    found = await connection.execute("Storage.getCookies")
    return {cookie["name"] for cookie in found.get("cookies", [])
            if cookie.get("domain") == _DOMAIN and isinstance(cookie.get("name"), str)}


async def dispose(connection: Connection, context_id: str) -> None:
    """Dispose ``context_id`` (closing whatever is left in it) and forget it; a context that
    is gone already is only forgotten."""
    try:
        await connection.send(target.DisposeBrowserContext(browserContextId=context_id))
    except CdpseqError:
        pass  # disposed already (by another process's sweep, or the browser)
    # An expired cookie is removed by the jar at once (Storage has no delete).
    await connection.execute("Storage.setCookies", {"cookies": [
        {"name": context_id, "value": "", "url": _URL, "expires": 1}]})


async def sweep(connection: Connection) -> list[str]:
    """Dispose every context cdpseq opened that has no page left; their ids."""
    mine = await recorded(connection)
    if not mine:
        return []
    targets = await connection.send(target.GetTargets())
    alive = {info.browserContextId for info in targets.targetInfos if info.type == "page"}
    emptied = sorted(mine - alive)
    for context_id in emptied:
        await dispose(connection, context_id)
    return emptied


class Sweeper:
    """A browser's sweeps, run in a task of its own (``run``): one at the start, then one after
    each last page of a context it is told of (``notice``, called from the Browser's synchronous
    tap; a burst of them is one sweep)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self._wanted = trio.Event()

    def notice(self) -> None:
        """A target was destroyed: sweep soon."""
        self._wanted.set()

    async def run(self, now: bool = True) -> None:
        """Sweep now (unless ``now`` is False: the browser has no context but its default) and
        after every ``notice``, until the connection closes or the task is cancelled."""
        try:
            if now:
                await sweep(self.connection)
            while True:
                await self._wanted.wait()
                self._wanted = trio.Event()
                await sweep(self.connection)
        except CdpseqError:
            return  # the connection closed: nothing left to sweep through
