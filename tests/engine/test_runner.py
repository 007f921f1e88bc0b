"""Sequence control: validation, failFast, onError, retries, limits, timeouts, credentials."""

from __future__ import annotations

import logging

import msgspec
import pytest
import trio

from cdpseq import Browser, Tab, act, read_page
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, run, text_of


async def test_invalid_requests_run_nothing_and_name_the_field(tab: Tab, server: FixtureServer
                                                               ) -> None:
    await open_page(tab, server, "/form-controls.html")
    cases = {
        "steps[1].type": [{"type": "click", "selector": "#inc"}, {"type": "jump"}],
        "steps[1].url": [{"type": "click", "selector": "#inc"}, {"type": "navigate"}],
        "steps[0].selector": [{"type": "click", "target": "ref_1", "selector": "#inc"}],
        "steps[0].clickCount": [{"type": "click", "selector": "#inc", "clickCount": "2"}],
        "steps[0].target": [{"type": "click", "target": "button"}],
    }
    for field, steps in cases.items():
        result = await act(tab, steps)
        assert not result.ok and result.completed == 0 and result.steps == []
        assert result.failed is not None and result.failed.code == "INVALID_REQUEST"
        assert field in result.failed.error, (field, result.failed.error)
    assert await text_of(tab, "#count") == "0"  # the valid first steps never ran


