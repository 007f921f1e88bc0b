"""Actions on widgets of real component libraries that cdpseq got wrong (issue 21, second
round), each checked against the page's own state: controls hidden behind their labels (CSS
kits' button groups, accessibly hidden radios, display:none switches) clicked by their own ref;
buttons of web components whose label is the host's text, slotted into the inner button; where
on an element a click lands when its middle is on something it holds (a tree item's children, a
row's Delete button, a label's link) or on none of its content (a tree that listens on its
items' label rows); and HTML5 drags paced as a hand drags (a sortable that takes no dragover
for 30 ms after a move), whose drop lands on the dragged item in the destination's place."""

from __future__ import annotations

import json
from typing import Any

import msgspec

from cdpseq import ActResult, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, ref, run


def failure(result: ActResult) -> str:
    return json.dumps(msgspec.to_builtins(result.failed))


def refused(result: ActResult, *reasons: str) -> None:
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE", failure(result)
    for reason in reasons:
        assert reason in result.failed.error, result.failed.error


async def quick(tab: Tab, *steps: dict[str, Any], timeout_ms: int = 1500) -> ActResult:
    """An act without settling whose steps give up after ``timeout_ms``."""
    return await act(tab, {"settle": False, "perStepTimeoutMs": timeout_ms, "steps": list(steps)})


async def log(tab: Tab) -> list[Any]:
    return list(await js(tab, "window.__log"))


# -- 1. a control hidden behind its own label is clicked through that label ------------------

LABELS = "/widgets-act2-labels.html"


async def test_a_click_on_a_button_group_radio_by_its_ref_clicks_its_label(
        tab: Tab, server: FixtureServer) -> None:
    # The radio lets the pointer through and sits under the first label of its group: the
    # person clicks its label, the button they see.
    view = await open_page(tab, server, LABELS)
    await run(tab, {"type": "click", "target": ref(view, "Cozy", "radio")})
    assert await js(tab, "document.querySelector('[name=density]:checked').id") == "density-cozy"
    # One click on the label, the one the browser passes on to its radio, and its change.
    assert await log(tab) == ["click label density-cozy", "click density-cozy true",
                              "change density-cozy"]


async def test_a_toggle_button_checkbox_is_clicked_on_and_off_once_each(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, LABELS)
    totals = ref(view, "Totals", "checkbox")
    await run(tab, {"type": "click", "target": totals})
    assert await js(tab, "document.getElementById('totals').checked") is True
    await run(tab, {"type": "click", "target": totals})
    assert await js(tab, "document.getElementById('totals').checked") is False
    assert await log(tab) == ["click label totals", "click totals true", "change totals",
                              "click label totals", "click totals false", "change totals"]


async def test_an_accessibly_hidden_radio_and_a_display_none_switch_are_clicked_by_label(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, LABELS)
    await run(tab, {"type": "click", "selector": "#theme-dark"},
              {"type": "tap", "selector": "#alerts"})
    assert await js(tab, "document.querySelector('[name=theme]:checked').id") == "theme-dark"
    assert await js(tab, "document.getElementById('alerts').checked") is True
    assert await log(tab) == ["click label theme-dark", "click theme-dark true",
                              "change theme-dark", "click label alerts", "click alerts true",
                              "change alerts"]


async def test_a_hidden_control_whose_label_is_covered_or_that_has_none_is_not_clicked(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, LABELS)
    result = await quick(tab, {"type": "click", "selector": "#beta"})
    refused(result, "covered by div#veil")
    result = await quick(tab, {"type": "click", "selector": "#orphan"})
    refused(result, "covered by")
    assert await js(tab, "document.getElementById('beta').checked") is False
    assert await js(tab, "document.getElementById('orphan').checked") is False
    assert await log(tab) == []


# -- 2. a web component's button, labelled by the host's text through a slot -----------------

SLOTS = "/widgets-act2-slots.html"


async def test_a_component_button_labelled_by_slotted_text_is_clicked_by_its_ref(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, SLOTS)
    await run(tab, {"type": "click", "target": ref(view, "Save profile", "button")},
              {"type": "click", "selector": "#archive >> x-button >> button"})
    # Each click reached the component's inner button.
    assert await log(tab) == ["save button", "archive button"]


async def test_slotted_text_rendered_over_a_button_covers_it(tab: Tab, server: FixtureServer
                                                            ) -> None:
    view = await open_page(tab, server, SLOTS)
    result = await quick(tab, {"type": "click", "target": ref(view, "Go", "button")})
    refused(result, "covered by slot")  # the host's text, where the note shows it
    assert await log(tab) == []


