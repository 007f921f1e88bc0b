"""The act request schema: parsing, strict validation with exact field paths, JSON Schema."""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec
import pytest

from cdpseq.engine.request import (
    STEP_CLASSES,
    STEP_TYPES,
    ActRequest,
    Back,
    Check,
    Clear,
    Click,
    Drag,
    Evaluate,
    Extract,
    Fill,
    Forward,
    Hover,
    Logs,
    Navigate,
    Pdf,
    Press,
    ReadPage,
    Reload,
    Screenshot,
    Scroll,
    Select,
    Swipe,
    Tap,
    TargetRef,
    TypeText,
    Uncheck,
    Upload,
    Wait,
    WaitFor,
    is_action,
    request_schema,
    step_label,
    step_type,
)
from cdpseq.engine.result import (
    ActResult,
    StepFailure,
    StepResult,
    TabState,
    invalid_result,
    result_schema,
)
from cdpseq.engine.shown import parse_target
from cdpseq.engine.validate import parse_request
from cdpseq.errors import CdpseqError, InvalidRequest

# One valid example of every step type, with the Struct it must decode into.
EXAMPLES: list[tuple[dict[str, Any], Any]] = [
    ({"type": "click", "target": "ref_3"}, Click(target="ref_3")),
    ({"type": "click", "selector": "#go", "button": "right", "clickCount": 2,
      "modifiers": ["Shift", "Control"]},
     Click(selector="#go", button="right", click_count=2, modifiers=["Shift", "Control"])),
    ({"type": "hover", "target": 42}, Hover(target=42)),
    ({"type": "check", "target": "node_7"}, Check(target="node_7")),
    ({"type": "uncheck", "selector": "input[name=x]"}, Uncheck(selector="input[name=x]")),
    ({"type": "fill", "target": "ref_1", "value": ""}, Fill(target="ref_1", value="")),
    ({"type": "fill", "selector": "#pw", "credentialRef": "site_password"},
     Fill(selector="#pw", credential_ref="site_password")),
    ({"type": "type", "text": "hello", "delayMs": 20}, TypeText(text="hello", delay_ms=20)),
    ({"type": "type", "text": "x", "target": "ref_2"}, TypeText(text="x", target="ref_2")),
    ({"type": "press", "key": "Enter"}, Press(key="Enter")),
    ({"type": "press", "key": "Control+A", "selector": "#q"},
     Press(key="Control+A", selector="#q")),
    ({"type": "select", "target": "ref_4", "value": "ca"}, Select(target="ref_4", value="ca")),
    ({"type": "select", "target": "ref_4", "label": "Canada"},
     Select(target="ref_4", option_label="Canada")),
    ({"type": "scroll"}, Scroll()),
    ({"type": "scroll", "direction": "up", "pixels": 100}, Scroll(direction="up", pixels=100)),
    ({"type": "scroll", "target": "ref_9"}, Scroll(target="ref_9")),
    ({"type": "navigate", "url": "https://example.com/a?b=1"},
     Navigate(url="https://example.com/a?b=1")),
    ({"type": "navigate", "url": "about:blank"}, Navigate(url="about:blank")),
    ({"type": "navigate", "url": "file:///tmp/x.html"}, Navigate(url="file:///tmp/x.html")),
    ({"type": "navigate", "url": "data:text/html,<p>hi</p>"},
     Navigate(url="data:text/html,<p>hi</p>")),
    ({"type": "back"}, Back()),
    ({"type": "forward", "label": "fwd"}, Forward(label="fwd")),
    ({"type": "reload", "timeoutMs": 9000, "onError": "retry", "retries": 2},
     Reload(timeout_ms=9000, on_error="retry", retries=2)),
    ({"type": "wait_for", "text": "Welcome"}, WaitFor(text="Welcome")),
    ({"type": "wait_for", "textGone": "Loading"}, WaitFor(text_gone="Loading")),
    ({"type": "wait_for", "selector": ".done", "state": "attached"},
     WaitFor(selector=".done", state="attached")),
    ({"type": "wait_for", "url": "/dashboard"}, WaitFor(url="/dashboard")),
    ({"type": "wait_for", "stable": True}, WaitFor(stable=True)),
    ({"type": "read_page"}, ReadPage()),
    ({"type": "read_page", "filter": "all", "compression": "delta"},
     ReadPage(filter="all", compression="delta")),
    ({"type": "wait", "ms": 0}, Wait(ms=0)),
    ({"type": "upload", "selector": "#f", "files": ["a.txt"]},
     Upload(selector="#f", files=["a.txt"])),
    ({"type": "clear", "target": "ref_2"}, Clear(target="ref_2")),
    ({"type": "evaluate", "expression": "1"}, Evaluate(expression="1")),
    # touch and drag (issue 13)
    ({"type": "tap", "target": "ref_5"}, Tap(target="ref_5")),
    ({"type": "swipe", "direction": "up"}, Swipe(direction="up")),
    ({"type": "drag", "selector": "#a", "toSelector": "#b"}, Drag(selector="#a",
                                                                  to_selector="#b")),
    # issue 13: screenshot, extract, read_page's options
    ({"type": "screenshot"}, Screenshot()),
    ({"type": "screenshot", "selector": "#chart", "format": "jpeg", "quality": 70},
     Screenshot(selector="#chart", format="jpeg", quality=70)),
    ({"type": "screenshot", "fullPage": True}, Screenshot(full_page=True)),
    ({"type": "extract"}, Extract()),
    ({"type": "logs"}, Logs()),
    ({"type": "logs", "level": "error", "minStatus": 400, "url": "/api/", "since": "act"},
     Logs(level="error", min_status=400, url="/api/", since="act")),
    ({"type": "extract", "target": "ref_2", "format": "form", "maxChars": 500},
     Extract(target="ref_2", format="form", max_chars=500)),
    ({"type": "read_page", "selector": "main", "roles": ["button"], "viewportOnly": True,
      "maxElements": 20, "includeBounds": True},
     ReadPage(selector="main", roles=["button"], viewport_only=True, max_elements=20,
              include_bounds=True)),
    # issue 23: pdf
    ({"type": "pdf"}, Pdf()),
    ({"type": "pdf", "path": "out.pdf", "paper": "a4", "landscape": True,
      "printBackground": True},
     Pdf(path="out.pdf", paper="a4", landscape=True, print_background=True)),
]


