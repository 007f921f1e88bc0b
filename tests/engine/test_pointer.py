"""Clicks and hovers that are ok only when the browser really did them (issue 10): Playwright's
actionability (attached, visible, enabled with inherited disabled, stable, on screen, receiving
the events), its retargeting, and input that reaches the element or is stopped before it lands
elsewhere."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest

from cdpseq import ActResult, Tab, act, read_page
from cdpseq.cdp import input as cdp_input
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, ref, run


async def click(tab: Tab, selector: str, timeout_ms: int = 400, **step: Any) -> ActResult:
    return await act(tab, {"settle": False, "steps": [
        {"type": "click", "selector": selector, "timeoutMs": timeout_ms, **step}]})


def refused(result: ActResult, reason: str) -> None:
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE", result.failed
    assert reason in result.failed.error, result.failed.error


@pytest.mark.parametrize(("selector", "reason"), [
    ("#dis-span", "disabled"),                       # a span inside <button disabled>
    ("#dis-label", "disabled"),                      # the label of a disabled input
    ("#aria-child", "aria-disabled on div#toolbar"),  # under an aria-disabled ancestor
    ("#fieldset-btn", "inside a disabled <fieldset>"),
])
async def test_inherited_disabled_is_not_clicked(tab: Tab, server: FixtureServer, selector: str,
                                                 reason: str) -> None:
    await open_page(tab, server, "/pointer.html")
    refused(await click(tab, selector), reason)
    assert await js(tab, "log.filter(e => e.type === 'mousedown').length") == 0


async def test_what_is_not_disabled_is_clicked(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/pointer.html")
    await run(tab, {"type": "click", "selector": "#legend-btn"},  # a fieldset's first legend
              {"type": "click", "selector": "#div-disabled"})    # disabled means nothing on a div
    assert await js(tab, "[clicks('legend-btn'), clicks('div-disabled')]") == [1, 1]


async def test_a_disabled_button_is_clicked_once_it_is_enabled(tab: Tab, server: FixtureServer
                                                               ) -> None:
    await open_page(tab, server, "/pointer.html")
    await js(tab, "setTimeout(() => document.querySelector('#dis-btn').disabled = false, 200)")
    await run(tab, {"type": "click", "selector": "#dis-span", "timeoutMs": 3000})
    assert await js(tab, "clicks('dis-span')") == 1  # the span inside it, as a user's click


async def test_clicks_through_pointer_events_none_and_display_contents(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/pointer.html")
    await run(tab, {"type": "click", "selector": "#pe-span"},
              {"type": "click", "selector": "#pe-inner"},
              {"type": "click", "selector": "#contents-btn"})
    assert await js(tab, "[clicks('pe-btn'), clicks('pe-link'), clicks('contents-btn')]") == [
        1, 1, 1]
    assert await js(tab, "location.hash") == "#pe"


async def test_a_sliding_target_is_clicked_where_it_stops(tab: Tab, server: FixtureServer
                                                          ) -> None:
    await open_page(tab, server, "/pointer.html")
    await js(tab, "document.querySelector('#slide-btn').style.left = '20px'")
    await run(tab, {"type": "click", "selector": "#slide-btn", "timeoutMs": 3000})
    event = await js(tab, "log.find(e => e.type === 'click' && e.id === 'slide-btn')")
    assert 20 <= event["x"] <= 180  # inside the button's final box, not where it passed by


async def test_an_endlessly_moving_target_is_never_clicked(tab: Tab, server: FixtureServer
                                                           ) -> None:
    await open_page(tab, server, "/pointer.html")
    refused(await click(tab, "#spin-btn"), "not stable")
    assert await js(tab, "clicks('spin-btn')") == 0
    # An animation that moves nothing (a pulsing shadow) does not hold a click back.
    await run(tab, {"type": "click", "selector": "#pulse-btn"})
    assert await js(tab, "clicks('pulse-btn')") == 1


async def test_a_covered_target_is_not_clicked_and_neither_is_the_cover(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/pointer.html")
    await js(tab, "document.querySelector('#blocker').style.display = 'block'")
    refused(await click(tab, "#covered-btn"), "covered by div#blocker")
    assert await js(tab, "log.length") == 0


async def test_input_that_would_land_on_something_else_is_stopped(
        tab: Tab, server: FixtureServer) -> None:
    """The button is free when aimed at, but hovering it shows a layer over it: the press
    would hit the layer. cdpseq stops those events before the page sees them."""
    await open_page(tab, server, "/pointer.html")
    result = await click(tab, "#hover-btn", timeout_ms=600)
    refused(result, "div#hover-cover")  # stopped on the first try, seen up front after that
    seen = await js(tab, "log.map(e => e.type + ':' + e.id)")
    assert seen == []  # neither the button nor the layer got a press or a click


async def test_a_target_under_a_sticky_header_is_scrolled_out_from_under_it(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/pointer.html")
    await js(tab, "underTheHeader(12)")
    covered = await js(tab, "(() => { const r = document.querySelector('#item-12')"
                            ".getBoundingClientRect(); return document.elementFromPoint("
                            "r.x + 20, r.y + r.height / 2).id; })()")
    assert covered == "sticky-header"
    await run(tab, {"type": "click", "selector": "#item-12"})
    assert await js(tab, "clicks('item-12')") == 1


async def test_a_target_beyond_the_viewport_is_clicked_inside_it(tab: Tab, server: FixtureServer
                                                                ) -> None:
    await open_page(tab, server, "/pointer.html")
    await run(tab, {"type": "click", "selector": "#far-btn"})
    event = await js(tab, "log.find(e => e.type === 'click')")
    width = await js(tab, "innerWidth")
    assert event["id"] == "far-btn" and 0 <= event["x"] <= width


async def test_step_0s_aim_goes_with_the_setup_and_clicks_as_before(
        tab: Tab, server: FixtureServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # The act's setup sends the first click's aim behind its own commands (a round trip
    # saved); the click that follows is the one that aim armed.
    await open_page(tab, server, "/pointer.html")
    batches: list[list[str]] = []
    dispatch = tab.connection.dispatch

    async def recorded(*commands: Any, **options: Any) -> Any:
        batches.append([getattr(c, "expression", c.METHOD) for c in commands])
        return await dispatch(*commands, **options)

    monkeypatch.setattr(tab.connection, "dispatch", recorded)
    await run(tab, {"type": "click", "selector": "#far-btn"})
    setup = next(batch for batch in batches if "__cdpseq.arm()" in batch)
    assert any(c.startswith('__cdpseq.call("aim"') for c in setup), setup
    assert not any(c.startswith('__cdpseq.call("aim"') for b in batches if b is not setup
                   for c in b)  # answered once, not asked again
    assert await js(tab, "log.filter(e => e.type === 'click').map(e => e.id)") == ["far-btn"]


async def test_nothing_is_aimed_at_ahead_of_a_request_the_page_refuses(
        tab: Tab, server: FixtureServer) -> None:
    # An aim scrolls its target into view: one sent ahead of a request that another step's
    # selector makes invalid would move the page of an act that did nothing.
    await open_page(tab, server, "/pointer.html")
    result = await act(tab, {"steps": [{"type": "click", "selector": "#far-btn"},
                                       {"type": "click", "selector": "button[["}]})
    assert result.failed is not None and result.failed.code == "INVALID_REQUEST"
    assert result.steps[0].status != "ok"
    assert await js(tab, "[scrollX, log.length]") == [0, 0]


async def test_a_first_step_whose_if_does_not_hold_is_not_aimed_at(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/pointer.html")
    enabled = ref(view, "Far to the right", "button")
    await run(tab, {"type": "click", "selector": "#far-btn",
                    "if": {"target": enabled, "state": "disabled"}})
    assert await js(tab, "[scrollX, log.length]") == [0, 0]


async def test_a_press_has_the_pressure_of_a_real_mouse(tab: Tab, server: FixtureServer
                                                         ) -> None:
    await open_page(tab, server, "/pointer.html")
    await run(tab, {"type": "click", "selector": "#pe-btn"})
    pressures = await js(tab, "log.filter(e => e.type.startsWith('pointer'))"
                              ".map(e => [e.type, e.pressure, e.trusted])")
    assert pressures == [["pointerdown", 0.5, True], ["pointerup", 0, True]]


async def test_hover_works_on_a_disabled_button(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/pointer.html")
    await run(tab, {"type": "hover", "selector": "#dis-btn"})
    assert await js(tab, "document.querySelector('#dis-btn').matches(':hover')") is True


@pytest.mark.parametrize("frame", ["#transformed", "#bordered"])
async def test_clicks_land_inside_transformed_and_bordered_frames(
        tab: Tab, server: FixtureServer, frame: str) -> None:
    await open_page(tab, server, "/frames-transformed.html")
    await run(tab, {"type": "click", "selector": f"{frame} >> #inner-btn"})
    status = await js(tab, f"document.querySelector('{frame}').contentDocument"
                           ".querySelector('#inner-status').textContent")
    x, y = map(int, status.removeprefix("Clicked at ").split(","))
    assert 40 <= x <= 50 and 10 <= y <= 20  # the middle of the 90x30 button


async def test_buttons_inside_a_frameset_are_read_and_clicked(tab: Tab, server: FixtureServer
                                                             ) -> None:
    await open_page(tab, server, "/frameset.html")
    view = await read_page(tab)
    button = next(e for e in view.elements if e.name == "Inside the frame")
    assert button.selector == 'frame[name="left"] >> #inner-btn' or ">>" in button.selector
    await run(tab, {"type": "click", "target": button.ref})
    status = await js(tab, "frames[0].document.querySelector('#inner-status').textContent")
    assert status.startswith("Clicked at")


async def test_scroll_turns_the_wheel_over_what_scrolls_and_says_what_moved(
        tab: Tab, server: FixtureServer) -> None:
    """An app layout: the page itself cannot scroll, its <main> does."""
    await open_page(tab, server, "/scrollers.html")
    result = await run(tab, {"type": "scroll", "direction": "down", "pixels": 300},
                       returnMode="all")
    assert result.steps[0].output == {"moved": [{"element": "main#main", "dx": 0, "dy": 300}]}
    assert await js(tab, "[document.getElementById('main').scrollTop, scrollY, wheels]") == [
        300, 0, 1]
    side = await run(tab, {"type": "scroll", "selector": "#side", "direction": "down",
                           "pixels": 120}, returnMode="all")
    assert side.steps[0].output == {"moved": [{"element": "nav#side", "dx": 0, "dy": 120}]}


async def test_scroll_that_cannot_move_anything_fails(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/scrollers.html")
    up = await act(tab, [{"type": "scroll", "direction": "up"}])
    assert up.failed is not None and up.failed.code == "NOT_ACTIONABLE"
    assert "can scroll up any further" in up.failed.error
    hidden = await act(tab, [{"type": "scroll", "selector": "#hidden-btn", "timeoutMs": 300}])
    assert hidden.failed is not None and "display:none" in hidden.failed.error


async def test_scroll_into_view_inside_an_inner_scroller(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/scrollers.html")
    result = await run(tab, {"type": "scroll", "selector": "#row-50"}, returnMode="all")
    assert result.steps[0].output == {"scrolled": True}
    assert await js(tab, "document.getElementById('main').scrollTop") > 1000


async def test_a_click_whose_navigation_commits_in_another_renderer_is_done(
        tab: Tab, server: FixtureServer) -> None:
    # The click starts a cross-site navigation, then keeps the old renderer busy: the new
    # document commits in another renderer while the click's verdict is still pending in the
    # old one, which Chrome answers "Inspected target navigated or closed" (found by the soak).
    elsewhere = server.url("/index.html").replace("127.0.0.1", "localhost")
    button = (f'<button onclick="location.href = {elsewhere!r}; const t = Date.now(); '
              f'while (Date.now() - t < 1000) {{}}">Go</button>')
    result = await act(tab, [
        {"type": "navigate", "url": server.url("/api/page?" + urlencode(
            {"title": "busy", "body": button}))},
        {"type": "click", "selector": "button"},
        {"type": "wait_for", "text": "cdpseq fixtures"}])
    assert result.ok, result.failed
    assert result.tab is not None and result.tab.url == elsewhere


async def test_a_click_where_the_pointer_already_is_sends_no_move_and_one_elsewhere_does(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/pointer-log.html")

    async def clicked() -> list[str]:
        await js(tab, "window.seen = []")
        result = await click(tab, "#target", timeout_ms=5000)
        assert result.ok, result.failed
        return [entry.split("@")[0] for entry in await js(tab, "window.seen")]

    # The pointer starts nowhere the page has seen: the click moves it there first.
    assert await clicked() == ["pointermove", "pointerdown", "pointerup", "click"]
    # Clicking again in place: no move, as a person's second click makes none; it still lands.
    assert await clicked() == ["pointerdown", "pointerup", "click"]
    assert await js(tab, "document.getElementById('count').textContent") == "2"
    # Another client (or a person) moved the mouse away: the next click moves it back.
    await tab.send(cdp_input.DispatchMouseEvent(type="mouseMoved", x=10, y=10))
    assert await clicked() == ["pointermove", "pointerdown", "pointerup", "click"]
    # The button moved under the resting pointer: the new point is not where it is.
    await js(tab, "document.getElementById('target').style.left = '400px'")
    assert await clicked() == ["pointermove", "pointerdown", "pointerup", "click"]
    # A wheel turned elsewhere (the browser may place the mouse there): the pointer is unknown.
    await tab.send(cdp_input.DispatchMouseEvent(type="mouseWheel", x=10, y=10, deltaX=0,
                                                deltaY=5))
    assert await clicked() == ["pointermove", "pointerdown", "pointerup", "click"]
    assert await js(tab, "document.getElementById('count').textContent") == "5"
