"""Refs read from one document and used after the page changed under them: the page navigated
away between the read and the act, or re-rendered the element as an identical new one. Either
way the ref fails with STALE_REF and nothing is clicked: a ref names one element, never "the
element that looks the same now" (see docs/PAGE-MODEL.md, "Refs you can trust")."""

from __future__ import annotations

import trio

from cdpseq import Tab, act, read_page
from fixtures.server import FixtureServer
from tests.faults.common import dump, failed_code, steps_status
from tests.helpers import js, open_page, ref, text_of


async def test_a_ref_from_before_the_page_navigated_away_is_stale(tab: Tab,
                                                                   server: FixtureServer
                                                                   ) -> None:
    view = await open_page(tab, server, "/fault-leave.html")
    go = ref(view, "Go", "button")
    # The page leaves by itself (as a script or a meta refresh would) for a page whose button
    # has the same name in the same place.
    await js(tab, f"location.href = {server.url('/fault-arrived.html')!r}")
    with trio.fail_after(20):
        result = await act(tab, [{"type": "wait_for", "text": "Arrived"},
                                 {"type": "click", "target": go}])
    assert failed_code(result) == "STALE_REF", dump(result)
    assert steps_status(result) == ["ok", "error"]
    assert "read the page again" in result.failed.error  # type: ignore[union-attr]
    assert await text_of(tab, "#status") == "Untouched"

    # Still stale once the new document has minted refs of its own.
    fresh = await read_page(tab)
    with trio.fail_after(20):
        result = await act(tab, [{"type": "click", "target": go}])
    assert failed_code(result) == "STALE_REF", dump(result)
    assert await text_of(tab, "#status") == "Untouched"
    with trio.fail_after(20):  # the fresh ref works
        result = await act(tab, [{"type": "click", "target": ref(fresh, "Go", "button")}])
    assert result.ok and await text_of(tab, "#status") == "Clicked on the new page"


async def test_a_ref_whose_element_was_rendered_again_is_stale(tab: Tab, server: FixtureServer
                                                               ) -> None:
    view = await open_page(tab, server, "/fault-rerender.html")
    save = ref(view, "Save", "button")
    await js(tab, "render()")  # an identical new button replaces the one read
    with trio.fail_after(20):
        result = await act(tab, [{"type": "click", "target": save}])
    assert failed_code(result) == "STALE_REF", dump(result)
    assert "removed" in result.failed.error  # type: ignore[union-attr]
    assert await text_of(tab, "#status") == "Idle"

    # A selector names whatever matches now; a fresh read gives the new button a new ref.
    with trio.fail_after(20):
        result = await act(tab, [{"type": "click", "selector": "#save"}])
    assert result.ok and await text_of(tab, "#status") == "Saved by render 2"
    reread = await read_page(tab)
    renewed = ref(reread, "Save", "button")
    assert renewed != save
    await js(tab, "render()")
    with trio.fail_after(20):
        result = await act(tab, [{"type": "click", "target": renewed}])
    assert failed_code(result) == "STALE_REF"
