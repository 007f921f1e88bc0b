"""A read of a changed page receives only what changed against the rows this process holds
(splices: js/agent/splices.js) and patches its cached view (``patch_view``): after every change
of a series, on a big table, to-dos and a page of shadow roots and a frame, the patched view is
the view built in full from a whole walk (same elements, text and read number), and what it
says of a few rows is what the page's own DOM says."""

from __future__ import annotations

import json
from typing import Any

import pytest
import trio

from cdpseq import PageView, Tab, read_page
from cdpseq.cdp import runtime
from cdpseq.page.agent import AgentError, PageAgent
from cdpseq.page.view import ReadFilter, Snapshot, build_view, decode_read_head
from fixtures.server import FixtureServer
from tests.helpers import js, open_page

# (what changes, the script that changes it in the page's own world, how the next read is
# answered: "splices", "full" or "unchanged")
Step = tuple[str, str, str]


class Reads:
    """read_page's reads of one tab, each compared with the view a whole walk builds in full
    (``wholeWalk``: not counted as a read, the kept walk left alone), and how the agent answered
    each (its head: splices, all rows, or unchanged)."""

    def __init__(self, tab: Tab, filter: ReadFilter) -> None:
        self.tab = tab
        self.filter: ReadFilter = filter
        self.agent = tab.extension(PageAgent)
        self.heads: list[dict[str, Any]] = []
        answer = self.agent.evaluate

        async def watched(expression: str, **options: Any) -> Any:
            value = await answer(expression, **options)
            if expression.startswith("__cdpseq.read") and isinstance(value, str):
                self.heads.append(json.loads(value.split("\n", 1)[0]))
            return value

        self.agent.evaluate = watched  # type: ignore[method-assign]

    async def read(self, compression: str = "none") -> tuple[str, PageView]:
        """How the agent answered ("splices", "full", "unchanged") and the view read."""
        self.heads.clear()
        view = await read_page(self.tab, self.filter, compression)  # type: ignore[arg-type]
        [head] = self.heads
        how = ("unchanged" if head.get("unchanged") else
               "splices" if head.get("splices") is not None else "full")
        if compression == "none":
            assert view == await self.whole(view.read)
        return how, view

    async def whole(self, read: int) -> PageView:
        """The view built in full from a whole walk of the page, numbered ``read``."""
        text = await self.agent.evaluate(
            f"__cdpseq.read({json.dumps({'filter': self.filter, 'wholeWalk': True})})")
        head, *rows = text.split("\n")
        view = build_view(Snapshot(decode_read_head(head), rows), self.tab.id,
                          self.agent.node_ids)
        view.read = read
        return view


async def check_series(reads: Reads, steps: list[Step]) -> PageView:
    how, view = await reads.read()
    for what, script, expected in steps:
        await js(reads.tab, f"{{ {script} }}")  # a block: its consts are its own
        how, view = await reads.read()
        assert how == expected, what
    return view


async def names_in_dom(tab: Tab, selector: str) -> list[str]:
    """The text of each rendered element ``selector`` matches, in document order."""
    texts: list[str] = await js(tab, f"[...document.querySelectorAll({json.dumps(selector)})]"
                                     ".filter(el => el.checkVisibility())"
                                     ".map(el => el.textContent.trim())")
    return texts


