"""The read view: the agent's compact rows turned into a token-cheap text view and a JSON form.

Text view, one line per element::

    Page: "Sign in · Acme Notes" http://127.0.0.1:8000/login.html
    # Sign in to Acme Notes               (headings and text only with filter "all")
    [ref_1] textbox "Email" value="" (email)
    [ref_3] checkbox "Remember me" unchecked
    [ref_4] button "Sign in"
"""

from __future__ import annotations

import re
from collections.abc import Callable
from operator import itemgetter
from typing import Any, Literal

import msgspec

from .answers import AgentError
from .targets import Target, to_agent

ReadFilter = Literal["interactive", "all"]


class PageElement(msgspec.Struct, kw_only=True, omit_defaults=True, rename="camel", gc=False):
    """One interactive element of a read: its ref, what it is, and its state.

    Python names are snake_case, JSON names camelCase (``node_id`` is ``nodeId``); state fields
    are left out when they do not apply."""

    ref: str
    """``ref_N``: the element's handle for act steps, valid for the life of its document."""
    node_id: int | None = None
    """The element's backendNodeId (usable as a ``node_N`` target)."""
    tag: str
    role: str
    name: str
    value: str | None = None
    checked: bool | Literal["mixed"] | None = None
    pressed: bool | None = None
    disabled: bool | None = None
    expanded: bool | None = None
    selected: bool | None = None
    current: bool | str | None = None
    """``aria-current``: true, or the kind of current ("page", "step", ...)."""
    readonly: bool | None = None
    required: bool | None = None
    invalid: bool | None = None
    valuenow: float | None = None
    valuetext: str | None = None
    valuemin: float | None = None
    valuemax: float | None = None
    """The range of a meter, a progress bar, or a widget that says it (``aria-valuemin``)."""
    level: int | None = None
    """A tree item's depth (1 at the top), a tree grid row's ``aria-level``."""
    sort: str | None = None
    """``aria-sort`` of a column header ("ascending", "descending", "other"), on the header
    or on the sort button in it."""
    active: str | None = None
    """The name of the item a listbox, menu, grid or combobox says is active
    (``aria-activedescendant``): where its arrow keys are while focus stays on it."""
    options: list[str] | None = None
    """A ``<select>``'s options (their labels), the first 12."""
    options_more: int | None = None
    """How many more options the select has than ``options`` lists."""
    focused: bool | None = None
    input_type: str | None = None
    href: str | None = None
    context: str | None = None
    """For a control without a name, or whose role and name another shares: what tells it
    apart, e.g. ``row: "Buy milk"``."""
    selector: str
    """A readable selector hint (test id, stable id, role and name, or a CSS path; ``>>``
    separates a frame or shadow host from what is inside it)."""
    bounds: list[int] | None = None
    """[x, y, width, height] of its border box in the top viewport's CSS pixels, when asked
    for (``includeBounds``); null when it has no box."""


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
    """This read's number among the reads of this document, by any process (1, 2, ...)."""
    delta: ReadDelta | None = None
    full: str | None = None
    """Why a delta was asked for and the full view given instead."""
    omitted: int | None = None
    """How many elements ``maxElements`` left out (after the ones listed)."""


class RowDelta(msgspec.Struct):
    """What changed since the document's previous read (``read()`` in js/agent/read.js)."""

    against: int
    removed: list[str]
    """Rows of the previous read that are not among this read's."""
    changed: list[int]
    """Indices of this read's rows that the previous read did not have."""
    unchanged: int


class ReadHead(msgspec.Struct):
    """The first line of the agent's answer to a read (only ``unchanged`` and ``read`` when
    nothing changed since the caller's last read)."""

    url: str = ""
    title: str = ""
    base: int = 0
    next: int = 0
    kinds: list[tuple[str, str]] = []
    """[tag, role] pairs that rows name by index."""
    truncated: bool = False
    version: int = 0
    read: int = 0
    """This read's number among the document's reads."""
    unchanged: bool = False
    full: str | None = None
    """Why a delta read answers in full."""
    delta: RowDelta | None = None
    baseline: str = ""
    """What names this read's rows for the next read (its ``splice``)."""
    splices: list[tuple[int, int, int]] | None = None
    """When the rows are what changed against the caller's rows: [index, rows removed there,
    rows added there] per splice, in row order (``patch_view``)."""


class Snapshot(msgspec.Struct):
    """What the agent answered to a read: its head line and its rows."""

    head: ReadHead
    rows: list[str]
    """One JSON array per row, as the agent wrote it (see ``read()`` in js/agent/read.js)."""


decode_read_head = msgspec.json.Decoder(ReadHead).decode


Hit = tuple[int, PageElement | None, str]
"""A row built: its ref number (0 for text), its element (none for text), its line."""

