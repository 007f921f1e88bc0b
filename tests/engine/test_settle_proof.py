"""Settling after a change ends at the proof that the page is idle again, not after a window
(settle-chained.html, big.html): an act whose change leaves the page idle does not wait out its
quiet window. Asked for a window of 5 s, it returns stable before that (a bound on the act's own
``stabilityWaitMs``, not a timing assert: the window would be waited in full otherwise). That the
proof does not come before a render the page still owes: test_settle_async.py (settle-proof.html).
"""

from __future__ import annotations

import trio

from cdpseq import Tab, act
from cdpseq.cdp import runtime
from cdpseq.page.agent import PageAgent
from cdpseq.page.script import timers_after_frames, timers_busy, timers_key
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


async def test_one_frame_of_quiet_is_not_taken_for_idle_while_frames_are_owed(
        tab: Tab, server: FixtureServer) -> None:
    # The proof waits one animation frame after the last change; a render the click deferred
    # three frames (each callback asking for the next) falls after that frame, so the frames the
    # act asked for must count as pending. Whether one frame would have fooled the proof depends
    # on when frames fall, so the click is repeated: each time the last render is in the page at
    # return, and the stable act asked for a 5 s window did not wait it out.
    with trio.fail_after(120):
        for _ in range(4):
            loaded = await act(tab, [
                {"type": "navigate", "url": server.url("/settle-proof.html")},
                {"type": "wait_for", "selector": "body[data-ready]", "state": "attached"}])
            assert loaded.ok, loaded.failed
            result = await act(tab, {"steps": [{"type": "click", "selector": "#frames"}],
                                     "stabilityMs": LONG_WINDOW})
            assert await js(tab, "document.getElementById('done').textContent") == \
                "three frames later"
            assert result.ok and result.stable is True
            assert result.stability_wait_ms is not None
            assert result.stability_wait_ms < LONG_WINDOW


async def test_the_frames_a_click_asks_for_count_until_they_have_run(
        tab: Tab, server: FixtureServer) -> None:
    # What the proof above relies on, read at each frame: the timer watch counts the frame the
    # click asked for, then the one that frame asked for, then the next (two deep), and nothing
    # once the last has run; the render it makes comes with it.
    with trio.fail_after(60):
        loaded = await act(tab, [
            {"type": "navigate", "url": server.url("/settle-proof.html")},
            {"type": "wait_for", "selector": "body[data-ready]", "state": "attached"}])
        assert loaded.ok, loaded.failed  # the act installed the timer watch
        busy = timers_busy(timers_key(tab.id))
        answer = await tab.send(runtime.Evaluate(awaitPromise=True, returnByValue=True,
                                                 expression=f"""new Promise(resolve => {{
          const seen = [];
          const look = () => seen.push([({busy}).filter(w => w.kind === "frame")
            .map(w => w.depth), document.getElementById("done").textContent]);
          document.getElementById("frames").click();
          look();
          const next = n => requestAnimationFrame(() => setTimeout(() => {{
            look();
            if (n > 1) next(n - 1); else resolve(seen);
          }}, 0));
          next(4);
        }})"""))
        seen = answer.result.value
    assert seen == [[[0], "frame 0"], [[1], "frame 0"], [[2], "frame 0"],
                    [[], "three frames later"], [[], "three frames later"]], seen


async def test_after_a_click_the_timers_are_read_before_the_dom_in_one_round_trip(
        tab: Tab, server: FixtureServer) -> None:
    # The settle proves a changed page idle only when the timer watch's reading (main world)
    # was taken before the agent's DOM reading of the same round trip. Once both may take the
    # frame the click brought as passed, the timer watch must still answer first: else every
    # such proof fails and the act waits out the quiet window.
    with trio.fail_after(60):
        await act(tab, [{"type": "navigate", "url": server.url("/big.html?n=100")},
                        {"type": "wait_for", "selector": "body[data-ready]", "state": "attached"}])
        agent = tab.extension(PageAgent)
        for _ in range(4):
            clicked = await act(tab, {"steps": [{"type": "click", "selector": "#change-one"}],
                                      "settle": False})
            assert clicked.ok and agent.input_at is not None, clicked.failed
            # A quiet window far beyond a frame: the answer is the frame proof's, also when a
            # loaded machine draws frames late.
            (timers,), state = await agent.settle_wait(2000, 4000, behind=[runtime.Evaluate(
                expression=timers_after_frames(timers_key(tab.id), 100, agent.input_at),
                returnByValue=True, awaitPromise=True)])
            reading = timers.result.value
            assert state.moved and state.frames_quiet, state
            assert reading["at"] <= state.at, (reading, state)
    assert await js(tab, "document.querySelector('#rows').rows[99].cells[0].textContent") == \
        "Item 100 (changed)"