async def test_step_limits(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/status.html")
    eleven = [{"type": "wait", "ms": 0}] * 11
    over_default = await act(tab, eleven)
    assert over_default.failed is not None and over_default.failed.code == "INVALID_REQUEST"
    assert "11" in over_default.failed.error and "10" in over_default.failed.error
    assert (await act(tab, {"steps": eleven, "maxSteps": 11})).ok
    ceiling = await act(tab, {"steps": eleven, "maxSteps": 51})
    assert ceiling.failed is not None and "maxSteps" in ceiling.failed.error
    fifty = await act(tab, {"steps": [{"type": "wait", "ms": 0}] * 50, "maxSteps": 50})
    assert fifty.ok and fifty.completed == 50


async def test_fail_fast_stops_and_lists_the_rest_as_not_started(tab: Tab,
                                                                 server: FixtureServer) -> None:
    await open_page(tab, server, "/form-controls.html")
    result = await act(tab, [
        {"type": "click", "selector": "#inc"},
        {"type": "click", "target": "ref_999999"},
        {"type": "click", "selector": "#inc"},
        {"type": "click", "selector": "#inc"},
    ])
    assert not result.ok and result.completed == 1
    assert [s.status for s in result.steps] == ["ok", "error", "not_started", "not_started"]
    assert result.failed is not None and result.failed.index == 1
    assert result.failed.type == "click" and result.failed.code == "STALE_REF"
    assert await text_of(tab, "#count") == "1"


async def test_without_fail_fast_later_steps_still_run(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/form-controls.html")
    result = await act(tab, {"failFast": False, "steps": [
        {"type": "click", "target": "ref_999999"},
        {"type": "click", "selector": "#inc"},
        {"type": "click", "selector": "#missing", "timeoutMs": 100, "onError": "stop"},
        {"type": "click", "selector": "#inc"},
    ]})
    assert [s.status for s in result.steps] == ["skipped", "ok", "error", "not_started"]
    assert result.steps[0].error.code == "STALE_REF"  # type: ignore[union-attr]
    assert result.failed is not None and result.failed.index == 0
    assert await text_of(tab, "#count") == "1"


async def test_retry_succeeds_on_an_element_that_appears_late(tab: Tab, server: FixtureServer
                                                              ) -> None:
    await run(tab, {"type": "navigate", "url": server.url("/form-controls.html")},
              {"type": "click", "selector": "#later", "timeoutMs": 150, "onError": "retry",
               "retries": 5})
    assert await text_of(tab, "#later-status") == "later clicked"


async def test_retry_reports_attempts_when_it_gives_up(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/status.html")
    result = await act(tab, [{"type": "click", "selector": "#never", "timeoutMs": 50,
                             "onError": "retry", "retries": 2}])
    assert result.failed is not None and result.failed.code == "NODE_NOT_FOUND"
    assert result.steps[0].attempts == 3


async def test_sequence_timeout_bounds_the_whole_call(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/status.html")
    with trio.fail_after(10):
        result = await act(tab, {"timeoutMs": 400, "maxSteps": 3, "steps": [
            {"type": "wait", "ms": 300}, {"type": "wait", "ms": 300},
            {"type": "wait", "ms": 10}]})
    assert [s.status for s in result.steps] == ["ok", "error", "not_started"]
    assert result.failed is not None and result.failed.code == "SEQUENCE_TIMEOUT"


async def test_credentials_never_appear_in_results_or_logs(
        tab: Tab, server: FixtureServer, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    caplog.set_level(logging.DEBUG)
    secret_env, secret_api = "env-s3cr3t-Value", "api-s3cr3t-Value"
    monkeypatch.setenv("CDPSEQ_SECRET_LOGIN_PW", secret_env)
    view = await open_page(tab, server, "/login.html")
    email = next(e.ref for e in view.elements if e.name == "Email")
    result = await act(tab, {"returnMode": "all", "failFast": False, "steps": [
        {"type": "fill", "target": email, "credentialRef": "login_pw"},
        {"type": "read_page", "filter": "all"},
        {"type": "fill", "selector": "#password", "credentialRef": "other"},
        {"type": "fill", "target": "ref_999999", "credentialRef": "other"},
        {"type": "wait_for", "text": secret_api, "timeoutMs": 100},
    ]}, secrets={"other": secret_api})
    assert result.steps[0].status == "ok" and result.steps[2].status == "ok"
    assert await act(tab, [{"type": "wait_for", "selector": "#email"}])  # still usable
    from cdpseq.cdp import runtime

    filled = await tab.send(runtime.Evaluate(
        expression="document.querySelector('#email').value", returnByValue=True))
    assert filled.result.value == secret_env  # it really was filled
    serialized = msgspec.json.encode(result).decode()
    for secret in (secret_env, secret_api):
        assert secret not in serialized
        assert secret not in caplog.text
    assert "login_pw" not in serialized or secret_env not in serialized


async def test_missing_credential_is_an_invalid_request(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/login.html")
    result = await act(tab, [{"type": "fill", "selector": "#password",
                             "credentialRef": "nobody_set_this"}])
    assert result.failed is not None and result.failed.code == "INVALID_REQUEST"
    assert "steps[0].credentialRef" in result.failed.error
    assert "CDPSEQ_SECRET_NOBODY_SET_THIS" in result.failed.error


async def test_act_on_a_closed_tab_fails_with_target_closed(browser: Browser,
                                                            server: FixtureServer) -> None:
    doomed = await browser.new_tab(server.url("/status.html"))
    await browser.close_tab(doomed.id)
    result = await act(doomed, [{"type": "click", "selector": "#click-me"}])
    assert result.failed is not None and result.failed.code == "TARGET_CLOSED"
    assert result.steps[0].status == "error"


async def test_an_alert_never_hangs_a_click(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/settle-alert.html")
    with trio.fail_after(20):
        result = await run(tab, {"type": "click", "selector": "#go"},
                           {"type": "wait_for", "selector": "#done"})
    assert msgspec.to_builtins(result.dialog) == {"type": "alert", "message": "Hello from the page",
                             "handled": "dismissed"}


async def test_a_field_filled_from_a_credential_stays_masked_in_later_reads(
        browser: Browser, tab: Tab, server: FixtureServer) -> None:
    secret = "user-s3cr3t@example.org"
    await open_page(tab, server, "/login.html")
    assert (await act(tab, [{"type": "fill", "selector": "#email", "credentialRef": "user"}],
                          secrets={"user": secret})).ok
    later = await read_page(tab)
    email = next(e for e in later.elements if e.name == "Email")
    assert email.value == "••••" and secret not in later.text
    # Another connection reading the same tab sees it masked too (the registry is shared).
    from cdpseq import open_browser

    async with open_browser(browser.endpoint) as other:
        theirs = await read_page(await other.tab(tab.id))
    assert secret not in msgspec.json.encode(theirs).decode()
    # And a later act that changes the page reports no value for it.
    result = await act(tab, [{"type": "click", "selector": "#sign-in"}])
    assert secret not in msgspec.json.encode(result).decode()


async def test_an_invalid_selector_anywhere_fails_the_request_before_step_0(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/pointer.html")
    result = await act(tab, [{"type": "click", "selector": "#pe-btn"},
                             {"type": "wait_for", "selector": "section >> #pe-span"},
                             {"type": "click", "selector": "button:has(("}])
    assert result.failed is not None and result.failed.code == "INVALID_REQUEST"
    assert result.failed.index == 2 and "steps[2].selector" in result.failed.error
    assert await js(tab, "log.length") == 0  # step 0 never ran


async def test_a_step_uses_its_whole_timeout_before_failing(tab: Tab, server: FixtureServer
                                                            ) -> None:
    await open_page(tab, server, "/pointer.html")
    for timeout in (100, 500):
        result = await act(tab, {"settle": False, "steps": [
            {"type": "click", "selector": "#no-such-thing", "timeoutMs": timeout}]})
        assert result.failed is not None and result.failed.code == "NODE_NOT_FOUND"
        assert result.steps[0].duration_ms >= timeout - 10  # a lower bound only
