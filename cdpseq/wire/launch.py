"""Start a local headless Chromium on 127.0.0.1 and always clean it up.

The browser runs in its own process group with a fresh profile in a temporary directory. On exit
— normal, error, or cancellation — the group gets SIGTERM, then SIGKILL if it lingers, and the
directory is removed. A persistent profile (``user_data_dir``) is claimed instead (``profile``)
and kept; its browser is asked to quit (``Browser.close``) before the group is stopped, so that it
writes what it holds. Headed (``headless=False``) needs a display, checked before anything starts.

``window_size`` is the viewport's: what a page sees as ``innerWidth`` x ``innerHeight``, in
every tab. ``--window-size`` alone sizes the window, browser UI included: measured on Chromium
156 headless, 1280x800 gives tabs 1280x713 (an 87 px toolbar), and the first window 1280x657 (a
56 px bar warning about ``--no-sandbox``, which root needs). So with a window size the launch
adds ``--test-type`` (no such bar), and once Chromium listens it sets the first window's
contents to the size (``Browser.setContentsSize``); Chromium opens every later window at the
size of the last one, so their viewports match too.

The debugging port is read from ``DevToolsActivePort``, which Chromium writes once its DevTools
server listens, so ``port=0`` (a free port chosen by Chromium) is as reliable as a fixed one.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import urllib.parse
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import ExitStack, asynccontextmanager
from pathlib import Path

import msgspec
import trio

from ..errors import (
    BrowserUnreachable,
    CdpseqError,
    LaunchError,
    PortInUse,
    ProfileInUse,
    ProtocolError,
)
from .connection import open_connection
from .endpoint import Endpoint, discover
from .profile import claim_profile, profile_holder

# Flags every launch gets. The background-networking ones keep Chromium from stalling on
# machines without a route to the internet; the background-timer/renderer/occluded ones keep
# tabs that are not in front (an automation browser acts in many at once) from having their
# timers throttled and their renderers deprioritized, which slowed 8 concurrent logins by a
# third (tools/bench/all.py, docs/BENCHMARKS.md); the rest keep a fresh profile quiet.
BASE_FLAGS: tuple[str, ...] = (
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=Translate,MediaRouter",
    "--password-store=basic",
    "--use-mock-keychain",
)

_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


class LaunchedChromium(msgspec.Struct, kw_only=True):
    """A Chromium that ``launch_chromium`` started: where it listens, and its process and
    profile (removed when the block exits, unless persistent)."""

    endpoint: str
    """``http://127.0.0.1:PORT``"""
    ws_url: str
    port: int
    pid: int
    profile_dir: str
    persistent: bool = False
    """Whether ``profile_dir`` is the caller's ``user_data_dir`` (kept) or a temporary one."""


def find_chromium() -> str:
    """``CHROME_PATH``, else the first Chromium/Chrome on PATH, else ``/usr/bin/chromium``."""
    env = os.environ.get("CHROME_PATH")
    if env:
        if not os.access(env, os.X_OK):
            raise LaunchError(f"CHROME_PATH={env} is not an executable file")
        return env
    for name in _CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    raise LaunchError("no Chromium found: set CHROME_PATH, or install it "
                      "(Debian: apt-get install -y chromium)")


_MIN_WINDOW, _MAX_WINDOW = 100, 10_000


def parse_window_size(text: str) -> tuple[int, int]:
    """``WxH`` (e.g. ``1280x800``) as (width, height); ValueError saying why otherwise."""
    width, sep, height = text.strip().lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise ValueError(f"must be WIDTHxHEIGHT in pixels (e.g. 1280x800), not {text!r}")
    return check_window_size((int(width), int(height)))


def check_window_size(size: tuple[int, int]) -> tuple[int, int]:
    """``size`` if both sides are whole pixels in 100-10000; ValueError saying why otherwise."""
    if (len(size) != 2 or not all(type(side) is int for side in size)
            or not all(_MIN_WINDOW <= side <= _MAX_WINDOW for side in size)):
        raise ValueError(f"width and height must be whole pixels in {_MIN_WINDOW}-{_MAX_WINDOW},"
                         f" not {size!r}")
    return size


def check_display(environ: Mapping[str, str] | None = None) -> None:
    """Raise ``LaunchError`` when a headed Chromium would find no display to open."""
    env = os.environ if environ is None else environ
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        raise LaunchError("a headed Chromium needs a display, and neither DISPLAY nor "
                          "WAYLAND_DISPLAY is set: run under a display server (e.g. "
                          "xvfb-run -a cdpseq ...) or leave headed off")


