"""Isolated browser contexts (browser/contexts.py) in a real Chromium: what one context sets the
others and the default context do not see (through the page and through CDP), the context goes
with its last page however it closes, popups stay in their opener's context, and the CLI, MCP
and pool doors open tabs in contexts of their own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest
import trio

from cdpseq import Browser, LaunchedChromium, Tab, open_pool, read_page
from cdpseq.cdp import runtime, target
from cdpseq.front.driver import Driver
from cdpseq.front.mcp_tools import Tools
from cdpseq.wire.connection import Connection, open_connection
from fixtures.server import FixtureServer
from tests.helpers import js, ref, run

TIMEOUT = 60
PAGE = "context-login.html"


def sign_in(server: FixtureServer, user: str) -> list[dict[str, Any]]:
    return [{"type": "navigate", "url": server.url(PAGE)},
            {"type": "fill", "selector": "#email", "value": user},
            {"type": "click", "selector": "#sign-in"},
            {"type": "wait_for", "text": f"Signed in as {user}"}]


async def contexts_listed(connection: Connection) -> set[str]:
    return set((await connection.send(target.GetBrowserContexts())).browserContextIds)


async def cookies(connection: Connection, context_id: str | None = None) -> dict[str, str]:
    """The cookies of the fixture server's origin in a context (the default one for None)."""
    found = await connection.execute(
        "Storage.getCookies", {} if context_id is None else {"browserContextId": context_id})
    return {c["name"]: c["value"] for c in found["cookies"] if c["domain"] == "127.0.0.1"}


async def disposed(connection: Connection, context_id: str) -> bool:
    """Whether the browser stops listing ``context_id`` within 10 s (a sweep after a close
    the page made is a task of its own)."""
    with trio.move_on_after(10):
        while context_id in await contexts_listed(connection):
            await trio.sleep(0.05)
        return True
    return False


@pytest.fixture
async def raw(chromium: LaunchedChromium) -> AsyncIterator[Connection]:
    """A connection of its own, which disposes nothing: what it sees, cdpseq did."""
    async with open_connection(chromium.ws_url) as connection:
        yield connection


async def test_isolated_tabs_share_no_cookies_or_storage(
        browser: Browser, server: FixtureServer, tab: Tab, raw: Connection) -> None:
    first = await browser.new_tab(isolated=True)
    second = await browser.new_tab(isolated=True)
    assert len({first.context_id, second.context_id, tab.context_id}) == 3
    assert {first.context_id, second.context_id} <= await contexts_listed(raw)

    signed = await run(first, *sign_in(server, "ann@example.test"), returnMode="delta")
    assert "Signed in as ann@example.test" in json.dumps(msgspec.to_builtins(signed))
    await run(second, {"type": "navigate", "url": server.url(PAGE)})
    await run(tab, {"type": "navigate", "url": server.url(PAGE)})
    for other in (second, tab):  # through the page
        assert await js(other, "document.cookie") == ""
        assert await js(other, "localStorage.getItem('user')") is None
        assert "Cookies: none; stored: none" in await js(other, "document.body.innerText")
    assert await js(first, "localStorage.getItem('user')") == "ann@example.test"
    # and through CDP, context by context
    assert (await cookies(raw, first.context_id)).get("sid") == "ann%40example.test"
    assert "sid" not in await cookies(raw, second.context_id)
    assert "sid" not in await cookies(raw)

    # read, act, settle and delta in the second context, unaffected by the first
    view = await read_page(second)
    await run(second, {"type": "fill", "target": ref(view, "Email"), "value": "bob@example.test"},
              {"type": "click", "target": ref(view, "Sign in", "button")})
    assert (await cookies(raw, second.context_id)).get("sid") == "bob%40example.test"
    assert (await cookies(raw, first.context_id)).get("sid") == "ann%40example.test"
    await run(first, {"type": "navigate", "url": server.url(PAGE)})
    assert "Cookies: sid=ann%40example.test; stored: ann@example.test" in await js(
        first, "document.body.innerText")

    # closed through cdpseq: the context goes with its last tab, before close_tab returns
    await browser.close_tab(first.id)
    assert first.context_id not in await contexts_listed(raw)
    assert second.context_id in await contexts_listed(raw)
    await browser.close_tab(second.id)
    assert second.context_id not in await contexts_listed(raw)


async def test_popup_stays_in_its_context_which_goes_with_the_last_page(
        browser: Browser, server: FixtureServer, raw: Connection) -> None:
    opener = await browser.new_tab(server.url(PAGE), isolated=True)
    assert opener.context_id is not None
    async with browser.subscribe(target.TargetCreated) as created:
        await opener.send(runtime.Evaluate(
            expression=f"window.open({server.url(PAGE)!r}, '_blank', 'popup')", userGesture=True))
        with trio.fail_after(10):
            async for event in created:
                if event.targetInfo.type == "page" and event.targetInfo.openerId == opener.id:
                    popup_id = event.targetInfo.targetId
                    break
    info = (await raw.send(target.GetTargetInfo(targetId=popup_id))).targetInfo
    assert info.browserContextId == opener.context_id

    await browser.close_tab(opener.id)  # the popup is still the context's
    assert opener.context_id in await contexts_listed(raw)
    popup = await browser.tab(popup_id)
    await popup.post(runtime.Evaluate(expression="window.close()"))
    assert await disposed(raw, opener.context_id)


