"""Validation of act requests: untrusted input in, an :class:`ActRequest` or one clear error out.

How it works: :func:`parse_request` turns its input into plain Python data (JSON is decoded
untyped; a bare list becomes ``{"steps": [...]}``; a step's ``action`` key becomes ``type``),
then decodes it strictly with ``msgspec.convert`` (no ``"5"`` -> 5, no bool as int, unknown
fields rejected), then runs the checks one field cannot express alone (``request_rules``:
exactly one of target/selector, of value/credentialRef, of the wait_for conditions, key chords,
URL schemes, the step count against maxSteps). Every failure, msgspec's included, becomes one
:class:`~cdpseq.errors.InvalidRequest` naming the field by its wire path (``steps[2].url``) and
the reason.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, Union, cast

import msgspec
from msgspec import UnsetType

from ..errors import InvalidRequest
from .request import (
    MAX_STEPS,
    STEP_CLASSES,
    STEP_TYPES,
    ActRequest,
    Step,
)
from .request_rules import check_request, check_text
from .shown import join_path, key_problem, show_name, show_value, target_problem


def parse_request(data: bytes | str | Mapping[str, Any] | Sequence[Any] | ActRequest,
                  ) -> ActRequest:
    """Validate an act request given as JSON, Python data or an :class:`ActRequest`.

    A bare list is taken as the steps. Raises :class:`InvalidRequest` and nothing else.
    """
    raw = _to_python(data)
    steps = raw.get("steps")
    total = len(steps) if isinstance(steps, list) else None
    try:
        check_text(raw)
    except InvalidRequest as e:
        raise _invalid(e.field, e.reason, raw, total) from None
    try:
        request = msgspec.convert(raw, ActRequest)
    except msgspec.ValidationError as e:
        try:
            field, reason = _translate(str(e), raw)
        except Exception:  # an unforeseen message shape: still a clean InvalidRequest
            field, reason = "request", str(e).replace("`", "")
        raise _invalid(field, reason, raw, total) from None
    except Exception as e:  # an exotic Python object msgspec cannot read
        raise InvalidRequest("request", f"cannot read request: {e}",
                             total_steps=total) from None
    try:
        check_request(request, cast(list[dict[str, Any]], raw["steps"]))
    except InvalidRequest as e:
        raise _invalid(e.field, e.reason, raw, total) from None
    return request


def _invalid(field: str, reason: str, raw: dict[str, Any], total: int | None) -> InvalidRequest:
    exc = InvalidRequest(field, reason, total_steps=total)
    if exc.index is not None:
        step = raw["steps"][exc.index]
        # Only a type cdpseq knows: an unknown one may be anything (a megabyte, a surrogate).
        if isinstance(step, dict) and isinstance(step.get("type"), str) \
                and step["type"] in STEP_CLASSES:
            exc.step_type = step["type"]
    return exc


def _to_python(data: object) -> dict[str, Any]:
    """Plain dict of the request with the steps list normalized; no validation beyond shape."""
    if isinstance(data, str):
        try:
            data = data.encode("utf-8")
        except UnicodeEncodeError as e:  # a lone surrogate: not text that JSON can carry
            raise InvalidRequest("request", f"invalid JSON: character {e.start} is a lone "
                                 "surrogate, not Unicode text") from None
    if isinstance(data, bytes | bytearray | memoryview):
        try:  # msgspec hands invalid UTF-8 inside a string on, to fail far from the door
            bytes(data).decode("utf-8")
        except UnicodeDecodeError as e:
            raise InvalidRequest("request", f"invalid JSON: byte {e.start} is not UTF-8 "
                                 "text") from None
        try:
            data = msgspec.json.decode(data)
        except msgspec.DecodeError as e:
            raise InvalidRequest("request", f"invalid JSON: {e}") from None
        except RecursionError:
            raise InvalidRequest("request", "invalid JSON: nested too deeply") from None
    elif isinstance(data, msgspec.Struct):
        data = _builtins(data)
    if isinstance(data, Mapping):
        raw = dict(data)
    elif isinstance(data, Sequence) and not isinstance(data, str | bytes | bytearray):
        raw = {"steps": data}
    else:
        raise InvalidRequest("request", "expected an object with steps or a list of steps, "
                             f"got {_kind(data)}")
    steps = raw.get("steps")
    if isinstance(steps, Sequence) and not isinstance(steps, str | bytes | bytearray):
        raw["steps"] = [_normalize_step(i, s, len(steps)) for i, s in enumerate(steps)]
    return raw


def _builtins(value: msgspec.Struct) -> Any:
    try:
        return msgspec.to_builtins(value)
    except Exception as e:  # a Struct holding something that is not plain data
        raise InvalidRequest("request", f"cannot read request: {e}") from None


def _normalize_step(index: int, step: object, total: int) -> object:
    if isinstance(step, msgspec.Struct):
        step = _builtins(step)
    if not isinstance(step, Mapping):
        return step
    out = dict(step)
    if "action" in out:
        action = out.pop("action")
        if "type" in out and out["type"] != action:
            raise InvalidRequest(
                f"steps[{index}].action",
                f"action {show_value(action)} conflicts with type {show_value(out['type'])} "
                "(give one of them)",
                step_type=out["type"] if isinstance(out["type"], str) else None,
                total_steps=total)
        out["type"] = action
    return out


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "bool", int: "int", float: "float", str: "str"}.get(
        type(value), type(value).__name__)


_MSG_RE = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)
_TOKEN_RE = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def _translate(message: str, raw: dict[str, Any]) -> tuple[str, str]:
    """(field path, reason) from a msgspec validation message."""
    m = _MSG_RE.match(message)
    assert m is not None  # the pattern matches any string
    msg, path = m.group("msg"), (m.group("path") or "").lstrip(".")
    if "`key` in" in message:  # a non-string key in a Python mapping
        return "request", "object keys must be strings"
    if mm := re.fullmatch(r"Object missing required field `([^`]+)`", msg):
        return join_path(path, mm.group(1)), "required field missing"
    if mm := re.fullmatch(r"Object contains unknown field `([^`]*)`", msg):
        cls = _type_at(path, raw)
        allowed = ""
        if isinstance(cls, type) and issubclass(cls, msgspec.Struct):
            names = [f.encode_name for f in msgspec.structs.fields(cls)]
            tag = cls.__struct_config__.tag
            where = f" for {tag}" if isinstance(tag, str) else ""
            allowed = f" (allowed{where}: {', '.join(names)})"
        return join_path(path, show_name(mm.group(1))), f"unknown field{allowed}"
    last = path.rsplit(".", 1)[-1]
    if (mm := re.fullmatch(r"Invalid value (.*)", msg)) and re.fullmatch(r"steps\[\d+\]\.type",
                                                                           path):
        return path, (f"unknown step type {show_value(_value_at(path, raw))} "
                      f"(expected one of {', '.join(STEP_TYPES)})")
    if mm := re.fullmatch(r"Invalid enum value (.*)", msg):
        choices = _literal_choices(_type_at(path, raw))
        expected = f" (expected one of {', '.join(map(str, choices))})" if choices else ""
        return path, f"invalid value {show_value(_value_at(path, raw))}{expected}"
    friendly = _friendly(last, path, raw)
    if friendly is not None:
        return path, friendly
    reason = msg.replace("`", "")
    return path or "request", reason[:1].lower() + reason[1:]


def _friendly(last: str, path: str, raw: dict[str, Any]) -> str | None:
    """A clearer reason for fields whose constraint is a regex or a length."""
    value = _value_at(path, raw)
    if last in ("target", "toTarget") and re.fullmatch(r"steps\[\d+\]\.(?:target|toTarget)",
                                                       path):
        return target_problem(value)
    if last == "key" and isinstance(value, str):
        return key_problem(value)
    if last == "credentialRef" and isinstance(value, str):
        return (f"invalid credentialRef {show_value(value)}: expected a name of 1-64 letters, "
                "digits or underscores starting with a letter")
    if last == "selector" and isinstance(value, str):
        return "selector must be a non-empty CSS selector"
    if path == "maxSteps" and isinstance(value, int) and value > MAX_STEPS:
        return f"{value} exceeds the hard ceiling of {MAX_STEPS} steps"
    if path == "steps" and isinstance(value, list):
        if not value:
            return "at least one step is required"
        return f"{len(value)} steps exceed the hard limit of {MAX_STEPS}"
    return None


def _tokens(path: str) -> list[str | int]:
    return [a if a else int(b) for a, b in _TOKEN_RE.findall("." + path)]


def _value_at(path: str | list[str | int], raw: object) -> object:
    value = raw
    for token in _tokens(path) if isinstance(path, str) else path:
        try:
            value = value[token]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _strip(tp: Any) -> Any:
    """The type inside Annotated and Optional wrappers."""
    while True:
        origin = typing.get_origin(tp)
        if origin is Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (Union, types.UnionType) and tp != Step:
            args = [a for a in typing.get_args(tp) if a not in (type(None), UnsetType)]
            if len(args) != 1:
                return tp
            tp = args[0]
        else:
            return tp


def _type_at(path: str, raw: dict[str, Any]) -> Any:
    """The declared type at a wire path of the request, or None if it cannot be told."""
    tp: Any = ActRequest
    tokens = _tokens(path)
    for depth, token in enumerate([*tokens, None]):
        tp = _strip(tp)
        if tp == Step:  # the tagged union: the step's own type tells its class
            step = _value_at(tokens[:depth], raw)
            kind = step.get("type") if isinstance(step, dict) else None
            tp = STEP_CLASSES.get(kind) if isinstance(kind, str) else None
        if token is None:
            return tp
        if isinstance(token, int):
            if typing.get_origin(tp) is not list:
                return None
            tp = typing.get_args(tp)[0]
        else:
            if not (isinstance(tp, type) and issubclass(tp, msgspec.Struct)):
                return None
            by_name = {f.encode_name: f.type for f in msgspec.structs.fields(tp)}
            if token not in by_name:
                return None
            tp = by_name[token]
    return None  # unreachable: the loop returns at the sentinel


def _literal_choices(tp: Any) -> tuple[Any, ...]:
    tp = _strip(tp)
    if typing.get_origin(tp) is list:
        tp = _strip(typing.get_args(tp)[0])
    return typing.get_args(tp) if typing.get_origin(tp) is Literal else ()
