"""tools/soak.py runs, reports and checks what it should, at a small count (so it never rots)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.paths import ROOT

SOAK = ROOT / "tools" / "soak.py"


@pytest.mark.slow
@pytest.mark.browser
def test_soak_script_runs_a_short_soak_and_reports_memory() -> None:
    # One of each kind of act. At 6 acts the ratio says nothing about leaks (warm-up
    # dominates): allow any.
    done = subprocess.run([sys.executable, str(SOAK), "--acts", "6", "--tabs", "1",
                           "--every", "3", "--max-ratio", "1000", "--json"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["ok"] and report["acts"] == 6 and report["failed_acts"] == 0
    assert report["leaks"] == [] and report["events_dropped"] == 0
    assert [point["acts"] for point in report["checkpoints"]] == [0, 3, 6]
    assert report["baseline_acts"] == 3
    assert report["python_rss_kb"]["baseline"] > 10_000
    assert report["chromium_rss_kb"]["final"] > 10_000
    assert report["python_rss_ratio"] > 0 and report["chromium_rss_ratio"] > 0


def test_soak_script_help() -> None:
    done = subprocess.run([sys.executable, str(SOAK), "--help"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "--acts" in done.stdout and "--max-ratio" in done.stdout
