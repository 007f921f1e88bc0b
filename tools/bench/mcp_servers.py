#!/usr/bin/env python3
"""cdpseq's MCP server beside Playwright MCP and Chrome DevTools MCP, run side by side: what
each costs before its first tool call, and what five agent tasks cost through each.

Usage::

    .venv/bin/python tools/bench/mcp_servers.py [--rounds N] [--only ready|tasks]
                      [--server NAME ...] [--warmup N] [--markdown | --json]

Before the first call (``ready``). Per server, each round spawns it over stdio and times, from
the spawn, the answer to ``initialize`` (the server is up: a client may call) and to
``tools/list``; the servers take turns round by round, so machine noise hits all alike. Sizes
are those of ``tools/list`` as the server sent it, in bytes of compact JSON: all of it, and what
a model is shown of it (each tool's name, title, description and input schema). No browser
starts: each of the three opens its browser on the first call that needs one.

The five tasks (``tasks``, tools/bench/mcp_tasks.py; tools/bench/mcp_drivers.py drives each
server): sign in, add two to-dos and mark one done in two to-do apps, read a validation error,
read what a page renders after chained fetches, each through the official MCP Python client in
one session per server. Per server and task: the tool calls, the bytes of the answers (the JSON
of each CallToolResult as the client received it, UTF-8) and the wall time from the first call
to the last answer; each task must reach its outcome, checked in the server's own answers, or
it is reported failed. ``--warmup`` rounds first (default 1: the browsers launch), unmeasured;
the servers take turns round by round.

The peers are installed from the npm registry by ``./tools/setup --bench`` (tools/peers, the
versions its package-lock.json pins); a peer that is not installed is left out and said so.
Reports medians; nothing fails on timing. Run it as a script: it imports its modules from
beside it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # tools/ and fixtures/ are not part of the installed package

from tools.bench import mcp_tasks  # noqa: E402

PEERS = ROOT / "tools" / "peers" / "node_modules"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def servers() -> dict[str, list[str] | str]:
    """Each server's command, or why it is left out."""
    found: dict[str, list[str] | str] = {
        "cdpseq": [sys.executable, "-m", "cdpseq", "mcp", "--launch"]}
    for name, binary, args in (
            ("Playwright MCP", "playwright-mcp",
             ["--headless", "--isolated", "--no-sandbox", "--executable-path", CHROMIUM]),
            ("Chrome DevTools MCP", "chrome-devtools-mcp",
             ["--headless", "--isolated", "--executablePath", CHROMIUM,
              # as root Chromium starts only unsandboxed; nothing is sent to Google
              "--chromeArg=--no-sandbox", "--no-usage-statistics", "--no-performance-crux"])):
        path = PEERS / ".bin" / binary
        found[name] = [str(path), *args] if path.exists() else (
            f"not installed ({path.relative_to(ROOT)}): ./tools/setup --bench")
    return found


def _version(name: str) -> str | None:
    package = {"Playwright MCP": "@playwright/mcp",
               "Chrome DevTools MCP": "chrome-devtools-mcp"}.get(name)
    if package is None:
        return None
    try:
        return str(json.loads((PEERS / package / "package.json").read_text())["version"])
    except OSError:
        return None


