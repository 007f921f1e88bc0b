"""Faults that take the target away mid-step: the renderer crashes, someone else closes the
tab, the browser is killed. Each ends the act at once with its code and what ran so far; the
engine (same process, same Browser where it survives) keeps working."""

from __future__ import annotations

import os
import signal

import pytest
import trio

from cdpseq import Browser, LaunchedChromium, Tab, act, launch_chromium, open_browser
from cdpseq.cdp import page, target
from cdpseq.errors import CdpseqError, TargetClosed
from fixtures.server import FixtureServer
from tests.faults.common import (
    assert_unaffected,
    bystander,
    dump,
    failed_code,
    once_past,
    steps_status,
)
from tests.helpers import text_of

# A step that would wait far longer than any test: only the fault can end it early.
WAIT_FOREVER = {"type": "wait_for", "text": "Never shown", "timeoutMs": 60000}
CLICK_THEN_WAIT = {"steps": [{"type": "click", "selector": "#click-me"}, WAIT_FOREVER],
                   "timeoutMs": 90000}


async def test_renderer_crash_mid_step(browser: Browser, tab: Tab, server: FixtureServer
                                       ) -> None:
    other = await bystander(browser, server)
    await act(tab, [{"type": "navigate", "url": server.url("/settle-mutating.html")}])
    await tab.activate()  # a background tab ticks once a second, which looks stable

    async def crash_once_ticking() -> None:
        await once_past(tab, "#done", "Ticking started")
        try:
            await tab.send(page.Crash())
        except CdpseqError:
            pass  # the crash takes its own answer with it

    # The page mutates forever, so waiting for it to be stable lasts the step's whole 60 s
    # unless the crash ends the wait (the settle used to look again until its budget ran out).
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(crash_once_ticking)
            result = await act(tab, {"steps": [
                {"type": "click", "selector": "#go"},
                {"type": "wait_for", "stable": True, "timeoutMs": 60000}],
                "settle": False, "timeoutMs": 90000})
    assert failed_code(result) == "TARGET_CRASHED", dump(result)
    assert result.completed == 1 and steps_status(result) == ["ok", "error"]
    assert result.failed is not None and result.failed.index == 1
    assert result.tab is not None and result.tab.url == server.url("/settle-mutating.html")
    assert tab.crashed

    await assert_unaffected(other)
    # Loading a page gives the crashed tab a new renderer, through act as through CDP.
    with trio.fail_after(30):
        revived = await act(tab, [{"type": "navigate", "url": server.url("/status.html")},
                                  {"type": "click", "selector": "#click-me"}])
    assert revived.ok, dump(revived)
    assert not tab.crashed and await text_of(tab, "#status") == "Clicked"
    assert browser.connection.statistics().pending_commands == 0


async def test_tab_closed_by_someone_else_mid_step(browser: Browser, tab: Tab,
                                                   chromium: LaunchedChromium,
                                                   server: FixtureServer) -> None:
    other = await bystander(browser, server)
    await act(tab, [{"type": "navigate", "url": server.url("/status.html")}])

    async def close_from_another_connection() -> None:
        await once_past(tab, "#status", "Clicked")
        async with open_browser(chromium.ws_url) as someone_else:
            await someone_else.send(target.CloseTarget(targetId=tab.id))

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(close_from_another_connection)
            result = await act(tab, CLICK_THEN_WAIT)
    assert failed_code(result) == "TARGET_CLOSED", dump(result)
    assert result.completed == 1 and steps_status(result) == ["ok", "error"]
    assert result.failed is not None and result.failed.index == 1
    assert not result.failed.retryable
    assert tab.closed is not None

    # The next act on it says so at once; the rest of the browser works.
    with trio.fail_after(10):
        again = await act(tab, [{"type": "wait", "ms": 1}])
    assert failed_code(again) == "TARGET_CLOSED" and again.completed == 0
    await assert_unaffected(other)
    assert tab.id not in {info.id for info in await browser.tabs()}
    try:
        await browser.tab(tab.id)
        raise AssertionError("a closed tab was attached again")
    except TargetClosed:
        pass
    assert browser.connection.statistics().pending_commands == 0


@pytest.mark.browser
async def test_browser_killed_mid_step_then_a_new_browser_works(server: FixtureServer) -> None:
    async with launch_chromium() as doomed, open_browser(doomed.ws_url) as browser:
        tab = await browser.new_tab()
        await act(tab, [{"type": "navigate", "url": server.url("/status.html")}])

        async def kill_once_clicked() -> None:
            await once_past(tab, "#status", "Clicked")
            os.killpg(doomed.pid, signal.SIGKILL)

        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(kill_once_clicked)
                result = await act(tab, CLICK_THEN_WAIT)
        # The renderer may be reported gone a moment before the socket closes.
        assert failed_code(result) in ("CONNECTION_LOST", "TARGET_CLOSED",
                                       "TARGET_CRASHED"), dump(result)
        assert result.completed == 1 and steps_status(result) == ["ok", "error"]
        with trio.fail_after(10):
            later = await act(tab, [{"type": "wait", "ms": 1}])
        assert failed_code(later) == "CONNECTION_LOST", dump(later)

    # Same process, a new browser: everything works again.
    with trio.fail_after(60):
        async with launch_chromium() as fresh, open_browser(fresh.ws_url) as browser:
            tab = await browser.new_tab()
            result = await act(tab, [{"type": "navigate", "url": server.url("/status.html")},
                                     {"type": "click", "selector": "#click-me"}])
            assert result.ok, dump(result)
            assert await text_of(tab, "#status") == "Clicked"
