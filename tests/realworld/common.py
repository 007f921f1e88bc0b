"""What the corpus scenarios share: open an app and wait until it is up, look at the page's own
state without cdpseq, and the browser's accessibility tree as the oracle of names and states."""

from __future__ import annotations

import re
from typing import Any

from cdpseq import PageView, Tab, read_page
from cdpseq.cdp import accessibility
from fixtures.server import FixtureServer
from tests.helpers import js, run

__all__ = ["app_url", "ax_nodes", "js", "open_app"]


def app_url(server: FixtureServer, app: str) -> str:
    return server.url(f"/realworld/{app}.html")


async def open_app(tab: Tab, server: FixtureServer, app: str, *,
                   filter: str = "interactive") -> PageView:
    """Navigate to a corpus app, wait for it to say it is up (``<html data-ready>``, set by the
    app once mounted, its web components defined), and read it as an agent would."""
    await run(tab, {"type": "navigate", "url": app_url(server, app)},
              {"type": "wait_for", "selector": "html[data-ready]", "state": "attached",
               "timeoutMs": 15000})
    return await read_page(tab, filter=filter)


def _normal(name: str) -> str:
    return re.sub(r"\s+", " ", name).strip()


async def ax_nodes(tab: Tab) -> dict[int, dict[str, Any]]:
    """Chromium's own accessibility tree, by backend node id: role, name and properties of every
    node that is not ignored."""
    tree = await tab.send(accessibility.GetFullAXTree())
    out: dict[int, dict[str, Any]] = {}
    for node in tree.nodes:
        if node.ignored or not node.backendDOMNodeId:
            continue
        props = {p.name: p.value.value for p in node.properties or []}
        out[node.backendDOMNodeId] = {
            "role": str(node.role.value) if node.role else "",
            "name": _normal(str(node.name.value or "")) if node.name else "",
            "props": props}
    return out
