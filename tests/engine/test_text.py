"""fill, type and press, verified (issue 10): values the browser refuses, read-only fields that
become editable, labels, input masks, controlled inputs that refuse input; and a keyboard that
sends what a US keyboard would."""

from __future__ import annotations

from typing import Any

import pytest

from cdpseq import ActResult, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, run


async def fill(tab: Tab, selector: str, value: str, timeout_ms: int = 400) -> ActResult:
    return await act(tab, {"settle": False, "returnMode": "all", "steps": [
        {"type": "fill", "selector": selector, "value": value, "timeoutMs": timeout_ms}]})


def value_of(selector: str) -> str:
    return f"document.querySelector('{selector}').value"


@pytest.mark.parametrize(("selector", "value", "kept"), [
    ("#date", "2020-03-02", "2020-03-02"),
    ("#time", "13:15", "13:15"),
    ("#month", "2020-07", "2020-07"),
    ("#week", "2020-W50", "2020-W50"),
    ("#local", "2020-03-02T05:15:00", "2020-03-02T05:15"),  # the browser's own form of it
    ("#range", "42", "42"),
    ("#color", "#AAAAAA", "#aaaaaa"),
    ("#number", "-10e5", "-10e5"),
])
async def test_value_fields_take_valid_values(tab: Tab, server: FixtureServer, selector: str,
                                              value: str, kept: str) -> None:
    await open_page(tab, server, "/fields.html")
    result = await fill(tab, selector, value)
    assert result.ok, result.failed
    assert await js(tab, value_of(selector)) == kept
    events = await js(tab, "events")
    name = selector[1:]
    assert ["input", name, True, False] in events or ["input", name, True, True] in events
    changes = [e for e in events if e[0] == "change" and e[1] == name]
    if selector != "#number":
        assert len(changes) == 1  # a picker commits what it sets at once
        return
    # A number is typed: its change is the browser's, when focus leaves the field.
    assert changes == []
    await run(tab, {"type": "press", "key": "Tab"})
    assert [e for e in await js(tab, "events") if e[0] == "change" and e[1] == name] == [
        ["change", name, False, True]]


@pytest.mark.parametrize(("selector", "value", "reason"), [
    ("#date", "2020-13-05", "expected yyyy-mm-dd"),
    ("#time", "25:05", "expected hh:mm"),
    ("#month", "2020-13", "expected yyyy-mm"),
    ("#week", "2020-123", "expected yyyy-Www"),
    ("#local", "abc", "expected yyyy-mm-ddThh:mm"),
    ("#range", "200", 'would keep "100" for "200"'),
    ("#range", "15.43", 'would keep "15" for "15.43"'),
    ("#color", "badvalue", "expected #rrggbb"),
    ("#number", "abc", "expected a number"),
])
async def test_values_the_browser_refuses_fail_and_leave_the_field_alone(
        tab: Tab, server: FixtureServer, selector: str, value: str, reason: str) -> None:
    await open_page(tab, server, "/fields.html")
    before = await js(tab, value_of(selector))
    result = await fill(tab, selector, value)
    assert result.failed is not None and result.failed.code == "INVALID_VALUE", result.failed
    assert reason in result.failed.error, result.failed.error
    assert await js(tab, value_of(selector)) == before
    assert await js(tab, "events") == []


