"""A pool on a real browser service: browserless (tools/browserless, installed by tools/setup at
the version its lockfile pins; started here on 127.0.0.1 with a token, Chromium routes only,
the system Chromium) gives a fresh browser per connection, runs 2 at once, queues 1 more and
answers 429 past that, and closes a browser after 20 s."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
import trio

import cdpseq
from cdpseq import LaunchedChromium, open_browser, open_pool
from fixtures.server import FixtureServer
from tests.front.test_pool import login
from tests.helpers import js, open_page, ref, run
from tools.browserless.service import Browserless, installed, serve_browserless

pytestmark = pytest.mark.browser  # browserless starts Chromiums itself
TIMEOUT = 120


@pytest.fixture(scope="session")
def browserless() -> Iterator[Browserless]:
    assert installed(), "browserless is not installed: run tools/setup"
    with serve_browserless(concurrent=2, queued=1, timeout_ms=20_000) as service:
        yield service


def service_log(service: Browserless) -> str:
    return service.log.read_text(errors="replace")


def wait(ms: int) -> list[dict[str, Any]]:
    return [{"type": "wait", "ms": ms}]


async def test_more_sequences_than_its_concurrency_all_run_in_order(
        browserless: Browserless, chromium: LaunchedChromium, server: FixtureServer) -> None:
    emails = [f"user{i}@service.example" for i in range(6)]
    with trio.fail_after(TIMEOUT):
        # A plain Chromium and the service in one pool: each takes sequences.
        async with open_pool([chromium.ws_url], tabs_per_browser=1, pool_url=browserless.ws_url,
                             concurrency=2, queue_timeout=60) as pool:
            results = await pool.run([login(server, email) for email in emails])
    assert [r.ok for r in results] == [True] * 6, [(r.ok, r.failed, r.tab) for r in results]
    for email, result in zip(emails, results, strict=True):
        assert result.tab is not None and result.tab.url.endswith("/dashboard")
        assert email in json.dumps(msgspec.to_builtins(result))
    assert sum(pool.sequences_run) == 6 and min(pool.sequences_run) >= 1
    # The service really served them: it launched Chromiums for the connections.
    assert "ChromiumCDP is running on" in service_log(browserless)


async def test_a_full_queue_is_retried_and_never_fails_the_run(
        browserless: Browserless) -> None:
    before = service_log(browserless).count("sending 429")
    with trio.fail_after(TIMEOUT):
        async with open_pool(pool_url=browserless.ws_url, concurrency=4,
                             queue_timeout=60) as pool:
            results = await pool.run([wait(300) for _ in range(6)])
    assert [r.ok for r in results] == [True] * 6
    # 2 running and 1 queued: the 4th connection was answered 429 and tried again.
    assert service_log(browserless).count("sending 429") > before


async def test_a_sequence_the_queue_cannot_take_in_time_fails_alone(
        browserless: Browserless) -> None:
    before = service_log(browserless).count("sending 429")
    with trio.fail_after(TIMEOUT):
        async with open_pool(pool_url=browserless.ws_url, concurrency=4,
                             queue_timeout=4) as pool:
            results = await pool.run([wait(4500) for _ in range(4)])
    assert len(results) == 4 and sum(r.ok for r in results) >= 1
    errors = [r.failed.error for r in results if r.failed is not None]
    # The 4th connection found the queue full (429) and tried again until its 4 s were spent:
    # its last try was turned away again, or queued and not served in time (a loaded machine's
    # first two sequences take longer). Either says so.
    assert errors and all("HTTP 429" in error or "within the queue timeout (4 s)" in error
                          for error in errors), errors
    assert service_log(browserless).count("sending 429") > before
    assert all(r.failed.code == "TARGET_CLOSED" for r in results if r.failed is not None)
    assert all(browserless.token not in error for error in errors)


async def test_a_wrong_token_is_a_typed_auth_error(browserless: Browserless) -> None:
    with trio.fail_after(TIMEOUT), pytest.raises(cdpseq.ServiceRejected) as refused:
        async with open_pool(pool_url=browserless.wrong_token_url, concurrency=2,
                             queue_timeout=60) as pool:
            await pool.run([wait(10) for _ in range(3)])
    assert refused.value.status == 401 and refused.value.auth_refused
    assert "HTTP 401" in str(refused.value) and "authentication" in str(refused.value)
    assert browserless.token not in str(refused.value) and "token=***" in str(refused.value)


def test_the_cli_says_what_the_service_answered_and_exits_3(browserless: Browserless) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CDPSEQ_CDP"}
    before = service_log(browserless).count("responding with 401")
    refused = subprocess.run(
        [sys.executable, "-m", "cdpseq", "pool", "--pool-url", browserless.wrong_token_url,
         "--concurrency", "2", "--requests", "-"], input=json.dumps([wait(10)] * 2),
        capture_output=True, text=True, timeout=TIMEOUT, env=env)
    assert refused.returncode == 3, refused.stderr
    assert refused.stdout == "" and "Traceback" not in refused.stderr
    assert "HTTP 401" in refused.stderr and "authentication" in refused.stderr
    assert browserless.token not in refused.stderr + refused.stdout
    assert "token=***" in refused.stderr
    # The service really refused that URL: the 401 the CLI reports is its answer.
    assert service_log(browserless).count("responding with 401") > before


async def test_a_browser_the_service_closes_fails_its_sequence_only(
        browserless: Browserless, server: FixtureServer) -> None:
    with trio.fail_after(TIMEOUT):
        async with open_pool(pool_url=browserless.ws_url, concurrency=2,
                             queue_timeout=60) as pool:
            results = await pool.run([
                {"steps": [{"type": "navigate", "url": server.url("login.html")},
                           {"type": "wait_for", "text": "never shown",
                            "timeoutMs": 60_000}], "timeoutMs": 90_000},
                login(server, "short@service.example")])
    killed, short = results
    assert short.ok
    # The service ends the browser at 20 s, during the waits, and says so in its log.
    assert killed.failed is not None and (killed.failed.index or 0) >= 1
    assert killed.failed.code in ("CONNECTION_LOST", "TARGET_CLOSED"), killed.failed
    assert "job has timedout" in service_log(browserless)


async def test_refs_settle_and_delta_through_the_service(
        browserless: Browserless, server: FixtureServer) -> None:
    with trio.fail_after(TIMEOUT):
        async with open_browser(browserless.ws_url) as browser:
            tab = await browser.new_tab()
            view = await open_page(tab, server, "login.html")
            await run(tab, {"type": "fill", "target": ref(view, "Email", "textbox"),
                            "value": "ref@service.example"},
                      {"type": "fill", "selector": "#password", "value": "pw"})
            result = await run(tab, {"type": "click", "target": ref(view, "Sign in", "button")})
            assert result.ok and result.stable is True
            assert "Signed in as ref@service.example" in json.dumps(
                msgspec.to_builtins(result.state_change))
            assert "Signed in as ref@service.example" in await js(
                tab, "document.body.innerText")
