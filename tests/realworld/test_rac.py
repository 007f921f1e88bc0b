"""React Aria Components 1.22: a team settings page (combo box, select, menu, list box, checkbox,
switch, sortable table, modal dialog) and a room booking (date picker), driven as an agent drives
them: read the page, one act, the page's own state checked, then the act's delta."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cdpseq import ActResult, PageView, StateChange, Tab, act, read_page
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import ax_nodes, js, open_app

LIBRARY = "React Aria Components 1.22"


def change_of(result: ActResult) -> StateChange:
    assert result.ok, result.failed
    assert result.state_change is not None
    return result.state_change


def changes(change: StateChange, ref_: str) -> dict[str, tuple[Any, Any]]:
    """What the delta says changed on one element: field -> (before, after)."""
    return {c.field or "": (c.before, c.after) for c in change.changed if c.ref == ref_}


async def log(tab: Tab) -> list[Any]:
    return list(await js(tab, "window.__log"))


def normal_name(name: str) -> str:
    # Presentation, not naming: CSS text-transform and the asterisk a stylesheet adds to a
    # required field's label (which Chromium puts in the name).
    return re.sub(r"\s+", " ", name.replace("*", "")).strip().casefold()


async def read_disagreements(tab: Tab, view: PageView) -> list[str]:
    """Where a read differs from Chromium's accessibility tree: a listed element the tree leaves
    out (aria-hidden, inert, presentational), or a name the tree gives otherwise."""
    tree = await ax_nodes(tab)
    found = []
    for element in view.elements:
        node = tree.get(element.node_id or 0)
        if node is None:
            found.append(f"{element.role} {element.name!r} is hidden from the tree")
        elif normal_name(node["name"]) != normal_name(element.name):
            found.append(f"{element.role} {element.name!r} is named {node['name']!r}")
    return found


@pytest.mark.corpus(LIBRARY, "ComboBox: type to filter, pick an option", "read act delta")
async def test_a_combo_box_filters_as_typed_and_takes_the_option_picked(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "rac-team")
    zone = ref(view, "Time zone", "combobox")
    assert next(e for e in view.elements if e.ref == zone).value == ""
    result = await act(tab, {"steps": [
        {"type": "fill", "target": zone, "value": "Tok"},
        {"type": "click", "selector": 'role=option[name="Asia/Tokyo"]'}]})
    change = change_of(result)
    assert await log(tab) == [["zone", "Asia/Tokyo"]]
    assert await js(tab, "document.querySelector('[role=combobox]').value") == "Asia/Tokyo"
    assert changes(change, zone)["value"] == ("", "Asia/Tokyo")
    # The list opened and closed inside the act: nothing of it is left to report.
    assert not [e for e in change.appeared if e.role == "listbox"]


@pytest.mark.corpus(LIBRARY, "names and hidden form inputs of the settings page", "read",
                    note="names through aria-labelledby pointing at an aria-label")
async def test_the_settings_page_reads_as_the_accessibility_tree_has_it(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "rac-team")
    found = await read_disagreements(tab, view)
    assert found == [], "\n".join(found)


@pytest.mark.corpus(LIBRARY, "Select: the button shows the value; open, choose",
                    "read act delta")
async def test_a_select_shows_its_value_and_takes_a_new_one(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "rac-team")
    # The select-only button is named by its value and its label: the value is readable.
    role = ref(view, "Viewer Default role", "button")
    result = await act(tab, {"steps": [
        {"type": "click", "target": role},
        {"type": "click", "selector": 'role=option[name="Admin"]'}]})
    change = change_of(result)
    assert await log(tab) == [["role", "admin"]]
    assert await js(tab, "document.querySelector('[aria-haspopup=listbox]:not([aria-label])')"
                         ".textContent.trim()") == "Admin ▾"
    assert changes(change, role)["name"] == ("Viewer Default role", "Admin Default role")


@pytest.mark.corpus(LIBRARY, "Menu behind a MenuTrigger: open, click an item", "act delta")
async def test_a_menu_item_runs_its_action_and_the_menu_closes(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "rac-team")
    result = await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Workspace actions", "button")},
        {"type": "click", "selector": 'role=menuitem[name="Export members"]'}]})
    change = change_of(result)
    assert await log(tab) == [["notice", "Action: export"]]
    assert await js(tab, "!!document.querySelector('[role=menu]')") is False
    assert [e.name for e in change.appeared if e.role == "status"] == ["Action: export"]
    assert not [e for e in change.appeared if e.role in ("menu", "dialog")]


@pytest.mark.corpus(LIBRARY, "ListBox: select an option by click (focus moves to it)",
                    "read act delta")
async def test_a_list_box_option_is_selected_by_click(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "rac-team")
    email, slack = ref(view, "Email", "option"), ref(view, "Slack", "option")
    assert next(e for e in view.elements if e.ref == email).selected is True
    change = change_of(await act(tab, {"steps": [{"type": "click", "target": slack}]}))
    assert await log(tab) == [["channel", "slack"]]
    # RAC's list box moves focus to the option itself (no aria-activedescendant).
    assert await js(tab, "[document.activeElement.textContent, "
                         "document.activeElement.getAttribute('aria-selected')]") == [
        "Slack", "true"]
    assert changes(change, email)["selected"] == (True, False)
    assert changes(change, slack)["selected"] == (False, True)


@pytest.mark.corpus(LIBRARY, "modal Dialog: open, fill from the delta's refs, submit",
                    "act delta")
async def test_a_modal_dialog_takes_an_invitation(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "rac-team")
    opened = change_of(await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Invite member", "button")}]}))
    dialogs = [e for e in opened.appeared if e.role == "dialog"]
    assert [d.name for d in dialogs] == ["Invite a member"]
    controls = {c.name: c.ref for c in dialogs[0].controls or []}
    assert {"Email address", "Cancel", "Send invite"} <= set(controls)
    result = await act(tab, {"steps": [
        {"type": "fill", "target": controls["Email address"], "value": "ada@example.com"},
        {"type": "click", "target": controls["Send invite"]}]})
    change = change_of(result)
    assert await log(tab) == [["notice", "Invitation sent to ada@example.com"]]
    assert await js(tab, "!!document.querySelector('[role=dialog]')") is False
    assert [e.name for e in change.disappeared if e.role == "dialog"] == ["Invite a member"]
    assert [e.name for e in change.appeared if e.role == "status"] == [
        "Invitation sent to ada@example.com"]


@pytest.mark.corpus(LIBRARY, "modal Dialog: the page behind it is inert", "read")
async def test_behind_a_modal_dialog_only_the_dialog_is_listed(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "rac-team")
    change_of(await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Invite member", "button")}]}))
    assert await js(tab, "document.getElementById('root').inert") is True
    names = {e.name for e in (await read_page(tab)).elements}
    assert names == {"Dismiss", "Email address", "Cancel", "Send invite"}


@pytest.mark.corpus(LIBRARY, "Checkbox and Switch: visually hidden inputs in labels",
                    "read act delta")
async def test_a_checkbox_and_a_switch_are_turned_on(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "rac-team")
    digest = ref(view, "Email me a weekly digest", "checkbox")
    two_factor = ref(view, "Two-factor authentication", "switch")
    assert [e.checked for e in view.elements if e.ref in (digest, two_factor)] == [False, False]
    change = change_of(await act(tab, {"steps": [
        {"type": "check", "target": digest}, {"type": "click", "target": two_factor}]}))
    assert await log(tab) == [["digest", True], ["2fa", True]]
    assert await js(tab, "[...document.querySelectorAll('label input')].map(i => i.checked)"
                    ) == [True, True]
    assert changes(change, digest)["checked"] == (False, True)
    assert changes(change, two_factor)["checked"] == (False, True)


@pytest.mark.corpus(LIBRARY, "Table: sort by a column header", "read act delta")
async def test_a_column_header_click_sorts_the_table(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "rac-team")
    lines = view.text.splitlines()
    assert any('columnheader "Name"' in line and "ascending" in line for line in lines)
    role = ref(view, "Role", "columnheader")
    change = change_of(await act(tab, {"steps": [{"type": "click", "target": role}]}))
    assert await log(tab) == [["sort", "role ascending"]]
    assert await js(tab, "[...document.querySelectorAll('[role=columnheader]')]"
                         ".map(h => h.getAttribute('aria-sort'))") == [
        "none", "ascending", "none"]
    assert await js(tab, "[...document.querySelectorAll('[role=rowheader]')]"
                         ".map(h => h.textContent)") == [
        "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov"]
    # A user sees the sort arrow move from Name to Role: said once, of the table (the headers'
    # own sort states are in the next read).
    assert [(c.role, c.before, c.after) for c in change.changed if c.field == "sort"] == [
        ("grid", "Name ascending", "Role ascending")]
    after = (await read_page(tab)).text.splitlines()
    assert any('columnheader "Role"' in line and "ascending" in line for line in after)


@pytest.mark.corpus(LIBRARY, "DatePicker: open the calendar, pick a day by ref",
                    "read act delta")
async def test_a_date_picker_day_is_picked_by_its_ref(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "rac-booking")
    # The calendar button is the only one that opens something (its name is another test's).
    [calendar] = [e.ref for e in view.elements if e.role == "button" and e.expanded is False]
    opened = change_of(await act(tab, {"steps": [{"type": "click", "target": calendar}]}))
    assert [e.role for e in opened.appeared if e.role == "dialog"] == ["dialog"]
    days = await read_page(tab)
    # Each day once, as the button to press (not again as the grid cell around it).
    assert not [e for e in days.elements if e.role == "gridcell"], days.text
    day = ref(days, "Friday, March 14, 2025", "button")
    result = await act(tab, {"steps": [
        {"type": "click", "target": day},
        # The page behind the open (modal) calendar is not listed: its button's ref is from
        # the read before.
        {"type": "click", "target": ref(view, "Book room", "button")}]})
    change = change_of(result)
    assert await log(tab) == ["Room A booked for 2025-03-14"]
    assert await js(tab, "[...document.querySelectorAll('[role=spinbutton]')]"
                         ".map(s => s.textContent)") == ["3", "14", "2025"]
    assert [e.name for e in change.appeared if e.role == "status"] == [
        "Room A booked for 2025-03-14"]
    assert [e.role for e in change.disappeared if e.role == "dialog"] == ["dialog"]
    values = [c.after for c in change.changed if c.field == "valuetext"]
    assert values == ["3 – March", "14", "2025"]


@pytest.mark.corpus(LIBRARY, "DatePicker: names of segments, button, days; what is hidden",
                    "read")
async def test_the_date_picker_reads_as_the_accessibility_tree_has_it(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "rac-booking")
    closed = await read_disagreements(tab, view)
    [calendar] = [e.ref for e in view.elements if e.role == "button" and e.expanded is False]
    change_of(await act(tab, {"steps": [{"type": "click", "target": calendar}]}))
    # Open, the calendar is the page: React Aria hides the rest (aria-hidden) until it closes.
    opened = await read_disagreements(tab, await read_page(tab))
    assert closed + opened == [], "\n".join(closed + opened)
