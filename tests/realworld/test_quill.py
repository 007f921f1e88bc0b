"""Quill 2: a notes page with a rich-text editor (snow theme, a bold / italic / bullet list /
link toolbar) labelled "Note", a title, and saved notes shown below. App:
fixtures/realworld/apps/quill-notes.html; window.__quill is the editor, window.__log the sources
of its text-change events, window.__notes what was saved (Quill's Delta)."""

from __future__ import annotations

from typing import Any

import pytest

from cdpseq import ActResult, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import js, open_app

QUILL = "Quill 2.0"


def changes(result: ActResult, ref_: str) -> dict[str, tuple[Any, Any]]:
    """What the delta says changed on one element: field -> (from, to)."""
    change = result.state_change
    assert change, result
    return {c.field or "": (c.before, c.after) for c in change.changed if c.ref == ref_}


@pytest.mark.corpus(QUILL, "fill the editor (contenteditable)", "read act delta")
async def test_a_note_is_written(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "quill-notes")
    editor = ref(view, "Note", "textbox")
    result = await act(tab, {"steps": [{"type": "fill", "target": editor,
                                        "value": "Call the plumber"}]})
    assert result.ok, result
    assert await js(tab, "__quill.getText()") == "Call the plumber\n"
    assert await js(tab, "__quill.root.innerHTML") == "<p>Call the plumber</p>"
    # Quill saw a user's edit (its own input handling), not an API call.
    assert set(await js(tab, "__log")) == {"user"}
    assert changes(result, editor) == {"value": ("", "Call the plumber")}


@pytest.mark.corpus(QUILL, "select a word with the keyboard, bold it with the toolbar button",
                    "read act delta")
async def test_a_word_is_made_bold(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "quill-notes")
    bold = ref(view, "bold", "button")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": ref(view, "Note", "textbox"), "value": "Call the plumber"},
        {"type": "press", "key": "Control+Shift+ArrowLeft"},
        {"type": "click", "target": bold}]})
    assert result.ok, result
    assert await js(tab, "__quill.getContents().ops") == [
        {"insert": "Call the "}, {"attributes": {"bold": True}, "insert": "plumber"},
        {"insert": "\n"}]
    assert await js(tab, "__quill.root.innerHTML") == "<p>Call the <strong>plumber</strong></p>"
    # The selection is bold now: the toolbar button says so (aria-pressed).
    assert changes(result, bold) == {"pressed": (False, True)}


@pytest.mark.corpus(QUILL, "a bullet list through the toolbar, the note saved",
                    "read act delta")
async def test_a_bullet_list_note_is_saved(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "quill-notes")
    written = await act(tab, {"steps": [
        {"type": "fill", "target": ref(view, "Title", "textbox"), "value": "Groceries"},
        {"type": "fill", "target": ref(view, "Note", "textbox"), "value": "Milk"},
        {"type": "press", "key": "Enter"},
        {"type": "type", "text": "Eggs"},
        {"type": "press", "key": "Control+A"},
        {"type": "click", "target": ref(view, "list: bullet", "button")}]})
    assert written.ok, written
    bullet = {"attributes": {"list": "bullet"}, "insert": "\n"}
    assert await js(tab, "__quill.getContents().ops") == [
        {"insert": "Milk"}, bullet, {"insert": "Eggs"}, bullet]

    saved = await act(tab, {"steps": [{"type": "click",
                                       "target": ref(view, "Save note", "button")}]})
    assert saved.ok and saved.state_change, saved
    assert await js(tab, "__notes") == [{"title": "Groceries", "contents": [
        {"insert": "Milk"}, bullet, {"insert": "Eggs"}, bullet]}]
    assert await js(tab, "document.getElementById('saved').innerHTML") == (
        "<article><h2>Groceries</h2><div><ul><li>Milk</li><li>Eggs</li></ul></div></article>")
    assert await js(tab, "__quill.getText()") == "\n"
    appeared = {(a.role, a.name): a for a in saved.state_change.appeared}
    assert ("heading", "Groceries") in appeared
    assert appeared[("list", None)].lines == ["Milk", "Eggs"]


@pytest.mark.corpus(QUILL, "the editor's own markup (p, br, strong) is not reported as fields",
                    "delta")
async def test_the_editor_markup_is_not_reported_as_fields(tab: Tab,
                                                           server: FixtureServer) -> None:
    view = await open_app(tab, server, "quill-notes")
    editor = ref(view, "Note", "textbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": editor, "value": "Call the plumber"},
        {"type": "press", "key": "Control+Shift+ArrowLeft"},
        {"type": "click", "target": ref(view, "bold", "button")}]})
    assert result.ok and result.state_change, result
    change = result.state_change
    textboxes = {(e.tag, e.ref) for e in [*change.appeared, *change.disappeared, *change.changed]
                 if e.role == "textbox"}
    assert textboxes == {("div", editor)}, textboxes