# -- 4. where on an element a click lands ----------------------------------------------------

AIM = "/widgets-act2-aim.html"


async def expanded(tab: Tab, item: str) -> str:
    return str(await js(tab, f"document.getElementById('{item}').getAttribute('aria-expanded')"))


async def test_tree_items_are_clicked_on_their_own_label_row(tab: Tab, server: FixtureServer
                                                            ) -> None:
    # The page listens on the items' label rows: a click in the middle of a collapsed item's
    # box would miss it, one in the middle of an expanded item's box would select a child.
    view = await open_page(tab, server, AIM)
    music, photos = ref(view, "Music", "treeitem"), ref(view, "Photos", "treeitem")
    await run(tab, {"type": "click", "target": music}, {"type": "click", "target": photos})
    assert (await expanded(tab, "music"), await expanded(tab, "photos")) == ("true", "false")
    await run(tab, {"type": "click", "target": music})
    assert await expanded(tab, "music") == "false"
    assert await log(tab) == ["expand music", "collapse photos", "collapse music"]
    assert await js(tab, "document.querySelectorAll('[aria-selected]').length") == 0


async def test_a_tree_item_s_clickable_label_row_is_listed_as_the_item_only(
        tab: Tab, server: FixtureServer) -> None:
    # The rows take the clicks (a pointer cursor starts there), but they are the items' own
    # text: an agent is given each item once, and a click on it lands on its row.
    view = await open_page(tab, server, AIM)
    tree = [(e.role, e.name) for e in view.elements if e.name in ("Music", "2023", "Notes")]
    assert tree == [("treeitem", "Music"), ("treeitem", "2023"), ("treeitem", "Notes")], view.text
    await run(tab, {"type": "click", "target": ref(view, "2023", "treeitem")})
    assert await log(tab) == ["select p2023"]


async def test_a_row_is_clicked_beside_the_button_in_its_middle(tab: Tab, server: FixtureServer
                                                               ) -> None:
    await open_page(tab, server, AIM)
    await run(tab, {"type": "click", "selector": "#inv-1042"})
    assert await log(tab) == ["select inv-1042"]
    assert await js(tab, "document.querySelectorAll('#invoices [role=row]').length") == 2


async def test_a_label_whose_middle_is_a_link_is_clicked_off_the_link(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, AIM)
    await run(tab, {"type": "click", "selector": "#consent-label"})
    assert await js(tab, "location.hash") == ""
    assert await log(tab) == ["consent true"]


# -- 5. HTML5 drags paced as a hand drags ----------------------------------------------------

DRAG = "/widgets-act2-drag.html"
BOARD = ("Object.fromEntries(['todo', 'doing', 'done'].map(id => [id, "
         "[...document.getElementById(id).children].map(card => card.id)]))")


async def test_a_card_dragged_past_a_column_lands_where_it_was_dropped(
        tab: Tab, server: FixtureServer) -> None:
    # On its way the card passes over the middle column, which takes it; the page then takes no
    # dragover for 30 ms: a drag whose dragovers all come at once drops it there.
    await open_page(tab, server, DRAG)
    result = await run(tab, {"type": "drag", "selector": "#c1", "toSelector": "#c4"},
                       returnMode="all")
    board = {"todo": ["c2"], "doing": ["c3"], "done": ["c1", "c4"]}
    assert await js(tab, BOARD) == board
    assert await log(tab) == [{"board": board}]
    assert result.steps[0].output["kind"] == "html5"  # type: ignore[index]


async def test_an_item_dragged_by_its_handle_onto_another_s_handle(
        tab: Tab, server: FixtureServer) -> None:
    # The dragged item takes the other's place as it passes: the drop lands on its own handle,
    # where the destination's was.
    await open_page(tab, server, DRAG)
    await run(tab, {"type": "drag", "selector": "#s3 .handle", "toSelector": "#s1 .handle"})
    order = ["s3", "s1", "s2"]
    assert await js(tab, "[...document.querySelectorAll('#steps li')].map(li => li.id)") == order
    assert await log(tab) == [{"steps": order}]


async def test_a_drop_taken_by_a_zone_over_the_destination_is_not_ok(
        tab: Tab, server: FixtureServer) -> None:
    # A zone that covers the board during drags takes the drop: the card did not land on the
    # card asked for, though the page changed.
    await open_page(tab, server, DRAG + "#archive")
    result = await act(tab, {"settle": False, "steps": [
        {"type": "drag", "selector": "#c1", "toSelector": "#c4"}]})
    refused(result, "the drop landed on div#archive-zone, not on li#c4")
    assert await log(tab) == [{"archived": "c1"}]
