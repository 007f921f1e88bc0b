"""drag (issue 13): HTML5 drag and drop with its dataTransfer, and mouse-driven sortables; ok
only when the page shows the drop landed."""

from __future__ import annotations

from cdpseq import ActResult, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, ref, run


def refused(result: ActResult, reason: str) -> None:
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE", result.failed
    assert reason in result.failed.error, result.failed.error


async def column_of(tab: Tab, card: str) -> str:
    return str(await js(tab, f"document.getElementById('{card}').parentElement.id"))


async def test_html5_drag_moves_a_card_to_another_column(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/dnd-kanban.html")
    # Draggable cards get refs in read_page, as a user sees what can be dragged.
    result = await run(tab, {"type": "drag", "target": ref(view, "Fix bug"),
                             "toSelector": "#done"}, returnMode="all")
    assert await column_of(tab, "card-2") == "done"
    assert await js(tab, "drops") == [{"card": "card-2", "column": "done"}]  # dataTransfer came
    assert result.steps[0].output["kind"] == "html5"  # type: ignore[index]
    await run(tab, {"type": "drag", "selector": "#card-1", "toSelector": "#doing"},
              {"type": "drag", "selector": "#card-2", "toSelector": "#doing"})
    assert await js(tab, "[...document.querySelectorAll('#doing .card')].map(c => c.id)") == [
        "card-1", "card-2"]


async def test_html5_drag_by_offset(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/dnd-kanban.html")
    box = await js(tab, "JSON.parse(JSON.stringify(document.querySelector('#doing')"
                        ".getBoundingClientRect()))")
    card = await js(tab, "JSON.parse(JSON.stringify(document.querySelector('#card-3')"
                         ".getBoundingClientRect()))")
    dx = round(box["x"] + box["width"] / 2 - (card["x"] + card["width"] / 2))
    await run(tab, {"type": "drag", "selector": "#card-3", "dx": dx, "dy": 0})
    assert await column_of(tab, "card-3") == "doing"


async def test_a_drop_nobody_accepts_is_not_ok(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/dnd-kanban.html")
    result = await act(tab, {"settle": False, "steps": [
        {"type": "drag", "selector": "#card-1", "toSelector": "#locked"}]})
    refused(result, "nothing accepted the drop")
    assert await column_of(tab, "card-1") == "todo"
    # A drop that lands, but on another element than the one asked for, is not ok either.
    result = await act(tab, {"settle": False, "steps": [
        {"type": "drag", "selector": "#card-1", "toSelector": "#done h2"}]})
    assert result.ok  # the heading is inside the column: the column took it
    assert await column_of(tab, "card-1") == "done"


async def test_a_pointer_sortable_is_reordered(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/sortable.html")
    order = "[...document.querySelectorAll('#list li')].map(li => li.id).join('')"
    result = await run(tab, {"type": "drag", "target": ref(view, "Alpha"),
                             "toTarget": ref(view, "Charlie")}, returnMode="all")
    assert await js(tab, order) == "bcad"
    assert result.steps[0].output["kind"] == "mouse"  # type: ignore[index]
    await run(tab, {"type": "drag", "selector": "#d", "toSelector": "#b"})
    assert await js(tab, order) == "dbca"
    await run(tab, {"type": "drag", "selector": "#d", "dy": 95})
    assert await js(tab, order) == "bcda"


async def test_a_drag_the_page_ignores_is_not_ok(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/sortable.html")
    result = await act(tab, {"settle": False, "steps": [
        {"type": "drag", "selector": "#p1", "toSelector": "#p2"}]})
    refused(result, "the page did not react to the drag")


async def test_a_drag_outside_the_viewport_is_refused(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/sortable.html")
    result = await act(tab, {"settle": False, "steps": [
        {"type": "drag", "selector": "#a", "dx": -5000}]})
    refused(result, "outside the viewport")
