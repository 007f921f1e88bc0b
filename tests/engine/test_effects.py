"""What each step caused beyond the DOM, in real Chromium: console errors, uncaught exceptions,
failed requests, downloads, popups, dialogs, each on the step that caused it; caps; secrets;
the logs step."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import msgspec

from cdpseq import Tab, act
from fixtures.server import FixtureServer
from tests.helpers import js, run


def _effects(result: Any, index: int) -> dict[str, Any]:
    row = msgspec.to_builtins(result.steps[index])
    return row.get("effects", {})  # type: ignore[no-any-return]


async def _open(tab: Tab, server: FixtureServer) -> None:
    await run(tab, {"type": "navigate", "url": server.url("/effects.html")})


async def test_each_effect_is_on_the_step_that_caused_it(
        tab: Tab, server: FixtureServer, tmp_path: Path) -> None:
    await _open(tab, server)
    result = await run(tab, {"type": "click", "selector": "#log"},
                       {"type": "click", "selector": "#save"},
                       {"type": "click", "selector": "#throw"},
                       {"type": "click", "selector": "#download"},
                       downloadDir=str(tmp_path / "made" / "by the browser"))
    first, second, third, fourth = (_effects(result, i) for i in range(4))
    assert first == {"console": [{"level": "error", "text": "step zero failed: widget missing",
                                  "source": server.url("/effects.html") + ":23"}]}
    assert second == {"requests": [{"method": "POST", "status": 500,
                                    "url": server.url("/api/status?code=***&session=***")}]}
    assert list(third) == ["console"] and len(third["console"]) == 1
    assert third["console"][0]["level"] == "error"
    assert third["console"][0]["text"].startswith("Uncaught Error: kaboom in a handler")
    assert list(fourth) == ["downloads"]
    download = fourth["downloads"][0]
    assert download["suggestedFilename"] == "effects.txt"
    # The settle after the last step is the last step's: a small file finishes within it.
    assert download["finished"] is True
    saved = Path(download["path"])
    assert saved.parent == tmp_path / "made" / "by the browser"
    assert os.path.getsize(saved) == download["bytes"] > 0  # noqa: ASYNC240
    with open(saved, "rb") as file:  # noqa: ASYNC230 - a small local file
        assert file.read().startswith(b"cdpseq fixture download: effects.txt")
    # The act-level download is the same, with its path.
    assert msgspec.to_builtins(result.download)["path"] == download["path"]


async def test_caps_hold_on_a_flood(tab: Tab, server: FixtureServer) -> None:
    await _open(tab, server)
    result = await run(tab, {"type": "click", "selector": "#flood"})
    caused = _effects(result, 0)
    assert [e["text"] for e in caused["console"]] == [f"flood {i}" for i in range(5)]
    assert caused["consoleMore"] == 995
    assert len(json.dumps(caused)) < 1000


async def test_secrets_are_scrubbed_from_messages_and_urls(
        tab: Tab, server: FixtureServer) -> None:
    await _open(tab, server)
    secret = "hunter2-very-secret"
    result = await act(tab, {"steps": [
        {"type": "fill", "selector": "#token", "credentialRef": "token"},
        {"type": "click", "selector": "#echo"},
        {"type": "logs", "since": "act"}]}, secrets={"token": secret})
    assert result.ok, msgspec.to_builtins(result)
    # The page really logged and sent the secret: cdpseq only hides it.
    assert await js(tab, "document.getElementById('token').value") == secret
    caused = _effects(result, 1)
    assert caused["console"][0]["level"] == "warning"
    assert caused["console"][0]["text"].startswith("token is ")
    assert caused["requests"][0]["status"] == 404
    assert caused["requests"][0]["url"].endswith("?code=***&token=***")
    assert secret not in json.dumps(msgspec.to_builtins(result))


async def test_quiet_steps_report_nothing_and_popups_and_dialogs_are_theirs(
        tab: Tab, server: FixtureServer) -> None:
    await _open(tab, server)
    result = await run(tab, {"type": "click", "selector": "#chatty"},
                       {"type": "click", "selector": "#popup"},
                       {"type": "click", "selector": "#alert"})
    assert "effects" not in msgspec.to_builtins(result.steps[0])  # info and a 200: no news
    opened = _effects(result, 1)["newTabs"]
    assert opened == [tab_.id for tab_ in result.new_tabs or []] and len(opened) == 1
    assert _effects(result, 2) == {"dialogs": ["alert: hi there"]}
    await tab.browser.close_tab(opened[0])


async def test_logs_step_filters(tab: Tab, server: FixtureServer) -> None:
    await _open(tab, server)
    await run(tab, {"type": "click", "selector": "#chatty"},
              {"type": "click", "selector": "#log"},
              {"type": "click", "selector": "#save"})
    result = await run(tab, {"type": "logs"},
                       {"type": "logs", "level": "error"},
                       {"type": "logs", "minStatus": 400},
                       {"type": "logs", "url": "/effects.html"},
                       {"type": "logs", "since": "last_act"})
    every, errors, failed, found, since = (r.output for r in result.steps)
    assert {"level": "info", "text": "hello info",
            "source": server.url("/effects.html") + ":33"} in every["console"]
    assert any(r.get("status") == 500 for r in every["requests"])
    assert errors["console"] == [{"level": "error", "text": "step zero failed: widget missing",
                                  "source": server.url("/effects.html") + ":23"}]
    assert [r["status"] for r in failed["requests"]] == [500]
    assert [r["url"] for r in errors["requests"]] == [r["url"] for r in every["requests"]]
    assert found["requests"] == [{"method": "GET", "url": server.url("/effects.html"),
                                  "status": 200}]
    assert found["console"] == [e for e in every["console"]
                                if "/effects.html" in e.get("source", "")]
    assert since == {"console": [], "requests": []}


async def test_a_bad_logs_step_is_refused(tab: Tab) -> None:
    result = await act(tab, {"steps": [{"type": "logs", "minStatus": 99}]})
    assert result.failed is not None and result.failed.code == "INVALID_REQUEST"
    assert "minStatus" in result.failed.error


def test_download_dir_default_is_in_the_state_dir() -> None:
    from cdpseq.engine.tab_network import download_dir
    from cdpseq.wire.managed import state_dir
    assert download_dir(None) == str(state_dir() / "downloads")
    assert download_dir("rel") == os.path.abspath("rel")
