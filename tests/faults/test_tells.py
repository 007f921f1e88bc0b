"""Nothing of cdpseq in the page's main world: the page's own detection script (the checks
bot-detection scripts run: toString, Function.prototype.toString.call, name, length, own keys,
descriptors, new, the frames of a thrown error, window's own keys and symbols) finds nothing,
whether the timer watch came before the page's scripts (a document an act loaded) or after them
(a document loaded outside an act), and the watch still makes the settle wait for the timer the
click set."""

from __future__ import annotations

import json

import trio

from cdpseq import Tab, act, read_page
from cdpseq.cdp import page
from cdpseq.page.script import timers_due, timers_key
from fixtures.server import FixtureServer
from tests.faults.common import dump
from tests.helpers import js, ref

FINDINGS = "document.getElementById('findings').textContent"


async def _check_in_an_act(tab: Tab, kept: str = "function setTimeout() { [native code] }"
                           ) -> None:
    check = ref(await read_page(tab), "Check", "button")
    with trio.fail_after(20):
        result = await act(tab, [{"type": "click", "target": check}])
    assert result.ok, dump(result)
    watched = await js(tab, f"({timers_due(timers_key(tab.id))}) !== null")
    assert watched, "the timer watch is in the page"
    assert int(await js(tab, "document.body.dataset.checked")) > 100
    assert json.loads(await js(tab, FINDINGS)) == []
    assert await js(tab, "document.body.dataset.kept") == kept
    # The act waited for the timer the click set (400 ms, past the quiet window).
    assert await js(tab, "document.getElementById('later').textContent") == "rendered"


async def test_a_document_an_act_loaded_finds_nothing_of_cdpseq(
        tab: Tab, server: FixtureServer) -> None:
    result = await act(tab, [{"type": "navigate", "url": server.url("/fault-tells.html")}])
    assert result.ok, dump(result)
    await _check_in_an_act(tab)
    await _check_in_an_act(tab)  # the watch reset for a second act: still nothing


async def test_a_document_loaded_outside_an_act_finds_nothing_of_cdpseq(
        tab: Tab, server: FixtureServer) -> None:
    await tab.send(page.Navigate(url=server.url("/fault-tells.html")))
    with trio.fail_after(10):
        while await js(tab, "document.readyState") != "complete" or \
                await js(tab, "location.pathname") != "/fault-tells.html":
            await trio.sleep(0.02)
    # Without cdpseq's watch, the same checks pass: they look for nothing a browser has anyway.
    assert await js(tab, timers_due(timers_key(tab.id))) is None
    await js(tab, "document.getElementById('check').click()")
    assert json.loads(await js(tab, FINDINGS)) == []
    # The watch installed now, after the page's scripts: the one thing the page can tell is
    # what the Function.prototype.toString it kept from before says of a wrapped function (a
    # Proxy's: no name), as docs/GUARANTEES.md says.
    await _check_in_an_act(tab, kept="function () { [native code] }")
