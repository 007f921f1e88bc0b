"""The fuzz tests' Hypothesis profile, and the count of examples each ran.

The profile is deterministic (``derandomize=True``: the same examples on every run, so CI
cannot flake on a lucky draw), keeps no example database, and has no per-example deadline: the
browser-backed properties bound every call themselves (``trio.fail_after``, subprocess
timeouts). ``CDPSEQ_FUZZ_SCALE`` multiplies every property's example count (e.g. 10 for a
longer local run); ``HYPOTHESIS_PROFILE=cdpseq-random`` draws new examples each run.

At the end of the session pytest prints how many examples each property ran and what they
ended as (``fuzz examples`` in the summary).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.fuzz.counts import COUNTS, summary_lines

_COMMON = {
    "deadline": None,
    "database": None,
    "print_blob": True,
    # Huge strings and deep nesting are slow to generate by design; fixtures are long-lived.
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large,
                              HealthCheck.large_base_example,
                              HealthCheck.function_scoped_fixture],
}
settings.register_profile("cdpseq", derandomize=True, **_COMMON)
settings.register_profile("cdpseq-random", derandomize=False, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "cdpseq"))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not COUNTS:
        return
    terminalreporter.section("fuzz examples")
    for line in summary_lines():
        terminalreporter.write_line(line)
