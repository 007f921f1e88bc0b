"""GSAP 3: an account page whose menu fades and slides shut and open, and whose recent activity
comes in row after row (a stagger). Every tween runs on GSAP's ticker, a requestAnimationFrame
loop: the act must wait for a tween's end (what the app shows there) without a quiet window,
also right after another act whose tween the ticker just finished.
App: fixtures/realworld/apps/gsap-account.html; window.__log keeps what it showed at each end."""

from __future__ import annotations

import pytest
import trio

from cdpseq import ActResult, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import js, open_app

GSAP = "GSAP 3"


def appeared(result: ActResult) -> list[tuple[str, str]]:
    assert result.ok and result.stable is True and result.state_change, result
    return [(e.role or "", e.name or "") for e in result.state_change.appeared]


def disappeared(result: ActResult) -> list[tuple[str, str]]:
    assert result.ok and result.stable is True and result.state_change, result
    return [(e.role or "", e.name or "") for e in result.state_change.disappeared]


def status(result: ActResult) -> object:
    """What the delta says the status line came to say."""
    assert result.state_change, result
    [text] = [c.after for c in result.state_change.changed if c.role == "status"]
    return text


async def click_in_new_app(tab: Tab, server: FixtureServer, button: str) -> ActResult:
    """Open the app, read it, and click the button of that name by its ref, in one act."""
    view = await open_app(tab, server, "gsap-account")
    return await act(tab, {"steps": [{"type": "click", "target": ref(view, button, "button")}]})


async def menu_style(tab: Tab) -> list[str]:
    """The menu's computed visibility and opacity, as the page has them."""
    found: list[str] = await js(tab, "(s => [s.visibility, s.opacity])(getComputedStyle("
                                     "document.getElementById('menu')))")
    return found


@pytest.mark.corpus(GSAP, "menu: a fade out, then a fade in right after", "act delta")
async def test_the_menu_fades_shut_and_open_in_two_acts_one_right_after_the_other(
        tab: Tab, server: FixtureServer) -> None:
    close = await click_in_new_app(tab, server, "Close the menu")
    # The act returned once the tween was over: the app had shown its end, and the menu is
    # hidden (autoAlpha), which the delta says.
    assert await js(tab, "window.__log") == ["Menu closed"]
    assert await menu_style(tab) == ["hidden", "0"]
    assert ("navigation", "Account menu") in disappeared(close)
    assert status(close) == "Menu closed"
    # At once the other way: the ticker changed the page a moment ago.
    with trio.fail_after(30):
        opened = await act(tab, {"steps": [{"type": "click", "selector": "#toggle"}]})
    assert await js(tab, "window.__log") == ["Menu closed", "Menu open"]
    assert await menu_style(tab) == ["visible", "1"]
    assert ("navigation", "Account menu") in appeared(opened)
    assert status(opened) == "Menu open"


@pytest.mark.corpus(GSAP, "a list whose rows come in one after another (stagger)", "act delta")
async def test_the_activity_rows_come_in_staggered_and_the_act_waits_for_the_last(
        tab: Tab, server: FixtureServer) -> None:
    shown = await click_in_new_app(tab, server, "Show recent activity")
    assert await js(tab, "window.__log") == ["5 events shown"]
    assert await js(tab, "[...document.querySelectorAll('#activity li')].map("
                         "li => getComputedStyle(li).opacity)") == ["1"] * 5
    assert ("list", "Recent activity") in appeared(shown)
    assert status(shown) == "5 events shown"
