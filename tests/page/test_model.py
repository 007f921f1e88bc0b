"""The page model on real-world patterns (issue 11): what read_page shows and what an act's delta
reports are what a user would say, on apps that render into shadow roots late, toggle classes,
fill tables after a fetch, re-render lists, and use ARIA widgets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import msgspec

from cdpseq import ActResult, LaunchedChromium, Tab, read_page
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, run
from tests.paths import ROOT


def change_of(result: ActResult) -> dict[str, Any]:
    assert result.ok, json.dumps(msgspec.to_builtins(result), indent=1)
    assert result.state_change, result.state_change
    change: dict[str, Any] = msgspec.to_builtins(result.state_change)
    return change


def line_of(text: str, start: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(start))


async def test_components_that_render_into_new_shadow_roots_later(
        tab: Tab, server: FixtureServer) -> None:
    """A Lit-style TodoMVC: each todo renders into a shadow root attached when it connects, a
    microtask later; the row checkboxes have no name."""
    await open_page(tab, server, "/todo-lit.html")
    added = change_of(await run(tab, {"type": "type", "selector": "todo-app >> .new-todo",
                                      "text": "Buy milk\n"},
                                {"type": "type", "selector": "todo-app >> .new-todo",
                                 "text": "Walk dog\n"}))
    appeared = added["appeared"]
    # The rows came into the list that was there (empty): one item says so, with each row.
    rows = next(i for i in appeared if i["role"] == "list")
    assert rows["added"] == "2 items" and rows["lines"] == ["Buy milk", "Walk dog"]
    boxes = [c for c in rows["controls"] if c["role"] == "checkbox"]
    assert [b.get("context") for b in boxes] == ['item: "Buy milk"', 'item: "Walk dog"']
    assert "name" not in boxes[0]  # it has none: said so, not made up
    # The app's footer is its <section>'s (across the shadow root), as Chrome has it.
    footer = next(i for i in appeared if i["role"] == "sectionfooter")
    assert footer["lines"] == ["2 items left"]
    assert [c["name"] for c in footer["controls"]] == ["All", "Active", "Completed"]

    toggled = change_of(await run(tab, {"type": "click", "target": boxes[0]["ref"]}))
    changes = {(c["ref"], c["field"]): (c["from"], c["to"]) for c in toggled["changed"]}
    assert changes[(boxes[0]["ref"], "checked")] == (False, True)
    assert ("2 items left", "1 item left") in changes.values()
    # The footer rendered its links again: not gone and back, but new refs for the same links.
    assert {r["name"]: r["from"] for r in toggled["replaced"]} == {
        c["name"]: c["ref"] for c in footer["controls"]}
    view = await read_page(tab)
    assert line_of(view.text, f"[{boxes[1]['ref']}]") == (
        f'[{boxes[1]["ref"]}] checkbox (no name) unchecked (item: "Walk dog")')


async def test_rows_that_share_role_and_name_are_told_apart(tab: Tab, server: FixtureServer
                                                            ) -> None:
    """Web-components TodoMVC: every row's checkbox is "Toggle Todo"."""
    await open_page(tab, server, "/todo-wc.html")
    for todo in ("Buy milk", "Walk dog", "Call mom"):
        await run(tab, {"type": "type", "selector": "todo-app >> #new-todo", "text": todo + "\n"})
    view = await read_page(tab)
    boxes = [e for e in view.elements if e.role == "checkbox"]
    assert [(b.name, b.context) for b in boxes] == [
        ("Toggle Todo", 'item: "Buy milk"'), ("Toggle Todo", 'item: "Walk dog"'),
        ("Toggle Todo", 'item: "Call mom"')]
    checked = change_of(await run(tab, {"type": "check", "target": boxes[1].ref}))
    assert [(c["ref"], c["field"], c["to"]) for c in checked["changed"]] == [
        (boxes[1].ref, "checked", True)]
    assert "appeared" not in checked and "disappeared" not in checked


async def test_a_modal_shown_by_a_class_comes_with_what_it_holds(tab: Tab, server: FixtureServer
                                                                 ) -> None:
    await open_page(tab, server, "/app-patterns.html")
    opened = change_of(await run(tab, {"type": "click", "selector": "#open-modal"}))
    dialog = opened["appeared"][0]
    assert (dialog["role"], dialog["name"], dialog["size"]) == (
        "dialog", "Delete this project?", "3 controls")
    assert dialog["lines"] == ["It cannot be undone."]
    assert [c["name"] for c in dialog["controls"]] == ["Close", "No", "Yes, delete"]
    assert opened["focus"]["name"] == "No"  # focus moved into it
    # Its refs work in the next act, without a read in between.
    no = next(c["ref"] for c in dialog["controls"] if c["name"] == "No")
    closed = change_of(await run(tab, {"type": "click", "target": no}))
    assert [(i["role"], i["name"]) for i in closed["disappeared"]] == [
        ("dialog", "Delete this project?")]


