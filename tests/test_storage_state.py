"""Saved login state (``cdpseq.save_state`` / ``load_state``, ``cdpseq state``, the MCP tabs
tool's save_state/load_state): a login in one Chromium restored in another, the file's mode and
schema, and no value in any output.

The login (``/session-login.html`` → ``/api/session/login``) sets an HttpOnly session cookie and
a localStorage token; ``/api/session/home`` says "Logged in as X" only when the server knows the
cookie and the page finds the token (fixtures/server.py).
"""

from __future__ import annotations

import json
import os
import secrets
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import trio

import cdpseq
from cdpseq import Browser, InvalidRequest, LaunchedChromium, Tab, load_state, save_state
from cdpseq.browser.state_file import parse_state, read_state
from fixtures.server import FixtureServer
from tests.front.test_mcp import mcp_server
from tests.helpers import js, run

pytestmark = pytest.mark.browser  # the must-hold test launches a second Chromium itself

TIMEOUT = 60


async def _login(tab: Tab, server: FixtureServer, user: str) -> tuple[str, str]:
    """Sign ``user`` in through the form; the session cookie and token the server issued."""
    await run(tab, {"type": "navigate", "url": server.url("/session-login.html")},
              {"type": "fill", "selector": "#user", "value": user},
              {"type": "click", "selector": "button"},
              {"type": "wait_for", "text": f"Logged in as {user}"})
    [(sid, token)] = [(sid, token) for sid, (who, token) in server.sessions.items()
                      if who == user]
    return sid, token


async def _home(tab: Tab, server: FixtureServer) -> tuple[str, str, str]:
    """Load the home page; what it says: the page's verdict, the server's, the tab's note."""
    await run(tab, {"type": "navigate", "url": server.url("/api/session/home")})
    return (await js(tab, "document.getElementById('status').textContent"),
            await js(tab, "document.getElementById('server-view').textContent"),
            await js(tab, "document.getElementById('note').textContent"))


async def _cookies(browser: Browser) -> list[dict[str, object]]:
    found = await browser.connection.execute("Storage.getCookies")
    return list(found["cookies"])


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_a_login_saved_in_one_chromium_loads_logged_in_in_another(
        tab: Tab, server: FixtureServer, tmp_path: Path) -> None:
    user = f"ada-{secrets.token_hex(3)}"
    path = tmp_path / "login.json"
    with trio.fail_after(TIMEOUT):
        sid, token = await _login(tab, server, user)
        state = await save_state(tab, path)
    assert _mode(path) == 0o600
    saved = [c for c in state.cookies if c.name == "sid" and c.value == sid]
    assert len(saved) == 1 and saved[0].http_only and saved[0].domain == "127.0.0.1"
    [origin] = [o for o in state.origins if o.origin == server.origin]
    assert {i.name: i.value for i in origin.local_storage}["token"] == token
    assert {i.name: i.value for i in origin.session_storage}["note"] == "draft kept in this tab"
    assert read_state(path) == state  # the file says what the call answered

    with trio.fail_after(TIMEOUT * 2):
        async with cdpseq.launch_browser() as fresh:  # a second Chromium process
            other = await fresh.tab()
            # What the fresh browser holds already: a stale session (same name, domain and
            # path: replaced) and a cookie of its own (kept: loading merges).
            await fresh.connection.execute("Storage.setCookies", {"cookies": [
                {"name": "sid", "value": "stale", "url": server.url("/")},
                {"name": "keep", "value": "1", "url": server.url("/")}]})
            assert await _home(other, server) == ("Not signed in", "no session", "")
            server.clear_requests()
            summary = await load_state(other, path)
            assert summary.cookies == len(state.cookies)
            # The storage pages never reached the site: only the tab's own page, loaded again.
            assert all(r.path == "/api/session/home" for r in server.requests)
            status, server_view, note = await _home(other, server)
            jar = {(c["name"], c["domain"], c["path"]): c["value"]
                   for c in await _cookies(fresh)}
    assert (status, server_view) == (f"Logged in as {user}", f"cookie of {user}")
    assert note == "draft kept in this tab"  # sessionStorage, restored into the loaded tab
    sent = [r.headers.get("cookie", "") for r in server.requests
            if r.path == "/api/session/home"][-1]
    assert f"sid={sid}" in sent and "keep=1" in sent and "stale" not in sent
    assert jar[("sid", "127.0.0.1", "/")] == sid and jar[("keep", "127.0.0.1", "/")] == "1"


