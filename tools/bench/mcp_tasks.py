"""The five-task comparison of tools/bench/mcp_servers.py: the same agent tasks done through
cdpseq's MCP server, Playwright MCP and Chrome DevTools MCP, each driven through the official
MCP Python client the way a competent model drives that server.

The tasks, on the fixture server's pages:

1. ``login``: fill the email and the password, sign in; done when an answer shows "Signed in as
   ada@example.org".
2. ``todo-lit`` and 3. ``todo-wc``: add two to-dos, mark the first done; done when one answer
   shows both to-dos, the first one's checkbox checked and the second's not (and, on todo-lit,
   "1 item left").
4. ``validation``: submit the empty form; done when an answer shows "Project name is
   required.".
5. ``chained``: load the orders (two fetches, one after the other); done when an answer shows
   the three orders and "Loaded 3 orders".

tools/bench/mcp_drivers.py drives each server (refs from its own answers, as few calls as its
tools allow). The final answer of a task must show the outcome, checked against the server's
own words; a task that does not get there (or a call that fails) is failed for that round.
Each server runs in one session for the whole run, its browser launched by the server itself.
"""

from __future__ import annotations

import os
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import trio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # fixtures/ is not part of the installed package

from fixtures.server import open_fixture_server  # noqa: E402
from tools.bench.mcp_drivers import (  # noqa: E402
    DRIVERS,
    Click,
    Driver,
    Enter,
    Fill,
    Session,
    TaskFailed,
)

USER = "ada@example.org"
PASSWORD = "correct horse"  # a fixture page's password: it accepts any
TODOS = ("Buy milk", "Walk the dog")
TASK_TIMEOUT = 60


# ---------------------------------------------------------------------------------------------
# The tasks


def _require(text: str, *needles: str) -> None:
    for needle in needles:
        if needle not in text:
            raise TaskFailed(f"the final answer does not show {needle!r}:\n{text[-1500:]}")


async def login(driver: Driver, url: str) -> None:
    page = await driver.open(url)
    text = await driver.turn([
        Fill(driver.ref(page, "textbox", "Email"), "Email", USER),
        Fill(driver.ref(page, "textbox", "Password"), "Password", PASSWORD),
        Click(driver.ref(page, "button", "Sign in"), "Sign in button"),
    ], expect="Signed in as", request=True)
    _require(text, f"Signed in as {USER}")


def todos(left: str | None) -> Callable[[Driver, str], Awaitable[None]]:
    """Add the two to-dos, mark the first done; ``left``: the count the page then shows."""

    async def task(driver: Driver, url: str) -> None:
        page = await driver.open(url)
        field = driver.ref(page, "textbox")
        added = await driver.turn([Enter(field, "new to-do field", todo) for todo in TODOS],
                                  expect=TODOS[-1])
        first = driver.checkbox(added, TODOS[0])
        text = await driver.turn([Click(first, f"checkbox of {TODOS[0]}", check=True)],
                                 expect=left or TODOS[-1], whole_page=True)
        _require(text, *TODOS, *([left] if left else []))
        if not driver.checked(text, TODOS[0]) or driver.checked(text, TODOS[1]):
            raise TaskFailed(f"the final answer does not show {TODOS[0]!r} alone done:\n"
                             f"{text[-1500:]}")

    return task


async def validation(driver: Driver, url: str) -> None:
    page = await driver.open(url)
    text = await driver.turn([Click(driver.ref(page, "button", "Create project"),
                                    "Create project button")],
                             expect="Project name is required.")
    _require(text, "Project name is required.")


async def chained(driver: Driver, url: str) -> None:
    page = await driver.open(url)
    text = await driver.turn([Click(driver.ref(page, "button", "Load orders"),
                                    "Load orders button")], expect="Loaded", request=True)
    _require(text, "#101 Notebook", "#102 Pen set", "#103 Desk lamp", "Loaded 3 orders")


TASKS: dict[str, tuple[str, Callable[[Driver, str], Awaitable[None]]]] = {
    "login": ("/login.html", login),
    "todo-lit": ("/todo-lit.html", todos("1 item left")),
    "todo-wc": ("/todo-wc.html", todos(None)),
    "validation": ("/settle-validation.html", validation),
    "chained": ("/settle-chained.html", chained),
}


