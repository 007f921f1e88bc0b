"""Persistent profiles, window size and headed mode, in real Chromium: what a page stored in one
run is there in the next on the same profile, a profile serves one browser at a time (a typed
error at once, naming the holder), and cdpseq never removes a profile it was given."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from cdpseq import LaunchError, ProfileInUse, launch_browser, launch_chromium
from cdpseq.wire.launch import chromium_command, find_chromium, parse_window_size
from fixtures.server import FixtureServer
from tests.helpers import js, run
from tests.wire.test_launch import processes_using

pytestmark = pytest.mark.browser

BOUND = 60  # no launch here may take longer; a hang fails the test instead of stalling the run


async def test_a_profile_keeps_cookies_and_storage_between_runs(
        tmp_path: Path, server: FixtureServer) -> None:
    profile = tmp_path / "profile"
    page = server.url("/index.html")
    with trio.fail_after(BOUND):
        async with launch_browser(user_data_dir=profile) as browser:
            tab = await browser.tab()
            await run(tab, {"type": "navigate", "url": page})
            await js(tab, "document.cookie = 'kept=cookie-1; max-age=3600; path=/';"
                          "localStorage.setItem('kept', 'storage-1')")
            assert await js(tab, "document.cookie") == "kept=cookie-1"
    assert profile.is_dir()  # given, so kept
    assert processes_using(str(profile)) == []
    with trio.fail_after(BOUND):
        async with launch_browser(user_data_dir=profile) as browser:
            tab = await browser.tab()
            await run(tab, {"type": "navigate", "url": page})
            assert await js(tab, "document.cookie") == "kept=cookie-1"
            assert await js(tab, "localStorage.getItem('kept')") == "storage-1"
    assert profile.is_dir()


async def test_a_fresh_profile_is_not_the_kept_one(tmp_path: Path, server: FixtureServer) -> None:
    """The default stays ephemeral: nothing of a persistent run leaks into it, and its
    directory goes with it."""
    with trio.fail_after(BOUND):
        async with launch_browser(user_data_dir=tmp_path / "profile") as browser:
            tab = await browser.tab()
            await run(tab, {"type": "navigate", "url": server.url("/index.html")})
            await js(tab, "localStorage.setItem('kept', 'yes')")
        async with launch_chromium() as chromium:
            temporary = chromium.profile_dir
            assert not chromium.persistent
        assert not Path(temporary).parent.exists()  # noqa: ASYNC240 - a check, once


async def test_a_second_launch_on_a_held_profile_fails_at_once(tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    with trio.fail_after(BOUND):
        async with launch_chromium(user_data_dir=profile) as first:
            assert first.persistent and first.profile_dir == str(profile)
            with pytest.raises(ProfileInUse) as caught:
                async with launch_chromium(user_data_dir=profile):
                    pass
            assert caught.value.pid == first.pid
            assert caught.value.profile_dir == str(profile)
            assert f"{profile}" in str(caught.value) and f"pid {first.pid}" in str(caught.value)
            assert processes_using(str(profile)) != []  # the first one is untouched
    assert processes_using(str(profile)) == []


async def test_a_profile_held_by_a_chromium_cdpseq_did_not_start_is_refused(
        tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    profile.mkdir()
    command = chromium_command(find_chromium(), port=0, profile_dir=str(profile))
    other = subprocess.Popen(command,  # noqa: ASYNC220 - started once, killed below stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        with trio.fail_after(BOUND):
            while not os.path.lexists(profile / "SingletonLock"):  # noqa: ASYNC240
                await trio.sleep(0.05)
            with pytest.raises(ProfileInUse) as caught:
                async with launch_chromium(user_data_dir=profile):
                    pass
        assert caught.value.pid == other.pid
        assert other.poll() is None
    finally:
        os.killpg(other.pid, 9)
        other.wait()


async def test_window_size_is_every_tabs_viewport(server: FixtureServer) -> None:
    with trio.fail_after(BOUND):
        async with launch_browser(window_size=(1000, 700)) as browser:
            first = await browser.tab()
            assert await js(first, "[innerWidth, innerHeight]") == [1000, 700]
            later = await browser.new_tab(server.url("/index.html"))
            assert await js(later, "[innerWidth, innerHeight]") == [1000, 700]
            assert await js(later, "matchMedia('(width: 1000px) and (height: 700px)').matches")


@pytest.mark.parametrize("bad", [(50, 700), (1000, 0), (1000.5, 700), (1, 2, 3)])
async def test_a_bad_window_size_is_refused_naming_it(bad: tuple[int, int]) -> None:
    with pytest.raises(LaunchError, match="window_size"):
        async with launch_chromium(window_size=bad):
            pass


@pytest.mark.parametrize("text", ["1280", "x800", "1280x", "12x800", "axb", "-5x5"])
def test_parse_window_size_refuses(text: str) -> None:
    with pytest.raises(ValueError, match="pixels"):
        parse_window_size(text)


def test_parse_window_size() -> None:
    assert parse_window_size(" 1280X800 ") == (1280, 800)


async def test_headed_without_a_display_fails_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.raises(LaunchError, match="DISPLAY"):
        async with launch_chromium(headless=False):
            pass


@pytest.fixture
def xvfb() -> Iterator[str]:
    """A virtual X display (tools/setup installs Xvfb): its DISPLAY value."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1600x1200x24",
                               "-nolisten", "tcp"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        assert number.isdigit(), "Xvfb did not start (tools/setup installs it)"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


