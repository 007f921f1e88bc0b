"""The websocket handshake, with a refusal read even when its body ends at the connection's end.

trio-websocket raises ``ConnectionRejected`` for a non-101 answer only once the answer's body is
complete; an answer without Content-Length (browserless writes ``401``, ``429`` that way, then
closes) never completes for it, and the handshake would wait until its timeout. So the stream
under the handshake here keeps the first bytes it received and notes the end of the connection;
when the connection ends before the handshake does, ``connect`` reads the status and the reason
from those bytes and raises ``ConnectionRejected`` as trio-websocket would have.
"""

from __future__ import annotations

import ssl
import urllib.parse
from typing import Any, cast

import trio
import trio_websocket

KEPT_BYTES = 4096


class _KeepingStream(trio.abc.Stream):
    """A stream that passes everything through, keeps the first bytes received and notes EOF."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self._stream = stream
        self.received = bytearray()
        self.ended = trio.Event()

    @property
    def socket(self) -> Any:
        """The socket under the stream (trio-websocket asks it for addresses)."""
        inner = getattr(self._stream, "transport_stream", self._stream)
        return getattr(inner, "socket", None)

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        """Receive as the wrapped stream does, keeping the first bytes and noting the end."""
        try:
            data = await self._stream.receive_some(max_bytes)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self.ended.set()
            raise
        if len(self.received) < KEPT_BYTES:
            self.received += data[:KEPT_BYTES - len(self.received)]
        if not data:
            self.ended.set()
        return data

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        """Send as the wrapped stream does."""
        await self._stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        """As the wrapped stream does."""
        await self._stream.wait_send_all_might_not_block()

    async def send_eof(self) -> None:
        """Not used by a websocket client."""
        raise NotImplementedError

    async def aclose(self) -> None:
        """Close the wrapped stream."""
        await self._stream.aclose()


async def connect(nursery: trio.Nursery, ws_url: str, **options: Any
                  ) -> trio_websocket.WebSocketConnection:
    """``trio_websocket.connect_websocket_url`` (``options`` are its), whose refusals are raised
    even when the refusing answer ends with the connection (see the module comment)."""
    parts = urllib.parse.urlsplit(ws_url)
    host = parts.hostname or "127.0.0.1"
    secure = parts.scheme == "wss"
    port = parts.port or (443 if secure else 80)
    stream: trio.abc.Stream
    if secure:
        stream = await trio.open_ssl_over_tcp_stream(host, port,
                                                     ssl_context=ssl.create_default_context())
    else:
        stream = await trio.open_tcp_stream(host, port)
    keeping = _KeepingStream(stream)
    resource = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    host_header = host if parts.port is None else f"{host}:{port}"
    connection: trio_websocket.WebSocketConnection | None = None

    async def handshake(race: trio.CancelScope) -> None:
        nonlocal connection
        connection = await trio_websocket.wrap_client_stream(
            nursery, cast(trio.SocketStream, keeping), host_header, resource, **options)
        race.cancel()

    async def ended(race: trio.CancelScope) -> None:
        await keeping.ended.wait()
        await trio.sleep(0.05)  # a complete refusal is raised by trio-websocket itself
        race.cancel()

    try:
        async with trio.open_nursery() as race:
            race.start_soon(handshake, race.cancel_scope)
            race.start_soon(ended, race.cancel_scope)
    except BaseException as exc:
        with trio.CancelScope(shield=True):
            await keeping.aclose()
        if isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
            raise exc.exceptions[0] from None  # one task failed: its error, not a group
        raise
    if connection is not None:
        return connection
    await keeping.aclose()
    head, _, body = bytes(keeping.received).partition(b"\r\n\r\n")
    status = head.split(b"\r\n", 1)[0].split(b" ")
    if len(status) >= 2 and status[0].startswith(b"HTTP/") and status[1].isdigit():
        raise trio_websocket.ConnectionRejected(int(status[1]), (), body)
    raise trio_websocket.HandshakeError("the connection ended during the websocket handshake")