def chromium_command(executable: str, *, port: int, profile_dir: str, headless: bool = True,
                     extra_args: Sequence[str] = (), window_size: tuple[int, int] | None = None
                     ) -> list[str]:
    """The command line of a Chromium debuggable on 127.0.0.1:``port``."""
    args = [executable, f"--user-data-dir={profile_dir}", "--remote-debugging-address=127.0.0.1",
            f"--remote-debugging-port={port}", *BASE_FLAGS]
    if headless:
        args.append("--headless")
    if window_size is not None:
        args += [f"--window-size={window_size[0]},{window_size[1]}", "--test-type"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    args.extend(extra_args)
    args.append("about:blank")
    return args


def check_port_free(port: int) -> None:
    """Raise ``PortInUse`` if something listens on ``port`` of 127.0.0.1."""
    if port == 0:
        return
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            raise PortInUse(port) from None


def read_active_port(profile_dir: str) -> tuple[int, str] | None:
    """(port, websocket path) once Chromium's DevTools server listens, else None."""
    try:
        lines = Path(profile_dir, "DevToolsActivePort").read_text().split("\n")
    except OSError:
        return None
    if len(lines) < 2 or not lines[0].isdigit() or not lines[1].startswith("/devtools/"):
        return None  # not fully written yet
    return int(lines[0]), lines[1]


def stop_process_group(process: subprocess.Popen[bytes] | trio.Process) -> None:
    """SIGTERM the group now; callers wait, then ``kill_process_group``."""
    _signal_group(process.pid, signal.SIGTERM)


def kill_process_group(pid: int) -> None:
    """SIGKILL the process group ``pid`` leads (gone already is fine)."""
    _signal_group(pid, signal.SIGKILL)


def _signal_group(pid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def remove_tree(path: str) -> None:
    """Remove a directory Chromium may still be writing to, best effort."""
    # Chromium's last writes may race the first removal; a second pass takes the rest.
    for _ in range(3):
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.exists(path):
            return


def _log_tail(log_path: Path) -> str:
    try:
        text = log_path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return ""
    return "\n".join(text[-8:])


@asynccontextmanager
async def launch_chromium(*, port: int = 0, executable: str | None = None, headless: bool = True,
                          extra_args: Sequence[str] = (), startup_timeout: float = 30.0,
                          user_data_dir: str | os.PathLike[str] | None = None,
                          window_size: tuple[int, int] | None = None
                          ) -> AsyncIterator[LaunchedChromium]:
    """Run a Chromium for the duration of the block; see the module comment. Raises
    ``ProfileInUse`` at once when another browser holds ``user_data_dir``, ``LaunchError`` for
    a headed launch without a display or a bad ``window_size``."""
    if window_size is not None:
        try:
            window_size = check_window_size(tuple(window_size))  # type: ignore[arg-type]
        except (TypeError, ValueError) as exc:
            raise LaunchError(f"window_size: {exc}") from None
    if not headless:
        check_display()
    check_port_free(port)
    executable = executable or find_chromium()
    process: trio.Process | None = None
    active_ws: str | None = None
    with ExitStack() as claimed:
        root = tempfile.mkdtemp(prefix="cdpseq-")
        claimed.callback(remove_tree, root)  # the log, and an ephemeral profile
        profile = (os.path.join(root, "profile") if user_data_dir is None
                   else claimed.enter_context(claim_profile(user_data_dir)))
        log_path = Path(root, "chromium.log")
        try:
            with open(log_path, "wb") as log_file:  # noqa: ASYNC230 - a local file, opened once
                command = chromium_command(executable, port=port, profile_dir=profile,
                                           headless=headless, extra_args=extra_args,
                                           window_size=window_size)
                try:
                    process = await trio.lowlevel.open_process(
                        command, stdin=subprocess.DEVNULL, stdout=log_file, stderr=log_file,
                        start_new_session=True)
                except OSError as exc:
                    raise LaunchError(f"could not start {executable}: {exc}") from None
            active = await _wait_for_devtools(process, profile, log_path, port, startup_timeout)
            active_ws = f"ws://127.0.0.1:{active[0]}{active[1]}"
            if window_size is not None:
                await _size_contents(active_ws, window_size)
            yield LaunchedChromium(endpoint=f"http://127.0.0.1:{active[0]}", ws_url=active_ws,
                                   port=active[0], pid=process.pid, profile_dir=profile,
                                   persistent=user_data_dir is not None)
        finally:
            with trio.CancelScope(shield=True):
                if process is not None:
                    if user_data_dir is not None and active_ws is not None:
                        await _close_browser(process, active_ws)
                    await _stop(process, graceful=user_data_dir is not None)


async def _wait_for_devtools(process: trio.Process, profile: str, log_path: Path, port: int,
                             startup_timeout: float) -> tuple[int, str]:
    # With port 0 Chromium names its port in DevToolsActivePort; with a fixed port Chromium 156
    # does not write that file, so ask the port itself.
    with trio.move_on_after(startup_timeout):
        while True:
            active = read_active_port(profile) if port == 0 else await _ask(port)
            if active is not None:
                return active
            if process.poll() is not None:
                if "ProcessSingleton" in _log_tail(log_path):  # a browser took it meanwhile
                    held = profile_holder(profile)
                    raise ProfileInUse(profile, held[0] if held else None)
                raise LaunchError(f"Chromium exited with code {process.returncode} before its "
                                  f"DevTools server listened:\n{_log_tail(log_path)}")
            if port and "Cannot start http server for devtools" in _log_tail(log_path):
                raise PortInUse(port)
            await trio.sleep(0.02)
    raise LaunchError(f"Chromium's DevTools server did not start within {startup_timeout:g} s:\n"
                      f"{_log_tail(log_path)}")


async def _ask(port: int) -> tuple[int, str] | None:
    try:
        ws_url = await discover(Endpoint(str(port), http_base=f"http://127.0.0.1:{port}"),
                                answer_timeout=1.0)
    except BrowserUnreachable:
        return None
    return port, urllib.parse.urlsplit(ws_url).path


async def _size_contents(ws_url: str, size: tuple[int, int]) -> None:
    """Make the first window's viewport ``size`` (see the module comment). An older Chromium
    without ``Browser.setContentsSize`` keeps the window at ``--window-size``."""
    with trio.move_on_after(10):
        async with open_connection(ws_url) as connection:
            while True:  # the first tab is there at once, or nearly
                found = await connection.execute("Target.getTargets")
                pages = [t["targetId"] for t in found["targetInfos"] if t["type"] == "page"]
                if pages:
                    break
                await trio.sleep(0.02)
            window = await connection.execute("Browser.getWindowForTarget",
                                              {"targetId": pages[0]})
            with contextlib.suppress(ProtocolError):
                await connection.execute("Browser.setContentsSize", {
                    "windowId": window["windowId"], "width": size[0], "height": size[1]})


async def _close_browser(process: trio.Process, ws_url: str) -> None:
    """Ask the browser to quit (``Browser.close``) and wait for it, bounded: a kept profile
    then holds what the browser had not yet written (measured on Chromium 156: a cookie set
    just before a SIGTERM to the group, or to the browser alone, is lost)."""
    with trio.move_on_after(10):
        with contextlib.suppress(CdpseqError):
            async with open_connection(ws_url, connect_timeout=2) as connection:
                with contextlib.suppress(CdpseqError):
                    await connection.execute("Browser.close")
        await process.wait()


async def _stop(process: trio.Process, *, graceful: bool = False) -> None:
    stop_process_group(process)
    with trio.move_on_after(5):
        await process.wait()
    kill_process_group(process.pid)  # stragglers of the group (renderers, zygote) too
    with trio.move_on_after(5):
        await process.wait()
    if graceful:
        # The next launch on this profile must not find the last one's zygote still holding
        # it: wait (bounded) until the group is gone.
        with trio.move_on_after(2):
            while True:
                if not _group_alive(process.pid):
                    break
                await trio.sleep(0.02)


def _group_alive(pgid: int) -> bool:
    """Whether a process of group ``pgid`` still runs: a zombie does not count (one nobody
    reaps, as under a container's bare init, would hold the wait to its bound)."""
    try:
        entries = os.listdir("/proc")
    except OSError:  # no procfs: any member, zombie or not
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        return True
    for name in entries:
        if not name.isdigit():
            continue
        try:
            stat = Path("/proc", name, "stat").read_text()
        except OSError:
            continue
        state, _ppid, group = stat.rpartition(")")[2].split()[:3]
        if group == str(pgid) and state != "Z":
            return True
    return False
