#!/usr/bin/env python3
"""Throughput of a pool of browsers (``cdpseq.open_pool``) against one browser.

Usage::

    .venv/bin/python tools/bench/pool.py [--browsers N] [--sequences S] [--tabs-per-browser T]
                                          [--json]

Starts N local headless Chromiums (``cdpseq.launch_chromium``, each removed on exit) as the
pool, and runs S login sequences (``login.html``: navigate, fill email and password, click
Sign in, wait for "Signed in as ..."; the same act ``tools/soak.py`` uses) three ways:

- ``1 browser, T tabs``: one of the Chromiums, T sequences at once;
- ``1 browser, N*T tabs``: one Chromium with as many sequences at once as the whole pool;
- ``N browsers, T tabs each``: the pool.

With ``--service``: the same login sequences on browserless (tools/browserless, started on
127.0.0.1 with CONCURRENT=4) at ``--concurrency`` 1, 2 and 4 (a fresh browser per sequence),
against as many local Chromiums (one sequence at a time in each), for each ``--sequences``.

Reported: wall seconds, sequences per second, and the sequences that did not end ok. On one
machine the browsers share its cores, so the pool mostly shows what a machine's cores allow;
with browsers on other machines (containers, a hosted pool) each brings its own. Nothing fails
on timing: the script only reports.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # tools/ and fixtures/ are not part of the installed package

import cdpseq  # noqa: E402
from fixtures.server import serve_fixtures  # noqa: E402
from tools.soak import sign_in  # noqa: E402

RUN_TIMEOUT = 600.0


def login_sequences(origin: str, count: int, tag: str = "pool") -> list[list[dict[str, Any]]]:
    return [[{"type": "navigate", "url": f"{origin}/login.html"},
             *sign_in(f"{tag}{index}@bench.example")] for index in range(count)]


async def timed_pool_run(endpoints: list[str], sequences: list[list[dict[str, Any]]],
                         tabs_per_browser: int) -> dict[str, Any]:
    """Run ``sequences`` over ``endpoints``: seconds, sequences per second, failures."""
    async with cdpseq.open_pool(endpoints, tabs_per_browser=tabs_per_browser) as pool:
        started = time.perf_counter()
        with trio.fail_after(RUN_TIMEOUT):
            results = await pool.run(sequences)
        seconds = time.perf_counter() - started
    return {"browsers": len(endpoints), "tabs_per_browser": tabs_per_browser,
            "sequences": len(sequences), "seconds": round(seconds, 2),
            "per_second": round(len(sequences) / seconds, 2),
            "failed": sum(not result.ok for result in results),
            "first_failures": [f"{r.failed.code} at step {r.failed.index}: {r.failed.error}"[:200]
                               for r in results if r.failed is not None][:2],
            "per_browser": pool.sequences_run}


async def compare(origin: str, browsers: int, count: int, tabs: int) -> list[dict[str, Any]]:
    """The three runs of the module comment, on ``browsers`` freshly launched Chromiums."""
    async with AsyncExitStack() as stack:
        endpoints = [(await stack.enter_async_context(cdpseq.launch_chromium())).ws_url
                     for _ in range(browsers)]
        sequences = login_sequences(origin, count)
        # A warm-up sequence in each browser (first page load, agent, fonts), untimed.
        await timed_pool_run(endpoints, login_sequences(origin, browsers, "warm"), 1)
        return [await timed_pool_run(endpoints[:1], sequences, tabs),
                await timed_pool_run(endpoints[:1], sequences, tabs * browsers),
                await timed_pool_run(endpoints, sequences, tabs)]


async def timed_service_run(url: str, sequences: list[list[dict[str, Any]]],
                            concurrency: int) -> dict[str, Any]:
    """Run ``sequences`` on the browser service at ``url``, ``concurrency`` at once."""
    async with cdpseq.open_pool(pool_url=url, concurrency=concurrency,
                                queue_timeout=RUN_TIMEOUT) as pool:
        started = time.perf_counter()
        with trio.fail_after(RUN_TIMEOUT):
            results = await pool.run(sequences)
        seconds = time.perf_counter() - started
    return {"kind": "browserless", "concurrency": concurrency, "sequences": len(sequences),
            "seconds": round(seconds, 2), "per_second": round(len(sequences) / seconds, 2),
            "failed": sum(not result.ok for result in results)}


async def service_against_local(origin: str, url: str, counts: list[int],
                                concurrencies: list[int]) -> list[dict[str, Any]]:
    """browserless at each concurrency against as many local Chromiums, for each count."""
    runs = []
    for count in counts:
        sequences = login_sequences(origin, count)
        for concurrency in concurrencies:
            runs.append(await timed_service_run(url, sequences, concurrency))
            async with AsyncExitStack() as stack:
                endpoints = [(await stack.enter_async_context(cdpseq.launch_chromium())).ws_url
                             for _ in range(concurrency)]
                await timed_pool_run(endpoints, login_sequences(origin, concurrency, "w"), 1)
                local = await timed_pool_run(endpoints, sequences, 1)
            runs.append({"kind": "local", "concurrency": concurrency, "sequences": count,
                         **{key: local[key] for key in ("seconds", "per_second", "failed")}})
    return runs


def service_main(args: argparse.Namespace) -> None:
    from tools.browserless.service import serve_browserless
    counts = [int(count) for count in args.counts.split(",")]
    with serve_fixtures() as server, serve_browserless(concurrent=4, queued=100,
                                                        timeout_ms=600_000) as service:
        runs = trio.run(service_against_local, server.origin, service.ws_url, counts,
                        [1, 2, 4])
    for run in runs:
        print(f"{run['kind']:>11} x {run['concurrency']}: {run['sequences']:>3} sequences in "
              f"{run['seconds']:6.2f} s = {run['per_second']:5.2f}/s, failed {run['failed']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--browsers", type=int, default=3, help="Chromiums in the pool (3)")
    parser.add_argument("--sequences", type=int, default=24, help="login sequences (24)")
    parser.add_argument("--tabs-per-browser", type=int, default=4,
                        help="sequences at once in each browser (4)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--service", action="store_true",
                        help="browserless at concurrency 1, 2, 4 against as many Chromiums")
    parser.add_argument("--counts", default="20,100", help="with --service: sequence counts")
    args = parser.parse_args()
    if args.service:
        service_main(args)
        return
    if min(args.browsers, args.sequences, args.tabs_per_browser) < 1:
        parser.error("--browsers, --sequences and --tabs-per-browser must be positive")
    with serve_fixtures() as server:
        runs = trio.run(compare, server.origin, args.browsers, args.sequences,
                        args.tabs_per_browser)
    if args.json:
        print(json.dumps(runs, indent=2))
        return
    for run in runs:
        print(f"{run['browsers']} browser(s) x {run['tabs_per_browser']:>2} tabs: "
              f"{run['sequences']} sequences in {run['seconds']:6.2f} s = "
              f"{run['per_second']:5.2f}/s, failed {run['failed']}, per browser "
              f"{run['per_browser']}")
        for failure in run["first_failures"]:
            print(f"    failed: {failure}")


if __name__ == "__main__":
    main()
