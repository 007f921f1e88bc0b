"""Validation of act requests: untrusted input in, an :class:`ActRequest` or one clear error out.

How it works: :func:`parse_request` turns its input into plain Python data (JSON is decoded
untyped; a bare list becomes ``{"steps": [...]}``; a step's ``action`` key becomes ``type``),
then decodes it strictly with ``msgspec.convert`` (no ``"5"`` -> 5, no bool as int, unknown
fields rejected), then runs the checks one field cannot express alone (exactly one of
target/selector, of value/credentialRef, of the wait_for conditions, key chords, URL schemes,
the step count against maxSteps). Every failure, msgspec's included, becomes one
:class:`~cdpseq.errors.InvalidRequest` naming the field by its wire path (``steps[2].url``) and
the reason.
"""

from __future__ import annotations

import re
import reprlib
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, Union, cast
from urllib.parse import urlsplit

import msgspec
from msgspec import UnsetType

from ..errors import InvalidRequest
from .keys import parse_chord
from .request import (
    MAX_STEPS,
    STEP_CLASSES,
    STEP_TYPES,
    URL_SCHEMES,
    ActRequest,
    Check,
    Clear,
    Click,
    Drag,
    Emulate,
    Extract,
    Fill,
    Hover,
    Navigate,
    Press,
    ReadPage,
    Screenshot,
    Scroll,
    Select,
    Step,
    Swipe,
    Tap,
    TargetRef,
    TypeText,
    Uncheck,
    Upload,
    WaitFor,
)

_TARGET_RE = re.compile(r"^(?:(ref|node)_)?([1-9][0-9]*)$")


# Values are echoed in messages cut short (and nested values only a few levels deep): a
# megabyte of garbage in a request must not come back as a megabyte of error message.
_SHOWN = reprlib.Repr()
_SHOWN.maxlevel, _SHOWN.maxstring, _SHOWN.maxother, _SHOWN.maxlong = 3, 80, 80, 40
_SHOWN.maxlist = _SHOWN.maxdict = 4
_NAME_LIMIT = 80


def _show(value: object) -> str:
    """A value as the request spelled it: JSON words for true/false/null, else repr (cut)."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else str(value).lower()
    return _SHOWN.repr(value)


def _name(name: str) -> str:
    """A field name the caller sent, for a path: cut to ``_NAME_LIMIT`` characters, a lone
    surrogate written as its escape, the empty name as ``""``."""
    if not name:
        return '""'
    name = name.encode("utf-8", "backslashreplace").decode()
    return name if len(name) <= _NAME_LIMIT else name[:_NAME_LIMIT - 1] + "…"


def show_name(name: str) -> str:
    """A field name the caller sent, as messages show it in a path (see ``_name``)."""
    return _name(name)


def show_value(value: object) -> str:
    """A request's value as messages show it (see ``_show``), for the engine's own messages."""
    return _show(value)


def target_problem(value: object) -> str:
    """Why ``value`` is not a target, as messages say it."""
    return (f"invalid target {_show(value)}: expected \"ref_N\", \"node_N\" or a positive "
            "backendNodeId (integer or its decimal string), N >= 1")


def parse_target(value: str | int) -> TargetRef:
    """Parse ``"ref_3"``, ``"node_12"``, ``12`` or ``"12"``; raise :class:`InvalidRequest`."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value >= 1:
            return TargetRef("node", value)
    elif isinstance(value, str):
        m = _TARGET_RE.match(value)
        if m:
            return TargetRef("ref" if m.group(1) == "ref" else "node", int(m.group(2)))
    raise InvalidRequest("target", target_problem(value))


