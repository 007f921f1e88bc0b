"""The managed browser of the CLI, and `cdpseq tabs new|select|close`, as real processes.

Every test gets its own state directory (``$CDPSEQ_STATE_DIR``) and ends with ``cdpseq close``
and a check that no keeper, no Chromium and no profile of it is left. Without ``--cdp`` the CLI
first asks 127.0.0.1:9222; should a Chrome answer there on this machine, the tests name the
managed browser explicitly (``--cdp managed``), which takes the same path from there on.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
import trio

from cdpseq import LaunchedChromium
from cdpseq.wire.managed import ManagedRecord, read_record, write_record
from fixtures.server import FixtureServer

from .test_mcp import (
    assert_no_chromium_left,
    kill_launched_chromium,
    mcp_server,
    processes_mentioning,
)

CLI = [sys.executable, "-m", "cdpseq"]
TIMEOUT = 90
_STARTED = re.compile(r"started a managed headless Chromium at \S+ \(pid (\d+), profile (\S+);")
_USING = re.compile(r"using the managed Chromium at \S+ \(pid (\d+),")


def _default_port_answers() -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", 9222)) == 0


class Managed:
    """A state directory and the CLI run against it."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.args = ["--cdp", "managed"] if _default_port_answers() else []
        self.env = {k: v for k, v in os.environ.items() if k != "CDPSEQ_CDP"}
        self.env.update(CDPSEQ_STATE_DIR=str(directory), PYTHONIOENCODING="utf-8")
        self.profiles: set[str] = set()

    def command(self, name: str, *args: str) -> list[str]:
        browser = name in ("tabs", "read-page", "act") and "--cdp" not in args
        browser_args = self.args if browser else []
        return [*CLI, name, *args, *browser_args]

    def run(self, name: str, *args: str, stdin: str | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            self.command(name, *args), capture_output=True, text=True, encoding="utf-8",
            timeout=TIMEOUT, env={**self.env, **(env or {})},
            **({"input": stdin} if stdin is not None else {"stdin": subprocess.DEVNULL}))
        self.note(done.stderr)
        return done

    def note(self, stderr: str) -> None:
        self.profiles.update(m.group(2) for m in _STARTED.finditer(stderr))

    def record(self) -> ManagedRecord | None:
        return read_record(self.directory)

    def leftovers(self) -> list[str]:
        """What is left of every browser these tests started: processes and profiles."""
        left = [f"process {pid}" for pid in processes_mentioning(str(self.directory))]
        for profile in self.profiles:
            left += [f"process {pid}" for pid in processes_mentioning(profile)]
            if os.path.exists(os.path.dirname(profile)):
                left.append(f"profile {profile}")
        return left

    def wait_until_gone(self, bound: float = 20) -> list[str]:
        deadline = time.monotonic() + bound
        while (left := self.leftovers()) and time.monotonic() < deadline:
            time.sleep(0.1)
        return left


@pytest.fixture
def managed(tmp_path: Path) -> Iterator[Managed]:
    state = Managed(tmp_path / "state")
    try:
        yield state
    finally:
        closed = state.run("close")
        left = state.wait_until_gone()
        for entry in left:  # leave nothing running, even when the test failed
            if entry.startswith("process "):
                try:
                    os.kill(int(entry.split()[1]), 9)
                except ProcessLookupError:
                    pass
        assert closed.returncode == 0, closed.stderr
        assert left == [], left


def _pid(stderr: str) -> tuple[str, int]:
    if found := _STARTED.search(stderr):
        return "started", int(found.group(1))
    if found := _USING.search(stderr):
        return "using", int(found.group(1))
    raise AssertionError(f"no managed browser named on stderr: {stderr!r}")


def _listing(done: subprocess.CompletedProcess[str]) -> list[dict[str, object]]:
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert isinstance(rows, list)
    return rows


def _current(rows: list[dict[str, object]]) -> dict[str, object]:
    current = [row for row in rows if row["current"]]
    assert len(current) == 1, rows
    return current[0]


# -- first use, reuse, tabs across processes, close ----------------------------------------


