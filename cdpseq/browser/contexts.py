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
whenever the browser reports a target destroyed (``window.close()``, a user, another client).
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


async def watch(connection: Connection, *,
                task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """Sweep now, then whenever a target is destroyed, for as long as the connection lasts
    (start it with ``nursery.start``: it listens before it reports started)."""
    try:
        async with connection.subscribe(target.TargetDestroyed) as destroyed:
            task_status.started()
            await sweep(connection)
            async for _ in destroyed:
                while destroyed.backlog():  # one sweep for a burst of closes
                    destroyed.receive_nowait()
                await sweep(connection)
    except CdpseqError:
        return  # the connection closed: nothing left to sweep through
