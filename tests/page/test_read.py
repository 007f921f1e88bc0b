"""read_page over a changing page: a read after mutations shows exactly what a first read of
the same page would, although the agent reuses the rows of controls no mutation touched."""

from __future__ import annotations

import json

import pytest

from cdpseq import PageElement, PageView, Tab, act, read_page
from cdpseq.page.agent import PageAgent
from fixtures.server import FixtureServer
from tests.helpers import js, open_page


def by_id(view: PageView, ref: str) -> PageElement | None:
    return next((e for e in view.elements if e.ref == ref), None)


def named(view: PageView, name: str) -> PageElement:
    found = [e for e in view.elements if e.name == name]
    assert len(found) == 1, (name, view.text)
    return found[0]


async def test_reads_follow_every_kind_of_change(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/reread.html")
    first = named(view, "First")
    link = named(view, "Link one")
    assert link.href == "/one" and named(view, "Inside fieldset").disabled is None

    # Text deep inside a button: its name, same ref.
    await js(tab, "document.getElementById('first-text').firstChild.data = 'First changed'")
    view = await read_page(tab)
    assert named(view, "First changed").ref == first.ref

    # A fieldset disabled around a button: an attribute of an ancestor.
    await js(tab, "document.getElementById('fs').disabled = true")
    assert named(await read_page(tab), "Inside fieldset").disabled is True
    await js(tab, "document.getElementById('fs').disabled = false")
    assert named(await read_page(tab), "Inside fieldset").disabled is None

    # A link's href, then no href at all (no longer a control).
    await js(tab, "document.getElementById('link').setAttribute('href', '/two')")
    assert named(await read_page(tab), "Link one").href == "/two"
    await js(tab, "document.getElementById('link').removeAttribute('href')")
    assert by_id(await read_page(tab), link.ref) is None

    # An ARIA name and a test id added to plain buttons.
    await js(tab, "document.getElementById('plain').setAttribute('aria-label', 'Labelled')")
    await js(tab, "document.getElementById('tagged').dataset.testid = 'tagged'")
    view = await read_page(tab)
    assert named(view, "Labelled").ref == named(await read_page(tab), "Labelled").ref
    assert named(view, "Tagged later").selector == '[data-testid="tagged"]'

    # A role given to an element that was there, and a new element with a role.
    await js(tab, "document.getElementById('later-role').setAttribute('role', 'button')")
    assert named(await read_page(tab), "Becomes a button").role == "button"
    await js(tab, "document.getElementById('plain').insertAdjacentHTML('afterend',"
                  " '<span role=\"tab\">New tab</span>')")
    assert named(await read_page(tab), "New tab").role == "tab"

    # Hidden by an ancestor, then shown again.
    await js(tab, "document.getElementById('box').hidden = true")
    assert by_id(await read_page(tab), first.ref) is None
    await js(tab, "document.getElementById('box').hidden = false")
    assert by_id(await read_page(tab), first.ref) is not None

    # A second control with the same role and name: both need a selector of their own now.
    twin = named(await read_page(tab), "Twin")
    assert twin.selector == 'role=button[name="Twin"]'
    await js(tab, "document.getElementById('twins').insertAdjacentHTML('beforeend',"
                  " '<button type=\"button\">Twin</button>')")
    twins = [e for e in (await read_page(tab)).elements if e.name == "Twin"]
    assert len(twins) == 2 and twins[0].ref == twin.ref
    assert all(e.selector != 'role=button[name="Twin"]' for e in twins)
    assert len({e.selector for e in twins}) == 2

    # Moved into a shadow root: its selector now goes through the host.
    await js(tab, "const host = document.getElementById('host');"
                  "host.attachShadow({mode: 'open'}).append(document.getElementById('first'))")
    moved = named(await read_page(tab), "First changed")
    assert moved.ref == first.ref and " >> " in moved.selector


async def test_a_burst_of_mutations_too_big_to_mark_still_shows(tab: Tab,
                                                                server: FixtureServer) -> None:
    """Past a few thousand mutation records the agent stops marking and drops every kept row."""
    view = await open_page(tab, server, "/reread.html")
    first = named(view, "First")
    await js(tab, "const many = document.getElementById('many');"
                  "for (let i = 0; i < 3000; i++) many.append(document.createElement('span'));"
                  "document.getElementById('first-text').firstChild.data = 'After the burst'")
    assert named(await read_page(tab), "After the burst").ref == first.ref


@pytest.mark.parametrize("page", ["/pointer.html", "/fields.html", "/frames.html",
                                  "/frames-transformed.html", "/frameset.html", "/shadow.html",
                                  "/form-controls.html", "/login.html", "/hints.html",
                                  "/big-grid.html?n=40", "/big-todos.html?n=20"])
async def test_every_hint_read_page_prints_is_a_selector_for_exactly_that_element(
        tab: Tab, server: FixtureServer, page: str) -> None:
    await open_page(tab, server, page)
    view = await read_page(tab)
    agent = tab.extension(PageAgent)
    assert view.elements
    for element in view.elements:
        matches = await agent.evaluate(f"__cdpseq.which({json.dumps(element.selector)})")
        assert matches == [int(element.ref[4:])], (element.ref, element.selector, matches)


async def test_hints_stay_exact_after_rows_are_inserted_above(tab: Tab,
                                                              server: FixtureServer) -> None:
    # Rows named alike are told apart by position: after a row is inserted at the top, every
    # position below it moved, and the next read's hints must say the new ones.
    await open_page(tab, server, "/big-grid.html?n=3")
    agent = tab.extension(PageAgent)
    before = await read_page(tab)
    await js(tab, "const body = document.querySelector('.grid-body');"
                  "body.prepend(body.firstElementChild.cloneNode(true))")
    after = await read_page(tab)
    assert len(after.elements) == len(before.elements) // 3 * 4  # a fourth row like the others
    for element in after.elements:
        matches = await agent.evaluate(f"__cdpseq.which({json.dumps(element.selector)})")
        assert matches == [int(element.ref[4:])], (element.ref, element.selector, matches)
    # The first row's "Edit" is in the second row now: its hint says so.
    edit = next(e for e in before.elements if e.name == "Edit")
    edit_after = by_id(after, edit.ref)
    assert edit_after is not None and edit_after.selector != edit.selector
    assert "div:nth-of-type(2)" in edit_after.selector, edit_after.selector


async def test_deleting_a_grid_row_reports_the_grid_and_keeps_the_other_rows_refs(
        tab: Tab, server: FixtureServer) -> None:
    # A data grid's row action: the delta says what a user sees (the grid lost a row), and the
    # buttons of every other row, named alike, keep their refs and still act on their own row.
    view = await open_page(tab, server, "/big-grid.html?n=30")
    deletes = [e for e in view.elements if e.name == "Delete"]
    result = await act(tab, [{"type": "click", "target": deletes[10].ref}])
    assert result.ok, result.failed
    change = result.state_change
    assert change is not None
    grid = next(e for e in change.disappeared if e.role == "grid")
    assert grid.removed == "1 row", change
    assert await js(tab, "document.querySelectorAll('[role=row]').length") == 29
    assert await js(tab, "[...document.querySelectorAll('[role=row]')].some("
                         "r => r.textContent.includes('Order 11'))") is False
    again = await act(tab, [{"type": "click", "target": deletes[20].ref}])
    assert again.ok, again.failed
    assert await js(tab, "[...document.querySelectorAll('[role=row]')].some("
                         "r => r.textContent.includes('Order 21'))") is False
