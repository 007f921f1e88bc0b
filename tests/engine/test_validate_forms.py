"""Validation of upload, clear and evaluate steps and of a step's `if` (issue 13): pure, no
browser. A bad field is INVALID_REQUEST naming it; the files' existence is the engine's check
(tests/engine/test_upload.py), not validation's."""

from __future__ import annotations

from typing import Any

import pytest

from cdpseq.engine.request import Clear, Condition, Evaluate, Upload
from cdpseq.engine.validate import parse_request
from cdpseq.errors import InvalidRequest


def test_valid_steps_decode_to_their_types() -> None:
    request = parse_request([
        {"type": "upload", "selector": "#f", "files": ["/tmp/a", "b.txt"]},
        {"type": "clear", "target": "ref_3"},
        {"type": "evaluate", "expression": "document.title",
         "if": {"target": "ref_3", "state": "enabled", "timeoutMs": 500, "else": "fail"}},
    ])
    upload, clear, evaluate = request.steps
    assert isinstance(upload, Upload) and upload.files == ["/tmp/a", "b.txt"]
    assert isinstance(clear, Clear) and clear.target == "ref_3"
    assert isinstance(evaluate, Evaluate)
    assert evaluate.when == Condition(target="ref_3", state="enabled", timeout_ms=500,
                                      otherwise="fail")
    defaults = parse_request([{"type": "wait", "ms": 1, "if": {"selector": "#x"}}]).steps[0]
    assert defaults.when == Condition(selector="#x", state="visible", timeout_ms=0,
                                      otherwise="skip")


@pytest.mark.parametrize(("step", "field", "reason"), [
    ({"type": "upload", "files": ["a"]}, "steps[0].target", "required: give target or selector"),
    ({"type": "upload", "selector": "#f"}, "steps[0].files", "required field missing"),
    ({"type": "upload", "selector": "#f", "files": []}, "steps[0].files", "length >= 1"),
    ({"type": "upload", "selector": "#f", "files": [""]}, "steps[0].files[0]", "length >= 1"),
    ({"type": "upload", "selector": "#f", "files": "a.txt"}, "steps[0].files", "expected array"),
    ({"type": "upload", "selector": "#f", "files": ["a"], "value": "x"}, "steps[0].value",
     "unknown field"),
    ({"type": "clear"}, "steps[0].target", "required: give target or selector"),
    ({"type": "clear", "selector": "a", "target": "ref_1"}, "steps[0].selector",
     "give only one"),
    ({"type": "evaluate"}, "steps[0].expression", "required field missing"),
    ({"type": "evaluate", "expression": ""}, "steps[0].expression", "length >= 1"),
    ({"type": "evaluate", "expression": 1}, "steps[0].expression", "expected str"),
    ({"type": "evaluate", "expression": "x" * 100_001}, "steps[0].expression", "<= 100000"),
    ({"type": "wait", "ms": 1, "if": {"target": "node_5"}}, "steps[0].if.target",
     "not by node id"),
    ({"type": "wait", "ms": 1, "if": "visible"}, "steps[0].if", "expected object"),
    ({"type": "wait", "ms": 1, "if": {"selector": "\ud800"}}, "steps[0].if.selector",
     "lone surrogate"),
])
def test_invalid_fields_are_named(step: dict[str, Any], field: str, reason: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        parse_request([step])
    assert caught.value.field == field, caught.value
    assert reason in caught.value.reason, caught.value
