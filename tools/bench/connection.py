#!/usr/bin/env python3
"""Benchmark cdpseq's connection against a minimal bare client, on one headless Chromium.

Usage::

    .venv/bin/python tools/bench/connection.py [--rounds N] [--blocks B] [--rows R] [--json]

Two measurements, in the same run, against the same browser:

1. Round trip of ``Runtime.evaluate("1")`` on one page tab, through cdpseq
   (``await tab.send(runtime.Evaluate(expression="1"))``) and through a bare client (a plain
   ``trio_websocket`` connection with its own flat session on the same tab, ``json.dumps`` /
   ``json.loads``, reading frames until the matching id). After a warm-up, the two run in
   alternating blocks (the order swaps every block) so machine noise hits both alike. Reported:
   median and p90 per call, the ratio cdpseq/bare of the medians, and this process's CPU time
   per call (client + trio, not Chromium), which machine noise disturbs less than wall time.
2. Decoding the raw result of ``DOMSnapshot.captureSnapshot {computedStyles: []}`` of a page
   built in-page with ``R`` table rows (``tr`` + 3 ``td`` + ``button`` = 5 nodes per row, so
   ~50,000 nodes by default). The raw result bytes come from the connection's internals
   (``Connection._execute``). Reported: node count, raw size, and the median of 7 decodes each
   with ``msgspec.json.decode(raw, type=CaptureSnapshotResult)``, ``json.loads`` (of the same
   bytes, converted once outside the timing) and untyped ``msgspec.json.decode`` for reference.

Nothing fails on timing: the script only reports. The browser and its profile are removed on
exit (``launch_chromium``).
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import trio
import trio_websocket

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # tools/ is not part of the installed package

import cdpseq  # noqa: E402
from cdpseq import Tab, launch_chromium, open_browser  # noqa: E402
from cdpseq.cdp import dom_snapshot, runtime  # noqa: E402
from tools.bench.common import median, percentile  # noqa: E402

MAX_MESSAGE_SIZE = 256 * 1024 * 1024
DECODE_REPEATS = 7


# -- the bare client --------------------------------------------------------------------------


class BareClient:
    """The least a CDP client can do: one request in flight, json both ways, events skipped."""

    def __init__(self, ws: trio_websocket.WebSocketConnection) -> None:
        self.ws = ws
        self.next_id = 0

    async def call(self, method: str, params: dict[str, Any] | None = None,
                   session_id: str | None = None) -> Any:
        self.next_id += 1
        msg_id = self.next_id
        message: dict[str, Any] = {"id": msg_id, "method": method, "params": params or {}}
        if session_id is not None:
            message["sessionId"] = session_id
        await self.ws.send_message(json.dumps(message))
        while True:
            reply = json.loads(await self.ws.get_message())
            if reply.get("id") == msg_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]


# -- statistics -------------------------------------------------------------------------------






def summary_us(samples_ns: list[int]) -> dict[str, float | int]:
    return {
        "n": len(samples_ns),
        "median_us": round(median(samples_ns) / 1e3, 2),
        "p90_us": round(percentile(samples_ns, 90) / 1e3, 2),
        "min_us": round(min(samples_ns) / 1e3, 2),
        "mean_us": round(sum(samples_ns) / len(samples_ns) / 1e3, 2),
    }


# -- 1. round trip ----------------------------------------------------------------------------


async def timed_calls(call: Callable[[], Awaitable[Any]], count: int, out: list[int]) -> None:
    clock = time.perf_counter_ns
    for _ in range(count):
        start = clock()
        await call()
        out.append(clock() - start)


async def bench_round_trip(tab: Tab, bare: BareClient, bare_session: str, *, rounds: int,
                           blocks: int, warmup: int) -> dict[str, Any]:
    command = runtime.Evaluate(expression="1")
    bare_params = {"expression": "1"}

    async def via_cdpseq() -> None:
        result = await tab.send(command)
        assert result.result.value == 1

    async def via_bare() -> None:
        result = await bare.call("Runtime.evaluate", bare_params, bare_session)
        assert result["result"]["value"] == 1

    clients = {"cdpseq": via_cdpseq, "bare": via_bare}
    discard: list[int] = []
    for call in clients.values():
        await timed_calls(call, warmup, discard)

    per_block = max(1, rounds // blocks)
    samples: dict[str, list[int]] = {name: [] for name in clients}
    cpu_ns: dict[str, int] = dict.fromkeys(clients, 0)
    block_medians: dict[str, list[float]] = {name: [] for name in clients}
    order = list(clients)
    for _ in range(blocks):
        for name in order:
            gc.collect()
            block: list[int] = []
            cpu_start = time.process_time_ns()
            await timed_calls(clients[name], per_block, block)
            cpu_ns[name] += time.process_time_ns() - cpu_start
            samples[name].extend(block)
            block_medians[name].append(round(median(block) / 1e3, 2))
        order.reverse()  # the one that went second goes first in the next block

    stats = {name: summary_us(values) for name, values in samples.items()}
    for name, values in samples.items():
        # This process's CPU time per call (both the client and trio): less noisy than wall time.
        stats[name]["cpu_us_per_call"] = round(cpu_ns[name] / len(values) / 1e3, 2)
    return {
        "blocks": blocks,
        "per_block": per_block,
        "warmup": warmup,
        "cdpseq": stats["cdpseq"] | {"block_medians_us": block_medians["cdpseq"]},
        "bare": stats["bare"] | {"block_medians_us": block_medians["bare"]},
        "ratio_median": round(stats["cdpseq"]["median_us"] / stats["bare"]["median_us"], 3),
        "ratio_p90": round(stats["cdpseq"]["p90_us"] / stats["bare"]["p90_us"], 3),
    }


# -- 2. snapshot decode -----------------------------------------------------------------------

BUILD_TABLE_JS = """
(() => {
  const rows = new Array(%d);
  for (let i = 0; i < rows.length; i++) {
    rows[i] = '<tr><td></td><td></td><td><button type="button" data-row="' + i +
              '"></button></td></tr>';
  }
  document.body.innerHTML = '<table><tbody>' + rows.join('') + '</tbody></table>';
  return document.getElementsByTagName('*').length;
})()
"""


def time_decode(decode: Callable[[], Any]) -> int:
    gc.collect()
    start = time.perf_counter_ns()
    result = decode()
    elapsed = time.perf_counter_ns() - start
    del result
    return elapsed


async def bench_snapshot(tab: Tab, *, rows: int, repeats: int) -> dict[str, Any]:
    built = await tab.send(runtime.Evaluate(expression=BUILD_TABLE_JS % rows,
                                            returnByValue=True))
    if built.exceptionDetails is not None:
        raise RuntimeError(f"building the page failed: {built.exceptionDetails.text}")
    elements = built.result.value

    command = dom_snapshot.CaptureSnapshot(computedStyles=[])
    start = time.perf_counter_ns()
    raw = await tab.connection._execute(command.METHOD, command, tab.session_id)
    capture_ns = time.perf_counter_ns() - start

    raw_bytes = bytes(raw)
    typed = msgspec.json.Decoder(dom_snapshot.CaptureSnapshotResult)
    snapshot = typed.decode(raw)
    nodes = sum(len(doc.nodes.nodeName or ()) for doc in snapshot.documents)
    strings = len(snapshot.strings)
    del snapshot

    decoders: dict[str, Callable[[], Any]] = {
        "msgspec_typed": lambda: typed.decode(raw),
        "json_loads": lambda: json.loads(raw_bytes),
        "msgspec_untyped": lambda: msgspec.json.decode(raw),
    }
    samples: dict[str, list[int]] = {name: [] for name in decoders}
    order = list(decoders)
    for _ in range(repeats):  # interleaved, like the round trips
        for name in order:
            samples[name].append(time_decode(decoders[name]))
        order.reverse()

    medians_ms = {name: round(median(values) / 1e6, 2) for name, values in samples.items()}
    return {
        "rows": rows,
        "elements": elements,
        "nodes": nodes,
        "strings": strings,
        "raw_mb": round(len(raw_bytes) / 1e6, 2),
        "first_capture_ms": round(capture_ns / 1e6, 1),
        "repeats": repeats,
        "median_ms": medians_ms,
        "all_ms": {name: [round(v / 1e6, 2) for v in values] for name, values in samples.items()},
        "ratio_typed_vs_json_loads": round(medians_ms["msgspec_typed"] / medians_ms["json_loads"],
                                           3),
    }


# -- main ---------------------------------------------------------------------------------------


async def run(args: argparse.Namespace) -> dict[str, Any]:
    async with launch_chromium() as chromium, open_browser(chromium.endpoint) as browser:
        tab = await browser.new_tab()
        async with trio_websocket.open_websocket_url(
                chromium.ws_url, max_message_size=MAX_MESSAGE_SIZE) as ws:
            bare = BareClient(ws)
            attached = await bare.call("Target.attachToTarget",
                                       {"targetId": tab.id, "flatten": True})
            round_trip = await bench_round_trip(
                tab, bare, attached["sessionId"], rounds=args.rounds, blocks=args.blocks,
                warmup=args.warmup)
        snapshot_tab = await browser.new_tab()
        snapshot = await bench_snapshot(snapshot_tab, rows=args.rows, repeats=DECODE_REPEATS)
        return {
            "environment": {
                "browser": browser.version.product,
                "python": platform.python_version(),
                "cdpseq": cdpseq.__version__,
                "msgspec": msgspec.__version__,
                "trio": trio.__version__,
                "trio_websocket": trio_websocket.__version__,
            },
            "round_trip": round_trip,
            "snapshot": snapshot,
        }


def print_table(result: dict[str, Any]) -> None:
    env = result["environment"]
    rt = result["round_trip"]
    snap = result["snapshot"]
    print(f"{env['browser']}, Python {env['python']}, msgspec {env['msgspec']}, "
          f"trio {env['trio']}, trio-websocket {env['trio_websocket']}")
    print()
    print(f"Runtime.evaluate(\"1\") round trip: {rt['blocks']} alternating blocks of "
          f"{rt['per_block']} each, after {rt['warmup']} warm-up calls each")
    print(f"  {'client':<10} {'n':>6} {'median µs':>10} {'p90 µs':>10} {'min µs':>10} "
          f"{'cpu µs/call':>12}")
    for name in ("cdpseq", "bare"):
        s = rt[name]
        print(f"  {name:<10} {s['n']:>6} {s['median_us']:>10.1f} {s['p90_us']:>10.1f} "
              f"{s['min_us']:>10.1f} {s['cpu_us_per_call']:>12.1f}")
    print(f"  cdpseq/bare: median {rt['ratio_median']:.3f}, p90 {rt['ratio_p90']:.3f}")
    print()
    print(f"DOMSnapshot.captureSnapshot: {snap['nodes']} nodes, {snap['raw_mb']:.2f} MB raw, "
          f"{snap['strings']} strings, first capture {snap['first_capture_ms']:.0f} ms")
    print(f"  median of {snap['repeats']} decodes:")
    labels = {"msgspec_typed": "msgspec typed (CaptureSnapshotResult)",
              "json_loads": "json.loads",
              "msgspec_untyped": "msgspec untyped"}
    for name, label in labels.items():
        print(f"  {label:<38} {snap['median_ms'][name]:>9.1f} ms")
    print(f"  msgspec typed / json.loads: {snap['ratio_typed_vs_json_loads']:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2000,
                        help="timed round trips per client (default 2000)")
    parser.add_argument("--blocks", type=int, default=10,
                        help="alternating blocks the rounds are split into (default 10)")
    parser.add_argument("--warmup", type=int, default=200,
                        help="untimed round trips per client first (default 200)")
    parser.add_argument("--rows", type=int, default=10_000,
                        help="table rows of the snapshot page, 5 nodes each (default 10000)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    args = parser.parse_args()
    if args.rounds < 1 or args.blocks < 1 or args.warmup < 0 or args.rows < 1:
        parser.error("--rounds, --blocks and --rows must be positive, --warmup not negative")
    result = trio.run(run, args)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        print()
    else:
        print_table(result)


if __name__ == "__main__":
    main()
