"""Pages that do not answer: a renderer hung in ``while (true) {}``, a response that takes 30 s,
a redirect loop. Every act ends within its bounds with a clear code; the tab (where it can be)
and the other tabs stay usable."""

from __future__ import annotations

import pytest
import trio

from cdpseq import ActRequest, Browser, PageUnresponsive, Tab, act, read_page
from cdpseq.cdp import runtime
from cdpseq.engine.reading import READ_TIMEOUT
from fixtures.server import FixtureServer
from tests.faults.common import assert_unaffected, bystander, dump, failed_code, steps_status
from tests.helpers import js, text_of

# act's own slack: a step gets 1 s beyond its deadline to report, the delta 1 s after the
# sequence; the test allows that and a little more, never the 30 s the faults would take.
SLACK = 3


async def test_renderer_hung_during_a_later_step(browser: Browser, tab: Tab,
                                                 server: FixtureServer) -> None:
    other = await bystander(browser, server)
    await act(tab, [{"type": "navigate", "url": server.url("/fault-hang.html")}])
    await tab.activate()  # a background tab's timers are throttled to 1 s
    # The click returns at once; 150 ms later the page writes "Hanging" and spins forever in
    # the same task, so the agent never sees the text: the wait_for hangs with the page.
    request = {"steps": [{"type": "click", "selector": "#hang"},
                         {"type": "wait_for", "text": "Hanging"},
                         {"type": "click", "selector": "#next"}],
               "perStepTimeoutMs": 1000, "timeoutMs": 2500, "settleTimeoutMs": 300}
    try:
        with trio.fail_after(2.5 + SLACK):
            result = await act(tab, request)
        assert failed_code(result) in ("STEP_TIMEOUT", "SEQUENCE_TIMEOUT"), dump(result)
        assert steps_status(result) == ["ok", "error", "not_started"]
        assert result.failed is not None and result.failed.index == 1
        # What cannot be asked of a hung page is not made up.
        assert result.state_change is None

        # The next act on the hung tab ends within its bounds too (its setup cannot hang).
        with trio.fail_after(1.5 + SLACK):
            again = await act(tab, {"steps": [{"type": "click", "selector": "#next"}],
                                    "perStepTimeoutMs": 1000, "timeoutMs": 1500})
        assert failed_code(again) in ("STEP_TIMEOUT", "SEQUENCE_TIMEOUT"), dump(again)
        await assert_unaffected(other)
    finally:
        # The browser never ends a hung script by itself; stop it so the tab can close.
        await tab.send(runtime.TerminateExecution())
    with trio.fail_after(10):
        assert await text_of(tab, "#status") == "Hanging"


async def test_a_hung_final_settle_reports_unstable_without_a_delta(tab: Tab,
                                                                    server: FixtureServer
                                                                    ) -> None:
    await act(tab, [{"type": "navigate", "url": server.url("/fault-hang.html")}])
    await tab.activate()
    try:
        with trio.fail_after(2 + SLACK):
            result = await act(tab, {"steps": [{"type": "click", "selector": "#hang"}],
                                     "timeoutMs": 2000, "settleTimeoutMs": 1000})
        assert result.ok and result.completed == 1, dump(result)
        assert result.stable is False and "did not answer" in result.unstable_reason
        assert result.state_change is None
    finally:
        await tab.send(runtime.TerminateExecution())


async def test_a_30_s_response_times_out_the_step_and_stops_the_load(tab: Tab,
                                                                     server: FixtureServer
                                                                     ) -> None:
    await act(tab, [{"type": "navigate", "url": server.url("/status.html")}])
    slow = server.url("/api/delay?ms=30000&type=html&body=Too%20late")
    with trio.fail_after(2 + SLACK):  # the default sequence would wait the full 30 s
        result = await act(tab, [{"type": "navigate", "url": slow, "timeoutMs": 2000}])
    assert failed_code(result) == "STEP_TIMEOUT", dump(result)
    assert "the load was stopped" in result.failed.error  # type: ignore[union-attr]
    assert result.tab is not None and result.tab.url == server.url("/status.html")

    # The tab is usable at once, and the stopped load never lands later: a 2 s response,
    # stopped at 1 s, would have replaced the page under the wait below.
    later = server.url("/api/delay?ms=2000&type=html&body=Too%20late")
    with trio.fail_after(10):
        stopped = await act(tab, {"steps": [
            {"type": "navigate", "url": later, "timeoutMs": 1000}]})
        assert failed_code(stopped) == "STEP_TIMEOUT"
        result = await act(tab, [{"type": "click", "selector": "#click-me"},
                                 {"type": "wait", "ms": 1500}])
    assert result.ok, dump(result)
    assert tab.url == server.url("/status.html")
    assert await text_of(tab, "#status") == "Clicked"
    assert "Too late" not in await js(tab, "document.body.innerText")


async def test_an_endless_redirect_loop_is_a_failed_navigation(tab: Tab, server: FixtureServer
                                                               ) -> None:
    with trio.fail_after(20):
        result = await act(tab, [{"type": "navigate", "url": server.url("/api/loop")},
                                 {"type": "read_page"}])
    assert failed_code(result) == "NAVIGATION_FAILED", dump(result)
    assert "ERR_TOO_MANY_REDIRECTS" in result.failed.error  # type: ignore[union-attr]
    assert steps_status(result) == ["error", "not_started"]
    hops = [r for r in server.requests if r.path.startswith("/api/loop")]
    assert len(hops) > 10  # it really looped
    with trio.fail_after(20):  # the tab is usable after
        await act(tab, [{"type": "navigate", "url": server.url("/status.html")}])
        assert "Click me" in (await read_page(tab)).text


async def test_a_read_of_a_hung_tab_is_page_unresponsive_within_its_timeout(
        tab: Tab, server: FixtureServer) -> None:
    await act(tab, [{"type": "navigate", "url": server.url("/fault-hang.html")}])
    await tab.activate()
    try:
        with trio.fail_after(2 + SLACK):
            await act(tab, {"steps": [{"type": "click", "selector": "#hang"}],
                            "timeoutMs": 2000, "settleTimeoutMs": 1000})
        # The read's timeout is what bounds it: a small one ends it with the code...
        with trio.fail_after(1 + SLACK), pytest.raises(PageUnresponsive) as caught:
            await read_page(tab, "all", answer_timeout=1)
        assert caught.value.code == "PAGE_UNRESPONSIVE"
        # ... and by default it is a step's default timeout (5 s), not half a minute.
        assert READ_TIMEOUT == ActRequest(steps=[]).per_step_timeout_ms / 1000
        with trio.fail_after(READ_TIMEOUT + SLACK), pytest.raises(PageUnresponsive):
            await read_page(tab)
    finally:
        await tab.send(runtime.TerminateExecution())
    with trio.fail_after(10):  # the page really was spinning
        assert await text_of(tab, "#status") == "Hanging"