async def test_an_origin_no_tab_shows_is_saved_when_named_and_nothing_reaches_it(
        browser: Browser, server: FixtureServer) -> None:
    other = f"http://localhost:{server.port}"
    planted = secrets.token_hex(8)
    # A context of its own: no other test's tab can show the origin in this one.
    tab = await browser.new_tab(isolated=True)
    try:
        with trio.fail_after(TIMEOUT):
            await run(tab, {"type": "navigate", "url": f"{other}/index.html"})
            await js(tab, f"localStorage.setItem('planted', {planted!r})")
            await run(tab, {"type": "navigate", "url": server.url("/index.html")})
            unnamed = await save_state(tab)
            server.clear_requests()
            named = await save_state(tab, origins=[other])
    finally:
        await browser.close_tab(tab.id)
    assert other not in {o.origin for o in unnamed.origins}
    [kept] = [o for o in named.origins if o.origin == other]
    assert {i.name: i.value for i in kept.local_storage}["planted"] == planted
    assert server.requests == []  # its page was answered by cdpseq, not fetched


def test_a_bad_or_newer_file_is_a_typed_error_naming_the_field(tmp_path: Path) -> None:
    secret = "s3cr3t-" + secrets.token_hex(6)
    cookie = {"name": "sid", "value": secret, "domain": "example.org", "path": "/"}
    cases = {
        "state.version": {"version": 2, "cookies": [cookie]},
        "state.cookies[0].httpOnly": {"version": 1, "cookies": [{**cookie, "httpOnly": "yes"}]},
        "state.origins[0].origin": {"version": 1, "origins": [{"origin": "example.org/x"}]},
        "state.origins[0].localStorage[0].value": {"version": 1, "origins": [
            {"origin": "https://example.org", "localStorage": [{"name": secret, "value": 7}]}]},
        "state": [cookie],
    }
    for field, data in cases.items():
        with pytest.raises(InvalidRequest) as caught:
            parse_state(json.dumps(data).encode())
        assert caught.value.field == field, (field, caught.value)
        assert secret not in str(caught.value)
    with pytest.raises(InvalidRequest) as caught:
        parse_state(b'{"version": 1, "cookies": [')
    assert caught.value.field == "state" and "not JSON" in caught.value.reason
    with pytest.raises(InvalidRequest) as caught:
        parse_state(json.dumps({"version": 1, "cookies": [{**cookie, "colour": 1}]}).encode())
    assert caught.value.field == "state.cookies[0]" and "colour" in caught.value.reason
    playwright = {"cookies": [{**cookie, "expires": -1, "httpOnly": True, "secure": False,
                               "sameSite": "Lax"}],
                  "origins": [{"origin": "https://example.org",
                               "localStorage": [{"name": "token", "value": secret}]}]}
    with pytest.raises(InvalidRequest) as caught:  # a Playwright storageState file...
        parse_state(json.dumps(playwright).encode())
    assert caught.value.field == "state.version" and "Playwright" in caught.value.reason
    state = parse_state(json.dumps({"version": 1, **playwright}).encode())  # ...with a version
    assert state.cookies[0].http_only and state.origins[0].local_storage[0].value == secret
    with pytest.raises(InvalidRequest) as caught:
        read_state(tmp_path / "missing.json")
    assert caught.value.field == "path"