# ---------------------------------------------------------------------------------------------
# The run


def _children(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as file:
                    if int(file.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.add(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    return found


def _tree(pid: int) -> dict[int, str]:
    """``{pid: start time}`` of ``pid`` and its living descendants."""
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        current = todo.pop()
        if (start := _start_time(current)) is not None:
            found[current] = start
            todo.extend(_children(current))
    return found


def _start_time(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] in ("Z", "X") else fields[19]


def _kill_survivors(recorded: dict[int, str]) -> int:
    """SIGKILL what of ``recorded`` still runs (same pid, same start); how many."""
    killed = 0
    for pid, start in recorded.items():
        if _start_time(pid) == start:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
    return killed


async def _open_server(stack: AsyncExitStack, name: str, command: list[str], workdir: str,
                       errlog: Any) -> tuple[Driver, int | None]:
    before = _children(os.getpid())
    params = StdioServerParameters(
        command=command[0], args=command[1:],
        cwd=str(ROOT) if name == "cdpseq" else workdir)  # the peers write files in their cwd
    read, write = await stack.enter_async_context(stdio_client(params, errlog=errlog))
    session = await stack.enter_async_context(ClientSession(read, write))
    await session.initialize()
    tools = [tool.model_dump(mode="json", by_alias=True, exclude_none=True)
             for tool in (await session.list_tools()).tools]
    driver = DRIVERS[name](Session(session, tools))
    await driver.setup()
    spawned = _children(os.getpid()) - before
    return driver, min(spawned) if len(spawned) == 1 else None


async def _run(commands: dict[str, list[str]], rounds: int, warmup: int,
               errlog: Any) -> dict[str, Any]:
    samples: dict[str, dict[str, list[dict[str, Any]]]] = {
        name: {task: [] for task in TASKS} for name in commands}
    left_behind: dict[str, int] = {}
    recorded: dict[str, dict[int, str]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-mcp-") as workdir:
        async with open_fixture_server() as server:
            async with AsyncExitStack() as stack:
                drivers: dict[str, Driver] = {}
                pids: dict[str, int | None] = {}
                for name, command in commands.items():
                    drivers[name], pids[name] = await _open_server(stack, name, command,
                                                                   workdir, errlog)
                for index in range(warmup + rounds):
                    order = list(drivers) if index % 2 else list(reversed(drivers))
                    for name in order:
                        for task, (path, run) in TASKS.items():
                            sample = await _one(drivers[name], run, server.url(path))
                            if index >= warmup:
                                samples[name][task].append(sample)
                for name, pid in pids.items():
                    recorded[name] = _tree(pid) if pid is not None else {}
            for _ in range(50):  # up to 5 s: the servers close their browsers on their way out
                if all(_start_time(pid) != start for tree in recorded.values()
                       for pid, start in tree.items()):
                    break
                await trio.sleep(0.1)
            for name, tree in recorded.items():
                left_behind[name] = _kill_survivors(tree)
    return {"samples": samples, "left_behind": left_behind}


async def _one(driver: Driver, run: Callable[[Driver, str], Awaitable[None]],
               url: str) -> dict[str, Any]:
    session = driver.session
    session.calls = session.bytes = session.text_bytes = 0
    started = time.perf_counter()
    failure = None
    try:
        with trio.fail_after(TASK_TIMEOUT):
            await run(driver, url)
    except TaskFailed as exc:
        failure = str(exc)
    except trio.TooSlowError:
        failure = f"no outcome within {TASK_TIMEOUT} s"
    except Exception as exc:  # a broken session: that server's task failed, the run goes on
        failure = f"{type(exc).__name__}: {exc}"
    return {"ok": failure is None, "failure": failure, "calls": session.calls,
            "bytes": session.bytes, "text_bytes": session.text_bytes,
            "ms": (time.perf_counter() - started) * 1000}


def measure(commands: dict[str, list[str]], rounds: int, warmup: int = 1,
            verbose: bool = False) -> dict[str, Any]:
    """Run the five tasks on every server, ``warmup`` rounds unmeasured then ``rounds``
    measured; per server and task: rounds ok, calls, bytes and median wall time."""
    with open(os.devnull, "w") as quiet:
        raw = trio.run(_run, commands, rounds, warmup, sys.stderr if verbose else quiet)
    servers: dict[str, Any] = {}
    for name, tasks in raw["samples"].items():
        rows: dict[str, Any] = {}
        for task, samples in tasks.items():
            good = [sample for sample in samples if sample["ok"]]
            rows[task] = {
                "ok": len(good), "rounds": len(samples),
                "calls": _median_int(good, "calls"), "bytes": _median_int(good, "bytes"),
                "text_bytes": _median_int(good, "text_bytes"),
                "ms": round(statistics.median(s["ms"] for s in good)) if good else None,
                "failures": [sample["failure"] for sample in samples if not sample["ok"]][:3]}
        complete = [all(tasks[task][i]["ok"] for task in TASKS) for i in range(rounds)]
        totals = [sum(tasks[task][i]["ms"] for task in TASKS)
                  for i in range(rounds) if complete[i]]
        rows["total"] = {
            "ok": sum(complete), "rounds": rounds,
            **{key: sum(rows[task][key] for task in TASKS)
               if all(rows[task][key] is not None for task in TASKS) else None
               for key in ("calls", "bytes", "text_bytes")},
            "ms": round(statistics.median(totals)) if totals else None}
        servers[name] = {"tasks": rows, "left_behind": raw["left_behind"].get(name, 0)}
    return {"rounds": rounds, "warmup": warmup, "servers": servers}


def _median_int(samples: list[dict[str, Any]], key: str) -> int | None:
    return round(statistics.median(s[key] for s in samples)) if samples else None


def markdown(result: dict[str, Any], versions: dict[str, str | None]) -> str:
    """Per task and in total: calls, KB of answers, median wall ms; ratios peer / cdpseq."""
    names = list(result["servers"])
    mine = result["servers"].get("cdpseq", {}).get("tasks")
    head = ["task"] + [f"{name}{' ' + v if (v := versions.get(name)) else ''}: "
                       "calls / KB / ms" for name in names]
    lines = ["| " + " | ".join(head) + " |", "|---" + "|---:" * len(names) + "|"]
    for task in [*TASKS, "total"]:
        cells = [f"**{task}**" if task == "total" else task]
        for name in names:
            row = result["servers"][name]["tasks"][task]
            base = None if mine is None or name == "cdpseq" else mine[task]
            cells.append(_cell(row, base))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Of those KB, text content, in total: " + ", ".join(
        f"{name} {_kb(result['servers'][name]['tasks']['total']['text_bytes'])}"
        for name in names) + "; the rest is the JSON-RPC around it (no server here answers "
        "structured content: cdpseq only with --structured).")
    for name in names:
        server = result["servers"][name]
        for task, row in server["tasks"].items():
            if row["ok"] < row["rounds"] and task != "total":
                lines.append(f"\n{name}, {task}: failed {row['rounds'] - row['ok']} of "
                             f"{row['rounds']} rounds: {_first_line(row['failures'])}")
        if server["left_behind"]:
            lines.append(f"\n{name} left {server['left_behind']} processes behind "
                         "(killed).")
    return "\n".join(lines)


def _cell(row: dict[str, Any], base: dict[str, Any] | None) -> str:
    if row["ok"] < row["rounds"]:
        done = f"✗ {row['ok']}/{row['rounds']} ok"
        if row["ok"] == 0 or row["calls"] is None:
            return done
    else:
        done = ""
    values = [str(row["calls"]), _kb(row["bytes"]), str(row["ms"])]
    if base is not None and base["calls"] and row["calls"] is not None:
        ratios = [row["calls"] / base["calls"], row["bytes"] / base["bytes"],
                  row["ms"] / base["ms"] if base["ms"] and row["ms"] is not None else None]
        values = [f"{value} ({ratio:.1f}×)" if ratio is not None else value
                  for value, ratio in zip(values, ratios, strict=True)]
    return " / ".join(values) + (f" {done}" if done else "")


def _kb(size: int | None) -> str:
    return "—" if size is None else f"{size / 1024:.1f}"


def _first_line(failures: list[str]) -> str:
    return failures[0].splitlines()[0] if failures else "?"

