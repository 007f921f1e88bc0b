"""tap, swipe and emulate (issue 13): real touch events, judged by what the page did."""

from __future__ import annotations

from typing import Any

from cdpseq import Tab, act, read_page
from cdpseq.cdp import emulation
from cdpseq.engine.emulation import TabEmulation
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, run


async def test_a_tap_sends_touch_events_and_the_click_a_finger_makes(tab: Tab,
                                                                     server: FixtureServer) -> None:
    await open_page(tab, server, "/touch.html")
    await run(tab, {"type": "tap", "selector": "#tap-me"})
    log = await js(tab, "log.filter(e => e.id === 'tap-me')")
    kinds = [entry["type"] for entry in log]
    assert kinds[:2] == ["pointerdown", "touchstart"], log
    assert "touchend" in kinds and "click" in kinds, log
    assert {e["pointerType"] for e in log if e["type"] in ("pointerdown", "click")} == {"touch"}


async def test_a_tap_on_a_covered_element_is_not_ok_and_reaches_nothing(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/touch.html")
    result = await act(tab, {"settle": False, "steps": [
        {"type": "tap", "selector": "#covered", "timeoutMs": 400}]})
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE"
    assert "covered by div#overlay" in result.failed.error
    assert await js(tab, "log.filter(e => e.type === 'touchstart').length") == 0


async def test_a_tap_whose_click_would_land_elsewhere_is_stopped(tab: Tab,
                                                                  server: FixtureServer) -> None:
    """The button is free when aimed at, but the mouse events the browser makes of the tap show
    a layer over it (its mouseenter handler): the click would hit the layer. It is stopped."""
    await open_page(tab, server, "/pointer.html")
    result = await act(tab, {"settle": False, "steps": [
        {"type": "tap", "selector": "#hover-btn", "timeoutMs": 600}]})
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE"
    assert "div#hover-cover" in result.failed.error
    assert await js(tab, "log.filter(e => e.type === 'click')") == []


async def test_a_tap_the_page_handles_itself_is_ok_without_a_click(tab: Tab,
                                                                   server: FixtureServer) -> None:
    await open_page(tab, server, "/touch.html")
    await run(tab, {"type": "tap", "selector": "#swallow"})
    assert await js(tab, "swallowed") == 1
    assert await js(tab, "log.filter(e => e.type === 'click' && e.id === 'swallow').length") == 0


async def test_a_swipe_up_scrolls_a_list_by_the_finger_s_distance(tab: Tab,
                                                                 server: FixtureServer) -> None:
    await open_page(tab, server, "/touch.html")
    result = await run(tab, {"type": "swipe", "selector": "#feed", "direction": "up",
                             "pixels": 150}, returnMode="all", settle=False)
    output: Any = result.steps[0].output
    top = await js(tab, "document.querySelector('#feed').scrollTop")
    assert 100 <= top <= 200, top  # touch slop eats a few pixels; no fling adds more
    assert output["moved"][0]["element"] == "ul#feed" and output["moved"][0]["dy"] == top
    await run(tab, {"type": "swipe", "selector": "#feed", "direction": "down", "pixels": 400})
    assert await js(tab, "document.querySelector('#feed').scrollTop") == 0


async def test_a_swipe_on_a_carousel_is_taken_by_its_script(tab: Tab,
                                                           server: FixtureServer) -> None:
    await open_page(tab, server, "/touch.html")
    result = await run(tab, {"type": "swipe", "selector": "#carousel", "direction": "left",
                             "pixels": 200}, returnMode="all")
    assert await js(tab, "document.querySelector('#status').textContent") == "Slide 2"
    assert result.steps[0].output["handledBy"]  # type: ignore[index]
    await run(tab, {"type": "swipe", "selector": "#carousel", "direction": "right",
                    "pixels": 200})
    assert await js(tab, "document.querySelector('#status').textContent") == "Slide 1"


async def test_a_swipe_without_a_target_scrolls_the_page(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/touch.html")
    # The list in the middle of the viewport is at its end: the swipe scrolls what is around it.
    await js(tab, "document.querySelector('#feed').scrollTop = 10000")
    result = await run(tab, {"type": "swipe", "direction": "up", "pixels": 200},
                       returnMode="all")
    scrolled = await js(tab, "scrollY")
    assert scrolled > 100
    assert result.steps[0].output["moved"] == [  # type: ignore[index]
        {"element": "the page", "dx": 0, "dy": scrolled}]


async def test_a_swipe_that_moves_nothing_is_not_ok(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/touch.html")
    result = await act(tab, {"settle": False, "steps": [  # nothing there scrolls sideways
        {"type": "swipe", "selector": "#static", "direction": "right", "pixels": 100}]})
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE"
    assert "moved nothing" in result.failed.error
    assert await js(tab, "log.filter(e => e.type === 'touchstart').length") == 1


async def test_emulate_a_device_applies_to_the_tab_and_is_kept_for_it(
        tab: Tab, server: FixtureServer) -> None:
    await run(tab, {"type": "navigate", "url": server.url("/touch.html")},
              emulate={"device": "iPhone 13"})
    info = await js(tab, "screenInfo()")
    assert info["width"] == 390 and info["coarse"] and info["touchPoints"] == 5
    assert "iPhone" in info["ua"] and info["dpr"] == 3
    # Another process (here: a new session of the same tab) finds it noted in the browser and
    # puts it in force on its first act.
    await tab.send(emulation.ClearDeviceMetricsOverride())
    await tab.send(emulation.SetTouchEmulationEnabled(enabled=False))
    tab.extension(TabEmulation).checked = False
    assert (await js(tab, "screenInfo()"))["width"] != 390
    await read_page(tab)
    assert (await js(tab, "screenInfo()"))["width"] == 390
    await run(tab, {"type": "reload"}, emulate={"width": 500, "height": 700})
    info = await js(tab, "screenInfo()")
    assert info["width"] == 500 and not info["coarse"] and "iPhone" not in info["ua"]
    await run(tab, {"type": "reload"}, emulate={"reset": True})
    assert (await js(tab, "screenInfo()"))["width"] not in (390, 500)


async def test_a_bad_emulation_is_an_invalid_request(tab: Tab) -> None:
    result = await act(tab, {"steps": [{"type": "wait", "ms": 0}], "emulate": {"width": 300}})
    assert result.failed is not None and result.failed.code == "INVALID_REQUEST"
    assert "emulate.height" in result.failed.error


async def test_a_tap_under_a_phone_without_a_meta_viewport_waits_for_its_late_click(
        tab: Tab, server: FixtureServer) -> None:
    """A mobile page without <meta name=viewport> gets its click after the double-tap wait
    (about 300 ms): the tap is ok once that click reached the element."""
    await run(tab, {"type": "navigate", "url": server.url("/pointer.html")},
              emulate={"device": "Pixel 7"})
    await run(tab, {"type": "tap", "selector": "#legend-btn"})
    assert await js(tab, "clicks('legend-btn')") == 1
    await run(tab, {"type": "wait", "ms": 0}, emulate={"reset": True})