async def test_a_newer_file_loads_nothing(tab: Tab, browser: Browser, tmp_path: Path) -> None:
    path = tmp_path / "newer.json"
    marker = f"newer-{secrets.token_hex(4)}"
    path.write_text(json.dumps({"version": 2, "cookies": [
        {"name": marker, "value": "1", "domain": "example.org", "path": "/"}]}))
    with pytest.raises(InvalidRequest) as caught:
        await load_state(tab, path)
    assert caught.value.field == "state.version"
    assert marker not in {c["name"] for c in await _cookies(browser)}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cdpseq", *args], capture_output=True,
                          text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)


async def test_the_cli_saves_0600_and_prints_no_value(
        tab: Tab, server: FixtureServer, chromium: LaunchedChromium, tmp_path: Path) -> None:
    path = tmp_path / "cli.json"
    path.write_text("{}")
    path.chmod(0o644)  # replaced, not rewritten in place: the new file is 0600 from the start
    with trio.fail_after(TIMEOUT):
        sid, token = await _login(tab, server, f"cli-{secrets.token_hex(3)}")
    where = ("--cdp", chromium.ws_url, "--tab", tab.id)
    saved = await trio.to_thread.run_sync(_cli, "state", "save", str(path), *where)
    assert saved.returncode == 0, saved.stderr
    assert _mode(path) == 0o600 and sid in path.read_text()
    summary = json.loads(saved.stdout)
    assert summary["action"] == "saved" and summary["cookies"] >= 1
    assert server.origin in {o["origin"] for o in summary["origins"]}
    loaded = await trio.to_thread.run_sync(_cli, "state", "load", str(path), *where)
    assert loaded.returncode == 0, loaded.stderr
    assert json.loads(loaded.stdout)["action"] == "loaded"
    newer = tmp_path / "newer.json"
    newer.write_text('{"version": 99}')
    refused = await trio.to_thread.run_sync(_cli, "state", "load", str(newer), *where)
    assert refused.returncode == 2 and "state.version" in refused.stderr
    for done in (saved, loaded, refused):
        output = done.stdout + done.stderr
        assert sid not in output and token not in output, output
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".cdpseq-state-")]


async def test_the_mcp_tabs_tool_saves_and_loads_without_a_value_in_its_answers(
        server: FixtureServer, chromium: LaunchedChromium, tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    user = f"mcp-{secrets.token_hex(3)}"
    with trio.fail_after(TIMEOUT * 2):
        async with mcp_server(tmp_path, "--cdp", chromium.endpoint, name="state") as served:
            opened = await served.call("tabs", {"action": "new",
                                                "url": server.url("/session-login.html")})
            tab_id = opened.structured["current"]
            signed = await served.call("act", {"steps": [
                {"type": "fill", "selector": "#user", "value": user},
                {"type": "click", "selector": "button"},
                {"type": "wait_for", "text": f"Logged in as {user}"}]})
            assert not signed.is_error, signed.text
            saved = await served.call("tabs", {"action": "save_state", "path": str(path)})
            loaded = await served.call("tabs", {"action": "load_state", "path": str(path)})
            relative = await served.call("tabs", {"action": "save_state", "path": "x.json"})
            stray = await served.call("tabs", {"action": "list", "path": str(path)})
            await served.call("tabs", {"action": "close", "tabId": tab_id})
    [(sid, token)] = [(s, t) for s, (who, t) in server.sessions.items() if who == user]
    assert not saved.is_error and not loaded.is_error, (saved.text, loaded.text)
    assert saved.text.startswith("saved ") and server.origin in saved.text
    assert saved.structured["cookies"] >= 1 and _mode(path) == 0o600
    assert sid in path.read_text()
    assert relative.is_error and "INVALID_REQUEST: path: must be absolute" in relative.text
    assert stray.is_error and "path: only applies" in stray.text
    log = (tmp_path / "state.log").read_text()
    for answer in (saved.text, json.dumps(saved.structured), loaded.text,
                   json.dumps(loaded.structured), log):
        assert sid not in answer and token not in answer
