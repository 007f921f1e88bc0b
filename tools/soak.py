#!/usr/bin/env python3
"""Soak: run many acts on a few tabs of one Chromium and watch what grows.

Usage::

    .venv/bin/python tools/soak.py [--acts 1000] [--tabs 4] [--every 100] [--max-ratio 1.2]
                                   [--json]

It launches a headless Chromium (``cdpseq.launch_chromium``), serves the fixture pages
(``fixtures/server.py``, in a child process, so that its request log and sockets are not counted
as this process's memory), opens ``--tabs`` tabs through one ``cdpseq.open_browser`` and runs
``--acts`` acts on them at once, each tab cycling through a realistic mix:

1. navigate to ``/login.html?next=<tab>`` (an act with a navigate step);
2. sign in: fill the email and the password, click "Sign in", wait for "Signed in as ...";
3. ``cdpseq.read_page(tab, "all")``;
4. sign out and read, in one act (click, then a read_page step);
5. sign in again, ticking "Remember me" on the way;
6. navigate to ``/index.html`` and follow its link (a click that loads another document).

Every ``--every`` acts (and after the last) it records this process's RSS and Python object
count (after a full ``gc.collect()``) and Chromium's total RSS (the sum of ``VmRSS`` over its
processes, from ``/proc``; shared pages count once per process, so it over-states, but it is
comparable from one checkpoint to the next). It reports the Python RSS after the first
checkpoint (100 acts by default) and after the last, and their ratio.

It exits 1 when that ratio exceeds ``--max-ratio``, when an act failed, or when the run left
something behind: after the acts, the connection must have no subscription or pending command,
the browser exactly the tabs it opened, and trio the tasks it had before the tabs worked; after
closing the tabs, no attached tab, session or observer, and the browser's page targets as they
were. Exit 2 is a usage error.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import trio

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # fixtures/ is not part of the installed package

import cdpseq  # noqa: E402
from cdpseq import ActResult, Tab  # noqa: E402

ACT_TIMEOUT = 60.0
SERVER_START_TIMEOUT = 15.0
_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


# -- what is measured ---------------------------------------------------------------------------


def rss_kb(pid: int) -> int:
    """Resident set of one process, in KiB (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * _PAGE_KB
    except (OSError, IndexError, ValueError):
        return 0


def group_rss_kb(group: int) -> tuple[int, int]:
    """(summed RSS in KiB, process count) of the processes in process group ``group``:
    Chromium and its helpers (``launch_chromium`` starts it in a session of its own)."""
    total = count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # exited meanwhile
        if int(fields[2]) == group:  # the fields after the name: state, ppid, pgrp, ...
            total += rss_kb(int(entry))
            count += 1
    return total, count


def task_names() -> Counter[str]:
    """Every task of this trio run, by name."""
    found: Counter[str] = Counter()

    def walk(task: trio.lowlevel.Task) -> None:
        found[task.name] += 1
        for nursery in task.child_nurseries:
            for child in nursery.child_tasks:
                walk(child)

    walk(trio.lowlevel.current_root_task())
    return found


class Checkpoint(msgspec.Struct):
    acts: int
    seconds: float
    python_rss_kb: int
    python_objects: int
    chromium_rss_kb: int
    chromium_processes: int


def checkpoint(acts: int, started: float, chromium_pid: int) -> Checkpoint:
    gc.collect()
    chromium_kb, processes = group_rss_kb(chromium_pid)
    return Checkpoint(acts=acts, seconds=round(time.monotonic() - started, 1),
                      python_rss_kb=rss_kb(os.getpid()), python_objects=len(gc.get_objects()),
                      chromium_rss_kb=chromium_kb, chromium_processes=processes)


# -- the acts -----------------------------------------------------------------------------------


def sign_in(email: str, remember: bool = False) -> list[dict[str, Any]]:
    return [{"type": "fill", "selector": "#email", "value": email},
            {"type": "fill", "selector": "#password", "value": "soak-password"},
            *([{"type": "check", "selector": "#remember"}] if remember else []),
            {"type": "click", "selector": "#sign-in"},
            {"type": "wait_for", "text": f"Signed in as {email}"}]


async def one_act(tab: Tab, origin: str, name: str, step: int) -> tuple[bool, str]:
    """Act number ``step`` of the cycle on ``tab``: (ok, what went wrong)."""
    email = f"{name}-{step}@example.com"
    kind = step % 6
    if kind == 2:
        view = await cdpseq.read_page(tab, "all")
        return f"Signed in as {name}-" in view.text, view.text[:300]
    steps: list[dict[str, Any]]
    if kind == 0:
        steps = [{"type": "navigate", "url": f"{origin}/login.html?next={name}"}]
    elif kind == 1:
        steps = sign_in(email)
    elif kind == 3:
        steps = [{"type": "click", "selector": "#sign-out"},
                 {"type": "read_page", "filter": "all"}]
    elif kind == 4:
        steps = sign_in(email, remember=True)
    else:
        steps = [{"type": "navigate", "url": f"{origin}/index.html"},
                 {"type": "click", "selector": "#echo-link"},
                 {"type": "wait_for", "text": "Linked page"}]
    result: ActResult = await cdpseq.act(tab, steps)
    described = json.dumps(msgspec.to_builtins(result))
    if result.tab is None or result.tab.id != tab.id:
        return False, "the result describes another tab: " + described[:600]
    return result.ok, described[:600]


# -- the run ------------------------------------------------------------------------------------


class Run:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.started_acts = 0
        self.done = 0
        self.failures: list[str] = []
        self.checkpoints: list[Checkpoint] = []
        self.leaks: list[str] = []
        self.events_dropped: int | None = None
        self.started = time.monotonic()

    def due(self, acts: int) -> bool:
        return acts % self.args.every == 0 or acts == self.args.acts

    async def worker(self, tab: Tab, origin: str, name: str, chromium_pid: int) -> None:
        step = 0
        while self.started_acts < self.args.acts:
            self.started_acts += 1
            try:
                with trio.fail_after(ACT_TIMEOUT):
                    ok, detail = await one_act(tab, origin, name, step)
            except (cdpseq.CdpseqError, trio.TooSlowError) as exc:
                ok, detail = False, f"{type(exc).__name__}: {exc}"
            if not ok:
                self.failures.append(f"{name} act {step}: {detail}")
            step += 1
            self.done += 1
            if self.due(self.done):
                self.checkpoints.append(checkpoint(self.done, self.started, chromium_pid))
                if not self.args.json:
                    print(_checkpoint_line(self.checkpoints[-1]), file=sys.stderr, flush=True)

    def expect(self, what: str, found: object, wanted: object) -> None:
        if found != wanted:
            self.leaks.append(f"{what}: {found!r}, expected {wanted!r}")

    async def main(self) -> None:
        async with serve_pages() as origin, \
                cdpseq.launch_chromium(executable=self.args.executable) as chromium, \
                cdpseq.open_browser(chromium.ws_url) as browser:
            targets_before = {info.id for info in await browser.tabs()}
            idle = browser.statistics()
            tabs = [await browser.new_tab() for _ in range(self.args.tabs)]
            self.checkpoints.append(checkpoint(0, self.started, chromium.pid))
            tasks_before = task_names()
            async with trio.open_nursery() as nursery:
                for index, tab in enumerate(tabs):
                    nursery.start_soon(self.worker, tab, origin, f"soak{index}", chromium.pid)
            self.expect("tasks after the acts (added, removed)",
                        (task_names() - tasks_before, tasks_before - task_names()),
                        (Counter(), Counter()))
            working = browser.statistics()
            self.expect("attached tabs after the acts", working.attached_tabs, len(tabs))
            self.expect("subscriptions after the acts", working.connection.subscriptions, 0)
            self.expect("pending commands after the acts", working.connection.pending_commands,
                        0)
            self.events_dropped = working.connection.events_dropped
            for tab in tabs:
                await browser.close_tab(tab.id)
            with trio.move_on_after(10):  # the detach events may trail the close
                # polling a counter: nothing signals its change
                while browser.statistics().connection.sessions > idle.connection.sessions:  # noqa: ASYNC110
                    await trio.sleep(0.01)
            after = browser.statistics()
            self.expect("attached tabs after closing", after.attached_tabs, idle.attached_tabs)
            self.expect("sessions after closing", after.connection.sessions,
                        idle.connection.sessions)
            self.expect("observed sessions after closing", after.connection.observed_sessions,
                        idle.connection.observed_sessions)
            self.expect("page targets after closing", {info.id for info in await browser.tabs()},
                        targets_before)

    def report(self) -> dict[str, Any]:
        first = next((c for c in self.checkpoints if c.acts >= min(self.args.every,
                                                                   self.args.acts)), None)
        last = self.checkpoints[-1] if self.checkpoints else None
        ratio = (round(last.python_rss_kb / first.python_rss_kb, 3)
                 if first and last and first.python_rss_kb else None)
        chromium_ratio = (round(last.chromium_rss_kb / first.chromium_rss_kb, 3)
                          if first and last and first.chromium_rss_kb else None)
        over = ratio is not None and ratio > self.args.max_ratio
        return {
            "ok": not over and not self.failures and not self.leaks and self.done == self.args.acts,
            "acts": self.done,
            "tabs": self.args.tabs,
            "seconds": round(time.monotonic() - self.started, 1),
            "failed_acts": len(self.failures),
            "failures": self.failures[:5],
            "baseline_acts": first.acts if first else None,
            "python_rss_kb": {"baseline": first.python_rss_kb if first else None,
                              "final": last.python_rss_kb if last else None},
            "python_rss_ratio": ratio,
            "max_ratio": self.args.max_ratio,
            "chromium_rss_kb": {"baseline": first.chromium_rss_kb if first else None,
                                "final": last.chromium_rss_kb if last else None},
            "chromium_rss_ratio": chromium_ratio,
            "events_dropped": self.events_dropped,
            "leaks": self.leaks,
            "checkpoints": msgspec.to_builtins(self.checkpoints),
        }


class serve_pages:
    """The fixture server in a child process, for the block: yields its origin."""

    async def __aenter__(self) -> str:
        self.process = await trio.lowlevel.open_process(
            [sys.executable, "-m", "fixtures.server", "--port", "0"], cwd=str(ROOT),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
        assert self.process.stdout is not None
        line = b""
        with trio.fail_after(SERVER_START_TIMEOUT):
            while not line.endswith(b"\n"):
                chunk = await self.process.stdout.receive_some(1)
                if not chunk:
                    raise RuntimeError("the fixture server exited before it listened")
                line += chunk
        origin = line.decode().strip()
        if not re.fullmatch(r"http://127\.0\.0\.1:\d+", origin):
            raise RuntimeError(f"the fixture server said {origin!r}")
        return origin

    async def __aexit__(self, *exc: object) -> None:
        with trio.CancelScope(shield=True):
            self.process.terminate()
            with trio.move_on_after(5):
                await self.process.wait()
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()


def _checkpoint_line(point: Checkpoint) -> str:
    return (f"{point.acts:6d} acts {point.seconds:7.1f} s  python {point.python_rss_kb / 1024:7.1f}"
            f" MiB ({point.python_objects} objects)  chromium {point.chromium_rss_kb / 1024:7.1f}"
            f" MiB in {point.chromium_processes} processes")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Run many acts on a few tabs of one Chromium; report memory after the "
                    "first checkpoint and the last, and fail when the Python RSS grew beyond "
                    "--max-ratio, an act failed, or the run left sessions, subscriptions, "
                    "tasks or tabs behind.")
    parser.add_argument("--acts", type=_positive, default=1000, help="acts to run (1000)")
    parser.add_argument("--tabs", type=_positive, default=4, help="tabs acting at once (4)")
    parser.add_argument("--every", type=_positive, default=100,
                        help="acts between checkpoints; the first is the baseline (100)")
    parser.add_argument("--max-ratio", type=float, default=1.2,
                        help="largest allowed Python RSS at the last checkpoint over the first "
                             "(1.2)")
    parser.add_argument("--executable", help="the Chromium to launch (default: found on PATH)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    run = Run(args)
    trio.run(run.main)
    report = run.report()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        first, last = report["python_rss_kb"]["baseline"], report["python_rss_kb"]["final"]
        print(f"{report['acts']} acts on {args.tabs} tabs in {report['seconds']} s, "
              f"{report['failed_acts']} failed")
        if first and last:
            chromium = report["chromium_rss_kb"]
            print(f"python RSS: {first / 1024:.1f} MiB after {report['baseline_acts']} acts, "
                  f"{last / 1024:.1f} MiB after {report['acts']}: ratio "
                  f"{report['python_rss_ratio']} (max {args.max_ratio})")
            print(f"chromium RSS: {chromium['baseline'] / 1024:.1f} MiB, then "
                  f"{chromium['final'] / 1024:.1f} MiB: ratio {report['chromium_rss_ratio']}")
        for failure in report["failures"]:
            print(f"failed: {failure}")
        for leak in report["leaks"]:
            print(f"left behind: {leak}")
        print("ok" if report["ok"] else "NOT OK")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
