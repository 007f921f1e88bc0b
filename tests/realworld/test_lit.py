"""Lit 3: everything in shadow roots: a sign-in form with <label for> inside the shadow root, a
checkbox wrapped by its label, a CSS switch over a display:none checkbox; a chore list adding on
a Lit @change handler that empties the field itself, with a tri-state "All done" over chores
that are components of their own (a checkbox in each one's shadow root, named through a <slot>)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from cdpseq import ActResult, StateChange, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import ax_nodes, js, open_app

LIBRARY = "Lit 3"
ACCOUNT = "document.querySelector('account-form').shadowRoot"
CHORES = "document.querySelector('chore-list').shadowRoot"


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


@pytest.mark.corpus(LIBRARY, "form in a shadow root: <label for>, checkbox in its label",
                    "read act delta")
async def test_a_sign_in_form_in_a_shadow_root_is_filled_and_sent(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "lit-account")
    remember = ref(view, "Keep me signed in", "checkbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": ref(view, "Username", "textbox"), "value": "grace"},
        {"type": "fill", "target": ref(view, "Password", "textbox"), "value": "c0bol-rules"},
        {"type": "check", "target": remember},
        {"type": "click", "target": ref(view, "Sign in", "button")}]})
    assert result.ok, _json(result)
    assert await js(tab, "window.__signins") == [
        {"username": "grace", "password": "c0bol-rules", "remember": True, "twoFactor": True}]
    assert await js(tab, f"{ACCOUNT}.querySelector('[role=status]').textContent"
                    ) == "Signed in as grace (remembered)"
    assert _changed(result, "checked", remember) == [(False, True)], _json(result)
    change = _delta(result)
    assert [a.name for a in change.appeared if a.role == "status"] == [
        "Signed in as grace (remembered)"], _json(result)


@pytest.mark.corpus(LIBRARY, "label texts clicked in a shadow root: <label for>, wrapping label",
                    "act delta")
async def test_clicking_label_texts_in_a_shadow_root_works_their_controls(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "lit-account")
    username, remember = ref(view, "Username", "textbox"), ref(view, "Keep me signed in",
                                                               "checkbox")
    # What a person does: click the word "Username" and type, click "Keep me signed in".
    result = await act(tab, {"steps": [
        {"type": "click", "selector": "account-form >> label[for=username]"},
        {"type": "type", "text": "grace"},
        {"type": "click", "selector": "account-form >> label:has([name=remember]) span"}]})
    assert result.ok, _json(result)
    assert await js(tab, f"{ACCOUNT}.getElementById('username').value") == "grace"
    assert await js(tab, f"{ACCOUNT}.querySelector('[name=remember]').checked") is True
    assert _changed(result, "value", username) == [("", "grace")], _json(result)
    assert _changed(result, "checked", remember) == [(False, True)], _json(result)


@pytest.mark.corpus(LIBRARY, "CSS switch over a display:none checkbox, in a shadow root",
                    "read act delta")
async def test_a_switch_over_a_display_none_checkbox_in_a_shadow_root_is_turned_off(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "lit-account")
    switch = [e for e in view.elements if e.name == "Ask for a code on new devices"]
    assert [(e.role, e.checked) for e in switch] == [("switch", True)], view.text
    result = await act(tab, {"steps": [
        {"type": "fill", "target": ref(view, "Username", "textbox"), "value": "grace"},
        {"type": "uncheck", "target": switch[0].ref},
        {"type": "click", "target": ref(view, "Sign in", "button")}]})
    assert result.ok, _json(result)
    assert await js(tab, "window.__signins.map(s => s.twoFactor)") == [False]
    assert _changed(result, "checked", switch[0].ref) == [(True, False)], _json(result)


@pytest.mark.corpus(LIBRARY, "to-do list in a shadow root adding on @change, Enter commits",
                    "read act delta")
async def test_a_chore_committed_by_enter_is_added_once(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "lit-chores")
    field = ref(view, "New chore", "textbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": field, "value": "Descale the kettle"},
        {"type": "press", "target": field, "key": "Enter"}]})
    assert result.ok, _json(result)
    assert await js(tab, "window.__added") == ["Descale the kettle"]
    assert await js(tab, f"[...{CHORES}.querySelectorAll('li')].map(li => li.textContent.trim())"
                    ) == ["Take out the bins", "Vacuum the stairs", "Feed the cat",
                          "Descale the kettle"]
    assert await js(tab, f"{CHORES}.getElementById('new-chore').value") == ""
    change = _delta(result)
    assert "Descale the kettle" in json.dumps(msgspec.to_builtins(change.appeared)), (
        _json(result))
    assert _changed(result, "text") == [("2 to do", "3 to do")], _json(result)


ITEM_BOXES = (f"[...{CHORES}.querySelectorAll('chore-item')]"
              ".map(item => item.shadowRoot.querySelector('input'))")


@pytest.mark.corpus(LIBRARY, "tri-state 'All done' (indeterminate) over nested components: check",
                    "read act delta")
async def test_checking_a_mixed_all_done_box_completes_every_chore(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "lit-chores")
    all_done = [e for e in view.elements if e.name == "All done"]
    assert [(e.role, e.checked) for e in all_done] == [("checkbox", "mixed")], view.text
    # Each chore's checkbox is in the shadow root of its own <chore-item>, inside the list's.
    items = [e for e in view.elements if e.role == "checkbox" and "chore-item >>" in e.selector]
    assert [e.checked for e in items] == [True, False, False], view.text
    result = await act(tab, {"steps": [{"type": "check", "target": all_done[0].ref}]})
    assert result.ok, _json(result)
    assert await js(tab, f"{ITEM_BOXES}.map(box => box.checked)") == [True, True, True]
    assert await js(tab, f"{CHORES}.querySelector('p input').indeterminate") is False
    assert await js(tab, f"{CHORES}.querySelector('ul + p').textContent") == "0 to do"
    assert _changed(result, "checked", all_done[0].ref) == [("mixed", True)], _json(result)
    assert [_changed(result, "checked", e.ref) for e in items] == [
        [], [(False, True)], [(False, True)]], _json(result)
    assert _changed(result, "text") == [("2 to do", "0 to do")], _json(result)


@pytest.mark.corpus(LIBRARY, "checkbox named through a <slot> in its label (nested components)",
                    "read")
async def test_checkboxes_labelled_through_a_slot_are_read_with_their_names(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "lit-chores")
    oracle = await ax_nodes(tab)
    boxes = [e for e in view.elements if e.role == "checkbox"]
    assert [oracle[e.node_id]["name"] for e in boxes if e.node_id is not None] == [
        "All done", "Take out the bins", "Vacuum the stairs", "Feed the cat"]
    assert [(e.name, e.checked) for e in boxes] == [
        ("All done", "mixed"), ("Take out the bins", True), ("Vacuum the stairs", False),
        ("Feed the cat", False)], view.text
