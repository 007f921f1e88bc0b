"""The trio shell around the router: one websocket, one reader task, bounded subscriptions.

The reader task only decodes and hands off: it never awaits anything a user wrote. A response
wakes the task that sent the command; an event is decoded once (only if someone subscribed to
it) and offered to each matching subscription with ``send_nowait``. A subscription whose buffer
is full loses that event, and the loss is counted on the subscription and in ``statistics()`` —
a slow consumer never stalls the connection or the other subscribers.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from typing import Any, Final, Generic, TypeVar, cast, overload

import msgspec
import trio
import trio_websocket

from ..errors import BrowserUnreachable, ConnectionClosed, ServiceRejected
from . import handshake
from .protocol import Command, Event
from .router import IncomingEvent, Pending, Router

log = logging.getLogger("cdpseq.connection")

R = TypeVar("R")
E = TypeVar("E", bound=Event)

MAX_MESSAGE_SIZE: Final = 256 * 1024 * 1024
DEFAULT_BUFFER: Final = 256


class RawEvent(msgspec.Struct, frozen=True):
    """An event delivered undecoded: subscribed to by method name, or unknown to the bindings."""

    method: str
    session_id: str | None
    params: msgspec.Raw

    def decode(self) -> Any:
        """The event's params as plain JSON."""
        return msgspec.json.decode(self.params)


class _AnySession:
    def __repr__(self) -> str:
        return "ANY_SESSION"


ANY_SESSION: Final = _AnySession()
"""Subscribe to an event from every session of the connection."""

SessionFilter = str | None | _AnySession


class Subscription(Generic[E]):
    """A bounded stream of events; iterate it, or ``await receive()``.

    Typed subscriptions yield the event Structs; methods given as strings yield ``RawEvent``.
    When the connection closes, receiving raises ``ConnectionClosed`` once the buffer is drained.
    """

    def __init__(self, connection: Connection, methods: dict[str, type[Event] | None],
                 session: SessionFilter, buffer: int) -> None:
        self._connection = connection
        self.methods = methods
        self.session = session
        self._send, self._receive = trio.open_memory_channel[Any](buffer)
        self.dropped = 0

    def _offer(self, item: Any) -> None:
        try:
            self._send.send_nowait(item)
        except trio.WouldBlock:
            self.dropped += 1
            self._connection._events_dropped += 1
        except trio.ClosedResourceError:
            pass

    async def receive(self) -> E:
        """The next event, waiting for one; ``ConnectionClosed`` once closed."""
        try:
            return cast(E, await self._receive.receive())
        except trio.EndOfChannel:
            raise self._connection._closed_error() from None

    def receive_nowait(self) -> E:
        """Raises ``trio.WouldBlock`` when nothing is buffered."""
        try:
            return cast(E, self._receive.receive_nowait())
        except trio.EndOfChannel:
            raise self._connection._closed_error() from None

    def backlog(self) -> int:
        """How many events are buffered, not received yet."""
        return self._receive.statistics().current_buffer_used

    def __aiter__(self) -> AsyncIterator[E]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[E]:
        while True:
            try:
                item = await self._receive.receive()
            except trio.EndOfChannel:
                return
            yield cast(E, item)

    def _close(self) -> None:
        self._send.close()


class Batch:
    """Commands sent by ``Connection.dispatch``, answered or not yet."""

    def __init__(self, commands: tuple[Command[Any], ...], router: Router) -> None:
        self.commands = commands
        self.dones = [trio.Event() for _ in commands]
        self.sent: list[Pending] = []
        self._router = router

    async def results(self, count: int | None = None) -> list[Any]:
        """The decoded answers of the first ``count`` commands (of all by default), in command
        order, once they are in; the first error (in command order) is raised then."""
        try:
            for done in self.dones[:count]:
                await done.wait()
        finally:
            self.forget(count)
        return [_decoder(c.RESULT).decode(p.outcome())
                for c, p in zip(self.commands[:count], self.sent[:count], strict=True)]

    async def result(self, index: int) -> Any:
        """The decoded answer of command ``index`` once it is in (its error raised)."""
        try:
            await self.dones[index].wait()
        finally:
            if not self.dones[index].is_set():
                self._router.forget(self.sent[index])
        return _decoder(self.commands[index].RESULT).decode(self.sent[index].outcome())

    def forget(self, count: int | None = None) -> None:
        """Stop waiting for the answers still out (of the first ``count`` commands; a late one
        is skipped)."""
        for pending, done in zip(self.sent[:count], self.dones[:count], strict=False):
            if not done.is_set():
                self._router.forget(pending)


