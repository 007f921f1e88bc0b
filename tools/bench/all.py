#!/usr/bin/env python3
"""One benchmark runner for every scenario, cdpseq beside Playwright, one table.

Usage::

    .venv/bin/python tools/bench/all.py [--quick] [--rounds N] [--only NAME ...] [--no-peer]
                                        [--json | --markdown] [--render FILE]

``--quick`` runs every scenario once (under two minutes; ``tests/test_bench_quick.py`` runs it so
that it never rots). ``--markdown`` prints the table docs/BENCHMARKS.md holds, ready to paste.

Setup. The fixture server (``fixtures/server.py``) serves the pages. cdpseq drives one Chromium
started by ``cdpseq.launch_chromium`` (cdpseq's own flags). The peer, Playwright for Python (the
``bench`` extra; no ``playwright install``: it attaches to Chromium with ``connect_over_cdp``),
runs in a worker subprocess (asyncio; trio and asyncio cannot share a loop) against a second
Chromium started the same way from the same binary: Playwright auto-attaches to every target of
a browser it connects to, so on one shared browser it would instrument cdpseq's tabs too. The two
alternate, scenario by scenario and block by block (the order reversed every block), so that
machine noise hits both alike, and each browser idles while the other side runs.

Scenarios (ms per operation; cdpseq's ``act`` calls use refs or selectors as an agent would):

- ``click step`` / ``click act``: ``act`` of one click (``settle: false``) on form-controls.html's
  "Add one": the step's own ``durationMs``, and the whole call. Peer: ``locator.click()``.
- ``fill step`` / ``fill act``: the same for ``fill`` of controlled.html's React-style input.
  Peer: ``locator.fill()``.
- ``idle click act``: ``act`` of a click with default settling on settle-noop.html (the click
  changes nothing): what an agent pays per call on an idle page. Peer: ``click()`` (Playwright
  does not settle).
- ``100-row click act`` / ``10k-row click act``: the same default act clicking "Change row 5000"
  of big.html (which changes one row's text: the last row's on a page of fewer rows), on a
  page of 100 rows and of 10,000: what page size costs the same act. Peer: ``click()``.
- ``read first`` / ``read unchanged`` / ``read changed``: ``read_page`` of big.html, fresh
  document / nothing changed since the last read / one row changed (and laid out: the read
  is sent after the page's next frame, as after an act's settle). No peer row (Playwright's
  ``aria_snapshot`` of this page takes seconds; tools/bench/act.py measures it).
- ``read first, grid``: the first ``read_page`` of big-grid.html?n=2000, a React-style data grid
  whose 10,000 buttons are mostly named alike ("Edit", "Delete", an icon), so every one of
  those needs a path hint and a row context.
- ``read first, to-dos``: the first ``read_page`` of big-todos.html?n=2000, TodoMVC's markup:
  unnamed toggles beside labels that label nothing, destroy buttons named by CSS content.
- ``settle <name>``: tools/bench/settle.py's scenarios (login, validation, chained, ...): the act
  with default settling, from the first step to the return; premature returns are counted. Peer
  (login, chained, timeout): the same actions, then ``wait_for_load_state("networkidle")``.
- ``login 1 tab``, ``concurrent N total`` / ``concurrent N per sequence``: the login sequence
  (navigate to login.html, fill, fill, click, wait for "Signed in as") in one tab, then in N
  tabs of one browser at once, in one process: the wall time of the whole batch and of each
  sequence. Peer: the same with N pages and ``asyncio.gather``.
- ``pool 1 browser`` / ``pool 2 browsers``: 2*T login sequences through ``cdpseq.open_pool``
  (T tabs per browser) on one Chromium, then on two (tools/bench/pool.py has more). No peer.

Cost per operation, beside the times: ``cpu`` is this process's (or the peer worker's, with its
Node driver) CPU time per operation; ``browser cpu`` the CPU time of the whole Chromium process
group per operation. RSS of this process and of cdpseq's Chromium before and after the run, per
act, are in the JSON (``memory``); tools/soak.py measures growth over 1,000 acts.

Nothing fails on timing: the script only reports (and says when a step did not end ok).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib.metadata
import json
import os
import platform
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # tools/ and fixtures/ are not part of the installed package

import cdpseq  # noqa: E402
from cdpseq import Browser, Tab  # noqa: E402
from cdpseq.cdp import runtime, target  # noqa: E402
from cdpseq.wire import launch  # noqa: E402
from fixtures.server import serve_fixtures  # noqa: E402
from tools.bench import settle  # noqa: E402
from tools.bench.act import (  # noqa: E402
    CHANGE_JS,
    PAGES,
    ReadCase,
    first_read,
    wait_until,
)
from tools.bench.common import (  # noqa: E402
    Peer,
    answer,
    cell,
    evaluate,
    median,
    peer_note,
    percentile,
    serve_requests,
    tree_state,
)
from tools.bench.pool import login_sequences, timed_pool_run  # noqa: E402
from tools.soak import group_rss_kb, rss_kb, sign_in  # noqa: E402

SCRIPT = str(Path(__file__).resolve())
WARMUP = 3
READY_TIMEOUT = 30.0
OP_TIMEOUT = 120.0
CLK_TCK = os.sysconf("SC_CLK_TCK")
NOOP_READY = "document.readyState === 'complete'"
# A React-style data grid: 2,000 div rows nested nine wrappers deep, each with the same "Edit",
# "Delete" and icon buttons (10,000 controls, 6,000 named alike).
GRID_PAGE = "big-grid.html?n=2000"
# TodoMVC's markup: 2,000 items, each a toggle with a label that labels nothing and a destroy
# button named by CSS generated content.
TODOS_PAGE = "big-todos.html?n=2000"
BIG_READY = PAGES["read"][1]
LOGIN_DONE = "Signed in as"
BACKGROUND_FLAGS = ("--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                    "--disable-backgrounding-occluded-windows")


# -- CPU accounting -------------------------------------------------------------------------------


def _stat_fields(pid: str) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_ms_of(*, group: int | None = None, tree: int | None = None) -> float:
    """CPU time (user + system, ms) of a process group, or of a process and its descendants."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    groups: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat_fields(entry)) is not None:
            # the fields after the name: state, ppid, pgrp, ..., utime, stime, cutime, cstime
            # (12-15): the children's times keep what renderers that exited (and were reaped
            # by their zygote, in the group) used, so the sum never goes back.
            pid = int(entry)
            parents[pid], groups[pid] = int(fields[1]), int(fields[2])
            ticks[pid] = sum(int(f) for f in fields[11:15])
    if group is not None:
        chosen = {pid for pid, g in groups.items() if g == group}
    else:
        chosen = {tree} if tree in ticks else set()
        grew = True
        while grew:
            more = {pid for pid, parent in parents.items() if parent in chosen} - chosen
            chosen |= more
            grew = bool(more)
    return sum(ticks[pid] for pid in chosen) * 1000 / CLK_TCK


