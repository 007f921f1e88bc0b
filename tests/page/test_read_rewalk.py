"""A read after changes walks only what changed (js/agent/rewalk.js): checked against a walk of
the whole page, after every change of a series, on pages of every shape (a big table, a data
grid, to-dos, shadow roots and same-origin frames, a form, a real web-component app): the same
rows, refs, names, states, hints and contexts, in the same order."""

from __future__ import annotations

import json

import pytest
import trio

from cdpseq import Tab, read_page
from cdpseq.cdp import runtime
from cdpseq.page.agent import PageAgent
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, run
from tests.realworld.common import open_app

# (what changes, the script that changes it in the page's own world, how the next read walks:
# "patched", or words of the reason it walks the whole page)
Step = tuple[str, str, str]


class Reads:
    """Reads of one tab as read_page makes them (``readAgain`` with the last read's version:
    unchanged, or a read patched when it can be), each beside a walk of the whole page that
    leaves the kept walk alone."""

    def __init__(self, tab: Tab, filter: str) -> None:
        self.agent = tab.extension(PageAgent)
        self.filter = filter
        self.since: dict[str, object] = {}
        self.rows: list[str] = []

    async def both(self) -> tuple[str, list[str], list[str]]:
        """How the read walked ("unchanged" when it did not), its rows, the whole walk's."""
        options = {"filter": self.filter, **self.since}
        answer = await self.agent.evaluate(
            f"__cdpseq.{'readAgain' if self.since else 'read'}({json.dumps(options)})")
        whole = await self.agent.evaluate(
            f"__cdpseq.read({json.dumps({'filter': self.filter, 'wholeWalk': True})})")
        head, *rows = answer.split("\n")
        whole_head, *whole_rows = whole.split("\n")
        assert json.loads(whole_head)["walk"] == "asked"
        decoded = json.loads(head)
        if decoded.get("unchanged"):
            return "unchanged", self.rows, whole_rows
        self.since = {key: decoded[key] for key in ("version", "url", "title")}
        self.rows = rows
        return decoded["walk"], rows, whole_rows


async def patched_and_whole(tab: Tab, filter: str) -> tuple[str, list[str], list[str]]:
    return await Reads(tab, filter).both()


async def awaited(tab: Tab, expression: str) -> None:
    """Run a script in the page and wait for the promise it gives."""
    with trio.fail_after(10):
        await tab.send(runtime.Evaluate(expression=expression, awaitPromise=True))


async def check_series(tab: Tab, filter: str, steps: list[Step]) -> None:
    reads = Reads(tab, filter)
    walk, rows, whole = await reads.both()
    assert rows == whole
    for what, script, expected in steps:
        before = rows
        await js(tab, script)
        walk, rows, whole = await reads.both()
        assert expected in walk, (what, walk)
        assert rows == whole, (what, [r for r in rows if r not in whole],
                               [r for r in whole if r not in rows])
        assert rows != before or what.startswith("unseen:"), what


BIG_STEPS: list[Step] = [
    ("unseen: a text cell's text", "document.getElementById('change-one').click()", "patched"),
    ("a button renamed like another",
     "document.querySelector('tr[data-row=\"40\"] button').textContent = 'Row 7'", "patched"),
    ("a row inserted above the twins",
     "const tr = document.createElement('tr'); tr.innerHTML = '<td>New</td><td><button>Row 7"
     "</button></td>'; document.getElementById('rows').prepend(tr)", "patched"),
    ("a row removed between them",
     "document.querySelector('tr[data-row=\"20\"]').remove()", "patched"),
    ("renamed back: unique again",
     "document.querySelector('tr[data-row=\"40\"] button').textContent = 'Row 40'", "patched"),
    ("a row hidden", "document.querySelector('tr[data-row=\"9\"]').style.display = 'none'",
     "patched"),
    ("shown again", "document.querySelector('tr[data-row=\"9\"]').style.display = ''", "patched"),
    ("a button disabled",
     "document.querySelector('tr[data-row=\"11\"] button').disabled = true", "patched"),
    ("focus on a button", "document.querySelector('tr[data-row=\"12\"] button').focus()",
     "patched"),
    ("focus moves on", "document.querySelector('tr[data-row=\"13\"] button').focus()", "patched"),
    ("a test id taken by another",
     "document.querySelector('tr[data-row=\"14\"] button').dataset.testid = 'change-one'",
     "patched"),
    ("a row moved to the end",
     "document.getElementById('rows').append(document.querySelector('tr[data-row=\"15\"]'))",
     "patched"),
    ("a modal dialog opens",
     "const d = document.createElement('dialog'); d.innerHTML = '<button>Row 7</button>"
     "<button>Close</button>'; document.body.append(d); d.showModal()", "modal"),
    ("it closes", "document.querySelector('dialog').close()", "modal"),
    ("a style sheet hides the rows' buttons",
     "const s = document.createElement('style'); s.textContent = 'tr:nth-child(3n) button "
     "{ display: none }'; document.head.append(s)", "style sheet"),
]


