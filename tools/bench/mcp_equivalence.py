"""The equivalence check of OpenChrome issue #969, through a real MCP client and `cdpseq mcp`.

One task — click the "Click me" button, wait for the status paragraph to read "Clicked", read
the page — done two ways on the fixture page ``status.html``:

* batched: one ``act`` call with the steps click, wait_for and read_page;
* single: what an agent does without batching — ``act`` with the click alone, ``act`` with the
  wait_for alone, then the ``read_page`` tool.

Both paths start from the same state: the page freshly loaded and read once, so the button's
ref is known (that setup is not counted). Reported per path: tool calls, total response bytes
(the JSON of each CallToolResult as the client received it, UTF-8), and wall time through the
real client (median and min over the rounds; the paths alternate which goes first).

    .venv/bin/python tools/bench/mcp_equivalence.py                # launches its own Chromium
    .venv/bin/python tools/bench/mcp_equivalence.py --rounds 20 --json
    .venv/bin/python tools/bench/mcp_equivalence.py --cdp 9222     # use a running browser
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import trio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

BUTTON = re.compile(r'\[(ref_\d+)\] button "Click me"')


def response_bytes(result: Any) -> int:
    """Size of a tool result as the client received it: its JSON, UTF-8 encoded."""
    return len(result.model_dump_json(by_alias=True, exclude_none=True).encode())


def _wire(result: Any) -> dict[str, Any]:
    """The result's wire form (camelCase keys in every SDK version)."""
    return dict(result.model_dump(mode="json", by_alias=True, exclude_none=True))


def _text(result: Any) -> str:
    return "\n".join(block["text"] for block in _wire(result)["content"]
                     if block["type"] == "text")


async def _call(session: ClientSession, tool: str, arguments: dict[str, Any],
                log: list[Any]) -> Any:
    result = await session.call_tool(tool, arguments)
    if _wire(result).get("isError"):
        raise RuntimeError(f"{tool} failed: {_text(result)}")
    log.append(result)
    return result


async def _setup(session: ClientSession, page_url: str) -> str:
    """Load the page afresh and read it once; the button's ref."""
    ignored: list[Any] = []
    await _call(session, "act", {"steps": [{"type": "navigate", "url": page_url}]}, ignored)
    read = await _call(session, "read_page", {}, ignored)
    match = BUTTON.search(_text(read))
    if match is None:
        raise RuntimeError(f"no Click me button in:\n{_text(read)}")
    return match.group(1)


async def _batched(session: ClientSession, ref: str, log: list[Any]) -> str:
    result = await _call(session, "act", {"steps": [
        {"type": "click", "target": ref},
        {"type": "wait_for", "text": "Clicked"},
        {"type": "read_page", "filter": "all"},
    ]}, log)
    return _text(result)


async def _single(session: ClientSession, ref: str, log: list[Any]) -> str:
    await _call(session, "act", {"steps": [{"type": "click", "target": ref}]}, log)
    await _call(session, "act", {"steps": [{"type": "wait_for", "text": "Clicked"}]}, log)
    result = await _call(session, "read_page", {"filter": "all"}, log)
    return _text(result)


PATHS = {"act (one call)": _batched, "three calls": _single}


def _schema_sizes(listed: Any) -> dict[str, int]:
    """What the tools cost before any call, in bytes of compact JSON as the server sends it:
    tools/list as the client received it, what of it a model is shown (name, title,
    description, input schema), and act's input schema alone."""
    tools = [tool.model_dump(mode="json", by_alias=True, exclude_none=True)
             for tool in listed.tools]
    act = next(tool for tool in tools if tool["name"] == "act")
    shown = [{key: tool[key] for key in ("name", "title", "description", "inputSchema")
              if key in tool} for tool in tools]
    return {"tools_list_bytes": _wire_size(tools), "model_facing_bytes": _wire_size(shown),
            "act_input_schema_bytes": _wire_size(act["inputSchema"])}


def _wire_size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


