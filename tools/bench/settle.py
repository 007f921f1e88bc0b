#!/usr/bin/env python3
"""Benchmark how closely cdpseq's settle follows the page: overshoot, idle cost, delta size.

Usage::

    .venv/bin/python tools/bench/settle.py [--rounds N] [--idle-rounds M] [--big-rounds B]
                                           [--peer-rounds P] [--no-peer] [--json]
                                           [--only NAME ...]

The fixture server (``fixtures/server.py``) serves the pages; ``cdpseq.launch_browser()`` starts
one headless Chromium and everything runs in its first tab (the only tab of its window, so it is
visible and not throttled). Measured:

1. Overshoot on the same-document scenarios (login, settle-validation, -chained, -timeout, -204,
   -alert, -poll, -oopif, and the buttons of settle-async.html: a click handler that awaits a
   resolved promise, queueMicrotask, a double requestAnimationFrame, requestIdleCallback, a
   postMessage round trip, an IndexedDB read, a worker message, each then rendering, and a
   timer set in the frame after next that renders 150 ms later; then settle-anim-*.html: a
   dialog closed by fallback timers each set in the previous one's callback after a "server"
   timer, a jQuery-style requestAnimationFrame fade of inline styles, a debounced filter whose
   callback removes rows from a timer of its own; then settle-proof.html: a render after a CSS
   transition's transitionend, after microtasks ending in a fetch, after a BroadcastChannel
   message, after a WebSocket answer (150 ms later), after a ResizeObserver callback, an
   interval's second run, a render three animation frames on, an IntersectionObserver's report
   of a box the click shows; and three
   that must not wait, on a page busy
   forever from load on with a 100 ms poll, a frame loop that changes nothing, a logo turned
   every frame and an endless CSS animation, whose click renders at once and starts a frame
   loop that changes nothing, a 100 ms poll, or an endless CSS animation),
   ``--rounds`` runs each (``--only`` some of them), interleaved (one run of every scenario per
   round, the order reversed every round). A run: navigate in an act of its own (settle-oopif
   also waits ``{"type": "wait_for", "stable": true}`` so that its iframe is loaded,
   settle-async ``body[data-ready]``: its database is filled, settle-proof the same: its socket
   is open), then a
   recorder is installed in the page's main world with ``Runtime.evaluate``: a MutationObserver
   on ``document`` (subtree, childList, characterData, attributes; ``style`` attribute changes
   ignored, as cdpseq ignores them) that keeps ``performance.timeOrigin + performance.now()`` of
   the last mutation in a window variable; nothing else of the page is wrapped. Then the
   measured act runs with default settings; ``time.time()`` is noted the moment it returns, and
   at once the last-change time and the final state (``#done`` present; for login the dashboard
   ``h1`` visible) are read. A return is *premature* when the final state was missing at
   return, or when the recorder saw a mutation after the return time (read again 500 ms after
   the return; no scenario here mutates forever, and the poll page's background polling changes
   no DOM). Overshoot = return time - the last change as known after that re-read (so it is
   negative for a premature return). Also counted: returns less than the quiet window after the
   last change (the page had not been quiet for the window yet). The page clock and the host
   clock are compared before every run (the quickest of three round trips) and the difference
   is taken out; it is reported. An act that must not wait is *held* when it returns more than
   HELD_MARGIN_MS past the quiet window after the page's last change, or not stable.
2. Idle click: ``cdpseq.act(tab, [{"type": "click", "selector": "#noop"}])`` on settle-noop.html
   (the click changes nothing): the whole call's wall time with settling, and ``stabilityWaitMs``
   (``--idle-rounds 0`` skips it).
3. Big page: big.html (10,000 rows), loaded with ``Page.navigate`` until ``body[data-ready]``
   and stable (``--big-rounds 0`` skips this part). The JSON size of a full
   ``cdpseq.read_page(tab)`` vs the JSON of ``stateChange`` after an act that clicks
   ``#change-one`` (one row's text changes); the act's wall time minus its
   ``stabilityWaitMs`` (what is not waiting: the click, arming, the delta, the tab info). Then,
   twice per page (row 5000's text is first put back in the main world, 200 ms before, so that
   the click changes it again): the agent called directly, ``__cdpseq.arm()``, ``#change-one``
   clicked by a main-world ``Runtime.evaluate``, and the round trip of ``agent.evaluate(
   "__cdpseq.delta({limit: 15})")`` timed - once right after the click (the same call wrapped
   in a ``performance.now()`` pair, which also gives its compute time inside the page) and once
   200 ms after it (as in an act, where the delta follows the quiet window).
4. Peers. Computed, not measured: from each run of (1), what a fixed-sleep strategy would have
   returned, counted from the end of cdpseq's last action step (act start + the steps'
   ``durationMs``; cdpseq's few ms of arming before the first step are left out, so the
   computed returns are a few ms early): a fixed 150 ms and 500 ms sleep (OpenChrome-style),
   and Playwright MCP's ``waitForCompletion`` (500 ms; then, when the action issued requests in
   those 500 ms, until they finished - taken as the last change, which follows the last
   response - and 500 ms more; settle-alert assumes the dialog is handled at once).
   Measured, when ``playwright`` is importable: after the trio phase, a separate asyncio phase
   launches the same Chromium binary with Playwright and runs login, settle-chained and
   settle-timeout the same way (``page.goto(url, wait_until="networkidle")``, the same recorder,
   ``page.fill``/``page.click`` then ``page.wait_for_load_state("networkidle")``).

Nothing fails on timing: the script only reports (premature returns are counted and listed).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import importlib.util
import json
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import trio

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # tools/ and fixtures/ are not part of the installed package

import cdpseq  # noqa: E402
from cdpseq import Tab  # noqa: E402
from cdpseq.cdp import page  # noqa: E402
from cdpseq.engine.settle_watch import DEFAULT_QUIET  # noqa: E402
from cdpseq.page.agent import PageAgent  # noqa: E402
from fixtures.server import serve_fixtures  # noqa: E402
from tools.bench.common import (  # noqa: E402
    CHROMIUM,
    PEER_ARGS,
    cell,
    evaluate,
    median,
    summary_ms,
    tree_line,
    tree_state,
)

# Times are reported to a tenth of a ms here: summary_ms(samples, 1).

ACT_TIMEOUT = 30.0
LATE_CHECK_MS = 500.0
IDLE_WARMUP = 3
QUIET_MS = DEFAULT_QUIET * 1000
TARGET_OVERSHOOT_MS = 150.0  # beyond the quiet window
TARGET_IDLE_MS = 250.0
TARGET_DELTA_RATIO = 20.0
TARGET_DELTA_MS = 60.0
# A scenario that must not wait (its page is busy forever with what does not count) is held
# when the act returns this long after the page's last change beyond the quiet window, or not
# stable.
HELD_MARGIN_MS = 400.0

# -- the recorder (main world) ---------------------------------------------------------------------

NOW_JS = "performance.timeOrigin + performance.now()"
RECORDER_JS = """
(() => {
  const old = window.__settleBench;
  if (old) old.observer.disconnect();
  const bench = window.__settleBench = { last: null, count: 0, observer: null };
  bench.observer = new MutationObserver(records => {
    for (const r of records) {
      if (r.type !== "attributes" || r.attributeName !== "style") {
        bench.last = performance.timeOrigin + performance.now();
        bench.count += 1;
        return;
      }
    }
  });
  bench.observer.observe(document, { subtree: true, childList: true, characterData: true,
                                     attributes: true });
  return true;
})()
"""
DONE_JS = "!!document.querySelector('#done')"
LOGIN_DONE_JS = ("(() => { const h = document.querySelector('#dashboard h1'); "
                 "return !!h && h.checkVisibility(); })()")


def read_js(done: str) -> str:
    return ("(() => { const b = window.__settleBench; "
            f"return {{ last: b ? b.last : null, count: b ? b.count : -1, done: {done} }}; }})()")


@dataclass(frozen=True)
class Scenario:
    name: str
    page: str
    steps: list[dict[str, Any]]
    done: str = DONE_JS
    requests: bool = True  # does the action issue requests within 500 ms (Playwright MCP model)
    wait_stable: bool = False  # wait for the page to settle after loading (an iframe loads)
    wait_ready: bool = False  # wait for body[data-ready] after loading (settle-async.html)
    must_not_wait: bool = False  # the page is busy forever with what must not hold the act


def click(selector: str) -> list[dict[str, Any]]:
    return [{"type": "click", "selector": selector}]


LOGIN_STEPS = [{"type": "fill", "selector": "#email", "value": "ada@example.org"},
               {"type": "fill", "selector": "#password", "value": "pw"},
               {"type": "click", "selector": "#sign-in"}]
SCENARIOS = [
    Scenario("login", "login.html", LOGIN_STEPS, done=LOGIN_DONE_JS),
    Scenario("validation", "settle-validation.html", click("#submit"), requests=False),
    Scenario("chained", "settle-chained.html", click("#load")),
    Scenario("timeout", "settle-timeout.html", click("#go"), requests=False),
    Scenario("204", "settle-204.html", click("#go")),
    Scenario("alert", "settle-alert.html", click("#go"), requests=False),
    Scenario("poll", "settle-poll.html", click("#go")),  # background polls every 200 ms
    Scenario("oopif", "settle-oopif.html", click("#go"), wait_stable=True),
    # Handlers that render after an async path of the page's own (settle-async.html): no
    # request, no timer; some outlive two animation frames.
    *(Scenario(name, "settle-async.html", click(f"#{name}"), requests=False, wait_ready=True)
      for name in ("promise", "microtask", "raf", "idle", "post", "idb", "worker",
                   "frame-timer")),
    # Work chained in the page's own timers and animation frames (settle-anim-*.html): a
    # dialog closed by fallback timers each set in the previous one's callback, after a
    # "server" timer; a jQuery-style requestAnimationFrame fade of inline styles (no CSS
    # transition); a debounced filter whose callback removes rows from a timer of its own.
    Scenario("fallback", "settle-anim-fallback.html", click("#go"), requests=False),
    Scenario("raf-fade", "settle-anim-frames.html", click("#fade"), requests=False),
    Scenario("debounce", "settle-anim-debounce.html",
             [{"type": "fill", "selector": "#q", "value": "harbor"}], requests=False),
    # Renders after what the frame proof must follow (settle-proof.html): a CSS transition's
    # transitionend, microtasks ending in a fetch, a BroadcastChannel message from a second
    # channel object, a WebSocket answer the server sends 150 ms later, a ResizeObserver
    # callback, an 80 ms interval's second run, a render three animation frames after one at
    # once, an IntersectionObserver's report of a box the click shows.
    *(Scenario(name, "settle-proof.html", click(f"#{name}"), requests=name == "microtask-fetch",
               wait_ready=True)
      for name in ("transition", "microtask-fetch", "broadcast", "websocket", "resize",
                   "interval", "frames", "intersect")),
    # What must not hold the act (settle-anim-busy.html, busy from load on: a 100 ms poll, a
    # frame loop that changes nothing, a logo turned by script every frame, an endless CSS
    # animation): the click renders at once and starts a frame loop that changes nothing, a
    # 100 ms poll, or an endless CSS animation.
    Scenario("idle-loop", "settle-anim-busy.html", click("#start-loop"), requests=False,
             must_not_wait=True),
    Scenario("poll-100", "settle-anim-busy.html", click("#start-poll"), requests=False,
             must_not_wait=True),
    Scenario("spinner", "settle-anim-busy.html", click("#go"), requests=False,
             must_not_wait=True),
]
PEER_SCENARIOS = ("login", "chained", "timeout")

# -- statistics ------------------------------------------------------------------------------------






def now_ms() -> float:
    return time.time() * 1000


# -- the cdpseq side -------------------------------------------------------------------------------


async def act(tab: Tab, request: Any) -> cdpseq.ActResult:
    with trio.fail_after(ACT_TIMEOUT):
        return await cdpseq.act(tab, request)


async def clock_offset(tab: Tab) -> float:
    """Page clock minus host clock, in ms, from the quickest of three round trips."""
    best: tuple[float, float] | None = None
    for _ in range(3):
        t0 = now_ms()
        page_now = await evaluate(tab, NOW_JS)
        t1 = now_ms()
        if best is None or t1 - t0 < best[0]:
            best = (t1 - t0, page_now - (t0 + t1) / 2)
    assert best is not None
    return best[1]


@dataclass
class Run:
    """One measured act: times are host-clock ms (epoch)."""

    scenario: str
    start: float
    action_end: float  # start + the steps' durationMs
    returned: float
    last_change: float | None  # page clock corrected to the host clock
    done: bool
    late_change: float | None  # a mutation seen after the return, by the 500 ms re-read
    offset: float
    stable: Any
    stability_wait_ms: Any
    ok: bool
    reasons: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    """Why an act that must not wait was held (``Scenario.must_not_wait``)."""

    @property
    def final_change(self) -> float | None:
        """The page's last change as finally known (after the late re-read)."""
        return self.late_change if self.late_change is not None else self.last_change

    @property
    def overshoot(self) -> float | None:
        """Return time minus the last change; negative when the page changed afterwards."""
        final = self.final_change
        return None if final is None else self.returned - final

    @property
    def premature(self) -> bool:
        return bool(self.reasons)