@pytest.mark.parametrize(("step", "expected"), EXAMPLES)
def test_each_step_type_parses_from_python_and_json(step: dict[str, Any], expected: Any) -> None:
    from_python = parse_request({"steps": [step]})
    from_json = parse_request(json.dumps({"steps": [step]}))
    from_bytes = parse_request(json.dumps({"steps": [step]}).encode())
    assert from_python.steps == [expected]
    assert from_json == from_python == from_bytes
    assert step_type(from_python.steps[0]) == step["type"]


def test_every_step_type_has_an_example() -> None:
    assert {step["type"] for step, _ in EXAMPLES} == set(STEP_TYPES)
    assert set(STEP_CLASSES) == set(STEP_TYPES)
    assert len(STEP_TYPES) == len(set(STEP_TYPES))  # no type named twice


def test_request_defaults() -> None:
    req = parse_request({"steps": [{"type": "back"}]})
    assert req.tab_id is None
    assert req.fail_fast is True
    assert req.return_mode == "final"
    assert req.per_step_timeout_ms == 5000
    assert req.max_steps == 10
    assert req.timeout_ms == 30000
    assert req.settle is True
    assert req.stability_ms is None
    assert req.settle_timeout_ms == 5000
    assert req.dialog == "dismiss"
    click = parse_request([{"type": "click", "target": "ref_1"}]).steps[0]
    assert isinstance(click, Click)
    assert (click.button, click.click_count, click.modifiers) == ("left", 1, [])
    assert (click.label, click.timeout_ms, click.on_error, click.retries) == (None,) * 4


