"""A pool of browsers (front/pool.py): sequences spread over two real Chromiums, results in
order, tabs closed; validation before anything runs; the ``cdpseq pool`` command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
import trio

import cdpseq
from cdpseq import LaunchedChromium, open_browser, open_pool
from cdpseq.front.pool import parse_sequences, split_endpoints
from fixtures.server import FixtureServer
from tests.conftest import start_chromium, stop_chromium

TIMEOUT = 90


@pytest.fixture(scope="module")
def second_chromium() -> Iterator[LaunchedChromium]:
    root = tempfile.mkdtemp(prefix="cdpseq-test-pool-")
    process, launched = start_chromium(root)
    try:
        yield launched
    finally:
        stop_chromium(process, root)


def login(server: FixtureServer, email: str) -> list[dict[str, Any]]:
    return [{"type": "navigate", "url": server.url("login.html")},
            {"type": "fill", "selector": "#email", "value": email},
            {"type": "fill", "selector": "#password", "value": "pool-password"},
            {"type": "click", "selector": "#sign-in"},
            {"type": "wait_for", "text": f"Signed in as {email}"}]


# -- validation, no browser -----------------------------------------------------------------------


def test_sequences_are_validated_before_anything_runs() -> None:
    good = [{"type": "click", "selector": "#a"}]
    assert len(parse_sequences([good, {"steps": good, "settle": False}])) == 2
    with pytest.raises(cdpseq.InvalidRequest) as bad_step:
        parse_sequences([good, [{"type": "click"}]])
    assert bad_step.value.field.startswith("sequences[1].steps[0]")
    with pytest.raises(cdpseq.InvalidRequest) as tab_named:
        parse_sequences([{"steps": good, "tabId": "ABC"}])
    assert tab_named.value.field == "sequences[0].tabId"
    for empty in ([], "not a list", {"steps": good}):
        with pytest.raises(cdpseq.InvalidRequest) as not_a_list:
            parse_sequences(empty)  # type: ignore[arg-type]
        assert not_a_list.value.field == "sequences"


def test_endpoints_may_be_repeated_or_comma_separated() -> None:
    assert split_endpoints("a:1, b:2,,") == ["a:1", "b:2"]
    assert split_endpoints(["a:1,b:2", 9222, "ws://c/x"]) == ["a:1", "b:2", 9222, "ws://c/x"]


async def test_bad_pool_arguments_are_invalid_requests(chromium: LaunchedChromium) -> None:
    with pytest.raises(cdpseq.InvalidRequest) as none:
        async with open_pool(" , "):
            pass
    assert none.value.field == "endpoints"
    with pytest.raises(cdpseq.InvalidRequest) as zero:
        async with open_pool([chromium.ws_url], tabs_per_browser=0):
            pass
    assert zero.value.field == "tabsPerBrowser"


# -- two real browsers -----------------------------------------------------------------------------


async def test_pool_spreads_sequences_over_two_browsers_in_order(
        chromium: LaunchedChromium, second_chromium: LaunchedChromium,
        server: FixtureServer) -> None:
    emails = [f"user{i}@pool.example" for i in range(6)]
    async with open_browser(chromium.ws_url) as first, \
            open_browser(second_chromium.ws_url) as second:
        before = [len(await first.tabs()), len(await second.tabs())]
        with trio.fail_after(TIMEOUT):
            async with open_pool([chromium.ws_url, second_chromium.endpoint],
                                 tabs_per_browser=2) as pool:
                results = await pool.run([login(server, email) for email in emails]
                                         + [[{"type": "click", "selector": "#missing",
                                              "timeoutMs": 300}]])
        assert [r.ok for r in results] == [True] * 6 + [False]
        for email, result in zip(emails, results, strict=False):
            # The result's page is the one this sequence signed in, in the request's order.
            assert result.tab is not None and result.tab.url.endswith("/dashboard")
            assert result.completed == 5 and result.steps[-1].status == "ok"
            assert email in json.dumps(msgspec.to_builtins(result))
        assert results[-1].failed is not None and results[-1].failed.index == 0
        assert sum(pool.sequences_run) == 7 and min(pool.sequences_run) >= 1
        # Every sequence's tab was closed afterwards.
        assert [len(await first.tabs()), len(await second.tabs())] == before


async def test_cli_pool_runs_sequences_on_two_browsers(
        chromium: LaunchedChromium, second_chromium: LaunchedChromium,
        server: FixtureServer) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CDPSEQ_CDP"}
    sequences = [login(server, "cli-a@pool.example"),
                 {"steps": login(server, "cli-b@pool.example"), "returnMode": "delta"}]

    def run(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "cdpseq", "pool", *args], input=stdin,
                              capture_output=True, text=True, timeout=TIMEOUT, env=env)

    done = await trio.to_thread.run_sync(lambda: run(
        "--cdp", chromium.ws_url, "--cdp", f"127.0.0.1:{second_chromium.port}",
        "--requests", "-", stdin=json.dumps(sequences)))
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert [r["ok"] for r in results] == [True, True]
    assert "cli-a@pool.example" in json.dumps(results[0])
    assert "cli-b@pool.example" in json.dumps(results[1])

    invalid = await trio.to_thread.run_sync(lambda: run(
        "--cdp", f"{chromium.ws_url},{second_chromium.ws_url}", "--requests", "-",
        stdin=json.dumps([{"steps": login(server, "x@y.z"), "tabId": "T"}])))
    assert invalid.returncode == 2 and "sequences[0].tabId" in invalid.stderr

    unreachable = await trio.to_thread.run_sync(lambda: run(
        "--cdp", chromium.ws_url, "--cdp", "127.0.0.1:9", "--requests", "-",
        stdin=json.dumps([login(server, "x@y.z")])))
    assert unreachable.returncode == 3, unreachable.stderr
