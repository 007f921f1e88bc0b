"""The state delta on the widgets people really use (issue 21): class-only error states, containers
that appear (whole rows, and how many more), sorted tables and lists, trees that expand, and
Bootstrap-like components (a fading modal, an accordion, a dropdown, a toast and an alert).

Each scenario checks what the page really did (through the DOM, independently of cdpseq), then
what the act's delta says of it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import msgspec
import pytest

from cdpseq import ActResult, LaunchedChromium, Tab, act, read_page
from cdpseq.front.render import render_text
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, ref, run
from tests.paths import ROOT


def change_of(result: ActResult) -> dict[str, Any]:
    assert result.ok, json.dumps(msgspec.to_builtins(result), indent=1)
    assert result.state_change, result.state_change
    change: dict[str, Any] = msgspec.to_builtins(result.state_change)
    return change


def changes(change: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """The changed entries by (name, field)."""
    return {(item.get("name", ""), item["field"]): item for item in change.get("changed", [])}


# -- class changes --------------------------------------------------------------------------------


async def test_a_class_that_is_the_only_sign_of_an_error_is_reported(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-delta-forms.html")
    email = ref(view, "Email", "textbox")

    result = await run(tab, {"type": "fill", "target": email, "value": "ada@"})
    # The page marks the field with `error` and nothing else (focus classes beside it).
    assert await js(tab, "[...document.getElementById('email').classList].sort()") == [
        "error", "focus-visible", "input", "is-focused"]
    found = changes(change_of(result))
    assert set(found) == {("Email", "value"), ("Email", "className")}
    assert {key: found[("Email", "className")][key] for key in (
        "ref", "from", "to", "classesAdded")} == {
        "ref": email, "from": "input", "to": "input error", "classesAdded": ["error"]}
    assert "classesRemoved" not in found[("Email", "className")]
    assert f'~ [{email}] textbox "Email" className "input" → "input error" (+error)' in (
        render_text(result).splitlines())

    fixed = change_of(await run(tab, {"type": "fill", "target": email,
                                      "value": "ada@example.org"}))
    assert await js(tab, "document.getElementById('email').classList.contains('error')") is False
    item = changes(fixed)[("Email", "className")]
    assert (item["from"], item["to"], item["classesRemoved"]) == (
        "input error", "input", ["error"])


async def test_a_wrapper_marked_in_error_is_reported_on_its_field(
        tab: Tab, server: FixtureServer) -> None:
    """Semantic UI's pattern: the wrapper of an empty required field gets `error`, the field
    nothing; the field whose wrapper it is carries the change."""
    view = await open_page(tab, server, "/widgets-delta-forms.html")
    submitted = change_of(await run(tab, {"type": "fill", "target": ref(view, "Name", "textbox"),
                                          "value": "Ada"},
                                    {"type": "click", "target": ref(view, "Create account")}))
    assert await js(tab, "document.getElementById('city-field').className") == "field error"
    assert await js(tab, "document.getElementById('name-field').className") == "field"
    found = changes(submitted)
    assert set(found) == {("Name", "value"), ("City", "wrapperClassName")}
    item = found[("City", "wrapperClassName")]
    assert (item["ref"], item["from"], item["to"], item["classesAdded"]) == (
        ref(view, "City", "textbox"), "", "error", ["error"])


async def test_focus_and_hover_classes_and_classes_that_style_a_state_are_no_news(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-delta-forms.html")
    # A plain fill moves focus: the field and its wrapper get is-focused, focus-visible.
    filled = change_of(await run(tab, {"type": "fill", "target": ref(view, "City", "textbox"),
                                       "value": "Paris"}))
    assert await js(tab, "document.getElementById('city-field').className") == (
        "field is-focused")
    assert [(item["name"], item["field"]) for item in filled["changed"]] == [("City", "value")]
    # Bootstrap's tabs: `active` goes with aria-selected, which says it.
    tabs = change_of(await run(tab, {"type": "click", "target": ref(view, "Yearly")}))
    assert await js(tab, "document.getElementById('yearly').className") == "nav-link active"
    assert sorted((item["name"], item["field"], item["to"]) for item in tabs["changed"]) == [
        ("Monthly", "selected", False), ("Yearly", "selected", True)]
    # A toggle whose only state is its class.
    bold = change_of(await run(tab, {"type": "click", "target": ref(view, "Bold")}))
    assert await js(tab, "document.getElementById('bold').className") == "btn active"
    assert [(i["field"], i["from"], i["to"]) for i in bold["changed"]] == [
        ("className", "btn", "btn active")]
    # The pointer over a button that follows it with a class.
    hovered = await run(tab, {"type": "hover", "target": ref(view, "Help")})
    assert await js(tab, "document.getElementById('help').className") == "btn hover"
    assert hovered.state_change is None


# -- containers that appear -----------------------------------------------------------------------


async def test_a_container_that_appears_shows_whole_rows_and_counts_the_rest(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-delta-tables.html")
    report = await run(tab, {"type": "click", "target": ref(view, "Load report")})
    assert await js(tab, "document.querySelectorAll('#report tbody tr').length") == 3
    table = change_of(report)["appeared"][0]
    assert (table["role"], table["name"], table["size"]) == ("table", "Quarterly revenue",
                                                            "3 rows")
    # The header row, then every row whole: nothing is cut, so nothing is said to be.
    assert table["lines"] == ["Quarter Revenue", "Q1 1.2M", "Q2 1.5M", "Q3 1.1M"]
    assert "linesMore" not in table

    log = await run(tab, {"type": "click", "target": ref(view, "Load log")})
    assert await js(tab, "document.querySelectorAll('#log li').length") == 7
    listed = change_of(log)["appeared"][0]
    assert (listed["size"], listed["lines"], listed["linesMore"]) == (
        "7 items", ["boot", "mount /data", "start db"], 4)
    assert render_text(log).splitlines()[1:] == [
        f'+ [{listed["ref"]}] list "Startup log" (7 items)',
        "    boot", "    mount /data", "    start db", "    … 4 more lines"]

    more = change_of(await run(tab, {"type": "click",
                                     "target": ref(view, "Add this week's tasks")}))
    assert await js(tab, "document.querySelectorAll('#tasks li').length") == 8
    tasks = more["appeared"][0]
    assert (tasks["name"], tasks["added"], tasks["linesMore"]) == ("Tasks", "5 items", 2)
    assert tasks["lines"] == ["Water plants 2024-05-06", "Book flights 2024-05-07",
                              "Renew passport 2024-05-08"]


async def test_an_alert_and_a_toast_come_with_their_text_and_controls(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-delta-bootstrap.html")
    saved = change_of(await run(tab, {"type": "click", "target": ref(view, "Save")}))
    assert await js(tab, "document.getElementById('saved-toast').className") == "toast fade show"
    assert await js(tab, "document.querySelectorAll('#alerts .alert').length") == 1
    alert, toast = saved["appeared"]
    assert (alert["role"], alert["name"]) == ("alert", "Your plan renews in 3 days.")
    assert [(c["role"], c["name"]) for c in alert["controls"]] == [("button", "Dismiss")]
    assert (toast["role"], toast["name"]) == ("status", "Settings saved.")
    assert "disappeared" not in saved and "changed" not in saved

    dismissed = change_of(await run(tab, {"type": "click",
                                          "target": alert["controls"][0]["ref"]}))
    assert await js(tab, "document.querySelectorAll('#alerts .alert').length") == 0
    assert [(i["role"], i["name"]) for i in dismissed["disappeared"]] == [
        ("alert", "Your plan renews in 3 days.")]


# -- a navigation and a read in one act -----------------------------------------------------------


async def test_a_navigation_read_in_the_same_act_is_printed_once(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/widgets-delta-forms.html")
    result = await run(tab, {"type": "navigate", "url": server.url("/widgets-delta-tables.html")},
                       {"type": "read_page"})
    assert await js(tab, "location.pathname") == "/widgets-delta-tables.html"
    change = change_of(result)
    assert change["navigated"] and 'table "Orders"' in change["summary"]  # the JSON keeps it
    text = render_text(result)
    assert text.count('button "Load report"') == 1, text
    assert "navigated to a new document (read below)" in text.splitlines()

    # A read before the navigation is of the page before: the new page's summary is printed.
    before = await run(tab, {"type": "read_page"},
                       {"type": "navigate", "url": server.url("/widgets-delta-forms.html")})
    text = render_text(before)
    assert text.count('button "Load report"') == 1  # the read
    assert text.count('button "Create account"') == 1  # the summary


def test_the_cli_prints_a_page_read_after_a_navigation_once(chromium: LaunchedChromium,
                                                            server: FixtureServer) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    steps = json.dumps([{"type": "navigate", "url": server.url("/widgets-delta-tables.html")},
                        {"type": "read_page", "filter": "all"}])
    done = subprocess.run([sys.executable, "-m", "cdpseq", "act", "--cdp", chromium.endpoint,
                           "--steps", "-", "--format", "text"], input=steps,
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert "navigated to a new document (read below)" in lines
    assert sum(line.endswith('list "Tasks"') for line in lines) == 1, done.stdout
    assert lines.count("Write report 2024-05-03") == 1, done.stdout


# -- sorting --------------------------------------------------------------------------------------


async def test_a_table_sorted_by_moving_its_rows_says_its_new_order(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-delta-tables.html")
    refunds = [e.ref for e in view.elements if e.name == "Refund"]
    first = ["A-1001 12.00", "A-1002 7.50", "A-1003 30.25"]
    sorted_ = change_of(await run(tab, {"type": "click", "target": ref(view, "Amount")}))
    assert await js(tab, "[...document.querySelectorAll('#orders tbody tr')]"
                         ".map(row => row.cells[0].textContent)") == [
        "A-1004", "A-1002", "A-1001", "A-1003"]
    found = changes(sorted_)
    assert set(found) == {("Orders", "sort"), ("Orders", "order")}
    assert (found[("Orders", "sort")]["from"], found[("Orders", "sort")]["to"]) == (
        "Order ascending", "Amount ascending")
    assert found[("Orders", "order")]["from"] == first
    assert found[("Orders", "order")]["to"] == ["A-1004 3.10", "A-1002 7.50", "A-1001 12.00"]
    assert "appeared" not in sorted_ and "disappeared" not in sorted_
    # Sorted again by the same column: the other way.
    reversed_ = await run(tab, {"type": "click", "target": ref(view, "Amount")})
    assert await js(tab, "document.querySelectorAll('#orders th')[1].getAttribute('aria-sort')"
                    ) == "descending"
    table = found[("Orders", "order")]["ref"]
    assert render_text(reversed_).splitlines()[1:] == [
        f'~ [{table}] table "Orders" sort "Amount ascending" → "Amount descending"',
        f'~ [{table}] table "Orders" order ["A-1004 3.10", "A-1002 7.50", "A-1001 12.00"] → '
        '["A-1003 30.25", "A-1001 12.00", "A-1002 7.50"]']
    # The same rows: their refs still name them.
    again = await read_page(tab)
    assert sorted(e.ref for e in again.elements if e.name == "Refund") == sorted(refunds)


async def test_a_list_sorted_by_rendering_it_again_keeps_each_rows_ref_with_its_row(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-delta-tables.html")
    done_of = {e.context: e.ref for e in view.elements if e.name == "Done"}
    sorted_ = change_of(await run(tab, {"type": "click", "target": ref(view, "Sort by due date")}))
    assert await js(tab, "[...document.querySelectorAll('#tasks li span')]"
                         ".map(span => span.textContent)") == [
        "Call bank", "Pay rent", "Write report"]
    assert [(i["name"], i["field"], i["to"]) for i in sorted_["changed"]] == [
        ("Tasks", "order", ["Call bank 2024-05-01", "Pay rent 2024-05-02",
                            "Write report 2024-05-03"])]
    # Every old ref is said to be the new Done of its own task, not of the task in its place.
    now = await read_page(tab)
    new_of = {e.ref: e.context for e in now.elements if e.name == "Done"}
    moved = {item["from"]: new_of[item["to"]] for item in sorted_["replaced"]}
    assert moved == {ref_: context for context, ref_ in done_of.items()}
    writing = next(item["to"] for item in sorted_["replaced"]
                   if item["from"] == done_of['item: "Write report 2024-05-03"'])
    await run(tab, {"type": "click", "target": writing})
    assert await js(tab, "[...document.querySelectorAll('#tasks li[data-done]')]"
                         ".map(li => li.firstElementChild.textContent)") == ["Write report"]


async def test_a_tables_next_page_is_other_rows_and_an_edited_row_is_that_row(
        tab: Tab, server: FixtureServer) -> None:
    """Both render the rows again (innerHTML). A next page's rows are not the old rows
    changed: pairing them would say an old row's Pay is now the Pay of another invoice."""
    view = await open_page(tab, server, "/widgets-delta-tables.html")
    pays = {e.context: e.ref for e in view.elements if e.name == "Pay"}
    renamed = change_of(await run(tab, {"type": "click", "target": ref(view, "Rename INV-002")}))
    assert await js(tab, "document.querySelector('#invoices tr:nth-child(2) td').textContent"
                    ) == "INV-002-A"
    assert [(i["field"], i["from"], i["to"]) for i in renamed["changed"]] == [
        ("text", "INV-002", "INV-002-A")]
    # Each old Pay is said to be the new Pay of its own invoice (the edited one's too).
    now = {e.ref: e.context or "" for e in (await read_page(tab)).elements if e.name == "Pay"}
    assert len(renamed["replaced"]) == 5
    for item in renamed["replaced"]:
        assert pays[now[item["to"]].replace("INV-002-A", "INV-002")] == item["from"]
    second = next(item["to"] for item in renamed["replaced"]
                  if item["from"] == pays['row: "INV-002 80.00"'])
    await run(tab, {"type": "click", "target": second})
    assert await js(tab, "document.querySelector('#invoices tr[data-paid] td').textContent"
                    ) == "INV-002-A"

    paged = change_of(await run(tab, {"type": "click", "target": ref(view, "Next page")}))
    assert await js(tab, "document.querySelector('#invoices td').textContent") == "INV-006"
    assert "replaced" not in paged and "changed" not in paged
    [added] = paged["appeared"]
    assert (added["name"], added["added"], added["lines"], added["linesMore"]) == (
        "Invoices", "5 rows", ["INV-006 240.00", "INV-007 280.00", "INV-008 320.00"], 2)
    assert [c["context"] for c in added["controls"]][:2] == [
        'row: "INV-006 240.00"', 'row: "INV-007 280.00"']
    [removed] = paged["disappeared"]
    assert (removed["removed"], removed["lines"], removed["linesMore"]) == (
        "5 rows", ["INV-001 40.00", "INV-002-A 80.00", "INV-003 120.00"], 2)
    assert [c["context"] for c in removed["controls"]][:2] == [
        'row: "INV-001 40.00"', 'row: "INV-002-A 80.00"']