def judge(run: Run) -> None:
    if not run.done:
        run.reasons.append("final state missing at return")
    if run.last_change is None:
        run.reasons.append("no DOM change recorded before return")
    elif run.last_change > run.returned:
        run.reasons.append(f"changed {run.last_change - run.returned:.1f} ms after return")
    if run.late_change is not None:
        run.reasons.append(f"changed {run.late_change - run.returned:.1f} ms after return "
                           "(seen by the late re-read)")


async def overshoot_run(tab: Tab, origin: str, scenario: Scenario) -> Run:
    prepare: list[dict[str, Any]] = [{"type": "navigate", "url": f"{origin}/{scenario.page}"}]
    if scenario.wait_stable:
        prepare.append({"type": "wait_for", "stable": True})
    if scenario.wait_ready:
        prepare.append({"type": "wait_for", "selector": "body[data-ready]", "state": "attached"})
    loaded = await act(tab, prepare)
    if not loaded.ok:
        raise RuntimeError(f"{scenario.name}: loading failed: {loaded.failed}")
    offset = await clock_offset(tab)
    await evaluate(tab, RECORDER_JS)
    start = now_ms()
    result = await act(tab, scenario.steps)
    returned = now_ms()
    first = await evaluate(tab, read_js(scenario.done))
    await trio.sleep(max(returned + LATE_CHECK_MS - now_ms(), 0) / 1000)
    later = await evaluate(tab, read_js(scenario.done))
    last = first["last"] - offset if first["last"] is not None else None
    late = None
    if later["count"] != first["count"] and later["last"] is not None:
        late = later["last"] - offset
    run = Run(scenario=scenario.name, start=start,
              action_end=start + sum(step.duration_ms for step in result.steps),
              returned=returned, last_change=last, done=bool(first["done"]), late_change=late,
              offset=offset, stable=msgspec.to_builtins(result.stable),
              stability_wait_ms=msgspec.to_builtins(result.stability_wait_ms), ok=result.ok)
    if not result.ok:
        run.reasons.append(f"act failed: {result.failed}")
    judge(run)
    if scenario.must_not_wait:
        judge_held(run, result)
    return run


