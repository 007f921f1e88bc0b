"""Each tab's latest read by this process, the baseline of ``compression: "delta"`` reads, and
the delta of one view against another."""

from __future__ import annotations

import msgspec

from ..browser import Tab
from .view import PageView, ReadDelta, element_line, quote


class _Read(msgspec.Struct):
    view: PageView
    document: str | None
    filter: str


class ReadHistory:
    """The latest full read of one tab by this process, the baseline of delta reads; one per
    tab: ``tab.extension(ReadHistory)``."""

    def __init__(self, tab: Tab) -> None:
        self.tab_id = tab.id
        self.count = 0
        self._last: _Read | None = None

    def record(self, view: PageView, document: str | None, filter: str,
               compression: str) -> PageView:
        """Number ``view``, remember it, and return what to answer: the view itself, or with
        ``compression="delta"`` its delta against the previous read of the tab."""
        assert view.tab is not None and view.tab.id == self.tab_id, "a fresh view of this tab"
        self.count += 1
        view.read = self.count
        previous = self._last
        self._last = _Read(view, document, filter)
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
    head = (f"Delta since read #{before.read} of {quote(title)} {url}: "
            f"{len(added_or_changed)} added or changed, {len(removed)} removed, "
            f"{unchanged} unchanged")
    text = "\n".join([head, *lines]) if lines else f"{head} (nothing changed)"
    if len(text) > len(after.text) / 2 and lines:
        return _full(after, "the delta would be larger than half the page")
    return msgspec.structs.replace(
        after, elements=added_or_changed, text=text,
        delta=ReadDelta(against=before.read, removed=removed, unchanged=unchanged))
