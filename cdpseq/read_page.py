"""read_page: the agent's compact rows turned into a token-cheap text view and a JSON form.

Text view, one line per element::

    Page: "Sign in · Acme Notes" http://127.0.0.1:8000/login.html
    # Sign in to Acme Notes               (headings and text only with filter "all")
    [ref_1] textbox "Email" value="" (email)
    [ref_3] checkbox "Remember me" unchecked
    [ref_4] button "Sign in"
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from .page_agent import PageAgent

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


class CachedView(msgspec.Struct):
    view: PageView
    """The view built from this process's last full read with one filter."""
    document: str | None
    """The loader id it was read in."""
    since: dict[str, Any]
    """What the agent compares to tell whether anything changed: version, url, title."""


_STATE_FIELDS = ("value", "checked", "disabled", "expanded", "selected", "inputType", "href")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


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


def build_view(snapshot: dict[str, Any], tab_id: str, node_ids: dict[int, int]) -> PageView:
    elements: list[PageElement] = []
    lines = [f"Page: {_quote(snapshot['title'])} {snapshot['url']}"]
    for row in snapshot["rows"]:
        if row[0] == 0:
            if row[1] == "h":
                lines.append("#" * int(row[2]) + " " + row[3])
            else:
                lines.append(row[2])
            continue
        number, tag, role, name, state, hint = row
        element = PageElement(
            ref=f"ref_{number}", nodeId=node_ids.get(number), tag=tag, role=role, name=name,
            selector=hint or f"{role}[name={_quote(name)}]",
            **({k: state[k] for k in _STATE_FIELDS if k in state} if state else {}))
        elements.append(element)
        lines.append(element_line(element))
    return PageView(tab=PageTab(id=tab_id, url=snapshot["url"], title=snapshot["title"]),
                    elements=elements, text="\n".join(lines))


async def read_view(agent: PageAgent, filter: ReadFilter = "interactive") -> PageView:
    """The page as a view. When the agent can tell that nothing changed since this process's
    last read with this filter, that view is answered again (a fresh copy) without a walk."""
    cached = agent.views.get(filter)
    if cached is not None and cached.document == agent.tab.loader_id:
        snapshot = await agent.read(filter, again=cached.since)
        if snapshot.get("unchanged"):
            await agent.fill_node_ids(cached.view.elements)
            return msgspec.structs.replace(cached.view, elements=list(cached.view.elements))
    else:
        snapshot = await agent.read(filter)
    view = build_view(snapshot, agent.tab.id, agent.node_ids)
    agent.views[filter] = CachedView(view=view, document=agent.tab.loader_id, since={
        "version": snapshot["version"], "url": snapshot["url"], "title": snapshot["title"]})
    return view


async def summary(agent: PageAgent, lines: int) -> tuple[str, str, str]:
    """(text, url, title): the first ``lines`` lines of the page's text view (filter "all"),
    cheaply — the agent stops walking the page once it has them, and learns no node ids."""
    snapshot = await agent.read("all", limit=lines, node_ids=False)
    text = build_view(snapshot, agent.tab.id, {}).text
    return (text + ("\n…" if snapshot.get("truncated") else ""), snapshot["url"],
            snapshot["title"])


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