Built = dict[str, Hit]
"""Rows as the agent wrote them, and what was built from them."""


class CachedView(msgspec.Struct):
    """A tab's last full read with one filter, kept to answer the next read cheaply."""

    view: PageView
    """The view built from this process's last full read with one filter."""
    document: str | None
    """The loader id it was read in."""
    since: dict[str, Any]
    """What the agent compares to tell whether anything changed (version, url, title), and
    the read's ``splice``: while these rows are the document's last read, the next read answers
    with what changed against them."""
    rows: list[str]
    """The rows the view was built from, as the agent wrote them."""
    hits: list[Hit]
    """What was built from each row: the next read rebuilds only the rows that differ."""
    lines: list[str] | None = None
    """The view's lines after its first, one per hit (its line), once a patch needed them."""
    texts: int | None = None
    """How many hits are text (no element), once a patch needed to know."""
    complete: bool = False
    """Whether every element of ``view`` has its node id: a patch then leaves the kept ones be
    (ids are only ever added to an element, and forgotten only with the whole cache)."""


# (the agent's key, the PageElement attribute) of each state a row may carry.
_STATE_FIELDS = tuple((key, re.sub("[A-Z]", lambda m: "_" + m[0].lower(), key)) for key in (
    "value", "checked", "pressed", "disabled", "expanded", "selected", "current", "readonly",
    "required", "invalid", "valuenow", "valuetext", "valuemin", "valuemax", "level", "sort",
    "active", "options", "optionsMore", "focused", "inputType", "href", "context"))
_STATE_ATTRIBUTES = dict(_STATE_FIELDS)


def quote(text: str) -> str:
    """Text in double quotes, its quotes and backslashes escaped."""
    if '"' in text or "\\" in text:
        text = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + text + '"'


# Roles of containers: a container without a name is common, a control without one is not.
_CONTAINER_ROLES = frozenset({
    "form", "dialog", "alertdialog", "navigation", "main", "banner", "contentinfo",
    "complementary", "search", "region", "table", "grid", "treegrid", "list", "menu", "menubar",
    "tablist", "listbox", "tree", "toolbar", "radiogroup", "group", "feed", "sectionheader",
    "sectionfooter"})


def element_line(element: PageElement) -> str:
    """An element's line of the text view: ref, role, name, value and states."""
    parts = [f"[{element.ref}] {element.role}"]
    if element.name:
        parts.append(quote(element.name))
    elif element.role not in _CONTAINER_ROLES:
        parts.append("(no name)")
    if element.value is not None and (element.role not in ("button", "link")
                                      or element.input_type == "file"):
        parts.append(f"value={quote(element.value)}")
    if element.options is not None:
        more = f" +{element.options_more} more" if element.options_more else ""
        parts.append(f"options=[{', '.join(map(quote, element.options))}]{more}")
    if element.input_type and element.input_type not in ("text",):
        parts.append(f"({element.input_type})")
    if element.checked is not None:
        parts.append("mixed" if element.checked == "mixed" else
                     "checked" if element.checked else "unchecked")
    if element.pressed is not None:
        parts.append("pressed" if element.pressed else "not pressed")
    if element.disabled:
        parts.append("disabled")
    if element.expanded is not None:
        parts.append("expanded" if element.expanded else "collapsed")
    if element.selected:
        parts.append("selected")
    if element.current:
        parts.append("current" if element.current is True else f"current={element.current}")
    for flag in ("readonly", "required", "invalid", "focused"):
        if getattr(element, flag):
            parts.append(flag)
    if element.valuetext is not None:
        parts.append(f"value={quote(element.valuetext)}")
    elif element.valuenow is not None:
        parts.append(f"value={element.valuenow:g}")
    if element.valuemin is not None or element.valuemax is not None:
        low = "" if element.valuemin is None else f"{element.valuemin:g}"
        high = "" if element.valuemax is None else f"{element.valuemax:g}"
        parts.append(f"range={low}..{high}")
    if element.level is not None:
        parts.append(f"level={element.level}")
    if element.sort:
        parts.append(f"sorted {element.sort}" if element.sort in ("ascending", "descending")
                     else f"sort={element.sort}")
    if element.active:
        parts.append(f"active={quote(element.active)}")
    if element.context:
        parts.append(f"({element.context})")
    return " ".join(parts)


_decode_row = msgspec.json.Decoder(list[Any]).decode


