"""The CLI daemon (front/daemon, front/client): a user-only Unix socket, replacing a daemon of
another identity, the idle exit, one call's secrets never reaching another, Ctrl-C cancelling
the call's act, and two calls on two tabs not waiting on each other.

Each test gets its own daemon directory (``$CDPSEQ_DAEMON_DIR``; short, under /tmp: a Unix
socket path has ~100 bytes), hence its own daemon, stopped when the test ends.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cdpseq import LaunchedChromium
from tests.conftest import stop_daemon
from tests.front.test_cli_act import (  # noqa: F401 - env and open_tab are fixtures
    CLI,
    SECRET,
    act,
    cli,
    env,
    evaluate,
    open_tab,
    read_page,
    refs_of,
)

BOUND = 30.0  # seconds: every wait on a process here has this bound


def daemon_pids(directory: Path) -> list[int]:
    """The pids of the daemons serving ``directory``'s sockets (from their command lines)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"cdpseq.front.daemon" in command and any(
                part.startswith(str(directory).encode()) for part in command):
            found.append(int(entry.name))
    return found


def poll(condition: Callable[[], bool], what: str) -> None:
    """Wait (bounded) until ``condition`` holds."""
    import time

    deadline = time.monotonic() + BOUND
    while not condition():
        assert time.monotonic() < deadline, f"not within {BOUND} s: {what}"
        time.sleep(0.05)


@pytest.fixture
def daemon_env(env: dict[str, str]) -> Iterator[dict[str, str]]:  # noqa: F811
    """The environment of CLI calls through a daemon of their own state directory."""
    directory = Path(tempfile.mkdtemp(prefix="cdpseq-d-"))
    calls = {**env, "CDPSEQ_DAEMON_DIR": str(directory), "CDPSEQ_DAEMON_WAIT": "1"}
    calls.pop("CDPSEQ_NO_DAEMON", None)
    try:
        yield calls
    finally:
        for sock in directory.glob("daemon-*.sock"):
            stop_daemon(sock)
        poll(lambda: not daemon_pids(directory), "the daemon stops when asked to")
        shutil.rmtree(directory, ignore_errors=True)


def _state(calls: dict[str, str]) -> Path:
    return Path(calls["CDPSEQ_DAEMON_DIR"])


def _listening_tcp_inodes() -> set[str]:
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as rows:
            for row in list(rows)[1:]:
                fields = row.split()
                if fields[3] == "0A":  # LISTEN
                    inodes.add(fields[9])
    return inodes


def test_the_daemon_listens_only_on_a_user_only_unix_socket(daemon_env: dict[str, str]) -> None:
    run = cli(daemon_env, "schema")
    assert run.returncode == 0, run.stderr
    assert '"title": "ActRequest"' in run.stdout
    directory = _state(daemon_env)
    [sock] = directory.glob("daemon-*.sock")
    assert stat.S_ISSOCK(sock.stat().st_mode)
    assert stat.S_IMODE(sock.stat().st_mode) == 0o600
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    [pid] = daemon_pids(directory)
    sockets = {os.readlink(fd)[len("socket:["):-1] for fd in Path(f"/proc/{pid}/fd").iterdir()
               if os.readlink(fd).startswith("socket:[")}
    assert sockets, "the daemon holds its Unix socket"
    assert not sockets & _listening_tcp_inodes(), "the daemon listens on no TCP port"


