"""SortableJS 1.15: a sprint board whose cards are dragged within and between three columns
(HTML5 drag and drop, a shared group, 150 ms animations; each column's title counts its cards),
and a priorities list reordered by its handles. App:
fixtures/realworld/apps/sortable-kanban.html; window.__log keeps the board after each drop."""

from __future__ import annotations

import pytest

from cdpseq import ActResult, PageView, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import js, open_app

SORTABLE = "SortableJS 1.15"
BOARD = ("Object.fromEntries(['todo', 'doing', 'done'].map(id => [id, "
         "[...document.getElementById(id).children].map(card => card.dataset.id)]))")
PRIORITIES = "[...document.querySelectorAll('#priorities li')].map(item => item.dataset.id)"


def handle(view: PageView, item: str) -> str:
    """A priority's drag handle: unnamed, told apart by its item."""
    found = [e.ref for e in view.elements if e.name == "⠿" and e.context == f'item: "{item}"']
    assert len(found) == 1, view.text
    return found[0]


def mentioned(result: ActResult) -> set[str]:
    """Every ref the delta names, at any depth."""
    change = result.state_change
    if not change:
        return set()
    entries = [*change.appeared, *change.disappeared, *change.changed]
    entries += [c for e in entries for c in e.controls or []]
    return {e.ref for e in entries if e.ref}


def heading_changes(result: ActResult) -> list[tuple[object, object]]:
    assert result.state_change, result
    return [(c.before, c.after) for c in result.state_change.changed if c.role == "heading"]


@pytest.mark.corpus(SORTABLE, "move a card to the next column (between two lists)",
                    "read act delta")
async def test_a_card_moves_to_the_next_column(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "sortable-kanban")
    result = await act(tab, {"steps": [{"type": "drag",
                                        "target": ref(view, "Migrate the billing job"),
                                        "toTarget": ref(view, "Set up the staging server")}]})
    assert result.ok, result
    board = await js(tab, BOARD)
    assert board["doing"] == [] and sorted(board["done"]) == ["T-90", "T-98"], board
    assert await js(tab, "__log.length") == 1
    assert heading_changes(result) == [("In progress (1)", "In progress (0)"),
                                       ("Done (1)", "Done (2)")]


@pytest.mark.corpus(SORTABLE, "move cards across the board (past a column)", "act")
async def test_cards_move_across_the_board(tab: Tab, server: FixtureServer) -> None:
    # Three cards in one act: whether one drag lands depends on when the page gets its
    # dragovers; three landing by chance is unlikely.
    view = await open_app(tab, server, "sortable-kanban")
    staging = ref(view, "Set up the staging server")
    result = await act(tab, {"steps": [
        {"type": "drag", "target": ref(view, card), "toTarget": staging}
        for card in ("Write release notes", "Fix login redirect", "Update the privacy page")]})
    assert result.ok, result
    board = await js(tab, BOARD)
    assert board["todo"] == ["T-104", "T-105"] and board["doing"] == ["T-98"], board
    assert sorted(board["done"]) == ["T-101", "T-102", "T-103", "T-90"], board


@pytest.mark.corpus(SORTABLE, "reorder within a list: the delta says the order changed",
                    "act delta")
async def test_a_reorder_shows_in_the_delta(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "sortable-kanban")
    card = ref(view, "Write release notes")
    result = await act(tab, {"steps": [{"type": "drag", "target": card,
                                        "toTarget": ref(view, "Fix login redirect")}]})
    assert result.ok, result
    assert (await js(tab, BOARD))["todo"] == ["T-102", "T-101", "T-103", "T-104", "T-105"]
    assert card in mentioned(result), result.state_change


@pytest.mark.corpus(SORTABLE, "reorder by a drag handle", "read act")
async def test_a_priority_is_dragged_by_its_handle(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "sortable-kanban")
    result = await act(tab, {"steps": [{"type": "drag",
                                        "target": handle(view, "Ship the mobile app"),
                                        "toTarget": handle(view, "Cut cloud costs")}]})
    assert await js(tab, PRIORITIES) == ["P2", "P1", "P3"]
    assert await js(tab, "__log") == [{"priorities": ["P2", "P1", "P3"]}]
    assert result.ok, result
