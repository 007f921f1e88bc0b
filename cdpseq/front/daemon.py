"""The CLI daemon: ``python -m cdpseq.front.daemon --socket PATH --idle SECONDS``.

Started by the thin client (``front/client``) on a cold call, it serves the calls of one
cdpseq install on a Unix socket in the daemon directory (``client.daemon_dir``: 0700, the
socket 0600; never TCP). Each call is a trio task running ``cli.run_call`` — the CLI's own
code — with the call's arguments, directory and environment (passed down, never put in
``os.environ``: one call's secrets never reach another), its stdout and stderr sent back as
they are written. What
makes a call warm is ``BrowserCache``: the connection to each browser, its attached tabs,
their agents and page models stay open between calls (the managed browser's too: the keeper
still decides when it stops, and a connection to a browser that went away is dropped).

It exits when no call came for SECONDS, when a newer daemon (another identity) asks it to at
its start, or on SIGTERM/SIGINT; a client whose socket closes (Ctrl-C) has its call cancelled.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import os
import signal
import socket as stdlib_socket
import sys
import warnings
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from functools import partial
from pathlib import Path
from typing import Any

import trio

from ..browser import Browser, open_browser
from ..wire.endpoint import RemoteEndpointWarning, parse_endpoint, warn_if_remote
from ..wire.url_policy import UrlPolicy
from .cli import run_call
from .client import ACCEPTED, EXIT, QUIT, REQUEST, STDERR, STDOUT, CallRequest

_HEADER_SIZE = 5
_MAX_REQUEST = 1 << 30
_POLL = 1.0  # how often a kept connection is checked, and idleness


class _Call:
    """One call being served: where its output goes, its stdin, whether stdout is a TTY."""

    def __init__(self, send: trio.MemorySendChannel[tuple[bytes, bytes]], stdin: bytes,
                 tty: bool) -> None:
        self.send, self.stdin, self.tty = send, stdin, tty


_CURRENT: ContextVar[_Call | None] = ContextVar("cdpseq_daemon_call", default=None)


class _CallStream(io.TextIOBase):
    """``sys.stdout`` or ``sys.stderr`` in the daemon: the current call's (a context variable,
    so that concurrent calls each write to their own), else the daemon's log."""

    def __init__(self, kind: bytes, log: Any) -> None:
        self._kind, self._log = kind, log

    def write(self, text: str) -> int:  # noqa: D102 - io.TextIOBase's
        call = _CURRENT.get()
        if call is None:
            return int(self._log.write(text))
        with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
            call.send.send_nowait((self._kind, text.encode()))
        return len(text)

    def flush(self) -> None:  # noqa: D102
        if _CURRENT.get() is None:
            self._log.flush()

    def isatty(self) -> bool:  # noqa: D102
        call = _CURRENT.get()
        return call is not None and self._kind == STDOUT and call.tty


class _CallStdin:
    """``sys.stdin`` in the daemon: the current call's bytes (sent when an argument is ``-``)."""

    @property
    def buffer(self) -> io.BytesIO:
        """The call's standard input."""
        call = _CURRENT.get()
        return io.BytesIO(call.stdin if call is not None else b"")


class BrowserCache:
    """Connections kept open between calls, one per endpoint, URL policy and evaluate switch;
    an ``Opener`` for ``cli_browser``."""

    def __init__(self, nursery: trio.Nursery) -> None:
        self._nursery = nursery
        self._browsers: dict[Hashable, Browser] = {}
        self._locks: dict[Hashable, trio.Lock] = {}

    @asynccontextmanager
    async def open(self, endpoint: str | int, *, connect_timeout: float = 10.0,
                   policy: UrlPolicy | None = None, allow_evaluate: bool = False
                   ) -> AsyncIterator[Browser]:
        """The kept connection to ``endpoint``, opened now if there is none (or it closed)."""
        key = (str(endpoint), policy, allow_evaluate)
        async with self._locks.setdefault(key, trio.Lock()):
            browser = self._browsers.get(key)
            if browser is None or browser.connection.closed:
                # The connection's tasks must not inherit this call's context (its output).
                token = _CURRENT.set(None)
                try:
                    browser = await self._nursery.start(
                        self._keep, key, endpoint, connect_timeout, policy, allow_evaluate)
                finally:
                    _CURRENT.reset(token)
        # Each call was a process that warned once of an endpoint off loopback: so does each
        # call here, on the call's own stderr (a kept connection warned no one).
        warn_if_remote(parse_endpoint(endpoint), once=False)
        yield browser

    async def _keep(self, key: Hashable, endpoint: str | int, connect_timeout: float,
                    policy: UrlPolicy | None, allow_evaluate: bool, *,
                    task_status: trio.TaskStatus[Browser] = trio.TASK_STATUS_IGNORED) -> None:
        started = False
        try:
            async with open_browser(endpoint, connect_timeout=connect_timeout, policy=policy,
                                    allow_evaluate=allow_evaluate) as browser:
                self._browsers[key] = browser
                task_status.started(browser)
                started = True
                # Polled: the connection sets no event when it closes.
                while not browser.connection.closed:  # noqa: ASYNC110
                    await trio.sleep(_POLL)
        except Exception as exc:  # a browser that went away is no reason to stop the daemon
            if not started:
                raise
            print(f"cdpseq daemon: the connection to {endpoint} ended: {exc!r}", file=sys.stderr)
        finally:
            self._browsers.pop(key, None)


