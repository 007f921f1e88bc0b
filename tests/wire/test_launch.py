"""launch_browser / launch_chromium: the process and the profile never outlive the block."""

from __future__ import annotations

import os
import signal
import socket
from pathlib import Path

import pytest
import trio

from cdpseq import (
    ConnectionClosed,
    PortInUse,
    TargetClosed,
    launch_browser,
    launch_chromium,
    open_browser,
)
from cdpseq.cdp import runtime


def processes_using(profile_dir: str) -> list[int]:
    """Pids whose command line mentions the profile directory (the browser and its children)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if profile_dir.encode() in cmdline:
            found.append(int(entry.name))
    return found


def assert_cleaned_up(profile_dir: str) -> None:
    assert processes_using(profile_dir) == []
    assert not os.path.exists(profile_dir)
    assert not os.path.exists(os.path.dirname(profile_dir))


@pytest.mark.browser
async def test_launch_browser_runs_and_cleans_up() -> None:
    async with launch_chromium() as chromium:
        profile = chromium.profile_dir
        assert processes_using(profile)
        async with open_browser(chromium.endpoint) as browser:
            tab = await browser.tab()
            result = await tab.send(runtime.Evaluate(expression="21 * 2", returnByValue=True))
            assert result.result.value == 42
    assert_cleaned_up(profile)


@pytest.mark.browser
async def test_launch_browser_yields_a_working_browser() -> None:
    async with launch_browser() as browser:
        assert browser.endpoint.startswith("ws://127.0.0.1:")
        assert browser.version.product
        assert len(await browser.tabs()) >= 1


@pytest.mark.browser
async def test_cleanup_when_the_body_raises() -> None:
    profile = ""
    with pytest.raises(ZeroDivisionError):
        async with launch_chromium() as chromium:
            profile = chromium.profile_dir
            _ = 1 / 0
    assert profile
    assert_cleaned_up(profile)


@pytest.mark.browser
async def test_cleanup_when_cancelled() -> None:
    profile = ""
    with trio.move_on_after(60) as scope:
        async with launch_chromium() as chromium:
            profile = chromium.profile_dir
            scope.cancel()
            await trio.sleep_forever()
    assert scope.cancelled_caught
    assert profile
    assert_cleaned_up(profile)


async def test_port_in_use_is_a_clear_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(PortInUse) as caught:
            async with launch_chromium(port=port):
                pass
    assert caught.value.port == port
    assert str(port) in str(caught.value)


@pytest.mark.browser
async def test_debugging_port_listens_on_loopback_only() -> None:
    async with launch_chromium() as chromium:
        listening = (await trio.Path("/proc/net/tcp").read_text()).splitlines()[1:]
        port_hex = f"{chromium.port:04X}"
        addresses = {line.split()[1] for line in listening
                     if line.split()[1].endswith(":" + port_hex) and line.split()[3] == "0A"}
        assert addresses == {"0100007F:" + port_hex}  # 127.0.0.1 only


@pytest.mark.browser
async def test_browser_killed_fails_pending_and_later_commands() -> None:
    async with launch_chromium() as chromium, open_browser(chromium.endpoint) as browser:
        tab = await browser.tab()
        errors: list[BaseException] = []

        async def pending() -> None:
            try:
                await tab.send(runtime.Evaluate(expression="new Promise(() => {})",
                                                awaitPromise=True))
            except BaseException as exc:  # noqa: BLE001 - inspected below
                errors.append(exc)

        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(pending)
                await trio.sleep(0.2)
                os.killpg(chromium.pid, signal.SIGKILL)
        assert len(errors) == 1
        # The renderer may be reported gone a moment before the socket closes.
        assert isinstance(errors[0], ConnectionClosed | TargetClosed), errors
        with trio.fail_after(5), pytest.raises(ConnectionClosed):
            await browser.tabs()
