"""How a request and its parts are shown in messages, and the parts every check reads alike.

Values are echoed cut short and field names escaped (a megabyte of garbage in a request must
not come back as a megabyte of error message); a target is parsed one way for every door.
"""

from __future__ import annotations

import re
import reprlib

from ..errors import InvalidRequest
from ..escaping import escape_text
from .keys import parse_chord
from .request import TargetRef

_TARGET_RE = re.compile(r"^(?:(ref|node)_)?([1-9][0-9]*)$")

# Values are echoed in messages cut short (and nested values only a few levels deep): a
# megabyte of garbage in a request must not come back as a megabyte of error message.
_SHOWN = reprlib.Repr()
_SHOWN.maxlevel, _SHOWN.maxstring, _SHOWN.maxother, _SHOWN.maxlong = 3, 80, 80, 40
_SHOWN.maxlist = _SHOWN.maxdict = 4
NAME_LIMIT = 80


def show_value(value: object) -> str:
    """A value as the request spelled it: JSON words for true/false/null, else repr (cut)."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else str(value).lower()
    return _SHOWN.repr(value)


def show_name(name: str) -> str:
    """A field name the caller sent, for a path: cut to ``NAME_LIMIT`` characters, a lone
    surrogate or a control character written as its escape (``cdpseq.escaping``), the empty
    name as ``""``."""
    if not name:
        return '""'
    name = escape_text(name)
    return name if len(name) <= NAME_LIMIT else name[:NAME_LIMIT - 1] + "…"




def target_problem(value: object) -> str:
    """Why ``value`` is not a target, as messages say it."""
    return (f"invalid target {show_value(value)}: expected \"ref_N\", \"node_N\" or a positive "
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


def join_path(path: str, name: str) -> str:
    """``name`` under ``path`` (a field of the request itself when ``path`` is empty)."""
    return f"{path}.{name}" if path else name


def key_problem(key: str) -> str | None:
    """Why ``key`` is not a valid press key or chord, or None if it is."""
    if len(key) > NAME_LIMIT:  # the longest chord of real keys is a third of this
        return f"invalid key {show_value(key)}: not a key or a chord like 'Enter' or 'Control+A'"
    try:
        parse_chord(key)
    except ValueError as exc:
        return f"invalid key {show_value(key)}: {exc}"
    return None