def test_request_options_use_camel_case_wire_names() -> None:
    req = parse_request({
        "steps": [{"type": "back"}], "tabId": "T1", "failFast": False, "returnMode": "delta",
        "perStepTimeoutMs": 100, "maxSteps": 50, "timeoutMs": 600000, "settle": False,
        "stabilityMs": 0, "settleTimeoutMs": 0, "dialog": "leave",
    })
    assert req == ActRequest(
        steps=[Back()], tab_id="T1", fail_fast=False, return_mode="delta",
        per_step_timeout_ms=100, max_steps=50, timeout_ms=600000, settle=False,
        stability_ms=0, settle_timeout_ms=0, dialog="leave",
    )


def test_bare_list_and_action_alias() -> None:
    expected = ActRequest(steps=[Navigate(url="http://x.test/"), Click(target="ref_1")])
    assert parse_request([{"action": "navigate", "url": "http://x.test/"},
                          {"type": "click", "action": "click", "target": "ref_1"}]) == expected
    assert parse_request('[{"action":"navigate","url":"http://x.test/"},'
                         '{"type":"click","target":"ref_1"}]') == expected


def test_structs_and_requests_are_accepted_and_revalidated() -> None:
    req = ActRequest(steps=[Click(target="ref_1"), Wait(ms=5)], max_steps=5)
    assert parse_request(req) == req
    assert parse_request([Click(target="ref_1"), Wait(ms=5)]).steps == req.steps
    with pytest.raises(InvalidRequest) as info:
        parse_request(ActRequest(steps=[Wait(ms=10001)]))
    assert info.value.field == "steps[0].ms"


def test_encoded_steps_are_compact_and_round_trip() -> None:
    req = parse_request([{"type": "click", "target": "ref_1"}])
    assert msgspec.json.decode(msgspec.json.encode(req)) == {
        "steps": [{"type": "click", "target": "ref_1"}]}
    assert parse_request(msgspec.json.encode(req)) == req


def invalid(data: Any) -> InvalidRequest:
    with pytest.raises(InvalidRequest) as info:
        parse_request(data)
    assert isinstance(info.value, CdpseqError)
    assert str(info.value) == f"{info.value.field}: {info.value.reason}"
    return info.value


def one(step: dict[str, Any], *before: dict[str, Any]) -> dict[str, Any]:
    return {"steps": [*before, step]}


OK_STEP = {"type": "back"}


