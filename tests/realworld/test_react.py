"""React 19: controlled inputs (whose value lives in state and is written back on every input),
a to-do list adding on Enter, a masked phone field, a class-only error, a menu acting on
pointerdown, a button rendered again by its own click, a form action awaiting a slow server."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from cdpseq import ActResult, StateChange, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import js, open_app


def _json(result: ActResult) -> str:
    """The whole act result, for an assertion's message."""
    return json.dumps(msgspec.to_builtins(result), indent=1, ensure_ascii=False)


def _delta(result: ActResult) -> StateChange:
    """The act's state change, which must be there."""
    change = result.state_change
    assert isinstance(change, StateChange), _json(result)
    return change


def _changes(result: ActResult, ref_: str | None = None) -> dict[str, tuple[Any, Any]]:
    """What the delta says changed: field -> (from, to), of one element when ref_ is given."""
    change = result.state_change
    changed = change.changed if isinstance(change, StateChange) else []
    return {c.field or "": (c.before, c.after) for c in changed
            if ref_ is None or c.ref == ref_}


@pytest.mark.corpus("React 19", "controlled text input, checkbox in its label, submit",
                    "read act delta")
async def test_a_controlled_form_is_filled_and_submitted(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "react-signup")
    name, terms = ref(view, "Full name", "textbox"), ref(view, "I accept the terms", "checkbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": name, "value": "Ada Lovelace"},
        {"type": "check", "target": terms},
        {"type": "click", "target": ref(view, "Create account", "button")}]})
    assert result.ok, result
    # The page's own state: React's (upper-cased by its onChange), the box, the greeting.
    assert await js(tab, "document.getElementById('name').value") == "ADA LOVELACE"
    assert await js(tab, "document.querySelector('input[type=checkbox]').checked") is True
    assert await js(tab, "document.querySelector('[role=status]').textContent"
                    ) == "Welcome, ADA LOVELACE!"
    change = _delta(result)
    assert [a.name for a in change.appeared if a.role == "status"] == ["Welcome, ADA LOVELACE!"]


@pytest.mark.corpus("React 19", "to-do list adding on Enter (onKeyDown), field cleared by the app",
                    "read act delta")
async def test_a_shopping_item_is_added_on_enter_exactly_once(tab: Tab, server: FixtureServer
                                                               ) -> None:
    view = await open_app(tab, server, "react-groceries")
    field = ref(view, "Add an item", "textbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": field, "value": "Sourdough bread"},
        {"type": "press", "target": field, "key": "Enter"}]})
    assert result.ok, _json(result)
    assert await js(tab, "window.__added") == ["Sourdough bread"]
    assert await js(tab, "[...document.querySelectorAll('li')].map(li => li.textContent.trim())"
                    ) == ["Oat milk", "Sourdough bread"]
    assert await js(tab, "document.getElementById('new-item').value") == ""
    change = _delta(result)
    # The new item's checkbox appeared (alone or in its list item), the count went up, and the
    # field, empty before and after, is not said to have changed.
    assert [a for a in change.appeared if "Sourdough bread" in (a.name or "")], _json(result)
    assert _changes(result).get("text") == ("1 to buy", "2 to buy"), _json(result)
    assert "value" not in _changes(result, field), _json(result)


@pytest.mark.corpus("React 19", "controlled phone input reformatting each keystroke (mask)",
                    "read act delta")
async def test_a_masked_phone_field_is_filled_and_the_form_saved(tab: Tab, server: FixtureServer
                                                                 ) -> None:
    view = await open_app(tab, server, "react-profile")
    phone = ref(view, "Phone", "textbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": ref(view, "Email", "textbox"), "value": "ada@example.com"},
        {"type": "fill", "target": phone, "value": "5551234567"},
        {"type": "click", "target": ref(view, "Save profile", "button")}]})
    assert result.ok, _json(result)
    assert await js(tab, "document.querySelector('[name=phone]').value") == "(555) 123-4567"
    assert await js(tab, "document.querySelector('[role=status]').textContent"
                    ) == "Saved Ada Lovelace, (555) 123-4567"
    assert _changes(result, phone).get("value") == ("", "(555) 123-4567"), _json(result)
    change = _delta(result)
    assert [a.name for a in change.appeared if a.role == "status"] == [
        "Saved Ada Lovelace, (555) 123-4567"], _json(result)


@pytest.mark.corpus("React 19", "email checked on blur, the error only a class (is-invalid)",
                    "read act delta")
