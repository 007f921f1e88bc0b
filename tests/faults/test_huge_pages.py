"""Pages whose tree is deep (10,000 levels) or huge (200,000 elements), built by the page's
own script: an act and a read on them end within their bounds with a result or a typed error
whose code is in ``ErrorCode`` — never another exception."""

from __future__ import annotations

import typing

import pytest
import trio

from cdpseq import CdpseqError, ErrorCode, Tab, act, read_page
from cdpseq.engine.result import error_code
from fixtures.server import FixtureServer
from tests.faults.common import dump
from tests.helpers import js

_CODES = set(typing.get_args(ErrorCode))


@pytest.mark.parametrize("query", ["depth=10000", "count=200000"])
async def test_a_deep_or_huge_tree_ends_with_a_result_or_a_documented_code(
        tab: Tab, server: FixtureServer, query: str) -> None:
    with trio.fail_after(60):
        result = await act(tab, {"steps": [
            {"type": "navigate", "url": server.url(f"/fault-tree.html?{query}")},
            {"type": "click", "selector": "#top"},
            {"type": "read_page", "filter": "all"}], "returnMode": "final"})
    if not result.ok:
        assert result.failed is not None and result.failed.code in _CODES, dump(result)
    else:  # the page really is that big, and the read saw it
        assert await js(tab, "document.querySelectorAll('*').length") > 200000
        assert result.page is not None and len(result.page.elements) > 100
    with trio.fail_after(30):
        try:
            view = await read_page(tab, "all")
        except CdpseqError as exc:
            assert error_code(exc) in _CODES, repr(exc)
        else:
            assert any(element.name == "Top" for element in view.elements)
