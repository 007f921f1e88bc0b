"""The connection against a real Chromium: endpoints, throughput, concurrency and faults."""

from __future__ import annotations

import msgspec
import pytest
import trio

from cdpseq import (
    Browser,
    LaunchedChromium,
    ProtocolError,
    Tab,
    TargetClosed,
    TargetCrashed,
    open_browser,
)
from cdpseq.cdp import page, runtime, target
from cdpseq.lowlevel import RawEvent
from fixtures.server import FixtureServer


async def evaluate(tab: Tab, expression: str) -> object:
    result = await tab.send(runtime.Evaluate(expression=expression, returnByValue=True,
                                             awaitPromise=True))
    return result.result.value


async def wait_for_title(tab: Tab, title: str) -> None:
    """new_tab answers before the page loads; wait (bounded) until it has."""
    with trio.fail_after(10):
        while await evaluate(tab, "document.title") != title:
            await trio.sleep(0.02)


async def test_attach_by_every_endpoint_form(chromium: LaunchedChromium) -> None:
    forms: list[str | int] = [
        chromium.endpoint,                      # http://127.0.0.1:PORT
        f"127.0.0.1:{chromium.port}",          # host:port
        f"localhost:{chromium.port}",
        str(chromium.port),                     # bare port, as text
        chromium.port,                          # bare port, as int
        chromium.ws_url,                        # ws://...
    ]
    for form in forms:
        with trio.fail_after(15):
            async with open_browser(form) as browser:
                assert browser.version.product.startswith(("Chrome/", "HeadlessChrome/"))
                assert browser.version.protocol_version == "1.3"
                assert any(t.type == "page" for t in await browser.tabs())


async def test_two_thousand_round_trips_leave_no_pending_state(tab: Tab) -> None:
    conn = tab.connection
    for i in range(2000):
        assert await evaluate(tab, str(i)) == i
    stats = conn.statistics()
    assert stats.pending_commands == 0
    assert len(conn.router._pending) == 0


async def test_four_tabs_concurrently_without_cross_talk(browser: Browser,
                                                         server: FixtureServer) -> None:
    tabs = [await browser.new_tab(server.url(f"/api/page?title=tab{i}")) for i in range(4)]
    for i, t in enumerate(tabs):
        await wait_for_title(t, f"tab{i}")
    seen: dict[int, list[object]] = {i: [] for i in range(4)}

    async def drive(i: int) -> None:
        for n in range(100):
            seen[i].append(await evaluate(tabs[i], f"document.title + ':{n}'"))

    try:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                for i in range(4):
                    nursery.start_soon(drive, i)
        for i in range(4):
            assert seen[i] == [f"tab{i}:{n}" for n in range(100)]
    finally:
        for t in tabs:
            await browser.close_tab(t.id)


async def _pending_evaluate(tab: Tab, errors: list[BaseException],
                            task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
                            ) -> None:
    """An evaluate that Chrome will never answer on its own."""
    task_status.started()
    try:
        await tab.send(runtime.Evaluate(expression="new Promise(() => {})", awaitPromise=True))
    except BaseException as exc:  # noqa: BLE001 - the test inspects it
        errors.append(exc)


async def test_crash_fails_pending_evaluate_and_other_tabs_keep_working(
        browser: Browser, tab: Tab) -> None:
    other = await browser.new_tab()
    errors: list[BaseException] = []
    with trio.fail_after(15):
        async with trio.open_nursery() as nursery:
            await nursery.start(_pending_evaluate, tab, errors)
            await trio.sleep(0.2)
            try:
                await tab.send(page.Crash())
            except (ProtocolError, TargetClosed):
                pass  # the crash may take the answer with it
    assert len(errors) == 1 and isinstance(errors[0], TargetCrashed), errors
    assert errors[0].target_id == tab.id
    assert tab.crashed
    assert await evaluate(other, "6 * 7") == 42
    # A navigation gives the crashed tab a new renderer.
    with trio.fail_after(15):
        await tab.send(page.Navigate(url="about:blank"))
        assert await evaluate(tab, "1 + 1") == 2
    assert not tab.crashed
    await browser.close_tab(other.id)


async def test_close_target_with_commands_pending(browser: Browser, tab: Tab) -> None:
    errors: list[BaseException] = []
    with trio.fail_after(15):
        async with trio.open_nursery() as nursery:
            for _ in range(3):
                await nursery.start(_pending_evaluate, tab, errors)
            await trio.sleep(0.2)
            await browser.close_tab(tab.id)
    assert len(errors) == 3
    assert all(isinstance(e, TargetClosed) for e in errors), errors
    assert tab.closed is not None
    # Later commands fail at once with the same typed error.
    with trio.fail_after(5):
        try:
            await evaluate(tab, "1")
        except TargetClosed as exc:
            assert exc.target_id == tab.id
        else:
            raise AssertionError("a command on a closed tab succeeded")


async def test_hung_renderer_then_closed_tab(browser: Browser, tab: Tab) -> None:
    other = await browser.new_tab()
    errors: list[BaseException] = []

    async def spin() -> None:
        try:
            await tab.send(runtime.Evaluate(expression="while (true) {}"))
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(spin)
            await trio.sleep(0.3)
            await nursery.start(_pending_evaluate, tab, errors)
            await browser.close_tab(tab.id)
    assert len(errors) == 2
    assert all(isinstance(e, TargetClosed) for e in errors), errors
    assert await evaluate(other, "'alive'") == "alive"
    await browser.close_tab(other.id)


