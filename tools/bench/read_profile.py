"""Where a first read_page spends its time (issue 28): in the browser and in Python.

    PYTHONPATH=. .venv/bin/python tools/bench/read_profile.py [--rounds N] [PAGE ...]

For each page (default: big.html, big-grid.html?n=2000, big-todos.html?n=2000, the pages of
tools/bench/all.py's ``read first`` rows), in fresh documents, medians of:

- ``install``: putting the agent in the document's world (the first evaluate there);
- ``read_page``: a whole first read_page of another fresh document (what all.py times);
- ``agent read``: the agent's read() alone, timed in the page (``performance.now()``), and the
  evaluate round trip around it (the difference: moving the answer, its size in characters);
- ``build_view``: Python turning the agent's rows into the view.

Then one read under CDP's sampling profiler, its self time grouped by the agent part the code is
in (js/agent/*.js), by native DOM call (checkVisibility, getComputedStyle, ...) and the garbage
collector (``--functions``: by agent function, and by native call with its caller). The
machine is shared: read the parts against each other, not the totals against
other runs.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

import msgspec
import trio

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

import cdpseq  # noqa: E402
from cdpseq.cdp import page  # noqa: E402
from cdpseq.page.agent import PageAgent  # noqa: E402
from cdpseq.page.script import AGENT_PARTS, assemble_agent  # noqa: E402
from cdpseq.page.view import Snapshot, build_view, decode_read_head  # noqa: E402
from cdpseq.wire.protocol import Command, NoResult  # noqa: E402
from fixtures.server import serve_fixtures  # noqa: E402
from tools.bench.common import evaluate  # noqa: E402

PAGES = ("big.html", "big-grid.html?n=2000", "big-todos.html?n=2000")
READY = ("document.readyState === 'complete' && document.body && "
         "document.body.dataset.ready === 'true'")
TIMED_READ = ("(() => { const t = performance.now(); const rows = __cdpseq.read({filter: "
              "'interactive'}); return (performance.now() - t).toFixed(2) + '\\n' + rows; })()")


class ProfilerEnable(Command[NoResult]):
    METHOD: ClassVar[str] = "Profiler.enable"
    RESULT: ClassVar[type[NoResult]] = NoResult


class ProfilerInterval(Command[NoResult], kw_only=True):
    METHOD: ClassVar[str] = "Profiler.setSamplingInterval"
    RESULT: ClassVar[type[NoResult]] = NoResult
    interval: int


class ProfilerStart(Command[NoResult]):
    METHOD: ClassVar[str] = "Profiler.start"
    RESULT: ClassVar[type[NoResult]] = NoResult


class StopResult(msgspec.Struct):
    profile: dict[str, Any]


class ProfilerStop(Command[StopResult]):
    METHOD: ClassVar[str] = "Profiler.stop"
    RESULT: ClassVar[type[StopResult]] = StopResult


def part_starts() -> list[tuple[int, str]]:
    """(first line, 0-based, part name) of each agent part in the installed script."""
    starts = []
    for number, line in enumerate(assemble_agent().split("\n")):
        if line.startswith("// ---- js/agent/"):
            starts.append((number, line.removeprefix("// ---- js/agent/")))
    assert len(starts) == len(AGENT_PARTS)
    return starts


def grouped(profile: dict[str, Any], starts: list[tuple[int, str]],
            functions: bool = False) -> collections.Counter[str]:
    """Self time (ms) per agent part, native call, or V8's own (GC, program); with
    ``functions``, per agent function (``name (part)``) and per native call with the agent
    function that made it (``name <- caller``)."""
    nodes = {node["id"]: node["callFrame"] for node in profile["nodes"]}
    parents = {child: node["id"] for node in profile["nodes"] for child in node.get("children", ())}
    deltas = [*profile["timeDeltas"][1:], 0]
    spent: collections.Counter[str] = collections.Counter()

    def part_of(frame: dict[str, Any]) -> str:
        line = frame["lineNumber"]
        return next((part for first, part in reversed(starts) if first <= line), "agent")

    for sample, delta in zip(profile["samples"], deltas, strict=True):
        frame = nodes[sample]
        name, line = frame["functionName"], frame["lineNumber"]
        if name in ("(idle)", "(root)"):
            continue
        if line < 0 or name.startswith("("):
            key = name or "(native)"
            caller = nodes.get(parents.get(sample, -1))
            if functions and caller is not None and not name.startswith("("):
                key += f" <- {caller['functionName'] or '(anonymous)'}"
        elif frame["url"]:
            key = "page scripts"
        else:
            key = part_of(frame)
            if functions:
                key = f"{name or '(anonymous)'} ({key})"
        spent[key] += delta / 1000
    return spent


async def fresh(tab: cdpseq.Tab, url: str) -> None:
    await tab.send(page.Navigate(url=url))
    await trio.sleep(0.3)
    with trio.fail_after(30):
        while True:
            if await evaluate(tab, READY):
                return
            await trio.sleep(0.05)


async def profile_page(browser: cdpseq.Browser, base: str, path: str, rounds: int,
                       functions: bool = False, top: int = 14) -> None:
    tab = await browser.new_tab()
    times: dict[str, list[float]] = collections.defaultdict(list)
    size = 0
    sep = "&" if "?" in path else "?"
    for i in range(rounds):
        await fresh(tab, f"{base}/{path}{sep}doc=a{i}")
        agent = tab.extension(PageAgent)
        start = time.perf_counter()
        await agent.evaluate("0")
        times["install"].append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        answer = await agent.evaluate(TIMED_READ)
        times["evaluate round trip"].append((time.perf_counter() - start) * 1000)
        in_page, rows = answer.split("\n", 1)
        times["agent read (in page)"].append(float(in_page))
        size = len(rows)
        head, *lines = rows.split("\n")
        start = time.perf_counter()
        build_view(Snapshot(decode_read_head(head), lines), tab.id, {}, None, [])
        times["build_view"].append((time.perf_counter() - start) * 1000)
        await fresh(tab, f"{base}/{path}{sep}doc=b{i}")
        start = time.perf_counter()
        await cdpseq.read_page(tab)
        times["read_page"].append((time.perf_counter() - start) * 1000)
    print(f"{path} ({size} characters of rows), medians of {rounds}, ms:")
    for name, values in times.items():
        print(f"  {name:22} {statistics.median(values):8.1f}")
    await fresh(tab, f"{base}/{path}{sep}doc=profiled")
    await tab.extension(PageAgent).evaluate("0")
    await tab.send(ProfilerEnable())
    await tab.send(ProfilerInterval(interval=200))
    await tab.send(ProfilerStart())
    await tab.extension(PageAgent).evaluate(TIMED_READ)
    spent = grouped((await tab.send(ProfilerStop())).profile, part_starts(), functions)
    total = sum(spent.values())
    print(f"  one agent read under the profiler: {total:.1f} ms of samples, by self time:")
    for key, ms in spent.most_common(top):
        print(f"    {ms:7.1f}  {100 * ms / total:4.1f}%  {key}")
    await browser.close_tab(tab.id)


async def main(args: argparse.Namespace, base: str) -> None:
    async with cdpseq.launch_browser() as browser:
        for path in args.pages or PAGES:
            await profile_page(browser, base, path, args.rounds, args.functions, args.top)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="fresh documents per page")
    parser.add_argument("--functions", action="store_true",
                        help="self time per agent function (and native call by its caller)")
    parser.add_argument("--top", type=int, default=14, help="how many of the largest to list")
    parser.add_argument("pages", nargs="*", help="fixture pages (default: the read first ones)")
    arguments = parser.parse_args()
    if arguments.rounds < 1:
        parser.error("--rounds must be at least 1")
    with serve_fixtures() as server:
        trio.run(main, arguments, server.origin)
