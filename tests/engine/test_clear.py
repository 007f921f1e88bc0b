"""clear (issue 13): a field emptied as a user does — select all, delete — so that a React-like
controlled input (fixtures/pages/controlled.html keeps its own state and reverts bare .value
writes) ends empty in the app's state too; textareas and rich-text editors alike."""

from __future__ import annotations

from cdpseq import Tab, act
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, run, text_of


async def test_clear_empties_controlled_fields_and_an_editor_in_the_apps_state(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/controlled.html")
    await run(tab, {"type": "fill", "selector": "#name", "value": "Ada Lovelace"},
              {"type": "fill", "selector": "#bio", "value": "line one\nline two"},
              {"type": "fill", "selector": "#editor", "value": "Rich text"}, settle=False)
    await js(tab, """window.deletes = [];
        for (const id of ["name", "bio", "editor"]) document.getElementById(id)
          .addEventListener("input", e => window.deletes.push([id, e.isTrusted, e.inputType]));""")
    result = await run(tab, {"type": "clear", "selector": "#name"},
                       {"type": "clear", "selector": "#bio"},
                       {"type": "clear", "selector": "#editor"})
    assert [step.status for step in result.steps] == ["ok", "ok", "ok"]
    assert await js(tab, "window.appState") == {"name": "", "bio": ""}
    assert await text_of(tab, "#mirror") == "You typed:"
    assert await js(tab, "document.getElementById('name').value") == ""
    assert await js(tab, "document.getElementById('editor').innerText.trim()") == ""
    assert await text_of(tab, "#ce-mirror") == ""
    # Each field saw a trusted deletion, as a user's select-all + Delete makes.
    deletes = await js(tab, "window.deletes")
    assert [d[0] for d in deletes] == ["name", "bio", "editor"]
    assert all(trusted and kind.startswith("delete") for _, trusted, kind in deletes), deletes


async def test_clear_of_an_empty_field_is_ok_and_of_a_button_is_not_editable(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/controlled.html")
    assert (await act(tab, [{"type": "clear", "selector": "#name"}])).ok
    refused = await act(tab, [{"type": "clear", "selector": "#save"}])
    assert refused.failed is not None and refused.failed.code == "NOT_EDITABLE"
    assert refused.failed.index == 0