async def compare(page_url: str, *, rounds: int = 5, warmup: int = 1,
                  server_args: list[str] | None = None, env: dict[str, str] | None = None,
                  errlog: Any = None) -> dict[str, Any]:
    """Run both paths ``warmup`` rounds unmeasured, then ``rounds`` times measured, through one
    ``cdpseq mcp`` server; the measurements."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "cdpseq", "mcp", *(server_args or ["--launch"])],
        env=env, cwd=str(ROOT))
    samples: dict[str, dict[str, list[Any]]] = {
        name: {"calls": [], "bytes": [], "seconds": []} for name in PATHS}
    async with stdio_client(params, errlog=errlog or sys.stderr) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            schema_sizes = _schema_sizes(await session.list_tools())
            for round_ in range(warmup + rounds):
                order = list(PATHS) if round_ % 2 == 0 else list(reversed(PATHS))
                for name in order:
                    ref = await _setup(session, page_url)
                    log: list[Any] = []
                    started = time.perf_counter()
                    final = await PATHS[name](session, ref, log)
                    elapsed = time.perf_counter() - started
                    if not final.rstrip().endswith("\nClicked"):
                        raise RuntimeError(f"{name}: the final read does not show Clicked:\n"
                                           f"{final}")
                    if round_ < warmup:
                        continue
                    samples[name]["calls"].append(len(log))
                    samples[name]["bytes"].append(sum(response_bytes(r) for r in log))
                    samples[name]["seconds"].append(elapsed)
                    samples[name]["final"] = [final]
    report: dict[str, Any] = {"rounds": rounds, "page": page_url, "paths": {},
                              "schemas": schema_sizes}
    for name, sample in samples.items():
        report["paths"][name] = {
            "calls": sample["calls"][-1],
            "bytes": sample["bytes"][-1],
            "bytes_per_round": sample["bytes"],
            "wall_ms_median": round(statistics.median(sample["seconds"]) * 1000, 1),
            "wall_ms_min": round(min(sample["seconds"]) * 1000, 1),
            "final_read": sample["final"][0],
        }
    return report


def format_report(report: dict[str, Any]) -> str:
    lines = [f"click → wait_for → read_page on {report['page']}, {report['rounds']} rounds, "
             "through the MCP client",
             f"{'path':<16} {'calls':>5} {'bytes':>7} {'wall ms (median)':>17} {'(min)':>8}"]
    for name, path in report["paths"].items():
        lines.append(f"{name:<16} {path['calls']:>5} {path['bytes']:>7} "
                     f"{path['wall_ms_median']:>17} {path['wall_ms_min']:>8}")
    one, three = report["paths"]["act (one call)"], report["paths"]["three calls"]
    lines.append(f"act vs three calls: {one['calls']} call instead of {three['calls']}, "
                 f"{one['bytes'] / three['bytes']:.0%} of the bytes "
                 f"({one['bytes'] - three['bytes']:+d}), "
                 f"{one['wall_ms_median'] / three['wall_ms_median']:.0%} of the wall time "
                 "(median)")
    sizes = report["schemas"]
    lines.append(f"tools/list: {sizes['tools_list_bytes']} bytes ({sizes['model_facing_bytes']} "
                 f"of names, descriptions and input schemas; act's input schema "
                 f"{sizes['act_input_schema_bytes']})")
    return "\n".join(lines)


async def _main(args: argparse.Namespace) -> None:
    from fixtures.server import open_fixture_server

    async with open_fixture_server() as server:
        env = {k: v for k, v in os.environ.items() if k == "CHROME_PATH"}
        server_args = ["--cdp", args.cdp] if args.cdp else ["--launch"]
        with open(os.devnull, "w") as quiet:  # noqa: ASYNC230 - opened once
            report = await compare(server.url("/status.html"), rounds=args.rounds,
                                   warmup=args.warmup, server_args=server_args, env=env,
                                   errlog=sys.stderr if args.verbose else quiet)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(format_report(report))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="rounds per path (default 10)")
    parser.add_argument("--warmup", type=int, default=1,
                        help="unmeasured rounds first (default 1)")
    parser.add_argument("--cdp", metavar="ENDPOINT",
                        help="attach to this browser instead of launching one")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--verbose", action="store_true", help="show the server's log")
    trio.run(_main, parser.parse_args())


if __name__ == "__main__":
    main()