async def test_attach_to_a_tab_another_client_drives(browser: Browser, chromium: LaunchedChromium,
                                                     server: FixtureServer) -> None:
    shared = await browser.new_tab(server.url("/api/page?title=shared"))
    await wait_for_title(shared, "shared")
    try:
        # A second, independent client (as DevTools or Playwright would be) drives the same tab.
        async with open_browser(chromium.endpoint) as other_client:
            theirs = await other_client.tab(shared.id)
            await evaluate(theirs, "document.title = 'changed by the other client'")
            assert await evaluate(shared, "document.title") == "changed by the other client"
            await evaluate(shared, "window.mark = 5")
            assert await evaluate(theirs, "window.mark") == 5
        # The other client leaving does not take our session down.
        assert await evaluate(shared, "window.mark + 1") == 6
    finally:
        await browser.close_tab(shared.id)


async def test_tab_follows_navigation(tab: Tab, server: FixtureServer) -> None:
    first = tab.loader_id
    target = server.url("/api/page?title=nav")
    await tab.send(page.Navigate(url=target))
    with trio.fail_after(10):
        while tab.url != target:
            await trio.sleep(0.01)
    assert tab.loader_id != first
    await evaluate(tab, "history.pushState({}, '', '#moved')")
    assert tab.url == target + "#moved"


async def test_tabs_list_new_activate_close(browser: Browser, server: FixtureServer) -> None:
    url = server.url("/api/page?title=listed")
    new = await browser.new_tab(url)
    listed = {t.id: t for t in await browser.tabs()}
    assert new.id in listed
    assert listed[new.id].url == url and listed[new.id].type == "page"
    with trio.fail_after(10):  # the title arrives with the load, after createTarget answers
        while (await new.info()).title != "listed":
            await trio.sleep(0.02)
    await new.activate()
    assert await browser.tab(new.id) is new  # one attach per Browser
    await new.close()
    assert new.id not in {t.id for t in await browser.tabs()}


async def test_every_event_of_a_real_session_decodes(browser: Browser, server: FixtureServer
                                                     ) -> None:
    from cdpseq.cdp import dom, log, network
    from cdpseq.lowlevel import ANY_SESSION, cdp

    seen: list[RawEvent] = []
    async with browser.subscribe(*cdp.EVENTS, session_id=ANY_SESSION, buffer=100_000) as events:
        tab = await browser.new_tab()
        for enable in (network.Enable(), runtime.Enable(), dom.Enable(), log.Enable()):
            await tab.send(enable)
        for path in ("/index.html", "/api/page?title=a&body=<script>console.log(1);"
                     "fetch('/api/delay?ms=5');history.pushState({},'','#x')</script>"):
            await tab.send(page.Navigate(url=server.url(path)))
            await wait_for_title(tab, "a" if "title=a" in path else "cdpseq fixtures")
        await tab.send(page.Reload())
        await browser.close_tab(tab.id)
        while True:
            try:
                seen.append(events.receive_nowait())
            except trio.WouldBlock:
                break
    assert events.dropped == 0
    methods = {e.method for e in seen}
    assert len(methods) >= 20, methods
    for event in seen:
        msgspec.json.decode(event.params, type=cdp.EVENTS[event.method])
    assert browser.connection.statistics().event_decode_errors == 0


async def test_a_tab_closed_by_another_client_is_forgotten(browser: Browser,
                                                           chromium: LaunchedChromium) -> None:
    idle = browser.statistics()
    tab = await browser.new_tab()
    assert browser.statistics().attached_tabs == idle.attached_tabs + 1
    async with open_browser(chromium.ws_url) as someone_else:
        await someone_else.close_tab(tab.id)
    with trio.fail_after(10):  # our detach event may trail the other connection's answer
        while tab.closed is None:
            await trio.sleep(0.01)
    after = browser.statistics()
    assert after.attached_tabs == idle.attached_tabs
    assert after.connection.sessions == idle.connection.sessions
    assert after.connection.observed_sessions == idle.connection.observed_sessions


async def test_an_attach_cancelled_midway_leaves_no_session(
        browser: Browser, monkeypatch: pytest.MonkeyPatch) -> None:
    # In the wild: Page.enable gets no answer while a dialog is open, and the caller gives up.
    start = Tab._start

    async def start_then_hang(tab: Tab, answer_timeout: float) -> None:
        await start(tab, answer_timeout)
        await trio.sleep_forever()

    blank = await browser.send(target.CreateTarget(url="about:blank"))
    idle = browser.statistics()
    monkeypatch.setattr(Tab, "_start", start_then_hang)
    with trio.move_on_after(1) as gave_up:
        await browser.tab(blank.targetId)
    monkeypatch.undo()
    assert gave_up.cancelled_caught
    after = browser.statistics()
    assert after.attached_tabs == idle.attached_tabs and after.attaching == 0
    assert after.connection.sessions == idle.connection.sessions
    assert after.connection.observed_sessions == idle.connection.observed_sessions
    infos = (await browser.send(target.GetTargets())).targetInfos
    assert [t.attached for t in infos if t.targetId == blank.targetId] == [False]
    tab = await browser.tab(blank.targetId)  # attachable again
    await browser.close_tab(tab.id)