def parse_request(data: bytes | str | Mapping[str, Any] | Sequence[Any] | ActRequest,
                  ) -> ActRequest:
    """Validate an act request given as JSON, Python data or an :class:`ActRequest`.

    A bare list is taken as the steps. Raises :class:`InvalidRequest` and nothing else.
    """
    raw = _to_python(data)
    steps = raw.get("steps")
    total = len(steps) if isinstance(steps, list) else None
    try:
        _check_text(raw)
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
        _check(request, cast(list[dict[str, Any]], raw["steps"]))
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
                f"action {_show(action)} conflicts with type {_show(out['type'])} "
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
        return _join(path, mm.group(1)), "required field missing"
    if mm := re.fullmatch(r"Object contains unknown field `([^`]*)`", msg):
        cls = _type_at(path, raw)
        allowed = ""
        if isinstance(cls, type) and issubclass(cls, msgspec.Struct):
            names = [f.encode_name for f in msgspec.structs.fields(cls)]
            tag = cls.__struct_config__.tag
            where = f" for {tag}" if isinstance(tag, str) else ""
            allowed = f" (allowed{where}: {', '.join(names)})"
        return _join(path, _name(mm.group(1))), f"unknown field{allowed}"
    last = path.rsplit(".", 1)[-1]
    if (mm := re.fullmatch(r"Invalid value (.*)", msg)) and re.fullmatch(r"steps\[\d+\]\.type",
                                                                           path):
        return path, (f"unknown step type {_show(_value_at(path, raw))} "
                      f"(expected one of {', '.join(STEP_TYPES)})")
    if mm := re.fullmatch(r"Invalid enum value (.*)", msg):
        choices = _literal_choices(_type_at(path, raw))
        expected = f" (expected one of {', '.join(map(str, choices))})" if choices else ""
        return path, f"invalid value {_show(_value_at(path, raw))}{expected}"
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
        return _key_problem(value)
    if last == "credentialRef" and isinstance(value, str):
        return (f"invalid credentialRef {_show(value)}: expected a name of 1-64 letters, digits or "
                "underscores starting with a letter")
    if last == "selector" and isinstance(value, str):
        return "selector must be a non-empty CSS selector"
    if path == "maxSteps" and isinstance(value, int) and value > MAX_STEPS:
        return f"{value} exceeds the hard ceiling of {MAX_STEPS} steps"
    if path == "steps" and isinstance(value, list):
        if not value:
            return "at least one step is required"
        return f"{len(value)} steps exceed the hard limit of {MAX_STEPS}"
    return None


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


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


def _key_problem(key: str) -> str | None:
    """Why ``key`` is not a valid press key or chord, or None if it is."""
    if len(key) > _NAME_LIMIT:  # the longest chord of real keys is a third of this
        return f"invalid key {_show(key)}: not a key or a chord like 'Enter' or 'Control+A'"
    try:
        parse_chord(key)
    except ValueError as exc:
        return f"invalid key {_show(key)}: {exc}"
    return None


def _check(request: ActRequest, raw_steps: list[dict[str, Any]]) -> None:
    """The checks that span several fields or that msgspec cannot express."""
    if len(request.steps) > request.max_steps:
        raise InvalidRequest("steps", f"{len(request.steps)} steps exceed maxSteps "
                                      f"{request.max_steps}")
    for i, step in enumerate(request.steps):
        _check_step(f"steps[{i}]", step, raw_steps[i])
    if request.emulate is not None:
        _check_emulate(request.emulate)


_REQUEST_FIELDS = frozenset(f.encode_name for f in msgspec.structs.fields(ActRequest))
_STEP_FIELDS = frozenset(["type", *(f.encode_name for cls in STEP_CLASSES.values()
                                    for f in msgspec.structs.fields(cls))])


def _check_text(raw: dict[str, Any]) -> None:
    """Every string of the request that cdpseq would use, field names included, is Unicode
    text: a Python ``str`` may hold lone surrogates, which no JSON message to Chrome (or back to
    the caller) can carry. Only known fields are looked into (the others are refused as
    unknown anyway), so the walk is as shallow as the request's schema."""
    for key, value in raw.items():
        _check_name(key, "")
        if key == "steps" and isinstance(value, list):
            for index, step in enumerate(value):
                if isinstance(step, Mapping):
                    for name, inner in step.items():
                        _check_name(name, f"steps[{index}]")
                        if name in _STEP_FIELDS:
                            _check_value(inner, f"steps[{index}].{name}")
        elif key in _REQUEST_FIELDS:
            _check_value(value, key)


