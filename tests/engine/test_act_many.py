"""Act in several tabs in one call (engine/multi.py): validation without a browser, then three
tabs in real Chromium, through the Python API and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import pytest
import trio

from cdpseq import Browser, LaunchedChromium, Tab, act_many
from cdpseq.engine.multi import MultiActResult, is_multi_json, parse_multi_request
from cdpseq.errors import InvalidRequest
from fixtures.server import FixtureServer
from tests.helpers import text_of
from tests.paths import ROOT

CLICK = {"type": "click", "selector": "#ping"}


def dump(result: MultiActResult) -> str:
    return json.dumps(msgspec.to_builtins(result), indent=1)


# -- validation -------------------------------------------------------------------------------


def test_sequences_are_act_requests_each_with_its_own_tab() -> None:
    parsed = parse_multi_request({"timeoutMs": 4000, "sequences": [
        {"tabId": "A", "steps": [CLICK], "timeoutMs": 60000},
        {"tabId": "B", "steps": [CLICK], "timeoutMs": 1000, "returnMode": "delta"}]})
    # The call's timeout bounds every sequence; a shorter own timeout stays.
    assert [s.timeout_ms for s in parsed.sequences] == [4000, 1000]
    assert [s.tab_id for s in parsed.sequences] == ["A", "B"]
    assert parsed.sequences[1].return_mode == "delta"


@pytest.mark.parametrize(("request_", "field"), [
    ({"sequences": [{"tabId": "A", "steps": [CLICK]}, {"tabId": "A", "steps": [CLICK]}]},
     "sequences[1].tabId"),
    ({"sequences": [{"tabId": "A", "steps": [CLICK]}, {"steps": [CLICK]}]},
     "sequences[1].tabId"),
    ({"sequences": [{"tabId": "A", "steps": [{"type": "navigate", "url": "nowhere"}]}]},
     "sequences[0].steps[0].url"),
    ({"sequences": [{"tabId": "A", "steps": [CLICK], "colour": "red"}]},
     "sequences[0].colour"),
    ({"sequences": []}, "sequences"),
    ({"sequences": [{"tabId": "A", "steps": [CLICK]}], "steps": [CLICK]}, "steps"),
    ({"sequences": [{"tabId": "A", "steps": [CLICK]}], "timeoutMs": "5"}, "timeoutMs"),
    ({"sequences": ["A"]}, "sequences[0]"),
])
def test_an_invalid_multi_request_names_the_field(request_: dict[str, object],
                                                  field: str) -> None:
    with pytest.raises(InvalidRequest) as refused:
        parse_multi_request(request_)
    assert refused.value.field == field, str(refused.value)


def test_hostile_json_is_an_invalid_request_not_a_crash() -> None:
    deep = b'{"sequences": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    for raw in (deep, b"\xff\xfe", b'{"sequences": [}'):
        assert not is_multi_json(raw)  # left for parse_request to refuse
        with pytest.raises(InvalidRequest) as refused:
            parse_multi_request(raw)
        assert refused.value.field in ("request", "sequences"), refused.value


# -- three tabs in Chromium -------------------------------------------------------------------


@pytest.fixture
async def three_tabs(browser: Browser) -> AsyncIterator[list[Tab]]:
    opened = [await browser.new_tab() for _ in range(3)]
    try:
        yield opened
    finally:
        for tab in opened:
            if tab.closed is None and not browser.connection.closed:
                await browser.close_tab(tab.id)


def ping_page(server: FixtureServer, room: str, me: str) -> str:
    return server.url(f"/tabs-ping.html?room={room}&me={me}")


async def test_three_tabs_run_concurrently_and_a_failure_stays_in_its_sequence(
        browser: Browser, three_tabs: list[Tab], server: FixtureServer) -> None:
    a, b, c = three_tabs
    room = uuid.uuid4().hex
    # a and b each ping, then wait to hear the other: run one after the other, the first would
    # wait for a ping that never comes. c fails at its first step; its second never runs.
    request = {"timeoutMs": 40000, "sequences": [
        {"tabId": a.id, "steps": [{"type": "navigate", "url": ping_page(server, room, "a")},
                                  CLICK, {"type": "wait_for", "text": "Heard b",
                                          "timeoutMs": 20000}]},
        {"tabId": b.id, "steps": [{"type": "navigate", "url": ping_page(server, room, "b")},
                                  CLICK, {"type": "wait_for", "text": "Heard a",
                                          "timeoutMs": 20000}]},
        {"tabId": c.id, "steps": [{"type": "navigate", "url": ping_page(server, room, "c")},
                                  {"type": "click", "selector": "#no-such-button",
                                   "timeoutMs": 500},
                                  CLICK]},
    ]}
    with trio.fail_after(60):
        result = await act_many(browser, request)
    assert not result.ok and result.failed is None, dump(result)
    first, second, third = result.results
    assert [r.tab.id if r.tab else None for r in result.results] == [a.id, b.id, c.id]
    assert first.ok and second.ok, dump(result)
    assert third.failed is not None and third.failed.code == "NODE_NOT_FOUND", dump(result)
    assert [s.status for s in third.steps] == ["ok", "error", "not_started"]
    # The browser did it: each tab heard the other, and c never pinged.
    assert await text_of(a, "#status") == "Heard b"
    assert await text_of(b, "#status") == "Heard a"
    assert await text_of(c, "#ping") == "Ping"


async def test_the_call_timeout_bounds_every_sequence(
        browser: Browser, three_tabs: list[Tab], server: FixtureServer) -> None:
    sequences = [{"tabId": tab.id, "steps": [{"type": "wait_for", "text": "never on this page",
                                              "timeoutMs": 60000}], "timeoutMs": 60000}
                 for tab in three_tabs]
    # Their own 60 s would outlast the bound here; the call's 1.5 s ends all three (a wait
    # that gives up just before the deadline says WAIT_TIMEOUT, one cut at it SEQUENCE_TIMEOUT).
    with trio.fail_after(30):
        result = await act_many(browser, {"timeoutMs": 1500, "sequences": sequences})
    assert len(result.results) == 3 and not result.ok
    for one in result.results:
        assert one.failed is not None, dump(result)
        assert one.failed.code in ("SEQUENCE_TIMEOUT", "WAIT_TIMEOUT"), dump(result)
        assert [s.status for s in one.steps] == ["error"]


async def test_a_tab_that_is_not_there_fails_only_its_sequence(
        browser: Browser, three_tabs: list[Tab]) -> None:
    real = three_tabs[0]
    with trio.fail_after(30):
        result = await act_many(browser, [
            {"tabId": real.id, "steps": [{"type": "wait", "ms": 1}]},
            {"tabId": "NO-SUCH-TAB", "steps": [{"type": "wait", "ms": 1}]}])
    assert result.results[0].ok, dump(result)
    refused = result.results[1].failed
    assert refused is not None and refused.code == "INVALID_REQUEST", dump(result)
    assert "tabId" in refused.error
    # The same tab twice: nothing runs, the field is named.
    with trio.fail_after(30):
        twice = await act_many(browser, [{"tabId": real.id, "steps": [{"type": "wait", "ms": 1}]},
                                         {"tabId": real.id, "steps": [{"type": "wait", "ms": 1}]}])
    assert twice.failed is not None and twice.failed.code == "INVALID_REQUEST"
    assert "sequences[1].tabId" in twice.failed.error and twice.results == []


async def test_the_cli_acts_in_several_tabs(tmp_path: Path, chromium: LaunchedChromium,
                                            three_tabs: list[Tab], server: FixtureServer) -> None:
    room = uuid.uuid4().hex
    request = {"sequences": [
        {"tabId": tab.id, "steps": [{"type": "navigate", "url": ping_page(server, room, name)},
                                    CLICK if name != "c" else {"type": "press", "key": "Nope"}]}
        for tab, name in zip(three_tabs, "abc", strict=True)]}
    done = await trio.to_thread.run_sync(lambda: subprocess.run(
        [sys.executable, "-m", "cdpseq", "act", "--cdp", chromium.endpoint, "--steps", "-"],
        input=json.dumps(request), capture_output=True, text=True, timeout=60, cwd=ROOT))
    # press "Nope" is no key: the request is invalid as a whole and nothing runs (exit 2).
    assert done.returncode == 2, done.stderr
    refused = json.loads(done.stdout)
    assert "sequences[2].steps[1].key" in refused["failed"]["error"] and refused["results"] == []
    request["sequences"][2]["steps"][1] = {"type": "click", "selector": "#gone",
                                          "timeoutMs": 300}
    done = await trio.to_thread.run_sync(lambda: subprocess.run(
        [sys.executable, "-m", "cdpseq", "act", "--cdp", chromium.endpoint, "--steps", "-",
         "--format", "text"],
        input=json.dumps(request), capture_output=True, text=True, timeout=60, cwd=ROOT))
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("2/3 tabs ok"), done.stdout
    assert f"tab {three_tabs[2].id}" in done.stdout and "NODE_NOT_FOUND" in done.stdout
    assert await text_of(three_tabs[0], "#ping") == "Pinged"
