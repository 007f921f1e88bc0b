"""read_page: the agent's compact rows turned into a token-cheap text view and a JSON form.

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

from .page_agent import PageAgent, Snapshot

ReadFilter = Literal["interactive", "all"]


class PageElement(msgspec.Struct, kw_only=True, omit_defaults=True):
    ref: str
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


class PageTab(msgspec.Struct, kw_only=True):
    id: str
    url: str
    title: str


class ReadDelta(msgspec.Struct, kw_only=True):
    against: int
    """The number of the read this one is a delta against."""
    removed: list[str]
    """Refs listed then and gone now."""
    unchanged: int


class PageView(msgspec.Struct, kw_only=True, omit_defaults=True):
    tab: PageTab | None = None
    """The tab read (left out inside an act result, which names its tab once)."""
    elements: list[PageElement]
    """All elements; in a delta, only those added or changed since the earlier read."""
    text: str
    read: int = 0
    """This read's number among the reads of the tab by this process (1, 2, ...)."""
    delta: ReadDelta | None = None
    full: str | None = None
    """Why a delta was asked for and the full view given instead."""


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


def _quote(text: str) -> str:
    if '"' in text or "\\" in text:
        text = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + text + '"'


def element_line(element: PageElement) -> str:
    parts = [f"[{element.ref}] {element.role}"]
    if element.name:
        parts.append(_quote(element.name))
    if element.value is not None and element.role not in ("button", "link"):
        parts.append(f"value={_quote(element.value)}")
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
    lines = [f"Page: {_quote(head.title)} {head.url}"]
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
    quoted = _quote(name)
    element = PageElement(ref=ref, nodeId=get_node_id(number), tag=tag, role=role, name=name,
                          selector=str(hint) if hint else f"{role}[name={quoted}]")
    if not isinstance(state, dict):
        return number, element, f"[{ref}] {role} {quoted}" if name else f"[{ref}] {role}"
    for key in _STATE_FIELDS:
        if key in state:
            setattr(element, key, state[key])
    return number, element, element_line(element)


async def read_view(agent: PageAgent, filter: ReadFilter = "interactive") -> PageView:
    """The page as a view. When the agent can tell that nothing changed since this process's
    last read with this filter, that view is answered again (a fresh copy) without a walk."""
    cached = agent.views.get(filter)
    known: Built | None = None
    if cached is not None and cached.document == agent.tab.loader_id:
        snapshot = await agent.read(filter, again=cached.since)
        if snapshot is None:
            await agent.fill_node_ids(cached.view.elements)
            return msgspec.structs.replace(cached.view, elements=list(cached.view.elements))
        known = cached.built
    else:
        snapshot = await agent.read(filter)
        assert snapshot is not None, "a first read is never 'unchanged'"
    built: Built = {}
    view = build_view(snapshot, agent.tab.id, agent.node_ids, known, built)
    await agent.fill_node_ids(view.elements)
    head = snapshot.head
    agent.views[filter] = CachedView(view=view, document=agent.tab.loader_id, built=built,
                                     since={"version": head.version, "url": head.url,
                                            "title": head.title})
    return view


async def summary(agent: PageAgent, lines: int) -> tuple[str, str, str]:
    """(text, url, title): the first ``lines`` lines of the page's text view (filter "all"),
    cheaply — the agent stops walking the page once it has them, and learns no node ids."""
    snapshot = await agent.read("all", limit=lines)
    assert snapshot is not None, "a read without 'again' is never 'unchanged'"
    text = build_view(snapshot, agent.tab.id, {}).text
    head = snapshot.head
    return text + ("\n…" if head.truncated else ""), head.url, head.title


class _Read(msgspec.Struct):
    view: PageView
    document: str | None
    filter: str


class ReadHistory:
    """The latest full read of each tab (by this process), the baseline of delta reads."""

    def __init__(self) -> None:
        self._last: dict[str, _Read] = {}
        self._count: dict[str, int] = {}

    def record(self, view: PageView, document: str | None, filter: str,
               compression: str) -> PageView:
        """Number ``view``, remember it, and return what to answer: the view itself, or with
        ``compression="delta"`` its delta against the previous read of the tab."""
        assert view.tab is not None, "a fresh view names its tab"
        tab_id = view.tab.id
        number = self._count.get(tab_id, 0) + 1
        self._count[tab_id] = number
        view.read = number
        previous = self._last.get(tab_id)
        self._last[tab_id] = _Read(view, document, filter)
        if compression != "delta":
            return view
        if previous is None:
            return _full(view, "no earlier read of this tab")
        if previous.document != document:
            return _full(view, f"the document changed since read #{previous.view.read}")
        if previous.filter != filter:
            return _full(view, f"read #{previous.view.read} used another filter")
        return delta_view(previous.view, view)


def _full(view: PageView, reason: str) -> PageView:
    return msgspec.structs.replace(view, full=reason, text=f"(full view: {reason})\n{view.text}")


def delta_view(before: PageView, after: PageView) -> PageView:
    """``after`` as what changed since ``before`` — or in full when the delta would be larger
    than about half of it."""
    old = {e.ref: element_line(e) for e in before.elements}
    new_lines = {e.ref: element_line(e) for e in after.elements}
    added_or_changed = [e for e in after.elements if old.get(e.ref) != new_lines[e.ref]]
    removed = [ref for ref in old if ref not in new_lines]
    lines = []
    for element in added_or_changed:
        mark = "~" if element.ref in old else "+"
        lines.append(f"{mark} {new_lines[element.ref]}")
    lines.extend(f"- {old[ref]}" for ref in removed)
    # Headings and text (filter "all") have no refs: compare them as lines.
    before_text = [ln for ln in before.text.splitlines()[1:] if not ln.startswith("[ref_")]
    after_text = [ln for ln in after.text.splitlines()[1:] if not ln.startswith("[ref_")]
    lines.extend(f"+ {ln}" for ln in after_text if ln not in before_text)
    lines.extend(f"- {ln}" for ln in before_text if ln not in after_text)
    unchanged = len(after.elements) - len(added_or_changed)
    title, url = (after.tab.title, after.tab.url) if after.tab else ("", "")
    head = (f"Delta since read #{before.read} of {_quote(title)} {url}: "
            f"{len(added_or_changed)} added or changed, {len(removed)} removed, "
            f"{unchanged} unchanged")
    text = "\n".join([head, *lines]) if lines else f"{head} (nothing changed)"
    if len(text) > len(after.text) / 2 and lines:
        return _full(after, "the delta would be larger than half the page")
    return msgspec.structs.replace(
        after, elements=added_or_changed, text=text,
        delta=ReadDelta(against=before.read, removed=removed, unchanged=unchanged))
