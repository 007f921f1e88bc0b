"""check, uncheck and select, verified afterwards (issue 10): ARIA checkables, labels and the
hidden inputs behind them, options that arrive late or are disabled, <select multiple>."""

from __future__ import annotations

from typing import Any

import pytest

from cdpseq import ActResult, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, run


async def one(tab: Tab, step: dict[str, Any]) -> ActResult:
    return await act(tab, {"settle": False, "returnMode": "all", "steps": [step]})


@pytest.mark.parametrize("role_id", ["aria-box", "aria-switch", "aria-menu", "aria-option",
                                     "aria-tree"])
async def test_aria_checkables_without_aria_checked_are_unchecked(
        tab: Tab, server: FixtureServer, role_id: str) -> None:
    await open_page(tab, server, "/fields.html")
    checked = await one(tab, {"type": "check", "selector": f"#{role_id}"})
    assert checked.ok and checked.steps[0].output == {"changed": True}
    assert await js(tab, f"document.getElementById('{role_id}').getAttribute('aria-checked')"
                    ) == "true"
    again = await one(tab, {"type": "check", "selector": f"#{role_id}"})
    assert again.steps[0].output == {"changed": False}
    await run(tab, {"type": "uncheck", "selector": f"#{role_id}"})
    assert await js(tab, f"document.getElementById('{role_id}').getAttribute('aria-checked')"
                    ) == "false"


async def test_an_aria_radio_without_aria_checked_is_checked(tab: Tab, server: FixtureServer
                                                             ) -> None:
    await open_page(tab, server, "/fields.html")
    assert (await one(tab, {"type": "check", "selector": "#aria-radio"})).ok
    assert await js(tab, "document.getElementById('aria-radio').getAttribute('aria-checked')"
                    ) == "true"
    refused = await one(tab, {"type": "uncheck", "selector": "#aria-radio"})
    assert refused.failed is not None and "cannot be unchecked" in refused.failed.error


async def test_a_switch_whose_input_is_hidden_is_checked_through_its_label(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/fields.html")
    await run(tab, {"type": "check", "selector": "#dark"})  # the display:none input itself
    assert await js(tab, "document.getElementById('dark').checked") is True
    await run(tab, {"type": "uncheck", "selector": "#dark-label"})  # or its label
    assert await js(tab, "document.getElementById('dark').checked") is False


async def test_a_click_that_does_not_change_the_state_is_an_error(tab: Tab,
                                                                  server: FixtureServer) -> None:
    await open_page(tab, server, "/fields.html")
    result = await one(tab, {"type": "check", "selector": "#sticky-box"})
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE"
    assert "did not check it" in result.failed.error
    radio = await one(tab, {"type": "uncheck", "selector": "#small"})
    assert radio.failed is not None and "cannot be unchecked" in radio.failed.error
    assert await js(tab, "document.getElementById('small').checked") is True


async def test_check_on_something_that_is_not_checkable(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/fields.html")
    result = await one(tab, {"type": "check", "selector": "h1"})
    assert result.failed is not None and result.failed.code == "NOT_EDITABLE"


async def test_select_waits_for_options_that_arrive_later(tab: Tab, server: FixtureServer
                                                          ) -> None:
    """A dependent dropdown: the cities come 300 ms after the country is chosen."""
    await open_page(tab, server, "/fields.html")
    result = await run(tab, {"type": "select", "selector": "#country", "label": "Japan"},
                       {"type": "select", "selector": "#city", "value": "osaka",
                        "timeoutMs": 3000}, returnMode="all", settle=False)
    assert result.steps[1].output == {"value": "osaka", "label": "Osaka"}
    assert await js(tab, "document.getElementById('city').value") == "osaka"


async def test_select_waits_for_a_disabled_option_to_be_enabled(tab: Tab, server: FixtureServer
                                                                ) -> None:
    await open_page(tab, server, "/fields.html")
    early = await one(tab, {"type": "select", "selector": "#plan", "value": "pro",
                            "timeoutMs": 300})
    assert early.failed is not None and early.failed.code == "NOT_ACTIONABLE"
    assert '"Pro" is disabled' in early.failed.error
    grouped = await one(tab, {"type": "select", "selector": "#plan", "value": "legacy",
                              "timeoutMs": 300})
    assert grouped.failed is not None and '"Legacy" is disabled' in grouped.failed.error
    await js(tab, "setTimeout(() => document.getElementById('pro').disabled = false, 200)")
    await run(tab, {"type": "select", "selector": "#plan", "value": "pro", "timeoutMs": 3000})
    assert await js(tab, "document.getElementById('plan').value") == "pro"


async def test_select_multiple_sets_exactly_the_options_given(tab: Tab, server: FixtureServer
                                                              ) -> None:
    await open_page(tab, server, "/fields.html")
    chosen = "Array.from(document.getElementById('toppings').selectedOptions, o => o.value)"
    result = await one(tab, {"type": "select", "selector": "#toppings",
                             "values": ["ham", "chili"]})
    assert result.steps[0].output == {"values": ["ham", "chili"], "labels": ["Ham", "Chili"]}
    assert await js(tab, chosen) == ["ham", "chili"]  # Olives, selected before, is not
    await run(tab, {"type": "select", "selector": "#toppings", "labels": ["Basil"]})
    assert await js(tab, chosen) == ["basil"]
    await run(tab, {"type": "select", "selector": "#toppings", "values": []})
    assert await js(tab, chosen) == []
    single = await one(tab, {"type": "select", "selector": "#country", "values": ["fr", "jp"]})
    assert single.failed is not None and single.failed.code == "INVALID_VALUE"
    assert "not a <select multiple>" in single.failed.error


async def test_select_through_its_label_and_an_option_that_never_comes(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/fields.html")
    await run(tab, {"type": "select", "selector": "label:has(#country)", "value": "fr"})
    assert await js(tab, "document.getElementById('country').value") == "fr"
    missing = await one(tab, {"type": "select", "selector": "#country", "label": "Mars",
                              "timeoutMs": 300})
    assert missing.failed is not None and missing.failed.code == "OPTION_NOT_FOUND"
    assert '"France"' in missing.failed.error  # the options there are
