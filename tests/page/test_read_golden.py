"""read_page answers what it answered before the first read was made faster (issue 28): the
outputs recorded with the earlier code (tests/data/read_golden.json, by tools/read_golden.py) —
refs, names, kinds, states, hints, contexts, order, head — on big pages, widget pages, forms,
shadow roots, frames and the real-component corpus, with both filters and a narrowed read."""

from __future__ import annotations

import json

import pytest

from cdpseq import Browser
from fixtures.server import FixtureServer
from tools.read_golden import PAGES, RECORD, differences, read_outputs

RECORDED = json.loads(RECORD.read_text())


@pytest.mark.parametrize(("path", "ready"), PAGES, ids=[path for path, _ in PAGES])
async def test_reads_answer_as_recorded(browser: Browser, server: FixtureServer, path: str,
                                        ready: str) -> None:
    now = await read_outputs(browser, server.origin, path, ready)
    assert set(now) == {"interactive", "all", "narrowed"}
    assert all(read["elements"] for name, read in now.items() if name != "narrowed")
    assert differences(RECORDED[path], now) == []
