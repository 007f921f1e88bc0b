"""Reading a page through its agent: the full view, answered again cheaply while nothing changed,
and a short summary (the first lines of a new document after a navigation)."""

from __future__ import annotations

import msgspec

from .agent import PageAgent
from .view import Built, CachedView, PageView, ReadFilter, build_view


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
