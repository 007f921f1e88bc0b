"""The read view: the agent's compact rows turned into a token-cheap text view and a JSON form.

Text view, one line per element::

    Page: "Sign in · Acme Notes" http://127.0.0.1:8000/login.html
    # Sign in to Acme Notes               (headings and text only with filter "all")
    [ref_1] textbox "Email" value="" (email)
    [ref_3] checkbox "Remember me" unchecked
    [ref_4] button "Sign in"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import msgspec

ReadFilter = Literal["interactive", "all"]


class PageElement(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One interactive element of a read: its ref, what it is, and its state.

    Field names are the JSON names (camelCase); state fields are left out when they do not
    apply."""

    ref: str
    """``ref_N``: the element's handle for act steps, valid for the life of its document."""
    nodeId: int | None = None
    """The element's backendNodeId (usable as a ``node_N`` target)."""
    tag: str
    role: str
    name: str
    value: str | None = None
    checked: bool | None = None
    disabled: bool | None = None
    expanded: bool | None = None
    selected: bool | None = None
    inputType: str | None = None
    href: str | None = None
    selector: str
    """A readable selector hint (test id, stable id, role and name, or a CSS path; ``>>``
    separates a frame or shadow host from what is inside it)."""


class PageTab(msgspec.Struct, kw_only=True):
    """The tab a view was read from."""

    id: str
    url: str
    title: str


class ReadDelta(msgspec.Struct, kw_only=True):
    """What a ``compression="delta"`` read is relative to."""

    against: int
    """The number of the read this one is a delta against."""
    removed: list[str]
    """Refs listed then and gone now."""
    unchanged: int


class PageView(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A read of the page: ``text`` for a model or a person, ``elements`` for code."""

    tab: PageTab | None = None
    """The tab read (left out inside an act result, which names its tab once)."""
    elements: list[PageElement]
    """All elements; in a delta, only those added or changed since the earlier read."""
    text: str
    """One line per element (``[ref_N] role "name" state``), after a ``Page:`` line."""
    read: int = 0
    """This read's number among the reads of the tab by this process (1, 2, ...)."""
    delta: ReadDelta | None = None
    full: str | None = None
    """Why a delta was asked for and the full view given instead."""


class ReadHead(msgspec.Struct):
    """The first line of the agent's answer to a read."""

    url: str
    title: str
    base: int
    next: int
    kinds: list[tuple[str, str]]
    """[tag, role] pairs that rows name by index."""
    truncated: bool
    version: int


class Snapshot(msgspec.Struct):
    """What the agent answered to a read: its head line and its rows."""

    head: ReadHead
    rows: list[str]
    """One JSON array per row, as the agent wrote it (see ``read()`` in js/agent/read.js)."""


decode_read_head = msgspec.json.Decoder(ReadHead).decode


Built = dict[str, tuple[int, PageElement | None, str]]
"""Per row as the agent wrote it: its ref number (0 for text), and the element and line built
from it."""


class CachedView(msgspec.Struct):
    view: PageView
    """The view built from this process's last full read with one filter."""
    document: str | None
    """The loader id it was read in."""
    since: dict[str, Any]
    """What the agent compares to tell whether anything changed: version, url, title."""
    built: Built
    """What the view was built from, so that the next read rebuilds only the rows that differ."""


_STATE_FIELDS = ("value", "checked", "disabled", "expanded", "selected", "inputType", "href")


def quote(text: str) -> str:
    if '"' in text or "\\" in text:
        text = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + text + '"'


def element_line(element: PageElement) -> str:
    parts = [f"[{element.ref}] {element.role}"]
    if element.name:
        parts.append(quote(element.name))
    if element.value is not None and element.role not in ("button", "link"):
        parts.append(f"value={quote(element.value)}")
    if element.inputType and element.inputType not in ("text",):
        parts.append(f"({element.inputType})")
    if element.checked is not None:
        parts.append("checked" if element.checked else "unchecked")
    if element.disabled:
        parts.append("disabled")
    if element.expanded is not None:
        parts.append("expanded" if element.expanded else "collapsed")
    if element.selected:
        parts.append("selected")
    return " ".join(parts)


_decode_row = msgspec.json.Decoder(list[Any]).decode


def build_view(snapshot: Snapshot, tab_id: str, node_ids: dict[int, int],
               known: Built | None = None, built: Built | None = None) -> PageView:
    """The view of the agent's rows. This loop runs once per control of the page: a row that
    ``known`` holds (the same text in the same document means the same element, unchanged)
    reuses its element and line without being decoded, and the common new row (no state, no
    hint) is built inline. ``built``, when given, receives what this view was built from."""
    head = snapshot.head
    elements: list[PageElement] = []
    lines = [f"Page: {quote(head.title)} {head.url}"]
    kinds = head.kinds
    get_node_id = node_ids.get
    get_known = (known or {}).get
    for text in snapshot.rows:
        hit = get_known(text)
        if hit is None:
            hit = _build_row(_decode_row(text), kinds, get_node_id)
        elif hit[1] is not None and hit[1].nodeId is None:
            hit[1].nodeId = get_node_id(hit[0])
        if built is not None:
            built[text] = hit
        if hit[1] is not None:
            elements.append(hit[1])
        lines.append(hit[2])
    return PageView(tab=PageTab(id=tab_id, url=head.url, title=head.title), elements=elements,
                    text="\n".join(lines))


def _build_row(row: list[Any], kinds: list[tuple[str, str]],
               get_node_id: Callable[[int], int | None]) -> tuple[int, PageElement | None, str]:
    number = row[0]
    if not number:
        if row[1] == "h":
            return 0, None, "#" * int(row[2]) + " " + row[3]
        return 0, None, row[2]
    tag, role = kinds[row[1]]
    name = row[2]
    state: dict[str, Any] | int = row[3] if len(row) > 3 else 0
    hint: str | int = row[4] if len(row) > 4 else 0
    ref = f"ref_{number}"
    quoted = quote(name)
    element = PageElement(ref=ref, nodeId=get_node_id(number), tag=tag, role=role, name=name,
                          selector=str(hint) if hint else f"role={role}[name={quoted}]")
    if not isinstance(state, dict):
        return number, element, f"[{ref}] {role} {quoted}" if name else f"[{ref}] {role}"
    for key in _STATE_FIELDS:
        if key in state:
            setattr(element, key, state[key])
    return number, element, element_line(element)