@pytest.mark.parametrize("filter", ["interactive", "all"])
async def test_big_table(tab: Tab, server: FixtureServer, filter: str) -> None:
    await open_page(tab, server, "/big.html?n=600")
    await check_series(tab, filter, BIG_STEPS)


@pytest.mark.parametrize("filter", ["interactive", "all"])
async def test_data_grid_of_rows_named_alike(tab: Tab, server: FixtureServer,
                                             filter: str) -> None:
    await open_page(tab, server, "/big-grid.html?n=40")
    await check_series(tab, filter, [
        ("a row's text (its buttons' context)",
         "document.querySelectorAll('.row span')[5].textContent = 'Order five'", "patched"),
        ("a row deleted", "document.querySelectorAll('button.delete')[2].click()", "patched"),
        ("a row put first", "const body = document.querySelector('.grid-body');"
         "body.prepend(body.lastElementChild)", "patched"),
        ("a row aria-disabled", "document.querySelectorAll('[role=row]')[3]"
         ".setAttribute('aria-disabled', 'true')", "patched"),
    ])


@pytest.mark.parametrize("filter", ["interactive", "all"])
async def test_todos(tab: Tab, server: FixtureServer, filter: str) -> None:
    await open_page(tab, server, "/big-todos.html?n=20")
    await check_series(tab, filter, [
        ("a toggle checked by script (no event)",
         "document.querySelectorAll('.toggle')[4].checked = true", "patched"),
        ("a to-do renamed like another",
         "document.querySelectorAll('.todo-list label')[6].textContent = 'Todo 2'", "patched"),
        ("a to-do added", "const list = document.querySelector('.todo-list');"
         "list.append(list.firstElementChild.cloneNode(true))", "patched"),
        ("typed into the new to-do field",
         "const input = document.querySelector('.new-todo'); input.value = 'milk';"
         "input.dispatchEvent(new Event('input', {bubbles: true}))", "patched"),
        ("a to-do destroyed", "document.querySelectorAll('.destroy')[0].click()", "patched"),
    ])