def _check_name(name: object, path: str) -> None:
    if isinstance(name, str) and not _is_text(name):
        raise InvalidRequest(_join(path, _name(name)), "the field name has a lone surrogate, "
                             "not Unicode text")


def _check_value(value: object, path: str) -> None:
    values = value if isinstance(value, list) else [value]  # values, labels, modifiers
    for index, inner in enumerate(values):
        if isinstance(inner, str) and not _is_text(inner):
            where = f"{path}[{index}]" if isinstance(value, list) else path
            raise InvalidRequest(where, f"character {_surrogate_at(inner)} is a lone "
                                 "surrogate, not Unicode text")


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _surrogate_at(value: str) -> int:
    return next(i for i, ch in enumerate(value) if "\ud800" <= ch <= "\udfff")


def _exactly_one(at: str, given: dict[str, object], required: bool = True) -> None:
    present = [name for name, value in given.items() if value is not None]
    names = list(given)
    either = " or ".join(names) if len(names) == 2 else ", ".join(names[:-1]) + f" or {names[-1]}"
    if len(present) > 1:
        raise InvalidRequest(f"{at}.{present[1]}", f"give only one of {either}, not "
                             f"{' and '.join(present)}" if len(names) > 2 else
                             f"give only one of {either}, not both")
    if required and not present:
        raise InvalidRequest(f"{at}.{names[0]}", f"required: give {either}")


def _check_step(at: str, step: Step, raw: dict[str, Any]) -> None:
    _check_forms_and_condition(at, step, raw)
    if step.retries is not None and step.on_error != "retry":
        raise InvalidRequest(f"{at}.retries", 'retries only applies with onError "retry"')
    if isinstance(step, Click | Hover | Check | Uncheck | Fill | Select | TypeText | Press
                  | Scroll):
        _exactly_one(at, {"target": step.target, "selector": step.selector},
                     required=step.TARGETING == "required")
    if isinstance(step, Fill):
        _exactly_one(at, {"value": step.value, "credentialRef": step.credential_ref})
    elif isinstance(step, Select):
        _exactly_one(at, {"value": step.value, "label": step.option_label,
                          "values": step.values, "labels": step.labels})
    elif isinstance(step, Press):
        problem = _key_problem(step.key)
        if problem:
            raise InvalidRequest(f"{at}.key", problem)
    elif isinstance(step, Navigate):
        problem = _url_problem(step.url)
        if problem:
            raise InvalidRequest(f"{at}.url", problem)
    elif isinstance(step, WaitFor):
        conditions: dict[str, object] = {
            "text": step.text, "textGone": step.text_gone, "selector": step.selector,
            "url": step.url, "stable": step.stable,
        }
        present = [name for name, value in conditions.items() if value is not None]
        if len(present) > 1:
            raise InvalidRequest(f"{at}.{present[1]}",
                                 f"give exactly one condition, got {' and '.join(present)}")
        if not present:
            raise InvalidRequest(at, "give exactly one condition: text, textGone, selector, "
                                     "url or stable")
        if step.stable is False:
            raise InvalidRequest(f"{at}.stable", "must be true (omit it to wait for another "
                                                 "condition)")
        if "state" in raw and step.selector is None:
            raise InvalidRequest(f"{at}.state", "state only applies with selector")
    elif isinstance(step, Screenshot | Extract):
        _check_observe_step(at, step)
    elif isinstance(step, ReadPage):
        _check_read_options(at, step)
    if isinstance(step, Tap | Swipe | Drag):
        _check_gesture(at, step)


def _check_gesture(at: str, step: Tap | Swipe | Drag) -> None:
    _exactly_one(at, {"target": step.target, "selector": step.selector},
                 required=step.TARGETING == "required")
    if not isinstance(step, Drag):
        return
    _exactly_one(at, {"toTarget": step.to_target, "toSelector": step.to_selector},
                 required=False)
    offset = "dx" if step.dx is not None else "dy" if step.dy is not None else None
    to = step.to_target is not None or step.to_selector is not None
    if to and offset:
        raise InvalidRequest(f"{at}.{offset}", "give a destination (toTarget or toSelector) "
                                               "or an offset (dx, dy), not both")
    if not to and not offset:
        raise InvalidRequest(f"{at}.toTarget", "required: give toTarget, toSelector or an "
                                               "offset dx/dy")
    if offset and not (step.dx or step.dy):
        raise InvalidRequest(f"{at}.dx", "an offset of 0 moves nothing: give a non-zero dx or dy")