def judge_held(run: Run, result: cdpseq.ActResult) -> None:
    if result.stable is not True:
        run.held.append(f"not stable: {result.unstable_reason}")
    over = run.overshoot
    if over is not None and over > QUIET_MS + HELD_MARGIN_MS:
        run.held.append(f"returned {over:.0f} ms after the last change")


async def bench_overshoot(tab: Tab, origin: str, rounds: int,
                          scenarios: list[Scenario]) -> list[Run]:
    runs: list[Run] = []
    order = list(scenarios)
    for _ in range(rounds):
        for scenario in order:
            runs.append(await overshoot_run(tab, origin, scenario))
        order.reverse()
    return runs


async def bench_idle(tab: Tab, origin: str, rounds: int) -> dict[str, Any]:
    loaded = await act(tab, [{"type": "navigate", "url": f"{origin}/settle-noop.html"}])
    assert loaded.ok, loaded.failed
    request = click("#noop")
    for _ in range(IDLE_WARMUP):
        await act(tab, request)
    walls: list[float] = []
    waits: list[float] = []
    anomalies: list[str] = []
    for _ in range(rounds):
        started = time.perf_counter()
        result = await act(tab, request)
        walls.append((time.perf_counter() - started) * 1000)
        waits.append(float(result.stability_wait_ms))
        if not result.ok or result.stable is not True or result.state_change is not None:
            anomalies.append(f"ok={result.ok} stable={result.stable} "
                             f"stateChange={result.state_change}")
    return {"wall": summary_ms(walls, 1), "stability_wait": summary_ms(waits, 1),
            "anomalies": anomalies, "target_ms": TARGET_IDLE_MS,
            "target_met": median(walls) <= TARGET_IDLE_MS}


