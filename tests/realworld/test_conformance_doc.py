"""docs/CONFORMANCE.md keeps up with the corpus: every scenario of this run has its row (the
table is written by tools/conformance.py from a run; a scenario added without rewriting it, or
one renamed, fails here)."""

from __future__ import annotations

import pytest

from tests.realworld.conftest import ROOT, corpus_mark
from tools.conformance import escape_cell, table


def test_every_scenario_has_its_row_in_the_conformance_doc(request: pytest.FixtureRequest
                                                           ) -> None:
    doc = (ROOT / "docs" / "CONFORMANCE.md").read_text()
    scenarios = [s for s in map(corpus_mark, request.session.items) if s is not None]
    missing = [f"{s['library']}: {s['widget']}" for s in scenarios
               if f"| {escape_cell(s['library'])} | {escape_cell(s['widget'])} |" not in doc]
    assert not missing, ("rows missing from docs/CONFORMANCE.md (run the corpus, then "
                         f"tools/conformance.py): {missing}")


def test_the_table_says_what_each_scenario_checked_and_how_it_ended() -> None:
    rows = table([
        {"library": "Vue 3", "widget": "v-model.lazy | commit", "covers": ["act", "delta"],
         "outcome": "passed", "note": ""},
        {"library": "Bootstrap 5", "widget": "modal", "covers": ["read"], "outcome": "failed",
         "note": "fades in"}]).splitlines()
    assert rows[0].startswith("2 scenarios on 2 libraries; 1 passed.")
    assert rows[4] == "| Bootstrap 5 | modal | ✗ | · | · | fades in |"  # libraries sorted
    assert rows[5] == "| Vue 3 | v-model.lazy \\| commit | · | ✓ | ✓ |  |"