class ConnectionStatistics(msgspec.Struct, kw_only=True):
    """Counters of one connection: what is pending, and every frame or event it skipped."""

    pending_commands: int
    sessions: int
    subscriptions: int
    observed_sessions: int
    """Sessions with a synchronous observer (each attached ``Tab`` has one)."""
    frames_received: int
    events_received: int
    events_dropped: int
    event_decode_errors: int
    invalid_frames: int
    unknown_session_frames: int
    unmatched_responses: int
    error_frames_without_id: int


_decoders: dict[type[Any], msgspec.json.Decoder[Any]] = {}


def _decoder(kind: type[R]) -> msgspec.json.Decoder[R]:
    decoder = _decoders.get(kind)
    if decoder is None:
        decoder = _decoders[kind] = msgspec.json.Decoder(kind)
    return decoder


class Connection:
    """One websocket to a browser; use ``open_connection`` to get one."""

    def __init__(self, ws: trio_websocket.WebSocketConnection, url: str) -> None:
        self.url = url
        self._ws = ws
        self._router = Router()
        self._subscriptions: dict[str, list[Subscription[Any]]] = {}
        self._taps: dict[str | None, list[Callable[[IncomingEvent], None]]] = {}
        self._events_dropped = 0
        self._decode_errors = 0

    # -- commands ----------------------------------------------------------------------------

    async def send(self, command: Command[R], *, session_id: str | None = None) -> R:
        """Send a typed command and return its decoded result."""
        raw = await self._execute(command.METHOD, command, session_id)
        return cast(R, _decoder(command.RESULT).decode(raw))

    async def post(self, command: Command[Any], *, session_id: str | None = None) -> None:
        """Send a command without waiting for its answer (dropped when it comes): housekeeping
        nothing needs to wait for. Chrome runs a session's commands in the order they arrive,
        so the session's next command already finds it done."""
        frame = self._router.post(command.METHOD, command, session_id)
        try:
            await self._ws.send_message(frame)
        except trio_websocket.ConnectionClosed as exc:
            self._router.close(_close_reason(exc))

    async def send_all(self, *commands: Command[Any], session_id: str | None = None
                       ) -> list[Any]:
        """Send several commands back to back, then wait for all the answers: one round trip
        instead of one each. Chrome runs a session's commands in the order they arrive. The
        first error (in command order) is raised once every answer is in."""
        batch = await self.dispatch(*commands, session_id=session_id)
        return await batch.results()

    async def dispatch(self, *commands: Command[Any], session_id: str | None = None) -> Batch:
        """Send several commands back to back and return without waiting: ``results()`` of the
        batch waits for the answers (``send_all`` in two halves, so that the caller can work
        while Chrome does). Answers nobody waits for are dropped when they come."""
        batch = Batch(commands, self._router)
        try:
            for command, done in zip(commands, batch.dones, strict=True):
                pending, frame = self._router.command(command.METHOD, command, session_id,
                                                      done.set)
                batch.sent.append(pending)
                try:
                    await self._ws.send_message(frame)
                except trio_websocket.ConnectionClosed as exc:
                    self._router.close(_close_reason(exc))
        except BaseException:
            batch.forget()
            raise
        return batch

    async def execute(self, method: str, params: Mapping[str, Any] | None = None, *,
                      session_id: str | None = None) -> Any:
        """Send any command by name (also ones the bindings don't know); returns plain JSON."""
        return msgspec.json.decode(await self._execute(method, params, session_id))

    async def _execute(self, method: str, params: Any, session_id: str | None) -> msgspec.Raw:
        done = trio.Event()
        pending, frame = self._router.command(method, params, session_id, done.set)
        try:
            try:
                await self._ws.send_message(frame)
            except trio_websocket.ConnectionClosed as exc:
                self._router.close(_close_reason(exc))
            await done.wait()
        finally:
            if not done.is_set():
                self._router.forget(pending)
        return pending.outcome()

    # -- events ------------------------------------------------------------------------------

    @overload
    def subscribe(self, *events: type[E], session_id: SessionFilter = None,
                  buffer: int = DEFAULT_BUFFER) -> _SubscriptionContext[E]: ...
    @overload
    def subscribe(self, *events: type[Event] | str, session_id: SessionFilter = None,
                  buffer: int = DEFAULT_BUFFER) -> _SubscriptionContext[Any]: ...

    def subscribe(self, *events: type[Event] | str, session_id: SessionFilter = None,
                  buffer: int = DEFAULT_BUFFER) -> _SubscriptionContext[Any]:
        """``async with conn.subscribe(page.FrameNavigated, session_id=s) as events:``.

        ``session_id=None`` is the browser session; ``ANY_SESSION`` takes every session.
        """
        if not events:
            raise ValueError("subscribe() needs at least one event")
        if buffer < 1:
            raise ValueError("buffer must be at least 1")
        methods: dict[str, type[Event] | None] = {}
        for event in events:
            if isinstance(event, str):
                methods[event] = None
            else:
                methods[event.METHOD] = event
        return _SubscriptionContext(self, Subscription(self, methods, session_id, buffer))

    def _add(self, sub: Subscription[Any]) -> None:
        if self._router.closed is not None:
            sub._close()
        for method in sub.methods:
            self._subscriptions.setdefault(method, []).append(sub)

    def _remove(self, sub: Subscription[Any]) -> None:
        for method in sub.methods:
            subs = self._subscriptions.get(method, [])
            if sub in subs:
                subs.remove(sub)
            if not subs:
                self._subscriptions.pop(method, None)
        sub._close()

    def _tap(self, session_id: str | None, callback: Callable[[IncomingEvent], None]) -> None:
        """Internal: a synchronous observer of a session's events, run before any subscriber
        sees them, so state it keeps is current by the time a later response is delivered."""
        self._taps.setdefault(session_id, []).append(callback)

    def _untap(self, session_id: str | None) -> None:
        self._taps.pop(session_id, None)

    def _dispatch(self, event: IncomingEvent) -> None:
        for tap in self._taps.get(event.session_id, ()):
            tap(event)
        subs = self._subscriptions.get(event.method)
        if not subs:
            return
        decoded: Any = None
        for sub in tuple(subs):
            if sub.session is not ANY_SESSION and sub.session != event.session_id:
                continue
            kind = sub.methods[event.method]
            if kind is None:
                sub._offer(RawEvent(event.method, event.session_id, event.params))
                continue
            if decoded is None:
                try:
                    decoded = _decoder(kind).decode(event.params)
                except msgspec.DecodeError as exc:
                    self._decode_errors += 1
                    log.warning("could not decode %s: %s", event.method, exc)
                    return
            sub._offer(decoded)

    async def _read_loop(self) -> None:
        reason = "websocket closed"
        try:
            while True:
                frame = await self._ws.get_message()
                event = self._router.receive(frame)
                if event is not None:
                    self._dispatch(event)
        except trio_websocket.ConnectionClosed as exc:
            reason = _close_reason(exc)
        finally:
            self._shutdown(reason)

    def _shutdown(self, reason: str) -> None:
        self._router.close(reason)
        for subs in self._subscriptions.values():
            for sub in subs:
                sub._close()

    def _closed_error(self) -> ConnectionClosed:
        return self._router.closed or ConnectionClosed("subscription ended")

    # -- state -------------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Whether the connection to the browser is gone."""
        return self._router.closed is not None

    @property
    def router(self) -> Router:
        """The I/O-free core that numbers commands and routes frames."""
        return self._router

    def statistics(self) -> ConnectionStatistics:
        """Counters of commands, sessions, subscriptions and frames seen."""
        core = self._router.statistics()
        subs = {id(s) for subs in self._subscriptions.values() for s in subs}
        return ConnectionStatistics(
            pending_commands=core.pending_commands,
            sessions=core.sessions,
            subscriptions=len(subs),
            observed_sessions=len(self._taps),
            frames_received=core.frames_received,
            events_received=core.events_received,
            events_dropped=self._events_dropped,
            event_decode_errors=self._decode_errors,
            invalid_frames=core.invalid_frames,
            unknown_session_frames=core.unknown_session_frames,
            unmatched_responses=core.unmatched_responses,
            error_frames_without_id=core.error_frames_without_id,
        )


