"""A compact text rendering of an act result, for people and for language models::

    3/3 ok · stable after 312 ms · /login → /dashboard
    + [ref_14] heading "Welcome back!"
    - [ref_3] form "Email Password Sign in"
    ~ [ref_2] textbox "Email" value "" → "a@b.c"
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import msgspec

from ..engine.multi import MultiActResult
from ..engine.reports import StateChange
from ..engine.result import ActResult
from ..escaping import escape_text
from ..page.view import PageElement, PageView, element_line
from .budget import Cut, fit
from .captures import output_lines
from .effects_text import download_line, effect_lines

# The states a delta's element may carry that a read line shows: the agent's (JSON) name of
# each, and PageElement's.
_ELEMENT_FIELDS = {f.encode_name: f.name for f in msgspec.structs.fields(PageElement)
                   if f.name not in ("ref", "node_id", "tag", "role", "name", "selector",
                                     "context", "bounds")}


def _short(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme in ("http", "https"):
        return (parts.path or "/") + (f"?{parts.query}" if parts.query else "") + (
            f"#{parts.fragment}" if parts.fragment else "")
    return url


def _quote(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, list):  # a table's first rows, a select's options
        return "[" + ", ".join(_quote(item) for item in value) + "]"
    if value is None:  # a state the element did not have
        return "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _element(item: dict[str, Any]) -> str:
    """An element of the delta as read_page writes it: ``[ref_N] role "name" states``."""
    role = item.get("role") or item.get("tag", "?")
    if "ref" in item and role not in ("text", "heading", "status", "alert", "log", "timer"):
        states = {_ELEMENT_FIELDS[k]: v for k, v in (item.get("states") or {}).items()
                  if k in _ELEMENT_FIELDS}
        return element_line(PageElement(ref=item["ref"], tag=item.get("tag", ""), role=role,
                                        name=item.get("name", ""), selector="",
                                        context=item.get("context"), **states))
    parts = [f"[{item['ref']}]"] if "ref" in item else []
    parts.append(role)
    parts.append(_quote(item["name"]) if item.get("name") else item.get("selector", ""))
    return " ".join(parts)


def _container(item: dict[str, Any], mark: str) -> list[str]:
    """A container that appeared or went, with its size, first lines and controls."""
    head = f"{mark} {_element(item)}"
    if item.get("size"):
        head += f" ({item['size']})"
    for verb in ("added", "removed"):
        if item.get(verb):
            head += f": {item[verb]} {verb}"
    lines = [head]
    lines.extend(f"    {line}" for line in item.get("lines", []))
    if item.get("linesMore"):
        lines.append(f"    … {item['linesMore']} more lines")
    lines.extend(f"    {_element(control)}" for control in item.get("controls", []))
    if item.get("controlsMore"):
        lines.append(f"    … {item['controlsMore']} more controls")
    return lines


def _header(result: ActResult, change: dict[str, Any] | None) -> str:
    if result.failed is not None and result.failed.code == "INVALID_REQUEST":
        return "invalid request: nothing ran"
    head = [f"{result.completed}/{result.total} ok"]
    if result.stable is not msgspec.UNSET:
        wait = result.stability_wait_ms
        if result.stable:
            head.append(f"stable after {wait} ms")
        else:
            head.append(f"not stable after {wait} ms ({result.unstable_reason})")
    url_change = (change or {}).get("url")
    if url_change:
        head.append(f"{_short(url_change['from'])} → {_short(url_change['to'])}")
    elif result.tab is not None and result.tab.url:
        head.append(_short(result.tab.url))
    return " · ".join(head)


# Steps after which the page is the same as before them.
_READ_ONLY_STEPS = frozenset({"read_page", "wait_for", "wait", "screenshot", "extract"})


def _read_at_end(result: ActResult) -> bool:
    """Whether the result's page is a read of the document the act ended on, after every step
    that could change it: a navigation's summary would show the same page again."""
    if not isinstance(result.page, PageView) or result.page.delta is not None:
        return False
    reads = [step for step in result.steps if step.type == "read_page" and step.status == "ok"]
    if not reads:
        return False
    read = reads[-1]
    after = result.steps[read.index + 1:]
    return (all(step.type in _READ_ONLY_STEPS or step.status == "not_started" or step.skip_reason
                for step in after)
            and result.tab is not None and read.url == result.tab.url)


_VALUE_SHOWN = 2000
"""The most of an evaluate step's JSON value the text rendering shows."""


def render_text(result: ActResult, max_chars: int | None = None) -> str:
    """The result as text; within ``max_chars`` when given (``front/budget.py``)."""
    return render_fitted(result, max_chars)[0]


def render_fitted(result: ActResult, max_chars: int | None) -> tuple[str, Cut | None]:
    """The result as text, cut to ``max_chars`` when given and needed, and what was cut."""
    # Escaped before the cut, so that the budget counts what is shown (``cdpseq.escaping``).
    lines = [escape_text(line) for line in _head_lines(result)]
    page = (escape_text(result.page.text).split("\n")
            if isinstance(result.page, PageView) and result.page.text else [])
    if max_chars is None:
        return "\n".join([*lines, *page]), None
    fitted, cut = fit(lines, page, max_chars)
    return "\n".join(fitted), cut


