"""Settling after a change ends at the proof that the page is idle again, not after a window
(settle-chained.html, big.html): an act whose change leaves the page idle does not wait out its
quiet window. Asked for a window of 5 s, it returns stable before that (a bound on the act's own
``stabilityWaitMs``, not a timing assert: the window would be waited in full otherwise). That the
proof does not come before a render the page still owes: test_settle_async.py (settle-proof.html).
"""

from __future__ import annotations

import trio

from cdpseq import Tab, act
from fixtures.server import FixtureServer
from tests.helpers import js

LONG_WINDOW = 5000


async def test_a_change_that_leaves_the_page_idle_does_not_wait_out_the_window(
        tab: Tab, server: FixtureServer) -> None:
    with trio.fail_after(60):
        loaded = await act(tab, [
            {"type": "navigate", "url": server.url("/big.html?n=100")},
            {"type": "wait_for", "selector": "body[data-ready]", "state": "attached"}])
        assert loaded.ok, loaded.failed
        cell = "document.querySelector('#rows').rows[99].cells[0].textContent"
        before = await js(tab, cell)
        result = await act(tab, {"steps": [{"type": "click", "selector": "#change-one"}],
                                 "stabilityMs": LONG_WINDOW})
    assert before == "Item 100"
    assert await js(tab, cell) == "Item 100 (changed)"  # the click changed the page
    assert result.ok and result.stable is True
    assert result.stability_wait_ms is not None and result.stability_wait_ms < LONG_WINDOW
    assert result.state_change is not None and result.state_change.changed


async def test_chained_requests_then_idle_do_not_wait_out_the_window(
        tab: Tab, server: FixtureServer) -> None:
    # Requests moved the network and the DOM: both windows end at the proof, and the chained
    # request (started from the first one's .then) is not missed in the gap between them.
    with trio.fail_after(60):
        await act(tab, [{"type": "navigate", "url": server.url("/settle-chained.html")}])
        result = await act(tab, {"steps": [{"type": "click", "selector": "#load"}],
                                 "stabilityMs": LONG_WINDOW})
    assert await js(tab, "!!document.querySelector('#done')")
    assert result.ok and result.stable is True
    assert result.stability_wait_ms is not None and result.stability_wait_ms < LONG_WINDOW
