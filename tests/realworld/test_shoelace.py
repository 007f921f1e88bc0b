"""Shoelace 2.20 web components: an account page whose controls live in shadow roots (sl-input,
sl-select, sl-checkbox, sl-switch, sl-details, sl-button), an actions dropdown (sl-dropdown and
sl-menu) and a confirmation sl-dialog, driven as an agent drives them: read the page, one act,
the page's own state checked, then the act's delta."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cdpseq import ActResult, PageView, StateChange, Tab, act, read_page
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import ax_nodes, js, open_app

LIBRARY = "Shoelace 2.20"
APP = "shoelace-account"


def change_of(result: ActResult) -> StateChange:
    assert result.ok, result.failed
    assert result.state_change is not None
    return result.state_change


def changes(change: StateChange, ref_: str) -> dict[str, tuple[Any, Any]]:
    """What the delta says changed on one element: field -> (before, after)."""
    return {c.field or "": (c.before, c.after) for c in change.changed if c.ref == ref_}


def by_form_name(view: PageView, role: str, name: str) -> str:
    """The ref of a control found by its form name in the selector hint (for the controls whose
    accessible name another test checks)."""
    [found] = [e.ref for e in view.elements if e.role == role and f'name="{name}"' in e.selector]
    return found


async def log(tab: Tab) -> list[Any]:
    return list(await js(tab, "window.__log"))


async def read_disagreements(tab: Tab, view: PageView) -> list[str]:
    """Where a read differs from Chromium's accessibility tree: a listed element the tree leaves
    out (aria-hidden), or a name the tree gives otherwise (but the asterisk Shoelace's
    stylesheet adds to a required field's label)."""
    tree = await ax_nodes(tab)
    found = []
    for item in view.elements:
        node = tree.get(item.node_id or 0)
        if node is None:
            found.append(f"{item.role} {item.name!r} is hidden from the tree")
        elif node["name"].removesuffix(" *") != re.sub(r"\s+", " ", item.name).strip():
            found.append(f"{item.role} {item.name!r} is named {node['name']!r}")
    return found


@pytest.mark.corpus(LIBRARY, "sl-input: fill, leave; sl-change once", "read act delta")
async def test_an_input_changes_once_when_left(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    display = ref(view, "Display name", "textbox")
    assert next(e for e in view.elements if e.ref == display).value == "Ada"
    change = change_of(await act(tab, {"steps": [
        {"type": "fill", "target": display, "value": "Ada Lovelace"},
        {"type": "press", "key": "Tab"}]}))
    assert await js(tab, "document.querySelector('sl-input').value") == "Ada Lovelace"
    # Shoelace re-emits the browser's change: once, when the field is left.
    assert [e for e in await log(tab) if e[0] == "sl-change"] == [
        ["sl-change", "display", "Ada Lovelace"]]
    assert changes(change, display)["value"] == ("Ada", "Ada Lovelace")


@pytest.mark.corpus(LIBRARY, "sl-select: open, choose an option", "read act delta")
async def test_a_select_takes_the_option_chosen(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    language = ref(view, "Language", "combobox")
    assert next(e for e in view.elements if e.ref == language).value == "English"
    change = change_of(await act(tab, {"steps": [
        {"type": "click", "target": language},
        {"type": "click", "selector": 'role=option[name="Nederlands"]'}]}))
    assert await js(tab, "document.querySelector('sl-select').value") == "nl"
    assert ["sl-change", "language", "nl"] in await log(tab)
    assert await js(tab, "document.querySelector('sl-select').open") is False
    assert changes(change, language)["value"] == ("English", "Nederlands")


@pytest.mark.corpus(LIBRARY, "sl-select: what opening it shows", "delta")
async def test_an_opened_select_shows_its_options(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    change = change_of(await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Language", "combobox")}]}))
    [listbox] = [e for e in change.appeared if e.role == "listbox"]
    assert listbox.size == "3 items"
    assert [c.name for c in listbox.controls or [] if c.role == "option"] == [
        "English", "Français", "Nederlands"]


@pytest.mark.corpus(LIBRARY, "sl-checkbox and sl-switch: toggle", "act delta")
async def test_a_checkbox_and_a_switch_are_turned_on(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    newsletter = by_form_name(view, "checkbox", "newsletter")
    dark = by_form_name(view, "switch", "dark")
    change = change_of(await act(tab, {"steps": [
        {"type": "check", "target": newsletter}, {"type": "click", "target": dark}]}))
    assert await js(tab, "[document.querySelector('sl-checkbox').checked, "
                         "document.querySelector('sl-switch').checked]") == [True, True]
    assert [e for e in await log(tab) if e[0] == "sl-change"] == [
        ["sl-change", "newsletter", True], ["sl-change", "dark", True]]
    assert changes(change, newsletter)["checked"] == (False, True)
    assert changes(change, dark)["checked"] == (False, True)


@pytest.mark.corpus(LIBRARY, "names of the shadow-root controls, the open select's options",
                    "read")
async def test_the_page_reads_as_the_accessibility_tree_has_it(tab: Tab, server: FixtureServer
                                                               ) -> None:
    view = await open_app(tab, server, APP)
    found = await read_disagreements(tab, view)
    change_of(await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Language", "combobox")}]}))
    opened = await read_page(tab)
    found += await read_disagreements(tab, opened)
    assert found == [], "\n".join(found)
    # One ref for each option a user sees in the open list.
    assert [e.name for e in opened.elements if e.name in ("English", "Français", "Nederlands")
            ] == ["English", "Français", "Nederlands"]


@pytest.mark.corpus(LIBRARY, "sl-dropdown + sl-menu: open, choose an item", "act delta")
async def test_a_dropdown_menu_item_runs_its_action(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    trigger = ref(view, "Account actions", "button")
    change = change_of(await act(tab, {"steps": [
        {"type": "click", "target": trigger},
        {"type": "click", "selector": 'role=menuitem[name="Export my data"]'}]}))
    assert await log(tab) == [["status", "Your export is being prepared"]]
    assert await js(tab, "document.querySelector('sl-dropdown').open") is False
    assert [c.after for c in change.changed if c.role == "status"] == [
        "Your export is being prepared"]


@pytest.mark.corpus(LIBRARY, "sl-dialog: opened from a menu, confirmed", "act delta")
async def test_a_dialog_confirms_closing_the_account(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    opened = change_of(await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Account actions", "button")},
        {"type": "click", "selector": 'role=menuitem[name="Close account…"]'}]}))
    [dialog] = [e for e in opened.appeared if e.role == "dialog"]
    assert dialog.name == "Close your account?"
    controls = {c.name: c.ref for c in dialog.controls or []}
    change = change_of(await act(tab, {"steps": [
        {"type": "click", "target": controls["Close account"]}]}))
    assert await log(tab) == [["status", "Account scheduled for closing"]]
    assert await js(tab, "document.querySelector('sl-dialog').open") is False
    assert [e.name for e in change.disappeared if e.role == "dialog"] == ["Close your account?"]
    assert [c.after for c in change.changed if c.role == "status"] == [
        "Account scheduled for closing"]


@pytest.mark.corpus(LIBRARY, "sl-details: open it; its open state and content", "read act delta")
async def test_details_open_to_show_their_content(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    privacy = ref(view, "Privacy", "button")
    assert next(e for e in view.elements if e.ref == privacy).expanded is False
    assert len([e for e in view.elements if e.role == "checkbox"]) == 1  # the closed one hides
    change = change_of(await act(tab, {"steps": [{"type": "click", "target": privacy}]}))
    assert await js(tab, "document.querySelector('sl-details').open") is True
    assert changes(change, privacy)["expanded"] == (False, True)
    assert len([e for e in (await read_page(tab)).elements if e.role == "checkbox"]) == 2
    shown = [c for e in change.appeared for c in [e, *(e.controls or [])]
             if c.role == "checkbox"]
    assert [(c.states or {}).get("checked") for c in shown] == [True]


@pytest.mark.corpus(LIBRARY, "sl-button type=submit: the form submits its controls' values",
                    "act delta")
async def test_the_profile_form_is_saved(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    change = change_of(await act(tab, {"steps": [
        {"type": "fill", "target": ref(view, "Display name", "textbox"), "value": "Grace"},
        {"type": "click", "target": ref(view, "Save profile", "button")}]}))
    assert [e for e in await log(tab) if e[0] == "saved"] == [
        ["saved", {"display": "Grace", "language": "en", "searchable": "on"}]]
    assert [c.after for c in change.changed if c.role == "status"] == ["Saved: Grace (en)"]
