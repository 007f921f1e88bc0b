"""Reads and deltas of web components whose content is slotted: the host's children, shown
through a <slot> of its shadow root, are where the slot is (fixtures/pages/slots-composed.html,
plain custom elements). A container in a shadow root holds what its slots show; a modal dialog
box holds its slotted buttons; an item component's own row is not listed beside it; a host's
text is the text of the box its slot is in; a dialog box closing with an animation in its
shadow root is waited for."""

from __future__ import annotations

from typing import Any

from cdpseq import ActResult, PageElement, Tab, act, read_page
from cdpseq.engine.reports import StateChange
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, ref

PAGE = "/slots-composed.html"


def change_of(result: ActResult) -> StateChange:
    assert result.ok, result.failed
    assert result.state_change is not None
    return result.state_change


def appeared(change: StateChange, role: str) -> PageElement:
    [found] = [e for e in change.appeared if e.role == role]
    return found


async def log(tab: Tab) -> list[Any]:
    return list(await js(tab, "window.__log"))


async def test_an_opened_listbox_component_shows_its_slotted_options(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, PAGE)
    change = change_of(await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Size", "button")}]}))
    assert await js(tab, "document.getElementById('size').shadowRoot"
                         ".querySelector('[role=listbox]').hidden") is False
    listbox = appeared(change, "listbox")
    assert listbox.size == "3 items"
    options = [c for c in listbox.controls or [] if c.role == "option"]
    assert [c.name for c in options] == ["Small", "Medium", "Large"]
    # Each option once: its pointer-cursor row inside its shadow root is its place, not a
    # control of its own.
    assert [c.name for c in listbox.controls or []] == ["Small", "Medium", "Large"]
    await act(tab, {"steps": [{"type": "click", "target": options[2].ref}]})
    assert await log(tab) == [["size", "l"]]


async def test_each_option_component_is_read_once(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, PAGE)
    change_of(await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Size", "button")}]}))
    opened = await read_page(tab)
    assert [(e.role, e.name) for e in opened.elements if e.name in ("Small", "Medium", "Large")
            ] == [("option", "Small"), ("option", "Medium"), ("option", "Large")], opened.text


async def test_a_disclosure_component_s_body_comes_with_its_slotted_control(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, PAGE)
    assert not [e for e in view.elements if e.role == "checkbox"]  # the closed body hides it
    change = change_of(await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Privacy", "button")}]}))
    assert await js(tab, "document.getElementById('searchable').checkVisibility()") is True
    region = appeared(change, "region")
    assert region.name == "Privacy"
    [checkbox] = [c for c in region.controls or [] if c.role == "checkbox"]
    assert (checkbox.name, (checkbox.states or {}).get("checked")) == ("Let people find me", True)
    # Reported once, with its container.
    assert not [e for e in change.appeared if e.role == "checkbox"]


async def test_a_host_s_text_is_the_text_of_the_box_its_slot_is_in(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, PAGE)
    change = change_of(await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Mark all read", "button")}]}))
    assert await js(tab, "document.getElementById('unread').textContent") == "0 unread"
    assert [(c.field, c.before, c.after) for c in change.changed if c.role == "text"] == [
        ("text", "3 unread", "0 unread")]
    everything = await read_page(tab, filter="all")
    assert "0 unread" in everything.text and "3 unread" not in everything.text


async def test_a_modal_dialog_component_holds_its_slotted_content(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, PAGE)
    opened = change_of(await act(tab, {"steps": [
        {"type": "click", "target": ref(view, "Delete project…", "button")}]}))
    dialog = appeared(opened, "dialog")
    assert dialog.name == "Delete the project?"
    assert dialog.lines == ["Its files are removed for good."]
    controls = {c.name: c.ref for c in dialog.controls or []}
    assert list(controls) == ["Cancel", "Delete"]
    # Nothing else appeared: the text is the dialog's, not a text of its own beside it.
    assert [e.role for e in opened.appeared] == ["dialog"]
    # While it is open the rest of the page takes no input: the read lists what is in the box,
    # the slotted buttons included.
    inside = await read_page(tab)
    assert [e.name for e in inside.elements] == ["Cancel", "Delete"], inside.text
    # It closes with an animation of its box (in its shadow root): the act waits for it.
    closed = change_of(await act(tab, {"steps": [
        {"type": "click", "target": controls["Delete"]}]}))
    assert await log(tab) == [["deleted"]]
    assert await js(tab, "document.getElementById('confirm').shadowRoot"
                         ".querySelector('[role=dialog]').hidden") is True
    assert [e.name for e in closed.disappeared if e.role == "dialog"] == ["Delete the project?"]
    assert [c.after for c in closed.changed if c.role == "status"] == ["Project deleted"]