async def test_rows_a_fetch_adds_to_a_table(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/app-patterns.html")
    loaded = change_of(await run(tab, {"type": "click", "selector": "#load-orders"}))
    table = loaded["appeared"][0]
    assert (table["role"], table["name"], table["added"]) == ("table", "Orders", "3 rows")
    assert table["lines"] == ["A-1001 12.00", "A-1002 7.50", "A-1003 30.25"]
    refunds = table["controls"]
    assert [c["context"] for c in refunds] == [
        'row: "A-1001 12.00"', 'row: "A-1002 7.50"', 'row: "A-1003 30.25"']
    await run(tab, {"type": "click", "target": refunds[1]["ref"]})
    again = change_of(await run(tab, {"type": "click", "selector": "#load-orders"}))
    assert "appeared" not in again  # the same rows rendered again are not news
    assert [r["from"] for r in again["replaced"]] == [c["ref"] for c in refunds]


async def test_icon_buttons_get_the_names_a_screen_reader_says(tab: Tab, server: FixtureServer
                                                               ) -> None:
    """aria-label, title, an SVG's <title>, an image's alt; and none at all, said so."""
    view = await open_page(tab, server, "/app-patterns.html")
    names = [e.name for e in view.elements if e.role == "button"]
    for name in ("Bold", "Italic", "Underline", "Link"):
        assert name in names
    mystery = next(e for e in view.elements if e.selector == "#mystery")
    assert mystery.name == ""
    assert line_of(view.text, f"[{mystery.ref}]") == f"[{mystery.ref}] button (no name)"


async def test_new_tabs_come_with_their_address_and_title(tab: Tab, server: FixtureServer
                                                         ) -> None:
    await open_page(tab, server, "/app-patterns.html")
    link = await run(tab, {"type": "click", "selector": "#blank-link"})
    popup = await run(tab, {"type": "click", "selector": "#popup"})
    for result, path, title in ((link, "/status.html", "Status"),
                                (popup, "/login.html", "Sign in · Acme Notes")):
        assert isinstance(result.new_tabs, list) and len(result.new_tabs) == 1
        opened = result.new_tabs[0]
        assert opened.url == server.url(path) and opened.title == title
        await tab.browser.close_tab(opened.id)


async def test_aria_widgets_change_as_users_see_them(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/aria-widgets.html")
    by_name = {e.name: e.ref for e in view.elements}

    tabs = change_of(await run(tab, {"type": "click", "selector": "#t-satie"}))
    assert {(c["name"], c["field"], c["to"]) for c in tabs["changed"]} == {
        ("Bach", "selected", False), ("Satie", "selected", True)}
    assert [i["name"] for i in tabs["appeared"]] == ["Gymnopédies."]  # a class shows it
    assert [i["name"] for i in tabs["disappeared"]] == ["Fugues and cantatas."]

    menu = change_of(await run(tab, {"type": "click", "selector": "#menu-button"}))
    assert menu["appeared"][0]["role"] == "menu" and menu["appeared"][0]["size"] == "3 items"
    assert [(c["field"], c["to"]) for c in menu["changed"]] == [("expanded", True)]
    assert menu["focus"]["name"] == "Cut"
    await run(tab, {"type": "click", "selector": "#menu-button"})

    combo = change_of(await run(tab, {"type": "type", "selector": "#state", "text": "ne"}))
    listbox = combo["appeared"][0]
    assert (listbox["role"], listbox["name"]) == ("listbox", "States")
    assert [(c["name"], c.get("states")) for c in listbox["controls"]] == [
        ("Nebraska", {"selected": True}), ("Nevada", None), ("New York", None)]
    # The field's active option (aria-activedescendant) is the first match, as a user sees it.
    assert {(c["field"], c["to"]) for c in combo["changed"]} == {
        ("value", "ne"), ("expanded", True), ("active", "Nebraska")}

    slider = change_of(await run(tab, {"type": "press", "target": by_name["Volume"],
                                       "key": "ArrowUp"}))
    assert [(c["field"], c["from"], c["to"]) for c in slider["changed"]] == [
        ("valuetext", "50 percent", "60 percent")]
    switch = change_of(await run(tab, {"type": "click", "target": by_name["Notifications"]}))
    assert [(c["field"], c["to"]) for c in switch["changed"]] == [("checked", True)]
    tree = change_of(await run(tab, {"type": "click", "selector": "#projects > span"}))
    assert [(c["name"], c["field"], c["to"]) for c in tree["changed"]] == [
        ("Projects", "expanded", True)]  # its name stays its own, not its children's
    assert [i["name"] for i in tree["appeared"]] == ["project-1.docx", "project-2.docx"]


async def test_read_all_and_the_delta_agree_on_text(tab: Tab, server: FixtureServer) -> None:
    """Text in any element — a div, a span in a div, an article, loose body text — is one text
    leaf, in a read with filter "all" and in a delta alike."""
    await open_page(tab, server, "/app-patterns.html")
    # Added by a click of the act (a timer set before it could fire before the act began).
    await js(tab, "document.querySelector('h1').addEventListener('click', () => {"
                  " document.body.insertAdjacentHTML('beforeend',"
                  " '<div>In a div</div><div><span>In a span</span></div>"
                  "<article>In an article</article>'); document.body.append('Loose text'); })")
    result = await run(tab, {"type": "click", "selector": "h1"})
    texts = [i["name"] for i in change_of(result)["appeared"] if i["role"] == "text"]
    lines = (await read_page(tab, "all")).text.splitlines()
    for text in ("In a div", "In a span", "In an article"):
        assert text in texts and text in lines
    # Loose text belongs to the body, whose text it joins, in both.
    assert any("Loose text" in text for text in texts)
    assert any("Loose text" in line for line in lines)


async def test_a_one_row_change_on_a_big_page_is_a_small_delta(tab: Tab, server: FixtureServer
                                                               ) -> None:
    await open_page(tab, server, "/big.html")
    full = await read_page(tab)
    result = await run(tab, {"type": "click", "selector": "#change-one"})
    delta = json.dumps(msgspec.to_builtins(result.state_change))
    assert len(delta) <= len(json.dumps(msgspec.to_builtins(full))) / 100
    assert "Item 5000 (changed)" in delta


def test_delta_reads_work_from_one_process_to_the_next(chromium: LaunchedChromium,
                                                       server: FixtureServer) -> None:
    """The baseline of compression "delta" lives in the page, so each CLI call (a new process)
    gets a delta against the previous one, whoever made it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def cli(*args: str) -> str:
        run_ = subprocess.run([sys.executable, "-m", "cdpseq", *args, "--cdp", chromium.endpoint],
                              capture_output=True, text=True, env=env, timeout=120)
        assert run_.returncode == 0, run_.stderr
        return run_.stdout

    tab_id = json.loads(cli("tabs"))[0]["id"]
    steps = json.dumps([{"type": "navigate", "url": server.url("/status.html")}])
    loaded = subprocess.run([sys.executable, "-m", "cdpseq", "act", "--cdp", chromium.endpoint,
                             "--tab", tab_id, "--steps", "-"], input=steps,
                            capture_output=True, text=True, env=env, timeout=120)
    assert loaded.returncode == 0, loaded.stdout + loaded.stderr
    first = cli("read-page", "--tab", tab_id, "--compression", "delta")
    assert first.startswith("(full view: no earlier read of this document)")
    second = cli("read-page", "--tab", tab_id, "--compression", "delta")
    assert second.startswith("Delta since read #1") and "(nothing changed)" in second


async def test_a_row_context_is_the_text_a_person_sees_of_the_row_cut_at_40(
        tab: Tab, server: FixtureServer) -> None:
    # Hidden cells are no text of the row (at any depth, whatever hides them); a wide row is
    # said by its first 39 characters and an ellipsis, whatever comes after them.
    await open_page(tab, server, "/settle-noop.html")
    await js(tab, """document.body.insertAdjacentHTML('beforeend', `<table><tbody>
      <tr><td><div><div><span>Ada</span></div></div></td><td style="display:none">secret</td>
          <td><div style="visibility:hidden"><span>ghost</span></div></td>
          <td><button>Open</button></td></tr>
      <tr><td><div><div><span>Grace</span></div></div></td><td>Hopper</td>
          <td><div style="visibility:hidden"><span style="visibility:visible">shown</span>
          </div></td>
          <td><button>Open</button></td></tr>
      <tr><td>Katherine Johnson, NASA Langley Research Center</td><td>Hampton</td>
          <td style="display:none">hidden after the cut</td><td><button>Open</button></td></tr>
    </tbody></table>`)""")
    view = await read_page(tab)
    contexts = [e.context for e in view.elements if e.name == "Open"]
    assert contexts == ['row: "Ada"', 'row: "Grace Hopper shown"',
                        'row: "Katherine Johnson, NASA Langley Researc…"']