@pytest.mark.parametrize("filter", ["interactive", "all"])
async def test_big_table(tab: Tab, server: FixtureServer, filter: ReadFilter) -> None:
    await open_page(tab, server, "/big.html?n=600")
    reads = Reads(tab, filter)
    row = "document.querySelector('tr[data-row=\"{}\"]')"
    view = await check_series(reads, [
        ("a text cell (no control's row: no rows at all with filter interactive)",
         "document.getElementById('change-one').click()", "splices"),
        ("a button renamed like another (both get hints and contexts)",
         f"{row.format(40)}.querySelector('button').textContent = 'Row 7'", "splices"),
        ("a row inserted first, named like them too",
         "const tr = document.createElement('tr'); tr.innerHTML = '<td>New</td><td><button>Row 7"
         "</button></td>'; document.getElementById('rows').prepend(tr)", "splices"),
        ("a row removed", f"{row.format(20)}.remove()", "splices"),
        ("a row appended last",
         "const tr = document.createElement('tr'); tr.innerHTML = '<td>Last</td><td><button>"
         "Appended</button></td>'; document.getElementById('rows').append(tr)", "splices"),
        ("rows removed and rows inserted far apart",
         "for (let k = 100; k < 110; k++) document.querySelector(`tr[data-row='${k}']`).remove();"
         f"const tr = document.createElement('tr'); tr.innerHTML = '<td>Mid</td><td><button>"
         f"Inserted</button></td>'; {row.format(500)}.after(tr)", "splices"),
        ("a row hidden", f"{row.format(9)}.style.display = 'none'", "splices"),
        ("shown again", f"{row.format(9)}.style.display = ''", "splices"),
        ("a button disabled", f"{row.format(11)}.querySelector('button').disabled = true",
         "splices"),
        ("renamed back: unique again",
         f"{row.format(40)}.querySelector('button').textContent = 'Row 40'", "splices"),
    ])
    # The page's own buttons, in order, as the last view lists them.
    buttons = [e for e in view.elements if e.tag == "button" and e.name != "Change row 5000"]
    assert [e.name for e in buttons] == await names_in_dom(tab, "#rows button")
    assert [e.name for e in buttons[:2]] == ["Row 7", "Row 1"]
    assert "Row 20" not in {e.name for e in buttons}
    disabled = [e.name for e in buttons if e.disabled]
    assert disabled == await js(tab, "[...document.querySelectorAll('#rows button:disabled')]"
                                     ".map(b => b.textContent)")
    # Another process's read in between: that read's rows are the baseline now, and this
    # process's next read of a changed page is answered in full (then splices again).
    await js(tab, f"{row.format(30)}.querySelector('button').textContent = 'Thirty'")
    await reads.agent.evaluate(f"__cdpseq.read({json.dumps({'filter': filter})})")
    await js(tab, f"{row.format(31)}.querySelector('button').textContent = 'Thirty-one'")
    how, _ = await reads.read()
    assert how == "full"
    # A read with nothing changed is answered unchanged; the rows held stay the baseline.
    assert (await reads.read())[0] == "unchanged"
    await js(tab, f"{row.format(32)}.remove()")
    how, view = await reads.read()
    assert how == "splices"
    # A delta read sends its rows in full (its delta is of them); the next read splices
    # against it.
    await js(tab, f"{row.format(33)}.querySelector('button').textContent = 'Thirty-three'")
    assert (await reads.read("delta"))[0] == "full"
    await js(tab, f"{row.format(34)}.querySelector('button').textContent = 'Thirty-four'")
    how, view = await reads.read()
    assert how == "splices"
    names = [e.name for e in view.elements if e.tag == "button" and e.name != "Change row 5000"]
    assert names == await names_in_dom(tab, "#rows button")
    assert {"Thirty", "Thirty-one", "Thirty-three", "Thirty-four"} <= set(names)


@pytest.mark.parametrize("filter", ["interactive", "all"])
async def test_todos(tab: Tab, server: FixtureServer, filter: ReadFilter) -> None:
    await open_page(tab, server, "/big-todos.html?n=20")
    view = await check_series(Reads(tab, filter), [
        ("a toggle checked by script (no event)",
         "document.querySelectorAll('.toggle')[4].checked = true", "splices"),
        ("a to-do renamed like another",
         "document.querySelectorAll('.todo-list label')[6].textContent = 'Todo 2'", "splices"),
        ("a to-do added", "const list = document.querySelector('.todo-list');"
         "list.append(list.firstElementChild.cloneNode(true))", "splices"),
        ("typed into the new to-do field",
         "const input = document.querySelector('.new-todo'); input.value = 'milk';"
         "input.dispatchEvent(new Event('input', {bubbles: true}))", "splices"),
        ("the last to-do destroyed",
         "[...document.querySelectorAll('.destroy')].at(-1).click()", "splices"),
        ("the first destroyed: every path hint after it moves, more than half of the rows",
         "document.querySelectorAll('.destroy')[0].click()", "full"),
        ("the first two checked",
         "document.querySelectorAll('.toggle')[0].click();"
         "document.querySelectorAll('.toggle')[1].click()", "splices"),
    ])
    toggles = [e.checked for e in view.elements
               if e.role == "checkbox" and e.selector != ".toggle-all"
               and "toggle-all" not in e.selector]
    assert toggles == await js(tab, "[...document.querySelectorAll('.todo-list .toggle')]"
                                    ".map(t => t.checked)")
    new_todo = next(e for e in view.elements if e.role == "textbox" and e.value is not None
                    and e.value == "milk")
    assert await js(tab, "document.querySelector('.new-todo').value") == new_todo.value