async def load_big(tab: Tab, origin: str) -> None:
    """Load big.html with Page.navigate (an act that navigates would also read the whole new
    document for its summary, ~1 s here, which is not what is measured), wait until its rows
    are built, then until it is stable (its first paint of 10,000 rows is done)."""
    await tab.send(page.Navigate(url=f"{origin}/big.html"))
    with trio.fail_after(ACT_TIMEOUT):
        while True:
            try:
                if await evaluate(tab, BIG_READY_JS):
                    break
            except (RuntimeError, cdpseq.CdpseqError):
                pass  # the document is still being replaced
            await trio.sleep(0.05)
    ready = await act(tab, [{"type": "wait_for", "selector": "body[data-ready=true]",
                             "timeoutMs": 20000}, {"type": "wait_for", "stable": True}])
    if not ready.ok:
        raise RuntimeError(f"big.html did not get ready: {ready.failed}")


BIG_READY_JS = ("location.pathname === '/big.html' && document.readyState === 'complete' && "
                "document.body.dataset.ready === 'true'")
RESET_ROW_JS = ("(() => { const row = document.getElementById('rows').rows[4999]; "
                "row.cells[0].textContent = 'Item 5000'; return true; })()")
CLICK_JS = "document.querySelector('#change-one').click()"
DELTA_JS = "__cdpseq.delta({limit: 15})"
DELTA_TIMED_JS = ("(() => { const t = performance.now(); const d = __cdpseq.delta({limit: 15});"
                  " return {ms: performance.now() - t, changedTotal: d.changedTotal}; })()")
IDLE_BEFORE_DELTA = 0.2


async def direct_delta(tab: Tab, *, idle_first: bool) -> tuple[float, float | None, int]:
    """Reset row 5000, arm the agent, click #change-one in the main world, then time the
    agent's delta: at once (the renderer still has the change to style and lay out), or after
    ``IDLE_BEFORE_DELTA`` s (as in an act, where the delta follows the quiet window). Returns
    (round trip ms, in-page compute ms or None, changedTotal)."""
    await evaluate(tab, RESET_ROW_JS)
    await trio.sleep(IDLE_BEFORE_DELTA)  # the reset is not part of what is measured
    agent = tab.extension(PageAgent)
    await agent.evaluate("__cdpseq.arm()")
    await evaluate(tab, CLICK_JS)
    if idle_first:
        await trio.sleep(IDLE_BEFORE_DELTA)
        started = time.perf_counter()
        delta = await agent.evaluate(DELTA_JS)
        return (time.perf_counter() - started) * 1000, None, int(delta["changedTotal"])
    started = time.perf_counter()
    timed = await agent.evaluate(DELTA_TIMED_JS)  # the same call, timed inside the page too
    return (time.perf_counter() - started) * 1000, float(timed["ms"]), int(timed["changedTotal"])


