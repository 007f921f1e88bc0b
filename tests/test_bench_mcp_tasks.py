"""tools/bench/mcp_servers.py --only tasks, one round, so that the five-task comparison never rots.

Through cdpseq's MCP server every task must reach its outcome in the calls planned for it (one
call to open and read the page, one act per turn: no act's answer left the outcome out, so no
wait and read was needed after it). Each peer that ``./tools/setup --bench`` installed must
reach every outcome too; a peer not installed is skipped, as the bench leaves it out."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from tests.paths import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # servers launch their own Chromium

BENCH = ROOT / "tools" / "bench" / "mcp_servers.py"
CDPSEQ_CALLS = {"login": 2, "todo-lit": 3, "todo-wc": 3, "validation": 2, "chained": 2}


def _tasks(server: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(BENCH), "--only", "tasks", "--server", server,
                           "--rounds", "1", "--warmup", "0", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_cdpseq_does_the_five_tasks_in_the_planned_calls() -> None:
    rows = _tasks("cdpseq")["tasks"]["servers"]["cdpseq"]["tasks"]
    for task, calls in CDPSEQ_CALLS.items():
        row = rows[task]
        assert row["ok"] == 1, (task, row["failures"])
        assert row["calls"] == calls, (task, row)
        assert row["bytes"] > row["text_bytes"] > 0, (task, row)
    assert rows["total"]["ok"] == 1 and rows["total"]["calls"] == sum(CDPSEQ_CALLS.values())


@pytest.mark.parametrize("peer", ["Playwright MCP", "Chrome DevTools MCP"])
def test_a_peer_does_the_five_tasks_or_is_left_out_saying_how_to_install_it(peer: str) -> None:
    result = _tasks(peer)
    if peer in result["absent"]:  # ./tools/setup without --bench: the bench says so, runs none
        assert "./tools/setup --bench" in result["absent"][peer], result["absent"]
        assert peer not in result.get("tasks", {}).get("servers", {}), result
        return
    rows = result["tasks"]["servers"][peer]["tasks"]
    for task in CDPSEQ_CALLS:
        assert rows[task]["ok"] == 1, (task, rows[task]["failures"])
        assert rows[task]["calls"] >= 3 and rows[task]["bytes"] > 0, (task, rows[task])
