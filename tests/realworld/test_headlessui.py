"""Headless UI 2.2 (React): a project's settings page with a menu, a listbox, a combobox, a
switch, a disclosure and a confirmation dialog that fades in and out, driven as an agent drives
them: read the page, one act, the page's own state checked, then the act's delta."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cdpseq import ActResult, PageView, StateChange, Tab, act, read_page
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import ax_nodes, js, open_app

LIBRARY = "Headless UI 2.2"
APP = "headlessui-project"


def change_of(result: ActResult) -> StateChange:
    assert result.ok, result.failed
    assert result.state_change is not None
    return result.state_change


def changes(change: StateChange, ref_: str) -> dict[str, tuple[Any, Any]]:
    """What the delta says changed on one element: field -> (before, after)."""
    return {c.field or "": (c.before, c.after) for c in change.changed if c.ref == ref_}


async def log(tab: Tab) -> list[Any]:
    return list(await js(tab, "window.__log"))


async def read_disagreements(tab: Tab, view: PageView) -> list[str]:
    """Where a read differs from Chromium's accessibility tree: a listed element the tree leaves
    out (aria-hidden, inert), or a name the tree gives otherwise."""
    tree = await ax_nodes(tab)
    found = []
    for element in view.elements:
        node = tree.get(element.node_id or 0)
        if node is None:
            found.append(f"{element.role} {element.name!r} is hidden from the tree")
        elif node["name"] != re.sub(r"\s+", " ", element.name).strip():
            found.append(f"{element.role} {element.name!r} is named {node['name']!r}")
    return found


async def open_delete_dialog(tab: Tab, view: PageView) -> dict[str, str]:
    """Choose "Delete…" in the project menu; the dialog's controls by name, from the delta."""
    change = change_of(await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Project actions", "button")},
        {"type": "click", "selector": 'role=menuitem[name="Delete…"]'}]}))
    [dialog] = [e for e in change.appeared if e.role == "dialog"]
    assert dialog.name == "Delete Apollo redesign?"
    return {c.name or "": c.ref or "" for c in dialog.controls or []}


@pytest.mark.corpus(LIBRARY, "Menu: open, click an item, the menu closes", "act delta")
async def test_a_menu_item_runs_its_action(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    trigger = ref(view, "Project actions", "button")
    change = change_of(await act(tab, {"steps": [
        {"type": "click", "target": trigger},
        {"type": "click", "selector": 'role=menuitem[name="Archive"]'}]}))
    assert await log(tab) == [["status", "Project archived"]]
    assert await js(tab, "!!document.querySelector('[role=menu]')") is False
    assert [e.name for e in change.appeared if e.role == "status"] == ["Project archived"]
    assert not [e for e in change.appeared if e.role == "menu"]
    # Focus goes back to the trigger (the delta names focus only when it lands elsewhere).
    assert await js(tab, "document.activeElement.textContent") == "Project actions"
    assert change.focus is None or change.focus.ref == trigger


@pytest.mark.corpus(LIBRARY, "Listbox: the button shows the value; open, choose",
                    "read act delta")
async def test_a_listbox_choice_becomes_the_buttons_value(tab: Tab, server: FixtureServer
                                                          ) -> None:
    view = await open_app(tab, server, APP)
    owner = ref(view, "Owner Ada Lovelace", "button")
    change = change_of(await act(tab, {"steps": [
        {"type": "click", "target": owner},
        {"type": "click", "selector": 'role=option[name="Mary Somerville"]'}]}))
    assert await log(tab) == [["owner", "Mary Somerville"]]
    assert await js(tab, "!!document.querySelector('[role=listbox]')") is False
    assert changes(change, owner)["name"] == ("Owner Ada Lovelace", "Owner Mary Somerville")


@pytest.mark.corpus(LIBRARY, "Combobox: type to filter, pick an option", "act delta")
async def test_a_combobox_takes_the_option_picked(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    label = ref(view, "Label", "combobox")
    change = change_of(await act(tab, {"steps": [
        {"type": "fill", "target": label, "value": "doc"},
        {"type": "click", "selector": 'role=option[name="documentation"]'}]}))
    assert await log(tab) == [["label", "documentation"]]
    assert await js(tab, "document.querySelector('[role=combobox]').value") == "documentation"
    assert changes(change, label)["value"] == ("", "documentation")


@pytest.mark.corpus(LIBRARY, "Switch: a button with role switch, label beside it",
                    "read act delta")
async def test_a_switch_is_turned_on(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    switch = ref(view, "Email me about new comments", "switch")
    assert next(e for e in view.elements if e.ref == switch).checked is False
    change = change_of(await act(tab, {"steps": [{"type": "click", "target": switch}]}))
    assert await log(tab) == [["notify", True]]
    assert await js(tab, "document.querySelector('[role=switch]').ariaChecked") == "true"
    assert changes(change, switch)["checked"] == (False, True)


@pytest.mark.corpus(LIBRARY, "Disclosure: open it, fill the field it shows", "read act delta")
async def test_a_disclosure_shows_its_panel(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    button = ref(view, "Advanced settings", "button")
    assert next(e for e in view.elements if e.ref == button).expanded is False
    assert "Webhook URL" not in view.text
    change = change_of(await act(tab, {"steps": [{"type": "click", "target": button}]}))
    assert changes(change, button)["expanded"] == (False, True)
    [webhook] = [e.ref for e in change.appeared if e.name == "Webhook URL"]
    assert webhook is not None
    change = change_of(await act(tab, {"steps": [
        {"type": "fill", "target": webhook, "value": "https://hooks.example.com/apollo"}]}))
    assert await log(tab) == [["webhook", "https://hooks.example.com/apollo"]]
    assert changes(change, webhook)["value"] == ("", "https://hooks.example.com/apollo")


@pytest.mark.corpus(LIBRARY, "Dialog with a transition: confirm, it fades out", "act delta")
async def test_a_dialog_fades_out_after_the_confirmation(tab: Tab, server: FixtureServer
                                                         ) -> None:
    view = await open_app(tab, server, APP)
    controls = await open_delete_dialog(tab, view)
    change = change_of(await act(tab, {"steps": [
        {"type": "click", "target": controls["Delete project"]}]}))
    assert await log(tab) == [["status", "Project deleted"]]
    # Done means the dialog is gone, as the user sees it once it has faded out.
    assert await js(tab, "!!document.querySelector('[role=dialog]')") is False
    assert [e.name for e in change.disappeared if e.role == "dialog"] == [
        "Delete Apollo redesign?"]
    assert [e.name for e in change.appeared if e.role == "status"] == ["Project deleted"]


@pytest.mark.corpus(LIBRARY, "Dialog: what is listed while it is open", "read")
async def test_an_open_dialog_reads_as_the_accessibility_tree_has_it(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    await open_delete_dialog(tab, view)
    assert await js(tab, "document.getElementById('root').inert") is True
    view = await read_page(tab)
    found = await read_disagreements(tab, view)
    assert found == [], "\n".join(found)
    assert {e.name for e in view.elements} == {"Keep project", "Delete project"}