async def test_window_close_of_the_last_tab_disposes_its_context(
        browser: Browser, server: FixtureServer, raw: Connection) -> None:
    isolated = await browser.new_tab(server.url(PAGE), isolated=True)
    assert isolated.context_id in await contexts_listed(raw)
    await isolated.post(runtime.Evaluate(expression="window.close()"))
    assert isolated.context_id is not None and await disposed(raw, isolated.context_id)


async def test_a_context_outlives_the_process_and_a_later_one_disposes_it(
        chromium: LaunchedChromium, server: FixtureServer, raw: Connection) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CDPSEQ_CDP"}

    def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "cdpseq", *args], input=stdin,
                              capture_output=True, text=True, timeout=TIMEOUT, env=env)

    opened = await trio.to_thread.run_sync(lambda: cli(
        "tabs", "new", server.url(PAGE), "--isolated", "--cdp", chromium.endpoint))
    assert opened.returncode == 0, opened.stderr
    tab_id = next(t["id"] for t in json.loads(opened.stdout) if t["current"])
    context_id = (await raw.send(target.GetTargetInfo(targetId=tab_id))).targetInfo \
        .browserContextId
    assert context_id is not None and context_id in await contexts_listed(raw)

    acted = await trio.to_thread.run_sync(lambda: cli(
        "act", "--cdp", chromium.endpoint, "--tab", tab_id, "--steps", "-",
        stdin=json.dumps(sign_in(server, "cli@example.test")[1:])))
    assert acted.returncode == 0, acted.stdout + acted.stderr
    assert (await cookies(raw, context_id)).get("sid") == "cli%40example.test"
    assert "sid" not in await cookies(raw)

    refused = await trio.to_thread.run_sync(lambda: cli(
        "tabs", "select", tab_id, "--isolated", "--cdp", chromium.endpoint))
    assert refused.returncode == 2 and "--isolated" in refused.stderr

    closed = await trio.to_thread.run_sync(lambda: cli(
        "tabs", "close", tab_id, "--cdp", chromium.endpoint))
    assert closed.returncode == 0, closed.stderr
    assert context_id not in await contexts_listed(raw)


async def test_mcp_tabs_new_takes_isolated(browser: Browser, server: FixtureServer,
                                           raw: Connection) -> None:
    tools = Tools(Driver(browser))
    opened = await tools.call("tabs", {"action": "new", "url": server.url(PAGE),
                                       "isolated": True})
    assert not opened.is_error, opened.text
    assert isinstance(opened.structured, dict)
    tab_id = opened.structured["current"]
    context_id = (await raw.send(target.GetTargetInfo(targetId=tab_id))).targetInfo \
        .browserContextId
    assert context_id in await contexts_listed(raw)
    wrong = await tools.call("tabs", {"action": "list", "isolated": True})
    assert wrong.is_error and "isolated" in wrong.text
    await tools.call("tabs", {"action": "close", "tabId": tab_id})
    assert context_id not in await contexts_listed(raw)


async def test_pool_isolate_keeps_each_sequences_login_its_own(
        chromium: LaunchedChromium, server: FixtureServer, raw: Connection) -> None:
    # One at a time, so the second sequence starts after the first signed in: in a shared
    # jar it would find the first one's cookie.
    def sequences(tag: str) -> list[Any]:
        return [sign_in(server, f"first-{tag}@example.test"),
                [{"type": "navigate", "url": server.url(f"{PAGE}?second-{tag}")},
                 *sign_in(server, f"second-{tag}@example.test")[1:]]]

    async def second_request_cookie(tag: str) -> str:
        seen = [r for r in server.requests if r.path.endswith(f"?second-{tag}")]
        assert len(seen) == 1
        return str(seen[0].headers.get("cookie", ""))

    before = await contexts_listed(raw)
    async with open_pool(chromium.ws_url, tabs_per_browser=1, isolate=True) as pool:
        results = await pool.run(sequences("isolated"))
    assert [result.ok for result in results] == [True, True]
    assert "sid" not in await second_request_cookie("isolated")
    assert await contexts_listed(raw) == before  # each went with its tab
    assert "sid" not in await cookies(raw)

    env = {k: v for k, v in os.environ.items() if k != "CDPSEQ_CDP"}
    done = await trio.to_thread.run_sync(lambda: subprocess.run(
        [sys.executable, "-m", "cdpseq", "pool", "--isolate", "--tabs-per-browser", "1",
         "--cdp", chromium.ws_url, "--requests", "-"], input=json.dumps(sequences("cli")),
        capture_output=True, text=True, timeout=TIMEOUT, env=env))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "sid" not in await second_request_cookie("cli")
    assert await contexts_listed(raw) == before

    try:  # the same without isolate: the cookie is shared, so the check above can fail
        async with open_pool(chromium.ws_url, tabs_per_browser=1) as pool:
            results = await pool.run(sequences("shared"))
        assert [result.ok for result in results] == [True, True]
        assert "sid=first-shared%40example.test" in await second_request_cookie("shared")
    finally:  # leave the session's default context as it was
        await raw.execute("Storage.setCookies", {"cookies": [
            {"name": "sid", "value": "", "url": server.url("/"), "expires": 1}]})
