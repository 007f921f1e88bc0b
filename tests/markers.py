"""The ``browser`` and ``slow`` marks, and the guard that keeps the split between them honest.

``browser``: the test needs a Chromium. A test whose fixtures reach ``chromium`` (``browser``,
``tab`` and every fixture built on them do) is marked here; a test that starts one itself —
``launch_chromium``, ``cdpseq launch``, ``cdpseq mcp --launch`` — carries the mark in its module.

``daemon_free``: a test in one of the CLI's modules (``CLI_MODULES``, tests/conftest.py) that
runs no command the CLI's daemon serves: only ``cdpseq mcp``, ``launch``, ``pool`` or ``close``
(always in their own process, ``client.IN_PROCESS``), the Python API or no process at all. It
runs once rather than once per ``cli_mode``: both would run the same code.

``slow``: a bench or soak run, minutes long. Left out of a run unless ``--slow`` is given
(``./tools/test`` gives it, so CI runs everything).

The guard: a run with no ``browser`` test in it (``pytest -m "not browser"``, or a file of pure
tests) puts a stand-in Chromium first on ``PATH`` and in ``CHROME_PATH``, inherited by every
subprocess. Whatever starts it fails the test that did, saying which mark is missing, so a test
that needs a browser cannot hide in the fast loop.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Generator
from pathlib import Path

import pytest

BROWSER_FIXTURES = frozenset({"chromium"})
"""The fixtures that start a Chromium; any fixture that needs a browser depends on one."""

# The names find_chromium looks up on PATH (cdpseq/wire/launch.py), all of them the stand-in.
_CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable",
                   "chrome")
_STAND_IN = """#!/bin/sh
echo "$0" >> '{record}'
echo "a browser-free test run started Chromium: mark the test 'browser' (tests/markers.py)" >&2
exit 97
"""


class _Guard:
    """Where the stand-in records each start, and how many the last test phase had seen."""

    def __init__(self) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="cdpseq-no-browser-"))
        self.record = self.directory / "started"
        self.record.touch()
        for name in _CHROMIUM_NAMES:
            script = self.directory / name
            script.write_text(_STAND_IN.format(record=self.record))
            script.chmod(script.stat().st_mode | stat.S_IXUSR)
        self.seen = 0

    def new_starts(self) -> list[str]:
        lines = self.record.read_text().splitlines()
        new, self.seen = lines[self.seen:], len(lines)
        return new


_guard: _Guard | None = None


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true",
                     help="also run the tests marked slow (bench and soak runs)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: needs a Chromium (deselect with "
                            "-m 'not browser' for the fast loop, docs/DEVELOPMENT.md)")
    config.addinivalue_line("markers", "daemon_free: runs no command the CLI's daemon serves, "
                            "so once, not once per cli_mode (tests/conftest.py)")
    config.addinivalue_line("markers", "slow: a bench or soak run, left out unless --slow "
                            "(./tools/test passes it)")


def pytest_report_header(config: pytest.Config) -> str | None:
    if config.getoption("slow"):
        return None
    return "slow tests (bench and soak runs) left out: pass --slow, or run ./tools/test"


@pytest.hookimpl(tryfirst=True)  # before -m deselects by mark
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
    if config.getoption("slow"):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]


def pytest_collection_finish(session: pytest.Session) -> None:
    global _guard
    if session.config.option.collectonly or any(
            item.get_closest_marker("browser") is not None for item in session.items):
        return
    _guard = _Guard()
    os.environ["CHROME_PATH"] = str(_guard.directory / "chromium")
    os.environ["PATH"] = f"{_guard.directory}{os.pathsep}{os.environ.get('PATH', '')}"


def pytest_fixture_setup(fixturedef: pytest.FixtureDef[object]) -> None:
    """A browser fixture asked for in a browser-free run (``request.getfixturevalue``, which
    the marking cannot see) fails at once rather than starting the stand-in."""
    if _guard is not None and fixturedef.argname in BROWSER_FIXTURES:
        pytest.fail(f"this run has no 'browser' test, yet a test asked for {fixturedef.argname}: "
                    "mark it 'browser' (tests/markers.py)")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if _guard is not None and (starts := _guard.new_starts()):
        report.outcome = "failed"
        report.longrepr = (f"{item.nodeid} started Chromium in a run without browser tests: "
                           f"mark it 'browser' (tests/markers.py); it ran {', '.join(starts)}\n\n"
                           f"{report.longrepr or ''}")
    return report


def pytest_unconfigure(config: pytest.Config) -> None:
    if _guard is not None:
        for path in _guard.directory.iterdir():
            path.unlink()
        _guard.directory.rmdir()