# -- results --------------------------------------------------------------------------------------


@dataclass
class Side:
    """The samples of one side (cdpseq or the peer) of one table row."""

    ms: list[float] = field(default_factory=list)
    ops: int = 0
    cpu_ms: float = 0.0
    browser_cpu_ms: float = 0.0
    problems: list[str] = field(default_factory=list)

    def report(self) -> dict[str, Any]:
        if not self.ms:
            return {"n": 0, "problems": self.problems[:3]}
        ops = self.ops  # 0: timings only (the step of an act, each sequence of a batch)
        return {"n": len(self.ms), "median_ms": round(median(self.ms), 2),
                "p90_ms": round(percentile(self.ms, 90), 2),
                "cpu_ms_per_op": round(self.cpu_ms / ops, 2) if ops else None,
                "browser_cpu_ms_per_op": round(self.browser_cpu_ms / ops, 2) if ops else None,
                "problems": len(self.problems), "first_problems": self.problems[:3]}


@dataclass
class Row:
    name: str
    cdpseq: Side = field(default_factory=Side)
    peer: Side | None = None  # None: no peer for this scenario

    def report(self) -> dict[str, Any]:
        mine = self.cdpseq.report()
        theirs = self.peer.report() if self.peer is not None else None
        ratio = None
        if theirs and theirs.get("n") and mine.get("n") and theirs["median_ms"]:
            ratio = round(mine["median_ms"] / theirs["median_ms"], 2)
        return {"scenario": self.name, "cdpseq": mine, "peer": theirs, "ratio": ratio}


# -- the peer (asyncio worker subprocess) ----------------------------------------------------------


