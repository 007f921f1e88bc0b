"""The MCP tools' definitions: what a model is shown, act's compact input schema, and every
tool's slim outputSchema.

The definitions are checked without a browser (their size, act's schema complete against the
step Structs and accepting what the engine accepts, every note about a real field); the output
schemas on the real tool outputs of ``cdpseq mcp`` attached to the session's Chromium, with a
JSON Schema validator.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import msgspec
import trio

from cdpseq import LaunchedChromium
from cdpseq.engine.multi import MultiActRequest, parse_multi_request
from cdpseq.engine.request import STEP_CLASSES, ActRequest
from cdpseq.engine.validate import parse_request
from cdpseq.front.mcp_schema import NOTES, act_tool_input_schema, fields_by_type
from cdpseq.front.mcp_tools import ReadPageArgs, TabsArgs, tool_definitions
from fixtures.server import FixtureServer
from tests.front.test_mcp import TIMEOUT, mcp_server

MODEL_BUDGET = 9 * 1024
"""Bytes of what a model is shown of the three tools: names, titles, descriptions, input
schemas, as compact JSON (as the server sends them). 8 KB until the session features (pdf,
saved state, isolated tabs, logs) came; the lightest peer shows 17 KB (docs/BENCHMARKS.md)."""
LIST_BUDGET = 12 * 1024
"""Bytes of the whole tool list, output schemas and annotations included."""


def wire_size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def model_visible(tools: list[dict[str, Any]]) -> int:
    return sum(wire_size({key: tool[key] for key in ("name", "title", "description",
                                                     "inputSchema")}) for tool in tools)

# One valid request per step type and option, as a model would write them.
VALID_REQUESTS: list[dict[str, Any]] = [
    {"steps": [{"type": "click", "target": "ref_3", "button": "right", "clickCount": 2,
                "modifiers": ["Shift"], "label": "open", "timeoutMs": 2000},
               {"type": "hover", "selector": "role=button[name=\"Go\"]"},
               {"type": "check", "target": 12}, {"type": "uncheck", "target": "node_7"},
               {"type": "fill", "target": "ref_1", "value": "a@b.c"},
               {"type": "fill", "selector": "#pw", "credentialRef": "password"},
               {"type": "type", "text": "hello", "delayMs": 10},
               {"type": "press", "key": "Control+A", "onError": "retry", "retries": 2},
               {"type": "select", "selector": "#size", "label": "Large"}],
     "tabId": "ABC", "failFast": False, "returnMode": "all", "maxSteps": 20},
    {"steps": [{"type": "select", "target": "ref_2", "values": ["a", "b"]},
               {"type": "scroll", "direction": "down", "pixels": 300},
               {"type": "navigate", "url": "https://example.org/"},
               {"type": "back"}, {"type": "forward"}, {"type": "reload"},
               {"type": "wait_for", "selector": "#done", "state": "attached"},
               {"type": "wait_for", "stable": True}, {"type": "wait", "ms": 100},
               {"type": "read_page", "filter": "all", "compression": "delta"}],
     "settle": True, "stabilityMs": 300, "settleTimeoutMs": 2000, "dialog": "accept",
     "promptText": "yes", "perStepTimeoutMs": 3000, "timeoutMs": 20000, "maxSteps": 10},
]
VALID_MULTI = {"timeoutMs": 10000, "sequences": [
    {"tabId": "A", "steps": [{"type": "click", "target": "ref_1"}], "returnMode": "delta"},
    {"tabId": "B", "steps": [{"type": "wait_for", "text": "Done"}]}]}


def _act_tool() -> dict[str, Any]:
    return next(tool for tool in tool_definitions() if tool["name"] == "act")


def test_what_a_model_is_shown_fits_the_budget() -> None:
    tools = tool_definitions()
    assert model_visible(tools) <= MODEL_BUDGET, model_visible(tools)
    assert wire_size(tools) <= LIST_BUDGET, wire_size(tools)
    assert all("outputSchema" not in tool for tool in tools)  # by default: no structured content
    structured = tool_definitions(structured=True)
    assert model_visible(structured) == model_visible(tools)
    assert wire_size(structured) <= LIST_BUDGET, wire_size(structured)
    for tool in tools:  # one example each, in the form the tool takes
        example = tool["description"].split("Example: ", 1)[1].split("\n", 1)[0]
        assert isinstance(json.loads(example), dict), tool["name"]


def test_the_act_input_schema_names_every_step_field() -> None:
    schema = _act_tool()["inputSchema"]
    assert schema == act_tool_input_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    step = schema["$defs"]["step"]["properties"]
    assert step["type"]["enum"] == list(STEP_CLASSES)
    description = _act_tool()["description"]
    assert fields_by_type() in description
    for tag, cls in STEP_CLASSES.items():
        for field in msgspec.structs.fields(cls):
            assert field.encode_name in step, (tag, field.encode_name)
            assert field.encode_name in description, (tag, field.encode_name)
        # Which fields go with which type is said once, in the description.
        assert description.count(f" {tag}(") + description.count(f"; {tag};") + \
            description.count(f"; {tag}.") == 1, tag
    for field in msgspec.structs.fields(ActRequest):
        assert field.encode_name in schema["properties"], field.encode_name
    assert "sequences" in schema["properties"]
    # The select step's label (an option's text) is told apart from every other step's label.
    assert "select: " in step["label"]["description"]
    assert "select(value, label, values, labels)" in description  # target, selector: common
    # A field is named once where that is shorter: target and selector, with the few types
    # that lack them.
    assert "target (not navigate," in description and "selector (not navigate," in description
    # null is never needed: leaving a field out says the same.
    assert "null" not in json.dumps(schema)


def test_every_note_is_about_a_field_a_tool_takes() -> None:
    wire_names = {field.encode_name for cls in (*STEP_CLASSES.values(), ActRequest,
                                                 MultiActRequest, ReadPageArgs, TabsArgs)
                  for field in msgspec.structs.fields(cls)}
    assert set(NOTES) <= wire_names, set(NOTES) - wire_names
    for tool in tool_definitions():
        for name, field in tool["inputSchema"]["properties"].items():
            assert field.get("description") or name not in NOTES, (tool["name"], name)


def test_the_compact_schema_accepts_what_the_engine_accepts() -> None:
    validator = jsonschema.Draft202012Validator(act_tool_input_schema())
    for request in VALID_REQUESTS:
        parse_request(request)  # valid for the engine...
        assert validator.is_valid(request), list(validator.iter_errors(request))  # ...and here
    parse_multi_request(VALID_MULTI)
    assert validator.is_valid(VALID_MULTI)
    # What the compact schema can tell is wrong, it refuses.
    assert not validator.is_valid({"steps": [{"type": "teleport"}]})
    assert not validator.is_valid({"steps": [{"target": "ref_1"}]})  # no type
    assert not validator.is_valid({"steps": [{"type": "click", "button": "left-ish"}]})
    assert not validator.is_valid({"sequences": [{"steps": []}]})  # no tabId


def test_output_schemas_are_valid_json_schemas() -> None:
    for tool in tool_definitions(structured=True):
        schema = tool["outputSchema"]
        assert schema["type"] == "object", tool["name"]
        jsonschema.Draft202012Validator.check_schema(schema)
    assert MultiActRequest.__struct_config__.forbid_unknown_fields


def _check(schema: dict[str, Any], structured: Any) -> None:
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(structured))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors]


async def test_real_tool_outputs_match_their_output_schemas(
        tmp_path: Path, chromium: LaunchedChromium, server: FixtureServer) -> None:
    with trio.fail_after(TIMEOUT * 2):
        async with mcp_server(tmp_path, "--cdp", chromium.endpoint, name="schemas") as served:
            listed = await served.session.list_tools()
            tools = {tool["name"]: tool for tool in
                     (t.model_dump(mode="json", by_alias=True, exclude_none=True)
                      for t in listed.tools)}
            # What tools/list returns is the compact schema and the output schemas.
            for defined in tool_definitions(structured=True):
                assert tools[defined["name"]]["inputSchema"] == defined["inputSchema"]
                assert tools[defined["name"]]["outputSchema"] == defined["outputSchema"]
            schemas = {name: tool["outputSchema"] for name, tool in tools.items()}
            replies = []
            first = await served.call("tabs", {"action": "new",
                                               "url": server.url("/status.html")})
            second = await served.call("tabs", {"action": "new",
                                                "url": server.url("/login.html")})
            replies += [("tabs", first), ("tabs", second), ("tabs", await served.call("tabs"))]
            tab_a, tab_b = first.structured["current"], second.structured["current"]
            read = await served.call("read_page", {"tabId": tab_a, "filter": "all"})
            assert read.structured["elements"] and "text" not in read.structured
            replies.append(("read_page", read))
            # The client validated the non-error results itself; the failing ones too here.
            ok = await served.call("act", {"tabId": tab_a, "steps": [
                {"type": "click", "selector": "#click-me"},
                {"type": "wait_for", "text": "Clicked"}, {"type": "read_page"}]})
            assert not ok.is_error, ok.text
            assert ok.structured["stateChange"]
            failing = await served.call("act", {"tabId": tab_b, "steps": [
                {"type": "click", "selector": "#nothing-here", "timeoutMs": 300}]})
            assert failing.is_error and failing.structured["failed"]["code"] == "NODE_NOT_FOUND"
            invalid = await served.call("act", {"steps": [{"type": "click",
                                                           "target": "button"}]})
            assert invalid.is_error
            assert invalid.structured["failed"]["code"] == "INVALID_REQUEST"
            assert "steps[0].target" in invalid.structured["failed"]["error"]
            many = await served.call("act", {"sequences": [
                {"tabId": tab_a, "steps": [{"type": "read_page"}]},
                {"tabId": tab_b, "steps": [{"type": "click", "selector": "#nothing-here",
                                            "timeoutMs": 300}]}]})
            assert many.is_error and [r["ok"] for r in many.structured["results"]] == [
                True, False]
            twice = await served.call("act", {"sequences": [
                {"tabId": tab_a, "steps": [{"type": "read_page"}]},
                {"tabId": tab_a, "steps": [{"type": "read_page"}]}]})
            assert twice.is_error and "sequences[1].tabId" in twice.text
            replies += [("act", ok), ("act", failing), ("act", invalid), ("act", many),
                        ("act", twice)]
    for name, reply in replies:
        assert reply.structured is not None, (name, reply.text)
        _check(schemas[name], reply.structured)