async def _receive_exactly(stream: trio.SocketStream, size: int) -> bytes | None:
    data = bytearray()
    while len(data) < size:
        part = await stream.receive_some(size - len(data))
        if not part:
            return None
        data += part
    return bytes(data)


def _frame(kind: bytes, payload: bytes = b"") -> bytes:
    return len(payload).to_bytes(4, "big") + kind + payload


class Daemon:
    """The calls of one socket, and when to stop."""

    def __init__(self, path: Path, idle: float) -> None:
        self.path, self.idle = path, idle
        self.active = 0
        self.last_call = trio.current_time()
        self.quit = trio.Event()

    async def serve(self, cache: BrowserCache, stream: trio.SocketStream) -> None:
        """One connection: a request (or a newer daemon's QUIT), then the call's output. What
        goes wrong with one connection (a client gone, a request that is not one) ends it, never
        the daemon."""
        try:
            await self._serve(cache, stream)
        except Exception as exc:  # the client sees the stream end: "the daemon ended ..."
            print(f"cdpseq daemon: a connection ended: {exc!r}", file=sys.stderr, flush=True)

    async def _serve(self, cache: BrowserCache, stream: trio.SocketStream) -> None:
        async with stream:
            header = await _receive_exactly(stream, _HEADER_SIZE)
            if header is None:
                return
            size, kind = int.from_bytes(header[:4], "big"), header[4:]
            if kind == QUIT:
                self.quit.set()
                return
            if kind != REQUEST or size > _MAX_REQUEST:
                return
            body = await _receive_exactly(stream, size)
            if body is None:
                return
            self.active += 1
            try:
                await stream.send_all(_frame(ACCEPTED))
                await self._call(stream, CallRequest.decode(body), cache)
            finally:
                self.active -= 1
                self.last_call = trio.current_time()

    async def _call(self, stream: trio.SocketStream, request: CallRequest,
                    cache: BrowserCache) -> None:
        send, receive = trio.open_memory_channel[tuple[bytes, bytes]](math.inf)
        call = _Call(send, request.stdin, request.tty)
        async with trio.open_nursery() as nursery:
            watching = trio.CancelScope()

            async def cancel_on_hangup() -> None:
                # The client sends nothing more: the end of its stream is Ctrl-C (or a kill).
                with watching:
                    with contextlib.suppress(trio.BrokenResourceError):
                        await stream.receive_some()
                    nursery.cancel_scope.cancel()

            nursery.start_soon(_forward, receive, stream)
            nursery.start_soon(cancel_on_hangup)
            token = _CURRENT.set(call)
            try:
                code = await run_call(request.argv, environ=request.env, cwd=request.cwd,
                                      opener=cache.open)
                # Behind the call's last output: the client gets both in one read.
                send.send_nowait((EXIT, str(code).encode()))
            finally:
                _CURRENT.reset(token)
                call.stdin = b""
                send.close()
                watching.cancel()

    async def watch(self, accepting: trio.CancelScope) -> None:
        """Stop accepting calls once idle for ``idle`` seconds, or asked to quit."""
        while not self.quit.is_set():
            with trio.move_on_after(_POLL):
                await self.quit.wait()
            if self.active == 0 and trio.current_time() - self.last_call > self.idle:
                break
        _unlink(self.path)  # the next call starts a new daemon rather than find this one going
        accepting.cancel()