async def bench_big(tab: Tab, origin: str, rounds: int) -> dict[str, Any]:
    full_sizes: list[float] = []
    change_sizes: list[float] = []
    act_minus_wait: list[float] = []
    act_walls: list[float] = []
    clicks: list[float] = []
    waits: list[float] = []
    rtt_now: list[float] = []
    in_page: list[float] = []
    rtt_idle: list[float] = []
    anomalies: list[str] = []
    elements = 0
    for _ in range(rounds):
        await load_big(tab, origin)
        view = await cdpseq.read_page(tab)
        elements = len(view.elements)
        full_sizes.append(len(msgspec.json.encode(view)))
        started = time.perf_counter()
        result = await act(tab, click("#change-one"))
        wall = (time.perf_counter() - started) * 1000
        change = msgspec.to_builtins(result.state_change)  # a typed StateChange, or None
        change_sizes.append(len(msgspec.json.encode(change)))
        act_walls.append(wall)
        clicks.append(result.steps[0].duration_ms)
        waits.append(float(result.stability_wait_ms))
        act_minus_wait.append(wall - float(result.stability_wait_ms))
        got = [(c["field"], c["to"]) for c in (change or {}).get("changed", [])]
        if got != [("text", "Item 5000 (changed)")] or len(change or {}) != 1:
            anomalies.append(f"unexpected stateChange: {change}")
        for idle_first in (False, True):
            rtt, compute, changed = await direct_delta(tab, idle_first=idle_first)
            (rtt_idle if idle_first else rtt_now).append(rtt)
            if compute is not None:
                in_page.append(compute)
            if changed != 1:
                anomalies.append(f"direct delta (idle first: {idle_first}): "
                                 f"changedTotal={changed}")
    ratio = median(full_sizes) / median(change_sizes)
    return {
        "rows": 10000, "read_elements": elements,
        "full_read_bytes": int(median(full_sizes)),
        "state_change_bytes": int(median(change_sizes)),
        "ratio": round(ratio, 1), "ratio_target": TARGET_DELTA_RATIO,
        "act_wall": summary_ms(act_walls, 1), "act_click_step": summary_ms(clicks, 1),
        "act_stability_wait": summary_ms(waits, 1),
        "act_minus_stability_wait": summary_ms(act_minus_wait, 1),
        "delta_round_trip": summary_ms(rtt_now, 1), "delta_in_page": summary_ms(in_page, 1),
        "delta_round_trip_after_idle": summary_ms(rtt_idle, 1),
        "delta_target_ms": TARGET_DELTA_MS,
        "targets_met": {"ratio": ratio >= TARGET_DELTA_RATIO,
                        "delta_round_trip": median(rtt_now) <= TARGET_DELTA_MS,
                        "delta_round_trip_after_idle": median(rtt_idle) <= TARGET_DELTA_MS},
        "anomalies": anomalies,
    }


# -- computed peers --------------------------------------------------------------------------------


def peer_return(strategy: str, run: Run, requests: bool) -> float:
    """When a fixed-sleep strategy would have returned, by arithmetic (host-clock ms)."""
    action_end = run.action_end
    if strategy == "sleep_150":
        return action_end + 150
    if strategy == "sleep_500":
        return action_end + 500
    # Playwright MCP waitForCompletion: 500 ms; if requests were issued meanwhile, until they
    # finished (the last change follows the last response) and 500 ms more.
    assert strategy == "playwright_mcp"
    back = action_end + 500
    final = run.final_change
    if requests and final is not None:
        back = max(back, final) + 500
    return back


def computed_peers(runs: list[Run]) -> dict[str, Any]:
    by_name = {s.name: s for s in SCENARIOS}
    out: dict[str, Any] = {}
    for strategy in ("sleep_150", "sleep_500", "playwright_mcp"):
        per: dict[str, Any] = {}
        pooled: list[float] = []
        for scenario in SCENARIOS:
            if not any(run.scenario == scenario.name for run in runs):
                continue
            values: list[float] = []
            premature = 0
            for run in runs:
                final = run.final_change
                if run.scenario != scenario.name or final is None:
                    continue
                over = peer_return(strategy, run, by_name[run.scenario].requests) - final
                values.append(over)
                premature += over < 0
            pooled.extend(v for v in values if v >= 0)
            per[scenario.name] = summary_ms(values, 1) | {"premature": premature}
        out[strategy] = {"scenarios": per, "all_not_premature": summary_ms(pooled, 1)}
    return out


# -- the trio phase --------------------------------------------------------------------------------


