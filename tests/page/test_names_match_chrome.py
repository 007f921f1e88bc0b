"""Names read_page gives agree with the accessible names Chrome computes for the same elements
(``Accessibility.getFullAXTree``), on pages built from real-world patterns: a data grid's cells
of alike-named and icon buttons, selects inside their labels, ARIA widgets, landmarks."""

from __future__ import annotations

import re

import pytest

from cdpseq import Tab
from cdpseq.cdp import accessibility
from fixtures.server import FixtureServer
from tests.helpers import open_page


def _normal(name: str) -> str:
    name = re.sub(r"\s+", " ", name).strip()
    return name if len(name) <= 80 else name[:79] + "…"  # read_page's cut


@pytest.mark.parametrize("page", ["/big-grid.html?n=3", "/big-todos.html?n=3", "/signup.html",
                                  "/fields.html",
                                  "/form-controls.html", "/aria-widgets.html",
                                  "/app-patterns.html", "/regions.html", "/login.html"])
async def test_every_name_is_the_one_chrome_computes(tab: Tab, server: FixtureServer,
                                                     page: str) -> None:
    view = await open_page(tab, server, page)
    tree = await tab.send(accessibility.GetFullAXTree())
    chrome = {node.backendDOMNodeId: _normal(str(node.name.value or "")) if node.name else ""
              for node in tree.nodes if not node.ignored and node.backendDOMNodeId}
    compared = [(e.ref, e.role, e.name, chrome[e.node_id]) for e in view.elements
                if e.node_id in chrome]
    assert len(compared) >= len(view.elements) // 2, "too few elements to compare"
    differ = [c for c in compared if c[2] != c[3]]
    assert not differ, differ