@pytest.mark.browser
def test_fresh_machine_act_then_tabs_across_processes_then_close(
        managed: Managed, server: FixtureServer) -> None:
    login, status = server.url("/login.html"), server.url("/status.html")
    steps = json.dumps({"steps": [{"type": "navigate", "url": login}, {"type": "read_page"}]})
    first = managed.run("act", "--steps", "-", stdin=steps)
    assert first.returncode == 0, first.stdout + first.stderr
    assert json.loads(first.stdout)["ok"] is True
    assert json.loads(first.stdout)["tab"]["url"] == login
    kind, pid = _pid(first.stderr)
    assert kind == "started" and first.stderr.count("managed") == 1
    record = managed.record()
    assert record is not None and record.pid == pid and Path(record.profile_dir).is_dir()

    # tabs new: a second tab, loaded, current for the NEXT process.
    opened = managed.run("tabs", "new", status)
    rows = _listing(opened)
    assert _pid(opened.stderr) == ("using", pid)
    assert [row["url"] for row in rows].count(status) == 1
    new_id = _current(rows)["id"]
    assert _current(rows)["url"] == status
    read = managed.run("read-page")
    assert read.returncode == 0 and status in read.stdout.splitlines()[0], read.stdout

    # tabs select: the first tab again, for act without --tab in another process.
    first_id = next(row["id"] for row in rows if row["url"] == login)
    assert _current(_listing(managed.run("tabs", "select", str(first_id))))["id"] == first_id
    acted = managed.run("act", "--steps", "-", stdin='[{"type": "read_page"}]')
    assert json.loads(acted.stdout)["tab"]["id"] == first_id, acted.stdout
    assert _current(_listing(managed.run("tabs")))["id"] == first_id

    # tabs close: the tab goes; closing the current one makes the first remaining current.
    rows = _listing(managed.run("tabs", "close", str(first_id)))
    assert [row["id"] for row in rows] == [new_id] and rows[0]["current"] is True
    unknown = managed.run("tabs", "select", "NO-SUCH-TAB")
    assert unknown.returncode == 2 and "tabId" in unknown.stderr

    # tabs new obeys the URL policy flags, and opens nothing it refuses.
    blocked = managed.run("tabs", "new", "http://blocked.test:1/", "--deny-host", "blocked.test")
    assert blocked.returncode == 1 and "URL_BLOCKED" in blocked.stderr
    relative = managed.run("tabs", "new", "no-scheme")
    assert relative.returncode == 2 and "url:" in relative.stderr
    assert [row["id"] for row in _listing(managed.run("tabs"))] == [new_id]

    closed = managed.run("close")
    assert closed.returncode == 0 and f"pid {pid}" in closed.stderr
    assert managed.record() is None
    assert managed.wait_until_gone() == []
    again = managed.run("close")
    assert again.returncode == 0 and "no managed browser" in again.stderr


@pytest.mark.browser
def test_concurrent_first_use_starts_one_browser(managed: Managed) -> None:
    processes = [subprocess.Popen(managed.command("tabs"), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                                  env=managed.env) for _ in range(3)]
    outcomes = []
    for process in processes:
        out, err = process.communicate(timeout=TIMEOUT)
        managed.note(err)
        assert process.returncode == 0, err
        assert json.loads(out)
        outcomes.append(_pid(err))
    assert sorted(kind for kind, _ in outcomes) == ["started", "using", "using"], outcomes
    assert len({pid for _, pid in outcomes}) == 1, outcomes


# -- stale records --------------------------------------------------------------------------


@pytest.mark.browser
def test_a_record_of_reused_pids_is_stale(managed: Managed, tmp_path: Path) -> None:
    # The pids run (this test's own process) but are no keeper and no Chromium: nothing may be
    # signalled; the leftover profile of the dead browser is removed; a new browser starts.
    profile = tmp_path / "cdpseq-stale" / "profile"
    profile.mkdir(parents=True)
    managed.directory.mkdir(parents=True)
    write_record(managed.directory, ManagedRecord(
        keeper_pid=os.getpid(), pid=os.getpid(), port=1, ws_url="ws://127.0.0.1:1/devtools/x",
        profile_dir=str(profile), started_at=0, idle_timeout=900))
    done = managed.run("tabs")
    assert _listing(done)
    kind, pid = _pid(done.stderr)
    assert kind == "started" and pid != os.getpid()
    assert not profile.parent.exists()


