"""A read of a tab spinning in ``while(true){}`` over the CLI and the MCP server, each a new
process that must first attach to the hung tab: both answer PAGE_UNRESPONSIVE (attaching and
reading share the read's timeout). The timeouts here are hang guards, not assertions."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import trio

import cdpseq
from cdpseq import Browser, LaunchedChromium, Tab
from cdpseq.cdp import runtime
from fixtures.server import FixtureServer
from tests.front.test_mcp import mcp_server
from tests.helpers import text_of

CLI = [sys.executable, "-m", "cdpseq"]


@asynccontextmanager
async def _hung_tab(browser: Browser, server: FixtureServer) -> AsyncIterator[Tab]:
    """A tab whose renderer spins in ``while(true){}``, freed (and checked) afterwards."""
    tab = await browser.new_tab()
    await cdpseq.act(tab, [{"type": "navigate", "url": server.url("/fault-hang.html")}])
    await tab.activate()
    try:
        with trio.fail_after(30):
            await cdpseq.act(tab, {"steps": [{"type": "click", "selector": "#hang"}],
                                   "timeoutMs": 2000, "settleTimeoutMs": 1000})
        yield tab
    finally:
        await tab.send(runtime.TerminateExecution())
    with trio.fail_after(10):  # the page really was spinning
        assert await text_of(tab, "#status") == "Hanging"
    await browser.close_tab(tab.id)


async def test_cli_read_page_of_a_hung_tab_is_page_unresponsive(
        browser: Browser, chromium: LaunchedChromium, server: FixtureServer) -> None:
    async with _hung_tab(browser, server) as tab:
        done = await trio.to_thread.run_sync(lambda: subprocess.run(
            [*CLI, "read-page", "--cdp", chromium.endpoint, "--tab", tab.id],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "PAGE_UNRESPONSIVE" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert done.stdout == ""


async def test_mcp_read_page_of_a_hung_tab_is_page_unresponsive(
        tmp_path: Path, browser: Browser, chromium: LaunchedChromium,
        server: FixtureServer) -> None:
    async with _hung_tab(browser, server) as tab:
        with trio.fail_after(60):
            async with mcp_server(tmp_path, "--cdp", chromium.endpoint, name="hung") as served:
                reply = await served.call("read_page", {"tabId": tab.id})
                assert reply.is_error and reply.text.startswith("✗ PAGE_UNRESPONSIVE"), \
                    reply.text
                # the server keeps serving: the tools list still answers
                listed = await served.call("tabs", {"action": "list"})
                assert not listed.is_error and tab.id in listed.text, listed.text
