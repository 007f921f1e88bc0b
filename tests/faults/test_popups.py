"""A page that opens 50 popups from one click. The act ends, reports the new tabs (bounded), and
leaves no session or subscription behind; the engine stays usable and the tabs can be closed.

Chromium's popup blocker lets one click open one popup, so this runs on a Chromium of its own
started with --disable-popup-blocking: a user's Chrome may well be configured that way."""

from __future__ import annotations

import pytest
import trio

from cdpseq import act, launch_browser
from cdpseq.front.render import render_text
from fixtures.server import FixtureServer
from tests.faults.common import dump
from tests.helpers import text_of

STORM = 50


@pytest.mark.browser
async def test_a_click_that_opens_50_popups(server: FixtureServer) -> None:
    with trio.fail_after(90):
        async with launch_browser(extra_args=["--disable-popup-blocking"]) as browser:
            tab = await browser.new_tab()
            await act(tab, [{"type": "navigate", "url": server.url("/fault-popups.html")}])
            before = browser.connection.statistics()
            tabs_before = {info.id for info in await browser.tabs()}

            with trio.fail_after(30):
                result = await act(tab, [{"type": "click", "selector": "#storm"}])
            assert result.ok, dump(result)
            assert await text_of(tab, "#status") == f"Opened {STORM}"
            opened = result.new_tabs
            assert isinstance(opened, list) and len(opened) == STORM, dump(result)
            assert len({popup.id for popup in opened}) == STORM
            assert all("/api/page?title=Popup" in popup.url for popup in opened)
            # The text rendering lists a few and counts the rest.
            text = render_text(result)
            assert text.count("⧉ new tab ") == 10 and "⧉ … 40 more new tabs" in text
            tabs_now = {info.id for info in await browser.tabs()}
            assert {popup.id for popup in opened} == tabs_now - tabs_before

            # No session of the popups stays attached to this connection, nothing pending.
            after = browser.connection.statistics()
            assert after.sessions == before.sessions, (before, after)
            assert after.pending_commands == 0 and after.subscriptions == before.subscriptions

            # The engine stays usable: the opener acts again, a popup can be driven too.
            again = await act(tab, [{"type": "wait", "ms": 1}, {"type": "read_page"}])
            assert again.ok and "Open 50 popups" in again.page.text
            popup = await browser.tab(opened[-1].id)
            read = await act(popup, [{"type": "read_page"}])
            assert read.ok and "popup" in read.page.text

            async with trio.open_nursery() as nursery:
                for each in opened:
                    nursery.start_soon(browser.close_tab, each.id)
            assert {info.id for info in await browser.tabs()} == tabs_before
