"""Property: the Python API answers hostile requests on a real tab with a result of the result
schema (or INVALID_REQUEST naming the field) within a bound, and the tab stays usable.

One browser connection and one tab serve every example (``tests.fuzz.live``). Requests that
validate really run, on the fixture pages, with a small ``timeoutMs`` so that each ends fast.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cdpseq import (
    Browser,
    InvalidRequest,
    LaunchedChromium,
    PageView,
    Tab,
    act,
    open_browser,
    parse_request,
    read_page,
)
from fixtures.server import FixtureServer
from tests.fuzz.checks import check_result
from tests.fuzz.counts import count, examples
from tests.fuzz.live import Live, live
from tests.fuzz.strategies import JUNK, THROWING_SELECTORS, act_requests

PAGES = ["/status.html", "/login.html", "/form-controls.html", "/shadow.html", "/frames.html",
         "/fields.html"]
# timeoutMs is at most 1.5 s in these requests; the rest is room for a loaded machine.
ACT_BOUND = 30


@asynccontextmanager
async def _browser_and_tab(endpoint: str) -> AsyncIterator[tuple[Browser, Tab]]:
    async with open_browser(endpoint) as browser:
        tab = await browser.new_tab()
        try:
            yield browser, tab
        finally:
            if tab.closed is None:
                await browser.close_tab(tab.id)


@pytest.fixture(scope="module")
def tab(chromium: LaunchedChromium, server: FixtureServer) -> Iterator[Live[tuple[Browser, Tab]]]:
    with live(lambda: _browser_and_tab(chromium.ws_url)) as opened:
        yield opened


def _urls(server: FixtureServer) -> tuple[str, ...]:
    return tuple(server.url(page) for page in PAGES)


async def _act(resource: tuple[Browser, Tab], raw: Any) -> Any:
    return await act(resource[1], raw)


async def _read(resource: tuple[Browser, Tab], filter: Any, compression: Any) -> PageView:
    return await read_page(resource[1], filter, compression)


def test_act(tab: Live[tuple[Browser, Tab]], server: FixtureServer) -> None:
    @settings(max_examples=examples(150))
    @given(act_requests(_urls(server)))
    def act_property(raw: Any) -> None:
        result = tab.call(ACT_BOUND, _act, raw)
        count("api: act", check_result(result, raw))

    act_property()


def test_selectors_that_throw_in_the_page(tab: Live[tuple[Browser, Tab]]) -> None:
    """Selectors that pass the Python validator but that the page's parser refuses (CSS that
    throws in querySelector, bad role= or nth= parts, empty parts around >>) are the request's
    INVALID_REQUEST naming the selector, before any step runs."""
    @settings(max_examples=examples(40))
    @given(THROWING_SELECTORS, st.sampled_from(["click", "fill", "wait_for", "scroll"]))
    def selector_property(selector: str, kind: str) -> None:
        step = {"type": kind, "selector": selector, "timeoutMs": 200,
                **({"value": "x"} if kind == "fill" else {})}
        raw = {"steps": [{"type": "wait", "ms": 0}, step], "timeoutMs": 1000}
        result = tab.call(ACT_BOUND, _act, raw)
        outcome = check_result(result, raw)
        if outcome == "INVALID_REQUEST":
            assert result.failed.error.startswith("steps[1].selector: ")
            # Not even the wait ran: a request the page's parser refused lists its steps as
            # not started; one the Python validator refused (a lone surrogate) has no steps.
            try:
                parse_request(raw)
            except InvalidRequest:
                assert result.steps == []
            else:
                assert [s.status for s in result.steps] == ["not_started"] * 2
        count("api: throwing selectors", outcome)

    selector_property()


def test_read_page(tab: Live[tuple[Browser, Tab]]) -> None:
    @settings(max_examples=examples(40))
    @given(st.sampled_from(["interactive", "all", JUNK]).flatmap(_value),
           st.sampled_from(["none", "delta", JUNK]).flatmap(_value))
    def read_property(filter: Any, compression: Any) -> None:
        try:
            view = tab.call(ACT_BOUND, _read, filter, compression)
        except InvalidRequest as exc:
            assert exc.field in ("filter", "compression")
            count("api: read_page", "INVALID_REQUEST")
            return
        assert view.tab is not None and view.tab.id == tab.resource[1].id
        assert msgspec.json.decode(msgspec.json.encode(view), type=PageView) == view
        count("api: read_page", "ok")

    read_property()


def _value(choice: Any) -> st.SearchStrategy[Any]:
    return choice if isinstance(choice, st.SearchStrategy) else st.just(choice)


def test_the_tab_still_works_after_the_batch(tab: Live[tuple[Browser, Tab]],
                                             server: FixtureServer) -> None:
    result = tab.call(ACT_BOUND, _act, {"steps": [
        {"type": "navigate", "url": server.url("/status.html")},
        {"type": "click", "selector": "#click-me"},
        {"type": "read_page"}]})
    assert result.ok, result
    assert 'button "Click me"' in result.page.text
