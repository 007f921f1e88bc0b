"""The real-component corpus: apps written here on widget libraries from the npm registry
(``fixtures/realworld``, installed from its lockfile and built by ``tools/setup``), served by the
fixture server under ``/realworld/``.

Every scenario carries a ``corpus`` mark — ``@pytest.mark.corpus(library, widget, covers)``,
``covers`` naming what it checks of ``read``, ``act`` and ``delta`` — and its outcome is written
to ``build/conformance.json`` at the end of the run; ``tools/conformance.py`` turns that file
into the table of ``docs/CONFORMANCE.md``.
"""

from __future__ import annotations

import json
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from fixtures.server import REALWORLD_DIST

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "build" / "conformance.json"
ASPECTS = ("read", "act", "delta")

_outcomes: dict[str, dict[str, Any]] = {}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "corpus(library, widget, covers, note=''): a real-component scenario, for "
        "docs/CONFORMANCE.md; covers is a space-separated subset of 'read act delta'")


def corpus_mark(item: pytest.Item) -> dict[str, Any] | None:
    """The scenario an item is, from its corpus mark (None for other tests)."""
    mark = item.get_closest_marker("corpus")
    if mark is None:
        return None
    library, widget, covers = mark.args
    aspects = covers.split()
    if not aspects or set(aspects) - set(ASPECTS):
        raise pytest.UsageError(f"{item.nodeid}: covers must name some of {ASPECTS}, "
                                f"not {covers!r}")
    return {"library": library, "widget": widget, "covers": aspects,
            "note": mark.kwargs.get("note", "")}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    scenario = corpus_mark(item)
    if scenario is not None and (report.when == "call" or report.outcome != "passed"):
        previous = _outcomes.get(item.nodeid, {}).get("outcome")
        if previous in (None, "passed"):  # a failure in setup, call or teardown stays
            known = getattr(report, "wasxfail", None)  # an xfail: wrong, and said how
            _outcomes[item.nodeid] = {**scenario, "test": item.nodeid,
                                      "outcome": "xfailed" if known is not None
                                      and report.skipped else report.outcome,
                                      **({"wrong": known} if known else {})}
    return report


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not _outcomes:
        return
    REPORT.parent.mkdir(exist_ok=True)
    REPORT.write_text(json.dumps(sorted(_outcomes.values(), key=lambda o: o["test"]), indent=1))


@pytest.fixture(scope="session", autouse=True)
def corpus_built() -> None:
    """The corpus must be built: a missing build is a failure that says how to make it."""
    if not (REALWORLD_DIST / ".cdpseq-built").is_file():
        pytest.fail("the real-component corpus is not built: run ./tools/setup (it installs "
                    f"fixtures/realworld from its lockfile and builds {REALWORLD_DIST})")
