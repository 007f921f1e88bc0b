"""cdpseq as an MCP server: the tools of ``mcp_tools`` over stdio.

One :class:`~cdpseq.front.driver.Driver` lives as long as the server, with a *current tab*;
its browser (attached, or launched and removed by the server) is opened by the first tool call
that needs one and again after it was lost (``_BrowserKeeper``), so the server answers
``initialize`` and ``tools/list`` without a browser and stays up when no browser answers. Tab
objects persist in the Browser, so refs and read baselines persist from one tool call to the
next.
The protocol is ``mcp_rpc``'s (JSON-RPC lines, without I/O); this module is its shell:
:func:`serve` reads stdin and writes stdout on trio, runs each tool call in a task of its own
(a client may cancel one, and calls do not wait on each other's answers), until the client
closes stdin or a signal arrives; then the launched Chromium is removed.

Credentials for ``credentialRef`` come from ``--secrets FILE`` (a JSON object) or the
environment (``CDPSEQ_SECRET_<NAME>``). Their values are never logged, and every tool result is
scrubbed of them.
"""

from __future__ import annotations

import logging
import os
import signal
import stat
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager

import msgspec
import trio

from .. import __version__
from ..browser import Browser, open_browser
from ..engine.secrets import load_secrets
from ..errors import BrowserUnreachable, ConnectionClosed, shown_url
from ..wire.launch import launch_chromium
from ..wire.url_policy import UrlPolicy
from .driver import Driver
from .mcp_rpc import Cancelled, McpProtocol, Refused, Reply, RequestId, ToolCall, Unreadable
from .mcp_tools import INSTRUCTIONS, Tools, tool_definitions

log = logging.getLogger("cdpseq.mcp")


class _StdinLines:
    """Lines of fd 0, each decoded as UTF-8 (a byte that is not becomes U+FFFD).

    A pipe, socket or terminal is waited on in trio and then read, which never blocks and is
    cancelled at once by a signal (a thread blocked in a read would hold the shutdown until the
    client's next line). Anything else (a regular file) is read in a thread.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buffer = bytearray()
        self._eof = False
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            mode = 0
        self._pollable = stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)

    def __aiter__(self) -> _StdinLines:
        return self

    async def __anext__(self) -> str:
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0 or (self._eof and self._buffer):
                cut = end + 1 if end >= 0 else len(self._buffer)
                line = bytes(self._buffer[:cut])
                del self._buffer[:cut]
                return line.decode("utf-8", errors="replace")
            if self._eof:
                raise StopAsyncIteration
            chunk = await self._read()
            if chunk:
                self._buffer += chunk
            else:
                self._eof = True

    async def _read(self) -> bytes:
        try:
            if not self._pollable:
                return await trio.to_thread.run_sync(os.read, self._fd, 1 << 16,
                                                     abandon_on_cancel=True)
            await trio.lowlevel.wait_readable(self._fd)
            return os.read(self._fd, 1 << 16)
        except BlockingIOError:
            return await self._read()
        except OSError:
            return b""


class _Stdout:
    """Whole lines to fd 1, one writer at a time (answers of concurrent calls never interleave).

    Written through a duplicate of the descriptor in trio, so a client slow to read holds up
    only the answer being written, not the calls still running."""

    def __init__(self, fd: int) -> None:
        self._stream = trio.lowlevel.FdStream(os.dup(fd))
        self._lock = trio.Lock()

    async def send(self, line: bytes) -> None:
        async with self._lock:
            try:
                await self._stream.send_all(line)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                log.info("stdout is closed: an answer was not delivered")


class ServeOptions(msgspec.Struct, kw_only=True):
    """``cdpseq mcp``'s options."""

    cdp: str
    launch: bool = False
    launch_if_missing: bool = False
    headful: bool = False
    profile: str | None = None
    """A launched browser's persistent profile directory (kept), else a temporary one."""
    window_size: tuple[int, int] | None = None
    secrets: str | None = None
    policy: UrlPolicy = msgspec.field(default_factory=UrlPolicy)
    allow_evaluate: bool = False
    structured: bool = False
    """Answer structured content (the JSON results) beside the text, and declare output
    schemas: for programs, not models (see the GUIDE's "MCP schemas")."""


@asynccontextmanager
async def _browser(options: ServeOptions) -> AsyncIterator[Browser]:
    """The server's browser: attached to at ``options.cdp``, or launched (and removed on exit)
    with ``--launch``, or with ``--launch-if-missing`` when nothing answers there."""
    async with AsyncExitStack() as stack:
        if not options.launch:
            try:
                browser = await stack.enter_async_context(
                    open_browser(options.cdp, policy=options.policy))
            except BrowserUnreachable as exc:
                if not options.launch_if_missing:
                    raise
                log.info("%s; launching Chromium", exc)
            else:
                log.info("attached to %s (%s)", browser.endpoint, browser.version.product)
                yield browser
                return
        # On a free port: Chromium 156 does not write DevToolsActivePort for a fixed one,
        # which is how launch_chromium learns that the browser listens.
        chromium = await stack.enter_async_context(
            launch_chromium(port=0, headless=not options.headful, user_data_dir=options.profile,
                            window_size=options.window_size))
        log.info("launched Chromium pid=%d endpoint=%s profile=%s", chromium.pid,
                 chromium.endpoint, chromium.profile_dir)
        yield await stack.enter_async_context(open_browser(chromium.ws_url,
                                                          policy=options.policy))


async def _stop_on_signal(signals: AsyncIterator[int], scope: trio.CancelScope) -> None:
    async for signum in signals:
        log.info("received %s; shutting down", signal.Signals(signum).name)
        scope.cancel()
        return


