"""Property: ``cdpseq mcp`` answers hostile tool calls — act, read_page and tabs arguments as a
hostile client writes them on the wire — with a tool result (an act result of the result schema,
or INVALID_REQUEST naming the field), never an internal error, within a bound; the server keeps
serving (a ping after every call) and a normal act works after the batch.

One server, attached to the session's browser, serves every example (``tests.fuzz.live``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cdpseq import LaunchedChromium
from fixtures.server import FixtureServer
from tests.fuzz.checks import check_field, check_result
from tests.fuzz.counts import count, examples
from tests.fuzz.live import Live, live
from tests.fuzz.mcp_wire import RawMcp, raw_mcp
from tests.fuzz.strategies import JUNK, STRINGS, act_requests, read_page_arguments

PAGES = ["/status.html", "/login.html", "/form-controls.html", "/shadow.html"]
BOUND = 30
_INVALID = re.compile(r"^✗ INVALID_REQUEST: (.+?): ", re.DOTALL)


class Server:
    def __init__(self, mcp: Live[RawMcp], tab_id: str) -> None:
        self.mcp = mcp
        self.tab_id = tab_id

    def call(self, tool: str, arguments: Any) -> dict[str, Any] | None:
        async def exchange(client: RawMcp) -> dict[str, Any] | None:
            return await client.exchange("tools/call", {"name": tool, "arguments": arguments})
        return self.mcp.call(BOUND, exchange)


@pytest.fixture(scope="module")
def server_process(chromium: LaunchedChromium,
                   tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp_path = tmp_path_factory.mktemp("mcp-fuzz")
    with live(lambda: raw_mcp(tmp_path, "--cdp", chromium.endpoint)) as mcp:
        served = Server(mcp, "")
        opened = served.call("tabs", {"action": "new"})
        assert opened is not None, "tabs new got no answer"
        served.tab_id = opened["result"]["structuredContent"]["current"]
        yield served
        served.call("tabs", {"action": "close", "tabId": served.tab_id})
        log = mcp.resource.log()
    assert "Traceback" not in log, log[-5000:]


def _tool_result(answer: dict[str, Any] | None, arguments: Any, prop: str) -> dict[str, Any] | None:
    """The tool result of an answer; None (counted) when the server rightly did not run the
    tool: a line it could not parse, or arguments that are not an object."""
    if answer is None:
        count(prop, "line skipped (not JSON)")
        return None
    if "error" in answer:
        assert not isinstance(arguments, dict), answer  # an object always reaches the tool
        count(prop, "JSON-RPC error (arguments not an object)")
        return None
    result: dict[str, Any] = answer["result"]
    text = "\n".join(block["text"] for block in result["content"] if block["type"] == "text")
    assert "INTERNAL_ERROR" not in text, text
    return result


def _aimed(raw: Any, tab: str) -> Any:
    if isinstance(raw, list):
        raw = {"steps": raw}
    if isinstance(raw, dict) and "tabId" not in raw:
        raw = {**raw, "tabId": tab}
    return raw


def test_act(server_process: Server, server: FixtureServer) -> None:
    urls = tuple(server.url(page) for page in PAGES)

    @settings(max_examples=examples(80))
    @given(act_requests(urls))
    def act_property(raw: Any) -> None:
        arguments = _aimed(raw, server_process.tab_id)
        result = _tool_result(server_process.call("act", arguments), arguments, "mcp: act")
        if result is None:
            return
        structured = result["structuredContent"]
        outcome = check_result(structured, arguments)
        assert result.get("isError", False) == (outcome != "ok")
        count("mcp: act", outcome)

    act_property()


def _check_invalid_tool_result(result: dict[str, Any], arguments: Any, prop: str) -> None:
    text = result["content"][0]["text"]
    if not result.get("isError"):
        count(prop, "ok")
        return
    match = _INVALID.match(text)
    assert match is not None, text
    check_field(match.group(1), arguments if isinstance(arguments, dict) else {})
    count(prop, "INVALID_REQUEST")


def test_read_page(server_process: Server) -> None:
    @settings(max_examples=examples(40))
    @given(read_page_arguments())
    def read_property(arguments: dict[str, Any]) -> None:
        result = _tool_result(server_process.call("read_page", arguments), arguments,
                              "mcp: read_page")
        if result is not None:
            _check_invalid_tool_result(result, arguments, "mcp: read_page")

    read_property()


@st.composite
def tabs_arguments(draw: st.DrawFn) -> Any:
    """tabs arguments that cannot touch a real tab: no "new", and tab ids that name none."""
    arguments: dict[str, Any] = {}
    if draw(st.booleans()):
        arguments["action"] = draw(st.one_of(st.sampled_from(["list", "select", "close",
                                                              "explode", ""]), JUNK))
    if draw(st.booleans()):
        arguments["tabId"] = draw(st.one_of(st.sampled_from(["NOPE", "", "0" * 32]), STRINGS,
                                            JUNK))
    if draw(st.integers(0, 3)) == 0:
        arguments["url"] = draw(st.one_of(st.sampled_from(["about:blank", "javascript:1"]),
                                          JUNK))
    if draw(st.integers(0, 5)) == 0:
        arguments[draw(st.sampled_from(["bogus", "tab_id", "steps"]))] = draw(JUNK)
    return draw(st.one_of(st.just(arguments), JUNK)) if draw(st.integers(0, 9)) == 0 \
        else arguments


def test_tabs(server_process: Server) -> None:
    @settings(max_examples=examples(30))
    @given(tabs_arguments())
    def tabs_property(arguments: Any) -> None:
        result = _tool_result(server_process.call("tabs", arguments), arguments, "mcp: tabs")
        if result is not None:
            _check_invalid_tool_result(result, arguments, "mcp: tabs")

    tabs_property()


def test_unknown_tool_and_garbage_lines(server_process: Server) -> None:
    answer = server_process.call("no_such_tool", {})
    assert answer is not None and answer["result"]["isError"]

    async def garbage(client: RawMcp) -> None:
        for line in [b"not json", b"[" * 100_000, b'{"jsonrpc": "2.0", "id": 7, "method": ',
                     b"\xff\xfe", b'{"jsonrpc": "2.0", "id": 8, "method": "tools/call"}',
                     json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                                 "params": {"name": "act", "arguments": None}}).encode()]:
            await client.send_line(line)
        assert await client.exchange("ping", {}) is not None

    server_process.mcp.call(BOUND, garbage)


def test_the_server_still_works_after_the_batch(server_process: Server,
                                                server: FixtureServer) -> None:
    answer = server_process.call("act", {"tabId": server_process.tab_id, "steps": [
        {"type": "navigate", "url": server.url("/status.html")},
        {"type": "click", "selector": "#click-me"}, {"type": "read_page"}]})
    assert answer is not None
    result = answer["result"]
    assert not result.get("isError"), result
    assert 'button "Click me"' in result["content"][0]["text"]