# -- trees ----------------------------------------------------------------------------------------


async def test_expanding_a_tree_item_shows_its_children_with_refs(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-delta-tables.html")
    expanded = change_of(await run(tab, {"type": "click", "target": ref(view, "Projects")}))
    assert await js(tab, "document.getElementById('projects').getAttribute('aria-expanded')"
                    ) == "true"
    assert [(i["name"], i["field"], i["to"]) for i in expanded["changed"]] == [
        ("Projects", "expanded", True)]
    tree = expanded["appeared"][0]
    assert (tree["role"], tree["name"], tree["added"]) == ("tree", "Files", "3 items")
    assert [c["name"] for c in tree["controls"]] == ["plan.docx", "budget.xlsx", "notes.txt"]
    assert "lines" not in tree  # the items' names, said once with their refs
    budget = tree["controls"][1]["ref"]
    selected = change_of(await run(tab, {"type": "click", "target": budget}))
    assert await js(tab, "document.querySelector('[aria-selected=true]').textContent") == (
        "budget.xlsx")
    assert [(i["ref"], i["field"], i["to"]) for i in selected["changed"]] == [
        (budget, "selected", True)]

    # Archive loads its children from the server when it is first expanded.
    loaded = change_of(await run(tab, {"type": "click", "target": ref(view, "Archive")}))
    assert await js(tab, "document.querySelectorAll('#archive [role=treeitem]').length") == 4
    archive = loaded["appeared"][0]
    assert [c["name"] for c in archive["controls"]] == [
        "2021.zip", "2022.zip", "2023.zip", "old-site.tar"]
    assert all(c["ref"].startswith("ref_") for c in archive["controls"])

    # (Its label: a click in the middle of the expanded item lands on a child, see below.)
    collapsed = change_of(await run(tab, {"type": "click", "selector": "#projects > span"}))
    assert await js(tab, "document.querySelector('#projects [role=group]').checkVisibility()"
                    ) is False
    assert collapsed["disappeared"][0]["removed"] == "3 items"
    assert [(i["name"], i["field"], i["to"]) for i in collapsed["changed"]] == [
        ("Projects", "expanded", False)]


async def test_a_group_made_beside_an_expanded_tree_item_comes_with_its_items(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-delta-tables.html")
    expanded = change_of(await run(tab, {"type": "click", "target": ref(view, "Colors")}))
    assert await js(tab, "document.getElementById('colors').getAttribute('aria-expanded')"
                    ) == "true"
    assert await js(tab, "[...document.querySelectorAll('#colors + [role=group] li')]"
                         ".map(li => li.textContent)") == ["Red", "Green", "Blue"]
    [group] = expanded["appeared"]
    assert (group["role"], group["size"]) == ("group", "3 items")
    assert [(c["role"], c["name"]) for c in group["controls"]] == [
        ("treeitem", "Red"), ("treeitem", "Green"), ("treeitem", "Blue")]
    assert [(i["name"], i["field"], i["to"]) for i in expanded["changed"]] == [
        ("Colors", "expanded", True)]


async def test_collapsing_an_expanded_tree_item_by_its_ref_clicks_that_item(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-delta-tables.html")
    projects = ref(view, "Projects")
    await run(tab, {"type": "click", "target": projects})
    await run(tab, {"type": "click", "target": projects})
    assert await js(tab, "document.getElementById('projects').getAttribute('aria-expanded')"
                    ) == "false"
    assert await js(tab, "document.querySelectorAll('[aria-selected=true]').length") == 0


# -- Bootstrap-like components --------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/widgets-delta-bootstrap.html",
                                  "/widgets-delta-bootstrap.html#transitionend"])
async def test_a_modal_that_fades_in_appears_once_with_its_controls(
        tab: Tab, server: FixtureServer, path: str) -> None:
    """The backdrop fades in, then the modal (its transition, then focus). With #transitionend
    the page waits for the transitions' events alone (no timer): the act must not answer
    before the modal is there."""
    view = await open_page(tab, server, path)
    opened = await run(tab, {"type": "click", "target": ref(view, "Delete account…")})
    assert await js(tab, "document.getElementById('confirm').classList.contains('show')")
    assert await js(tab, "document.activeElement.id") == "confirm"
    change = change_of(opened)
    assert [(i["role"], i["name"]) for i in change["appeared"]] == [
        ("dialog", "Delete your account?")]
    dialog = change["appeared"][0]
    assert dialog["lines"] == ["All your projects will be removed."]
    assert [c["name"] for c in dialog["controls"]] == ["Close", "Cancel", "Delete"]
    assert change["focus"]["name"] == "Delete your account?"

    cancel = next(c["ref"] for c in dialog["controls"] if c["name"] == "Cancel")
    closed = change_of(await run(tab, {"type": "click", "target": cancel}))
    assert await js(tab, "getComputedStyle(document.getElementById('confirm')).display") == (
        "none")
    assert await js(tab, "document.querySelectorAll('.modal-backdrop').length") == 0
    assert [(i["role"], i["name"]) for i in closed["disappeared"]] == [
        ("dialog", "Delete your account?")]
    assert "appeared" not in closed


async def test_an_accordion_panel_opens_as_the_other_closes(tab: Tab, server: FixtureServer
                                                            ) -> None:
    view = await open_page(tab, server, "/widgets-delta-bootstrap.html#transitionend")
    opened = change_of(await run(tab, {"type": "click", "target": ref(view, "Billing")}))
    assert await js(tab, "document.getElementById('faq-billing').className") == (
        "accordion-collapse collapse show")
    assert await js(tab, "document.getElementById('faq-privacy').className") == (
        "accordion-collapse collapse")
    assert sorted((i["name"], i["field"], i["to"]) for i in opened["changed"]) == [
        ("Billing", "expanded", True), ("Privacy", "expanded", False)]
    assert [(i["role"], i["name"]) for i in opened["appeared"]] == [
        ("text", "Invoices are sent on the 1st."), ("link", "See invoices")]
    assert [(i["role"], i["name"]) for i in opened["disappeared"]] == [
        ("text", "We never sell your data.")]


async def test_a_dropdown_opens_and_closes_on_a_click_elsewhere(tab: Tab, server: FixtureServer
                                                               ) -> None:
    view = await open_page(tab, server, "/widgets-delta-bootstrap.html")
    toggle = ref(view, "Sort by", "button")
    opened = change_of(await run(tab, {"type": "click", "target": toggle}))
    assert await js(tab, "document.querySelector('.dropdown-menu').className") == (
        "dropdown-menu show")
    menu = opened["appeared"][0]
    assert (menu["role"], menu["size"]) == ("list", "3 items")
    assert [c["name"] for c in menu["controls"]] == ["Name", "Date", "Size"]
    assert [(i["ref"], i["field"], i["to"]) for i in opened["changed"]] == [
        (toggle, "expanded", True)]  # not its `show` class: expanded says it

    closed = change_of(await run(tab, {"type": "click", "selector": "h1"}))
    assert await js(tab, "document.querySelector('.dropdown-menu').className") == "dropdown-menu"
    assert [(i["ref"], i["role"]) for i in closed["disappeared"]] == [(menu["ref"], "list")]
    assert [(i["ref"], i["field"], i["to"]) for i in closed["changed"]] == [
        (toggle, "expanded", False)]

    await run(tab, {"type": "click", "target": toggle})
    chosen = change_of(await run(tab, {"type": "click",
                                       "target": menu["controls"][1]["ref"]}))
    assert await js(tab, "document.getElementById('sorted').textContent") == "Sorted by date"
    assert ("Sorted by name", "Sorted by date") in [
        (i["from"], i["to"]) for i in chosen["changed"] if i["field"] == "text"]
    assert [i["role"] for i in chosen["disappeared"]] == ["list"]


async def test_an_act_waits_for_a_panel_that_animates_open(tab: Tab, server: FixtureServer
                                                           ) -> None:
    """The accordion's panel is measured and animated open (`collapsing`, 350 ms); without a
    timer, only its transition says the page is not done."""
    view = await open_page(tab, server, "/widgets-delta-bootstrap.html#transitionend")
    result = await act(tab, {"steps": [{"type": "click", "target": ref(view, "Billing")}]})
    assert result.ok and result.stable
    assert await js(tab, "document.getElementById('faq-billing').className") == (
        "accordion-collapse collapse show")