def report_runs(runs: list[Run]) -> dict[str, Any]:
    per: dict[str, Any] = {}
    for scenario in SCENARIOS:
        mine = [r for r in runs if r.scenario == scenario.name]
        if not mine:
            continue
        overs = [r.overshoot for r in mine if r.overshoot is not None]
        walls = [r.returned - r.start for r in mine]
        waits = [float(r.stability_wait_ms) for r in mine
                 if isinstance(r.stability_wait_ms, int | float)]
        per[scenario.name] = {
            "overshoot": summary_ms(overs, 1),
            "premature": sum(r.premature for r in mine),
            "held": sum(bool(r.held) for r in mine),
            "unstable": sum(r.stable is not True for r in mine),
            "stability_wait": summary_ms(waits, 1),
            "act_wall": summary_ms(walls, 1),
            "last_change_after_action_end": summary_ms(
                [r.final_change - r.action_end for r in mine if r.final_change is not None], 1),
            "below_quiet_window": sum(0 <= o < QUIET_MS for o in overs),
            "quiet_window_ms": QUIET_MS,
            "samples_ms": [round(v, 1) for v in overs],
        }
    overs = [r.overshoot for r in runs if r.overshoot is not None]
    overall = median(overs)
    return {
        "quiet_window_ms": QUIET_MS,
        "scenarios": per,
        "all": summary_ms(overs, 1),
        "median_minus_quiet_ms": round(overall - QUIET_MS, 1),
        "target_ms": TARGET_OVERSHOOT_MS,
        "target_met": overall - QUIET_MS <= TARGET_OVERSHOOT_MS,
        "premature": [{"scenario": r.scenario, "reasons": r.reasons} for r in runs
                      if r.premature],
        "held": [{"scenario": r.scenario, "reasons": r.held} for r in runs if r.held],
        "below_quiet_window": sum(0 <= o < QUIET_MS for o in overs),
        "clock_offset_ms": summary_ms([r.offset for r in runs], 1),
    }


async def run_cdpseq(args: argparse.Namespace, origin: str) -> dict[str, Any]:
    async with cdpseq.launch_browser() as browser:
        tab = await browser.tab()
        phase_started = time.perf_counter()
        scenarios = [s for s in SCENARIOS if not args.only or s.name in args.only]
        runs = await bench_overshoot(tab, origin, args.rounds, scenarios)
        overshoot_s = time.perf_counter() - phase_started
        idle = await bench_idle(tab, origin, args.idle_rounds) if args.idle_rounds else None
        big = await bench_big(tab, origin, args.big_rounds) if args.big_rounds else None
        return {
            "browser": browser.version.product,
            "overshoot": report_runs(runs),
            "overshoot_phase_s": round(overshoot_s, 1),
            "idle_click": idle,
            "big_page": big,
            "peers_computed": computed_peers(runs),
        }


# -- the measured peer (asyncio phase) -------------------------------------------------------------


async def playwright_run(pw_page: Any, origin: str, scenario: Scenario) -> Run:
    """One measured Playwright run of ``scenario`` on ``pw_page`` (see the module comment)."""
    await pw_page.goto(f"{origin}/{scenario.page}", wait_until="networkidle")
    best: tuple[float, float] | None = None
    for _ in range(3):
        t0 = now_ms()
        page_now = await pw_page.evaluate(NOW_JS)
        t1 = now_ms()
        if best is None or t1 - t0 < best[0]:
            best = (t1 - t0, page_now - (t0 + t1) / 2)
    assert best is not None
    offset = best[1]
    await pw_page.evaluate(RECORDER_JS)
    start = now_ms()
    for step in scenario.steps:
        if step["type"] == "fill":
            await pw_page.fill(step["selector"], step["value"])
        else:
            await pw_page.click(step["selector"])
    action_end = now_ms()
    await pw_page.wait_for_load_state("networkidle", timeout=10000)
    returned = now_ms()
    first = await pw_page.evaluate(read_js(scenario.done))
    await asyncio.sleep(max(returned + LATE_CHECK_MS - now_ms(), 0) / 1000)
    later = await pw_page.evaluate(read_js(scenario.done))
    late = None
    if later["count"] != first["count"] and later["last"] is not None:
        late = later["last"] - offset
    run = Run(scenario=scenario.name, start=start, action_end=action_end, returned=returned,
              last_change=first["last"] - offset if first["last"] is not None else None,
              done=bool(first["done"]), late_change=late, offset=offset, stable=None,
              stability_wait_ms=None, ok=True)
    judge(run)
    return run


async def run_playwright(origin: str, rounds: int) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    scenarios = [s for s in SCENARIOS if s.name in PEER_SCENARIOS]
    runs: list[Run] = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                   args=PEER_ARGS)
        try:
            pw_page = await browser.new_page()
            order = list(scenarios)
            for _ in range(rounds):
                for scenario in order:
                    runs.append(await playwright_run(pw_page, origin, scenario))
                order.reverse()
            version = browser.version
        finally:
            await browser.close()
    per: dict[str, Any] = {}
    for scenario in scenarios:
        mine = [r for r in runs if r.scenario == scenario.name]
        per[scenario.name] = {
            "overshoot": summary_ms([r.overshoot for r in mine if r.overshoot is not None], 1),
            "wait_after_action": summary_ms([r.returned - r.action_end for r in mine], 1),
            "premature": sum(r.premature for r in mine),
            "done_at_return": sum(r.done for r in mine),
        }
    return {"version": importlib.metadata.version("playwright"), "browser": version,
            "method": "page.goto(url, wait_until='networkidle'); page.fill/page.click; "
                      "page.wait_for_load_state('networkidle')",
            "scenarios": per,
            "premature": [{"scenario": r.scenario, "reasons": r.reasons} for r in runs
                          if r.premature]}


