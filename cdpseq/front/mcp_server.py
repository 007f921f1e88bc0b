"""cdpseq as an MCP server: the tools of ``mcp_tools`` over stdio, with the official MCP SDK.

One :class:`~cdpseq.front.driver.Driver` lives as long as the server: one browser (attached, or
launched and cleaned up by the server) and a *current tab*. Tab objects persist in the Browser,
so refs and read baselines persist from one tool call to the next. :func:`build_server` wraps
the tools in the SDK's low-level server, and :func:`serve` runs that over stdio on trio until
the client closes stdin or a signal arrives; then the launched Chromium is removed.

Credentials for ``credentialRef`` come from ``--secrets FILE`` (a JSON object) or the
environment (``CDPSEQ_SECRET_<NAME>``). Their values are never logged, and every tool result is
scrubbed of them.
"""

from __future__ import annotations

import inspect
import logging
import os
import signal
import stat
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any, cast

import mcp.types as types
import msgspec
import trio
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from .. import __version__
from ..browser import Browser, open_browser
from ..engine.secrets import load_secrets
from ..errors import BrowserUnreachable
from ..wire.launch import launch_chromium
from ..wire.url_policy import UrlPolicy
from .driver import Driver
from .mcp_tools import INSTRUCTIONS, Tools, tool_definitions

log = logging.getLogger("cdpseq.mcp")


def build_server(tools: Tools) -> Server[Any]:
    """The SDK's low-level server with the three tools, answered by ``tools``.

    Works with the SDK's constructor-handler API (mcp 2.x) and its decorator API (1.x).
    """
    listed = [types.Tool.model_validate(tool) for tool in tool_definitions()]

    async def call(name: str, arguments: Mapping[str, Any] | None) -> types.CallToolResult:
        output = await tools.call(name, arguments)
        result: dict[str, Any] = {"content": [{"type": "text", "text": output.text}],
                                  "isError": output.is_error}
        result["content"] += [{"type": "image", "data": data, "mimeType": mime}
                              for mime, data in output.images]
        if output.structured is not None:
            result["structuredContent"] = output.structured
        return types.CallToolResult.model_validate(result)

    identity: dict[str, Any] = {"version": __version__, "instructions": INSTRUCTIONS}
    if "on_call_tool" in inspect.signature(Server.__init__).parameters:  # mcp 2.x
        async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
            return types.ListToolsResult(tools=listed)

        async def on_call_tool(ctx: Any, params: types.CallToolRequestParams
                               ) -> types.CallToolResult:
            return await call(params.name, params.arguments)

        return Server("cdpseq", **identity, on_list_tools=on_list_tools,
                      on_call_tool=on_call_tool)

    server: Any = Server("cdpseq", **identity)  # mcp 1.x

    async def list_tools() -> list[types.Tool]:
        return listed

    server.list_tools()(list_tools)
    # The SDK's own jsonschema check would pre-empt parse_request's messages (which name the
    # field the way the API and CLI do); the engine validates everything itself.
    server.call_tool(validate_input=False)(call)
    return cast(Server[Any], server)


class _StdinLines:
    """Lines of a pipe on fd 0, read without a worker thread.

    The SDK reads stdin in a thread, and a thread blocked in a read cannot be cancelled: a
    signal would then wait for the client's next message before the browser is cleaned up.
    Waiting for readability in trio and then reading what is there never blocks.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buffer = bytearray()
        self._eof = False

    @staticmethod
    def usable(fd: int) -> bool:
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            return False
        return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)

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
            await trio.lowlevel.wait_readable(self._fd)
            try:
                chunk = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if chunk:
                self._buffer += chunk
            else:
                self._eof = True


class ServeOptions(msgspec.Struct, kw_only=True):
    """``cdpseq mcp``'s options."""

    cdp: str
    launch: bool = False
    launch_if_missing: bool = False
    headful: bool = False
    secrets: str | None = None
    policy: UrlPolicy = msgspec.field(default_factory=UrlPolicy)
    allow_evaluate: bool = False


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
            launch_chromium(port=0, headless=not options.headful))
        log.info("launched Chromium pid=%d endpoint=%s profile=%s", chromium.pid,
                 chromium.endpoint, chromium.profile_dir)
        yield await stack.enter_async_context(open_browser(chromium.ws_url,
                                                          policy=options.policy))


async def _stop_on_signal(signals: AsyncIterator[int], scope: trio.CancelScope) -> None:
    async for signum in signals:
        log.info("received %s; shutting down", signal.Signals(signum).name)
        scope.cancel()
        return


async def serve(options: ServeOptions) -> int:
    """Serve MCP over stdio until the client closes stdin (or SIGTERM, SIGINT, SIGHUP).

    Startup errors (``SecretsError``, ``BrowserUnreachable``, ``LaunchError``) propagate as
    they are, for the CLI to report.
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
        # A signal cancels everything, startup included; the browser's context then removes
        # what it launched (a default SIGTERM would leave Chromium behind).
        failure: Exception | None = None
        with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGHUP) as signals:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_stop_on_signal, signals, nursery.cancel_scope)
                try:
                    await _serve(options, secrets)
                except Exception as exc:  # re-raised below, outside the nursery's group
                    failure = exc
                nursery.cancel_scope.cancel()
        if failure is not None:
            raise failure
        return 0
    finally:
        log.removeHandler(handler)


async def _serve(options: ServeOptions, secrets: Mapping[str, str]) -> None:
    stdin = _StdinLines(0) if _StdinLines.usable(0) else None
    started = False
    try:
        async with _browser(options) as browser:
            started = True
            browser.allow_evaluate = options.allow_evaluate
            server = build_server(Tools(Driver(browser, secrets)))
            async with stdio_server(stdin=cast(Any, stdin)) as (read, write):
                log.info("serving MCP on stdio (cdpseq %s, pid %d)", __version__, os.getpid())
                await server.run(read, write, server.create_initialization_options())
            log.info("client disconnected; shutting down")
    finally:
        if started:  # the browser is closed, and a launched one removed
            log.info("stopped")