async def test_headed_opens_a_window_on_a_display(
        xvfb: str, monkeypatch: pytest.MonkeyPatch, server: FixtureServer) -> None:
    monkeypatch.setenv("DISPLAY", xvfb)
    with trio.fail_after(BOUND):
        async with launch_browser(headless=False, window_size=(900, 650)) as browser:
            assert "HeadlessChrome" not in browser.version.user_agent
            tab = await browser.tab()
            await run(tab, {"type": "navigate", "url": server.url("/index.html")})
            assert await js(tab, "[innerWidth, innerHeight]") == [900, 650]
            later = await browser.new_tab(server.url("/index.html"))
            assert await js(later, "[innerWidth, innerHeight]") == [900, 650]


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cdpseq", *args], capture_output=True,
                          text=True, timeout=BOUND, env=env, stdin=subprocess.DEVNULL)


def test_the_managed_browser_remembers_its_profile_and_refuses_another(tmp_path: Path) -> None:
    env = {**os.environ, "CDPSEQ_STATE_DIR": str(tmp_path / "state")}
    env.pop("CDPSEQ_CDP", None)
    kept, other = tmp_path / "kept", tmp_path / "other"
    try:
        started = _cli(env, "tabs", "--profile", str(kept), "--window-size", "1000x700")
        assert started.returncode == 0, started.stderr
        assert f"persistent profile {kept}" in started.stderr
        # No wish: the running one, whatever it runs with.
        assert _cli(env, "tabs", "--cdp", "managed").returncode == 0
        # The same wish: the same browser.
        same = _cli(env, "tabs", "--profile", str(kept))
        assert same.returncode == 0 and "using the managed Chromium" in same.stderr
        refused = _cli(env, "tabs", "--profile", str(other))
        assert refused.returncode == 4
        assert str(kept) in refused.stderr and str(other) in refused.stderr
        assert not other.exists()
        resized = _cli(env, "tabs", "--window-size", "800x600")
        assert resized.returncode == 4 and "1000x700" in resized.stderr
        # The profile serves one browser: `cdpseq launch` on it fails at once.
        launched = _cli(env, "launch", "--port", "0", "--profile", str(kept))
        assert launched.returncode == 4 and "ProfileInUse" not in launched.stderr
        assert f"{kept} is in use" in launched.stderr
    finally:
        closed = _cli(env, "close")
    assert closed.returncode == 0 and f"kept its profile {kept}" in closed.stderr
    assert (kept / "Default").is_dir()
    assert processes_using(str(kept)) == []


def test_launch_options_do_not_apply_to_another_browser(tmp_path: Path) -> None:
    env = {**os.environ, "CDPSEQ_STATE_DIR": str(tmp_path / "state")}
    refused = _cli(env, "tabs", "--cdp", "127.0.0.1:9", "--profile", str(tmp_path))
    assert refused.returncode == 2 and "--cdp 127.0.0.1:9" in refused.stderr
    bad = _cli(env, "tabs", "--window-size", "big")
    assert bad.returncode == 2 and "--window-size" in bad.stderr


async def test_mcp_launches_on_a_kept_profile_at_a_size_and_prints(
        tmp_path: Path, server: FixtureServer) -> None:
    from tests.front.test_mcp import mcp_server  # the MCP SDK's client: a test extra

    kept, printed = tmp_path / "kept", tmp_path / "page.pdf"
    with trio.fail_after(BOUND):
        # Launch options without --cdp: a launched browser, not one on the default port.
        async with mcp_server(tmp_path, "--profile", str(kept), "--window-size",
                              "900x600") as served:
            opened = await served.call("tabs", {"action": "new",
                                                "url": server.url("/index.html")})
            assert not opened.is_error, opened.text
            reply = await served.call("act", {"steps": [
                {"type": "screenshot"}, {"type": "pdf", "path": str(printed)}]})
            assert not reply.is_error, reply.text
            shot, pdf = (step["output"] for step in reply.structured["steps"])
            assert (shot["width"], shot["height"]) == (900, 600)
            assert pdf["path"] == str(printed)
            served.logged(f"profile={kept}")
    assert printed.read_bytes().startswith(b"%PDF-")  # noqa: ASYNC240 - a check, once
    assert (kept / "Default").is_dir()  # noqa: ASYNC240 - kept after the server's exit
    assert processes_using(str(kept)) == []


def test_mcp_launch_options_with_cdp_need_launch_if_missing(tmp_path: Path) -> None:
    refused = _cli({**os.environ}, "mcp", "--cdp", "127.0.0.1:9", "--profile", str(tmp_path))
    assert refused.returncode == 2 and "--launch-if-missing" in refused.stderr