# -- output ----------------------------------------------------------------------------------------


def print_table(result: dict[str, Any]) -> None:
    env, cd = result["environment"], result["cdpseq"]
    print(tree_line(env["tree"]))
    print(f"{cd['browser']}, Python {env['python']}, cdpseq {env['cdpseq']}")
    over = cd["overshoot"]
    print()
    print(f"1. Overshoot = act return - last DOM change (quiet window {over['quiet_window_ms']:g}"
          f" ms; page-host clock offset median {over['clock_offset_ms']['median_ms']} ms, "
          "taken out)")
    print(f"  {'scenario':<11} {'n':>3} {'median':>7} {'p90':>7} {'min':>7} {'max':>7} "
          f"{'premat':>6} {'held':>4} {'<quiet':>6} {'unstbl':>6} {'waitMs':>7} {'act':>7} "
          f"{'change@':>8}")
    for name, s in over["scenarios"].items():
        o = s["overshoot"]
        print(f"  {name:<11} {o['n']:>3} {cell(o.get('median_ms')):>7} {cell(o.get('p90_ms')):>7} "
              f"{cell(o.get('min_ms')):>7} {cell(o.get('max_ms')):>7} {s['premature']:>6} "
              f"{s['held']:>4} {s['below_quiet_window']:>6} {s['unstable']:>6} "
              f"{cell(s['stability_wait'].get('median_ms'), '.0f'):>7} "
              f"{cell(s['act_wall'].get('median_ms'), '.0f'):>7} "
              f"{cell(s['last_change_after_action_end'].get('median_ms'), '.0f'):>8}")
    a = over["all"]
    print(f"  {'all':<11} {a['n']:>3} {a['median_ms']:>7.1f} {a['p90_ms']:>7.1f} "
          f"{a['min_ms']:>7.1f} {a['max_ms']:>7.1f} {len(over['premature']):>6} "
          f"{len(over['held']):>4} {over['below_quiet_window']:>6}")
    print(f"  median - quiet window = {over['median_minus_quiet_ms']} ms (target <= "
          f"{over['target_ms']:g}): {'met' if over['target_met'] else 'MISSED'}")
    print("  (ms; held: an act that must not wait returned more than "
          f"{HELD_MARGIN_MS:g} ms past the quiet window after the last change, or not stable; "
          "<quiet: returns 0 to quiet-window ms after the last change, i.e. before the "
          "page had been quiet for the window; waitMs: stabilityWaitMs median; act: act wall "
          "median; change@: last change after the last step ended, median)")
    for p in over["premature"]:
        print(f"  PREMATURE {p['scenario']}: {'; '.join(p['reasons'])}")
    for p in over["held"]:
        print(f"  HELD {p['scenario']}: {'; '.join(p['reasons'])}")
    print_idle_and_big(cd)
    print_peers(result)


def print_idle_and_big(cd: dict[str, Any]) -> None:
    idle = cd["idle_click"]
    if idle is not None:
        print()
        print(f"2. Idle click (settle-noop.html, whole act with settling), "
              f"n={idle['wall']['n']}: median {idle['wall']['median_ms']} ms, p90 "
              f"{idle['wall']['p90_ms']} ms (target <= {idle['target_ms']:g}: "
              f"{'met' if idle['target_met'] else 'MISSED'}); stabilityWaitMs median "
              f"{idle['stability_wait']['median_ms']}")
        for anomaly in idle["anomalies"]:
            print(f"  ANOMALY {anomaly}")
    big = cd["big_page"]
    if big is None:
        return
    print()
    print(f"3. Big page ({big['rows']} rows, {big['read_elements']} refs), "
          f"n={big['act_wall']['n']}: read_page JSON {big['full_read_bytes']} B, stateChange "
          f"JSON {big['state_change_bytes']} B, ratio {big['ratio']}x (target >= "
          f"{big['ratio_target']:g}x: {'met' if big['targets_met']['ratio'] else 'MISSED'})")
    print(f"  act click #change-one: wall median {big['act_wall']['median_ms']} ms, "
          f"stabilityWaitMs median {big['act_stability_wait']['median_ms']}, act - "
          f"stabilityWaitMs median {big['act_minus_stability_wait']['median_ms']} ms, p90 "
          f"{big['act_minus_stability_wait']['p90_ms']} ms (of which the click step median "
          f"{big['act_click_step']['median_ms']} ms)")
    met = big["targets_met"]
    print(f"  agent delta right after the change: round trip median "
          f"{big['delta_round_trip']['median_ms']} ms, p90 {big['delta_round_trip']['p90_ms']}"
          f" ms (target <= {big['delta_target_ms']:g}: "
          f"{'met' if met['delta_round_trip'] else 'MISSED'}), computed in page median "
          f"{big['delta_in_page']['median_ms']} ms, p90 {big['delta_in_page']['p90_ms']} ms")
    print(f"  agent delta {IDLE_BEFORE_DELTA * 1000:g} ms after the change (as in an act): "
          f"round trip median {big['delta_round_trip_after_idle']['median_ms']} ms, p90 "
          f"{big['delta_round_trip_after_idle']['p90_ms']} ms "
          f"({'met' if met['delta_round_trip_after_idle'] else 'MISSED'})")
    for anomaly in big["anomalies"]:
        print(f"  ANOMALY {anomaly}")


