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


class PageView(msgspec.Struct, kw_only=True):
    tab: PageTab
    elements: list[PageElement]
    text: str


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
    snapshot = await agent.read(filter)
    return build_view(snapshot, agent.tab.id, agent.node_ids)
