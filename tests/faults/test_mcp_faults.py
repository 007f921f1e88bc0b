"""Faults through one MCP server process (attached with --cdp to the test Chromium): a renderer
crash and a tab closed by someone else, each mid-step. Each call answers its code in time, and
the same server keeps serving: the other tab works, the crashed one is revived. (The hung
renderer is tested through the API: the MCP tool is the same act.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio

from cdpseq import Browser, LaunchedChromium
from cdpseq.cdp import page, target
from cdpseq.errors import CdpseqError
from fixtures.server import FixtureServer
from tests.faults.common import elsewhere, once_past
from tests.front.test_mcp import Served, mcp_server


async def _new_tab(served: Served, url: str) -> str:
    opened = await served.call("tabs", {"action": "new", "url": url})
    assert not opened.is_error, opened.text
    return str(opened.structured["current"])


async def _act_while(served: Served, arguments: dict[str, Any], fault: Any) -> Any:
    """Call the act tool while ``fault`` runs beside it; the structured result."""
    async with trio.open_nursery() as nursery:
        nursery.start_soon(fault)
        reply = await served.call("act", arguments)
    assert reply.is_error and reply.structured["failed"]["code"] in reply.text
    return reply.structured


async def test_faults_through_one_mcp_server(tmp_path: Path, chromium: LaunchedChromium,
                                            browser: Browser, server: FixtureServer) -> None:
    with trio.fail_after(120):
        async with mcp_server(tmp_path, "--cdp", chromium.endpoint, name="faults") as served:
            bystander = await _new_tab(served, elsewhere(server, "/status.html"))

            # A renderer crash while a step waits for the page to be stable.
            crashing = await _new_tab(served, server.url("/settle-mutating.html"))
            mine = await browser.tab(crashing)

            async def crash() -> None:
                await once_past(mine, "#done", "Ticking started")
                try:
                    await mine.send(page.Crash())
                except CdpseqError:
                    pass

            with trio.fail_after(20):
                result = await _act_while(served, {"tabId": crashing, "settle": False, "steps": [
                    {"type": "click", "selector": "#go"},
                    {"type": "wait_for", "stable": True, "timeoutMs": 60000}]}, crash)
            assert result["failed"]["code"] == "TARGET_CRASHED" and result["completed"] == 1

            # The tab closed by someone else while a wait_for waits.
            closing = await _new_tab(served, server.url("/status.html"))
            mine = await browser.tab(closing)

            async def close() -> None:
                await once_past(mine, "#status", "Clicked")
                await browser.send(target.CloseTarget(targetId=closing))

            with trio.fail_after(20):
                result = await _act_while(served, {"tabId": closing, "steps": [
                    {"type": "click", "selector": "#click-me"},
                    {"type": "wait_for", "text": "Never shown", "timeoutMs": 60000}]}, close)
            assert result["failed"]["code"] == "TARGET_CLOSED" and result["completed"] == 1

            # The same server still works: the bystander, and the crashed tab revived.
            reply = await served.call("act", {"tabId": bystander, "steps": [
                {"type": "click", "selector": "#click-me"}]})
            assert not reply.is_error and "Clicked" in reply.text, reply.text
            reply = await served.call("act", {"tabId": crashing, "steps": [
                {"type": "navigate", "url": server.url("/status.html")},
                {"type": "click", "selector": "#click-me"}]})
            assert not reply.is_error, reply.text
            for tab_id in (bystander, crashing):
                await served.call("tabs", {"action": "close", "tabId": tab_id})
