"""A page that breaks, in its main world, the DOM methods automation leans on
(getBoundingClientRect, click, focus, dispatchEvent, addEventListener, querySelector[All],
elementFromPoint, getComputedStyle, MutationObserver, setTimeout). cdpseq's agent lives in an
isolated world with its own copies of all of them, so reads, fills, clicks, settling and the
delta stay right.

The one main-world piece is the settle's timer watch (a Proxy on window.setTimeout). In a
document an act loads, it runs before the page's own scripts, so a page that wraps setTimeout,
keeps the one it found, or makes it read-only is still watched. In a document loaded outside an
act, the watch comes when the next act starts: a page that keeps calling a setTimeout it saved
before that (or made setTimeout read-only) is not watched — the act still ends correctly and in
time, but the settle cannot wait for that timer, so a wait_for is what catches its render."""

from __future__ import annotations

import pytest
import trio

from cdpseq import Tab, act, read_page
from cdpseq.cdp import page
from fixtures.server import FixtureServer
from tests.faults.common import dump
from tests.helpers import js, open_page, ref


async def _fill_and_save(tab: Tab, server: FixtureServer, timers: str) -> dict[str, str]:
    view = await open_page(tab, server, f"/fault-hostile.html?timers={timers}")
    name, save = ref(view, "Name", "textbox"), ref(view, "Save", "button")
    with trio.fail_after(20):
        result = await act(tab, [{"type": "fill", "target": name, "value": "Ada"},
                                 {"type": "click", "target": save}])
    assert result.ok, dump(result)
    assert result.stable is True
    # The page's own listeners (added with the addEventListener it kept) saw real events.
    assert await js(tab, "document.body.innerText.includes('Preview: Ada')")
    changed = {item.ref: item.after for item in result.state_change.changed}
    assert changed[name] == "Ada" and "Preview: Ada" in changed.values(), dump(result)
    return changed


@pytest.mark.parametrize("timers", ["untouched", "before", "chained"])
async def test_a_hostile_main_world_does_not_fool_the_agent(tab: Tab, server: FixtureServer,
                                                           timers: str) -> None:
    changed = await _fill_and_save(tab, server, timers)
    # The settle waited for the page's 300 ms timer, so the delta has its render.
    assert "Saved Ada" in changed.values(), changed
    # (The page's own querySelector finds nothing: only cdpseq's world is unharmed.)
    assert await js(tab, "document.querySelector('#name')") is None
    assert await js(tab, "document.getElementsByTagName('input')[0].value") == "Ada"


async def test_a_timer_the_page_hides_from_the_watch_ends_the_act_correctly(
        tab: Tab, server: FixtureServer) -> None:
    # Loaded outside an act, the page swaps in a wrapper around the setTimeout it saved at load
    # before any watch came: the watch cannot see the timer. The act still ends, correct so
    # far; a wait_for catches the render.
    await tab.send(page.Navigate(url=server.url("/fault-hostile.html?timers=after")))
    with trio.fail_after(20):
        while await js(tab, "document.readyState + location.search") != "complete?timers=after":
            await trio.sleep(0.02)
    view = await read_page(tab)
    name, save = ref(view, "Name", "textbox"), ref(view, "Save", "button")
    with trio.fail_after(20):
        result = await act(tab, [{"type": "fill", "target": name, "value": "Ada"},
                                 {"type": "click", "target": save}])
    assert result.ok, dump(result)
    changed = {item.ref: item.after for item in result.state_change.changed}
    assert "Saving" in changed.values() or "Saved Ada" in changed.values(), changed
    with trio.fail_after(20):
        result = await act(tab, [{"type": "wait_for", "text": "Saved Ada"}])
    assert result.ok, dump(result)
    assert "Saved Ada" in await js(tab, "document.body.innerText")


@pytest.mark.parametrize("timers", ["after", "locked"])
async def test_a_page_an_act_loads_cannot_hide_its_timers(
        tab: Tab, server: FixtureServer, timers: str) -> None:
    changed = await _fill_and_save(tab, server, timers)
    assert "Saved Ada" in changed.values(), changed