async def test_an_email_marked_invalid_by_a_class_on_blur_is_in_the_delta(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "react-profile")
    email = ref(view, "Email", "textbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": email, "value": "ada@example"},
        {"type": "press", "target": email, "key": "Tab"}]})
    assert result.ok, _json(result)
    assert await js(tab, "document.querySelector('[name=email]').className") == "is-invalid"
    assert await js(tab, "document.activeElement.name") == "phone"
    before, after = _changes(result, email).get("className", (None, None))
    assert "is-invalid" in str(after) and "is-invalid" not in str(before), _json(result)


@pytest.mark.corpus("React 19", "custom menu whose items act on pointerdown and close it",
                    "read act delta")
async def test_a_menu_item_acting_on_pointerdown_is_chosen(tab: Tab, server: FixtureServer
                                                           ) -> None:
    view = await open_app(tab, server, "react-board")
    opened = await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Sort by: Due date", "button")}]})
    assert opened.ok, _json(opened)
    menu = [a for a in _delta(opened).appeared if a.role == "menu"]
    assert menu and menu[0].controls, _json(opened)
    items = {c.name: c.ref for c in menu[0].controls if c.role == "menuitem"}
    assert set(items) == {"Due date", "Priority", "Title"}, _json(opened)
    result = await act(tab, {"steps": [{"type": "click", "target": items["Priority"]}]})
    assert result.ok, _json(result)
    assert await js(tab, "window.__log") == ["sort:Priority"]
    assert await js(tab, "document.querySelector('[role=menu]')") is None
    assert await js(tab, "[...document.querySelectorAll('ol li')].map(li => li.textContent)"
                    ) == ["Fix login bug", "Write release notes", "Answer support mail"]
    change = _delta(result)
    assert [d.role for d in change.disappeared] == ["menu"], _json(result)
    assert any(c.after == "Sort by: Priority" for c in change.changed), _json(result)


@pytest.mark.corpus("React 19", "button rendered again on click (its key changes)",
                    "read act delta")
async def test_a_button_replaced_by_its_click_is_reported_and_usable_again(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "react-board")
    watch = ref(view, "Watch", "button")
    result = await act(tab, {"steps": [{"type": "click", "target": watch}]})
    assert result.ok, _json(result)
    assert await js(tab, "window.__log") == ["watch:true"]
    assert await js(tab, "document.querySelector('main button').textContent") == "Unwatch"
    change = _delta(result)
    # A new element with another name took the button's place: the old one went, the new one
    # came with the ref to use from now on; the line under it changed.
    assert [(d.ref, d.name) for d in change.disappeared] == [(watch, "Watch")], _json(result)
    unwatch = [a.ref for a in change.appeared if a.role == "button" and a.name == "Unwatch"]
    assert len(unwatch) == 1 and unwatch[0] != watch, _json(result)
    assert _changes(result).get("text") == ("You are not watching this board.",
                                            "You get mail about this board."), _json(result)
    again = await act(tab, {"steps": [{"type": "click", "target": unwatch[0]}]})
    assert again.ok, _json(again)
    assert await js(tab, "window.__log") == ["watch:true", "watch:false"]
    assert await js(tab, "document.querySelector('main p').textContent"
                    ) == "You are not watching this board."


@pytest.mark.corpus("React 19", "form action (useActionState, useFormStatus) to a slow server",
                    "read act delta")
async def test_a_form_action_is_sent_and_its_answer_awaited(tab: Tab, server: FixtureServer
                                                            ) -> None:
    view = await open_app(tab, server, "react-contact")
    name, message = ref(view, "Your name", "textbox"), ref(view, "Message", "textbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": name, "value": "Grace Hopper"},
        {"type": "fill", "target": ref(view, "Email", "textbox"), "value": "grace@example.com"},
        {"type": "select", "target": ref(view, "Topic", "combobox"),
         "label": "Something is broken"},
        {"type": "fill", "target": message, "value": "The invoice page shows a blank table."},
        {"type": "click", "target": ref(view, "Send message", "button")}]})
    assert result.ok, _json(result)
    # Settled means the action came back: its answer is shown, React reset the form.
    assert await js(tab, "window.__sent") == [{
        "name": "Grace Hopper", "email": "grace@example.com", "topic": "bug",
        "message": "The invoice page shows a blank table."}]
    assert await js(tab, "document.querySelector('[role=status]')?.textContent"
                    ) == "Thanks Grace Hopper, we will reply soon."
    assert await js(tab, "[...document.querySelectorAll('input, textarea')].map(f => f.value)"
                    ) == ["", "", ""]
    assert await js(tab, "document.querySelector('button').textContent") == "Send message"
    change = _delta(result)
    assert [a.name for a in change.appeared if a.role == "status"] == [
        "Thanks Grace Hopper, we will reply soon."], _json(result)
    # The fields were filled and emptied again within the act: no net change to report.
    assert not _changes(result, name) and not _changes(result, message), _json(result)