def build_view(snapshot: Snapshot, tab_id: str, node_ids: dict[int, int],
               known: Built | None = None, hits: list[Hit] | None = None) -> PageView:
    """The view of the agent's rows. This loop runs once per control of the page: a row that
    ``known`` holds (the same text in the same document means the same element, unchanged)
    reuses its element and line without being decoded. ``hits``, when given, receives what
    each row was built into."""
    head = snapshot.head
    elements: list[PageElement] = []
    lines = [f"Page: {quote(head.title)} {head.url}"]
    kinds = head.kinds
    get_node_id = node_ids.get
    get_known = (known or {}).get
    add_element = elements.append
    add_line = lines.append
    for text in snapshot.rows:
        hit = get_known(text)
        if hit is None:
            hit = _build_row(_decode_row(text), kinds, get_node_id)
        elif hit[1] is not None and hit[1].node_id is None:
            hit[1].node_id = get_node_id(hit[0])
        if hits is not None:
            hits.append(hit)
        if hit[1] is not None:
            add_element(hit[1])
        add_line(hit[2])
    return PageView(tab=PageTab(id=tab_id, url=head.url, title=head.title), elements=elements,
                    text="\n".join(lines))


def patch_view(snapshot: Snapshot, tab_id: str, node_ids: dict[int, int], cached: CachedView
               ) -> tuple[CachedView, list[PageElement]]:
    """The view ``build_view`` makes of the rows of ``cached`` with the agent's splices
    (``ReadHead.splices``) done to them, as a cache (``complete``: whether every element kept
    has its node id), and the elements of the rows added. Only the rows added are decoded and
    built; the kept rows, hits and lines are spliced in place (the caller lets go of
    ``cached`` first), not gone through one by one: a big page's read after a one-row change
    costs what changed, a copy of the elements and one join of the text."""
    head = snapshot.head
    kinds = head.kinds
    get_node_id = node_ids.get
    added = snapshot.rows
    rows, hits = cached.rows, cached.hits
    lines = cached.lines if cached.lines is not None else [hit[2] for hit in hits]
    texts = cached.texts if cached.texts is not None else _texts_in(hits, 0, len(hits))
    elements = list(cached.view.elements)  # the earlier view's list: its reader's
    complete = cached.complete
    if not complete:  # ids learned since for elements that lacked them
        for number, element, _ in hits:
            if element is not None and element.node_id is None:
                element.node_id = get_node_id(number)
        complete = None not in [element.node_id for element in elements]
    fresh: list[PageElement] = []
    taken = row_at = element_at = 0  # the splices come in row order: where the last one ended
    for at, removed, count in head.splices or []:
        if at < row_at or removed < 0 or at + removed > len(rows) or taken + count > len(added):
            raise AgentError("AGENT_FAILED", f"in-page agent answered a splice that does not "
                             f"fit the rows read: {[at, removed, count]}")
        built = [_build_row(_decode_row(text), kinds, get_node_id)
                 for text in added[taken:taken + count]]
        made = [hit[1] for hit in built if hit[1] is not None]
        element_at += at - row_at - (texts and _texts_in(hits, row_at, at))
        gone_texts = texts and _texts_in(hits, at, at + removed)
        elements[element_at:element_at + removed - gone_texts] = made
        texts += count - len(made) - gone_texts
        rows[at:at + removed] = added[taken:taken + count]
        hits[at:at + removed] = built
        lines[at:at + removed] = [hit[2] for hit in built]
        fresh += made
        taken += count
        row_at, element_at = at + count, element_at + len(made)
    if taken != len(added):
        raise AgentError("AGENT_FAILED", f"in-page agent's splices place {taken} of the "
                         f"{len(added)} rows it answered")
    view = PageView(tab=PageTab(id=tab_id, url=head.url, title=head.title), elements=elements,
                    text="\n".join([f"Page: {quote(head.title)} {head.url}", *lines]))
    return msgspec.structs.replace(cached, view=view, lines=lines, texts=texts,
                                   complete=complete), fresh


def _texts_in(hits: list[Hit], start: int, end: int) -> int:
    """How many of ``hits[start:end]`` are text rows (ref number 0), counted in C."""
    return list(map(itemgetter(0), hits[start:end])).count(0)


def _build_row(row: list[Any], kinds: list[tuple[str, str]],
               get_node_id: Callable[[int], int | None]) -> tuple[int, PageElement | None, str]:
    number = row[0]
    if not number:
        if row[1] == "h":
            return 0, None, "#" * int(row[2]) + " " + row[3]
        return 0, None, row[2]
    tag, role = kinds[row[1]]
    name = row[2]
    ref = f"ref_{number}"
    quoted = quote(name)
    state: dict[str, Any] | int = row[3] if len(row) > 3 else 0
    hint: str | int = row[4] if len(row) > 4 else 0
    element = PageElement(ref=ref, node_id=get_node_id(number), tag=tag, role=role, name=name,
                          selector=str(hint) if hint else f"role={role}[name={quoted}]")
    if not isinstance(state, dict):
        return number, element, f"[{ref}] {role} {quoted}" if name else element_line(element)
    for key, value in state.items():
        attribute = _STATE_ATTRIBUTES.get(key)
        if attribute is not None:
            setattr(element, attribute, value)
    if len(state) == 1 and name and state.get("context"):  # a grid's "Edit" in its row
        return number, element, f"[{ref}] {role} {quoted} ({state['context']})"
    return number, element, element_line(element)


