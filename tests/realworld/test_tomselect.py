"""Tom Select 2.6: an issue form whose assignee (single, searchable) and labels (multiple, with
remove buttons) are Tom Select controls over real <select>s. App:
fixtures/realworld/apps/tomselect-issue.html; window.__log keeps Tom Select's change events."""

from __future__ import annotations

from typing import Any

import pytest

from cdpseq import ActResult, PageView, Tab, act, read_page
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import js, open_app

TOM_SELECT = "Tom Select 2.6"
SELECTED_LABELS = "[...document.getElementById('labels').selectedOptions].map(o => o.value)"


def changes(result: ActResult, ref_: str) -> dict[str, tuple[Any, Any]]:
    """What the delta says changed on one element: field -> (from, to)."""
    change = result.state_change
    assert change, result
    return {c.field or "": (c.before, c.after) for c in change.changed if c.ref == ref_}


def remove_button_after(view: PageView, item: str) -> str:
    """The "×" that follows an item in the read (Tom Select puts it inside the item)."""
    names = [(e.name, e.role) for e in view.elements]
    at = names.index((f"{item} ×", "generic"))
    assert names[at + 1] == ("×", "button"), view.text
    return view.elements[at + 1].ref


async def search_and_choose(tab: Tab, field: str, text: str, option: str) -> ActResult:
    """Type into a Tom Select control, then click the option its dropdown offers."""
    typed = await act(tab, {"steps": [{"type": "type", "target": field, "text": text}]})
    assert typed.ok and typed.state_change, typed
    assert changes(typed, field)["expanded"] == (False, True)
    dropdown = next(a for a in typed.state_change.appeared if a.role == "listbox")
    offered = [c.ref for c in dropdown.controls or [] if (c.role, c.name) == ("option", option)]
    assert len(offered) == 1 and offered[0], dropdown
    chosen = await act(tab, {"steps": [{"type": "click", "target": offered[0]}]})
    assert chosen.ok and chosen.state_change, chosen
    return chosen


@pytest.mark.corpus(TOM_SELECT, "single select: type to search, click the option",
                    "read act delta")
async def test_an_assignee_is_chosen_by_search(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "tomselect-issue")
    assignee = ref(view, "Assignee", "combobox")
    chosen = await search_and_choose(tab, assignee, "ada", "Ada Lovelace")
    assert await js(tab, "document.getElementById('assignee').value") == "ada"
    assert await js(tab, "__log") == ["assignee=ada"]
    assert await js(tab, "document.querySelector('#assignee + .ts-wrapper .item').textContent"
                    ) == "Ada Lovelace"
    assert changes(chosen, assignee)["expanded"] == (True, False)
    # The <select> Tom Select hides (still in the accessibility tree) says what it holds now
    # (and that Tom Select rewrote its options, which it does on every choice).
    assert chosen.state_change
    assert [(c.selector, c.field, c.after) for c in chosen.state_change.changed
            if c.tag == "select" and c.field != "options"] == [
        ("#assignee", "value", "Ada Lovelace")]

    submitted = await act(tab, {"steps": [
        {"type": "fill", "target": ref(view, "Title", "textbox"), "value": "Crash on save"},
        {"type": "click", "target": ref(view, "Submit new issue", "button")}]})
    assert submitted.ok, submitted
    assert await js(tab, "document.getElementById('status').textContent") == (
        'Filed "Crash on save" for ada with bug, ux')


@pytest.mark.corpus(TOM_SELECT, "multi select: add an item by search", "act delta")
async def test_a_label_is_added(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "tomselect-issue")
    chosen = await search_and_choose(tab, ref(view, "Labels", "combobox"), "sec", "security")
    assert await js(tab, SELECTED_LABELS) == ["bug", "ux", "security"]
    assert await js(tab, "__log") == ["labels=bug,ux,security"]
    assert chosen.state_change
    assert "security ×" in [a.name for a in chosen.state_change.appeared]
    assert [(c.selector, c.after) for c in chosen.state_change.changed
            if c.tag == "select" and c.field == "value"] == [
        ("#labels", "bug, user experience, security")]


@pytest.mark.corpus(TOM_SELECT, "multi select: remove an item with its × button",
                    "read act delta")
async def test_a_label_is_removed(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "tomselect-issue")
    remove_bug = remove_button_after(view, "bug")
    result = await act(tab, {"steps": [{"type": "click", "target": remove_bug}]})
    assert result.ok and result.state_change, result
    assert await js(tab, SELECTED_LABELS) == ["ux"]
    assert await js(tab, "__log") == ["labels=ux"]
    assert [d.name for d in result.state_change.disappeared] == ["bug ×", "×"]
    assert [(c.selector, c.after) for c in result.state_change.changed
            if c.tag == "select" and c.field == "value"] == [("#labels", "user experience")]


@pytest.mark.corpus(TOM_SELECT, "multi select: the × buttons told apart in the read", "read")
async def test_remove_buttons_are_told_apart(tab: Tab, server: FixtureServer) -> None:
    await open_app(tab, server, "tomselect-issue")
    view = await read_page(tab)
    removes = [e for e in view.elements if (e.role, e.name) == ("button", "×")]
    assert len(removes) == 2
    assert "bug" in (removes[0].context or "")
    assert "user experience" in (removes[1].context or "")