def _head_lines(result: ActResult) -> list[str]:
    """Everything of the text but the page: the header, the failure, what changed."""
    # The typed parts as their JSON: the rendering speaks the wire names.
    change: dict[str, Any] | None = (msgspec.to_builtins(result.state_change)
                                     if isinstance(result.state_change, StateChange) else None)
    lines = [_header(result, change)]
    failed = result.failed
    if failed is not None:
        where = ("request" if failed.index is None else
                 f"step {failed.index}" + (f" {failed.type}" if failed.type else ""))
        lines.append(f"✗ {where}: {failed.code}: {failed.error}")
    for step in result.steps:
        if step.status == "skipped" and step.error:
            lines.append(f"  skipped step {step.index} {step.type}: {step.error.code}")
        if step.skip_reason:
            lines.append(f"  skipped step {step.index} {step.type}: {step.skip_reason}")
        if step.type == "evaluate" and isinstance(step.output, dict):  # the value asked for
            shown = msgspec.json.encode(step.output.get("value")).decode()
            lines.append(f"  step {step.index} evaluate = "
                         f"{shown if len(shown) <= _VALUE_SHOWN else shown[:_VALUE_SHOWN] + '…'}")
    if change:
        if change.get("title"):
            lines.append(f"title {_quote(change['title']['from'])} → "
                         f"{_quote(change['title']['to'])}")
        if change.get("navigated"):
            if _read_at_end(result):  # the same page, read in full below
                lines.append("navigated to a new document (read below)")
            else:
                lines.append("navigated to a new document:")
                lines.extend("  " + line for line in change.get("summary", "").splitlines())
        for key, mark in (("appeared", "+"), ("disappeared", "-")):
            for item in change.get(key, []):
                lines.extend(_container(item, mark))
            if change.get(f"{key}More"):
                lines.append(f"{mark} … {change[f'{key}More']} more")
        for item in change.get("changed", []):
            tokens = [f"+{token}" for token in item.get("classesAdded", [])] + [
                f"-{token}" for token in item.get("classesRemoved", [])]
            lines.append(f"~ {_element(item)} {item['field']} {_quote(item['from'])} → "
                         f"{_quote(item['to'])}" + (f" ({' '.join(tokens)})" if tokens else ""))
            # A reorder's moved items, with refs.
            lines.extend(f"    {_element(control)}" for control in item.get("controls", []))
        if change.get("changedMore"):
            lines.append(f"~ … {change['changedMore']} more")
        if change.get("focus"):
            lines.append(f"focus → {_element(change['focus'])}")
        for item in change.get("replaced", []):
            name = f" {_quote(item['name'])}" if item.get("name") else ""
            lines.append(f"↻ {item['role']}{name} rendered again: [{item['from']}] is now "
                         f"[{item['to']}]")
    if result.pending is not msgspec.UNSET and result.pending:
        for request in result.pending:
            if request.more is not msgspec.UNSET:
                lines.append(f"… {request.more} more requests")
            else:
                state = "stalled" if request.stalled else "in flight"
                lines.append(f"… {state} {request.type} {request.url} ({request.age_ms} ms)")
    for dialog in _listed(result.dialog):
        lines.append(f"! {dialog['type']} {_quote(dialog['message'])} {dialog['handled']}")
    lines.extend(effect_lines(result))
    lines.extend(download_line(download) for download in _listed(result.download))
    new_tabs = _listed(result.new_tabs)
    for tab in new_tabs[:_NEW_TABS_SHOWN]:
        title = f" {_quote(tab['title'])}" if tab.get("title") else ""
        lines.append(f"⧉ new tab {tab['id']} {tab['url']}{title}".rstrip())
    if len(new_tabs) > _NEW_TABS_SHOWN:  # a popup storm; the JSON form lists every id
        lines.append(f"⧉ … {len(new_tabs) - _NEW_TABS_SHOWN} more new tabs (tabs lists them)")
    lines.extend(output_lines(result))
    return lines


_NEW_TABS_SHOWN = 10
"""New tabs the text rendering lists one by one."""


def _listed(value: Any) -> list[dict[str, Any]]:
    if value is msgspec.UNSET or value is None:
        return []
    value = msgspec.to_builtins(value)  # a typed report as its JSON
    return value if isinstance(value, list) else [value]


def render_many(result: MultiActResult, max_chars: int | None = None) -> str:
    """A multi-tab result: a line for the whole, then each sequence's rendering under its
    tab's id; ``max_chars`` is shared evenly among the sequences."""
    return render_many_fitted(result, max_chars)[0]


def render_many_fitted(result: MultiActResult, max_chars: int | None
                       ) -> tuple[str, list[Cut | None]]:
    """:func:`render_many`, and what each sequence's budget cut."""
    done = sum(1 for one in result.results if one.ok)
    lines = [f"{done}/{len(result.results)} tabs ok"]
    if result.failed is not None:
        lines.append(escape_text(f"✗ request: {result.failed.code}: {result.failed.error}"))
    share = None if max_chars is None else max_chars // max(len(result.results), 1)
    cuts = []
    for index, one in enumerate(result.results):
        tab = one.tab.id if one.tab is not None else "?"
        lines.append(f"── sequences[{index}] tab {tab}")
        text, cut = render_fitted(one, share)
        lines.append(text)
        cuts.append(cut)
    return "\n".join(lines), cuts
