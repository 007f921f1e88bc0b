"""A tab whose renderer crashed before a front door ever attached to it (another process
crashed it): a navigate from a new CLI process and from a new MCP server gives it a new
renderer and loads the page, as the Python API does for a tab it saw crash."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import trio

import cdpseq
from cdpseq import Browser, LaunchedChromium, Tab, open_browser
from cdpseq.cdp import page
from cdpseq.errors import CdpseqError
from fixtures.server import FixtureServer
from tests.front.test_mcp import mcp_server
from tests.helpers import js

CLI = [sys.executable, "-m", "cdpseq"]


async def _crashed_tab(chromium: LaunchedChromium, server: FixtureServer) -> str:
    """A tab at status.html whose renderer another connection crashed and left."""
    async with open_browser(chromium.ws_url) as other:
        return await _crash(await other.new_tab(), server)


async def _crash(tab: Tab, server: FixtureServer) -> str:
    loaded = await cdpseq.act(tab, [{"type": "navigate", "url": server.url("/status.html")}])
    assert loaded.ok
    with trio.fail_after(10):
        try:
            await tab.send(page.Crash())
        except CdpseqError:
            pass  # the crash takes its own answer with it
        while not tab.crashed:
            await trio.sleep(0.05)
    return tab.id


async def _assert_revived(browser: Browser, tab_id: str, server: FixtureServer) -> None:
    """The tab's new renderer holds login.html, read through this test's own session."""
    tab = await browser.tab(tab_id)
    with trio.fail_after(10):
        assert await js(tab, "location.href") == server.url("/login.html")
        assert await js(tab, "document.querySelector('#login-form') !== null") is True


async def test_cli_navigates_a_tab_crashed_before_it_attached(
        browser: Browser, chromium: LaunchedChromium, server: FixtureServer) -> None:
    tab_id = await _crashed_tab(chromium, server)
    steps = json.dumps([{"type": "navigate", "url": server.url("/login.html")}])
    done = await trio.to_thread.run_sync(lambda: subprocess.run(
        [*CLI, "act", "--cdp", chromium.endpoint, "--tab", tab_id, "--steps", "-"],
        input=steps, capture_output=True, text=True, timeout=60))
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert result["ok"] and result["tab"]["url"] == server.url("/login.html"), done.stdout
    await _assert_revived(browser, tab_id, server)
    await browser.close_tab(tab_id)


async def test_mcp_navigates_a_tab_crashed_before_it_attached(
        tmp_path: Path, browser: Browser, chromium: LaunchedChromium,
        server: FixtureServer) -> None:
    tab_id = await _crashed_tab(chromium, server)
    with trio.fail_after(60):
        async with mcp_server(tmp_path, "--cdp", chromium.endpoint, name="crashed") as served:
            reply = await served.call("act", {"tabId": tab_id, "steps": [
                {"type": "navigate", "url": server.url("/login.html")}]})
            assert not reply.is_error, reply.text
            assert reply.structured["ok"], reply.text
            # and the same server keeps using it
            read = await served.call("read_page", {"tabId": tab_id})
            assert not read.is_error and "Sign in" in read.text, read.text
    await _assert_revived(browser, tab_id, server)
    await browser.close_tab(tab_id)


async def test_selectors_on_a_tab_crashed_before_it_attached_leave_the_navigate_its_time(
        browser: Browser, chromium: LaunchedChromium, server: FixtureServer) -> None:
    # The request's selectors are checked by the page before step 0; a dead renderer never
    # answers, and the check held the act to its deadline: the navigate that revives the tab
    # then had no time left. Here the act's whole bound is the per-step one.
    tab_id = await _crashed_tab(chromium, server)
    tab = await browser.tab(tab_id)
    assert tab.crashed
    with trio.fail_after(60):
        result = await cdpseq.act(tab, {"steps": [
            {"type": "navigate", "url": server.url("/status.html")},
            {"type": "click", "selector": "#click-me"}],
            "perStepTimeoutMs": 10000, "timeoutMs": 10000})
    assert result.ok, result
    assert await js(tab, "document.querySelector('#status').textContent") == "Clicked"
    await browser.close_tab(tab_id)
