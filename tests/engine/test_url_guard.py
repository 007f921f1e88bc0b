"""The URL policy in a real Chromium: navigate steps, new tabs, and where clicks, scripts, forms,
redirects and popups lead. "Another host" is the fixture server under the name localhost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
import trio

from cdpseq import ActResult, Browser, Tab, UrlBlocked, UrlPolicy, act
from fixtures.server import FixtureServer
from tests.helpers import js, run

DENY_LOCALHOST = UrlPolicy(deny_hosts=("localhost",))


async def act_on(tab: Tab, *steps: dict[str, Any], **options: Any) -> ActResult:
    with trio.fail_after(60):
        return await act(tab, {"steps": list(steps), **options})


def errors(result: ActResult) -> list[str | None]:
    return [step.error.code if step.error else None for step in result.steps]


def dump(result: ActResult) -> str:
    return json.dumps(msgspec.to_builtins(result), indent=1)


async def open_policy_page(tab: Tab, server: FixtureServer) -> str:
    url = server.url("/policy.html")
    await run(tab, {"type": "navigate", "url": url})
    return url


def reached_localhost(server: FixtureServer) -> list[str]:
    return [r.path for r in server.requests if r.headers.get("host", "").startswith("localhost")]


async def test_navigate_refuses_what_the_default_policy_refuses(
        tab: Tab, server: FixtureServer) -> None:
    start = await open_policy_page(tab, server)
    for url in ("file:///etc/passwd", "FILE:///etc/passwd", "about:version",
                "data:text/html,<script>document.title='x'</script>"):
        # Refused like an invalid request: nothing of it runs, not even the click before.
        result = await act_on(tab, {"type": "click", "selector": "#same"},
                              {"type": "navigate", "url": url})
        assert result.failed and result.failed.code == "URL_BLOCKED", dump(result)
        assert result.failed.index == 1 and result.completed == 0
        assert [s.status for s in result.steps] == ["not_started"] * 2  # nothing ran
        assert "steps[1].url" in result.failed.error and "nothing ran" in result.failed.error
        assert tab.url == start
    assert result.failed and "data: URLs are refused by default" in result.failed.error
    # Schemes no option allows are refused the same way.
    for url in ("javascript:document.title='x'", " \tJavaScript:alert(1)",
                "chrome://version", "view-source:" + start, "devtools://devtools/x.html",
                "chrome-extension://abc/x.html", "chrome://crash"):
        result = await act_on(tab, {"type": "navigate", "url": url})
        assert result.failed and result.failed.code == "URL_BLOCKED", dump(result)
        assert [s.status for s in result.steps] == ["not_started"] and tab.url == start
    # A control character a URL parser would strip before the scheme is refused before the
    # policy is asked: no url holds one (the field and the character named).
    result = await act_on(tab, {"type": "navigate", "url": " \x01JavaScript:alert(1)"})
    assert result.failed and result.failed.code == "INVALID_REQUEST", dump(result)
    assert "steps[0].url" in result.failed.error and "\\x01" in result.failed.error
    assert not result.steps and tab.url == start
    assert await js(tab, "document.title") == "Policy"


async def test_allowing_file_and_data(browser: Browser, tab: Tab, tmp_path: Path) -> None:
    page = tmp_path / "local.html"
    page.write_text("<title>Local file</title><p>from disk</p>")
    browser.policy = UrlPolicy(allow_file=True)
    await run(tab, {"type": "navigate", "url": page.as_uri()})
    assert await js(tab, "document.title") == "Local file"
    result = await act_on(tab, {"type": "navigate", "url": "data:text/html,<title>D</title>"})
    assert result.failed and result.failed.code == "URL_BLOCKED"  # file: only
    browser.policy = UrlPolicy(allow_data=True)
    await run(tab, {"type": "navigate", "url": "data:text/html,<title>Data</title>"})
    assert await js(tab, "document.title") == "Data"


async def test_new_tab_refuses_before_opening(browser: Browser) -> None:
    before = {info.id for info in await browser.tabs()}
    for url in ("file:///etc/passwd", "data:,x", "chrome://settings"):
        with pytest.raises(UrlBlocked) as raised:
            await browser.new_tab(url)
        assert raised.value.url == url and raised.value.code == "URL_BLOCKED"
    assert {info.id for info in await browser.tabs()} == before


async def test_pages_cannot_lead_to_file_or_data_by_themselves(
        tab: Tab, server: FixtureServer) -> None:
    """Chromium refuses these renderer-initiated navigations before any event: the steps
    complete, the tab stays, nothing of the file shows."""
    start = await open_policy_page(tab, server)
    result = await act_on(tab, {"type": "click", "selector": "#file"},
                          {"type": "click", "selector": "#data"},
                          {"type": "click", "selector": "#file-form button"},
                          {"type": "wait", "ms": 200})
    assert result.ok, dump(result)
    assert result.tab is not None and result.tab.url == start
    assert "root:" not in dump(result)


@pytest.mark.parametrize("selector", ["#other", "#script", "#form button", "#redirect"])
async def test_a_click_that_leads_to_a_denied_host_is_stopped_and_reported(
        browser: Browser, tab: Tab, server: FixtureServer, selector: str) -> None:
    start = await open_policy_page(tab, server)
    browser.policy = DENY_LOCALHOST
    server.clear_requests()
    result = await act_on(tab, {"type": "click", "selector": selector},
                          {"type": "read_page"})
    assert errors(result) == ["URL_BLOCKED", None], dump(result)
    failure = result.steps[0].error
    assert failure and failure.error.startswith("the navigation to http://localhost:") and \
        "on the deny list" in failure.error and f"stayed at {start}" in failure.error
    assert result.tab is not None and result.tab.url == start and result.tab.title == "Policy"
    assert reached_localhost(server) == []
    if selector == "#redirect":  # the allowed first hop went out; the redirect did not
        assert any(r.path.startswith("/api/redirect") for r in server.requests)


async def test_a_late_navigation_blames_the_click_that_started_it(
        browser: Browser, tab: Tab, server: FixtureServer) -> None:
    start = await open_policy_page(tab, server)
    browser.policy = DENY_LOCALHOST
    result = await act_on(tab, {"type": "click", "selector": "#late"},
                          {"type": "wait", "ms": 300}, {"type": "read_page"})
    # Blocked while the wait ran; failFast (the default) stops the sequence there.
    assert errors(result) == ["URL_BLOCKED", None, None], dump(result)
    assert [step.status for step in result.steps] == ["error", "ok", "not_started"]
    assert tab.url == start
    # The last step: blamed during the final settle, even after an earlier failure.
    alone = await act_on(tab, {"type": "click", "selector": "#none", "timeoutMs": 200,
                               "onError": "skip"}, {"type": "click", "selector": "#late"})
    assert errors(alone) == ["NODE_NOT_FOUND", "URL_BLOCKED"], dump(alone)
    assert alone.failed and alone.failed.index == 0  # the first failure stays the one named
    assert tab.url == start


async def test_allow_list_and_a_popup_to_a_host_off_it(
        browser: Browser, tab: Tab, server: FixtureServer) -> None:
    start = await open_policy_page(tab, server)
    browser.policy = UrlPolicy(allow_hosts=(f"127.0.0.1:{server.port}",))
    result = await act_on(tab, {"type": "navigate", "url": f"http://localhost:{server.port}/"})
    assert result.failed and result.failed.code == "URL_BLOCKED", dump(result)
    assert "not on the allow list" in result.failed.error
    before = {info.id for info in await browser.tabs()}
    result = await act_on(tab, {"type": "click", "selector": "#popup"})
    assert errors(result) == ["URL_BLOCKED"], dump(result)
    assert result.steps[0].error and "in a new tab" in result.steps[0].error.error
    with trio.fail_after(10):
        while {info.id for info in await browser.tabs()} != before:
            await trio.sleep(0.05)
    await run(tab, {"type": "click", "selector": "#same"})  # the allowed host still loads
    assert tab.url == server.url("/index.html") and tab.url != start
