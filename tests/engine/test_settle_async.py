"""Settling when a click's handler renders only after an async path of the page's own: no
request and no timer to see, some of them outliving two animation frames (settle-async.html),
and the sources the proof that a changed page is idle again must follow (settle-proof.html: a
CSS transition's end, microtasks ending in a fetch, a BroadcastChannel message, a WebSocket
answer, a ResizeObserver callback, an interval, a render three frames on, an
IntersectionObserver report).

Settling ends early on a page where nothing moved, and at the proof once something did; these
prove it does not end before such a render: at the moment act returns the rendered paragraph is
in the DOM (read in the page), and the act's delta reports it.
"""

from __future__ import annotations

import msgspec
import pytest
import trio

from cdpseq import Browser, Tab, act
from cdpseq.cdp import page
from fixtures.server import FixtureServer
from tests.engine.test_settle_watch import names
from tests.helpers import js

RENDERED = {
    "promise": "promise resolved",
    "microtask": "microtask ran",
    "raf": "two frames later",
    "idle": "idle callback ran",
    "post": "message round trip",
    "idb": "indexeddb: stored record",
    "worker": "worker says hello",
    "frame-timer": "a timer set in a frame",
}


PROOF_RENDERED = {
    "transition": "transition ended",
    "microtask-fetch": "microtasks then fetched",
    "broadcast": "broadcast: heard",
    "websocket": "socket says pong",
    "resize": "resized to 300",
    "interval": "ticked twice",
    "frames": "three frames later",
    "intersect": "came into view",
}
CASES = ([("settle-async.html", button, text) for button, text in RENDERED.items()]
         + [("settle-proof.html", button, text) for button, text in PROOF_RENDERED.items()])


async def _open_settle_async(tab: Tab, server: FixtureServer,
                             page_name: str = "settle-async.html") -> None:
    loaded = await act(tab, [
        {"type": "navigate", "url": server.url(f"/{page_name}")},
        {"type": "wait_for", "selector": "body[data-ready]", "state": "attached"}])
    assert loaded.ok, loaded.failed


@pytest.mark.parametrize(("page_name", "button", "rendered"), CASES)
async def test_a_render_after_the_handlers_async_path_is_waited_for(
        tab: Tab, server: FixtureServer, page_name: str, button: str, rendered: str) -> None:
    with trio.fail_after(30):
        await _open_settle_async(tab, server, page_name)
        result = await act(tab, [{"type": "click", "selector": f"#{button}"}])
    text = await js(tab, "document.querySelector('#done') && document.querySelector('#done')"
                         ".textContent")
    assert text == rendered
    assert result.ok and result.stable is True
    assert f"text:{rendered}" in names(msgspec.to_builtins(result.state_change)["appeared"])


async def test_an_idle_callback_is_waited_for_click_after_click(
        tab: Tab, server: FixtureServer) -> None:
    # An idle callback runs only in an idle period of the renderer: probes that answer at once,
    # one after another (each taking the frame the click brought as passed), left it none, and
    # the act gave up on the callback and returned before its render.
    with trio.fail_after(60):
        await _open_settle_async(tab, server)
        for _ in range(8):
            await js(tab, "document.querySelector('#done') && document.querySelector('#done')"
                          ".remove()")
            result = await act(tab, [{"type": "click", "selector": "#idle"}])
            assert result.ok and result.stable is True, result
            assert await js(tab, "document.querySelector('#done') && document.querySelector("
                                 "'#done').textContent") == "idle callback ran"


async def test_a_click_that_changes_nothing_settles_without_the_quiet_window(
        tab: Tab, server: FixtureServer) -> None:
    # Asked for a quiet window far longer than two frames: an idle page does not wait it out
    # (a bound, not a timing assert: 5 s of quiet would be waited in full before this change).
    with trio.fail_after(30):
        await act(tab, [{"type": "navigate", "url": server.url("/settle-noop.html")}])
        result = await act(tab, {"steps": [{"type": "click", "selector": "#noop"}],
                                 "stabilityMs": 5000})
    assert result.ok and result.stable is True
    assert result.stability_wait_ms is not None and result.stability_wait_ms < 5000
    assert result.state_change is None  # nothing changed


async def test_values_a_script_sets_without_events_are_in_the_delta(
        tab: Tab, server: FixtureServer) -> None:
    # The model compares field values on each refresh instead of making every field's entry
    # again: a value set by a handler (no input event, no mutation) must still be reported.
    with trio.fail_after(30):
        await act(tab, [{"type": "navigate", "url": server.url("/form-controls.html")},
                        {"type": "read_page"}])
        await js(tab, "document.getElementById('inc').addEventListener('click', () => {"
                      " document.getElementById('typing').value = 'set by script';"
                      " document.getElementById('agree').checked = true; })")
        result = await act(tab, [{"type": "click", "selector": "#inc"}])
    assert result.ok
    change = msgspec.to_builtins(result.state_change)
    changed = {(c.get("selector"), c["field"], c["to"]) for c in change["changed"]}
    assert ('[data-testid="typing"]', "value", "set by script") in changed
    assert ('[data-testid="agree"]', "checked", True) in changed


async def test_a_page_whose_own_animation_frames_never_come_is_still_read_in_order(
        tab: Tab, server: FixtureServer) -> None:
    # Loaded outside an act, so the timer watch comes only with the act and finds the page's
    # broken requestAnimationFrame: its reading after "two frames" comes at its bound, after
    # the agent's (whose frames are its own world's). Taken as it came, the DOM read before
    # the 70 ms render would be the settled state; the act must see the render.
    await tab.send(page.Navigate(url=server.url("/settle-broken-frames.html")))
    with trio.fail_after(30):
        while await js(tab, "document.readyState") != "complete":
            await trio.sleep(0.02)
        result = await act(tab, [{"type": "click", "selector": "#go"}])
    assert result.ok and result.stable is True
    assert "text:rendered after 70 ms" in names(
        msgspec.to_builtins(result.state_change)["appeared"])


async def test_a_tab_behind_another_still_renders_what_waits_for_a_frame(
        browser: Browser, tab: Tab, server: FixtureServer) -> None:
    # Chrome renders no frames for a tab behind another in its window (only the newest tab of a
    # headless window is in front): a render deferred to requestAnimationFrame would never come.
    # The tab cdpseq acts in is in front as far as its pages can tell (focus emulation), as a
    # person acting on a page sees it.
    with trio.fail_after(30):
        await _open_settle_async(tab, server)
        in_front = await browser.new_tab(server.url("/settle-noop.html"))
        try:
            result = await act(tab, [{"type": "click", "selector": "#raf"}])
            assert await js(tab, "document.visibilityState") == "visible"
            assert await js(tab, "document.querySelector('#done')?.textContent") == \
                RENDERED["raf"]
        finally:
            await browser.close_tab(in_front.id)
    assert result.ok and result.stable is True
    assert f"text:{RENDERED['raf']}" in names(msgspec.to_builtins(result.state_change)["appeared"])