def _wire_size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def one_round(command: list[str], timeout: float = 60) -> dict[str, Any]:
    """Spawn ``command``, initialize, list the tools; the times from the spawn and the sizes."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, cwd=ROOT)
    assert process.stdin is not None and process.stdout is not None

    def send(message: dict[str, Any]) -> None:
        assert process.stdin is not None
        process.stdin.write((json.dumps(message) + "\n").encode())
        process.stdin.flush()

    def answer(request_id: int) -> dict[str, Any]:
        assert process.stdout is not None
        while time.perf_counter() - started < timeout:
            line = process.stdout.readline()
            if not line:
                raise RuntimeError(f"{command[0]} closed its output")
            message = json.loads(line)
            if message.get("id") == request_id:
                return dict(message)
        raise RuntimeError(f"{command[0]}: no answer within {timeout} s")

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "cdpseq-bench", "version": "1"}}})
        answer(1)
        ready = time.perf_counter() - started
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        tools = answer(2)["result"]["tools"]
        listed = time.perf_counter() - started
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    shown = [{key: tool[key] for key in ("name", "title", "description", "inputSchema")
              if key in tool} for tool in tools]
    return {"ready_ms": ready * 1000, "listed_ms": listed * 1000, "tools": len(tools),
            "list_bytes": _wire_size(tools), "shown_bytes": _wire_size(shown)}


def run(rounds: int, commands: dict[str, list[str] | str]) -> dict[str, Any]:
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name, c in commands.items()
                                             if isinstance(c, list)}
    for index in range(rounds + 1):  # the first round warms the disk cache, unmeasured
        order = list(runs) if index % 2 else list(reversed(runs))
        for name in order:
            command = commands[name]
            assert isinstance(command, list)
            sample = one_round(command)
            if index:
                runs[name].append(sample)
    rows = []
    for name, measured in runs.items():
        rows.append({"server": name, "version": _version(name),
                     "tools": measured[0]["tools"],
                     "list_bytes": measured[0]["list_bytes"],
                     "shown_bytes": measured[0]["shown_bytes"],
                     "ready_ms": round(statistics.median(m["ready_ms"] for m in measured)),
                     "listed_ms": round(statistics.median(m["listed_ms"] for m in measured)),
                     "rounds": len(measured)})
    return {"rows": rows}


def markdown(result: dict[str, Any]) -> str:
    lines = []
    if "rows" in result:
        lines.append(_ready_table(result["rows"]))
    if "tasks" in result:
        names = result["tasks"]["servers"]
        lines.append(mcp_tasks.markdown(result["tasks"],
                                              {name: _version(name) for name in names}))
    for name, why in result["absent"].items():
        lines.append(f"{name}: {why}")
    return "\n\n".join(lines)


def _ready_table(rows: list[dict[str, Any]]) -> str:
    mine = next((row for row in rows if row["server"] == "cdpseq"), None)
    lines = ["| server | tools | shown to a model (KB) | tools/list (KB) | ready (ms) | "
             "tools/list answered (ms) |", "|---|---:|---:|---:|---:|---:|"]
    for row in rows:
        ratio = "" if mine is None or row is mine else (
            f" ({mine['ready_ms'] / row['ready_ms']:.2f}×)")
        name = row["server"] + (f" {row['version']}" if row["version"] else "")
        lines.append(f"| {name} | {row['tools']} | {row['shown_bytes'] / 1024:.1f} | "
                     f"{row['list_bytes'] / 1024:.1f} | {row['ready_ms']}{ratio} | "
                     f"{row['listed_ms']} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="measured rounds (default 10)")
    parser.add_argument("--only", choices=("ready", "tasks"),
                        help="only the cost before the first call, or only the five tasks")
    parser.add_argument("--server", action="append", choices=list(servers()),
                        help="only this server (repeatable; default: every one installed)")
    parser.add_argument("--warmup", type=int, default=1,
                        help="unmeasured rounds of the tasks first (default 1)")
    parser.add_argument("--verbose", action="store_true", help="show the servers' logs")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object")
    output.add_argument("--markdown", action="store_true", help="print the Markdown tables")
    args = parser.parse_args()
    if args.rounds < 1 or args.warmup < 0:
        parser.error("--rounds must be positive, --warmup not negative")
    chosen = {name: command for name, command in servers().items()
              if args.server is None or name in args.server}
    result: dict[str, Any] = {"absent": {name: why for name, why in chosen.items()
                                         if isinstance(why, str)}}
    commands = {name: c for name, c in chosen.items() if isinstance(c, list)}
    if args.only != "tasks" and commands:
        result.update(run(args.rounds, chosen))
    if args.only != "ready" and commands:
        result["tasks"] = mcp_tasks.measure(commands, args.rounds, args.warmup,
                                                  verbose=args.verbose)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(markdown(result))
    if not args.markdown:
        print("(ready: spawn to the initialize answer, medians; ratio: cdpseq / that server; "
              "tasks: medians, ratio: that server / cdpseq)")


if __name__ == "__main__":
    main()
