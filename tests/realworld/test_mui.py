"""MUI 9.5 (Material UI, emotion): a checkout page with text fields under floating labels, a
select whose list is a popover, an autocomplete, a checkbox and a switch, a slider, tabs and a
confirmation dialog, driven as an agent drives them: read the page, one act, the page's own
state checked, then the act's delta."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cdpseq import ActResult, PageView, StateChange, Tab, act, read_page
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import ax_nodes, js, open_app

LIBRARY = "MUI 9.5"
APP = "mui-checkout"


def change_of(result: ActResult) -> StateChange:
    assert result.ok, result.failed
    assert result.state_change is not None
    return result.state_change


def changes(change: StateChange, ref_: str) -> dict[str, tuple[Any, Any]]:
    """What the delta says changed on one element: field -> (before, after)."""
    return {c.field or "": (c.before, c.after) for c in change.changed if c.ref == ref_}


def element(view: PageView, ref_: str) -> Any:
    return next(e for e in view.elements if e.ref == ref_)


async def log(tab: Tab) -> list[Any]:
    """What the app committed, but its draft saves (``drafts``)."""
    return [entry for entry in await js(tab, "window.__log") if entry[0] != "draft saved"]


async def drafts(tab: Tab) -> list[Any]:
    """The drafts the form saved, one for each change event the browser fired in it."""
    return [entry for entry in await js(tab, "window.__log") if entry[0] == "draft saved"]


async def read_disagreements(tab: Tab, view: PageView) -> list[str]:
    """Where a read differs from Chromium's accessibility tree: a listed element the tree leaves
    out (aria-hidden), or a name the tree gives otherwise (MUI upper-cases tab labels with CSS:
    case is not compared)."""
    tree = await ax_nodes(tab)
    found = []
    for item in view.elements:
        node = tree.get(item.node_id or 0)
        if node is None:
            found.append(f"{item.role} {item.name!r} is hidden from the tree")
        elif node["name"].casefold() != re.sub(r"\s+", " ", item.name).strip().casefold():
            found.append(f"{item.role} {item.name!r} is named {node['name']!r}")
    return found


@pytest.mark.corpus(LIBRARY, "TextField under a floating label: fill, leave", "read act delta")
async def test_a_text_field_saves_its_draft_once_when_left(tab: Tab, server: FixtureServer
                                                            ) -> None:
    view = await open_app(tab, server, APP)
    name = ref(view, "Full name", "textbox")
    assert element(view, name).value == ""
    change = change_of(await act(tab, {"steps": [
        {"type": "fill", "target": name, "value": "Grace Hopper"},
        {"type": "press", "key": "Tab"}]}))
    assert await js(tab, "document.querySelector('[name=fullName]').value") == "Grace Hopper"
    # The browser fires change once, when the field is left.
    assert await drafts(tab) == [["draft saved", "fullName"]]
    assert changes(change, name)["value"] == ("", "Grace Hopper")


@pytest.mark.xfail(strict=True, reason="cdpseq: the select-only combobox's value (the option it "
                   "shows) is not read: no value change in the delta, none in read_page")
@pytest.mark.corpus(LIBRARY, "Select: open its popover list, choose; its value", "read act delta")
async def test_a_select_takes_the_option_chosen_in_its_popover(tab: Tab, server: FixtureServer
                                                               ) -> None:
    view = await open_app(tab, server, APP)
    country = ref(view, "Country", "combobox")
    change = change_of(await act(tab, {"steps": [
        {"type": "click", "target": country},
        {"type": "click", "selector": 'role=option[name="Portugal"]'}]}))
    assert await log(tab) == [["country", "pt"]]
    assert await js(tab, "document.querySelector('input[name=country]').value") == "pt"
    assert await js(tab, "!!document.querySelector('[role=listbox]')") is False
    # What the user sees in the select is its value: the read and the delta say it.
    assert changes(change, country)["value"] == ("", "Portugal")
    assert element(await read_page(tab), country).value == "Portugal"


@pytest.mark.corpus(LIBRARY, "Checkbox and Switch in FormControlLabels", "read act delta")
async def test_a_checkbox_and_a_switch_are_turned_on(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    save, gift = ref(view, "Save this address", "checkbox"), ref(view, "Gift wrap", "switch")
    assert [element(view, save).checked, element(view, gift).checked] == [False, False]
    change = change_of(await act(tab, {"steps": [
        {"type": "check", "target": save}, {"type": "click", "target": gift}]}))
    assert await log(tab) == [["save", True], ["gift", True]]
    assert await js(tab, "[...document.querySelectorAll('input[type=checkbox]')]"
                         ".map(i => i.checked)") == [True, True]
    assert changes(change, save)["checked"] == (False, True)
    assert changes(change, gift)["checked"] == (False, True)


@pytest.mark.corpus(LIBRARY, "Autocomplete: type, pick an option", "act delta")
async def test_an_autocomplete_takes_the_option_picked(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    city = ref(view, "City", "combobox")
    change = change_of(await act(tab, {"steps": [
        {"type": "fill", "target": city, "value": "Be"},
        {"type": "click", "selector": 'role=option[name="Bern"]'}]}))
    assert await log(tab) == [["city", "Bern"]]
    assert await js(tab, "!!document.querySelector('[role=listbox]')") is False
    assert changes(change, city)["value"] == ("", "Bern")
    # MUI shows a clear button once the field has a value.
    assert [e.name for e in change.appeared if e.role == "button"] == ["Clear"]


@pytest.mark.corpus(LIBRARY, "Dialog: open, confirm from the delta's refs", "act delta")
async def test_a_dialog_confirms_the_order(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    opened = change_of(await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Place order", "button")}]}))
    [dialog] = [e for e in opened.appeared if e.role == "dialog"]
    assert dialog.name == "Confirm your order"
    controls = {c.name: c.ref for c in dialog.controls or []}
    change = change_of(await act(tab, {"steps": [
        {"type": "click", "target": controls["Confirm order"]}]}))
    placed = "Order placed for guest, paid by Card"
    assert await log(tab) == [["order", placed]]
    assert await js(tab, "!!document.querySelector('[role=dialog]')") is False
    assert [e.name for e in change.disappeared if e.role == "dialog"] == ["Confirm your order"]
    assert placed in [e.name for e in change.appeared]


@pytest.mark.corpus(LIBRARY, "Tabs: choose a tab, its panel changes", "read act delta")
async def test_a_tab_shows_its_panel(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    card, bank = ref(view, "Card", "tab"), ref(view, "Bank transfer", "tab")
    assert element(view, card).selected is True
    change = change_of(await act(tab, {"steps": [{"type": "click", "target": bank}]}))
    assert await js(tab, "document.querySelector('[role=tab][aria-selected=true]').textContent"
                    ) == "Bank transfer"
    assert changes(change, card)["selected"] == (True, False)
    assert changes(change, bank)["selected"] == (False, True)
    assert "Transfer to IBAN NL00 BANK 0123 4567 89." in [c.after for c in change.changed
                                                          if c.field == "text"]


@pytest.mark.corpus(LIBRARY, "Slider: read its value, move it by keyboard", "read act delta")
async def test_a_slider_value_is_read_and_moved(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    tip = ref(view, "Tip for the courier: 5%", "slider")
    assert element(view, tip).valuenow == 5
    change = change_of(await act(tab, {"steps": [
        {"type": "press", "target": tip, "key": "ArrowRight"},
        {"type": "press", "key": "ArrowRight"}]}))
    assert await js(tab, "document.querySelector('input[type=range]').getAttribute("
                         "'aria-valuenow')") == "15"
    assert await log(tab) == [["tip", 10], ["tip", 15]]
    assert changes(change, tip)["valuenow"] == (5, 15)


@pytest.mark.xfail(strict=True, reason="cdpseq: aria-hidden parts listed (the select's native "
                   "input, the page behind the dialog); the slider thumb named '5' from its "
                   "aria-hidden label")
@pytest.mark.corpus(LIBRARY, "the checkout page and its dialog against Chromium's tree", "read")
async def test_the_page_reads_as_the_accessibility_tree_has_it(tab: Tab, server: FixtureServer
                                                               ) -> None:
    view = await open_app(tab, server, APP)
    found = await read_disagreements(tab, view)
    change_of(await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Place order", "button")}]}))
    # MUI hides the rest of the page (aria-hidden) while its modal dialog is open.
    assert await js(tab, "document.getElementById('root').ariaHidden") == "true"
    found += await read_disagreements(tab, await read_page(tab))
    assert found == [], "\n".join(found)