async def _forward(receive: trio.MemoryReceiveChannel[tuple[bytes, bytes]],
                   stream: trio.SocketStream) -> None:
    """The call's output to its client, in order, until the call ends: what was written since
    the last send goes in one (``print`` writes its text and its newline apart), so that a short
    call's answer and exit code reach the client in one write, not four."""
    async for kind, data in receive:
        frames: list[tuple[bytes, bytes]] = []
        pending = [(kind, data)]
        with contextlib.suppress(trio.WouldBlock, trio.EndOfChannel):
            while True:
                pending.append(receive.receive_nowait())
        for kind, data in pending:
            if frames and frames[-1][0] == kind != EXIT:
                frames[-1] = (kind, frames[-1][1] + data)
            else:
                frames.append((kind, data))
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await stream.send_all(b"".join(_frame(kind, data) for kind, data in frames))


def _free(path: Path) -> bool:
    """Make the daemon directory 0700 and ``path`` free to bind, unless a daemon answers there
    (False: it serves the calls)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path.parent, 0o700)
    if os.path.lexists(path):
        if _answers(path):
            return False
        path.unlink()
    return True


def _unlink(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _answers(path: Path) -> bool:
    """Whether a daemon listens on ``path``."""
    with stdlib_socket.socket(stdlib_socket.AF_UNIX, stdlib_socket.SOCK_STREAM) as probe:
        probe.settimeout(1.0)
        try:
            probe.connect(str(path))
        except OSError:
            return False
        return True


def _replace_others(path: Path) -> None:
    """Ask the daemons of other identities in this directory to go (they finish the
    calls they serve); remove the sockets of those that are gone."""
    for other in path.parent.glob("daemon-*.sock"):
        if other == path:
            continue
        with stdlib_socket.socket(stdlib_socket.AF_UNIX, stdlib_socket.SOCK_STREAM) as probe:
            probe.settimeout(1.0)
            try:
                probe.connect(str(other))
                probe.sendall(_frame(QUIT))
            except OSError:
                with contextlib.suppress(OSError):
                    other.unlink()


async def _listen(path: Path) -> trio.socket.SocketType | None:
    """The listening socket at ``path`` (mode 0600, in a 0700 directory); None when another
    daemon already answers there."""
    if not _free(path):
        return None
    sock = trio.socket.socket(stdlib_socket.AF_UNIX, stdlib_socket.SOCK_STREAM)
    mask = os.umask(0o177)  # the socket is never, even for an instant, open to others
    try:
        await sock.bind(str(path))
    finally:
        os.umask(mask)
    os.chmod(path, 0o600)
    sock.listen(64)
    return sock


async def run_daemon(path: Path, idle: float) -> None:
    """Serve calls on ``path`` until idle for ``idle`` seconds, replaced, or signalled."""
    sock = await _listen(path)
    if sock is None:
        return
    _replace_others(path)
    daemon = Daemon(path, idle)
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGHUP) as signals:
        async with trio.open_nursery() as root:
            async def stop_on_signal() -> None:
                async for _ in signals:
                    root.cancel_scope.cancel()

            root.start_soon(stop_on_signal)
            cache = BrowserCache(root)
            try:
                async with trio.open_nursery() as calls:
                    with trio.CancelScope() as accepting:
                        calls.start_soon(daemon.watch, accepting)
                        await trio.serve_listeners(partial(daemon.serve, cache),
                                                   [trio.SocketListener(sock)],
                                                   handler_nursery=calls)
            finally:
                _unlink(path)  # (watch did, unless a signal came first)
            root.cancel_scope.cancel()


def main() -> None:
    """``python -m cdpseq.front.daemon``: serve the CLI's calls (see the module comment)."""
    parser = argparse.ArgumentParser(prog="python -m cdpseq.front.daemon")
    parser.add_argument("--socket", required=True)
    parser.add_argument("--idle", type=float, required=True)
    args = parser.parse_args()
    log = sys.stderr
    # A warning is shown once per process: once per call here, as each call was a process.
    warnings.filterwarnings("always", category=RemoteEndpointWarning)
    sys.stdout, sys.stderr = _CallStream(STDOUT, log), _CallStream(STDERR, log)
    sys.stdin = _CallStdin()
    with contextlib.suppress(KeyboardInterrupt):
        trio.run(run_daemon, Path(args.socket), args.idle)


if __name__ == "__main__":
    main()
