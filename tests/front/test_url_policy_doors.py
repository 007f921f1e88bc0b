"""The URL policy through the doors: the CLI's act flags and the MCP server's flags, with
`tabs new`. "Another host" is the fixture server under the name localhost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

import cdpseq
from cdpseq import LaunchedChromium
from fixtures.server import FixtureServer
from tests.front.test_mcp import mcp_server

TIMEOUT = 60


def cdpseq_act(tmp_path: Path, chromium: LaunchedChromium, tab_id: str,
               steps: Any, *flags: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CDPSEQ_CDP"}
    return subprocess.run(
        [sys.executable, "-m", "cdpseq", "act", "--cdp", chromium.endpoint, "--tab", tab_id,
         *flags, "--steps", "-"], input=json.dumps(steps), capture_output=True, text=True,
        timeout=TIMEOUT, env={**env, "CDPSEQ_STATE_DIR": str(tmp_path / "state")})


def codes(stdout: str) -> list[str | None]:
    return [(step.get("error") or {}).get("code") for step in json.loads(stdout)["steps"]]


async def new_tab(chromium: LaunchedChromium, url: str) -> str:
    async with cdpseq.open_browser(chromium.ws_url) as browser:
        with trio.fail_after(TIMEOUT):
            tab = await browser.new_tab(url)
        return tab.id


def test_cli_flags(tmp_path: Path, chromium: LaunchedChromium, server: FixtureServer) -> None:
    tab_id = trio.run(new_tab, chromium, server.url("/policy.html"))
    data = {"type": "navigate", "url": "data:text/html,<title>Data</title>"}
    back = {"type": "navigate", "url": server.url("/policy.html")}
    other = {"type": "click", "selector": "#other"}
    refused = cdpseq_act(tmp_path, chromium, tab_id, [data])
    assert refused.returncode == 1, refused.stdout
    assert json.loads(refused.stdout)["failed"]["code"] == "URL_BLOCKED"
    allowed = cdpseq_act(tmp_path, chromium, tab_id, [data], "--allow-data")
    assert allowed.returncode == 0, allowed.stdout
    assert json.loads(allowed.stdout)["tab"]["title"] == "Data"

    denied = cdpseq_act(tmp_path, chromium, tab_id, [back, other], "--deny-host", "localhost")
    assert denied.returncode == 1 and codes(denied.stdout) == [None, "URL_BLOCKED"], \
        denied.stdout
    assert json.loads(denied.stdout)["tab"]["url"] == server.url("/policy.html")
    only = cdpseq_act(tmp_path, chromium, tab_id, [other], "--allow-host", "127.0.0.1",
                      "--allow-host", "*.example.com")
    assert codes(only.stdout) == ["URL_BLOCKED"] and "not on the allow list" in only.stdout

    bad = cdpseq_act(tmp_path, chromium, tab_id, [other], "--deny-host", "http://x.com/")
    assert bad.returncode == 2 and "not a URL" in bad.stderr and bad.stdout == ""


@pytest.mark.daemon_free
async def test_mcp_server_flags_and_tabs_new(tmp_path: Path, chromium: LaunchedChromium,
                                             server: FixtureServer) -> None:
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path, "--cdp", chromium.endpoint, "--allow-file",
                              "--deny-host", "localhost") as served:
            before = {t["id"] for t in (await served.call("tabs", {})).structured["tabs"]}
            for url in ("data:text/html,<b>x</b>", "about:version",
                        f"http://localhost:{server.port}/"):
                reply = await served.call("tabs", {"action": "new", "url": url})
                assert reply.is_error and "URL_BLOCKED" in reply.text, reply.text
            listed = await served.call("tabs", {})
            assert {t["id"] for t in listed.structured["tabs"]} == before  # nothing opened

            page = tmp_path / "local.html"
            page.write_text("<title>Local</title>")
            opened = await served.call("tabs", {"action": "new", "url": page.as_uri()})
            assert not opened.is_error, opened.text
            went = await served.call("tabs", {"action": "new",
                                              "url": server.url("/policy.html")})
            assert not went.is_error, went.text
            clicked = await served.call("act", {"steps": [
                {"type": "click", "selector": "#other"}]})
            assert clicked.is_error and clicked.structured["failed"]["code"] == "URL_BLOCKED"
            assert clicked.structured["tab"]["url"] == server.url("/policy.html")
            for tab in (opened, went):
                await served.call("tabs", {"action": "close",
                                           "tabId": tab.structured["current"]})
