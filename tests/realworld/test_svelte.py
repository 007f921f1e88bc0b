"""Svelte 5 (runes): a packing list adding on `onchange` with a hand-made tri-state checkbox
(aria-checked=mixed), a toggle button rendered again by its
own click ({#key}), a share menu whose items act on pointerup and remove themselves, a booking
dialog that flies in (svelte/transition) with a form, and a class-only error set on blur."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from cdpseq import ActResult, StateChange, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import js, open_app

LIBRARY = "Svelte 5"


def _json(result: ActResult) -> str:
    """The whole act result, for an assertion's message."""
    return json.dumps(msgspec.to_builtins(result), indent=1, ensure_ascii=False)


def _delta(result: ActResult) -> StateChange:
    """The act's state change, which must be there."""
    change = result.state_change
    assert isinstance(change, StateChange), _json(result)
    return change


def _changed(result: ActResult, field: str, ref_: str | None = None) -> list[tuple[Any, Any]]:
    """The (from, to) pairs the delta gives for field, of one element when ref_ is given."""
    change = result.state_change
    changed = change.changed if isinstance(change, StateChange) else []
    return [(c.before, c.after) for c in changed
            if c.field == field and (ref_ is None or c.ref == ref_)]


@pytest.mark.corpus(LIBRARY, "packing list adding on onchange, leaving the field commits",
                    "read act delta")
async def test_an_item_committed_by_leaving_the_field_is_added_once(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "svelte-packing")
    field = ref(view, "Something to pack", "textbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": field, "value": "Walking shoes"},
        {"type": "click", "selector": "h1"}]})
    assert result.ok, _json(result)
    assert await js(tab, "window.__added") == ["Walking shoes"]
    assert await js(tab, "[...document.querySelectorAll('li')].map(li => li.textContent.trim())"
                    ) == ["Passport", "Charger", "Walking shoes"]
    assert await js(tab, "document.getElementById('item').value") == ""
    change = _delta(result)
    assert [a for a in change.appeared if a.name == "Walking shoes"], _json(result)
    assert _changed(result, "text") == [("1 left to pack", "2 left to pack")], _json(result)
    assert not _changed(result, "value", field), _json(result)


async def _packed(tab: Tab) -> dict[str, Any]:
    return dict(await js(tab, """({
        all: document.querySelector('[role=checkbox]').ariaChecked,
        items: [...document.querySelectorAll('li input')].map(box => box.checked),
        left: document.querySelector('main > p').textContent})"""))


@pytest.mark.corpus(LIBRARY, "hand-made tri-state checkbox (aria-checked=mixed): uncheck",
                    "read act delta")
async def test_unchecking_a_mixed_aria_checkbox_unpacks_everything(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "svelte-packing")
    everything = [e for e in view.elements if e.name == "Everything packed"]
    assert [(e.role, e.checked) for e in everything] == [("checkbox", "mixed")], view.text
    result = await act(tab, {"steps": [{"type": "uncheck", "target": everything[0].ref}]})
    assert result.ok, _json(result)
    packed = await _packed(tab)
    assert packed == {"all": "false", "items": [False, False], "left": "2 left to pack"}, (
        packed, _json(result))
    assert _changed(result, "checked", everything[0].ref) == [("mixed", False)], _json(result)
    assert _changed(result, "checked", ref(view, "Passport", "checkbox")) == [(True, False)]


@pytest.mark.corpus(LIBRARY, "hand-made tri-state checkbox (aria-checked=mixed): check",
                    "read act delta")
async def test_checking_a_mixed_aria_checkbox_packs_everything(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "svelte-packing")
    everything = ref(view, "Everything packed", "checkbox")
    result = await act(tab, {"steps": [{"type": "check", "target": everything}]})
    assert result.ok, _json(result)
    packed = await _packed(tab)
    assert packed == {"all": "true", "items": [True, True], "left": "0 left to pack"}, (
        packed, _json(result))
    assert _changed(result, "checked", everything) == [("mixed", True)], _json(result)
    assert _changed(result, "checked", ref(view, "Charger", "checkbox")) == [(False, True)]


@pytest.mark.corpus(LIBRARY, "toggle button rendered again by its click ({#key})",
                    "read act delta")