def delta_view(view: PageView, snapshot: Snapshot) -> PageView:
    """``view`` (in full) as what changed since the read its head's delta is against; in full
    when the agent said why not."""
    head = snapshot.head
    if head.delta is None:
        reason = head.full or "no delta"
        return msgspec.structs.replace(view, full=reason,
                                       text=f"(full view: {reason})\n{view.text}")
    rows = snapshot.rows
    kinds = head.kinds
    changed = [_build_row(_decode_row(rows[i]), kinds, lambda _: None) for i in
               head.delta.changed]
    gone = [_build_row(_decode_row(row), kinds, lambda _: None) for row in head.delta.removed]
    still = {number for number, _, _ in changed if number}
    removed = [(number, line) for number, _, line in gone if not number or number not in still]
    was = {number for number, _, _ in gone if number}
    lines = [f"{'~' if number and number in was else '+'} {line}" for number, _, line in changed]
    lines += [f"- {line}" for _, line in removed]
    refs = {f"ref_{number}" for number, _, _ in changed if number}
    elements = [e for e in view.elements if e.ref in refs]
    gone_refs = [f"ref_{number}" for number, _ in removed if number]
    summary = (f"Delta since read #{head.delta.against} of {quote(head.title)} {head.url}: "
               f"{len(elements)} added or changed, {len(gone_refs)} removed, "
               f"{len(view.elements) - len(elements)} unchanged")
    text = "\n".join([summary, *lines]) if lines else f"{summary} (nothing changed)"
    return msgspec.structs.replace(view, elements=elements, text=text, delta=ReadDelta(
        against=head.delta.against, removed=gone_refs,
        unchanged=len(view.elements) - len(elements)))


# -- read options (issue 13) -------------------------------------------------------------------


class ReadOptions(msgspec.Struct, frozen=True, kw_only=True):
    """What a read_page may narrow or add. ``scope``, ``roles`` and ``viewport_only`` narrow
    the read in the page (a partial look: not numbered among the document's reads, not the
    baseline of a delta); ``max_elements`` and ``include_bounds`` apply to any view."""

    scope: Target | None = None
    """The element (a ``Ref`` or a ``Selector``) whose subtree is read."""
    roles: tuple[str, ...] | None = None
    """Only rows of these roles ("heading" for headings; text rows go)."""
    viewport_only: bool = False
    max_elements: int | None = None
    include_bounds: bool = False

    def narrows(self) -> bool:
        """Whether the read covers only part of the page (scope, roles, viewport)."""
        return self.scope is not None or self.roles is not None or self.viewport_only

    def narrowing(self) -> dict[str, Any]:
        """The options the agent's walk takes (``narrow`` of read() in js/agent/read.js)."""
        scope = to_agent(self.scope) if self.scope is not None else None
        return {"scope": scope, "roles": list(self.roles) if self.roles else None,
                "viewport": self.viewport_only}


_LINE_REF = re.compile(r"^(?:[+~-] )?\[(ref_\d+)\]")


def cap_view(view: PageView, max_elements: int) -> PageView:
    """The view with its first ``max_elements`` elements and the lines up to the last of
    them (a delta keeps its removals), and a last line saying how many were left out."""
    if len(view.elements) <= max_elements:
        return view
    kept = view.elements[:max_elements]
    last = kept[-1].ref if kept else None
    lines = view.text.split("\n")
    shown = [lines[0]]
    passed = last is None
    for line in lines[1:]:
        if not passed:
            shown.append(line)
            match = _LINE_REF.match(line)
            passed = match is not None and match.group(1) == last
        elif line.startswith("- "):
            shown.append(line)
    omitted = len(view.elements) - max_elements
    shown.append(f"… {omitted} more elements left out (maxElements {max_elements})")
    return msgspec.structs.replace(view, elements=kept, text="\n".join(shown), omitted=omitted)


def with_bounds(view: PageView, boxes: dict[str, list[int] | None]) -> PageView:
    """The view with each element's box (new elements: a cached view's are shared), and
    ``box=x,y,w,h`` at the end of its line."""
    elements = [msgspec.structs.replace(e, bounds=boxes.get(e.ref)) for e in view.elements]
    lines = view.text.split("\n")
    for index, line in enumerate(lines):
        match = _LINE_REF.match(line)
        box = boxes.get(match.group(1)) if match else None
        if box is not None:
            lines[index] = f"{line} box={','.join(map(str, box))}"
    return msgspec.structs.replace(view, elements=elements, text="\n".join(lines))