@pytest.mark.parametrize(
    ("data", "field", "index", "reason"),
    [
        (one({"type": "jump"}), "steps[0].type", 0, "unknown step type 'jump'"),
        (one({"target": "ref_1"}), "steps[0].type", 0, "required field missing"),
        (one({"type": "navigate"}, OK_STEP, OK_STEP), "steps[2].url", 2,
         "required field missing"),
        (one({"type": "click", "target": "ref_1", "selector": "#a"}), "steps[0].selector", 0,
         "not both"),
        (one({"type": "hover"}), "steps[0].target", 0, "give target or selector"),
        (one({"type": "type", "text": "x", "target": 1, "selector": "a"}),
         "steps[0].selector", 0, "not both"),
        (one({"type": "click", "target": "ref_1", "clickCount": "2"}),
         "steps[0].clickCount", 0, "expected int, got str"),
        (one({"type": "wait", "ms": True}), "steps[0].ms", 0, "expected int, got bool"),
        (one({"type": "navigate", "url": 5}), "steps[0].url", 0, "expected str, got int"),
        (one({"type": "click", "target": "ref_1", "clickCount": 2.0}),
         "steps[0].clickCount", 0, "expected int, got float"),
        (one({"type": "click", "target": "ref_1", "clickCount": 4}),
         "steps[0].clickCount", 0, "expected int <= 3"),
        (one({"type": "click", "target": "ref_1", "foo": 1}), "steps[0].foo", 0,
         "unknown field"),
        (one({"type": "click", "target": "ref_1", "modifiers": ["Hyper"]}),
         "steps[0].modifiers[0]", 0, "invalid value 'Hyper' (expected one of Alt, Control"),
        (one({"type": "click", "target": "ref_1", "button": "x"}), "steps[0].button", 0,
         "expected one of left, right, middle"),
        (one({"type": "click", "target": "ref_1", "timeoutMs": 0}), "steps[0].timeoutMs", 0,
         "expected int >= 1"),
        (one({"type": "click", "target": "ref_1", "retries": 2}), "steps[0].retries", 0,
         'onError "retry"'),
        (one({"type": "click", "target": "ref_1", "onError": "retry", "retries": 6}),
         "steps[0].retries", 0, "expected int <= 5"),
        (one({"type": "fill", "target": "ref_1", "value": "a", "credentialRef": "pw"}),
         "steps[0].credentialRef", 0, "not both"),
        (one({"type": "fill", "target": "ref_1"}), "steps[0].value", 0,
         "give value or credentialRef"),
        (one({"type": "fill", "target": "ref_1", "credentialRef": "9lives"}),
         "steps[0].credentialRef", 0, "invalid credentialRef '9lives'"),
        (one({"type": "select", "target": "ref_1"}), "steps[0].value", 0,
         "give value, label, values or labels"),
        (one({"type": "select", "target": "ref_1", "value": "a", "label": "A"}),
         "steps[0].label", 0, "not value and label"),
        (one({"type": "select", "target": "ref_1", "labels": ["A"], "values": ["a"]}),
         "steps[0].labels", 0, "not values and labels"),
        (one({"type": "select", "target": "ref_1", "values": "a"}), "steps[0].values", 0,
         "expected array"),
        (one({"type": "wait_for", "text": "a", "selector": "#b"}), "steps[0].selector", 0,
         "exactly one condition, got text and selector"),
        (one({"type": "wait_for"}), "steps[0]", 0, "exactly one condition"),
        (one({"type": "wait_for", "text": "a", "state": "hidden"}), "steps[0].state", 0,
         "only applies with selector"),
        (one({"type": "wait_for", "text": "a", "state": "visible"}), "steps[0].state", 0,
         "only applies with selector"),
        (one({"type": "wait_for", "stable": False}), "steps[0].stable", 0, "must be true"),
        (one({"type": "wait_for", "text": ""}), "steps[0].text", 0, "length >= 1"),
        (one({"type": "wait", "ms": 10001}), "steps[0].ms", 0, "expected int <= 10000"),
        (one({"type": "wait"}), "steps[0].ms", 0, "required field missing"),
        (one({"type": "press", "key": "Control+"}), "steps[0].key", 0, "invalid key 'Control+'"),
        (one({"type": "press", "key": ""}), "steps[0].key", 0, "invalid key ''"),
        (one({"type": "press", "key": "Control+Control+a"}), "steps[0].key", 0, "held twice"),
        (one({"type": "press", "key": "NotARealKey"}), "steps[0].key", 0,
         "unknown key 'NotARealKey'"),
        (one({"type": "press", "key": "A+B"}), "steps[0].key", 0, "'A' is not a modifier"),
        (one({"type": "navigate", "url": "example.com"}), "steps[0].url", 0,
         "absolute URL"),
        (one({"type": "navigate", "url": "//example.com/x"}), "steps[0].url", 0,
         "absolute URL"),
        (one({"type": "navigate", "url": "https://"}), "steps[0].url", 0, "no host"),
        (one({"type": "scroll", "pixels": 0}), "steps[0].pixels", 0, "expected int >= 1"),
        (one({"type": "click", "selector": "  "}), "steps[0].selector", 0, "non-empty"),
        (one({"action": "click", "type": "hover", "target": 1}), "steps[0].action", 0,
         "conflicts with type 'hover'"),
        ({"steps": [3]}, "steps[0]", 0, "expected object, got int"),
        ({"steps": []}, "steps", None, "at least one step"),
        ([], "steps", None, "at least one step"),
        ({}, "steps", None, "required field missing"),
        ({"steps": "back"}, "steps", None, "expected array, got str"),
        ({"steps": [OK_STEP] * 11}, "steps", None, "11 steps exceed maxSteps 10"),
        ({"steps": [OK_STEP] * 3, "maxSteps": 2}, "steps", None, "3 steps exceed maxSteps 2"),
        ({"steps": [OK_STEP] * 51, "maxSteps": 50}, "steps", None, "hard limit of 50"),
        ({"steps": [OK_STEP], "maxSteps": 51}, "maxSteps", None, "hard ceiling of 50"),
        ({"steps": [OK_STEP], "maxSteps": 0}, "maxSteps", None, "expected int >= 1"),
        ({"steps": [OK_STEP], "maxSteps": "5"}, "maxSteps", None, "expected int, got str"),
        ({"steps": [OK_STEP], "returnMode": "some"}, "returnMode", None,
         "invalid value 'some' (expected one of final, all, delta)"),
        ({"steps": [OK_STEP], "stepz": 1}, "stepz", None, "unknown field (allowed: steps,"),
        ({"steps": [OK_STEP], "timeoutMs": 600001}, "timeoutMs", None, "<= 600000"),
        ({"steps": [OK_STEP], "stabilityMs": 5001}, "stabilityMs", None, "<= 5000"),
        (5, "request", None, "expected an object with steps or a list of steps, got int"),
        (None, "request", None, "got null"),
        ({1: 2}, "request", None, "keys must be strings"),
    ],
)
def test_invalid_requests_name_the_field(data: Any, field: str, index: int | None,
                                         reason: str) -> None:
    exc = invalid(data)
    assert exc.field == field
    assert exc.index == index
    assert reason in exc.reason
    if isinstance(data, dict | list):  # the same request as JSON gives the same error
        if not isinstance(data, dict) or all(isinstance(k, str) for k in data):
            as_json = invalid(json.dumps(data))
            assert (as_json.field, as_json.index, as_json.reason) == (field, index, exc.reason)