def test_a_record_whose_port_answers_another_browser_is_stale(
        managed: Managed, chromium: LaunchedChromium) -> None:
    kind, old_pid = _pid(managed.run("tabs").stderr)
    assert kind == "started"
    record = managed.record()
    assert record is not None
    # The port now answers another browser (the test session's): the record no longer holds.
    write_record(managed.directory, msgspec.structs.replace(record, port=chromium.port))
    done = managed.run("tabs")
    assert _listing(done)
    kind, pid = _pid(done.stderr)
    assert kind == "started" and pid not in (old_pid, chromium.pid)
    assert processes_mentioning(record.profile_dir) == []  # the old one was stopped
    assert not os.path.exists(record.profile_dir)
    assert os.path.exists(f"/proc/{chromium.pid}")  # the other browser was left alone


@pytest.mark.browser
def test_garbage_record_is_replaced(managed: Managed) -> None:
    managed.directory.mkdir(parents=True)
    (managed.directory / "browser.json").write_text("{not json")
    done = managed.run("tabs")
    assert _listing(done) and _pid(done.stderr)[0] == "started"


# -- idle stop ------------------------------------------------------------------------------


@pytest.mark.browser
def test_idle_browser_stops_by_itself(managed: Managed) -> None:
    done = managed.run("tabs", env={"CDPSEQ_IDLE_TIMEOUT": "1"})
    assert _listing(done) and "stops after 1 s unused" in done.stderr
    assert managed.wait_until_gone(bound=30) == []
    assert managed.record() is None
    assert "unused for 1 s; stopping Chromium" in (managed.directory / "keeper.log").read_text()


# -- what starts nothing --------------------------------------------------------------------


def test_bad_idle_timeout_and_explicit_endpoints_start_nothing(managed: Managed) -> None:
    done = managed.run("tabs", env={"CDPSEQ_IDLE_TIMEOUT": "soon"})
    assert done.returncode == 4
    assert "$CDPSEQ_IDLE_TIMEOUT" in done.stderr and "'soon'" in done.stderr
    assert managed.record() is None
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = managed.run("tabs", "--cdp", str(port))
    assert done.returncode == 3 and managed.record() is None
    # The MCP server opens its browser on the first call (none here: its stdin is closed).
    mcp = managed.run("mcp", "--cdp", str(port))
    assert mcp.returncode == 0 and managed.record() is None, mcp.stderr


# -- cdpseq mcp without an endpoint ---------------------------------------------------------


@pytest.mark.browser
@pytest.mark.daemon_free
async def test_mcp_without_an_endpoint_launches_its_own_and_says_when_it_is_gone(
        tmp_path: Path, server: FixtureServer) -> None:
    default_port_silent = not _default_port_answers()
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path, "--deny-host", "blocked.test", name="plain") as served:
            reply = await served.call("act", {"steps": [
                {"type": "navigate", "url": server.url("/status.html")}, {"type": "read_page"}]})
            assert not reply.is_error, reply.text
            if not default_port_silent:
                return  # it attached to the Chrome on 9222, as documented; nothing to kill
            served.logged(r"launched Chromium pid=\d+")
            profile = await kill_launched_chromium(served)
            gone = await served.call("read_page", {})
            assert gone.is_error and "CONNECTION_LOST" in gone.text, gone.text
            assert "the next call attaches or launches one again" in gone.text
            # The next call has a browser again: a new one, launched as the first was.
            again = await served.call("act", {"steps": [
                {"type": "navigate", "url": server.url("/status.html")}, {"type": "read_page"}]})
            assert not again.is_error and "Click me" in again.text, again.text
            profiles = re.findall(r"profile=(\S+)", served.log())
            assert len(profiles) == 2 and profiles[0] == profile, served.log()
        await assert_no_chromium_left(profile, {})
        await assert_no_chromium_left(profiles[1], {})
