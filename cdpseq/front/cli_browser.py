"""Which browser a CLI command drives.

``--cdp`` (or ``$CDPSEQ_CDP``) names it, and then only it: nothing answering there is exit 3.
Without either, a Chrome answering on the default port (127.0.0.1:9222) is used as before, and
when none does, the managed browser (``wire/managed``): a headless Chromium started on first use
and kept between commands, named on stderr in one line. ``--cdp managed`` asks for the managed
browser even when a Chrome answers on the default port, and so do launch options
(``--profile``, ``--window-size``, ``--headed``): they start it so, or must match the running one.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

from ..browser import Browser, open_browser
from ..errors import BrowserUnreachable, LaunchError
from ..wire.endpoint import DEFAULT_ENDPOINT
from ..wire.managed import (
    ManagedLaunch,
    close_managed_browser,
    describe,
    idle_timeout,
    state_dir,
    use_managed_browser,
)
from ..wire.url_policy import UrlPolicy

MANAGED = "managed"
"""The ``--cdp`` value that names the managed browser."""

# A DevTools server answers at once; a port that accepts and stays silent is not worth more.
_DEFAULT_PORT_ANSWER = 2.0


@asynccontextmanager
async def cli_browser(cdp: str | None, policy: UrlPolicy | None = None,
                      wanted: ManagedLaunch | None = None) -> AsyncIterator[Browser]:
    """The browser of one command (see the module comment). Raises ``LaunchError`` when the
    managed browser cannot start (a bad ``$CDPSEQ_IDLE_TIMEOUT`` included) or is not as
    ``wanted``."""
    if cdp is not None and cdp != MANAGED:
        async with open_browser(cdp, policy=policy) as named:
            yield named
        return
    async with AsyncExitStack() as stack:
        browser: Browser | None = None
        if cdp != MANAGED and wanted is None:
            try:
                browser = await stack.enter_async_context(
                    open_browser(DEFAULT_ENDPOINT, connect_timeout=_DEFAULT_PORT_ANSWER,
                                 policy=policy))
            except BrowserUnreachable:
                pass
        if browser is None:
            directory = state_dir()
            try:
                idle = idle_timeout()
            except ValueError as exc:
                raise LaunchError(f"cannot start the managed browser: {exc}") from None
            managed = await stack.enter_async_context(use_managed_browser(directory, idle, wanted))
            print(f"cdpseq: {describe(managed)}", file=sys.stderr, flush=True)
            browser = await stack.enter_async_context(
                open_browser(managed.record.ws_url, policy=policy))
        yield browser


async def close_command() -> str:
    """``cdpseq close``: stop the managed browser; the line to print."""
    directory = state_dir()
    record = await close_managed_browser(directory)
    if record is None:
        return f"no managed browser is running (state directory {directory})"
    if record.persistent:
        return (f"stopped the managed Chromium (pid {record.pid}, {record.endpoint}); kept "
                f"its profile {record.profile_dir}")
    return (f"stopped the managed Chromium (pid {record.pid}, {record.endpoint})"
            + (f"; could not remove {record.profile_dir}" if _exists(record.profile_dir)
               else ""))


def _exists(path: str) -> bool:
    return os.path.exists(path)
