"""What an act request must also satisfy once its types hold: the rules one field cannot say.

Exactly one of target and selector (of value and credentialRef, of the wait_for conditions), key
chords, URLs, gestures, emulation, read options, the step count against maxSteps, and Unicode
text in every string cdpseq would send on. Each broken rule is an ``InvalidRequest`` naming the
field.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import msgspec

from ..errors import InvalidRequest
from ..escaping import escape_text, unsafe_at
from .request import (
    STEP_CLASSES,
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
    Pdf,
    Press,
    ReadPage,
    Screenshot,
    Scroll,
    Select,
    Step,
    Swipe,
    Tap,
    TypeText,
    Uncheck,
    Upload,
    WaitFor,
)
from .shown import join_path, key_problem, parse_target, show_name, show_value


def check_request(request: ActRequest, raw_steps: list[dict[str, Any]]) -> None:
    """The checks that span several fields or that msgspec cannot express."""
    if len(request.steps) > request.max_steps:
        raise InvalidRequest("steps", f"{len(request.steps)} steps exceed maxSteps "
                                      f"{request.max_steps}")
    for i, step in enumerate(request.steps):
        _check_step(f"steps[{i}]", step, raw_steps[i])
    if request.emulate is not None:
        _check_emulate(request.emulate)


# The fields' JSON names as the classes keep them: ``msgspec.structs.fields`` would evaluate
# every annotation of the request's types, ~50 ms of each cold CLI call's imports.
_REQUEST_FIELDS = frozenset(ActRequest.__struct_encode_fields__)
_STEP_FIELDS = frozenset(["type", *(name for cls in STEP_CLASSES.values()
                                    for name in cls.__struct_encode_fields__)])


def check_text(raw: dict[str, Any]) -> None:
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
                            _check_value(inner, f"steps[{index}].{name}", name)
        elif key in _REQUEST_FIELDS:
            _check_value(value, key)


def _check_name(name: object, path: str) -> None:
    if isinstance(name, str) and not _is_text(name):
        raise InvalidRequest(join_path(path, show_name(name)),
                             "the field name has a lone surrogate, not Unicode text")


# Fields that name something (an element, an address, a secret) and so cannot mean a control
# character, a bidi override or DEL (``cdpseq.escaping``); newline and tab stay allowed, as
# whitespace in a selector. Text to type or fill keeps them: a step may mean them.
_NAMING_FIELDS = frozenset(["selector", "toSelector", "url", "target", "toTarget",
                            "credentialRef", "frame"])


def _check_value(value: object, path: str, name: str = "") -> None:
    values = value if isinstance(value, list) else [value]  # values, labels, modifiers
    for index, inner in enumerate(values):
        if isinstance(inner, str) and not _is_text(inner):
            where = f"{path}[{index}]" if isinstance(value, list) else path
            raise InvalidRequest(where, f"character {_surrogate_at(inner)} is a lone "
                                 "surrogate, not Unicode text")
    if name in _NAMING_FIELDS and isinstance(value, str):
        refuse_controls(path, name, value)
    elif name == "if" and isinstance(value, Mapping):  # a condition's own selector or target
        for inner_name in ("selector", "target"):
            _check_value(value.get(inner_name), f"{path}.{inner_name}", inner_name)


def refuse_controls(path: str, name: str, value: str) -> None:
    """Refuse ``value`` of the naming field ``name`` at ``path`` if it holds a character of
    the escaping rule (``cdpseq.escaping``): ``InvalidRequest`` naming the field and it."""
    at = unsafe_at(value)
    if at is not None:
        raise InvalidRequest(path, f"character {at} is {escape_text(value[at])}: a {name} "
                             "cannot hold control characters or bidi overrides")


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
        problem = key_problem(step.key)
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
    elif isinstance(step, Pdf):
        _check_pdf(at, step)
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


def _check_pdf(at: str, step: Pdf) -> None:
    if step.path is not None:
        if "\0" in step.path:
            raise InvalidRequest(f"{at}.path", "contains a NUL character")
        path = Path(step.path)
        if path.is_dir():
            raise InvalidRequest(f"{at}.path", f"{show_value(step.path)} is a directory; "
                                               "name a file")
        if not path.absolute().parent.is_dir():
            raise InvalidRequest(f"{at}.path", f"the directory of {show_value(step.path)} does "
                                               "not exist (a relative path is from the "
                                               "working directory)")


def _url_problem(url: str) -> str | None:
    try:
        parts = urlsplit(url)
    except ValueError as e:
        return f"invalid URL {show_value(url)}: {e}"
    # Any scheme is a well-formed request; where a tab may go is the URL policy's to say
    # (javascript:, chrome:, file: ... answer URL_BLOCKED, not INVALID_REQUEST).
    if not parts.scheme:
        return (f"expected an absolute URL (with a scheme, e.g. https://; cdpseq navigates "
                f"{', '.join(URL_SCHEMES)}), got {show_value(url)}")
    if parts.scheme in ("http", "https") and not parts.hostname:
        return f"invalid URL {show_value(url)}: no host"
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
