"""Load: 20 tabs acting at once for 20 rounds through one connection.

Each tab's page carries its own marker (``/login.html?next=tabNN`` shows "Please sign in to
continue to tabNN"; the email typed in round R is ``tabNN-rRR@example.com``), so a result that
describes another tab — its url, title, read or delta — shows a foreign marker. Afterwards
nothing the run made may remain: no attached tab, session, observer, subscription or pending
command on the connection, no page target beyond those there before, no task in trio's tree.
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec
import trio

from cdpseq import ActResult, Browser, LaunchedChromium, Tab, act, open_browser
from fixtures.server import FixtureServer
from tools.soak import task_names

TABS = 20
ROUNDS = 20
_MARKER = re.compile(r"tab(\d\d)")


def marker(index: int) -> str:
    return f"tab{index:02d}"


def email(index: int, round_: int) -> str:
    return f"{marker(index)}-r{round_:02d}@example.com"


def steps_for(server: FixtureServer, index: int, round_: int) -> list[dict[str, Any]]:
    """Round 0 opens the tab's own page; the middle rounds type and read (the click on
    "Remember me" every other round); the last signs in, which changes url and title."""
    own = marker(index)
    typed = {"type": "fill", "selector": "#email", "value": email(index, round_)}
    read = {"type": "read_page", "filter": "all"}
    if round_ == 0:
        return [{"type": "navigate", "url": server.url(f"/login.html?next={own}")}, typed, read]
    if round_ == ROUNDS - 1:
        return [typed, {"type": "fill", "selector": "#password", "value": "pw"},
                {"type": "click", "selector": "#sign-in"},
                {"type": "wait_for", "text": f"Signed in as {email(index, round_)}"}]
    if round_ % 2:
        return [typed, {"type": "click", "selector": "#remember"}, read]
    return [typed, read]


def check_own(result: ActResult, tab: Tab, index: int, round_: int) -> None:
    """The result describes ``tab`` (number ``index``) in round ``round_``, and no other."""
    dumped = json.dumps(msgspec.to_builtins(result))
    assert result.ok, dumped
    assert result.tab is not None and result.tab.id == tab.id, dumped
    assert set(_MARKER.findall(dumped)) == {f"{index:02d}"}, dumped
    assert email(index, round_) in dumped, dumped
    if round_ == ROUNDS - 1:
        assert result.tab.title == "Dashboard · Acme Notes", dumped
        assert result.state_change.url.before.endswith(f"/login.html?next={marker(index)}")
        assert result.state_change.url.after.endswith("/dashboard"), dumped
        return
    assert result.tab.url.endswith(f"/login.html?next={marker(index)}"), dumped
    assert f"Please sign in to continue to {marker(index)}" in result.page.text, dumped
    fields = {e.name: e.value for e in result.page.elements}
    assert fields["Email"] == email(index, round_), dumped
    if round_ > 0:  # the same document: the delta names the field that changed
        changed = {c.name: msgspec.to_builtins(c) for c in result.state_change.changed}
        assert email(index, round_) in json.dumps(changed.get("Email")), dumped


async def page_targets(browser: Browser) -> set[str]:
    return {info.id for info in await browser.tabs()}


async def test_twenty_tabs_act_at_once_for_twenty_rounds_without_cross_talk_or_leaks(
        chromium: LaunchedChromium, server: FixtureServer) -> None:
    tasks_before = task_names()
    with trio.fail_after(240):
        async with open_browser(chromium.ws_url) as browser, \
                open_browser(chromium.ws_url) as someone_else:
            targets_before = await page_targets(browser)
            idle = browser.statistics()
            tabs = [await browser.new_tab() for _ in range(TABS)]

            async def one(index: int, round_: int) -> None:
                tab = tabs[index]
                check_own(await act(tab, steps_for(server, index, round_)), tab, index, round_)

            for round_ in range(ROUNDS):
                async with trio.open_nursery() as nursery:
                    for index in range(TABS):
                        nursery.start_soon(one, index, round_)
                between = browser.statistics()
                assert between.attached_tabs == TABS
                assert between.connection.subscriptions == 0
                assert between.connection.pending_commands == 0
                assert between.connection.events_dropped == 0

            # Half the tabs are closed here, half by another client (as a user would).
            async with trio.open_nursery() as nursery:
                for index, tab in enumerate(tabs):
                    closer = browser if index % 2 else someone_else
                    nursery.start_soon(closer.close_tab, tab.id)
            while any(tab.closed is None for tab in tabs):  # the detach events may trail
                await trio.sleep(0.01)

            after = browser.statistics()
            assert after.attached_tabs == idle.attached_tabs == 0
            assert after.attaching == 0
            assert after.connection.sessions == idle.connection.sessions
            assert after.connection.observed_sessions == idle.connection.observed_sessions
            assert after.connection.subscriptions == idle.connection.subscriptions == 0
            assert after.connection.pending_commands == 0
            assert after.connection.unknown_session_frames == 0
            assert await page_targets(browser) == targets_before
    assert task_names() == tasks_before


async def test_per_tab_state_stays_bounded_across_loads_of_a_page_with_an_oopif(
        tab: Tab, server: FixtureServer) -> None:
    from cdpseq.engine.tab_network import TabNetwork

    enabled = tab.extension(TabNetwork).sessions
    for _ in range(5):
        result = await act(tab, [{"type": "navigate", "url": server.url("/settle-oopif.html")}])
        assert result.ok
        assert len(tab.frame_sessions) == 1  # the page's one out-of-process iframe
        # This load's iframe, and at most the previous load's (detached during this act).
        assert len(enabled) <= 2 and tab.frame_sessions <= enabled
