"""JavaScript dialogs never wedge a tab: handled per the request's policy, reported, bounded —
during an act, between calls, and when a dialog opened while no cdpseq client listened."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
import trio

from cdpseq import (
    ActResult,
    DialogOpen,
    LaunchedChromium,
    Tab,
    act,
    open_browser,
    read_page,
)
from cdpseq.cdp import runtime
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, run, text_of

PAGE = "/dialogs.html"


async def _act(tab: Tab, *steps: dict[str, Any], **options: Any) -> ActResult:
    with trio.fail_after(60):
        return await act(tab, {"steps": list(steps), **options})


def _dialogs(result: ActResult) -> list[dict[str, Any]]:
    found = msgspec.to_builtins(result).get("dialog")
    return found if isinstance(found, list) else [found] if found else []


async def _until_dialog(tab: Tab) -> None:
    with trio.fail_after(10):
        while tab.dialog is None:
            await trio.sleep(0.02)


async def test_confirm_dismissed_by_default_and_accepted_on_request(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, PAGE)
    dismissed = await run(tab, {"type": "click", "selector": "#delete"})
    assert _dialogs(dismissed) == [{"type": "confirm", "message": "Delete this project?",
                                    "handled": "dismissed"}]
    assert await text_of(tab, "#out") == "Kept"
    await run(tab, {"type": "click", "selector": "#delete"}, dialog="accept")
    assert await text_of(tab, "#out") == "Deleted"


async def test_accepted_prompt_gets_its_default_unless_prompt_text(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, PAGE)
    await run(tab, {"type": "click", "selector": "#rename"}, dialog="accept")
    assert await text_of(tab, "#out") == "Renamed to Apollo"
    await run(tab, {"type": "click", "selector": "#rename"}, dialog="accept",
              promptText="Gemini")
    assert await text_of(tab, "#out") == "Renamed to Gemini"


async def test_a_dialog_opened_between_calls_is_handled_when_the_next_call_starts(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, PAGE)
    await run(tab, {"type": "click", "selector": "#remind"}, settle=False)
    await _until_dialog(tab)  # the page's own timer opened it after the act ended
    with pytest.raises(DialogOpen) as refused:  # a read never changes the page
        with trio.fail_after(30):
            await read_page(tab)
    assert refused.value.dialog == {"type": "confirm", "message": "Time for a break?",
                                    "handled": "left open"}
    result = await run(tab, {"type": "read_page"}, dialog="accept")
    assert _dialogs(result) == [{"type": "confirm", "message": "Time for a break?",
                                 "handled": "accepted", "when": "before"}]
    assert await text_of(tab, "#out") == "Break taken"
    assert await js(tab, "window.projectState") == "loaded"


async def test_a_dialog_left_open_fails_later_steps_and_calls_with_dialog_open(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, PAGE)
    left = await _act(tab, {"type": "click", "selector": "#delete"},
                      {"type": "click", "selector": "#save"}, dialog="leave")
    assert [s.status for s in left.steps] == ["ok", "error"]
    assert left.failed is not None and left.failed.code == "DIALOG_OPEN"
    assert left.failed.index == 1
    assert _dialogs(left)[0]["handled"] == "left open"
    again = await _act(tab, {"type": "wait", "ms": 1}, dialog="leave")
    assert again.failed is not None and again.failed.code == "DIALOG_OPEN"
    assert again.completed == 0 and "Delete this project?" in again.failed.error
    handled = await run(tab, {"type": "wait", "ms": 1})
    assert _dialogs(handled) == [{"type": "confirm", "message": "Delete this project?",
                                  "handled": "dismissed", "when": "before"}]
    assert await text_of(tab, "#out") == "Kept"


async def test_beforeunload_on_navigate_follows_the_policy(tab: Tab,
                                                          server: FixtureServer) -> None:
    await open_page(tab, server, PAGE)
    await run(tab, {"type": "click", "selector": "#notes"},  # a user gesture: Chrome asks
              {"type": "fill", "selector": "#notes", "value": "unsaved"})  # only after one
    stay = await _act(tab, {"type": "navigate", "url": server.url("/index.html")})
    assert _dialogs(stay) and _dialogs(stay)[0]["type"] == "beforeunload"
    assert _dialogs(stay)[0]["handled"] == "dismissed"
    assert stay.failed is not None and stay.failed.code == "NAVIGATION_FAILED"
    assert stay.tab is not None and stay.tab.url == server.url(PAGE)
    assert await js(tab, "document.querySelector('#notes').value") == "unsaved"
    leave = await run(tab, {"type": "navigate", "url": server.url("/index.html")},
                      dialog="accept")
    assert _dialogs(leave)[0]["type"] == "beforeunload"
    assert leave.tab is not None and leave.tab.url == server.url("/index.html")


async def test_a_dialog_nobody_listened_to_is_dismissed_keeping_the_page(
        chromium: LaunchedChromium, server: FixtureServer) -> None:
    """A dialog left by a client that went away (a CLI call that ended, an MCP server that
    stopped): Chromium tells no later client of it, and Page.enable gets no answer. The next
    call still ends, dismisses it and keeps the document."""
    async with open_browser(chromium.endpoint) as first:
        tab = await first.new_tab(server.url(PAGE))
        tab_id = tab.id
        await open_page(tab, server, PAGE)
        await _act(tab, {"type": "click", "selector": "#rename"}, dialog="leave")
        assert tab.dialog is not None
    async with open_browser(chromium.endpoint) as second:
        with trio.fail_after(30):
            later = await second.tab(tab_id)
        assert not later.answering
        with pytest.raises(DialogOpen) as refused:
            with trio.fail_after(30):
                await read_page(later)
        assert refused.value.dialog == {"type": "prompt", "message": "New name?"}
        result = await run(later, {"type": "read_page"})
        assert _dialogs(result) == [{"type": "prompt", "message": "New name?",
                                     "handled": "dismissed", "when": "before"}]
        assert await text_of(later, "#out") == "Rename cancelled"
        state = await later.send(runtime.Evaluate(
            expression="[window.projectState, location.href]", returnByValue=True))
        assert state.result.value == ["loaded", server.url(PAGE)]
        await second.close_tab(tab_id)