async def test_shadow_roots_and_frames(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/shadow.html")
    await awaited(tab, "new Promise(done => { const f = document.createElement('iframe');"
                       f"f.src = {json.dumps(server.url('/frame-child.html'))}; f.onload = done;"
                       "document.body.prepend(f); })")
    # The frame's content renders a moment after its load event (no mutation tells of that).
    await awaited(tab, "new Promise(done => { const shown = () => document.querySelector("
                       "'iframe').contentDocument.querySelector('button').checkVisibility()"
                       " ? done() : requestAnimationFrame(shown); shown(); })")
    host = "document.querySelector('acme-widget').shadowRoot"
    frame = "document.querySelector('iframe').contentDocument"
    await read_page(tab)
    await check_series(tab, "all", [
        ("a shadow button renamed",
         f"{host}.querySelector('button').textContent = 'Renamed in shadow'", "patched"),
        ("a button added in the shadow root",
         f"{host}.append(Object.assign(document.createElement('button'),"
         " {textContent: 'Added in shadow'}))", "patched"),
        ("a button added in the frame",
         f"{frame}.body.append(Object.assign({frame}.createElement('button'),"
         " {textContent: 'Added in frame'}))", "patched"),
        ("a late shadow root, nothing else changed (readAgain's sweep finds it)",
         "document.querySelector('h1').attachShadow({mode: 'open'}).innerHTML ="
         " '<button>Late</button>'", "patched"),
        ("unseen: a custom element not defined yet",
         "document.body.append(document.createElement('late-widget'))", "patched"),
        ("defined (its shadow root attached, no mutation), beside another change",
         "customElements.define('late-widget', class extends HTMLElement { constructor() {"
         " super(); this.attachShadow({mode: 'open'}).innerHTML = '<button>Upgraded</button>';"
         " } }); document.getElementById('status').textContent = 'Upgrading'", "patched"),
        ("focus into the frame", f"{frame}.querySelector('button').focus()", "frame"),
    ])
    # A frame that loads another document: its load event marks it.
    await js(tab, f"{host}.querySelector('button').focus()")
    reads = Reads(tab, "all")
    await reads.both()
    await awaited(tab, "new Promise(done => { const f = document.querySelector('iframe');"
                       f"f.onload = done; f.src = {json.dumps(server.url('/frame-button.html'))};"
                       " })")
    await awaited(tab, "new Promise(done => { const shown = () => document.querySelector("
                       "'iframe').contentDocument.querySelector('#inner-btn').checkVisibility()"
                       " ? done() : requestAnimationFrame(shown); shown(); })")
    walk, rows, whole = await reads.both()
    assert walk == "patched" and rows == whole
    assert any('"Inside the frame"' in row and "inner-btn" in row for row in rows)


async def test_form(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/form-controls.html")
    await check_series(tab, "interactive", [
        ("a value set by script", "document.querySelector('#typing').value = 'by script'",
         "patched"),
        ("a box checked by script", "document.querySelector('#agree').checked = true",
         "patched"),
        ("a label's text", "document.querySelector('label[for=typing]').textContent = 'Typed'",
         "patched"),
        ("a label added for a field",
         "const l = document.createElement('label'); l.htmlFor = 'fruit';"
         "l.textContent = 'Also fruit'; document.body.append(l)", "patched"),
        ("named by an element elsewhere", "const p = document.createElement('p');"
         "p.id = 'far'; p.textContent = 'Far name'; document.body.append(p);"
         "document.querySelector('#typing').setAttribute('aria-labelledby', 'far')", "patched"),
        ("that element's text", "document.getElementById('far').textContent = 'Farther'",
         "patched"),
        ("a disabled fieldset around the fields",
         "const f = document.createElement('fieldset'); f.disabled = true;"
         "document.querySelector('#typing').before(f); f.append(document.querySelector('#typing'))",
         "fieldset"),
    ])


# Each chore's checkbox, in the shadow root of its <chore-item> inside the list's (lit-chores).
ITEM_BOXES = ("[...document.querySelector('chore-list').shadowRoot.querySelectorAll('chore-item')]"
              ".map(item => item.shadowRoot.querySelector('input'))")


async def test_real_web_component_app(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "lit-chores")
    await check_series(tab, "interactive", [])
    buttons = [e for e in view.elements if e.role in ("button", "checkbox")]
    assert buttons
    for element in buttons[:4]:
        await run(tab, {"type": "click", "target": element.ref})
        walk, rows, whole = await patched_and_whole(tab, "interactive")
        assert rows == whole, (element.name, walk)
        # And what a read (patched: only the clicked item changed) says is the page's own
        # state: each chore's checkbox as its shadow root holds it.
        view = await read_page(tab)
        items = [e.checked for e in view.elements
                 if e.role == "checkbox" and "chore-item >>" in e.selector]
        assert items == await js(tab, f"{ITEM_BOXES}.map(box => box.checked)"), element.name