class _SubscriptionContext(Generic[E]):
    def __init__(self, connection: Connection, sub: Subscription[E]) -> None:
        self._connection = connection
        self._sub = sub

    async def __aenter__(self) -> Subscription[E]:
        self._connection._add(self._sub)
        return self._sub

    async def __aexit__(self, *exc: object) -> None:
        self._connection._remove(self._sub)


def _close_reason(exc: trio_websocket.ConnectionClosed) -> str:
    reason = exc.reason
    if reason is None:
        return "websocket closed"
    name = getattr(reason, "name", None) or "closed"
    text = f" {reason.reason}" if getattr(reason, "reason", None) else ""
    return f"websocket {name} ({reason.code}){text}"


def _leaves(group: BaseExceptionGroup[BaseException]) -> Iterator[BaseException]:
    for exc in group.exceptions:
        if isinstance(exc, BaseExceptionGroup):
            yield from _leaves(exc)
        else:
            yield exc


@contextmanager
def _single_error() -> Iterator[None]:
    """Nurseries wrap every exception in an ExceptionGroup; a caller of ``open_connection``
    should see the one error that happened, with its traceback, not a group of one."""
    try:
        yield
    except BaseExceptionGroup as group:
        leaves = list(_leaves(group))
        if len(leaves) == 1:
            raise leaves[0] from leaves[0].__cause__
        raise


