"""Reads and the page model on deep trees (issue 28): every walk on the read path is iterative,
so depth costs time, never the agent's stack. read-deep.html nests a rendered chain 1,000 levels
deep (Chrome's own layout crashes the renderer a few thousand levels down), and adds and removes
a chain 10,000 levels deep that is not rendered."""

from __future__ import annotations

from cdpseq import Tab, read_page
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, ref, run


async def test_a_read_and_an_act_on_a_deep_tree(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/read-deep.html")
    assert await js(tab, "document.querySelectorAll('#holder div').length") == 1000
    deep = [e for e in view.elements if e.name == "Deep"]
    assert [e.role for e in deep] == ["button", "button"]
    # Each has a path hint (they share role and name) that finds it and it alone in the page.
    for index, element in enumerate(deep):
        assert element.selector.count(">") >= 1000, element.selector[:200]
        found = await js(tab, f"Array.from(document.querySelectorAll({element.selector!r}))"
                              ".map(b => Array.from(b.parentNode.children).indexOf(b))")
        assert found == [index]
    full = await read_page(tab, filter="all")
    assert "Deep text at the bottom" in full.text.splitlines()
    # Removing the chain drops the model's entries under it: the act's delta says that its top
    # went, with the three things under it (the buttons, the text).
    result = await run(tab, {"type": "click", "target": ref(view, "Remove the deep tree")})
    assert result.state_change is not None
    assert [(item.tag, item.size) for item in result.state_change.disappeared] == [
        ("div", "3 elements")]
    assert await js(tab, "document.querySelectorAll('#holder div').length") == 0
    after = await read_page(tab)
    assert not [e for e in after.elements if e.name == "Deep"]


async def test_an_act_that_adds_and_removes_a_10000_level_tree(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/read-deep.html?depth=10")
    # Chrome itself takes seconds to put a tree that deep in the page: a step may take 50 s.
    await run(tab, {"type": "click", "target": ref(view, "Add and remove a deeper tree")},
              perStepTimeoutMs=50000, timeoutMs=55000)
    assert await js(tab, "document.body.dataset.churned") == "true"
    assert await js(tab, "document.querySelectorAll('#hidden div').length") == 0
    again = await read_page(tab)
    assert [e.name for e in again.elements] == [e.name for e in view.elements]
