"""TanStack Virtual 3 (React): an order list of 10,000 rows of which only those in view (and a
few around them) exist in the DOM, driven as an agent drives it: read the page, one act, the
page's own state checked, then the act's delta."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cdpseq import ActResult, StateChange, Tab, act, read_page
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import js, open_app

LIBRARY = "TanStack Virtual 3"
APP = "virtual-orders"
ORDER = re.compile(r"Order \d{5}")


def change_of(result: ActResult) -> StateChange:
    assert result.ok, result.failed
    assert result.state_change is not None
    return result.state_change


async def log(tab: Tab) -> list[Any]:
    return list(await js(tab, "window.__log"))


async def rendered_rows(tab: Tab) -> list[str]:
    return list(await js(tab, "[...document.querySelectorAll('.row a')].map(a => a.textContent)"))


@pytest.mark.corpus(LIBRARY, "10,000 virtual rows: the read lists those that exist", "read")
async def test_the_read_lists_the_rows_that_exist(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP)
    listed = [e.name for e in view.elements if e.role == "link"]
    rendered = await rendered_rows(tab)
    assert listed == rendered
    assert listed[0] == "Order 00001" and len(listed) < 30
    assert "10,000 orders" in (await read_page(tab, filter="all")).text


@pytest.mark.corpus(LIBRARY, "10,000 virtual rows: scroll far down, wait for a row, open it",
                    "act delta")
async def test_a_row_far_down_is_scrolled_to_and_opened(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP, filter="all")
    orders = ref(view, "Orders", "region")
    change = change_of(await act(tab, {"steps": [
        {"type": "scroll", "target": orders, "direction": "down", "pixels": 100000},
        {"type": "scroll", "target": orders, "direction": "down", "pixels": 100000},
        {"type": "wait_for", "text": "Order 05005"},
        {"type": "click", "selector": 'role=link[name="Order 05005"]'}]}))
    assert await log(tab) == ["05005"]
    assert await js(tab, "document.querySelector('[aria-current] a').textContent"
                    ) == "Order 05005"
    assert await js(tab, "location.hash") == "#order-05005"
    assert change.url is not None and change.url.after.endswith("#order-05005")
    assert [e.name for e in change.appeared if e.role == "heading"] == ["Order 05005"]
    # The list's rows were replaced: the first ones went, rows near 5,000 came.
    [gone] = [e for e in change.disappeared if e.ref == orders]
    [came] = [e for e in change.appeared if e.ref == orders]
    assert (gone.controls or [])[0].name == "Order 00001"
    assert all(int((c.name or "")[6:]) > 4900 for c in came.controls or [])


@pytest.mark.corpus(LIBRARY, "10,000 virtual rows: a scroll's delta, then a new row's ref",
                    "act delta")
async def test_a_scroll_reports_the_rows_that_came_and_they_can_be_opened(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, APP, filter="all")
    orders = ref(view, "Orders", "region")
    change = change_of(await act(tab, {"steps": [
        {"type": "scroll", "target": orders, "direction": "down", "pixels": 800}]}))
    assert await js(tab, "document.querySelector('.list').scrollTop") == 800
    rendered = await rendered_rows(tab)
    [came] = [e for e in change.appeared if e.ref == orders]
    [gone] = [e for e in change.disappeared if e.ref == orders]
    new_rows = {c.name: c.ref for c in came.controls or [] if ORDER.fullmatch(c.name or "")}
    assert list(new_rows)[0] == "Order 00016" and set(new_rows) <= set(rendered)
    assert [c.name for c in gone.controls or []][:3] == ["Order 00001", "Order 00002",
                                                         "Order 00003"]
    assert "Order 00001" not in rendered
    opened = change_of(await act(tab, {"steps": [
        {"type": "click", "target": new_rows["Order 00020"]}]}))
    assert await log(tab) == ["00020"]
    assert [e.name for e in opened.appeared if e.role == "heading"] == ["Order 00020"]
