#!/usr/bin/env python3
"""Benchmark cdpseq's act steps and read_page on idle fixture pages, beside Playwright.

Usage::

    .venv/bin/python tools/bench/act.py [--rounds N] [--reads R] [--first-reads F]
                                        [--gap-ms G] [--json] [--no-peer]

To measure another copy of the package (say a commit, ``git archive C cdpseq | tar -x -C DIR``),
put it first: ``PYTHONPATH=DIR .venv/bin/python tools/bench/act.py``. The output names the
package directory, the commit and uncommitted package files when it is this checkout, and a
digest of the package source, because others edit the tree while benchmarks run.

The fixture server (``fixtures/server.py``) serves the pages; ``cdpseq.launch_browser()`` starts
one headless Chromium in which every page gets its own window (``Target.createTarget`` with
``newWindow``), so that every page stays visible (a background tab of a window is hidden and
throttled). Measured, on pages that are idle (no timers, no network):

1. click: ``cdpseq.act(tab, {"steps": [{"type": "click", "target": ref}], "settle": false})`` on
   the ``Add one`` button of ``form-controls.html`` (ref from ``cdpseq.read_page(tab)``), and the
   same with default request settings (``cdpseq.act(tab, [{"type": "click", ...}])``), which is
   what a later change that settles after actions will slow down. Reported per variant: the
   step's own ``result.steps[0].duration_ms``, the wall time of the whole ``act`` call, this
   process's CPU time per call, and the CDP commands one call sends. Back to back, each click
   finds the frame its predecessor caused still pending, and Chromium holds a ``mouseMoved``
   (rAF-aligned input) until that frame; so a third variant, "spaced", waits ``--gap-ms``
   (untimed) before each ``settle: false`` click, as an agent does between turns. The peer does
   the same.
2. fill: the same two variants of ``{"type": "fill", "target": ref, "value": v}`` on ``#name``
   of ``controlled.html`` (a React-style controlled input), alternating two values.
3. read_page: ``cdpseq.read_page(tab)`` (interactive view) of ``big.html``: 10,000 table rows with a
   button each. Four cases, because they cost differently:
   - first: the first read of a fresh document (``F`` of them, each loaded with
     ``Page.navigate``: an act with a navigate step may read the new document itself), which
     also installs the agent in the new document;
   - learning: the reads after it until every element carries its backendNodeId (at most 250
     are learned per read, ~35 µs each in Chrome);
   - unchanged: a read of the page as the previous read left it (the agent checks that nothing
     changed and the last view is answered again);
   - changed: a read right after the page changed (one row's text, changed untimed by clicking
     "Change row 5000" through ``Runtime.evaluate``), so the agent walks the whole page again.
   Unchanged and changed reads alternate, ``R`` of each.
4. The peer, side by side: Playwright for Python (if importable) on the same Chromium binary,
   with its async API under asyncio in a worker subprocess (this script with ``--peer-worker``;
   trio and asyncio cannot share a loop). The worker answers one JSON line per request on its
   stdin/stdout, so its blocks interleave with cdpseq's while the other browser sits idle. It
   measures ``page.locator("#inc").click()``, ``page.locator("#name").fill(v)`` and
   ``page.locator("body").aria_snapshot()`` of ``big.html`` (its nearest equivalent of a read;
   its first snapshot of a document is reported apart, once, because it takes many seconds).
   Ratios are cdpseq/peer of the medians of wall time (for the "step" rows: cdpseq's step
   duration over the peer's wall time).

Method: warm-up calls first; then the click and fill cases run in alternating blocks (the order
of the cases reverses every block, ``gc.collect()`` before each) so machine noise hits them
alike; reads alternate the same way (``R / peer reads`` cdpseq reads, then one peer read). At
the end the pages are checked: the counter shows every click, the input holds the last value,
and every act call returned ok. Nothing fails on timing: the script only reports.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib.metadata
import json
import platform
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    # tools/ and fixtures/ are not part of the installed package; appended, so that PYTHONPATH
    # can point cdpseq at another copy of the package (e.g. a commit exported to compare against).
    sys.path.append(str(ROOT))

import cdpseq  # noqa: E402
from cdpseq import Browser, Tab  # noqa: E402
from cdpseq.cdp import page, target  # noqa: E402
from fixtures.server import serve_fixtures  # noqa: E402
from tools.bench.common import (  # noqa: E402
    CHROMIUM,
    PEER_ARGS,
    Peer,
    answer,
    cell,
    evaluate,
    peer_note,
    serve_requests,
    summary_ms,
    tree_line,
    tree_state,
)

SCRIPT = str(Path(__file__).resolve())
FILL_VALUES = ("Ada Lovelace", "Grace Hopper")
WARMUP = 5
READY_TIMEOUT = 30.0

# Conditions under which a page is idle and complete (form-controls.html adds a button 700 ms
# after load; big.html sets data-ready once its rows are built).
PAGES = {
    "click": ("form-controls.html", "!!document.getElementById('later')"),
    "fill": ("controlled.html", "document.readyState === 'complete' && "
                                "!!document.getElementById('name')"),  # not about:blank's
    "read": ("big.html", "document.readyState === 'complete' && "
                         "document.body.dataset.ready === 'true'"),
}
COUNT_JS = "Number(document.getElementById('count').textContent)"
NAME_JS = "document.getElementById('name').value"


# -- statistics -------------------------------------------------------------------------------


def ratio(a: dict[str, Any] | None, b: dict[str, Any] | None) -> float | None:
    if not a or not b or not a.get("n") or not b.get("n") or not b["median_ms"]:
        return None
    return round(a["median_ms"] / b["median_ms"], 3)


# -- the cdpseq side ----------------------------------------------------------------------------


async def wait_until(tab: Tab, expression: str) -> None:
    with trio.fail_after(READY_TIMEOUT):
        while True:
            try:
                if await evaluate(tab, expression):
                    return
            except (RuntimeError, cdpseq.ProtocolError):
                pass  # the document is still being replaced
            await trio.sleep(0.05)


async def open_window(browser: Browser, url: str, ready: str) -> Tab:
    """A tab in a window of its own: it stays visible while other tabs are used."""
    created = await browser.send(target.CreateTarget(url=url, newWindow=True))
    tab = await browser.tab(created.targetId)
    await wait_until(tab, ready)
    return tab


def commands_answered(browser: Browser) -> int:
    stats = browser.connection.statistics()
    return stats.frames_received - stats.events_received


class ActCase:
    """One act variant, timed call by call: step duration, wall time, CPU, commands."""

    def __init__(self, browser: Browser, tab: Tab, make_request: Callable[[int], Any],
                 gap: float = 0.0) -> None:
        self.browser = browser
        self.tab = tab
        self.make_request = make_request
        self.gap = gap
        self.calls = 0
        self.step_ms: list[float] = []
        self.wall_ms: list[float] = []
        self.cpu_ns = 0
        self.commands = 0
        self.failures: list[str] = []

    async def call(self, timed: bool) -> None:
        request = self.make_request(self.calls)
        self.calls += 1
        if self.gap:
            await trio.sleep(self.gap)  # untimed: the page goes idle, as between agent turns
        before = commands_answered(self.browser)
        cpu = time.process_time_ns()
        start = time.perf_counter_ns()
        result = await cdpseq.act(self.tab, request)
        wall = time.perf_counter_ns() - start
        cpu = time.process_time_ns() - cpu
        commands = commands_answered(self.browser) - before
        if not result.ok:
            failure = result.failed.error if result.failed is not None else "not ok"
            self.failures.append(str(failure))
        output = result.steps[0].output if result.steps else None
        if isinstance(output, dict) and output.get("valueMatches") is False:
            self.failures.append("fill: the field does not hold the value")
        if timed:
            self.step_ms.append(result.steps[0].duration_ms)
            self.wall_ms.append(wall / 1e6)
            self.cpu_ns += cpu
            self.commands += commands

    def report(self) -> dict[str, Any]:
        n = len(self.wall_ms)
        return {
            "step": summary_ms(self.step_ms),
            "wall": summary_ms(self.wall_ms),
            "cpu_ms_per_call": round(self.cpu_ns / n / 1e6, 2) if n else None,
            "cdp_commands_per_call": round(self.commands / n, 2) if n else None,
            "calls": self.calls,
            "failures": len(self.failures),
            "first_failures": self.failures[:3],
        }


CHANGE_JS = "document.getElementById('change-one').click()"


class ReadCase:
    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self.with_node_ids = 0
        self.wall_ms: list[float] = []
        self.cpu_ns = 0
        self.elements = 0
        self.text_chars = 0

    async def call(self, timed: bool) -> None:
        cpu = time.process_time_ns()
        start = time.perf_counter_ns()
        view = await cdpseq.read_page(self.tab)
        wall = time.perf_counter_ns() - start
        cpu = time.process_time_ns() - cpu
        self.elements, self.text_chars = len(view.elements), len(view.text)
        self.with_node_ids = sum(1 for e in view.elements if e.node_id is not None)
        if timed:
            self.wall_ms.append(wall / 1e6)
            self.cpu_ns += cpu

    def report(self) -> dict[str, Any]:
        n = len(self.wall_ms)
        return {"wall": summary_ms(self.wall_ms),
                "cpu_ms_per_call": round(self.cpu_ns / n / 1e6, 2) if n else None,
                "elements": self.elements, "text_chars": self.text_chars}


async def first_read(tab: Tab, url: str) -> tuple[float, float, int]:
    """Load a fresh document, wait until it is built, then time its first read_page."""
    # Page.navigate directly, not a navigate step: an act that navigates may read the new
    # document itself (its state change), and then the read timed here would not be the first.
    async with tab.subscribe(page.FrameNavigated) as events:
        navigated = await tab.send(page.Navigate(url=url))
        if navigated.errorText:
            raise RuntimeError(f"navigate {url}: {navigated.errorText}")
        with trio.fail_after(READY_TIMEOUT):
            async for event in events:
                if event.frame.parentId is None and event.frame.loaderId == navigated.loaderId:
                    break
    await wait_until(tab, PAGES["read"][1])
    gc.collect()
    cpu = time.process_time_ns()
    start = time.perf_counter_ns()
    view = await cdpseq.read_page(tab)
    wall = time.perf_counter_ns() - start
    return wall / 1e6, (time.process_time_ns() - cpu) / 1e6, len(view.elements)


# -- the peer, seen from here -------------------------------------------------------------------


class PeerCase:
    def __init__(self, peer: Peer, case: str, gap: float = 0.0) -> None:
        self.peer = peer
        self.case = case
        self.gap = gap
        self.wall_ms: list[float] = []

    async def block(self, n: int, timed: bool = True) -> None:
        samples = await self.peer.times(self.case, n, self.gap)
        if timed:
            self.wall_ms.extend(samples)

    def report(self) -> dict[str, Any]:
        return {"wall": summary_ms(self.wall_ms)}


# -- the run ------------------------------------------------------------------------------------


async def run(args: argparse.Namespace, origin: str) -> dict[str, Any]:
    note = peer_note(args.no_peer)
    settle_field = "settle" in cdpseq.ActRequest.__struct_fields__
    urls = {name: f"{origin}/{page}" for name, (page, _) in PAGES.items()}
    peer: Peer | None = None
    peer_info: dict[str, Any] = {}
    async with cdpseq.launch_browser() as browser:
        if note is None:
            # it sets itself up while this side does
            peer = await Peer.start([sys.executable, SCRIPT, "--peer-worker", origin])
        try:
            tabs = {name: await open_window(browser, urls[name], ready)
                    for name, (_, ready) in PAGES.items()}
            visibility = {name: await evaluate(tab, "document.visibilityState")
                          for name, tab in tabs.items()}
            refs: dict[str, str] = {}
            for name, wanted in (("click", ("button", "Add one")),
                                 ("fill", ("textbox", "Display name"))):
                view = await cdpseq.read_page(tabs[name])
                refs[name] = next(e.ref for e in view.elements
                                  if (e.role, e.name) == wanted)
            if peer is not None:
                try:
                    peer_info = await peer.request()  # its "ready" line
                except RuntimeError as exc:
                    note = f"peer skipped: {exc}"
                    await peer.close()
                    peer = None

            # -- first reads: fresh documents (cdpseq F times, the peer once: ~10+ s each) --
            first: dict[str, Any] = {"cdpseq_ms": [], "cdpseq_cpu_ms": []}
            elements = 0
            for i in range(args.first_reads):
                wall, cpu, elements = await first_read(tabs["read"], f"{urls['read']}?doc={i}")
                first["cdpseq_ms"].append(round(wall, 2))
                first["cdpseq_cpu_ms"].append(round(cpu, 2))
                if i == 0 and peer is not None:
                    first["peer_ms"] = await peer.times("first_read", 1)

            # -- click and fill, interleaved blocks --------------------------------------------
            def click_request(settle: bool | None) -> Callable[[int], Any]:
                steps = [{"type": "click", "target": refs["click"]}]
                if settle is None:
                    return lambda _: steps
                return lambda _: {"steps": steps, "settle": settle}

            def fill_request(settle: bool | None) -> Callable[[int], Any]:
                def make(k: int) -> Any:
                    steps = [{"type": "fill", "target": refs["fill"],
                              "value": FILL_VALUES[k % 2]}]
                    return steps if settle is None else {"steps": steps, "settle": settle}
                return make

            act_cases: dict[str, ActCase] = {}
            if settle_field:
                act_cases["click_nosettle"] = ActCase(browser, tabs["click"],
                                                      click_request(False))
            act_cases["click_default"] = ActCase(browser, tabs["click"], click_request(None))
            if settle_field and args.gap_ms:
                act_cases["click_spaced"] = ActCase(browser, tabs["click"], click_request(False),
                                                    gap=args.gap_ms / 1000)
            if settle_field:
                act_cases["fill_nosettle"] = ActCase(browser, tabs["fill"], fill_request(False))
            act_cases["fill_default"] = ActCase(browser, tabs["fill"], fill_request(None))
            peer_cases: dict[str, PeerCase] = {}
            if peer is not None:
                peer_cases = {"click": PeerCase(peer, "click"), "fill": PeerCase(peer, "fill")}
                if args.gap_ms:
                    peer_cases["click_spaced"] = PeerCase(peer, "click", args.gap_ms / 1000)

            async def act_block(case: ActCase, n: int, timed: bool = True) -> None:
                for _ in range(n):
                    await case.call(timed)

            blocks: dict[str, Callable[[int, bool], Awaitable[None]]] = {}
            for name, act_case in act_cases.items():
                blocks[f"cdpseq.{name}"] = (
                    lambda n, timed, c=act_case: act_block(c, n, timed))
            for name, peer_case in peer_cases.items():
                blocks[f"peer.{name}"] = peer_case.block
            for block in blocks.values():
                await block(WARMUP, False)
            per_block = max(1, args.rounds // args.blocks)
            order = list(blocks)
            for _ in range(args.blocks):
                for name in order:
                    gc.collect()
                    await blocks[name](per_block, True)
                order.reverse()

            # -- reads of one document: learning, then unchanged and changed, interleaved ------
            learning = ReadCase(tabs["read"])
            await learning.call(True)
            while learning.with_node_ids < learning.elements and len(learning.wall_ms) < 200:
                gc.collect()
                await learning.call(True)
            unchanged, changed = ReadCase(tabs["read"]), ReadCase(tabs["read"])
            peer_read = PeerCase(peer, "read") if peer is not None else None
            read_blocks = max(1, args.peer_reads) if peer_read is not None else 1
            per_read_block = max(1, args.reads // read_blocks)
            for b in range(read_blocks):
                if peer_read is not None and b % 2:
                    gc.collect()
                    await peer_read.block(1)
                for _ in range(per_read_block):
                    gc.collect()
                    await unchanged.call(True)
                    await evaluate(tabs["read"], CHANGE_JS)
                    await trio.sleep(0.05)  # untimed: the page renders the change
                    gc.collect()
                    await changed.call(True)
                if peer_read is not None and not b % 2:
                    gc.collect()
                    await peer_read.block(1)

            # -- checks ------------------------------------------------------------------------
            clicks = sum(c.calls for n, c in act_cases.items() if n.startswith("click"))
            checks: dict[str, Any] = {
                "cdpseq_visibility": visibility,
                "cdpseq_clicks_sent": clicks,
                "cdpseq_count_on_page": await evaluate(tabs["click"], COUNT_JS),
                "cdpseq_fill_value_ok": await evaluate(tabs["fill"], NAME_JS) in FILL_VALUES,
                "cdpseq_failures": sum(len(c.failures) for c in act_cases.values()),
            }
            if peer is not None:
                checks["peer"] = await peer.request(op="check")
        finally:
            if peer is not None:
                await peer.close()

    cdpseq_results: dict[str, Any] = {name: case.report() for name, case in act_cases.items()}
    cdpseq_results["read_first"] = {**summary_ms(first["cdpseq_ms"]),
                                    "all_ms": first["cdpseq_ms"],
                                    "cpu_ms": first["cdpseq_cpu_ms"], "elements": elements}
    cdpseq_results["read_learning"] = learning.report()
    cdpseq_results["read_unchanged"] = unchanged.report()
    cdpseq_results["read_changed"] = changed.report()
    peer_results: dict[str, Any] = {name: case.report() for name, case in peer_cases.items()}
    if peer_read is not None:
        peer_results["read_first"] = summary_ms(first.get("peer_ms", []))
        peer_results["read_steady"] = peer_read.report()
    ratios: dict[str, float | None] = {}
    if peer_results:
        for name, case in act_cases.items():
            kind = name if name in peer_results else name.split("_")[0]
            ratios[f"{name}_wall"] = ratio(case.report()["wall"], peer_results[kind]["wall"])
            ratios[f"{name}_step"] = ratio(case.report()["step"], peer_results[kind]["wall"])
        ratios["read_changed"] = ratio(cdpseq_results["read_changed"]["wall"],
                                       peer_results["read_steady"]["wall"])
        ratios["read_first"] = ratio(cdpseq_results["read_first"], peer_results["read_first"])
    return {
        "environment": {
            "browser": browser.version.product,
            "python": platform.python_version(),
            "cdpseq": cdpseq.__version__,
            "trio": trio.__version__,
            "peer": peer_info.get("version"),
            "peer_browser": peer_info.get("browser"),
            "peer_viewport": peer_info.get("viewport"),
        },
        "config": {"rounds": per_block * args.blocks, "blocks": args.blocks,
                   "per_block": per_block, "warmup": WARMUP,
                   "reads": per_read_block * read_blocks, "peer_reads": len(
                       peer_read.wall_ms) if peer_read is not None else 0,
                   "first_reads": args.first_reads, "gap_ms": args.gap_ms,
                   "settle_field": settle_field},
        "note": note,
        "cdpseq": cdpseq_results,
        "peer": peer_results or None,
        "ratios_cdpseq_over_peer": ratios or None,
        "checks": checks,
    }


# -- the peer worker (asyncio, separate process) ------------------------------------------------


async def peer_worker(origin: str) -> None:
    try:
        from playwright.async_api import async_playwright
    except ImportError as exc:
        answer({"error": f"cannot import playwright: {exc}"})
        return

    async with async_playwright() as playwright:
        try:
            browser = await playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=PEER_ARGS)
        except Exception as exc:
            answer({"error": f"cannot launch {CHROMIUM}: {type(exc).__name__}: {exc}"})
            return
        try:
            pages = {}
            for name, (path, ready) in PAGES.items():
                pages[name] = await browser.new_page()
                await pages[name].goto(f"{origin}/{path}")
                await pages[name].wait_for_function(ready, timeout=READY_TIMEOUT * 1000)
            inc = pages["click"].locator("#inc")
            name_field = pages["fill"].locator("#name")
            body = pages["read"].locator("body")
            counters = {"click": 0, "fill": 0}

            async def click() -> None:
                await inc.click()
                counters["click"] += 1

            async def fill() -> None:
                await name_field.fill(FILL_VALUES[counters["fill"] % 2])
                counters["fill"] += 1

            async def read() -> None:
                await body.aria_snapshot()

            cases: dict[str, Callable[[], Awaitable[None]]] = {
                "click": click, "fill": fill, "read": read, "first_read": read}
            viewport = pages["click"].viewport_size
            answer({"ready": True, "version": importlib.metadata.version("playwright"),
                    "browser": browser.version, "viewport": viewport,
                    "visibility": {n: await p.evaluate("document.visibilityState")
                                   for n, p in pages.items()}})

            async def handle(request: dict[str, Any]) -> dict[str, Any]:
                if request["op"] == "check":
                    return {"clicks_sent": counters["click"],
                            "count_on_page": await pages["click"].evaluate(COUNT_JS),
                            "fill_value_ok": await pages["fill"].evaluate(NAME_JS)
                            in FILL_VALUES}
                call = cases[request["case"]]
                samples = []
                for _ in range(request["n"]):
                    if request.get("gap"):
                        await asyncio.sleep(request["gap"])  # untimed
                    start = time.perf_counter_ns()
                    await call()
                    samples.append(round((time.perf_counter_ns() - start) / 1e6, 3))
                return {"ms": samples}

            await serve_requests(handle)
        except Exception as exc:
            answer({"error": f"{type(exc).__name__}: {exc}"})
        finally:
            await browser.close()


# -- output -------------------------------------------------------------------------------------


def print_table(result: dict[str, Any]) -> None:
    env, cfg = result["environment"], result["config"]
    print(tree_line(env["tree"]))
    print(f"{env['browser']}, Python {env['python']}, cdpseq {env['cdpseq']}, trio {env['trio']}"
          + (f"; peer Playwright {env['peer']} (Chromium {env['peer_browser']})"
             if env["peer"] else ""))
    if result["note"]:
        print(result["note"])
    print(f"click/fill: {cfg['blocks']} alternating blocks of {cfg['per_block']} after "
          f"{cfg['warmup']} warm-up calls; reads: {cfg['first_reads']} first (fresh documents), "
          f"{cfg['reads']} unchanged and {cfg['reads']} changed")
    print()
    print(f"  {'case':<30} {'n':>4} {'median ms':>10} {'p90 ms':>9} {'min ms':>8} "
          f"{'cpu ms':>7} {'cmds':>5} {'/peer':>7}")
    ratios = result["ratios_cdpseq_over_peer"] or {}

    def row(label: str, stats: dict[str, Any], cpu: float | None = None,
            cmds: float | None = None, rel: float | None = None) -> None:
        if not stats.get("n"):
            print(f"  {label:<30} {0:>4}")
            return
        print(f"  {label:<30} {stats['n']:>4} {stats['median_ms']:>10.2f} "
              f"{stats['p90_ms']:>9.2f} {stats['min_ms']:>8.2f} {cell(cpu):>7} "
              f"{cell(cmds, '.0f'):>5} {cell(rel, '.2f'):>7}")

    cd, peer = result["cdpseq"], result["peer"] or {}
    gap = result["config"]["gap_ms"]
    for kind, variants in (("click", (("nosettle", "settle:false"), ("default", "default"))),
                           ("click", (("spaced", f"{gap}ms-gap"),)),
                           ("fill", (("nosettle", "settle:false"), ("default", "default")))):
        for variant, label in variants:
            name = f"{kind}_{variant}"
            if name not in cd:
                continue
            case = cd[name]
            row(f"cdpseq {kind} {label} step", case["step"], rel=ratios.get(f"{name}_step"))
            row(f"cdpseq {kind} {label} act", case["wall"], case["cpu_ms_per_call"],
                case["cdp_commands_per_call"], ratios.get(f"{name}_wall"))
        peer_name = kind if variants[0][0] != "spaced" else f"{kind}_spaced"
        if peer_name in peer:
            row(f"playwright {kind}" + (f" {gap}ms-gap" if peer_name != kind else ""),
                peer[peer_name]["wall"])
    steady, first = cd["read_changed"], cd["read_first"]
    row("cdpseq read_page first", first, rel=ratios.get("read_first"))
    for name in ("learning", "unchanged", "changed"):
        case = cd[f"read_{name}"]
        row(f"cdpseq read_page {name}", case["wall"], case["cpu_ms_per_call"],
            rel=ratios.get(f"read_{name}"))
    if "read_steady" in peer:
        row("playwright aria first", peer["read_first"])
        row("playwright aria steady", peer["read_steady"]["wall"])
    print(f"  read_page: {steady['elements']} elements, {steady['text_chars']} chars of text; "
          f"first-read cpu ms {first['cpu_ms']}")
    checks = result["checks"]
    print(f"checks: clicks {checks['cdpseq_clicks_sent']} -> count "
          f"{checks['cdpseq_count_on_page']}, fill ok {checks['cdpseq_fill_value_ok']}, "
          f"act failures {checks['cdpseq_failures']}, visibility "
          f"{sorted(set(checks['cdpseq_visibility'].values()))}"
          + (f"; peer {checks['peer']}" if "peer" in checks else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=60,
                        help="timed calls per click/fill case (default 60)")
    parser.add_argument("--blocks", type=int, default=6,
                        help="alternating blocks the rounds are split into (default 6)")
    parser.add_argument("--reads", type=int, default=12,
                        help="timed unchanged, and as many changed, reads of big.html (default 12)")
    parser.add_argument("--peer-reads", type=int, default=3,
                        help="timed steady-state peer aria snapshots (default 3; seconds each)")
    parser.add_argument("--first-reads", type=int, default=3,
                        help="fresh big.html documents whose first read is timed (default 3)")
    parser.add_argument("--gap-ms", type=int, default=150,
                        help="idle time before each call of the spaced click case (settle "
                             "false), untimed; 0 leaves the case out (default 150)")
    parser.add_argument("--no-peer", action="store_true", help="skip the Playwright peer")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.add_argument("--peer-worker", metavar="ORIGIN", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer_worker:
        asyncio.run(peer_worker(args.peer_worker))
        return
    if args.gap_ms < 0 or min(args.rounds, args.blocks, args.reads, args.peer_reads,
                              args.first_reads) < 1:
        parser.error("--rounds, --blocks, --reads, --peer-reads and --first-reads must be "
                     "positive, --gap-ms not negative")
    tree = tree_state()
    with serve_fixtures() as server:
        result = trio.run(run, args, server.origin)
    result["environment"]["tree"] = tree
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        print()
    else:
        print_table(result)


if __name__ == "__main__":
    main()