def test_unknown_step_type_lists_the_known_ones() -> None:
    exc = invalid([{"type": "jump"}])
    assert str(exc) == ("steps[0].type: unknown step type 'jump' (expected one of "
                        + ", ".join(STEP_TYPES) + ")")


def test_exact_messages() -> None:
    assert str(invalid([OK_STEP, OK_STEP, {"type": "navigate"}])) == (
        "steps[2].url: required field missing")
    assert str(invalid([{"type": "click", "target": 1, "clickCount": "2"}])) == (
        "steps[0].clickCount: expected int, got str")
    assert str(invalid([{"type": "wait_for"}, {"type": "back"}])) == (
        "steps[0]: give exactly one condition: text, textGone, selector, url or stable")
    assert str(invalid({"steps": [{}]})) == "steps[0].type: required field missing"


def test_unknown_field_lists_the_allowed_ones() -> None:
    exc = invalid([{"type": "click", "target": "ref_1", "clickcount": 2}])
    assert exc.field == "steps[0].clickcount"
    assert "allowed for click:" in exc.reason
    assert "clickCount" in exc.reason


@pytest.mark.parametrize("target", ["ref_", "ref_0", "node_x", -3, "btn", 0, "ref_01", True,
                                    "", " ref_1", 1.5])
def test_bad_target_syntax(target: object) -> None:
    exc = invalid([OK_STEP, {"type": "click", "target": target}])
    assert (exc.field, exc.index) == ("steps[1].target", 1)
    assert "invalid target" in exc.reason
    assert "ref_N" in exc.reason
    with pytest.raises(InvalidRequest) as info:
        parse_target(target)  # type: ignore[arg-type]
    assert info.value.field == "target"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("ref_1", TargetRef("ref", 1)),
        ("ref_123", TargetRef("ref", 123)),
        ("node_7", TargetRef("node", 7)),
        (42, TargetRef("node", 42)),
        ("42", TargetRef("node", 42)),
    ],
)
def test_parse_target(value: str | int, expected: TargetRef) -> None:
    assert parse_target(value) == expected
    parse_request([{"type": "click", "target": value}])


