"""Pages whose tree is deep (10,000 levels) or huge (200,000 elements), built by the page's
own script: an act and a read on them end within their bounds with a result or a typed error
whose code is in ``ErrorCode`` — never another exception."""

from __future__ import annotations

import typing

import pytest
import trio

from cdpseq import ActResult, CdpseqError, ErrorCode, Tab, act, read_page
from cdpseq.cdp import page
from cdpseq.engine.result import error_code
from fixtures.server import FixtureServer
from tests.faults.common import dump
from tests.helpers import js, text_of

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


async def test_a_renderer_crashing_while_a_navigate_waits_for_the_load_is_target_crashed(
        tab: Tab, server: FixtureServer) -> None:
    # As a tree too deep for Chromium's layout does: the page committed, its load never comes
    # (an image held forever), and the renderer dies. The navigate ends with the crash, not at
    # its timeout as a page still loading ("loadEventPending"); the next navigate revives it.
    outcome: list[object] = []

    async def navigate() -> None:
        outcome.append(await act(tab, {"steps": [
            {"type": "navigate", "url": server.url("/fault-tree.html?held=1")}],
            "perStepTimeoutMs": 20000}))

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(navigate)
            while not any(r.path.startswith("/api/longpoll?held=") for r in server.requests):
                await trio.sleep(0.02)
            try:
                await tab.send(page.Crash())
            except CdpseqError:
                pass  # the crash takes its own answer with it
    [result] = outcome
    assert isinstance(result, ActResult) and result.failed is not None, outcome
    assert result.failed.code == "TARGET_CRASHED" and result.steps[0].status == "error", \
        dump(result)
    assert tab.crashed
    with trio.fail_after(60):
        revived = await act(tab, [{"type": "navigate", "url": server.url("/status.html")},
                                  {"type": "click", "selector": "#click-me"}])
        assert revived.ok, dump(revived)
        assert await text_of(tab, "#status") == "Clicked"


async def test_a_hidden_tree_of_10000_levels_is_read_and_acted_on(
        tab: Tab, server: FixtureServer) -> None:
    # Hidden, the nest gets no layout box, so Chromium's renderer lives (a shown one of 3,000
    # levels kills it, see docs/GUARANTEES.md); what remains is the agent's own walks.
    with trio.fail_after(60):
        result = await act(tab, {"steps": [
            {"type": "navigate", "url": server.url("/fault-tree.html?depth=10000&hidden=1")},
            {"type": "click", "selector": "#top"},
            {"type": "read_page", "filter": "all"},
            {"type": "extract", "selector": "body", "format": "text"}],
            "returnMode": "all"})
    assert result.ok, dump(result)
    assert result.page is not None and any(e.name == "Top" for e in result.page.elements)
    assert await js(tab, "(() => { let n = 0, at = document.getElementById('deepest'); "
                         "while (at = at.parentElement) n++; return n; })()") > 10000
