"""One settle's time per action: the settles before the steps that read after an action and the
one at the end share its ``settleTimeoutMs``, so a page that never settles costs it once, not
once per step (a failed step's act too). Each settle's budget is what the engine asked of the
real watch, recorded on the way through."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from cdpseq import Tab, act
from cdpseq.engine.settle_watch import Watch
from fixtures.server import FixtureServer
from tests.helpers import js, open_page


@pytest.fixture
def budgets(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The budget of each settle the act asks of its watch, in order."""
    asked: list[float] = []
    settle = Watch.settle

    async def recorded(self: Watch, budget: float, delta: int | None = None) -> dict[str, Any]:
        asked.append(budget)
        return await settle(self, budget, delta)

    monkeypatch.setattr(Watch, "settle", recorded)
    return asked


async def test_a_failed_step_after_an_unsettled_action_costs_one_settle(
        tab: Tab, server: FixtureServer, budgets: list[float]) -> None:
    await open_page(tab, server, "/settle-spinner.html")  # its spinner never stops
    budgets.clear()
    with trio.fail_after(30):
        result = await act(tab, {"steps": [
            {"type": "click", "selector": "#go"},
            {"type": "read_page"},
            {"type": "wait_for", "selector": "#done", "timeoutMs": 300}],
            "settleTimeoutMs": 1500})
    assert result.failed is not None and result.failed.code == "WAIT_TIMEOUT", result.failed
    assert result.failed.index == 2 and result.steps[1].status == "ok"
    assert await js(tab, "document.getElementById('loading').hidden") is False  # clicked
    # The settle before the read used the click's 1.5 s; the one at the end only looks, and
    # still reports the page as it is.
    assert budgets == [1.5, pytest.approx(0.1)], budgets
    assert result.stable is False and result.unstable_reason, result


async def test_each_action_that_did_its_work_gets_a_settle_of_its_own(
        tab: Tab, server: FixtureServer, budgets: list[float]) -> None:
    await open_page(tab, server, "/settle-spinner.html")
    budgets.clear()
    with trio.fail_after(30):
        result = await act(tab, {"steps": [
            {"type": "click", "selector": "#go"}, {"type": "read_page"},
            {"type": "click", "selector": "#go"}, {"type": "read_page"},
            {"type": "click", "selector": "#missing", "timeoutMs": 300}],
            "settleTimeoutMs": 1000})
    assert result.failed is not None and result.failed.code == "NODE_NOT_FOUND", result.failed
    assert result.failed.index == 4 and result.completed == 4
    # A settle after each click that clicked; the failed one renews nothing.
    assert budgets == [1.0, 1.0, pytest.approx(0.1)], budgets
