"""The act path validates a request once and answers one "nothing ran" shape.

A request validated at a front door goes down typed (``Driver.act`` → ``run_validated``) and is
not validated again; whatever stops an act before step 0 answers ``result.nothing_ran``'s shape:
a ``not_started`` row per step of a request that was read, none for one that could not be."""

from __future__ import annotations

import pytest
import trio

from cdpseq import Browser, InvalidRequest, Tab, act
from cdpseq.engine import runner
from cdpseq.engine.result import StepFailure, invalid_result, no_tab_result, nothing_ran
from cdpseq.engine.validate import parse_request
from cdpseq.front.driver import Driver

TIMEOUT = 30


def test_nothing_ran_has_a_not_started_row_per_step_of_a_read_request() -> None:
    request = parse_request([{"type": "wait", "ms": 1, "label": "pause"},
                             {"type": "click", "selector": "#go"}])
    failure = StepFailure(index=1, type="click", code="URL_BLOCKED", error="x", retryable=False)
    result = nothing_ran(request, failure)
    assert (result.ok, result.completed, result.total, result.failed) == (False, 0, 2, failure)
    assert [(s.index, s.type, s.status) for s in result.steps] == [
        (0, "wait", "not_started"), (1, "click", "not_started")]
    assert result.steps[0].label == "pause"
    # The other builders are this one with their failure.
    closed = no_tab_result(request, "T", "gone")
    assert [s.status for s in closed.steps] == ["not_started"] * 2
    with pytest.raises(InvalidRequest) as raised:
        parse_request([{"type": "wait", "ms": 1}, {"type": "jump"}])
    unread = invalid_result(raised.value)
    assert (unread.steps, unread.total) == ([], 2)  # no steps to list, but how many were sent


async def test_a_request_validated_at_the_door_is_not_validated_again(
        browser: Browser, tab: Tab, monkeypatch: pytest.MonkeyPatch) -> None:
    request = parse_request({"tabId": tab.id, "steps": [{"type": "wait", "ms": 1}]})
    calls: list[object] = []
    validate = runner.parse_request

    def counted(data: object) -> object:
        calls.append(data)
        return validate(data)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "parse_request", counted)
    with trio.fail_after(TIMEOUT):
        result = await Driver(browser).act(request)
        assert result.ok, result
        assert calls == []  # the Driver's typed request went down as it was
        python = await act(tab, {"steps": [{"type": "wait", "ms": 1}]})
    assert python.ok and len(calls) == 1  # the Python door validates once
