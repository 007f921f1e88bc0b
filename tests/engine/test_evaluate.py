"""evaluate (issue 13): off unless the browser was opened with it allowed; then a JavaScript
expression's JSON value from the page's main world, promises awaited, bounded in size and time,
with a plain answer for what has no JSON form."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from cdpseq import ActResult, Browser, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import js, open_page


@pytest.fixture
async def allowed(browser: Browser) -> AsyncIterator[Browser]:
    browser.allow_evaluate = True
    yield browser
    browser.allow_evaluate = False


async def evaluate(tab: Tab, expression: str, **step: Any) -> ActResult:
    with trio.fail_after(30):
        return await act(tab, {"settle": False, "steps": [
            {"type": "evaluate", "expression": expression, **step}]})


async def value_of(tab: Tab, expression: str) -> Any:
    result = await evaluate(tab, expression)
    assert result.ok, result.failed
    return result.steps[0].output


async def test_refused_unless_allowed_and_nothing_of_the_request_runs(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/controlled.html")
    result = await act(tab, [{"type": "fill", "selector": "#name", "value": "Ada"},
                             {"type": "evaluate", "expression": "document.cookie"}])
    assert not result.ok and result.failed is not None
    assert result.failed.code == "EVALUATE_DISABLED" and result.failed.index == 1
    assert "--allow-evaluate" in result.failed.error
    assert await js(tab, "document.getElementById('name').value") == ""


async def test_values_from_the_main_world_and_awaited_promises(
        tab: Tab, server: FixtureServer, allowed: Browser) -> None:
    await open_page(tab, server, "/controlled.html")
    # The app's own globals: the main world, not cdpseq's isolated one.
    assert await value_of(tab, "window.appState") == {"value": {"name": "", "bio": ""},
                                                      "type": "object"}
    assert await value_of(tab, "document.title") == {"value": "Controlled inputs",
                                                     "type": "string"}
    assert await value_of(tab, "new Promise(r => setTimeout(() => r([1, 'two', null]), 20))"
                          ) == {"value": [1, "two", None], "type": "array"}
    assert (await value_of(tab, "await fetch('/api/echo?x=1').then(r => r.json())")
            )["value"]["path"] == "/api/echo?x=1"
    assert await value_of(tab, "undefined") == {"value": None, "type": "undefined"}
    assert await value_of(tab, "null") == {"value": None, "type": "null"}
    assert await value_of(tab, "0 / 0") == {"value": None, "type": "number",
                                            "unserializable": "NaN"}
    assert await value_of(tab, "2n ** 70n") == {"value": str(2 ** 70), "type": "bigint"}
    assert (await value_of(tab, "new Date(0)"))["value"] == "1970-01-01T00:00:00.000Z"


async def test_what_has_no_json_form_fails_saying_what_it_is(
        tab: Tab, server: FixtureServer, allowed: Browser) -> None:
    await open_page(tab, server, "/controlled.html")
    cases = {
        "document.getElementById('save')": "a DOM node (<button#save>)",
        "({list: [document.body]})": 'its "0" is a DOM node (<body>)',
        "(() => { const a = {}; a.self = a; return a; })()": "cycle",
        "() => 1": "a function",
        "window": "a window",
        "'x'.repeat(200000)": "a string of 200000 characters, more than the 100000",
        "Array(60000).fill('ab')": "more than the 100000",
    }
    for expression, expected in cases.items():
        result = await evaluate(tab, expression)
        assert result.failed is not None, expression
        assert result.failed.code == "EVALUATE_FAILED", (expression, result.failed)
        assert expected in result.failed.error, (expression, result.failed.error)


async def test_thrown_errors_and_a_busy_loop_fail_the_step_with_their_message(
        tab: Tab, server: FixtureServer, allowed: Browser) -> None:
    await open_page(tab, server, "/controlled.html")
    thrown = await evaluate(tab, "missingFunction()")
    assert thrown.failed is not None and thrown.failed.code == "EVALUATE_FAILED"
    assert thrown.failed.error.startswith("ReferenceError: missingFunction is not defined")
    rejected = await evaluate(tab, "Promise.reject(new Error('nope'))")
    assert rejected.failed is not None and "Error: nope" in rejected.failed.error
    looping = await evaluate(tab, "while (true) {}", timeoutMs=500)
    assert looping.failed is not None and looping.failed.code == "EVALUATE_FAILED"
    assert "did not finish" in looping.failed.error
    # The page is still there and answers.
    assert await value_of(tab, "1 + 1") == {"value": 2, "type": "number"}
