"""What a step caused, as the doors show it: the CLI's text rendering and --download-dir, the
MCP server's answer text; an agent reads ``step 1: POST … → 500`` without asking."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import trio

from cdpseq import LaunchedChromium
from fixtures.server import FixtureServer
from tests.front.test_cli_act import act as cli_act
from tests.front.test_cli_act import env  # noqa: F401 - the fixture
from tests.front.test_mcp import TIMEOUT, mcp_server


@pytest.mark.browser
def test_cli_text_shows_each_effect_on_its_step(chromium: LaunchedChromium,
                                                server: FixtureServer, env: dict[str, str],  # noqa: F811
                                                tmp_path: Path) -> None:
    steps = [{"type": "navigate", "url": server.url("/effects.html")},
             {"type": "click", "selector": "#log"},
             {"type": "click", "selector": "#save"},
             {"type": "click", "selector": "#download"},
             {"type": "logs", "level": "error", "minStatus": 400, "since": "act"}]
    done = cli_act(env, chromium, steps, "--format", "text", "--download-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr + done.stdout
    lines = done.stdout.splitlines()
    assert ("  step 1: console.error step zero failed: widget missing (/effects.html:23)"
            in lines)
    assert "  step 2: POST /api/status?code=***&session=*** → 500" in lines
    saved = tmp_path / "effects.txt"
    assert f"↓ download effects.txt → {saved} ({os.path.getsize(saved)} bytes)" in lines
    assert "≡ step 4 logs: 1 console, 1 requests" in lines
    assert "  POST /api/status?code=***&session=*** → 500" in lines
    assert not any(line.startswith("  step 0:") for line in lines)  # the navigation: nothing


@pytest.mark.browser
async def test_mcp_answer_text_shows_the_failed_request(
        tmp_path: Path, chromium: LaunchedChromium, server: FixtureServer) -> None:
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path, "--cdp", chromium.endpoint, structured=False) as served:
            await served.call("tabs", {"action": "new", "url": server.url("/effects.html")})
            reply = await served.call("act", {"steps": [
                {"type": "click", "selector": "#throw"},
                {"type": "click", "selector": "#save"}]})
    assert not reply.is_error, reply.text
    lines = reply.text.splitlines()
    assert "  step 1: POST /api/status?code=***&session=*** → 500" in lines, reply.text
    assert any(line.startswith("  step 0: console.error Uncaught Error: kaboom in a handler")
               for line in lines), reply.text
    assert "s3cr3t" not in json.dumps(reply.wire)
