"""The text rendering shows why a step's if skipped it, and an evaluate step's value (issue 13)."""

from __future__ import annotations

from cdpseq.engine.result import ActResult, StepResult
from cdpseq.front.render import render_text


def test_a_skipped_condition_and_an_evaluated_value_are_shown() -> None:
    result = ActResult(ok=True, completed=1, total=2, failed=None, tab=None, steps=[
        StepResult(index=0, type="click", status="skipped", duration_ms=1.0, url="",
                   skip_reason="if: selector '#consent' is not visible (checked once)"),
        StepResult(index=1, type="evaluate", status="ok", duration_ms=1.0, url="",
                   output={"value": {"items": [1, "two"]}, "type": "object"}),
    ])
    lines = render_text(result).splitlines()
    assert lines[1] == "  skipped step 0 click: if: selector '#consent' is not visible " \
                       "(checked once)"
    assert lines[2] == '  step 1 evaluate = {"items":[1,"two"]}'
    long = StepResult(index=0, type="evaluate", status="ok", duration_ms=1.0, url="",
                      output={"value": "x" * 5000, "type": "string"})
    shown = render_text(ActResult(ok=True, completed=1, total=1, failed=None, tab=None,
                                  steps=[long])).splitlines()[1]
    assert shown.endswith("…") and len(shown) < 2100
