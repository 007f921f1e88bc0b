"""Settling follows the work an act set off through the page's own timers and animation frames,
and no further (fixtures/pages/settle-anim-*.html): a dialog closed by fallback timers each set
in the previous one's callback, script animations (a jQuery-style requestAnimationFrame loop of
inline styles, step timers, an interval, state applied in a microtask, an animation library's
ticker that runs from load on), a debounced filter whose callback sets a timer; and, on a page
that is never still, what must not hold an act (a poll, a frame loop that changes nothing, a
logo turned every frame, an endless CSS animation).

Each act's outcome is checked on the page itself (its log, its computed styles, its rows), then
in the delta; what the timer watch counts is read from the watch itself. No timing is asserted:
a page that held an act forever would answer ``stable: false`` at the settle cap.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
import trio

from cdpseq import ActResult, Tab, act
from cdpseq.page.script import timers_busy, timers_key
from fixtures.server import FixtureServer
from tests.helpers import js


async def acted(tab: Tab, server: FixtureServer, page: str, steps: list[dict[str, Any]],
                **options: Any) -> ActResult:
    await act(tab, [{"type": "navigate", "url": server.url(page)}])
    with trio.fail_after(30):
        result = await act(tab, {"steps": steps, **options})
    assert result.ok, result
    return result


def click(selector: str) -> list[dict[str, Any]]:
    return [{"type": "click", "selector": selector}]


def delta(result: ActResult) -> dict[str, Any]:
    assert result.state_change is not None, result
    change: dict[str, Any] = msgspec.to_builtins(result.state_change)
    return change


def named(items: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
    return [(item["role"], item.get("name")) for item in items]


async def done_text(tab: Tab) -> str | None:
    text = await js(tab, "document.querySelector('#done')?.textContent.trim() ?? null")
    return None if text is None else str(text)


# -- chains of timers --------------------------------------------------------------------------


@pytest.mark.parametrize("button", ["#go", "#go-distinct"])
async def test_a_dialog_closed_by_fallback_timers_is_waited_for(
        tab: Tab, server: FixtureServer, button: str) -> None:
    # The "server" timer, then the dialog's fallback timer set in its callback, then the
    # backdrop's set in that one's: the same fallback twice (#go: a callback that repeats its
    # parent and changed the page), or two different ones (#go-distinct: a chain of three).
    result = await acted(tab, server, "/settle-anim-fallback.html", click(button))
    assert result.stable is True
    assert await js(tab, "__log") == ["removed", "dialog hidden", "closed"]
    assert await js(tab, "document.getElementById('dialog').hidden") is True
    assert await js(tab, "document.getElementById('backdrop')") is None
    change = delta(result)
    assert ("dialog", "Remove Alan Turing?") in named(change["disappeared"])
    assert named(change["appeared"]) == [("text", "Alan Turing was removed")]


@pytest.mark.parametrize("step", [
    {"type": "fill", "selector": "#q", "value": "harbor"},
    # Keys 80 ms apart behind a 300 ms debounce that sets itself again for the time left.
    {"type": "type", "selector": "#q2", "text": "harbor", "delayMs": 80},
    # Keys 250 ms apart, as a loaded machine types: the debounce sets itself again after most
    # keys, a chain longer than its bounds, which every key begins again.
    {"type": "type", "selector": "#q2", "text": "harbor", "delayMs": 250},
])
async def test_a_debounced_filter_whose_callback_sets_a_timer_is_waited_for(
        tab: Tab, server: FixtureServer, step: dict[str, Any]) -> None:
    result = await acted(tab, server, "/settle-anim-debounce.html", [step])
    assert result.stable is True
    assert await js(tab, "[...document.querySelectorAll('#rows tr')]"
                         ".map(row => row.cells[0].textContent)") == ["SO-1042", "SO-1046"]
    # The filter ran last for the whole word: once for a fill; for typed keys also for a
    # prefix when a loaded machine typed slower than the debounce, as the page then does (the
    # act still waited for the last run).
    log = await js(tab, "__log")
    assert log[-1] == "shown 2" and (log == ["shown 2"] or step["type"] == "type"), log
    change = delta(result)
    [table] = change["disappeared"]
    assert table["role"] == "table" and table["removed"] == "4 rows"
    assert "SO-1041 Alpine Bakery" in table["lines"]
    assert named(change["appeared"]) == [("text", "2 orders shown")]


async def test_a_chain_that_never_ends_is_followed_only_to_its_bound(
        tab: Tab, server: FixtureServer) -> None:
    # Two callbacks that set each other every 100 ms forever (neither sets itself: no poll to
    # recognize): the chain is followed for its first timer and four links after it, then no
    # more, so the act ends while the relay goes on.
    result = await acted(tab, server, "/settle-anim-busy.html", click("#start-relay"))
    assert result.stable is True
    assert await js(tab, "window.counts.relay") >= 5
    assert await js(tab, timers_busy(timers_key(tab.id))) == []


# -- script animations -------------------------------------------------------------------------


@pytest.mark.parametrize(("button", "element", "role", "name", "rendered"), [
    ("#fade", "#calendar", "dialog", "Calendar", "calendar closed"),
    ("#slide", "#section", "region", "May, June and September", "section closed"),
    ("#steps", "#calendar", "dialog", "Calendar", "calendar closed by steps"),
    ("#interval", "#calendar", "dialog", "Calendar", "calendar closed by an interval"),
    ("#deferred", "#calendar", "dialog", "Calendar", "calendar closed by state"),
])
async def test_a_script_animation_is_waited_for_to_its_end(
        tab: Tab, server: FixtureServer, button: str, element: str, role: str, name: str,
        rendered: str) -> None:
    # Inline styles changed every frame (or every step of a timer, an interval, a microtask
    # after each frame): no CSS transition, no Web Animation, no mutation the DOM watch counts
    # until the element is hidden at the end.
    result = await acted(tab, server, "/settle-anim-frames.html", click(button))
    assert result.stable is True
    assert await js(tab, f"getComputedStyle(document.querySelector({element!r})).display") == \
        "none"
    assert await done_text(tab) == rendered
    change = delta(result)
    assert (role, name) in named(change["disappeared"])
    assert named(change["appeared"]) == [("text", rendered)]


async def test_an_animation_on_a_ticker_running_from_load_is_waited_for(
        tab: Tab, server: FixtureServer) -> None:
    # The frame loop was there, idle, long before the act: it counts once it changes the page.
    result = await acted(tab, server, "/settle-anim-ticker.html", click("#close"))
    assert result.stable is True
    assert await js(tab, "getComputedStyle(document.getElementById('menu')).display") == "none"
    change = delta(result)
    assert ("navigation", "Account menu") in named(change["disappeared"])
    assert named(change["appeared"]) == [("text", "menu closed")]
    # At once again: the ticker changed the page until a moment ago, then idled.
    with trio.fail_after(30):
        again = await act(tab, click("#open"))
    assert again.ok and again.stable is True
    assert await js(tab, "getComputedStyle(document.getElementById('menu')).opacity") == "1"
    assert await done_text(tab) == "menu open"
    change = delta(again)
    assert ("navigation", "Account menu") in named(change["appeared"])


async def test_a_tween_in_progress_on_the_ticker_when_the_act_begins_is_waited_for(
        tab: Tab, server: FixtureServer) -> None:
    # The loop is changing the page when the act arms (the page's own intro, or the previous
    # act's fade finishing on a loaded machine): young, it is no perpetual animation yet, and
    # the fade the click adds to it is the act's work.
    await act(tab, [{"type": "navigate", "url": server.url("/settle-anim-ticker.html")}])
    await js(tab, "intro()")
    with trio.fail_after(30):
        while await js(tab, "document.getElementById('menu').style.opacity") == "":
            await trio.sleep(0.01)  # until the intro has changed the page: the loop is changing
        result = await act(tab, click("#close"))
    assert result.ok and result.stable is True
    assert await js(tab, "getComputedStyle(document.getElementById('menu')).display") == "none"
    assert await done_text(tab) == "menu closed"
    assert named(delta(result)["appeared"]) == [("text", "menu closed")]


# -- what must not hold an act -----------------------------------------------------------------


@pytest.mark.parametrize(("button", "rendered"), [
    ("#go", "All messages marked as read"),  # and an endless CSS animation starts
    ("#start-poll", "Export started"),  # a poll every 100 ms starts
    ("#start-loop", "Following the scroll"),  # a frame loop that changes nothing starts
])
async def test_a_page_that_is_never_still_does_not_hold_the_act(
        tab: Tab, server: FixtureServer, button: str, rendered: str) -> None:
    # From load on: a 100 ms poll (a named function, and an arrow that calls it again), a
    # frame loop reading the scroll position, a logo turned by script every frame, a CSS
    # animation that never ends. None of it is the act's, nor is what the click starts.
    result = await acted(tab, server, "/settle-anim-busy.html", click(button))
    assert result.stable is True
    assert await done_text(tab) == rendered
    counts = await js(tab, "window.counts")
    assert counts["polls"] > 0 and counts["ticks"] > 0
    assert counts["frames"] > 0 and counts["spins"] > 0
    assert await js(tab, timers_busy(timers_key(tab.id))) == []
    assert named(delta(result)["appeared"]) == [("text", rendered)]


async def test_a_script_animation_that_never_ends_is_bounded(tab: Tab,
                                                             server: FixtureServer) -> None:
    # The click starts a logo turning by script every frame, forever: an animation in progress
    # for the first second, then no more. With a 3 s cap, a wait without a bound would answer
    # stable: false.
    result = await acted(tab, server, "/settle-anim-busy.html", click("#start-spinner"),
                         settleTimeoutMs=3000)
    assert result.stable is True
    assert await done_text(tab) == "Spinning"
    assert await js(tab, "window.counts.turns") > 0
    assert await js(tab, timers_busy(timers_key(tab.id))) == []
