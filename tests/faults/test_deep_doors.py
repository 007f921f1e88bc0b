"""A deep (10,000 levels) and a huge (200,000 elements) page through every front door: the CLI
(through its daemon and in-process) and the MCP server, each a new process attaching to the tab.
An act and a read end with a result or a documented code (never a traceback, never a code
outside ``ErrorCode``), and the tab takes an act afterwards, checked through this test's own
session. Chromium's own renderer dies of the deep page (its layout, not cdpseq: see
docs/GUARANTEES.md); the huge one may outlast the step's timeout on a loaded machine. The
timeouts here are hang guards, not assertions."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
import trio

from cdpseq import Browser, ErrorCode, LaunchedChromium, act
from fixtures.server import FixtureServer
from tests.faults.common import dump
from tests.front.test_mcp import mcp_server
from tests.helpers import text_of

CLI = [sys.executable, "-m", "cdpseq"]
CODES = set(typing.get_args(ErrorCode))
PAGES = ["depth=10000", "count=200000"]
_CODE = re.compile(r"(?:✗ |cdpseq: )([A-Z_]+): ")


def steps_for(server: FixtureServer, query: str) -> list[dict[str, Any]]:
    """Load the page and click its top button."""
    return [{"type": "navigate", "url": server.url(f"/fault-tree.html?{query}")},
            {"type": "click", "selector": "#top"}]


def documented(text: str) -> str:
    """The code of a door's ``✗ CODE: reason`` line, asserted to be one of ``ErrorCode``."""
    match = _CODE.search(text)
    assert match is not None and match.group(1) in CODES, text
    return match.group(1)


def check_act_result(result: dict[str, Any]) -> None:
    """An act result: ok, or failed with a documented code."""
    if not result["ok"]:
        assert result["failed"]["code"] in CODES, result


async def assert_usable(browser: Browser, tab_id: str, server: FixtureServer) -> None:
    """The tab loads another page and takes a click, seen by this test's own session (a crashed
    tab gets a new renderer from the navigate, as the README promises)."""
    tab = await browser.tab(tab_id)
    # The steps' own timeouts: a crashed tab's act asks nothing of the dead renderer before the
    # navigate revives it (tests/faults/test_crashed_doors.py), whatever perStepTimeoutMs says.
    with trio.fail_after(90):
        result = await act(tab, {"steps": [
            {"type": "navigate", "url": server.url("/status.html"), "timeoutMs": 20000},
            {"type": "click", "selector": "#click-me", "timeoutMs": 20000}],
            "timeoutMs": 60000})
        assert result.ok, dump(result)
        assert await text_of(tab, "#status") == "Clicked"
    await browser.close_tab(tab_id)


def cli(chromium: LaunchedChromium, *args: str, stdin: str = ""
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args, "--cdp", chromium.endpoint], input=stdin,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("query", PAGES)
@pytest.mark.parametrize("mode", ["daemon", "in-process"])
async def test_cli_acts_and_reads_a_deep_or_huge_page(
        browser: Browser, chromium: LaunchedChromium, server: FixtureServer,
        monkeypatch: pytest.MonkeyPatch, query: str, mode: str) -> None:
    if mode == "in-process":
        monkeypatch.setenv("CDPSEQ_NO_DAEMON", "1")
    tab_id = (await browser.new_tab()).id
    acted = await trio.to_thread.run_sync(lambda: cli(
        chromium, "act", "--tab", tab_id, "--steps", "-",
        stdin=json.dumps(steps_for(server, query))))
    assert acted.returncode in (0, 1) and "Traceback" not in acted.stderr, \
        acted.stdout + acted.stderr
    if acted.stdout.strip():
        check_act_result(json.loads(acted.stdout))
    else:  # refused before it ran: the reason on stderr
        assert acted.returncode == 1 and documented(acted.stderr), acted.stderr
    read = await trio.to_thread.run_sync(lambda: cli(
        chromium, "read-page", "--tab", tab_id, "--filter", "all"))
    assert "Traceback" not in read.stderr, read.stderr
    if read.returncode == 0:
        assert '"Top"' in read.stdout, read.stdout
    else:
        assert read.returncode == 1 and read.stdout == "", read.stdout + read.stderr
        documented(read.stderr)
    await assert_usable(browser, tab_id, server)


@pytest.mark.parametrize("query", PAGES)
async def test_mcp_acts_and_reads_a_deep_or_huge_page(
        tmp_path: Path, browser: Browser, chromium: LaunchedChromium, server: FixtureServer,
        query: str) -> None:
    tab_id = (await browser.new_tab()).id
    with trio.fail_after(180):
        async with mcp_server(tmp_path, "--cdp", chromium.endpoint, name="deep") as served:
            acted = await served.call("act", {"tabId": tab_id, "steps": steps_for(server, query)})
            if acted.structured is not None and "ok" in acted.structured:
                check_act_result(acted.structured)
                assert acted.is_error == (not acted.structured["ok"]), acted.text
            else:
                assert acted.is_error, acted.text
                documented(acted.text)
            read = await served.call("read_page", {"tabId": tab_id, "filter": "all"})
            if read.is_error:
                documented(read.text)
            else:
                assert '"Top"' in read.text, read.text
            # the server keeps serving
            listed = await served.call("tabs", {"action": "list"})
            assert not listed.is_error and tab_id in listed.text, listed.text
        assert "Traceback" not in served.log(), served.log()[-3000:]
    await assert_usable(browser, tab_id, server)
