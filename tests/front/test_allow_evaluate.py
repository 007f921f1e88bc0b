"""--allow-evaluate (issue 13): `cdpseq act` and `cdpseq mcp` run evaluate steps only with it;
without it, a request with one answers EVALUATE_DISABLED and nothing of it runs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import trio

from cdpseq import LaunchedChromium
from cdpseq.front.cli_args import build_parser
from cdpseq.front.mcp_server import ServeOptions
from fixtures.server import FixtureServer
from tests.front.test_cli_act import act, env, evaluate, open_tab, parse_result
from tests.front.test_mcp import TIMEOUT, mcp_server

__all__ = ["env", "open_tab"]  # the fixtures, used by name

STEPS = [{"type": "fill", "selector": "#name", "value": "Ada"},
         {"type": "evaluate", "expression": "window.appState.name"}]


def test_cli_act_refuses_evaluate_without_the_flag_and_runs_it_with(
        chromium: LaunchedChromium, env: dict[str, str],
        open_tab: Callable[[str], str]) -> None:
    tab_id = open_tab("/controlled.html")
    refused = act(env, chromium, STEPS, "--tab", tab_id)
    assert refused.returncode == 1, refused.stdout + refused.stderr
    result = parse_result(refused.stdout)
    assert result["failed"]["code"] == "EVALUATE_DISABLED" and result["completed"] == 0
    assert evaluate(chromium, tab_id, "document.getElementById('name').value") == ""
    allowed = act(env, chromium, STEPS, "--tab", tab_id, "--allow-evaluate")
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    result = parse_result(allowed.stdout)
    # The evaluate step's value is in the result even with returnMode final.
    assert result["steps"][1]["output"] == {"value": "Ada", "type": "string"}


@pytest.mark.daemon_free
async def test_mcp_runs_evaluate_when_served_with_the_flag(
        tmp_path: Path, server: FixtureServer, chromium: LaunchedChromium) -> None:
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path, "--cdp", chromium.endpoint, "--allow-evaluate"
                              ) as served:
            opened = await served.call("tabs", {"action": "new",
                                                "url": server.url("/controlled.html")})
            assert not opened.is_error, opened.text
            reply = await served.call("act", {"steps": STEPS})
            result = reply.structured
            assert result["ok"], reply.text
            assert result["steps"][1]["output"] == {"value": "Ada", "type": "string"}
            await served.call("tabs", {"action": "close",
                                       "tabId": opened.structured["current"]})


@pytest.mark.daemon_free
def test_the_flag_is_off_unless_given() -> None:
    parser = build_parser()
    for command in (["act", "--steps", "-"], ["mcp"]):
        assert parser.parse_args(command).allow_evaluate is False
        assert parser.parse_args([*command, "--allow-evaluate"]).allow_evaluate is True
    assert ServeOptions(cdp="9222").allow_evaluate is False
