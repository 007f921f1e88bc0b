"""A tab whose renderer crashed while a session attached before the crash stays attached (the
test's own connection, a CLI daemon's, an MCP server's): a navigate from another connection
gives the tab a new renderer and loads the page, and so does one from the kept session after
it. Before ``Tab.revive`` waited for its blank page to be idle, the other connection's
navigation was aborted at commit in most runs (net::ERR_ABORTED, or no event until the step's
timeout). Each page is checked through a session of the test's own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import trio

import cdpseq
from cdpseq import Browser, LaunchedChromium, Tab, open_browser
from fixtures.server import FixtureServer
from tests.faults.test_crashed_doors import _crash
from tests.front.test_mcp import mcp_server
from tests.helpers import js

CLI = [sys.executable, "-m", "cdpseq"]


async def _shows(tab: Tab, server: FixtureServer, path: str, selector: str) -> None:
    """The tab's renderer holds ``path`` with ``selector`` in it, read through ``tab``."""
    with trio.fail_after(10):
        assert await js(tab, "location.href") == server.url(path)
        assert await js(tab, f"document.querySelector({json.dumps(selector)}) !== null")


async def _navigate(tab: Tab, server: FixtureServer, path: str) -> cdpseq.ActResult:
    with trio.fail_after(30):
        return await cdpseq.act(tab, [{"type": "navigate", "url": server.url(path)}])


def _cli_navigate(chromium: LaunchedChromium, tab_id: str, url: str) -> dict[str, object]:
    done = subprocess.run(
        [*CLI, "act", "--cdp", chromium.endpoint, "--tab", tab_id, "--steps", "-"],
        input=json.dumps([{"type": "navigate", "url": url}]), capture_output=True, text=True,
        timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


async def test_python_navigates_beside_a_session_kept_from_before_the_crash(
        tab: Tab, chromium: LaunchedChromium, server: FixtureServer) -> None:
    await _crash(tab, server)  # ``tab``'s session was attached before and stays
    async with open_browser(chromium.ws_url) as other:
        theirs = await other.tab(tab.id)
        assert theirs.crashed
        done = await _navigate(theirs, server, "/login.html")
        assert done.ok and done.tab.url == server.url("/login.html"), done
        await _shows(tab, server, "/login.html", "#login-form")
        # and the kept session acts on the new renderer as well
        again = await _navigate(tab, server, "/fields.html")
        assert again.ok and again.tab.url == server.url("/fields.html"), again
        await _shows(theirs, server, "/fields.html", "#values")


@pytest.mark.parametrize("cli_mode", ["daemon", "in-process"], indirect=True)
async def test_cli_navigates_beside_a_session_kept_from_before_the_crash(
        tab: Tab, chromium: LaunchedChromium, server: FixtureServer, cli_mode: str) -> None:
    # Through the daemon, its own session attaches before the crash and stays too.
    before = await trio.to_thread.run_sync(
        _cli_navigate, chromium, tab.id, server.url("/status.html"))
    assert before["ok"], before
    await _crash(tab, server)
    result = await trio.to_thread.run_sync(
        _cli_navigate, chromium, tab.id, server.url("/login.html"))
    assert result["ok"] and result["tab"]["url"] == server.url("/login.html"), result
    await _shows(tab, server, "/login.html", "#login-form")
    again = await _navigate(tab, server, "/fields.html")
    assert again.ok, again
    result = await trio.to_thread.run_sync(
        _cli_navigate, chromium, tab.id, server.url("/login.html"))
    assert result["ok"], result
    await _shows(tab, server, "/login.html", "#login-form")


async def test_mcp_navigates_beside_a_session_kept_from_before_the_crash(
        tmp_path: Path, browser: Browser, chromium: LaunchedChromium,
        server: FixtureServer) -> None:
    tab = await browser.new_tab()
    with trio.fail_after(90):
        async with mcp_server(tmp_path, "--cdp", chromium.endpoint, name="kept") as served:
            shown = await served.call("act", {"tabId": tab.id, "steps": [
                {"type": "navigate", "url": server.url("/status.html")}]})
            assert not shown.is_error and shown.structured["ok"], shown.text
            await _crash(tab, server)  # the server's session and the test's stay attached
            # another connection first, then the server's kept session
            async with open_browser(chromium.ws_url) as other:
                done = await _navigate(await other.tab(tab.id), server, "/fields.html")
                assert done.ok, done
            await _shows(tab, server, "/fields.html", "#values")
            reply = await served.call("act", {"tabId": tab.id, "steps": [
                {"type": "navigate", "url": server.url("/login.html")}]})
            assert not reply.is_error and reply.structured["ok"], reply.text
            read = await served.call("read_page", {"tabId": tab.id})
            assert not read.is_error and "Sign in" in read.text, read.text
    await _shows(tab, server, "/login.html", "#login-form")
    await browser.close_tab(tab.id)
