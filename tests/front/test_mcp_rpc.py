"""The MCP protocol core (cdpseq.front.mcp_rpc) line by line, without a process: what each
line a client may send is taken for, and the bytes of every answer."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cdpseq.front.mcp_rpc import (
    PROTOCOL_VERSIONS,
    Cancelled,
    McpProtocol,
    Refused,
    Reply,
    ToolCall,
    Unreadable,
)

TOOLS = [{"name": "act", "description": "d", "inputSchema": {"type": "object"}}]


def protocol() -> McpProtocol:
    return McpProtocol(name="cdpseq", version="9.9", instructions="use act",
                       tools=lambda: TOOLS)


def answer(incoming: object) -> dict[str, Any]:
    assert isinstance(incoming, Reply), incoming
    assert incoming.line.endswith(b"\n") and incoming.line.count(b"\n") == 1
    message: dict[str, Any] = json.loads(incoming.line)
    assert message["jsonrpc"] == "2.0"
    return message


def line(message: dict[str, Any]) -> str:
    return json.dumps({"jsonrpc": "2.0", **message})


@pytest.mark.parametrize("asked", PROTOCOL_VERSIONS)
def test_initialize_agrees_the_revision_the_client_asks_for(asked: str) -> None:
    session = protocol()
    reply = answer(session.receive(line({"id": 1, "method": "initialize", "params": {
        "protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "c"}}})))
    assert reply["id"] == 1
    assert reply["result"] == {"protocolVersion": asked,
                               "capabilities": {"tools": {"listChanged": False}},
                               "serverInfo": {"name": "cdpseq", "version": "9.9"},
                               "instructions": "use act"}
    assert session.protocol_version == asked


def test_initialize_offers_the_newest_revision_for_one_it_does_not_speak() -> None:
    session = protocol()
    reply = answer(session.receive(line({"id": "a", "method": "initialize",
                                         "params": {"protocolVersion": "1999-01-01"}})))
    assert reply["result"]["protocolVersion"] == PROTOCOL_VERSIONS[0] == "2025-11-25"


def test_tools_list_ping_and_unknown_methods() -> None:
    session = protocol()
    assert answer(session.receive(line({"id": 2, "method": "tools/list"}))) == {
        "jsonrpc": "2.0", "id": 2, "result": {"tools": TOOLS}}
    assert answer(session.receive(line({"id": 3, "method": "ping"})))["result"] == {}
    unknown = answer(session.receive(line({"id": 4, "method": "prompts/list"})))
    assert unknown["error"]["code"] == -32601 and "prompts/list" in unknown["error"]["message"]


def test_tools_call_is_a_call_to_run_and_its_result_an_answer() -> None:
    session = protocol()
    call = session.receive(line({"id": 5, "method": "tools/call",
                                 "params": {"name": "act", "arguments": {"steps": []}}}))
    assert call == ToolCall(5, "act", {"steps": []})
    assert session.receive(line({"id": 6, "method": "tools/call",
                                 "params": {"name": "tabs"}})) == ToolCall(6, "tabs", {})
    result = json.loads(session.tool_result(5, "✓ ok", is_error=False, structured={"ok": True},
                                            images=[("image/png", "AAAA")]))
    assert result == {"jsonrpc": "2.0", "id": 5, "result": {
        "content": [{"type": "text", "text": "✓ ok"},
                    {"type": "image", "data": "AAAA", "mimeType": "image/png"}],
        "isError": False, "structuredContent": {"ok": True}}}


@pytest.mark.parametrize(("params", "wanted"), [
    (["act"], "params must be an object"),
    ({"arguments": {}}, "needs a tool name"),
    ({"name": "act", "arguments": [1]}, "arguments must be an object"),
])
def test_malformed_tool_calls_are_invalid_params(params: Any, wanted: str) -> None:
    reply = answer(protocol().receive(line({"id": 7, "method": "tools/call",
                                            "params": params})))
    assert reply["error"]["code"] == -32602 and wanted in reply["error"]["message"]


def test_cancellation_and_notifications() -> None:
    session = protocol()
    cancel = {"method": "notifications/cancelled", "params": {"requestId": "x7"}}
    assert session.receive(line(cancel)) == Cancelled("x7")
    assert session.receive(line({"method": "notifications/initialized"})) is None
    assert session.receive(line({"method": "notifications/cancelled", "params": {}})) is None
    # A client's answer to a request the server never sends is not a request.
    assert session.receive(line({"id": 9, "result": {}})) is None


@pytest.mark.parametrize("text", ["not json", "[1, 2]", '{"id": true, "method": "ping"}',
                                  '{"id": 1.5, "method": "ping"}', '{"id": null}'])
def test_lines_with_nothing_to_answer_are_only_logged(text: str) -> None:
    assert isinstance(protocol().receive(text), Unreadable)


def test_a_request_without_a_method_is_invalid() -> None:
    reply = answer(protocol().receive(line({"id": 8, "params": {}})))
    assert reply["error"]["code"] == -32600


def test_lone_surrogates_are_read_as_replacement_characters_and_answers_stay_utf8() -> None:
    session = protocol()
    raw = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"act",' \
          '"arguments":{"\\udca5k":"a\\ud800b","pair":"\\ud83d\\ude00"}}}'
    call = session.receive(raw)
    assert call == ToolCall(1, "act", {"\ufffdk": "a\ufffdb", "pair": "😀"})
    # An answer holding one anyway (and a NaN) is still written, as UTF-8 JSON.
    written = session.tool_result(1, "bad \udca5 text", is_error=True,
                                  structured={"x": float("nan")})
    message = json.loads(written.decode("utf-8"))
    # the text names it by its escape (``cdpseq.escaping``), as it does every control
    assert message["result"]["content"][0]["text"] == "bad \\udca5 text"
    assert message["result"]["structuredContent"] == {"x": None}


def test_a_request_nested_too_deeply_is_answered_naming_where() -> None:
    session = protocol()
    deep = "[" * 5000 + "]" * 5000
    call = ('{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"act",'
            '"arguments":{"tabId":"T","steps":[{"type":"click","target":' + deep + '}]}}}')
    refused = session.receive(call)
    assert isinstance(refused, Refused)
    assert (refused.id, refused.name) == (11, "act")
    assert refused.field == "steps[0].target[0][0][0]…"
    assert "nested too deeply" in refused.reason
    other = session.receive('{"id":"p","method":"ping","params":{"a":' + deep + '}}')
    reply = answer(other)
    assert reply["id"] == "p" and reply["error"]["code"] == -32700
    assert reply["error"]["message"].startswith("params.a[0][0][0][0]…: nested too deeply")
    assert isinstance(session.receive("[" * 5000), Unreadable)