def _check_emulate(emulate: Emulate) -> None:
    given = [f.encode_name for f in msgspec.structs.fields(emulate)
             if f.name != "reset" and getattr(emulate, f.name) is not None]
    if emulate.reset and given:
        raise InvalidRequest(f"emulate.{given[0]}", "reset drops the tab's emulation: give it "
                                                    "alone")
    if not emulate.reset and not given:
        raise InvalidRequest("emulate", "give a device, metrics (width, height, "
                                        "deviceScaleFactor, mobile), touch, userAgent or reset")
    if (emulate.width is None) != (emulate.height is None) and emulate.device is None:
        missing = "height" if emulate.height is None else "width"
        raise InvalidRequest(f"emulate.{missing}", "give width and height together (or a "
                                                   "device)")
    if emulate.user_agent is not None and not _is_text(emulate.user_agent):
        raise InvalidRequest("emulate.userAgent", f"character "
                             f"{_surrogate_at(emulate.user_agent)} is a lone surrogate, not "
                             "Unicode text")


def _check_read_options(at: str, step: ReadPage) -> None:
    _exactly_one(at, {"target": step.target, "selector": step.selector}, required=False)
    if step.target is not None and parse_target(step.target).kind != "ref":
        raise InvalidRequest(f"{at}.target", 'a read\'s scope is a ref "ref_N" (or give a '
                                             "selector)")
    if step.compression == "delta":
        for name, value in (("target", step.target), ("selector", step.selector),
                            ("roles", step.roles), ("viewportOnly", step.viewport_only or None)):
            if value is not None:
                raise InvalidRequest(f"{at}.{name}", "narrows the read, and a delta compares "
                                     "whole-page reads: leave out compression \"delta\" or this")


def _check_observe_step(at: str, step: Screenshot | Extract) -> None:
    _exactly_one(at, {"target": step.target, "selector": step.selector}, required=False)
    if isinstance(step, Screenshot):
        if step.full_page and (step.target is not None or step.selector is not None):
            raise InvalidRequest(f"{at}.fullPage", "captures the whole page: leave it out to "
                                                   "capture one element")
        if step.quality is not None and step.format != "jpeg":
            raise InvalidRequest(f"{at}.quality", 'only applies with format "jpeg"')


def _url_problem(url: str) -> str | None:
    try:
        parts = urlsplit(url)
    except ValueError as e:
        return f"invalid URL {_show(url)}: {e}"
    # Any scheme is a well-formed request; where a tab may go is the URL policy's to say
    # (javascript:, chrome:, file: ... answer URL_BLOCKED, not INVALID_REQUEST).
    if not parts.scheme:
        return (f"expected an absolute URL (with a scheme, e.g. https://; cdpseq navigates "
                f"{', '.join(URL_SCHEMES)}), got {_show(url)}")
    if parts.scheme in ("http", "https") and not parts.hostname:
        return f"invalid URL {_show(url)}: no host"
    return None


def _check_forms_and_condition(at: str, step: Step, raw: dict[str, Any]) -> None:
    """upload and clear name one element; a step's ``if`` names one element, in Unicode text."""
    if isinstance(step, Upload | Clear):
        _exactly_one(at, {"target": step.target, "selector": step.selector})
    if step.when is None:
        return
    _exactly_one(f"{at}.if", {"target": step.when.target, "selector": step.when.selector})
    if step.when.target is not None and parse_target(step.when.target).kind == "node":
        raise InvalidRequest(f"{at}.if.target", "a condition names its element by ref_N or "
                                                "selector, not by node id")
    condition = raw.get("if")
    if isinstance(condition, Mapping):
        for name, inner in condition.items():
            _check_name(name, f"{at}.if")
            _check_value(inner, f"{at}.if.{name}")
