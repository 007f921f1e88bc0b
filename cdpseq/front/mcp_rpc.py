"""MCP's JSON-RPC for a tools-only server, without I/O: what a line from the client asks for,
and the lines that answer it.

Theory of operation. An MCP client speaks to ``cdpseq mcp`` in JSON-RPC 2.0 messages, one per
line of stdin and stdout (the stdio transport). A server that offers tools, and nothing else,
needs only a handful of them: ``initialize`` (agree a protocol revision, say what the server
offers), ``ping``, ``tools/list`` and ``tools/call``; of the notifications it heeds
``notifications/cancelled`` and ignores the rest. :class:`McpProtocol` turns each line into one
of three things for the I/O shell (``mcp_server``) to do: write a :class:`Reply` at once, run a
:class:`ToolCall` (and write :meth:`McpProtocol.tool_result` when it ends), or stop a running call
(:class:`Cancelled`, which is never answered). Nothing here reads, writes or waits, so every rule
is tested without a process.

Speaking the protocol here rather than through the MCP SDK keeps the server's start to the
Python interpreter's and cdpseq's own imports (the SDK's types alone take about a second to
import on a small machine), and lets every answer be written whatever the client sent: a line
that is not UTF-8 and a lone surrogate (an escape JSON allows but no text can hold) are read as
U+FFFD, a NaN as Python reads JSON, and what cannot be encoded is replaced, never an answer
lost.

What is answered: every JSON object with an ``id`` (an integer or a string), at once or when its
call ends, unless the client cancels it. A line that is not JSON, or has no usable ``id``, has
nothing to answer to and is only logged (as the MCP SDK's own server does).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeGuard

import msgspec

from ..escaping import escape_json, escape_text

PROTOCOL_VERSIONS: Final = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
"""The revisions of the MCP specification this server speaks (through ``initialize``), newest
first: it answers a client in the revision the client asked for when it is one of these, and
in the newest otherwise (the client then decides whether it can go on)."""

PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602

RequestId = int | str


class Reply(msgspec.Struct, frozen=True):
    """A line to write back at once."""

    line: bytes


class ToolCall(msgspec.Struct, frozen=True):
    """``tools/call``: run tool ``name`` with ``arguments``, then answer request ``id``."""

    id: RequestId
    name: str
    arguments: dict[str, Any]


class Cancelled(msgspec.Struct, frozen=True):
    """The client no longer wants the answer to request ``id``: stop it, answer nothing."""

    id: RequestId


class Refused(msgspec.Struct, frozen=True):
    """``tools/call`` of tool ``name`` whose arguments are refused before the tool sees them:
    ``field`` (a path into the arguments, as the tools name fields) cannot be read, for
    ``reason``."""

    id: RequestId
    name: str
    field: str
    reason: str


class Unreadable(msgspec.Struct, frozen=True):
    """A line with nothing to answer to (not JSON, no usable id): worth a log line only."""

    reason: str


Incoming = Reply | ToolCall | Refused | Cancelled | Unreadable | None
"""What a line asks the shell to do; None: nothing (a notification it need not heed)."""


class McpProtocol:
    """One client's session: the server's identity and tools, and the revision agreed.

    ``tools`` are the ``tools/list`` entries; ``instructions`` what ``initialize`` tells the
    client about using them.
    """

    def __init__(self, *, name: str, version: str, instructions: str,
                 tools: Callable[[], Sequence[dict[str, Any]]]) -> None:
        self._identity = {"name": name, "version": version}
        self._instructions = instructions
        self._tools = tools
        self._tools_list: bytes | None = None
        self.protocol_version: str | None = None
        """The revision agreed in ``initialize`` (None before it)."""

    def receive(self, line: str) -> Incoming:
        """What one line from the client asks for."""
        try:
            message = json.loads(line)
        except RecursionError:
            return self._too_deep(line)
        except ValueError as exc:
            return Unreadable(f"not JSON: {str(exc)[:200]}")
        if not isinstance(message, dict):
            return Unreadable(f"a JSON {type(message).__name__}, not a JSON-RPC message")
        if "\\ud" in line or "\\uD" in line:  # cheap: only an escape can make a lone surrogate
            message = _whole_unicode(message)
        method = message.get("method")
        if "id" not in message:
            if method == "notifications/cancelled":
                params = message.get("params")
                wanted = params.get("requestId") if isinstance(params, dict) else None
                if _usable_id(wanted):
                    return Cancelled(wanted)
            return None  # a notification (initialized, progress, ...) or a client's answer
        request_id = message["id"]
        if not _usable_id(request_id):
            return Unreadable(f"an id that is not an integer or a string: {request_id!r:.80}")
        if not isinstance(method, str):
            # A client's answer (to a request this server never sends) has no method either.
            if "result" in message or "error" in message:
                return None
            return self._error(request_id, INVALID_REQUEST, "a request needs a method")
        params = message.get("params")
        if params is not None and not isinstance(params, dict):
            return self._error(request_id, INVALID_PARAMS, "params must be an object")
        params = params or {}
        if method == "initialize":
            return self._initialize(request_id, params)
        if method == "ping":
            return self._result(request_id, {})
        if method == "tools/list":
            if self._tools_list is None:
                self._tools_list = _encode({"tools": list(self._tools())})
            return Reply(b'{"jsonrpc":"2.0","id":%s,"result":%s}\n'
                         % (_encode(request_id), self._tools_list))
        if method == "tools/call":
            name, arguments = params.get("name"), params.get("arguments")
            if not isinstance(name, str):
                return self._error(request_id, INVALID_PARAMS, "tools/call needs a tool name")
            if arguments is not None and not isinstance(arguments, dict):
                return self._error(request_id, INVALID_PARAMS,
                                   "tools/call arguments must be an object")
            return ToolCall(request_id, name, arguments or {})
        return self._error(request_id, METHOD_NOT_FOUND, f"method not found: {method:.80}")

    def tool_result(self, request_id: RequestId, text: str, *, is_error: bool,
                    structured: dict[str, Any] | None = None,
                    images: Sequence[tuple[str, str]] = ()) -> bytes:
        """The answer to a ``tools/call``: ``text`` (and ``images``, as (mime, base64 data)) for
        the model, ``structured`` for a program, ``is_error`` when the call failed."""
        result: dict[str, Any] = {"content": [{"type": "text", "text": escape_text(text)}],
                                  "isError": is_error}
        result["content"] += [{"type": "image", "data": data, "mimeType": mime}
                              for mime, data in images]
        if structured is not None:
            result["structuredContent"] = structured
        return self._result(request_id, result).line

    def _too_deep(self, line: str) -> Incoming:
        """A line nested beyond what Python's JSON reader takes: answered when its id can be
        found without reading it whole (a ``tools/call`` as the tools answer invalid
        arguments, naming where the nesting goes too deep)."""
        found = _deep_line(line)
        if found is None:
            return Unreadable("nested too deeply, and no id found")
        request_id, method, name, path = found
        reason = "nested too deeply to read (a request is read to about 900 levels)"
        if method == "tools/call" and path[:2] == ["params", "arguments"] and len(path) > 2:
            shown = _path(path[2:])
            return Refused(request_id, name or "", shown, reason)
        return self._error(request_id, PARSE_ERROR, f"{_path(path)}: {reason}")

    def _initialize(self, request_id: RequestId, params: dict[str, Any]) -> Reply:
        asked = params.get("protocolVersion")
        agreed = asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0]
        self.protocol_version = agreed
        return self._result(request_id, {
            "protocolVersion": agreed,
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": self._identity,
            "instructions": self._instructions})

    def _result(self, request_id: RequestId, result: dict[str, Any]) -> Reply:
        return Reply(_encode({"jsonrpc": "2.0", "id": request_id, "result": result}) + b"\n")

    def _error(self, request_id: RequestId, code: int, message: str) -> Reply:
        return Reply(_encode({"jsonrpc": "2.0", "id": request_id,
                              "error": {"code": code, "message": escape_text(message)}}) + b"\n")


def _usable_id(value: Any) -> TypeGuard[RequestId]:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


_WHITESPACE = " \t\r\n"


def _deep_line(line: str
               ) -> tuple[RequestId, str | None, str | None, list[str | int]] | None:
    """A JSON object's top-level ``id`` and ``method``, its ``params.name``, and the path where
    its nesting passes what :func:`json.loads` reads, found in one pass without recursion
    (None: no usable id)."""
    decode_string = json.decoder.scanstring  # type: ignore[attr-defined]
    path: list[str | int] = []  # the key or index at each open level
    deepest: list[str | int] = []
    top: dict[str, Any] = {}
    i, end, before = 0, len(line), ""  # before: the last structural character
    while i < end:
        char = line[i]
        if char == '"':
            try:
                text, i = decode_string(line, i + 1)
            except ValueError:
                return None
            if before in "{," and path and isinstance(path[-1], str):
                path[-1] = text  # a key
                after = i
                while after < end and line[after] in _WHITESPACE:
                    after += 1
                wanted = path == [text] and text in ("id", "method") or path == ["params", "name"]
                if wanted:
                    value = line[after + 1:].lstrip(_WHITESPACE)
                    try:
                        top[".".join(map(str, path))], _ = json.JSONDecoder().raw_decode(value)
                    except (ValueError, RecursionError):
                        pass
            before = '"'
            continue
        if char in "{[":
            path.append("" if char == "{" else 0)
            if len(path) > len(deepest):
                deepest = list(path)
        elif char in "}]" and path:
            path.pop()
        elif char == "," and path and isinstance(path[-1], int):
            path[-1] += 1
        if char not in _WHITESPACE:
            before = char
        i += 1
    request_id = top.get("id")
    if not _usable_id(request_id):
        return None
    method, name = top.get("method"), top.get("params.name")
    return (request_id, method if isinstance(method, str) else None,
            name if isinstance(name, str) else None, deepest)


def _path(path: list[str | int], shown: int = 6) -> str:
    """``path`` as the tools name fields (``steps[0].target``), cut after ``shown`` levels."""
    text = ""
    for part in path[:shown]:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text + ("…" if len(path) > shown else "")


def _whole_unicode(value: Any) -> Any:
    """``value`` with every lone surrogate (which JSON's escapes can write, and no text can hold)
    replaced by U+FFFD, as a byte that is not UTF-8 is."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, dict):
        return {_whole_unicode(key): _whole_unicode(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole_unicode(item) for item in value]
    return value


def _encode(value: Any) -> bytes:
    """Compact JSON in UTF-8, whatever strings ``value`` holds.

    msgspec writes almost every answer; a string that UTF-8 cannot hold (a lone surrogate a
    client sent, echoed in an error) or a float JSON cannot (NaN) takes the slow way, where the
    one character is replaced and the float written as null, rather than the answer lost."""
    try:
        encoded = msgspec.json.encode(value)
    except (UnicodeEncodeError, msgspec.EncodeError, ValueError, OverflowError):
        encoded = json.dumps(_finite(value), ensure_ascii=False, separators=(",", ":"),
                             allow_nan=False).encode("utf-8", "replace")
    return escape_json(encoded)  # the same JSON; no control character among its bytes


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value