async def test_shadow_roots_and_frames(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/shadow.html")
    with trio.fail_after(10):
        await tab.send(runtime.Evaluate(awaitPromise=True, expression=(
            "new Promise(done => { const f = document.createElement('iframe');"
            f"f.src = {json.dumps(server.url('/frame-child.html'))};"
            "f.onload = () => { const shown = () => f.contentDocument.querySelector('button')"
            ".checkVisibility() ? done() : requestAnimationFrame(shown); shown(); };"
            "document.body.prepend(f); })")))
    host = "document.querySelector('acme-widget').shadowRoot"
    frame = "document.querySelector('iframe').contentDocument"
    view = await check_series(Reads(tab, "all"), [
        ("a shadow button renamed",
         f"{host}.querySelector('button').textContent = 'Renamed in shadow'", "splices"),
        ("a button added in the shadow root",
         f"{host}.append(Object.assign(document.createElement('button'),"
         " {textContent: 'Added in shadow'}))", "splices"),
        ("a button added in the frame",
         f"{frame}.body.append(Object.assign({frame}.createElement('button'),"
         " {textContent: 'Added in frame'}))", "splices"),
        ("the frame's button renamed like the shadow one",
         f"{frame}.querySelector('button').textContent = 'Renamed in shadow'", "splices"),
        ("the shadow button removed", f"{host}.querySelector('button').remove()", "splices"),
    ])
    # Every <button> of the page, its shadow roots and its frame, as the page has them.
    buttons = await js(tab, """(() => { const names = [];
        const walk = root => { for (const el of root.querySelectorAll('*')) {
          if (el.tagName === 'BUTTON' && el.checkVisibility()) names.push(el.textContent.trim());
          if (el.shadowRoot) walk(el.shadowRoot);
          if (el.tagName === 'IFRAME') walk(el.contentDocument); } };
        walk(document); return names; })()""")
    assert sorted(e.name for e in view.elements if e.tag == "button") == sorted(buttons)
    assert buttons.count("Renamed in shadow") == 1 and "Added in frame" in buttons


async def test_a_splice_that_does_not_fit_is_refused_and_the_next_read_is_right(
        tab: Tab, server: FixtureServer) -> None:
    # The cached rows are patched in place: an answer whose last splice does not fit (after
    # the first was done) is refused, and the rows held are let go of, not kept half patched.
    await open_page(tab, server, "/big.html?n=60")
    reads = Reads(tab, "all")
    await reads.read()
    row = "document.querySelector('tr[data-row=\"{}\"]').querySelector('button')"
    answer = reads.agent.evaluate

    async def misplaced(expression: str, **options: Any) -> Any:
        value = await answer(expression, **options)
        if expression.startswith("__cdpseq.read") and isinstance(value, str):
            head, *rows = value.split("\n")
            fields = json.loads(head)
            if fields.get("splices"):
                fields["splices"].append([10**6, 0, 0])
            value = "\n".join([json.dumps(fields), *rows])
        return value

    reads.agent.evaluate = misplaced  # type: ignore[method-assign]
    await js(tab, f"{row.format(5)}.textContent = 'Fifth'")
    with pytest.raises(AgentError) as refused:
        await read_page(tab, "all")
    assert refused.value.code == "AGENT_FAILED"
    assert "does not fit" in refused.value.message
    reads.agent.evaluate = answer  # type: ignore[method-assign]
    await js(tab, f"{row.format(6)}.textContent = 'Sixth'")
    for expected in ("full", "splices"):  # then against that read's rows again
        how, view = await reads.read()  # and each the view of a whole walk
        assert how == expected
        names = [e.name for e in view.elements if e.tag == "button" and e.name != "Change row 5000"]
        assert names == await names_in_dom(tab, "#rows button")
        assert names[4:6] == ["Fifth", "Sixth"]
        await js(tab, f"{row.format(7)}.textContent = 'Seventh'")
