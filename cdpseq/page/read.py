"""Reading a page through its agent: the full view, answered again cheaply while nothing changed
and patched with what changed otherwise, a delta against the document's previous read, and a
short summary (the first lines of a new document after a navigation)."""

from __future__ import annotations

from typing import Literal

import msgspec

from .agent import PageAgent
from .frames import FrameSection, read_frames
from .view import (
    CachedView,
    Hit,
    PageElement,
    PageView,
    ReadFilter,
    ReadHead,
    ReadOptions,
    RowDelta,
    Snapshot,
    build_view,
    cap_view,
    delta_view,
    patch_view,
    with_bounds,
)

Compression = Literal["none", "delta"]


async def read_view(agent: PageAgent, filter: ReadFilter = "interactive",
                    compression: Compression = "none",
                    options: ReadOptions | None = None) -> PageView:
    """``_read_view``, then ``options``: a narrowed read (scope, roles, viewportOnly) instead
    when it narrows, the first maxElements elements, their boxes."""
    if options is None:
        return await _read_view(agent, filter, compression)
    if options.narrows():
        _, view = await agent.read(filter, lambda rows: build_view(
            rows, agent.tab.id, agent.node_ids), narrow=options.narrowing())
        await agent.fill_node_ids(view.elements)
    else:
        view = await _read_view(agent, filter, compression)
    if options.max_elements is not None:
        view = cap_view(view, options.max_elements)
    if options.include_bounds and view.elements:
        view = with_bounds(view, await agent.bounds([e.ref for e in view.elements]))
    return view


async def _read_view(agent: PageAgent, filter: ReadFilter = "interactive",
                     compression: Compression = "none") -> PageView:
    """The page as a view, numbered among the document's reads (by any process), or with
    ``compression="delta"`` as what changed since the previous one. When the agent can tell that
    nothing changed since this process's last read with this filter, that view is answered again
    (a fresh copy) without a walk. Out-of-process iframes follow the main document, one section
    each (``frames``); a delta read of a page with such frames answers in full."""
    view = await _read_document(agent, filter, compression)
    sections = await read_frames(agent, filter)
    if not sections:
        return view
    if compression == "delta":
        cached = agent.views[filter].view
        reason = "the page has cross-origin frames, which delta reads do not cover"
        full = msgspec.structs.replace(cached, elements=list(cached.elements), read=view.read,
                                       full=reason)
        return _with_frames(full, sections, f"(full view: {reason})\n")
    return _with_frames(view, sections)


def _with_frames(view: PageView, sections: list[FrameSection], before: str = "") -> PageView:
    return msgspec.structs.replace(
        view, elements=[*view.elements, *(e for s in sections for e in s.elements)],
        text="\n".join([before + view.text, *(line for s in sections for line in s.lines)]))


async def _read_document(agent: PageAgent, filter: ReadFilter, compression: Compression
                         ) -> PageView:
    """The main document's view (see ``read_view``). When this process holds the rows of the
    document's last read (the cached view's ``splice``), the agent answers a changed page with
    only what changed against them, and the cached rows are patched (``patch_view``)."""
    delta = compression == "delta"
    cached = agent.views.get(filter)
    if cached is not None and cached.document != agent.tab.loader_id:
        cached = None  # a read of an earlier document
    tab_id = agent.tab.id

    def build(snapshot: Snapshot) -> tuple[CachedView, list[PageElement] | None] | None:
        # The cache of the new view, and (of a patch) the elements of the rows added.
        if snapshot.head.unchanged:
            return None
        if snapshot.head.splices is not None:  # against cached.since's splice: see above
            assert cached is not None
            # Patched in place: kept again once the read is done, else read in full next time.
            agent.views.pop(filter, None)
            return patch_view(snapshot, tab_id, agent.node_ids, cached)
        known = dict(zip(cached.rows, cached.hits, strict=True)) if cached else None
        hits: list[Hit] = []
        view = build_view(snapshot, tab_id, agent.node_ids, known, hits)
        return CachedView(view=view, document=agent.tab.loader_id, since={}, rows=snapshot.rows,
                          hits=hits), None

    snapshot, built = await agent.read(filter, build, again=cached.since if cached else None,
                                       delta=delta)
    if built is None:  # unchanged since the cached read
        assert cached is not None
        if not cached.complete:
            await agent.fill_node_ids(cached.view.elements)
        view = msgspec.structs.replace(cached.view, elements=list(cached.view.elements),
                                       read=snapshot.head.read)
        return _unchanged(view) if delta else view
    kept, added = built
    view = kept.view
    view.read = snapshot.head.read
    if kept.complete and added is not None:  # only the elements added may lack node ids
        await agent.fill_node_ids(added)
        complete = None not in [element.node_id for element in added]
    else:
        await agent.fill_node_ids(view.elements)
        complete = False  # the next patch looks
    head = snapshot.head
    agent.views[filter] = msgspec.structs.replace(
        kept, complete=complete,
        since={"version": head.version, "url": head.url, "title": head.title,
               "splice": head.baseline})
    return delta_view(view, snapshot) if delta else view


def _unchanged(view: PageView) -> PageView:
    """A delta read of a page that did not change since the previous read."""
    tab = view.tab
    head = ReadHead(url=tab.url if tab else "", title=tab.title if tab else "",
                    delta=RowDelta(against=view.read - 1, removed=[], changed=[],
                                   unchanged=len(view.elements)))
    return delta_view(view, Snapshot(head, []))


async def summary(agent: PageAgent, lines: int) -> tuple[str, str, str]:
    """(text, url, title): the first ``lines`` lines of the page's text view (filter "all"),
    cheaply — the agent stops walking the page once it has them, and learns no node ids."""
    snapshot, text = await agent.read(
        "all", lambda rows: build_view(rows, agent.tab.id, {}).text, limit=lines)
    head = snapshot.head
    return text + ("\n…" if head.truncated else ""), head.url, head.title
