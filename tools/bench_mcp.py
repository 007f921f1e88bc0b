#!/usr/bin/env python3
"""What an MCP server costs before its first tool call: cdpseq's beside Playwright MCP's and
Chrome DevTools MCP's, run side by side.

Usage::

    .venv/bin/python tools/bench_mcp.py [--rounds N] [--markdown | --json]

Per server, each round spawns it over stdio and times, from the spawn, the answer to
``initialize`` (the server is up: a client may call) and to ``tools/list``; the servers take
turns round by round, so machine noise hits all alike. Sizes are those of ``tools/list`` as
the server sent it, in bytes of compact JSON: all of it, and what a model is shown of it
(each tool's name, title, description and input schema). No browser starts: each of the three
opens its browser on the first call that needs one.

The peers are installed from the npm registry by ``./tools/setup --bench`` (tools/peers, the
versions its package-lock.json pins); a peer that is not installed is left out and said so.
Reports medians; nothing fails on timing.
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

ROOT = Path(__file__).resolve().parent.parent
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
             ["--headless", "--isolated", "--executablePath", CHROMIUM])):
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


def run(rounds: int) -> dict[str, Any]:
    commands = servers()
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name, c in commands.items()
                                             if isinstance(c, list)}
    for index in range(rounds + 1):  # the first round warms the disk cache, unmeasured
        order = list(runs) if index % 2 else list(reversed(runs))
        for name in order:
            command = commands[name]
            assert isinstance(command, list)
            measured = one_round(command)
            if index:
                runs[name].append(measured)
    rows = []
    for name, measured in runs.items():
        rows.append({"server": name, "version": _version(name),
                     "tools": measured[0]["tools"],
                     "list_bytes": measured[0]["list_bytes"],
                     "shown_bytes": measured[0]["shown_bytes"],
                     "ready_ms": round(statistics.median(m["ready_ms"] for m in measured)),
                     "listed_ms": round(statistics.median(m["listed_ms"] for m in measured)),
                     "rounds": len(measured)})
    return {"rows": rows, "absent": {name: why for name, why in commands.items()
                                     if isinstance(why, str)}}


def markdown(result: dict[str, Any]) -> str:
    mine = next(row for row in result["rows"] if row["server"] == "cdpseq")
    lines = ["| server | tools | shown to a model (KB) | tools/list (KB) | ready (ms) | "
             "tools/list answered (ms) |", "|---|---:|---:|---:|---:|---:|"]
    for row in result["rows"]:
        ratio = "" if row is mine else (
            f" ({mine['ready_ms'] / row['ready_ms']:.2f}×)")
        name = row["server"] + (f" {row['version']}" if row["version"] else "")
        lines.append(f"| {name} | {row['tools']} | {row['shown_bytes'] / 1024:.1f} | "
                     f"{row['list_bytes'] / 1024:.1f} | {row['ready_ms']}{ratio} | "
                     f"{row['listed_ms']} |")
    for name, why in result["absent"].items():
        lines.append(f"\n{name}: {why}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="measured rounds (default 10)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object")
    output.add_argument("--markdown", action="store_true", help="print the Markdown table")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be positive")
    result = run(args.rounds)
    print(json.dumps(result, indent=2) if args.json else markdown(result))
    if not args.json and not args.markdown:
        print("(ready: spawn to the initialize answer, medians; ratio: cdpseq / that server)")


if __name__ == "__main__":
    main()
