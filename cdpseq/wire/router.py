"""The I/O-free core of a CDP connection: ids, pending commands, sessions, frame routing.

Theory of operation. One websocket carries every session (flat mode), so one id counter numbers
every command and a dict maps id -> Pending. ``Router.command`` encodes a command and registers it;
``Router.receive`` takes one frame as received and either completes a Pending (a response), or
returns an ``IncomingEvent`` for the shell to fan out, or returns None (skipped). The envelope is
decoded with the params and result left as ``msgspec.Raw``: the result is decoded later by the
caller into its own Struct, and an event's params only if someone subscribed to it.

Chrome never answers the pending commands of a target that crashed, hung and was closed, or
detached, so the router watches the few events that end a session (``Target.detachedFromTarget``,
``Target.targetCrashed``, ``Inspector.detached``, ``Inspector.targetCrashed``) and fails that
session's pending commands itself. ``close`` fails everything. Nothing a browser sends can raise
out of ``receive``: invalid JSON, unknown sessions, unmatched ids and error frames without an id
are counted, logged, and skipped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import msgspec

from ..errors import ConnectionClosed, ProtocolError, TargetClosed, TargetCrashed
from ..escaping import whole_json
from .events import AttachedToTarget, DetachedFromTarget

log = logging.getLogger("cdpseq.connection")

# Sessions that ended are remembered (to fail later commands at once) up to this many.
_MAX_ENDED_SESSIONS = 4096


class _ErrorBody(msgspec.Struct):
    code: int = 0
    message: str = ""
    data: str | None = None


class _Envelope(msgspec.Struct):
    id: int | None = None
    method: str | None = None
    sessionId: str | None = None
    params: msgspec.Raw = msgspec.Raw()
    result: msgspec.Raw = msgspec.Raw()
    error: _ErrorBody | None = None


class _Outgoing(msgspec.Struct, omit_defaults=True):
    id: int
    method: str
    params: Any = None
    sessionId: str | None = None


class _TargetCrashed(msgspec.Struct):
    targetId: str
    status: str = ""
    errorCode: int = 0


class _InspectorDetached(msgspec.Struct):
    reason: str = "detached"


class IncomingEvent(msgspec.Struct, frozen=True):
    """An event frame, params still undecoded."""

    method: str
    session_id: str | None
    params: msgspec.Raw


class Pending:
    """A command sent and not yet answered; ``on_done`` is called once when it resolves."""

    __slots__ = ("id", "method", "session_id", "on_done", "result", "error")

    def __init__(self, id: int, method: str, session_id: str | None, on_done: Callable[[], None]):
        self.id = id
        self.method = method
        self.session_id = session_id
        self.on_done = on_done
        self.result: msgspec.Raw | None = None
        self.error: Exception | None = None

    def outcome(self) -> msgspec.Raw:
        """The command's raw result, or raise the error it failed with."""
        if self.error is not None:
            raise self.error
        assert self.result is not None, "outcome() before the command resolved"
        return self.result


class RouterStatistics(msgspec.Struct, kw_only=True):
    """Counters of what the router has seen; all skipped frames are counted, none is fatal."""

    pending_commands: int
    sessions: int
    frames_received: int
    events_received: int
    invalid_frames: int
    unknown_session_frames: int
    unmatched_responses: int
    error_frames_without_id: int


_NOT_POSTED = object()
_decode_envelope = msgspec.json.Decoder(_Envelope).decode
_encode = msgspec.json.Encoder().encode
_EMPTY_RESULT = msgspec.Raw(b"{}")


