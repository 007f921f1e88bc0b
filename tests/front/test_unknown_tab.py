"""A tab id that names no tab is invalid input (INVALID_REQUEST naming ``tabId``, CLI exit 2,
nothing runs); a tab that existed and closed is TARGET_CLOSED. Through the Python API, the
Driver both doors share, and the CLI (the MCP tools are in test_mcp's bad-input test)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import msgspec
import pytest
import trio

from cdpseq import (
    Browser,
    InvalidRequest,
    LaunchedChromium,
    Tab,
    TargetClosed,
    act,
    parse_request,
    read_page,
)
from cdpseq.engine.result import ActResult
from cdpseq.front.driver import Driver
from tests.paths import ROOT

TIMEOUT = 60
UNKNOWN = ["NOPE", "", "0" * 32, "x" * 100_000, "\ud800", "ref_1"]


@pytest.mark.parametrize("tab_id", UNKNOWN, ids=["word", "empty", "hex", "huge", "surrogate",
                                                   "ref"])
@pytest.mark.daemon_free
async def test_browser_tab_with_an_unknown_id_is_invalid(browser: Browser, tab_id: str) -> None:
    with trio.fail_after(TIMEOUT), pytest.raises(InvalidRequest) as info:
        await browser.tab(tab_id)
    assert info.value.field == "tabId"
    assert info.value.reason.startswith("no page tab has the id ")
    assert len(str(info.value)) < 200  # a huge id is shown cut short


@pytest.mark.daemon_free
async def test_browser_tab_that_closed_is_target_closed(browser: Browser) -> None:
    with trio.fail_after(TIMEOUT):
        opened = await browser.new_tab()
        await browser.close_tab(opened.id)
        with pytest.raises(TargetClosed) as info:
            await browser.tab(opened.id)
    assert not isinstance(info.value, InvalidRequest)
    assert info.value.target_id == opened.id


@pytest.mark.daemon_free
async def test_browser_tab_of_another_kind_of_target_is_invalid(browser: Browser) -> None:
    # The browser target itself is a target, but no page tab.
    with trio.fail_after(TIMEOUT):
        targets = await browser.connection.execute("Target.getTargets")
        others = [t["targetId"] for t in targets["targetInfos"] if t["type"] != "page"]
        for other in others[:1]:
            with pytest.raises(InvalidRequest):
                await browser.tab(other)


@pytest.mark.daemon_free
async def test_act_on_a_tab_with_another_tab_id_is_invalid(tab: Tab) -> None:
    with trio.fail_after(TIMEOUT):
        result = await act(tab, {"tabId": "NOPE", "steps": [{"type": "wait", "ms": 1}]})
        same = await act(tab, {"tabId": tab.id, "steps": [{"type": "wait", "ms": 1}]})
    assert result.failed is not None and result.failed.code == "INVALID_REQUEST"
    assert result.failed.error.startswith("tabId: names tab 'NOPE', but act was given tab")
    assert [s.status for s in result.steps] == ["not_started"] and result.total == 1
    assert same.ok


@pytest.mark.parametrize(("arguments", "field"), [
    ({"filter": "everything"}, "filter"), ({"filter": 3}, "filter"),
    ({"compression": "gzip"}, "compression"), ({"compression": None}, "compression"),
])
@pytest.mark.daemon_free
async def test_read_page_with_a_bad_filter_or_compression_is_invalid(
        tab: Tab, arguments: dict[str, object], field: str) -> None:
    with trio.fail_after(TIMEOUT), pytest.raises(InvalidRequest) as info:
        await read_page(tab, **arguments)  # type: ignore[arg-type]
    assert info.value.field == field and "expected one of" in info.value.reason


@pytest.mark.daemon_free
async def test_driver_answers_invalid_request_for_an_unknown_tab_and_closed_for_a_closed_one(
        browser: Browser) -> None:
    driver = Driver(browser)
    request = parse_request({"tabId": "NOPE", "steps": [{"type": "wait", "ms": 1}] * 3})
    with trio.fail_after(TIMEOUT):
        result = await driver.act(request)
        assert result.failed is not None and result.failed.code == "INVALID_REQUEST"
        assert result.failed.error.startswith("tabId: no page tab has the id 'NOPE'")
        assert [s.status for s in result.steps] == ["not_started"] * 3  # nothing ran
        assert (result.total, result.completed) == (3, 0)
        with pytest.raises(InvalidRequest):
            await driver.read_page("NOPE")
        with pytest.raises(InvalidRequest):
            await driver.select("NOPE")
        with pytest.raises(InvalidRequest):
            await driver.close("NOPE")

        opened = await driver.new_tab()
        await driver.close(opened.id)
        closed = await driver.act(msgspec.structs.replace(request, tab_id=opened.id))
        assert closed.failed is not None and closed.failed.code == "TARGET_CLOSED"
        assert [s.status for s in closed.steps] == ["not_started"] * 3
        with pytest.raises(TargetClosed):
            await driver.close(opened.id)


# -- the CLI ------------------------------------------------------------------------------------


def _cli(chromium: LaunchedChromium, *args: str | bytes, stdin: bytes = b""
         ) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "cdpseq", *args, "--cdp", chromium.endpoint],
                          input=stdin, capture_output=True, timeout=TIMEOUT, cwd=str(ROOT),
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})


@pytest.mark.parametrize("tab", [b"NOPE", b"\xff\xfe", b""], ids=["word", "not-utf8", "empty"])
def test_cli_act_with_an_unknown_tab_exits_2_naming_it(chromium: LaunchedChromium,
                                                       tab: bytes) -> None:
    done = _cli(chromium, "act", "--tab", tab, "--steps", "-",
                stdin=json.dumps([{"type": "wait", "ms": 1}]).encode())
    assert done.returncode == 2, done.stderr
    result = msgspec.json.decode(done.stdout, type=ActResult)
    assert result.failed is not None and result.failed.code == "INVALID_REQUEST"
    assert result.failed.error.startswith("tabId: no page tab has the id ")
    assert [s.status for s in result.steps] == ["not_started"]
    assert b"Traceback" not in done.stderr


def test_cli_read_page_with_an_unknown_tab_exits_2_naming_it(chromium: LaunchedChromium) -> None:
    done = _cli(chromium, "read-page", "--tab", "NOPE")
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode() == ("cdpseq: tabId: no page tab has the id 'NOPE' (list the "
                                    "tabs for their ids)\n")


def test_cli_read_page_of_a_tab_that_exists_still_works(chromium: LaunchedChromium) -> None:
    listed = json.loads(_cli(chromium, "tabs").stdout)
    done = _cli(chromium, "read-page", "--tab", listed[0]["id"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"Page: ")
