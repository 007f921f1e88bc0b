"""The marks of tests/markers.py, checked on a small run of their own: a test that reaches the
chromium fixture is marked ``browser``; ``slow`` is left out unless asked for; and in a run
without browser tests, a test that starts a Chromium anyway, or asks for the fixture late,
fails and names the mark it lacks (no real Chromium starts)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT

INNER = '''
import subprocess

import pytest

from cdpseq.wire.launch import find_chromium


@pytest.fixture(scope="session")
def chromium():
    return "stands for the session's Chromium"


@pytest.fixture
def tab(chromium):
    return chromium


def test_on_a_tab(tab):
    pass


def test_pure():
    pass


def test_starts_a_chromium_unmarked():
    subprocess.run([find_chromium(), "--version"], capture_output=True, timeout=30)


def test_asks_for_chromium_late(request):
    request.getfixturevalue("chromium")


@pytest.mark.slow
def test_a_bench_run():
    pass
'''


def inner_pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = --strict-markers\n")
    (tmp_path / "test_inner.py").write_text(INNER)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.markers", "-p", "no:cacheprovider",
         "-q", "-rf", "--rootdir", str(tmp_path), "test_inner.py", *args],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
        text=True, timeout=120)


def test_the_chromium_fixture_marks_browser_and_slow_is_left_out_unless_asked_for(
        tmp_path: Path) -> None:
    default = inner_pytest(tmp_path, "--collect-only", "-m", "browser or slow")
    assert "test_inner.py::test_on_a_tab\n\n1/5 tests collected" in default.stdout, (
        default.stdout + default.stderr)
    asked = inner_pytest(tmp_path, "--collect-only", "-m", "browser or slow", "--slow")
    assert ("test_inner.py::test_on_a_tab\ntest_inner.py::test_a_bench_run\n\n2/5 tests "
            "collected") in asked.stdout, asked.stdout + asked.stderr


def test_a_browser_free_run_fails_a_test_that_starts_chromium(tmp_path: Path) -> None:
    done = inner_pytest(tmp_path, "-m", "not browser")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "2 failed, 1 passed, 2 deselected" in done.stdout, done.stdout
    assert ("test_inner.py::test_starts_a_chromium_unmarked started Chromium in a run without "
            "browser tests: mark it 'browser'") in done.stdout, done.stdout
    assert "yet a test asked for chromium: mark it 'browser'" in done.stdout, done.stdout