class _BrowserKeeper:
    """The server's browser, opened by the first call that needs one and again by the first
    call after it was lost (its connection closed: the browser quit, crashed or was killed).

    The browser's context (a connection, and a launched Chromium's process and profile) lives
    in a task of the server's nursery, so that a tool call that opened it can end while it
    stays; closing the server ends that task, which removes what it launched."""

    def __init__(self, options: ServeOptions, nursery: trio.Nursery) -> None:
        self._options = options
        self._nursery = nursery
        self._lock = trio.Lock()
        self._browser: Browser | None = None
        self._release = trio.Event()
        self._released = trio.Event()
        self._told = False

    async def get(self) -> Browser:
        """The browser. A browser found gone is this call's ``ConnectionClosed`` (its tabs
        and refs went with it), unless a call already said so (:meth:`lost`); the next call
        opens another. Raises ``BrowserUnreachable`` or ``LaunchError`` when none opens."""
        async with self._lock:
            if self._browser is not None and not self._browser.connection.closed:
                return self._browser
            if self._browser is not None:
                gone = self._browser.endpoint
                log.info("the browser at %s is gone", gone)
                self._release.set()
                with trio.move_on_after(10):  # a launched one's removal is bounded there
                    await self._released.wait()
                self._browser = None
                if not self._told:
                    self._told = True
                    raise ConnectionClosed(f"the browser at {shown_url(gone)} is gone")
            self._release, self._released = trio.Event(), trio.Event()
            self._browser = await self._nursery.start(self._hold, self._release,
                                                      self._released)
            self._told = False
            return self._browser

    async def close(self) -> None:
        """Close the browser (and remove a launched one) the way its context ends without a
        cancellation: a launched Chromium is asked to quit before it is killed."""
        self._release.set()
        if self._browser is not None:
            with trio.move_on_after(15):
                await self._released.wait()

    def lost(self) -> None:
        """A call has answered CONNECTION_LOST: the next one opens a browser again."""
        self._told = True

    async def _hold(self, release: trio.Event, released: trio.Event,
                    task_status: trio.TaskStatus[Browser] = trio.TASK_STATUS_IGNORED) -> None:
        started = False
        try:
            async with _browser(self._options) as browser:
                browser.allow_evaluate = self._options.allow_evaluate
                task_status.started(browser)
                started = True
                await release.wait()
        except Exception as exc:
            if not started:
                raise  # the opening call's error
            # A lost browser's context may fail on its way out: the next call opens another,
            # and the server goes on.
            log.info("the browser's connection ended: %s", exc)
        finally:
            released.set()


async def serve(options: ServeOptions) -> int:
    """Serve MCP over stdio until the client closes stdin (or SIGTERM, SIGINT, SIGHUP).

    The server answers without a browser; one is opened by the first tool call that needs it
    (``_BrowserKeeper``). A startup error (``SecretsError``: the secrets file) propagates as
    it is, for the CLI to report.
    """
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("cdpseq mcp: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    try:
        secrets = load_secrets(options.secrets)
        if secrets:
            log.info("secrets from %s: %s", options.secrets, ", ".join(sorted(secrets)))
        # A signal cancels everything; the browser's task then removes what it launched (a
        # default SIGTERM would leave Chromium behind).
        with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGHUP) as signals:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_stop_on_signal, signals, nursery.cancel_scope)
                keeper = _BrowserKeeper(options, nursery)
                await _serve(options, secrets, keeper)
                await keeper.close()
                nursery.cancel_scope.cancel()
        log.info("stopped")
        return 0
    finally:
        log.removeHandler(handler)


async def _serve(options: ServeOptions, secrets: Mapping[str, str],
                 keeper: _BrowserKeeper) -> None:
    """Answer the client's lines until stdin ends; calls still running then finish and are
    answered (a client may write its requests and close stdin at once)."""
    tools = Tools(Driver(None, secrets), connect=keeper.get, lost=keeper.lost)
    protocol = McpProtocol(name="cdpseq", version=__version__, instructions=INSTRUCTIONS,
                           tools=lambda: tool_definitions(structured=options.structured))
    out = _Stdout(1)
    running: dict[RequestId, trio.CancelScope] = {}

    async def call(request: ToolCall, scope: trio.CancelScope) -> None:
        with scope:
            try:
                output = await tools.call(request.name, request.arguments)
            finally:
                running.pop(request.id, None)
        if not scope.cancelled_caught:
            await out.send(protocol.tool_result(
                request.id, output.text, is_error=output.is_error, images=output.images,
                structured=output.structured if options.structured else None))

    log.info("serving MCP on stdio (cdpseq %s, pid %d)", __version__, os.getpid())
    async with trio.open_nursery() as calls:
        async for line in _StdinLines(0):
            incoming = protocol.receive(line)
            if isinstance(incoming, Reply):
                await out.send(incoming.line)
            elif isinstance(incoming, ToolCall):
                # Known before the task first runs: a cancellation on the next line finds it.
                running[incoming.id] = trio.CancelScope()
                calls.start_soon(call, incoming, running[incoming.id])
            elif isinstance(incoming, Refused):
                refused = tools.refused(incoming.name, incoming.field, incoming.reason)
                await out.send(protocol.tool_result(
                    incoming.id, refused.text, is_error=True,
                    structured=refused.structured if options.structured else None))
            elif isinstance(incoming, Cancelled):
                scope = running.get(incoming.id)
                if scope is not None:
                    log.info("request %r cancelled by the client", incoming.id)
                    scope.cancel()
            elif isinstance(incoming, Unreadable):
                log.info("a line ignored: %s", incoming.reason)
    log.info("client disconnected; shutting down")
