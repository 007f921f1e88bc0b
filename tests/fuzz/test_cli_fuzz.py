"""Property: ``cdpseq act --steps -`` answers a hostile request on standard input with a result
of the result schema, the exit code that goes with it (0 done, 1 a step failed, 2 invalid), and
no traceback, within a bound; the browser stays usable for the next process.

A process per example is slow (Python starts, imports, connects), so this property runs fewer
examples than the in-process ones; they all act in one tab of the session's browser.
"""

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
from hypothesis import given, settings
from hypothesis import strategies as st

from cdpseq import LaunchedChromium, open_browser
from cdpseq.engine.result import ActResult
from fixtures.server import FixtureServer
from tests.fuzz.checks import check_result, dumps
from tests.fuzz.counts import count, examples
from tests.fuzz.strategies import act_requests
from tests.paths import ROOT

PAGES = ["/status.html", "/login.html", "/form-controls.html"]
BOUND = 60  # seconds per process: startup, connect, a run of at most 1.5 s, exit


@pytest.fixture(scope="module")
def tab_id(chromium: LaunchedChromium) -> Iterator[str]:
    async def open_tab() -> str:
        async with open_browser(chromium.ws_url) as browser:
            return (await browser.new_tab()).id

    async def close_tab(tab: str) -> None:
        async with open_browser(chromium.ws_url) as browser:
            await browser.close_tab(tab)

    opened = trio.run(open_tab)
    yield opened
    trio.run(close_tab, opened)


def aimed(raw: Any, tab: str) -> Any:
    """The request, acting in ``tab`` unless it names a tab of its own (or is no object)."""
    if isinstance(raw, list):
        raw = {"steps": raw}
    if isinstance(raw, dict) and "tabId" not in raw:
        raw = {**raw, "tabId": tab}
    return raw


def run_act(chromium: LaunchedChromium, stdin: bytes, *args: str
            ) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "cdpseq", "act", "--cdp", chromium.endpoint, "--steps", "-",
         *args], input=stdin, capture_output=True, timeout=BOUND, cwd=str(ROOT),
        env={**os.environ, "PYTHONIOENCODING": "utf-8"})


def check_process(done: subprocess.CompletedProcess[bytes], raw: Any) -> str:
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
    outcome = check_result(json.loads(done.stdout), raw)
    expected = {"ok": 0, "INVALID_REQUEST": 2}.get(outcome, 1)
    assert done.returncode == expected, (outcome, done.returncode, done.stderr)
    return outcome


def test_act_on_stdin(chromium: LaunchedChromium, server: FixtureServer, tab_id: str) -> None:
    urls = tuple(server.url(page) for page in PAGES)

    @settings(max_examples=examples(12))
    @given(act_requests(urls), st.sampled_from(["json", "text"]))
    def act_property(raw: Any, form: str) -> None:
        request = aimed(raw, tab_id)
        done = run_act(chromium, dumps(request).encode("utf-8", "surrogatepass"),
                       "--format", form)
        if form == "json":
            outcome = check_process(done, request)
        else:  # the text rendering: its first line says how it went
            assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
            assert done.returncode in (0, 1, 2)
            first = done.stdout.decode().splitlines()[0]
            outcome = {0: "ok", 2: "INVALID_REQUEST"}.get(done.returncode, "failed")
            if done.returncode == 2:
                assert "INVALID_REQUEST" in done.stdout.decode(), first
        count(f"cli: act --format {form}", outcome)

    act_property()


@pytest.mark.parametrize("stdin", [
    b"\xff\xfe\x00", b"[" * 200_000, b'[{"type": "wait", "ms": 1, "label": "\\ud800"}]',
    json.dumps({"steps": [{"type": "wait", "ms": 1}] * 5000}).encode(),
], ids=["not-utf8", "deep", "lone-surrogate", "5000-steps"])
def test_garbage_on_stdin_is_invalid(chromium: LaunchedChromium, stdin: bytes) -> None:
    done = run_act(chromium, stdin)
    assert check_process(done, None) == "INVALID_REQUEST"
    count("cli: garbage on stdin", "INVALID_REQUEST")


def test_the_browser_still_works_after_the_batch(chromium: LaunchedChromium,
                                                 server: FixtureServer, tab_id: str) -> None:
    request = {"tabId": tab_id, "steps": [
        {"type": "navigate", "url": server.url("/status.html")},
        {"type": "click", "selector": "#click-me"}, {"type": "read_page"}]}
    done = run_act(chromium, json.dumps(request).encode())
    assert done.returncode == 0, done.stdout
    result = msgspec.json.decode(done.stdout, type=ActResult)
    assert result.ok and 'button "Click me"' in result.page.text