def print_peers(result: dict[str, Any]) -> None:
    cd = result["cdpseq"]
    over = cd["overshoot"]
    print()
    print("4. Peers, COMPUTED from the runs of 1 (not measured): overshoot median / premature "
          "count, counted from the end of cdpseq's last step")
    names = list(over["scenarios"])
    print(f"  {'strategy':<16} " + " ".join(f"{n:>11}" for n in names))
    labels = {"sleep_150": "sleep 150 ms", "sleep_500": "sleep 500 ms",
              "playwright_mcp": "Playwright MCP"}
    computed = cd["peers_computed"]
    for key, label in labels.items():
        cells = []
        for n in names:
            s = computed[key]["scenarios"][n]
            cells.append(f"{cell(s.get('median_ms'), '.0f')}/{s['premature']}")
        print(f"  {label:<16} " + " ".join(f"{c:>11}" for c in cells))
    cells = [f"{cell(over['scenarios'][n]['overshoot'].get('median_ms'), '.0f')}/"
             f"{over['scenarios'][n]['premature']}" for n in names]
    print(f"  {'cdpseq (meas.)':<16} " + " ".join(f"{c:>11}" for c in cells))
    peer = result.get("peer_measured")
    print()
    if peer is None or "error" in peer:
        print("Playwright, MEASURED: " + (result.get("peer_note") or peer.get("error", "")
                                          if peer else result.get("peer_note") or "skipped"))
        return
    print(f"Playwright {peer['version']} (Chromium {peer['browser']}), MEASURED: "
          f"{peer['method']}")
    for name, s in peer["scenarios"].items():
        o = s["overshoot"]
        print(f"  {name:<11} n={o['n']} overshoot median {cell(o.get('median_ms'))} ms, p90 "
              f"{cell(o.get('p90_ms'))} ms; wait after the action median "
              f"{cell(s['wait_after_action'].get('median_ms'))} ms; premature {s['premature']} "
              f"(final state present at return {s['done_at_return']}/{o['n']})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10,
                        help="measured runs per overshoot scenario (default 10)")
    parser.add_argument("--idle-rounds", type=int, default=30,
                        help="timed idle clicks (default 30)")
    parser.add_argument("--big-rounds", type=int, default=5,
                        help="big-page rounds, one page load each (default 5)")
    parser.add_argument("--peer-rounds", type=int, default=5,
                        help="measured Playwright runs per peer scenario (default 5)")
    parser.add_argument("--no-peer", action="store_true", help="skip the measured Playwright peer")
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        choices=[scenario.name for scenario in SCENARIOS],
                        help="these overshoot scenarios only")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    args = parser.parse_args()
    if min(args.rounds, args.peer_rounds) < 1 or min(args.idle_rounds, args.big_rounds) < 0:
        parser.error("--rounds and --peer-rounds must be positive, --idle-rounds and "
                     "--big-rounds at least 0 (0: that part is skipped)")
    result: dict[str, Any] = {
        "environment": {"python": platform.python_version(), "cdpseq": cdpseq.__version__,
                        "tree": tree_state()},
        "config": {"rounds": args.rounds, "idle_rounds": args.idle_rounds,
                   "big_rounds": args.big_rounds, "peer_rounds": args.peer_rounds,
                   "late_check_ms": LATE_CHECK_MS},
    }
    started = time.perf_counter()
    with serve_fixtures() as server:
        result["cdpseq"] = trio.run(run_cdpseq, args, server.origin)
        if args.no_peer:
            result["peer_note"] = "measured peer skipped (--no-peer)"
        elif importlib.util.find_spec("playwright") is None:
            result["peer_note"] = "measured peer skipped: playwright is not importable"
        else:
            try:
                result["peer_measured"] = asyncio.run(
                    run_playwright(server.origin, args.peer_rounds))
            except Exception as exc:  # report, keep the cdpseq numbers
                result["peer_measured"] = {"error": f"{type(exc).__name__}: {exc}"}
    result["elapsed_s"] = round(time.perf_counter() - started, 1)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        print()
    else:
        print_table(result)
        print(f"\nelapsed {result['elapsed_s']} s")


if __name__ == "__main__":
    main()