@pytest.mark.parametrize(
    "key", ["Enter", "Tab", "a", "Control+A", "Shift+ArrowLeft", "Ctrl+c", "Cmd+Shift+z",
            "Alt+Control+Meta+Shift+F5", "+", "Control++", " ", "Shift", "Ctrl+Alt",
            "Control+Shift", "!", "~", "Digit3", "Shift+Digit3", "NumpadEnter", "ShiftRight",
            "KeyA", "Meta"],
)
def test_valid_keys(key: str) -> None:
    step = parse_request([{"type": "press", "key": key}]).steps[0]
    assert isinstance(step, Press)
    assert step.key == key


@pytest.mark.parametrize("key", ["Control+", "", "+A", "++", "a+b", "Control+++",
                                 "NotARealKey", "ё", "😊", "Shift+Shift+a"])
def test_invalid_keys(key: str) -> None:
    exc = invalid([{"type": "press", "key": key}])
    assert exc.field == "steps[0].key"


def test_invalid_json() -> None:
    for text in ['{"steps": [', "not json", b"\xff", ""]:
        exc = invalid(text)
        assert (exc.field, exc.index) == ("request", None)
        assert exc.reason.startswith("invalid JSON: ")


def test_no_msgspec_error_escapes() -> None:
    weird: list[Any] = [object(), {"steps": [{"type": "wait", "ms": object()}]},
                        {"steps": [{"type": b"click"}]}, {"steps": [{"type": None}]},
                        [[1]], "[1, [2]]", '{"steps": null}', b"[]",
                        [Click(target=object())],  # type: ignore[arg-type]
                        ActRequest(steps=[Wait(ms=object())])]  # type: ignore[arg-type]
    for data in weird:
        with pytest.raises(InvalidRequest):
            parse_request(data)


def test_step_type_is_known_for_invalid_result() -> None:
    exc = invalid([OK_STEP, {"type": "navigate", "url": "example.com"}, OK_STEP])
    result = invalid_result(exc)
    assert result == ActResult(
        ok=False, completed=0, total=3,
        failed=StepFailure(index=1, type="navigate", code="INVALID_REQUEST",
                           error=str(exc), retryable=False),
        steps=[], tab=None,
    )
    assert msgspec.json.decode(msgspec.json.encode(result)) == {
        "ok": False, "completed": 0, "total": 3,
        "failed": {"index": 1, "type": "navigate", "code": "INVALID_REQUEST",
                   "error": "steps[1].url: expected an absolute URL (with a scheme, e.g. "
                            "https://; cdpseq navigates http, https, file, about, data), got "
                            "'example.com'",
                   "retryable": False},
        "steps": [], "tab": None,
    }


def test_invalid_result_without_steps() -> None:
    result = invalid_result(invalid(b"{"))
    assert result.total == 0
    assert result.failed == StepFailure(index=None, type=None, code="INVALID_REQUEST",
                                        error=str(invalid(b"{")), retryable=False)


def test_result_encoding_omits_unset_and_keeps_failed_null() -> None:
    step = StepResult(index=0, type="click", status="ok", duration_ms=12.5, url="about:blank")
    assert msgspec.json.decode(msgspec.json.encode(step)) == {
        "index": 0, "type": "click", "status": "ok", "durationMs": 12.5, "url": "about:blank"}
    full = StepResult(index=1, type="read_page", label="look", status="error", duration_ms=1.0,
                      url="u", attempts=2, output={"a": 1},
                      error=StepFailure(index=1, type="read_page", code="STEP_TIMEOUT",
                                        error="slow", retryable=True))
    assert set(msgspec.json.decode(msgspec.json.encode(full))) == {
        "index", "type", "label", "status", "durationMs", "url", "attempts", "error", "output"}
    result = ActResult(ok=True, completed=1, total=1, failed=None, steps=[step],
                       tab=TabState(id="T", url="about:blank", title=""))
    encoded = msgspec.json.encode(result)
    assert b'"failed":null' in encoded
    assert set(msgspec.json.decode(encoded)) == {"ok", "completed", "total", "failed", "steps",
                                                 "tab"}
    result.stability_wait_ms = 120
    result.new_tabs = []
    decoded = msgspec.json.decode(msgspec.json.encode(result))
    assert decoded["stabilityWaitMs"] == 120
    assert decoded["newTabs"] == []
    assert msgspec.json.decode(encoded, type=ActResult) == ActResult(
        ok=True, completed=1, total=1, failed=None, steps=[step],
        tab=TabState(id="T", url="about:blank", title=""))