class PeerSide:
    """The Playwright worker, seen from here: times and the CPU it and its browser used."""

    def __init__(self, peer: Peer, browser_pid: int) -> None:
        self.peer = peer
        self.browser_pid = browser_pid

    async def block(self, side: Side, op: str, n: int, ops_per_sample: int = 1,
                    timed: bool = True, **params: Any) -> dict[str, Any]:
        cpu = cpu_ms_of(tree=self.peer.process.pid)
        browser_cpu = cpu_ms_of(group=self.browser_pid)
        answer = await self.peer.request(op=op, n=n, **params)
        if timed:
            side.ms.extend(answer["ms"])
            side.ops += len(answer["ms"]) * ops_per_sample
            side.cpu_ms += cpu_ms_of(tree=self.peer.process.pid) - cpu
            side.browser_cpu_ms += cpu_ms_of(group=self.browser_pid) - browser_cpu
            side.problems.extend(answer.get("problems", []))
        return answer


# -- the cdpseq side ------------------------------------------------------------------------------


class Bench:
    def __init__(self, args: argparse.Namespace, origin: str, browser: Browser,
                 browser_pid: int, peer: PeerSide | None) -> None:
        self.args = args
        self.origin = origin
        self.browser = browser
        self.browser_pid = browser_pid
        self.peer = peer
        self.rows: dict[str, Row] = {}
        self.acts = 0

    def row(self, name: str, peer: bool = True) -> Row:
        if name not in self.rows:
            self.rows[name] = Row(name, peer=Side() if peer and self.peer is not None else None)
        return self.rows[name]

    async def measured(self, side: Side, call: Callable[[], Awaitable[float | None]],
                       ops: int = 1) -> None:
        """Run ``call`` (it returns its own sample in ms, or None to use its wall time),
        counting this process's and cdpseq's browser's CPU time."""
        gc.collect()
        cpu = time.process_time()
        browser_cpu = cpu_ms_of(group=self.browser_pid)
        started = time.perf_counter()
        with trio.fail_after(OP_TIMEOUT):
            own = await call()
        wall = (time.perf_counter() - started) * 1000
        side.cpu_ms += (time.process_time() - cpu) * 1000
        side.browser_cpu_ms += cpu_ms_of(group=self.browser_pid) - browser_cpu
        side.ms.append(wall if own is None else own)
        side.ops += ops

    @property
    def warmup(self) -> int:
        """Untimed calls before a scenario's samples: one in --quick, which times nothing."""
        return 1 if self.args.quick else WARMUP

    def blocks(self) -> list[bool]:
        """For each block: whether cdpseq goes first (reversed every block)."""
        return [b % 2 == 0 for b in range(1 if self.args.quick else self.args.blocks)]

    def per_block(self, full: int) -> int:
        return 1 if self.args.quick else max(1, full // self.args.blocks)

    async def alternate(self, mine: Callable[[int], Awaitable[None]],
                        theirs: Callable[[int], Awaitable[None]] | None, full: int) -> None:
        n = self.per_block(full)
        for cdpseq_first in self.blocks():
            first, second = (mine, theirs) if cdpseq_first else (theirs, mine)
            for block in (first, second):
                if block is not None:
                    await block(n)

    async def act(self, tab: Tab, request: Any, side: Side | None, what: str
                  ) -> cdpseq.ActResult:
        result = await cdpseq.act(tab, request)
        self.acts += 1
        if not result.ok and side is not None:
            side.problems.append(f"{what}: {result.failed}")
        return result

    async def open_tab(self, page: str, ready: str) -> Tab:
        tab = await self.browser.new_tab(f"{self.origin}/{page}")
        await wait_until(tab, ready)
        return tab

    # -- scenarios --------------------------------------------------------------------------

    async def click_and_fill(self) -> None:
        await self._step_case("click", ("button", "Add one"))
        await self._step_case("fill", ("textbox", "Display name"))

    async def _step_case(self, kind: str, wanted: tuple[str, str]) -> None:
        tab = await self.open_tab(*PAGES[kind])
        view = await cdpseq.read_page(tab)
        ref = next(e.ref for e in view.elements if (e.role, e.name) == wanted)
        step_row, act_row = self.row(f"{kind} step", peer=False), self.row(f"{kind} act")
        calls = [0]

        def request() -> dict[str, Any]:
            calls[0] += 1
            step: dict[str, Any] = {"type": kind, "target": ref}
            if kind == "fill":
                step["value"] = ("Ada Lovelace", "Grace Hopper")[calls[0] % 2]
            return {"steps": [step], "settle": False}

        async def call() -> None:
            result = await self.act(tab, request(), act_row.cdpseq, kind)
            step_row.cdpseq.ms.append(result.steps[0].duration_ms if result.steps else 0.0)

        async def mine(n: int) -> None:
            for _ in range(n):
                await self.measured(act_row.cdpseq, call)

        async def theirs(n: int) -> None:
            assert self.peer is not None and act_row.peer is not None
            await self.peer.block(act_row.peer, kind, n)

        for _ in range(self.warmup):
            await self.act(tab, request(), None, kind)
        if self.peer is not None:
            await self.peer.block(Side(), kind, self.warmup, timed=False)
        await self.alternate(mine, theirs if self.peer else None, self.args.rounds)
        await self.browser.close_tab(tab.id)

    async def idle_and_big_click(self) -> None:
        for name, page, ready, selector, op in (
                ("idle click act", "settle-noop.html", NOOP_READY, "#noop", "idle_click"),
                ("100-row click act", "big.html?n=100", BIG_READY, "#change-one", "small_click"),
                ("10k-row click act", "big.html", BIG_READY, "#change-one", "big_click")):
            tab = await self.open_tab(page, ready)
            row = self.row(name)
            request = [{"type": "click", "selector": selector}]

            async def mine(n: int, tab: Tab = tab, row: Row = row,
                           request: Any = request) -> None:
                for _ in range(n):
                    async def call() -> None:
                        await self.act(tab, request, row.cdpseq, row.name)
                    await self.measured(row.cdpseq, call)

            async def theirs(n: int, row: Row = row, op: str = op) -> None:
                assert self.peer is not None and row.peer is not None
                await self.peer.block(row.peer, op, n)

            for _ in range(self.warmup):
                await self.act(tab, request, None, name)
            if self.peer is not None:
                await self.peer.block(Side(), op, self.warmup, timed=False)
            await self.alternate(mine, theirs if self.peer else None, self.args.rounds // 2)
            await self.browser.close_tab(tab.id)

    async def reads(self) -> None:
        tab = await self.open_tab(*PAGES["read"])
        url = f"{self.origin}/{PAGES['read'][0]}"
        first = self.row("read first", peer=False)
        for i in range(1 if self.args.quick else self.args.first_reads):
            async def call(i: int = i) -> float:
                wall, _, _ = await first_read(tab, f"{url}?doc={i}")
                return wall
            await self.measured(first.cdpseq, call)
        learning = ReadCase(tab)  # until every element has its node id (untimed here)
        await learning.call(False)
        for _ in range(3 if self.args.quick else 200):
            if learning.with_node_ids >= learning.elements:
                break
            await learning.call(False)
        unchanged, changed = self.row("read unchanged", False), self.row("read changed", False)
        for _ in range(1 if self.args.quick else self.args.reads):
            await self.measured(unchanged.cdpseq, lambda: _none(cdpseq.read_page(tab)))
            await evaluate(tab, CHANGE_JS)
            # Untimed: the page lays the change out in its next frame (tens of ms on 10,000
            # rows, more on a busy machine), as it has by the end of an act's settle; a read
            # sent before it waits behind it, which is the page's cost, not the read's.
            await tab.send(runtime.Evaluate(
                expression="new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))",
                awaitPromise=True))
            await self.measured(changed.cdpseq, lambda: _none(cdpseq.read_page(tab)))
        # Last: these leave the tab on other pages.
        for name, other in (("read first, grid", GRID_PAGE), ("read first, to-dos", TODOS_PAGE)):
            row = self.row(name, peer=False)
            for i in range(1 if self.args.quick else max(3, self.args.first_reads // 2)):
                async def call_other(i: int = i, other: str = other) -> float:
                    wall, _, _ = await first_read(tab, f"{self.origin}/{other}&doc={i}")
                    return wall
                try:
                    await self.measured(row.cdpseq, call_other)
                except cdpseq.PageUnresponsive as exc:  # a loaded host: said, and the rest kept
                    row.cdpseq.problems.append(f"{name}: {exc}")
        await self.browser.close_tab(tab.id)

    async def settle(self) -> None:
        tab = await self.browser.new_tab()
        rounds = 1 if self.args.quick else self.args.settle_rounds
        for scenario in settle.SCENARIOS:
            row = self.row(f"settle {scenario.name}",
                           peer=scenario.name in settle.PEER_SCENARIOS)

            async def mine(n: int, scenario: settle.Scenario = scenario,
                           row: Row = row) -> None:
                for _ in range(n):
                    # overshoot_run loads the page, acts, then waits 500 ms to catch late
                    # changes: the sample is the act alone, the CPU columns all of it.
                    async def call(scenario: settle.Scenario = scenario,
                                   row: Row = row) -> float:
                        run = await settle.overshoot_run(tab, self.origin, scenario)
                        if run.premature:
                            row.cdpseq.problems.append("premature: " + "; ".join(run.reasons))
                        return run.returned - run.start
                    await self.measured(row.cdpseq, call)
                    self.acts += 2

            async def theirs(n: int, scenario: settle.Scenario = scenario,
                             row: Row = row) -> None:
                assert self.peer is not None and row.peer is not None
                await self.peer.block(row.peer, "settle", n, scenario=scenario.name)

            await self.alternate(mine, theirs if row.peer is not None else None,
                                 rounds * (1 if self.args.quick else self.args.blocks))
        await self.browser.close_tab(tab.id)

    async def concurrency(self) -> None:
        for tabs in (1, *self.args.tabs):
            total = self.row("login 1 tab" if tabs == 1 else f"concurrent {tabs} total")
            each = None if tabs == 1 else self.row(f"concurrent {tabs} per sequence")
            opened = await self.new_tabs(tabs)

            async def batch(opened: list[Tab], side: Side, per: list[float]) -> None:
                async with trio.open_nursery() as nursery:
                    for index, tab in enumerate(opened):
                        nursery.start_soon(self.login, tab, index, side, per)

            async def mine(n: int, opened: list[Tab] = opened, total: Row = total,
                           each: Row | None = each) -> None:
                for _ in range(n):
                    per: list[float] = []
                    await self.measured(total.cdpseq,
                                        lambda per=per: batch(opened, total.cdpseq, per),
                                        ops=len(opened))
                    if each is not None:
                        each.cdpseq.ms.extend(per)

            async def theirs(n: int, tabs: int = tabs, total: Row = total,
                             each: Row | None = each) -> None:
                assert self.peer is not None and total.peer is not None
                answer = await self.peer.block(total.peer, "concurrent", n, ops_per_sample=tabs,
                                               tabs=tabs)
                if each is not None and each.peer is not None:
                    each.peer.ms.extend(answer["per_ms"])

            if not self.args.quick:  # warm-up: the first load of each tab, untimed
                await batch(opened, Side(), [])
            if self.peer is not None and not self.args.quick:
                await self.peer.block(Side(), "concurrent", 1, tabs=tabs, timed=False)
            await self.alternate(mine, theirs if self.peer else None,
                                 self.args.concurrent_rounds * self.args.blocks)
            async with trio.open_nursery() as nursery:
                for tab in opened:
                    nursery.start_soon(self.browser.close_tab, tab.id)

    async def new_tabs(self, count: int) -> list[Tab]:
        opened: list[Tab] = []

        async def one() -> None:
            if not self.args.new_window:
                opened.append(await self.browser.new_tab())
                return
            created = await self.browser.send(target.CreateTarget(url="about:blank",
                                                                  newWindow=True))
            opened.append(await self.browser.tab(created.targetId))
        async with trio.open_nursery() as nursery:
            for _ in range(count):
                nursery.start_soon(one)
        return opened

    async def login(self, tab: Tab, index: int, side: Side, per: list[float]) -> None:
        started = time.perf_counter()
        email = f"c{self.acts}-{index}@bench.example"
        sequence = [{"type": "navigate", "url": f"{self.origin}/login.html"}, *sign_in(email)]
        await self.act(tab, sequence, side, "login")
        per.append((time.perf_counter() - started) * 1000)

    async def pool(self) -> None:
        tabs = 2 if self.args.quick else self.args.pool_tabs
        count = 2 * tabs if self.args.quick else 4 * tabs
        async with cdpseq.launch_chromium() as second:
            endpoints = [self.browser.endpoint, second.ws_url]
            if not self.args.quick:  # the warm-up run, untimed: the same path as the runs
                await timed_pool_run(endpoints, login_sequences(self.origin, 2, "warm"), 1)
            for name, used in (("pool 1 browser", endpoints[:1]), ("pool 2 browsers", endpoints)):
                row = self.row(f"{name} ({count} logins)", peer=False)
                for _ in range(1 if self.args.quick else self.args.blocks // 2):
                    async def call(used: list[str] = used, row: Row = row) -> None:
                        run = await timed_pool_run(used, login_sequences(self.origin, count),
                                                   tabs)
                        row.cdpseq.problems.extend(["failed"] * run["failed"])
                    await self.measured(row.cdpseq, call, ops=count)
                    self.acts += count


async def _none(call: Awaitable[Any]) -> None:
    await call


SCENARIOS: dict[str, Callable[[Bench], Awaitable[None]]] = {
    "click_fill": Bench.click_and_fill,
    "idle_big_click": Bench.idle_and_big_click,
    "reads": Bench.reads,
    "settle": Bench.settle,
    "concurrency": Bench.concurrency,
    "pool": Bench.pool,
}


async def run(args: argparse.Namespace, origin: str) -> dict[str, Any]:
    note = peer_note(args.no_peer)
    peer_info: dict[str, Any] = {}
    started = time.perf_counter()
    async with cdpseq.launch_chromium() as chromium, \
            cdpseq.launch_chromium() as peer_chromium, \
            cdpseq.open_browser(chromium.ws_url) as browser:
        peer: PeerSide | None = None
        if note is None:
            process = await Peer.start([sys.executable, SCRIPT, "--peer-worker",
                                        peer_chromium.endpoint, origin])
            peer = PeerSide(process, peer_chromium.pid)
            try:
                peer_info = await process.request()  # its "ready" line
            except RuntimeError as exc:
                note, peer = f"peer absent: {exc}", None
                await process.close()
        memory_before = {"python_rss_kb": rss_kb(os.getpid()),
                         "chromium_rss_kb": group_rss_kb(chromium.pid)[0]}
        bench = Bench(args, origin, browser, chromium.pid, peer)
        elapsed: dict[str, float] = {}
        try:
            for name, scenario in SCENARIOS.items():
                if not args.only or name in args.only:
                    begun = time.perf_counter()
                    await scenario(bench)
                    elapsed[name] = round(time.perf_counter() - begun, 1)
                    if not args.json and not args.markdown:
                        print(f"... {name}: {elapsed[name]} s", file=sys.stderr, flush=True)
        finally:
            if peer is not None:
                await peer.peer.close()
        gc.collect()
        memory_after = {"python_rss_kb": rss_kb(os.getpid()),
                        "chromium_rss_kb": group_rss_kb(chromium.pid)[0]}
        version = browser.version.product
    acts = max(bench.acts, 1)
    return {
        "environment": {"browser": version, "python": platform.python_version(),
                        "cdpseq": cdpseq.__version__, "peer": peer_info.get("version"),
                        "cores": os.cpu_count(), "tree": tree_state()},
        "config": {"quick": args.quick, "rounds": args.rounds, "blocks": args.blocks,
                   "tabs": args.tabs, "new_window": args.new_window,
                   "chromium_flags": list(launch.BASE_FLAGS)},
        "note": note,
        "rows": [row.report() for row in bench.rows.values()],
        "memory": {"before": memory_before, "after": memory_after, "acts": bench.acts,
                   "python_rss_kb_per_act": round((memory_after["python_rss_kb"]
                                                   - memory_before["python_rss_kb"]) / acts, 2),
                   "chromium_rss_kb_per_act": round((memory_after["chromium_rss_kb"]
                                                     - memory_before["chromium_rss_kb"]) / acts,
                                                    2)},
        "elapsed_s": round(time.perf_counter() - started, 1),
        "scenario_elapsed_s": elapsed,
    }


# -- the peer worker (asyncio, its own process) ----------------------------------------------


async def peer_worker(endpoint: str, origin: str) -> None:
    try:
        from playwright.async_api import async_playwright
    except ImportError as exc:
        answer({"error": f"cannot import playwright: {exc}"})
        return
    async with async_playwright() as playwright:
        try:
            browser = await playwright.chromium.connect_over_cdp(endpoint)
        except Exception as exc:
            answer({"error": f"connect_over_cdp {endpoint}: {type(exc).__name__}: {exc}"})
            return
        context = browser.contexts[0]
        pages: dict[str, Any] = {}

        async def page_at(name: str, path: str, ready: str) -> Any:
            if name not in pages:
                pages[name] = await context.new_page()
                await pages[name].goto(f"{origin}/{path}")
                await pages[name].wait_for_function(ready, timeout=READY_TIMEOUT * 1000)
            return pages[name]

        fills = [0]

        async def click() -> None:
            await (await page_at("click", *PAGES["click"])).locator("#inc").click()

        async def fill() -> None:
            fills[0] += 1
            await (await page_at("fill", *PAGES["fill"])).locator("#name").fill(
                ("Ada Lovelace", "Grace Hopper")[fills[0] % 2])

        async def idle_click() -> None:
            await (await page_at("idle", "settle-noop.html", NOOP_READY)).click("#noop")

        async def small_click() -> None:
            await (await page_at("small", "big.html?n=100", BIG_READY)).click("#change-one")

        async def big_click() -> None:
            await (await page_at("big", "big.html", BIG_READY)).click("#change-one")

        async def login(pw_page: Any, email: str) -> float:
            started = time.perf_counter()
            await pw_page.goto(f"{origin}/login.html")
            await pw_page.fill("#email", email)
            await pw_page.fill("#password", "soak-password")
            await pw_page.click("#sign-in")
            await pw_page.get_by_text(f"{LOGIN_DONE} {email}").wait_for()
            return (time.perf_counter() - started) * 1000

        simple = {"click": click, "fill": fill, "idle_click": idle_click,
                  "small_click": small_click, "big_click": big_click}
        answer({"ready": True, "version": importlib.metadata.version("playwright"),
                "browser": browser.version})
        settle_pages: list[Any] = []
        logins = [0]

        async def handle(request: dict[str, Any]) -> dict[str, Any]:
            op = request["op"]
            samples: list[float] = []
            problems: list[str] = []
            per: list[float] = []
            for _ in range(request["n"]):
                if op in simple:
                    started = time.perf_counter()
                    await simple[op]()
                    samples.append((time.perf_counter() - started) * 1000)
                elif op == "settle":
                    if not settle_pages:
                        settle_pages.append(await context.new_page())
                    scenario = next(s for s in settle.SCENARIOS
                                    if s.name == request["scenario"])
                    run = await settle.playwright_run(settle_pages[0], origin, scenario)
                    samples.append(run.returned - run.start)
                    if run.premature:
                        problems.append("premature: " + "; ".join(run.reasons))
                elif op == "concurrent":
                    opened = await asyncio.gather(*(context.new_page()
                                                    for _ in range(request["tabs"])))
                    logins[0] += 1
                    started = time.perf_counter()
                    per.extend(await asyncio.gather(*(
                        login(p, f"pw{logins[0]}-{i}@bench.example")
                        for i, p in enumerate(opened))))
                    samples.append((time.perf_counter() - started) * 1000)
                    await asyncio.gather(*(p.close() for p in opened))
                else:
                    raise ValueError(f"unknown op {op!r}")
            return {"ms": samples, "per_ms": per, "problems": problems}

        await serve_requests(handle)


# -- output ---------------------------------------------------------------------------------


def _cell(stats: dict[str, Any] | None, key: str, spec: str = ".1f") -> str:
    return cell(stats.get(key) if stats and stats.get("n") else None, spec)


COLUMNS = ("scenario", "n", "cdpseq median", "p90", "peer median", "p90", "ratio",
           "cpu/op", "browser cpu/op", "peer cpu/op", "peer browser cpu/op")


def table_rows(result: dict[str, Any]) -> list[list[str]]:
    rows = []
    for row in result["rows"]:
        mine, theirs = row["cdpseq"], row["peer"]
        name = row["scenario"] + (f" ({mine['problems']} not ok)"
                                  if mine.get("problems") else "") + (
            f" (peer: {theirs['problems']} not ok)" if theirs and theirs.get("problems") else "")
        rows.append([name, str(mine.get("n", 0)), _cell(mine, "median_ms"),
                     _cell(mine, "p90_ms"), _cell(theirs, "median_ms"), _cell(theirs, "p90_ms"),
                     "—" if row["ratio"] is None else f"{row['ratio']:.2f}",
                     _cell(mine, "cpu_ms_per_op"), _cell(mine, "browser_cpu_ms_per_op"),
                     _cell(theirs, "cpu_ms_per_op"), _cell(theirs, "browser_cpu_ms_per_op")])
    return rows


def header(result: dict[str, Any]) -> list[str]:
    env, tree = result["environment"], result["environment"]["tree"]
    lines = [f"{env['browser']}, Python {env['python']}, cdpseq {env['cdpseq']} "
             f"(tree {tree['head']}{' + uncommitted' if tree['package_changes'] else ''}, "
             f"source {tree['source_sha1']}), {env['cores']} cores; peer: "
             + (f"Playwright {env['peer']}" if env["peer"] else result["note"] or "absent")]
    mem = result["memory"]
    lines.append(f"memory: {mem['acts']} acts; python RSS {mem['before']['python_rss_kb'] // 1024}"
                 f" -> {mem['after']['python_rss_kb'] // 1024} MiB "
                 f"({mem['python_rss_kb_per_act']} KiB/act), chromium RSS "
                 f"{mem['before']['chromium_rss_kb'] // 1024} -> "
                 f"{mem['after']['chromium_rss_kb'] // 1024} MiB "
                 f"({mem['chromium_rss_kb_per_act']} KiB/act); elapsed {result['elapsed_s']} s")
    return lines


def print_table(result: dict[str, Any]) -> None:
    for line in header(result):
        print(line)
    rows = [list(COLUMNS), *table_rows(result)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    for r in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths, strict=True))))
    print("(ms; ratio = cdpseq median / peer median; cpu = client process, browser cpu = the "
          "Chromium process group, per operation)")


def print_markdown(result: dict[str, Any]) -> None:
    for line in header(result):
        print(line + "  ")
    print()
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "|".join(["---"] + ["---:"] * (len(COLUMNS) - 1)) + "|")
    for r in table_rows(result):
        print("| " + " | ".join(r) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="every scenario once (under two minutes)")
    parser.add_argument("--rounds", type=int, default=40,
                        help="timed calls per click/fill case (default 40; half for the idle, "
                             "100-row and 10k-row click acts)")
    parser.add_argument("--blocks", type=int, default=4,
                        help="alternating blocks per scenario (default 4)")
    parser.add_argument("--reads", type=int, default=10,
                        help="unchanged and changed reads of big.html (default 10)")
    parser.add_argument("--first-reads", type=int, default=5,
                        help="fresh big.html documents read (default 5)")
    parser.add_argument("--settle-rounds", type=int, default=2,
                        help="runs per settle scenario per block (default 2)")
    parser.add_argument("--concurrent-rounds", type=int, default=1,
                        help="batches per concurrency level per block (default 1)")
    parser.add_argument("--tabs", type=int, nargs="+", default=[8, 20],
                        help="concurrency levels (default 8 20)")
    parser.add_argument("--pool-tabs", type=int, default=4,
                        help="tabs per browser in the pool scenario (default 4)")
    parser.add_argument("--new-window", action="store_true",
                        help="concurrency: each tab in a window of its own "
                             "(Target.createTarget newWindow)")
    parser.add_argument("--throttle-background", action="store_true",
                        help="launch Chromium without " + " ".join(BACKGROUND_FLAGS)
                             + " (what those flags buy)")
    parser.add_argument("--only", nargs="+", choices=list(SCENARIOS), help="these scenarios")
    parser.add_argument("--no-peer", action="store_true", help="skip Playwright")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object")
    output.add_argument("--markdown", action="store_true",
                        help="print the Markdown table of docs/BENCHMARKS.md")
    parser.add_argument("--render", metavar="FILE",
                        help="print the table (or --markdown) of an earlier --json output "
                             "instead of running")
    parser.add_argument("--peer-worker", nargs=2, metavar=("ENDPOINT", "ORIGIN"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer_worker:
        asyncio.run(peer_worker(*args.peer_worker))
        return
    if min(args.rounds, args.blocks, args.reads, args.first_reads, args.settle_rounds,
           args.concurrent_rounds, args.pool_tabs, *args.tabs) < 1:
        parser.error("counts must be positive")
    if args.throttle_background:
        launch.BASE_FLAGS = tuple(f for f in launch.BASE_FLAGS if f not in BACKGROUND_FLAGS)
    if args.render:
        result = json.loads(Path(args.render).read_text())
    else:
        with serve_fixtures() as server:
            result = trio.run(run, args, server.origin)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        print()
    elif args.markdown:
        print_markdown(result)
    else:
        print_table(result)


if __name__ == "__main__":
    main()
