"""The delta reports as one thing what a reader sees as one thing: a rich text editor whose
markup changed (its value changed, not fields of its own), a tooltip that appeared (the tooltip,
with its text, not its inner text), a role-less popup of many parts (one container), and a list
reordered by a drag (its order changed).

Each scenario checks what the page really did (through the DOM), then what the delta says."""

from __future__ import annotations

from cdpseq import Tab
from cdpseq.front.render import render_text
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, ref, run

PAGE = "/delta-wholes.html"


async def test_an_editor_s_markup_is_its_value_not_fields(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, PAGE)
    editor = ref(view, "Note", "textbox")
    assert [e.name for e in view.elements if e.role == "textbox"] == ["Note", "Due"], view.text
    result = await run(tab, {"type": "fill", "target": editor, "value": "Call the plumber"},
                       {"type": "click", "target": ref(view, "Bold", "button")})
    assert await js(tab, "document.querySelector('#editor p').innerHTML") == (
        "<strong>Call the plumber</strong><br>")
    change = result.state_change
    assert change
    entries = [*change.appeared, *change.disappeared, *change.changed]
    assert [(e.ref, e.field, e.after) for e in entries if e.role == "textbox"] == [
        (editor, "value", "Call the plumber")], entries


async def test_a_tooltip_appears_as_the_tooltip_with_its_text(tab: Tab, server: FixtureServer
                                                               ) -> None:
    view = await open_page(tab, server, PAGE)
    result = await run(tab, {"type": "hover", "target": ref(view, "Help", "button")})
    assert await js(tab, "document.getElementById('tip').textContent") == (
        "Notes are saved as you type")
    assert result.state_change
    assert [(a.role, a.name) for a in result.state_change.appeared] == [
        ("tooltip", "Notes are saved as you type")]


async def test_a_reorder_names_the_list_and_the_item_it_moved(tab: Tab, server: FixtureServer
                                                               ) -> None:
    view = await open_page(tab, server, PAGE)
    clean = ref(view, "Clean desk")
    result = await run(tab, {"type": "drag", "target": clean,
                             "toTarget": ref(view, "Answer email")})
    assert await js(tab, "[...document.querySelectorAll('#queue li')].map(li => li.dataset.id)"
                    ) == ["c", "a", "b"]
    change = result.state_change
    assert change and not change.appeared and not change.disappeared, change
    assert [(c.role, c.name, c.field, c.before, c.after) for c in change.changed] == [
        ("list", "Queue", "order", ["Answer email", "Book flights", "Clean desk"],
         ["Clean desk", "Answer email", "Book flights"])]
    assert [(c.ref, c.name) for c in change.changed[0].controls or []] == [(clean, "Clean desk")]
    assert f"    [{clean}] listitem \"Clean desk\"" in render_text(result).splitlines()


async def test_a_role_less_popup_appears_as_one_block_with_its_controls(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, PAGE)
    result = await run(tab, {"type": "click", "target": ref(view, "Due", "textbox")})
    assert await js(tab, "document.querySelector('.picker').checkVisibility()") is True
    change = result.state_change
    assert change and len(change.appeared) == 1, change
    block = change.appeared[0]
    assert block.tag == "div" and (block.lines or [])[:1] == ["‹ May 2024 ›"], block
    days = {c.name: c.ref for c in block.controls or []}
    assert {"1", "2", "3"} <= days.keys(), block
    picked = await run(tab, {"type": "click", "target": days["3"]})
    assert await js(tab, "document.getElementById('due').value") == "2024-05-03"
    assert picked.state_change and [d.ref for d in picked.state_change.disappeared] == [block.ref]