class Router:
    """The connection's I/O-free core: command ids, pending commands, live sessions."""

    def __init__(self) -> None:
        self._next_id = 0
        self._pending: dict[int, Pending] = {}
        self._posted: dict[int, str | None] = {}  # id -> session of commands nobody awaits
        # Live sessions: sessionId -> targetId.
        self._sessions: dict[str, str | None] = {}
        # Sessions that ended: sessionId -> the error their commands fail with.
        self._ended: dict[str, TargetClosed] = {}
        # One crash is reported twice, in either order: Inspector.targetCrashed on the session,
        # Target.targetCrashed to the browser's target discovery. The second report must not
        # fail what was sent between the two (the navigate giving the tab a new renderer):
        # sessionId -> the method of a first report whose pair has not come yet.
        self._crash_reports: dict[str, str] = {}
        self._closed: ConnectionClosed | None = None
        self._frames = 0
        self._events = 0
        self._invalid = 0
        self._unknown_session = 0
        self._unmatched = 0
        self._error_frames = 0

    # -- commands ----------------------------------------------------------------------------

    def command(
        self, method: str, params: Any, session_id: str | None, on_done: Callable[[], None]
    ) -> tuple[Pending, str]:
        """Register a command; returns it and the TEXT frame to send (Chrome drops binary)."""
        if self._closed is not None:
            raise self._closed
        if session_id is not None and session_id in self._ended:
            raise self._ended[session_id]
        self._next_id += 1
        pending = Pending(self._next_id, method, session_id, on_done)
        frame = _encode(_Outgoing(pending.id, method, params, session_id)).decode()
        self._pending[pending.id] = pending
        return pending, frame

    def post(self, method: str, params: Any, session_id: str | None) -> str:
        """Register a command whose answer nobody waits for; returns the TEXT frame to send.
        Its answer is dropped when it comes; it is not pending meanwhile."""
        if self._closed is not None:
            raise self._closed
        if session_id is not None and session_id in self._ended:
            raise self._ended[session_id]
        self._next_id += 1
        self._posted[self._next_id] = session_id
        return _encode(_Outgoing(self._next_id, method, params, session_id)).decode()

    def forget(self, pending: Pending) -> None:
        """Drop a command whose caller stopped waiting (cancelled); a late answer is skipped."""
        self._pending.pop(pending.id, None)

    # -- frames ------------------------------------------------------------------------------

    def receive(self, frame: str | bytes) -> IncomingEvent | None:
        """Take one frame: complete its command, or return its event (else None)."""
        self._frames += 1
        try:
            envelope = _decode_envelope(frame)
        except msgspec.DecodeError as exc:
            try:  # a page's string with a lone surrogate, which Chrome writes as its escape
                text = frame if isinstance(frame, str) else frame.decode("utf-8", "replace")
                envelope = _decode_envelope(whole_json(text))
            except msgspec.DecodeError:
                self._invalid += 1
                log.warning("skipped a frame that is not a CDP message: %s", exc)
                return None
        if envelope.id is not None:
            self._resolve(envelope)
            return None
        if envelope.method is None:
            self._error_frames += 1
            log.warning("skipped a frame with neither id nor method: %r", bytes(frame[:200]) if
                        isinstance(frame, bytes) else frame[:200])
            return None
        session_id = envelope.sessionId
        if session_id is not None and session_id not in self._sessions:
            self._unknown_session += 1
            log.debug("skipped %s from unknown session %s", envelope.method, session_id)
            return None
        self._events += 1
        params = envelope.params or _EMPTY_RESULT
        self._track_lifecycle(envelope.method, session_id, params)
        return IncomingEvent(envelope.method, session_id, params)

    def _resolve(self, envelope: _Envelope) -> None:
        assert envelope.id is not None
        pending = self._pending.pop(envelope.id, None)
        if pending is None and self._posted.pop(envelope.id, _NOT_POSTED) is not _NOT_POSTED:
            return  # a posted command's answer: nobody waits for it
        if pending is None:
            self._unmatched += 1
            log.debug("skipped a response to unknown or abandoned command id %s", envelope.id)
            return
        if envelope.error is not None:
            err = envelope.error
            pending.error = ProtocolError(err.code, err.message, pending.method, err.data)
        else:
            pending.result = envelope.result or _EMPTY_RESULT
        pending.on_done()

    # -- session lifecycle -------------------------------------------------------------------

    def _track_lifecycle(self, method: str, session_id: str | None, params: msgspec.Raw) -> None:
        try:
            if method == "Target.attachedToTarget":
                attached = msgspec.json.decode(params, type=AttachedToTarget)
                self._sessions[attached.sessionId] = attached.targetInfo.targetId
                self._ended.pop(attached.sessionId, None)
            elif method == "Target.detachedFromTarget":
                detached = msgspec.json.decode(params, type=DetachedFromTarget)
                target_id = detached.targetId or self._sessions.get(detached.sessionId)
                self.end_session(detached.sessionId, TargetClosed(
                    target_id, detached.sessionId, "detached from target"))
            elif method == "Target.targetCrashed":
                crashed = msgspec.json.decode(params, type=_TargetCrashed)
                for sid, target_id in list(self._sessions.items()):
                    if target_id == crashed.targetId:
                        self._crashed(sid, method, TargetCrashed(
                            target_id, sid, f"renderer {crashed.status or 'crashed'}"))
            elif method == "Inspector.targetCrashed" and session_id is not None:
                self._crashed(session_id, method, TargetCrashed(
                    self._sessions.get(session_id), session_id))
            elif method == "Inspector.detached" and session_id is not None:
                reason = msgspec.json.decode(params, type=_InspectorDetached).reason
                self.end_session(session_id, TargetClosed(
                    self._sessions.get(session_id), session_id, reason))
        except msgspec.DecodeError as exc:
            log.warning("could not read %s: %s", method, exc)

    def ended(self, session_id: str) -> TargetClosed | None:
        """The error a session ended with, or None while it is live."""
        return self._ended.get(session_id)

    def end_session(self, session_id: str, error: TargetClosed) -> None:
        """The session is gone: fail what it has pending, and every later command at once."""
        self._sessions.pop(session_id, None)
        self._crash_reports.pop(session_id, None)
        self._ended[session_id] = error
        if len(self._ended) > _MAX_ENDED_SESSIONS:
            del self._ended[next(iter(self._ended))]
        self._fail_session(session_id, error)

    def _crashed(self, session_id: str, method: str, error: TargetCrashed) -> None:
        first = self._crash_reports.pop(session_id, None)
        if first is not None and first != method:
            return  # the same crash's other report: what was pending failed at the first
        self._crash_reports[session_id] = method
        self._fail_session(session_id, error)

    def _fail_session(self, session_id: str, error: Exception) -> None:
        # A crashed target keeps its session (a navigation revives it), but nothing it had
        # pending will ever be answered.
        for posted in [i for i, s in self._posted.items() if s == session_id]:
            del self._posted[posted]
        doomed = [p for p in self._pending.values() if p.session_id == session_id]
        for pending in doomed:
            del self._pending[pending.id]
            pending.error = error
            pending.on_done()

    def close(self, reason: str) -> None:
        """The socket is gone: fail everything pending, and every later command."""
        if self._closed is None:
            self._closed = ConnectionClosed(reason)
        pending, self._pending = self._pending, {}
        self._posted.clear()
        for p in pending.values():
            p.error = self._closed
            p.on_done()

    @property
    def closed(self) -> ConnectionClosed | None:
        """Why the connection closed, or None while it is open."""
        return self._closed

    def statistics(self) -> RouterStatistics:
        """Counters of what the router has seen and holds."""
        return RouterStatistics(
            pending_commands=len(self._pending),
            sessions=len(self._sessions),
            frames_received=self._frames,
            events_received=self._events,
            invalid_frames=self._invalid,
            unknown_session_frames=self._unknown_session,
            unmatched_responses=self._unmatched,
            error_frames_without_id=self._error_frames,
        )
