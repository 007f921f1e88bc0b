"""Preact 10: a to-do list adding on the DOM's `change` (Preact's onChange is the native event),
a settings page saving each field on `change` with CSS toggle switches over hidden checkboxes,
and an inbox with a tri-state "Select all" and labels around and beside its checkboxes."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from cdpseq import ActResult, StateChange, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import js, open_app

LIBRARY = "Preact 10"


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


async def _tasks(tab: Tab) -> list[str]:
    return list(await js(tab, "[...document.querySelectorAll('li')].map(li => "
                              "li.textContent.trim())"))


@pytest.mark.corpus(LIBRARY, "to-do list adding on onChange (native change), Enter commits",
                    "read act delta")
async def test_a_task_committed_by_enter_is_added_once(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "preact-todos")
    field = ref(view, "New task", "textbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": field, "value": "Renew the passport"},
        {"type": "press", "target": field, "key": "Enter"}]})
    assert result.ok, _json(result)
    assert await js(tab, "window.__added") == ["Renew the passport"]
    assert await _tasks(tab) == ["Water the plants", "Renew the passport"]
    assert await js(tab, "document.getElementById('task').value") == ""
    change = _delta(result)
    assert [a for a in change.appeared if a.name == "Renew the passport"], _json(result)
    assert _changes(result).get("text") == ("0 left", "1 left"), _json(result)


@pytest.mark.corpus(LIBRARY, "to-do list adding on onChange: a draft dropped with Escape",
                    "act delta")
async def test_a_draft_thrown_away_with_escape_is_not_added(tab: Tab, server: FixtureServer
                                                            ) -> None:
    view = await open_app(tab, server, "preact-todos")
    field = ref(view, "New task", "textbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": field, "value": "Reply to Tom"},
        {"type": "press", "target": field, "key": "Escape"}]})
    assert result.ok, _json(result)
    # Nothing was committed: no change event came (no Enter, the field kept focus).
    assert await js(tab, "window.__added") == []
    assert await _tasks(tab) == ["Water the plants"]
    assert await js(tab, "document.getElementById('task').value") == ""
    change = result.state_change
    assert not isinstance(change, StateChange) or not change.appeared, _json(result)


@pytest.mark.corpus(LIBRARY, "to-do list adding on onChange (native change), leaving commits",
                    "read act delta")
async def test_a_task_committed_by_leaving_the_field_is_added_once(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "preact-todos")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": ref(view, "New task", "textbox"), "value": "Call the bank"},
        {"type": "click", "selector": "h1"}]})
    assert result.ok, _json(result)
    assert await js(tab, "window.__added") == ["Call the bank"]
    assert await _tasks(tab) == ["Water the plants", "Call the bank"]
    assert await js(tab, "document.getElementById('task').value") == ""
    change = _delta(result)
    assert [a for a in change.appeared if a.name == "Call the bank"], _json(result)


@pytest.mark.corpus(LIBRARY, "settings saved on change (auto-save), two text fields",
                    "read act delta")
async def test_autosaved_fields_are_saved_once_each_with_their_whole_value(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "preact-settings")
    email = ref(view, "Email", "textbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": ref(view, "Display name", "textbox"), "value": "Grace Hopper"},
        {"type": "fill", "target": email, "value": "grace@navy.example"},
        {"type": "press", "target": email, "key": "Tab"}]})
    assert result.ok, _json(result)
    saves = await js(tab, "window.__saves")
    assert saves == [{"field": "displayName", "value": "Grace Hopper"},
                     {"field": "email", "value": "grace@navy.example"}], saves
    assert _changes(result).get("text") == ("All changes saved", "Saved email"), _json(result)
    assert _changes(result, email).get("value") == ("ada@example.com", "grace@navy.example")


@pytest.mark.corpus(LIBRARY, "settings saved on change: cleared, typed key by key, left",
                    "act delta")
async def test_a_field_cleared_and_retyped_is_saved_once_with_the_new_value(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "preact-settings")
    name = ref(view, "Display name", "textbox")
    result = await act(tab, {"steps": [
        {"type": "clear", "target": name},
        {"type": "type", "target": name, "text": "Grace"},
        {"type": "press", "key": "Tab"}]})
    assert result.ok, _json(result)
    saves = await js(tab, "window.__saves")
    assert saves == [{"field": "displayName", "value": "Grace"}], saves
    assert _changes(result, name).get("value") == ("Ada", "Grace"), _json(result)
    assert _changes(result).get("text") == ("All changes saved", "Saved display name")


@pytest.mark.corpus(LIBRARY, "CSS toggle switch, checkbox visually hidden in its label",
                    "read act delta")
async def test_a_switch_over_a_visually_hidden_checkbox_is_read_and_turned_off(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "preact-settings")
    public = [e for e in view.elements if e.name == "Public profile"]
    assert [(e.role, e.checked) for e in public] == [("switch", True)], view.text
    result = await act(tab, {"steps": [{"type": "uncheck", "target": public[0].ref}]})
    assert result.ok, _json(result)
    assert await js(tab, "document.querySelectorAll('[role=switch]')[1].checked") is False
    assert await js(tab, "window.__saves") == [{"field": "public", "value": False}]
    assert _changes(result, public[0].ref).get("checked") == (True, False), _json(result)


@pytest.mark.corpus(LIBRARY, "CSS toggle switch, checkbox display:none in its label",
                    "read act delta")
async def test_a_switch_over_a_display_none_checkbox_is_read_and_turned_on(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "preact-settings")
    digest = [e for e in view.elements if e.name == "Weekly digest"]
    assert [(e.role, e.checked) for e in digest] == [("switch", False)], view.text
    result = await act(tab, {"steps": [{"type": "check", "target": digest[0].ref}]})
    assert result.ok, _json(result)
    assert await js(tab, "document.querySelector('[role=switch]').checked") is True
    assert await js(tab, "window.__saves") == [{"field": "digest", "value": True}]
    assert _changes(result, digest[0].ref).get("checked") == (False, True), _json(result)


async def _selection(tab: Tab) -> dict[str, Any]:
    return dict(await js(tab, """(() => {
        const all = document.getElementById('select-all');
        return {all: all.checked, mixed: all.indeterminate,
                rows: [...document.querySelectorAll('li input')].map(box => box.checked),
                archive: document.querySelector('[role=toolbar] button').textContent};
    })()"""))


@pytest.mark.corpus(LIBRARY, "tri-state select all (indeterminate): uncheck from mixed",
                    "read act delta")
async def test_unchecking_a_mixed_select_all_clears_every_message(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "preact-inbox")
    select_all = ref(view, "Select all", "checkbox")
    assert [e.checked for e in view.elements if e.ref == select_all] == ["mixed"]
    result = await act(tab, {"steps": [{"type": "uncheck", "target": select_all}]})
    assert result.ok, _json(result)
    selection = await _selection(tab)
    assert selection == {"all": False, "mixed": False, "rows": [False, False, False],
                         "archive": "Archive (0)"}, (selection, _json(result))
    assert _changes(result, select_all).get("checked") == ("mixed", False), _json(result)
    invoice = ref(view, "Invoice for March", "checkbox")
    assert _changes(result, invoice).get("checked") == (True, False), _json(result)


@pytest.mark.corpus(LIBRARY, "tri-state select all (indeterminate): check from mixed",
                    "read act delta")
async def test_checking_a_mixed_select_all_selects_every_message(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "preact-inbox")
    select_all = ref(view, "Select all", "checkbox")
    result = await act(tab, {"steps": [{"type": "check", "target": select_all}]})
    assert result.ok, _json(result)
    assert await _selection(tab) == {"all": True, "mixed": False,
                                     "rows": [True, True, True], "archive": "Archive (3)"}
    assert _changes(result, select_all).get("checked") == ("mixed", True), _json(result)
    build = ref(view, "Your build failed", "checkbox")
    assert _changes(result, build).get("checked") == (False, True), _json(result)


@pytest.mark.corpus(LIBRARY, "<label for> text clicked; check through a wrapping label",
                    "act delta")
async def test_labels_beside_and_around_checkboxes_work_them(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "preact-inbox")
    # What a person does: click the words "Hide read mail", then tick a message by its subject.
    result = await act(tab, {"steps": [
        {"type": "click", "selector": "label[for=hide-read]"},
        {"type": "check", "selector": "li:last-child label"}]})
    assert result.ok, _json(result)
    assert await js(tab, "document.getElementById('hide-read').checked") is True
    # One click on the label, one the browser passes on to its checkbox: no click repeated.
    clicks = await js(tab, "window.__clicks")
    assert clicks[:2] == ["LABEL[for=hide-read]", "INPUT#hide-read"], clicks
    assert clicks.count("LABEL[for=hide-read]") == 1, clicks
    assert await _selection(tab) == {"all": True, "mixed": False, "rows": [True, True],
                                     "archive": "Archive (2)"}
    change = _delta(result)
    assert "Team lunch on Friday" in json.dumps(msgspec.to_builtins(change.disappeared)
                                                ), _json(result)
    hide = ref(view, "Hide read mail", "checkbox")
    assert _changes(result, hide).get("checked") == (False, True), _json(result)
    build = ref(view, "Your build failed", "checkbox")
    assert _changes(result, build).get("checked") == (False, True), _json(result)
