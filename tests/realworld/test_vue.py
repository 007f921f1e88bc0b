"""Vue 3: v-model on text, v-model.number, v-model.lazy (the model takes the value on `change`
only), a <select> and a radio group; a reading list adding on @change; a modal dialog that
animates in through <Transition> with a form inside; a form whose errors are classes."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from cdpseq import ActResult, StateChange, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import js, open_app

LIBRARY = "Vue 3"


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


async def _text(tab: Tab, selector: str) -> str:
    return str(await js(tab, f"document.querySelector({selector!r}).textContent.trim()"))


@pytest.mark.corpus(LIBRARY, "v-model text and v-model.number", "read act delta")
async def test_v_model_and_v_model_number_take_what_is_filled(tab: Tab, server: FixtureServer
                                                             ) -> None:
    view = await open_app(tab, server, "vue-order")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": ref(view, "Name", "textbox"), "value": "Grace Hopper"},
        {"type": "fill", "target": ref(view, "Bags (250 g)", "textbox"), "value": "3"}]})
    assert result.ok, _json(result)
    order = await js(tab, "window.__order")
    assert (order["name"], order["quantity"], order["quantityType"]) == ("Grace Hopper", 3,
                                                                          "number"), order
    assert await _text(tab, "#ship-to") == "Ship to: Grace Hopper"
    assert await _text(tab, "#total") == "Total: $43.50"
    texts = _changed(result, "text")
    assert ("Ship to: nobody yet", "Ship to: Grace Hopper") in texts, _json(result)
    assert ("Total: $14.50", "Total: $43.50") in texts, _json(result)


@pytest.mark.corpus(LIBRARY, "v-model.lazy: the model updates on change only", "act delta")
async def test_v_model_lazy_takes_the_note_when_the_field_is_left(tab: Tab, server: FixtureServer
                                                                 ) -> None:
    view = await open_app(tab, server, "vue-order")
    note = ref(view, "Gift note", "textbox")
    typed = await act(tab, {"steps": [
        {"type": "fill", "target": note, "value": "Happy birthday, Alan!"}]})
    assert typed.ok, _json(typed)
    # In the field, not yet in the model: nobody committed it (no Enter, no leaving the field).
    assert await js(tab, "document.querySelector('textarea').value") == "Happy birthday, Alan!"
    assert await js(tab, "window.__notes") == []
    assert await _text(tab, "#note-preview") == "No gift note"
    assert not _changed(typed, "text"), _json(typed)
    left = await act(tab, {"steps": [{"type": "press", "target": note, "key": "Tab"}]})
    assert left.ok, _json(left)
    assert await js(tab, "window.__notes") == ["Happy birthday, Alan!"]
    assert await _text(tab, "#note-preview") == "Gift note: Happy birthday, Alan!"
    assert _changed(left, "text") == [("No gift note", "Gift note: Happy birthday, Alan!")], (
        _json(left))


@pytest.mark.corpus(LIBRARY, "v-model on a <select> and on a radio group, then submit",
                    "read act delta")
async def test_a_select_and_a_radio_group_bound_with_v_model(tab: Tab, server: FixtureServer
                                                            ) -> None:
    view = await open_app(tab, server, "vue-order")
    whole, espresso = ref(view, "Whole bean", "radio"), ref(view, "Espresso", "radio")
    roast = ref(view, "Roast", "combobox")
    result = await act(tab, {"steps": [
        {"type": "select", "target": roast, "label": "Dark"},
        {"type": "check", "target": espresso},
        {"type": "click", "target": ref(view, "Place order", "button")}]})
    assert result.ok, _json(result)
    order = await js(tab, "window.__order")
    assert (order["roast"], order["grind"]) == ("dark", "espresso"), order
    assert await js(tab, "[...document.querySelectorAll('[type=radio]')].map(r => r.checked)"
                    ) == [False, False, True]
    assert await _text(tab, "[role=status]") == "Order placed: 1 × dark (espresso)"
    assert _changed(result, "checked", whole) == [(True, False)], _json(result)
    assert _changed(result, "checked", espresso) == [(False, True)], _json(result)
    assert _changed(result, "value", roast) == [("Choose a roast", "Dark")], _json(result)
    change = _delta(result)
    assert [a.name for a in change.appeared if a.role == "status"] == [
        "Order placed: 1 × dark (espresso)"], _json(result)


@pytest.mark.corpus(LIBRARY, "reading list adding on @change, Enter commits", "read act delta")
async def test_a_book_committed_by_enter_is_added_once(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "vue-reading")
    field = ref(view, "Add a book", "textbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": field, "value": "The Left Hand of Darkness"},
        {"type": "press", "target": field, "key": "Enter"}]})
    assert result.ok, _json(result)
    assert await js(tab, "window.__added") == ["The Left Hand of Darkness"]
    assert await js(tab, "[...document.querySelectorAll('li')].map(li => li.textContent.trim())"
                    ) == ["Middlemarch", "The Left Hand of Darkness"]
    assert await js(tab, "document.getElementById('title').value") == ""
    change = _delta(result)
    assert [a for a in change.appeared if a.name == "The Left Hand of Darkness"], _json(result)
    assert _changed(result, "text") == [("0 unread", "1 unread")], _json(result)
    assert not _changed(result, "value", field), _json(result)


@pytest.mark.corpus(LIBRARY, "modal dialog animating in (<Transition>) with a form inside",
                    "read act delta")
async def test_an_animated_invite_dialog_is_opened_filled_and_sent(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "vue-team")
    opened = await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Invite teammate", "button")}]})
    assert opened.ok, _json(opened)
    assert opened.stable is True, _json(opened)
    # The dialog came with its controls and their refs: the next call can use them at once.
    change = _delta(opened)
    dialogs = [a for a in change.appeared if a.role == "dialog"]
    assert [d.name for d in dialogs] == ["Invite a teammate"], _json(opened)
    controls = {(c.role, c.name): c.ref for c in dialogs[0].controls or []}
    assert {("textbox", "Email address"), ("combobox", "Role"), ("button", "Cancel"),
            ("button", "Send invite")} <= set(controls), _json(opened)
    sent = await act(tab, {"steps": [
        {"type": "fill", "target": controls["textbox", "Email address"],
         "value": "grace@example.com"},
        {"type": "select", "target": controls["combobox", "Role"], "label": "Editor"},
        {"type": "click", "target": controls["button", "Send invite"]}]})
    assert sent.ok, _json(sent)
    assert await js(tab, "window.__invites") == [{"email": "grace@example.com",
                                                  "role": "editor"}]
    assert await js(tab, "document.querySelector('[role=dialog]')") is None
    assert await js(tab, "[...document.querySelectorAll('tbody tr')].map(r => r.innerText)"
                    ) == ["ada@example.com\towner", "grace@example.com\teditor"]
    change = _delta(sent)
    assert [d.name for d in change.disappeared if d.role == "dialog"] == [
        "Invite a teammate"], _json(sent)
    assert "grace@example.com" in json.dumps(msgspec.to_builtins(change.appeared)), _json(sent)


@pytest.mark.corpus(LIBRARY, "validation on submit: class is-invalid, a message for one field",
                    "read act delta")
async def test_errors_shown_by_classes_on_submit_are_in_the_delta(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "vue-workspace")
    name, url = ref(view, "Workspace name", "textbox"), ref(view, "URL (app.example.com/…)",
                                                            "textbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": url, "value": "My Team!"},
        {"type": "click", "target": ref(view, "Create workspace", "button")}]})
    assert result.ok, _json(result)
    assert await js(tab, "[...document.querySelectorAll('input')].map(i => i.className)"
                    ) == ["is-invalid", "is-invalid"]
    assert await js(tab, "document.querySelector('[role=status]')") is None
    change = _delta(result)
    assert "Give the workspace a name" in [a.name for a in change.appeared], _json(result)
    # The URL's only sign of trouble is its class: the delta must carry it, for both fields.
    for field in (name, url):
        classes = _changed(result, "className", field)
        assert len(classes) == 1 and "is-invalid" in str(classes[0][1]), _json(result)