def test_a_daemon_of_another_identity_is_replaced(daemon_env: dict[str, str]) -> None:
    directory = _state(daemon_env)
    old_sock = directory / "daemon-0000000000000000.sock"
    old = subprocess.Popen([sys.executable, "-m", "cdpseq.front.daemon", "--socket",
                            str(old_sock), "--idle", "600"], env=daemon_env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    try:
        poll(old_sock.exists, "the older daemon listens")
        run = cli(daemon_env, "schema")
        assert run.returncode == 0, run.stderr
        assert old.wait(BOUND) == 0  # asked to go by the new one, it went
        assert not old_sock.exists()
        [new_sock] = directory.glob("daemon-*.sock")
        assert new_sock != old_sock
    finally:
        if old.poll() is None:
            old.kill()
            old.wait(BOUND)


def test_an_idle_daemon_exits_and_the_next_call_starts_another(
        daemon_env: dict[str, str]) -> None:
    idle = {**daemon_env, "CDPSEQ_DAEMON_IDLE_TIMEOUT": "1"}
    directory = _state(idle)
    assert cli(idle, "schema").returncode == 0
    [first] = daemon_pids(directory)
    poll(lambda: not daemon_pids(directory), "the idle daemon exits")
    assert not list(directory.glob("daemon-*.sock"))
    assert cli(idle, "schema").returncode == 0
    assert daemon_pids(directory) not in ([], [first])


def test_one_calls_secret_never_reaches_another(chromium: LaunchedChromium,
                                                daemon_env: dict[str, str],
                                                open_tab: Callable[[str], str]) -> None:  # noqa: F811
    tab_id = open_tab("/login.html")
    refs = refs_of(read_page(daemon_env, chromium, tab_id))
    first = act(daemon_env, chromium, [
        {"type": "fill", "target": refs[("textbox", "Password")], "credentialRef": "pw"},
    ], "--tab", tab_id, extra_env={"CDPSEQ_SECRET_PW": SECRET})
    assert first.returncode == 0, first.stdout + first.stderr
    assert evaluate(chromium, tab_id, 'document.getElementById("password").value') == SECRET
    second = act(daemon_env, chromium, [
        {"type": "fill", "target": refs[("textbox", "Email")], "credentialRef": "pw"},
    ], "--tab", tab_id)
    assert second.returncode == 2, second.stdout + second.stderr
    assert "CDPSEQ_SECRET_PW" in json.loads(second.stdout)["failed"]["error"]
    assert SECRET not in second.stdout + second.stderr
    assert evaluate(chromium, tab_id, 'document.getElementById("email").value') == ""
    [pid] = daemon_pids(_state(daemon_env))
    assert SECRET.encode() not in Path(f"/proc/{pid}/environ").read_bytes()


def _blocked_act(daemon_env: dict[str, str], chromium: LaunchedChromium, tab_id: str,
                 email: str) -> subprocess.Popen[str]:
    """An act that fills the email with ``started``, waits until the page shows GO, then fills
    it with ``email``; started once the page shows ``started``."""
    request = {"steps": [
        {"type": "fill", "selector": "#email", "value": "started"},
        {"type": "wait_for", "text": "GO", "timeoutMs": 60000},
        {"type": "fill", "selector": "#email", "value": email},
    ], "timeoutMs": 120000, "perStepTimeoutMs": 60000}
    process = subprocess.Popen([*CLI, "act", "--cdp", chromium.endpoint, "--tab", tab_id,
                                "--steps", "-"], env=daemon_env, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdin is not None
    process.stdin.write(json.dumps(request))
    process.stdin.close()
    poll(lambda: evaluate(chromium, tab_id, 'document.getElementById("email").value')
         == "started", "the act started")
    return process


_SHOW_GO = 'document.body.append(Object.assign(document.createElement("p"), {textContent: "GO"}))'


def test_ctrl_c_cancels_the_act_and_the_daemon_serves_the_next_call(
        chromium: LaunchedChromium, daemon_env: dict[str, str],
        open_tab: Callable[[str], str]) -> None:  # noqa: F811
    tab_id = open_tab("/login.html")
    assert cli(daemon_env, "schema").returncode == 0  # the daemon is up
    process = _blocked_act(daemon_env, chromium, tab_id, "late")
    process.send_signal(signal.SIGINT)
    assert process.wait(BOUND) == 130
    evaluate(chromium, tab_id, _SHOW_GO)
    # The next call is served; its own act settles after a fill, time enough for a live
    # wait_for to have seen GO and filled "late".
    after = act(daemon_env, chromium, [
        {"type": "fill", "selector": "#password", "value": "next"},
        {"type": "wait", "ms": 500},
    ], "--tab", tab_id)
    assert after.returncode == 0, after.stdout + after.stderr
    assert evaluate(chromium, tab_id, 'document.getElementById("email").value') == "started"
    assert evaluate(chromium, tab_id, 'document.getElementById("password").value') == "next"


def test_calls_on_two_tabs_do_not_wait_on_each_other(
        chromium: LaunchedChromium, daemon_env: dict[str, str],
        open_tab: Callable[[str], str]) -> None:  # noqa: F811
    first, second = open_tab("/login.html"), open_tab("/login.html")
    assert cli(daemon_env, "schema").returncode == 0
    blocked = _blocked_act(daemon_env, chromium, first, "first done")
    try:
        other = act(daemon_env, chromium, [
            {"type": "fill", "selector": "#email", "value": "second done"},
        ], "--tab", second)
        assert other.returncode == 0, other.stdout + other.stderr
        assert blocked.poll() is None  # the first call still waits for GO
        assert evaluate(chromium, second, 'document.getElementById("email").value') \
            == "second done"
        evaluate(chromium, first, _SHOW_GO)
        assert blocked.wait(BOUND) == 0, blocked.communicate()
        assert evaluate(chromium, first, 'document.getElementById("email").value') \
            == "first done"
    finally:
        if blocked.poll() is None:
            blocked.kill()
            blocked.wait(BOUND)
