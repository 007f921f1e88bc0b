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
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager

from ..browser import Browser, open_browser
from ..errors import BrowserUnreachable, LaunchError
from ..wire.endpoint import DEFAULT_ENDPOINT
from ..wire.managed import (
    ManagedLaunch,
    close_managed_browser,
    describe,
    idle_timeout,
    use_managed_browser,
)
from ..wire.state_dir import state_dir
from ..wire.url_policy import UrlPolicy

MANAGED = "managed"
"""The ``--cdp`` value that names the managed browser."""

Opener = Callable[..., AbstractAsyncContextManager[Browser]]
"""How a command gets a browser: ``open_browser`` (a new connection, closed after the command),
or the daemon's (``front/daemon``: a connection kept for the next commands). Called as
``open_browser`` is: the endpoint, ``connect_timeout``, ``policy`` and ``allow_evaluate``."""

# A DevTools server answers at once; a port that accepts and stays silent is not worth more.
_DEFAULT_PORT_ANSWER = 2.0


@asynccontextmanager
async def cli_browser(cdp: str | None, policy: UrlPolicy | None = None,
                      wanted: ManagedLaunch | None = None, *, allow_evaluate: bool = False,
                      environ: Mapping[str, str] | None = None,
                      opener: Opener = open_browser) -> AsyncIterator[Browser]:
    """The browser of one command (see the module comment), reached by ``opener``; ``environ``
    is the command's environment (default: this process's). Raises ``LaunchError`` when the
    managed browser cannot start (a bad ``$CDPSEQ_IDLE_TIMEOUT`` included) or is not as
    ``wanted``."""
    if cdp is not None and cdp != MANAGED:
        async with opener(cdp, policy=policy, allow_evaluate=allow_evaluate) as named:
            yield named
        return
    async with AsyncExitStack() as stack:
        browser: Browser | None = None
        if cdp != MANAGED and wanted is None:
            try:
                browser = await stack.enter_async_context(
                    opener(DEFAULT_ENDPOINT, connect_timeout=_DEFAULT_PORT_ANSWER,
                           policy=policy, allow_evaluate=allow_evaluate))
            except BrowserUnreachable:
                pass
        if browser is None:
            directory = state_dir(environ)
            try:
                idle = idle_timeout(environ)
            except ValueError as exc:
                raise LaunchError(f"cannot start the managed browser: {exc}") from None
            managed = await stack.enter_async_context(
                use_managed_browser(directory, idle, wanted, environ))
            print(f"cdpseq: {describe(managed)}", file=sys.stderr, flush=True)
            browser = await stack.enter_async_context(
                opener(managed.record.ws_url, policy=policy, allow_evaluate=allow_evaluate))
        yield browser


async def close_command(environ: Mapping[str, str] | None = None) -> str:
    """``cdpseq close``: stop the managed browser; the line to print."""
    directory = state_dir(environ)
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
