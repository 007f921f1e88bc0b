"""What every answer to a hostile request must be: a result of the result schema, or
INVALID_REQUEST naming a field of the request."""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

from cdpseq.engine.request import ActRequest
from cdpseq.engine.result import ActResult, invalid_result
from cdpseq.errors import InvalidRequest
from cdpseq.escaping import escape_text

REQUEST_FIELDS = frozenset(f.encode_name for f in msgspec.structs.fields(ActRequest))
_STEP_STATUSES = {"ok", "error", "skipped", "not_started"}


def field_of(message: str) -> str:
    """The field an INVALID_REQUEST message names: the text before the first ``": "``."""
    field, sep, _ = message.partition(": ")
    assert sep, f"no field in {message!r}"
    return field


def check_field(field: str, raw: Any) -> None:
    """``field`` is ``request`` (the input as a whole) or a path into the request: its first
    name is a field of the request or a key the caller sent, and a step index is in range."""
    assert field, "empty field"
    if field == "request":
        return
    keys = set(REQUEST_FIELDS)
    if isinstance(raw, dict):
        keys |= {k for k in raw if isinstance(k, str)}
    shown = {_shown_name(key) for key in keys}
    assert any(field == key or field.startswith((key + ".", key + "[")) for key in shown), (
        f"{field!r} names no field of the request")
    index = re.match(r"steps\[(\d+)\]", field)
    if index is not None:
        steps = raw.get("steps") if isinstance(raw, dict) else raw
        assert isinstance(steps, list) and int(index.group(1)) < len(steps), field


def _shown_name(key: str) -> str:
    """A field name as a path shows it: a lone surrogate or a control character escaped
    (``cdpseq.escaping``), cut to 80 characters, the empty name as ``""``."""
    if not key:
        return '""'
    key = escape_text(key)
    return key if len(key) <= 80 else key[:79] + "…"


def check_invalid(exc: InvalidRequest, raw: Any) -> None:
    assert str(exc) == f"{exc.field}: {exc.reason}"
    assert exc.reason
    check_field(exc.field, raw)
    # The answer can be sent (UTF-8 all through) and stays short, however big the input.
    assert len(msgspec.json.encode(invalid_result(exc))) < 2000


def check_result(result: ActResult | dict[str, Any], raw: Any) -> str:
    """A result that decodes with the result schema and adds up; returns its outcome (``ok``
    or the failure's code)."""
    data = msgspec.to_builtins(result) if isinstance(result, ActResult) else result
    if isinstance(data.get("page"), dict) and "text" not in data["page"]:
        # MCP's structured content leaves the page's text view out: it is the text content.
        data = {**data, "page": {**data["page"], "text": ""}}
    decoded = msgspec.json.decode(msgspec.json.encode(data), type=ActResult)
    assert decoded.completed == sum(1 for s in decoded.steps if s.status == "ok")
    skipped_by_if = sum(1 for s in decoded.steps if s.skip_reason)  # their if did not hold
    assert decoded.ok == (decoded.failed is None
                          and decoded.completed + skipped_by_if == decoded.total)
    assert all(s.status in _STEP_STATUSES for s in decoded.steps)
    if decoded.failed is not None and decoded.failed.code == "INVALID_REQUEST":
        assert decoded.steps == [] or all(s.status == "not_started" for s in decoded.steps)
        check_field(field_of(decoded.failed.error), raw)
        return "INVALID_REQUEST"
    assert decoded.total == len(decoded.steps) >= 1
    assert [s.index for s in decoded.steps] == list(range(decoded.total))
    if decoded.failed is not None:
        assert not decoded.ok
        return decoded.failed.code
    assert decoded.ok
    return "ok"


def dumps(value: Any) -> str:
    """JSON text of ``value``, however deeply nested (``json.dumps`` recurses, and stops at
    Python's recursion limit); NaN and infinities as Python writes them, lone surrogates as
    ``\\uXXXX`` escapes, non-string keys as their JSON text."""
    out: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Token):
            out.append(item.text)
        elif isinstance(item, dict):
            stack.append(_Token("}"))
            for i, (key, inner) in enumerate(reversed(list(item.items()))):
                stack.append(inner)
                stack.append(_Token(json.dumps(str(key) if not isinstance(key, str) else key)
                                    + ":"))
                if i < len(item) - 1:
                    stack.append(_Token(","))
            stack.append(_Token("{"))
        elif isinstance(item, list | tuple):
            stack.append(_Token("]"))
            for i, inner in enumerate(reversed(item)):
                stack.append(inner)
                if i < len(item) - 1:
                    stack.append(_Token(","))
            stack.append(_Token("["))
        else:
            out.append(json.dumps(item, allow_nan=True))
    return "".join(out)


class _Token:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text