async def test_a_button_rendered_again_by_its_click_is_reported_replaced(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "svelte-bistro")
    button = [e for e in view.elements if e.name == "Save to favourites"]
    assert [(e.role, e.pressed) for e in button] == [("button", False)], view.text
    result = await act(tab, {"steps": [{"type": "click", "target": button[0].ref}]})
    assert result.ok, _json(result)
    assert await js(tab, "window.__log") == ["favourite:true"]
    assert await js(tab, "document.querySelector('header button').ariaPressed") == "true"
    change = _delta(result)
    # A new button of the same name took the old one's place: the delta says which ref now
    # works, and that it is pressed.
    replaced = [(r.before, r.name) for r in change.replaced]
    assert replaced == [(button[0].ref, "Save to favourites")], _json(result)
    new = change.replaced[0].after
    assert _changed(result, "pressed", new) == [(False, True)], _json(result)
    assert "In your favourites." in [a.name for a in change.appeared], _json(result)
    again = await act(tab, {"steps": [{"type": "click", "target": new}]})
    assert again.ok, _json(again)
    assert await js(tab, "window.__log") == ["favourite:true", "favourite:false"]
    assert await js(tab, "document.querySelector('header button').ariaPressed") == "false"


@pytest.mark.corpus(LIBRARY, "share menu whose items act on pointerup and close it",
                    "read act delta")
async def test_a_menu_item_acting_on_pointerup_is_chosen(tab: Tab, server: FixtureServer
                                                         ) -> None:
    view = await open_app(tab, server, "svelte-bistro")
    opened = await act(tab, {"steps": [{"type": "click", "target": ref(view, "Share", "button")}]})
    assert opened.ok, _json(opened)
    menu = [a for a in _delta(opened).appeared if a.role == "menu"]
    assert menu and menu[0].controls, _json(opened)
    items = {c.name: c.ref for c in menu[0].controls if c.role == "menuitem"}
    assert set(items) == {"Copy link", "Email", "Embed"}, _json(opened)
    result = await act(tab, {"steps": [{"type": "click", "target": items["Email"]}]})
    assert result.ok, _json(result)
    assert await js(tab, "window.__log") == ["share:Email"]
    assert await js(tab, "document.querySelector('[role=menu]')") is None
    change = _delta(result)
    assert [d.role for d in change.disappeared] == ["menu"], _json(result)
    assert [a.name for a in change.appeared if a.role == "status"] == ["Shared via Email"], (
        _json(result))


@pytest.mark.corpus(LIBRARY, "booking dialog flying in (svelte/transition) with a form",
                    "act delta")
async def test_a_dialog_flying_in_is_filled_and_confirmed_in_one_call(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "svelte-bistro")
    # An agent that knows the form acts through it while the dialog is still coming in.
    result = await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Book a table", "button")},
        {"type": "fill", "selector": "[role=dialog] input[name=name]", "value": "Grace Hopper"},
        {"type": "fill", "selector": "[role=dialog] input[name=guests]", "value": "4"},
        {"type": "click", "selector": "[role=dialog] button[type=submit]"}]})
    assert result.ok, _json(result)
    assert await js(tab, "window.__log") == ["booked:Grace Hopper:4"]
    assert await js(tab, "document.querySelector('main [role=status]').textContent"
                    ) == "Table for 4 booked for Grace Hopper"
    # Settled means the dialog has flown out too.
    assert await js(tab, "document.querySelector('[role=dialog]')") is None
    change = _delta(result)
    assert [a.name for a in change.appeared] == ["Table for 4 booked for Grace Hopper"], (
        _json(result))
    assert not change.disappeared, _json(result)


@pytest.mark.corpus(LIBRARY, "email checked on blur, the error only a class (class:error)",
                    "read act delta")
async def test_an_email_marked_by_a_class_on_blur_is_in_the_delta(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "svelte-bistro")
    email = ref(view, "Your email", "textbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": email, "value": "marie@"},
        {"type": "press", "target": email, "key": "Tab"}]})
    assert result.ok, _json(result)
    assert await js(tab, "document.querySelector('footer input').className.split(' ')"
                    ".includes('error')") is True
    classes = _changed(result, "className", email)
    assert len(classes) == 1 and "error" in str(classes[0][1]), _json(result)