def test_request_schema() -> None:
    schema = request_schema()
    assert json.loads(json.dumps(schema)) == schema
    assert schema["type"] == "object"
    assert schema["required"] == ["steps"]
    assert schema["additionalProperties"] is False
    assert schema["properties"]["maxSteps"]["maximum"] == 50
    items = schema["properties"]["steps"]["items"]
    assert items["discriminator"]["propertyName"] == "type"
    defs = schema["$defs"]
    refs = [entry["$ref"] for entry in items["anyOf"]]
    assert len(refs) == len(STEP_TYPES)
    for name in STEP_TYPES:
        ref = items["discriminator"]["mapping"][name]
        assert ref in refs
        step_schema = defs[ref.rsplit("/", 1)[-1]]
        assert step_schema["properties"]["type"] == {"enum": [name]}
        assert "type" in step_schema["required"]
        assert step_schema["additionalProperties"] is False
        assert step_schema["description"]
        for prop, sub in step_schema["properties"].items():
            if prop != "type":
                assert sub.get("description"), (name, prop)
    for prop, sub in schema["properties"].items():
        assert sub.get("description"), prop
    assert defs["Navigate"]["required"] == ["type", "url"]
    assert defs["WaitFor"]["properties"]["stable"]["anyOf"][0] == {"const": True}
    assert defs["Click"]["properties"]["clickCount"]["maximum"] == 3


def test_schema_patterns_agree_with_validation() -> None:
    defs = request_schema()["$defs"]
    key_pattern = defs["Press"]["properties"]["key"]["pattern"]
    target_pattern = defs["Click"]["properties"]["target"]["anyOf"][0]["pattern"]
    for key in ["Enter", "Control+A", "+", "Control+", "Shift", "A+B"]:
        try:
            parse_request([{"type": "press", "key": key}])
            valid = True
        except InvalidRequest:
            valid = False
        assert (re.search(key_pattern, key) is not None) == valid, key
    for target in ["ref_1", "node_2", "3", "ref_0", "btn"]:
        try:
            parse_target(target)
            valid = True
        except InvalidRequest:
            valid = False
        assert (re.search(target_pattern, target) is not None) == valid, target


def test_result_schema() -> None:
    schema = result_schema()
    assert json.loads(json.dumps(schema)) == schema
    assert schema["type"] == "object"
    assert set(schema["required"]) == {"ok", "completed", "total", "failed", "steps", "tab"}
    assert "durationMs" in schema["$defs"]["StepResult"]["properties"]
    assert "INVALID_REQUEST" in schema["$defs"]["StepFailure"]["properties"]["code"]["enum"]


def test_is_action_and_labels() -> None:
    actions = {"click", "hover", "check", "uncheck", "fill", "type", "press", "select",
               "scroll", "navigate", "back", "forward", "reload", "upload", "clear", "evaluate",
               "tap", "swipe", "drag"}
    for name in STEP_TYPES:
        assert is_action(name) == (name in actions)
    for step, _ in EXAMPLES:
        parsed = parse_request([step]).steps[0]
        assert is_action(parsed) == (step["type"] in actions)
    assert step_label(Click(target=1, label="go")) == "go"
    assert step_label(Select(target=1, option_label="Canada")) is None


def test_steps_are_frozen() -> None:
    step = Click(target="ref_1")
    with pytest.raises(AttributeError):
        step.target = "ref_2"  # type: ignore[misc]


# -- found by the fuzz tests (tests/fuzz/) --------------------------------------------------------


@pytest.mark.parametrize("text", ["[" * 100_000, "[" * 1_000 + "]" * 1_000,
                                  '{"steps": ' + "[" * 5_000 + "]" * 5_000 + "}"])