async def test_fill_follows_a_label_to_its_field(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/fields.html")
    await run(tab, {"type": "fill", "selector": "#name-label", "value": "Ada Lovelace"})
    assert await js(tab, value_of("#wrapped-name")) == "Ada Lovelace"


async def test_fill_waits_for_a_read_only_field_to_become_editable(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/fields.html")
    early = await fill(tab, "#late-editable", "now")
    assert early.failed is not None and "not editable (read-only)" in early.failed.error
    await js(tab, "setTimeout(() => document.getElementById('late-editable').readOnly = false,"
                  " 200)")
    assert (await fill(tab, "#late-editable", "now", timeout_ms=3000)).ok
    assert await js(tab, value_of("#late-editable")) == "now"


async def test_a_mask_that_formats_the_value_is_fine_and_says_so(tab: Tab, server: FixtureServer
                                                                 ) -> None:
    await open_page(tab, server, "/fields.html")
    result = await fill(tab, "#phone", "5551234567")
    assert result.ok
    assert result.steps[0].output == {"formattedByPage": "(555) 123-4567"}


async def test_a_field_that_refuses_the_input_is_an_error(tab: Tab, server: FixtureServer
                                                          ) -> None:
    await open_page(tab, server, "/fields.html")
    result = await fill(tab, "#stubborn", "hello")
    assert result.failed is not None and result.failed.code == "INVALID_VALUE"
    assert 'holds "" after filling "hello" (the page changed or refused it)' in \
        result.failed.error


async def test_a_refused_credential_is_reported_without_its_value(tab: Tab, server: FixtureServer
                                                                  ) -> None:
    await open_page(tab, server, "/fields.html")
    result = await act(tab, [{"type": "fill", "selector": "#stubborn", "credentialRef": "pin"}],
                       secrets={"pin": "s3cr3t-pin"})
    assert result.failed is not None and result.failed.code == "INVALID_VALUE"
    assert "does not hold the credential" in result.failed.error
    assert "s3cr3t" not in str(result)


async def test_a_file_input_cannot_be_filled(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/fields.html")
    result = await fill(tab, "#file", "x")
    assert result.failed is not None and result.failed.code == "NOT_EDITABLE"
    assert 'type "file" cannot be filled' in result.failed.error
    assert "use an upload step" in result.failed.error


def _downs(keys: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(k["key"], k["code"], k["keyCode"], k["location"], k["shift"])
            for k in keys if k["type"] == "keydown"]


async def test_type_sends_key_events_for_shifted_characters_and_inserts_the_rest(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/keys.html")
    await run(tab, {"type": "type", "selector": "#area", "text": "a!~#?嗨\n"})
    assert await js(tab, value_of("#area")) == "a!~#?嗨\n"
    keys = await js(tab, "keys")
    assert _downs(keys) == [("a", "KeyA", 65, 0, False), ("!", "Digit1", 49, 0, False),
                            ("~", "Backquote", 192, 0, False), ("#", "Digit3", 51, 0, False),
                            ("?", "Slash", 191, 0, False), ("Enter", "Enter", 13, 0, False)]
    assert [k["key"] for k in keys if k["type"] == "keypress"] == ["a", "!", "~", "#", "?",
                                                                   "Enter"]
    assert all(k["trusted"] for k in keys)


async def test_press_takes_key_names_codes_and_lone_modifiers(tab: Tab, server: FixtureServer
                                                              ) -> None:
    await open_page(tab, server, "/keys.html")
    await run(tab, {"type": "press", "selector": "#line", "key": "Shift"},
              {"type": "press", "key": "Digit3"}, {"type": "press", "key": "Shift+Digit3"},
              {"type": "press", "key": "ControlRight"}, {"type": "press", "key": "NumpadEnter"})
    keys = await js(tab, "keys")
    assert _downs(keys) == [("Shift", "ShiftLeft", 16, 1, True), ("3", "Digit3", 51, 0, False),
                            ("Shift", "ShiftLeft", 16, 1, True), ("#", "Digit3", 51, 0, True),
                            ("Control", "ControlRight", 17, 2, False),
                            ("Enter", "NumpadEnter", 13, 3, False)]
    ups = [(k["key"], k["shift"], k["control"]) for k in keys if k["type"] == "keyup"]
    assert ups[0] == ("Shift", False, False)  # released: its own flag is off again
    assert await js(tab, value_of("#line")) == "3#"


async def test_type_into_something_that_takes_no_focus(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/fields.html")
    result = await act(tab, [{"type": "type", "selector": "h1", "text": "x", "timeoutMs": 300}])
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE"
    assert "does not take focus" in result.failed.error
