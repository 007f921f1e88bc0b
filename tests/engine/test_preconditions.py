"""Per-step preconditions (issue 13): `if: {target|selector, state, timeoutMs, else}` on any
step, as BAP's agent/act conditions: a cookie banner dismissed only when it shows, a button
clicked only once enabled; an unmet condition skips the step (the act stays ok) or fails it
with CONDITION_FAILED."""

from __future__ import annotations

from typing import Any

import pytest

from cdpseq import ActResult, Tab, act
from cdpseq.engine.validate import parse_request
from cdpseq.errors import InvalidRequest
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, ref, text_of


async def steps(tab: Tab, *steps: dict[str, Any], **options: Any) -> ActResult:
    return await act(tab, {"steps": list(steps), **options})


async def test_a_banner_that_is_not_there_skips_its_step_and_the_act_stays_ok(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/conditions.html")
    result = await steps(
        tab, {"type": "click", "selector": "#accept",
              "if": {"selector": "#consent", "state": "visible"}},
        {"type": "check", "selector": "#agree"})
    assert result.ok and result.failed is None
    assert result.completed == 1
    skipped = result.steps[0]
    assert skipped.status == "skipped"
    assert skipped.skip_reason == "if: selector '#consent' is not visible (checked once)"
    assert await js(tab, "window.consented") is None  # the click never ran
    assert result.steps[1].status == "ok"


async def test_a_banner_that_shows_late_is_waited_for_within_the_timeout(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/conditions.html?consent=300")
    result = await steps(tab, {"type": "click", "selector": "#accept",
                               "if": {"selector": "#consent", "timeoutMs": 5000}})
    assert result.ok and result.steps[0].status == "ok"
    assert await js(tab, "window.consented") == 1
    # Now gone: the same step with the default check-once is skipped.
    again = await steps(tab, {"type": "click", "selector": "#accept",
                              "if": {"selector": "#consent"}})
    assert again.ok and again.steps[0].status == "skipped"
    assert await js(tab, "window.consented") == 1


async def test_enabled_and_disabled_use_the_agents_own_checks(tab: Tab, server: FixtureServer
                                                              ) -> None:
    view = await open_page(tab, server, "/conditions.html")
    pay = ref(view, "Pay now")
    failed = await steps(tab, {"type": "click", "target": pay,
                               "if": {"target": pay, "state": "enabled", "else": "fail"}},
                         {"type": "check", "selector": "#agree"})
    assert not failed.ok and failed.failed is not None
    assert failed.failed.code == "CONDITION_FAILED" and failed.failed.index == 0
    assert f"{pay} is not enabled" in failed.failed.error
    assert [s.status for s in failed.steps] == ["error", "not_started"]  # failFast stops
    result = await steps(
        tab, {"type": "check", "selector": "#agree",
              "if": {"target": pay, "state": "disabled"}},
        # The previous action settled first, so checking once sees the button enabled.
        {"type": "click", "target": pay, "if": {"target": pay, "state": "enabled"}})
    assert result.ok and [s.status for s in result.steps] == ["ok", "ok"]
    assert await text_of(tab, "#status") == "Paid"


async def test_exists_gone_and_hidden_and_a_condition_failure_that_is_skipped(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/conditions.html")
    result = await steps(
        tab,
        {"type": "check", "selector": "#agree", "if": {"selector": "#consent",
                                                       "state": "exists"}},
        {"type": "wait", "ms": 0, "if": {"selector": "#nothing", "state": "gone"}},
        {"type": "wait", "ms": 0, "if": {"selector": "#consent", "state": "hidden"}},
        {"type": "wait", "ms": 0, "onError": "skip",
         "if": {"selector": "#nothing", "state": "exists", "else": "fail"}},
        {"type": "wait", "ms": 0})
    assert [s.status for s in result.steps] == ["ok", "ok", "ok", "skipped", "ok"]
    assert result.failed is not None and result.failed.code == "CONDITION_FAILED"
    assert not result.ok  # a failure that onError skipped still is one


async def test_an_invalid_condition_selector_is_refused_before_anything_runs(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/conditions.html")
    result = await steps(tab, {"type": "check", "selector": "#agree"},
                         {"type": "wait", "ms": 0, "if": {"selector": "div[["}})
    assert result.failed is not None and result.failed.code == "INVALID_REQUEST"
    assert result.failed.error.startswith("steps[1].if.selector: invalid selector")
    assert await js(tab, "document.getElementById('agree').checked") is False


@pytest.mark.parametrize(("condition", "field", "reason"), [
    ({"state": "visible"}, "steps[0].if.target", "required: give target or selector"),
    ({"selector": "a", "target": "ref_1"}, "steps[0].if.selector", "give only one"),
    ({"selector": "a", "state": "shown"}, "steps[0].if.state", "expected one of visible"),
    ({"selector": "a", "else": "stop"}, "steps[0].if.else", "expected one of skip, fail"),
    ({"selector": "a", "timeoutMs": 60001}, "steps[0].if.timeoutMs", "<= 60000"),
    ({"selector": "a", "when": 1}, "steps[0].if.when", "unknown field"),
])
def test_invalid_conditions_name_the_field(condition: dict[str, Any], field: str,
                                           reason: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        parse_request([{"type": "click", "selector": "b", "if": condition}])
    assert caught.value.field == field
    assert reason in caught.value.reason