def test_json_nested_too_deeply_is_invalid_not_a_recursion_error(text: str) -> None:
    for data in (text, text.encode()):
        exc = invalid(data)
        assert (exc.field, exc.reason) == ("request", "invalid JSON: nested too deeply")


def test_json_text_with_a_lone_surrogate_is_invalid_not_a_unicode_error() -> None:
    exc = invalid('[{"type": "wait", "ms": 1, "label": "a\ud800"}]')
    assert exc.field == "request"
    assert "character 38 is a lone surrogate" in exc.reason


@pytest.mark.parametrize(("request_data", "field"), [
    ({"steps": [{"type": "navigate", "url": "http://\ud800/"}]}, "steps[0].url"),
    ({"steps": [{"type": "wait", "ms": 1, "label": "\udfff"}]}, "steps[0].label"),
    ({"steps": [{"type": "select", "selector": "s", "values": ["a", "b\udc80"]}]},
     "steps[0].values[1]"),
    ({"steps": [{"type": "wait", "ms": 1}], "tabId": "\ud800"}, "tabId"),
])
def test_python_strings_that_are_not_unicode_text_are_invalid(request_data: dict[str, Any],
                                                               field: str) -> None:
    # A str may hold lone surrogates; no JSON message to Chrome can carry them.
    exc = invalid(request_data)
    assert exc.field == field
    assert "lone surrogate, not Unicode text" in exc.reason


@pytest.mark.parametrize(("request_data", "field"), [
    (one({"type": "click", "target": "x" * 1_000_000}), "steps[0].target"),
    (one({"type": "x" * 1_000_000}), "steps[0].type"),
    (one({"type": "read_page", "filter": "y" * 1_000_000}), "steps[0].filter"),
    (one({"type": "press", "key": "z" * 1_000_000}), "steps[0].key"),
    (one({"type": "navigate", "url": "u" * 1_000_000}), "steps[0].url"),  # no scheme
    (one({"type": "fill", "selector": "a", "credentialRef": "c-" * 500_000}),
     "steps[0].credentialRef"),
    ({"steps": [OK_STEP], "dialog": "d" * 1_000_000}, "dialog"),
    (one({"type": "click", "target": [[[[[[["deep"]]]]]]]}), "steps[0].target"),
])
def test_huge_values_are_shown_cut_short(request_data: dict[str, Any], field: str) -> None:
    exc = invalid(request_data)
    assert exc.field == field
    assert len(exc.reason) < 400, exc.reason


def test_a_huge_unknown_field_name_is_shown_cut_short() -> None:
    exc = invalid({"steps": [OK_STEP], "k" * 1_000_000: 1})
    assert exc.field == "k" * 79 + "…"
    assert exc.reason.startswith("unknown field (allowed: steps, tabId,")


@pytest.mark.parametrize(("request_data", "field"), [
    ({"steps": [{"type": "wait", "ms": 1, "\ud800x": 1}]}, "steps[0].\\ud800x"),
    ({"steps": [OK_STEP], "\udfff": 1}, "\\udfff"),
])
def test_field_names_that_are_not_unicode_text_are_invalid(request_data: dict[str, Any],
                                                           field: str) -> None:
    exc = invalid(request_data)
    assert (exc.field, exc.reason) == (field, "the field name has a lone surrogate, not "
                                              "Unicode text")
    msgspec.json.encode(invalid_result(exc))  # the answer can be sent


@pytest.mark.parametrize("kind", ["\ud800", "x" * 100_000, "teleport"])
def test_an_unknown_step_type_is_not_echoed_as_the_failed_steps_type(kind: str) -> None:
    exc = invalid([{"type": kind}])
    assert exc.field == "steps[0].type" and exc.step_type is None
    assert len(msgspec.json.encode(invalid_result(exc))) < 1000


def test_an_empty_unknown_field_name_is_shown_quoted() -> None:
    assert invalid({"steps": [OK_STEP], "": 1}).field == '""'
    assert invalid({"steps": [{**OK_STEP, "": 1}]}).field == 'steps[0].""'
