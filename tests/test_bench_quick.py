"""tools/bench/all.py --quick runs every scenario once and reports each (so it never rots).

Playwright is optional: with it the peer's rows must be measured, without it the peer must be
reported absent. The concurrency levels are small here (the code path, not the scale)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from tests.paths import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.browser]

BENCH = ROOT / "tools" / "bench" / "all.py"
SCENARIO_ROWS = ("click step", "click act", "fill step", "fill act", "idle click act",
                 "100-row click act", "10k-row click act", "read first", "read unchanged",
                 "read changed",
                 "settle login", "settle chained", "settle oopif", "login 1 tab",
                 "concurrent 2 total", "concurrent 2 per sequence", "concurrent 3 total")
PEER_ROWS = ("click act", "fill act", "idle click act", "settle login", "concurrent 2 total")


def test_bench_quick_runs_every_scenario_once() -> None:
    done = subprocess.run([sys.executable, str(BENCH), "--quick", "--tabs", "2", "3", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    result = json.loads(done.stdout)
    rows = {row["scenario"]: row for row in result["rows"]}
    for name in SCENARIO_ROWS:
        assert rows[name]["cdpseq"]["n"] >= 1, name
    pool = [name for name in rows if name.startswith("pool ")]
    assert len(pool) == 2 and all(rows[name]["cdpseq"]["n"] == 1 for name in pool)
    # The acts did what they were asked (a premature settle would be counted as a problem).
    for name in ("click act", "fill act", "login 1 tab", "concurrent 3 total", *pool):
        assert rows[name]["cdpseq"]["problems"] == 0, rows[name]
    assert rows["click act"]["cdpseq"]["cpu_ms_per_op"] > 0
    assert result["memory"]["acts"] > 20 and result["memory"]["after"]["python_rss_kb"] > 0
    if importlib.util.find_spec("playwright") is not None:
        assert result["environment"]["peer"], result["note"]
        for name in PEER_ROWS:
            assert rows[name]["peer"]["n"] >= 1 and rows[name]["ratio"] is not None, name
    else:
        assert result["environment"]["peer"] is None and "absent" in result["note"]
        assert all(row["peer"] is None for row in result["rows"])