@asynccontextmanager
async def open_connection(ws_url: str, *, connect_timeout: float = 10.0
                          ) -> AsyncIterator[Connection]:
    """Open one websocket to ``ws_url`` and keep its reader running for the block."""
    with _single_error():
        async with _open_connection(ws_url, connect_timeout) as connection:
            yield connection


@asynccontextmanager
async def _open_connection(ws_url: str, connect_timeout: float) -> AsyncIterator[Connection]:
    async with trio.open_nursery() as nursery:
        try:
            with trio.fail_after(connect_timeout):
                ws = await handshake.connect(
                    nursery, ws_url, max_message_size=MAX_MESSAGE_SIZE,
                    message_queue_size=DEFAULT_BUFFER,
                    # Read what the socket holds (up to 64 KiB), not 4 KiB at a time: a
                    # 400 KB answer arrives in 17 ms with 4 KiB reads and in 11 ms this way.
                    receive_buffer_size=None)
        except trio.TooSlowError:
            raise BrowserUnreachable(ws_url, f"no websocket handshake within {connect_timeout:g} s"
                                     ) from None
        except trio_websocket.ConnectionRejected as exc:  # an HTTP answer, not a websocket
            raise ServiceRejected(ws_url, exc.status_code, exc.body) from None
        except (OSError, trio_websocket.HandshakeError) as exc:
            raise BrowserUnreachable(ws_url, f"websocket connect failed: {exc}") from None
        connection = Connection(ws, ws_url)
        nursery.start_soon(connection._read_loop)
        try:
            yield connection
        finally:
            connection._shutdown("connection closed by cdpseq")
            with trio.CancelScope(shield=True), trio.move_on_after(2):
                await ws.aclose()
            nursery.cancel_scope.cancel()


