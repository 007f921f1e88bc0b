"""The five-task comparison of tools/bench_mcp.py: the same agent tasks done through cdpseq's MCP
server, Playwright MCP and Chrome DevTools MCP, each driven through the official MCP Python
client the way a competent model drives that server.

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

Every target is a ref parsed from the server's own answer (a model's view of the page), never
hard-coded. Each server is driven in as few calls as its tools allow, by the same rules: open
the page and read it; send what the model knows next (several fills in one call where a tool
takes several); then look at the page the cheapest way the server offers (cdpseq: the act's
own answer, with a read_page step when the whole page is wanted; Chrome DevTools MCP: the last
action's ``includeSnapshot``; Playwright MCP: ``browser_snapshot``, since its actions link
their snapshot in a file); if the outcome is not there yet, wait for its text with the server's
wait tool and look again. Where a task starts a request, cdpseq's act carries a wait_for step
(one more step, not one more call). The final answer must show the outcome, checked against
the server's own words; a task that does not get there is failed for that round.
"""

from __future__ import annotations

import os
import re
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # fixtures/ is not part of the installed package

from fixtures.server import open_fixture_server  # noqa: E402

USER = "ada@example.org"
PASSWORD = "correct horse"  # a fixture page's password: it accepts any
TODOS = ("Buy milk", "Walk the dog")
TASK_TIMEOUT = 60


class TaskFailed(Exception):
    """A task did not reach its outcome: a call failed, or no answer showed it."""


# ---------------------------------------------------------------------------------------------
# One server's session: every call counted


class Session:
    """An MCP client session that counts the calls and the bytes of their answers, and checks
    every call's arguments against the tool's listed input schema (names as listed)."""

    def __init__(self, session: ClientSession, tools: list[dict[str, Any]]) -> None:
        self._session = session
        self.schemas = {tool["name"]: tool["inputSchema"] for tool in tools}
        self.calls = 0
        self.bytes = 0
        self.text_bytes = 0

    def takes(self, tool: str, argument: str) -> bool:
        return argument in self.schemas.get(tool, {}).get("properties", {})

    async def call(self, tool: str, arguments: dict[str, Any]) -> str:
        schema = self.schemas.get(tool)
        if schema is None:
            raise TaskFailed(f"the server lists no tool {tool!r}")
        unknown = set(arguments) - set(schema.get("properties", {}))
        missing = set(schema.get("required", [])) - set(arguments)
        if unknown or missing:
            raise TaskFailed(f"{tool}: arguments {sorted(unknown)} not listed, "
                             f"{sorted(missing)} missing")
        result = await self._session.call_tool(tool, arguments)
        wire = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        text = "\n".join(block["text"] for block in wire["content"] if block["type"] == "text")
        self.calls += 1
        self.bytes += len(result.model_dump_json(by_alias=True, exclude_none=True).encode())
        self.text_bytes += len(text.encode())
        if wire.get("isError"):
            raise TaskFailed(f"{tool} answered an error: {text[:400]}")
        return text


# ---------------------------------------------------------------------------------------------
# What a model does, in each server's tools


@dataclass(frozen=True)
class Fill:
    ref: str
    label: str
    value: str


@dataclass(frozen=True)
class Enter:
    """Type ``text`` into a field and press Enter."""

    ref: str
    label: str
    text: str


@dataclass(frozen=True)
class Click:
    ref: str
    label: str
    check: bool = False
    """A checkbox to be checked (cdpseq has a step for it; the peers click)."""


Action = Fill | Enter | Click


class Driver:
    """How a model drives one server: open a page, act, look, wait; refs from its answers."""

    REF: re.Pattern[str]
    """A ref in one line of the server's page text."""
    CHECKED: re.Pattern[str]
    """A checkbox line whose state is checked."""

    def __init__(self, session: Session) -> None:
        self.session = session

    async def setup(self) -> None:
        """What a model's session learns once (unmeasured)."""

    async def open(self, url: str) -> str:
        raise NotImplementedError

    async def turn(self, actions: list[Action], *, expect: str, whole_page: bool = False,
                   request: bool = False) -> str:
        """Do ``actions``, then look; wait for ``expect`` if the answer does not show it yet.
        ``request``: the actions start a request (the model knows to wait); ``whole_page``:
        the model wants the whole page, not only what changed."""
        raise NotImplementedError

    def ref(self, text: str, role: str, name: str | None = None) -> str:
        """The ref of the last line of ``text`` that shows an element of ``role`` (and
        ``name``)."""
        for line in reversed(text.splitlines()):
            found = self.REF.search(line)
            if found is None:
                continue
            if name is not None and f'{role} "{name}"' in line:
                return found.group(1)
            if name is None and re.search(rf"(?<![\w-]){role}(?![\w-])", line):
                return found.group(1)
        raise TaskFailed(f"no {role} {name or ''} with a ref in the answer:\n{text[-1500:]}")

    def checkbox_line(self, text: str, item: str) -> str:
        """The line of the checkbox of the list item that reads ``item``: in a tree, the
        nearest checkbox line above the item's text."""
        lines = text.splitlines()
        for index in range(len(lines) - 1, -1, -1):
            if item in lines[index] and "checkbox" not in lines[index]:
                for line in reversed(lines[:index]):
                    if "checkbox" in line and self.REF.search(line):
                        return line
        raise TaskFailed(f"no checkbox for {item!r} in the answer:\n{text[-1500:]}")

    def checkbox(self, text: str, item: str) -> str:
        found = self.REF.search(self.checkbox_line(text, item))
        assert found is not None
        return found.group(1)

    def checked(self, text: str, item: str) -> bool:
        return self.CHECKED.search(self.checkbox_line(text, item)) is not None


class Cdpseq(Driver):
    """cdpseq: ``act`` with every step the model knows, its answer the delta (and the page
    when a read_page step ends it)."""

    REF = re.compile(r"\[(ref_\d+)\]")
    CHECKED = re.compile(r"\bchecked\b(?! false)")

    async def open(self, url: str) -> str:
        return await self.session.call("act", {"steps": [{"type": "navigate", "url": url},
                                                         {"type": "read_page"}]})

    async def turn(self, actions: list[Action], *, expect: str, whole_page: bool = False,
                   request: bool = False) -> str:
        steps: list[dict[str, Any]] = []
        for action in actions:
            if isinstance(action, Fill):
                steps.append({"type": "fill", "target": action.ref, "value": action.value})
            elif isinstance(action, Enter):
                steps += [{"type": "fill", "target": action.ref, "value": action.text},
                          {"type": "press", "target": action.ref, "key": "Enter"}]
            else:
                steps.append({"type": "check" if action.check else "click",
                              "target": action.ref})
        if request:
            steps.append({"type": "wait_for", "text": expect})
        if whole_page:
            steps.append({"type": "read_page", "filter": "all"})
        text = await self.session.call("act", {"steps": steps})
        if expect not in text:
            text = await self.session.call("act", {"steps": [
                {"type": "wait_for", "text": expect}, {"type": "read_page", "filter": "all"}]})
        return text

    def checkbox_line(self, text: str, item: str) -> str:
        for line in reversed(text.splitlines()):
            if "checkbox" in line and f'(item: "{item}")' in line:
                return line
        raise TaskFailed(f"no checkbox for {item!r} in the answer:\n{text[-1500:]}")


class Playwright(Driver):
    """Playwright MCP: one tool per action (``browser_fill_form`` takes several fields); its
    actions write their snapshot to a file and link it, so ``browser_snapshot`` shows the
    page."""

    REF = re.compile(r"\[ref=(\w+)\]")
    CHECKED = re.compile(r"\[checked\]")

    async def open(self, url: str) -> str:
        await self.session.call("browser_navigate", {"url": url})
        return await self.session.call("browser_snapshot", {})

    async def turn(self, actions: list[Action], *, expect: str, whole_page: bool = False,
                   request: bool = False) -> str:
        index = 0
        while index < len(actions):
            action = actions[index]
            if isinstance(action, Fill):
                fills = _run_of(actions, index, Fill)
                await self.session.call("browser_fill_form", {"fields": [
                    {"target": fill.ref, "element": fill.label, "name": fill.label,
                     "type": "textbox", "value": fill.value} for fill in fills]})
                index += len(fills)
                continue
            if isinstance(action, Enter):
                await self.session.call("browser_type", {
                    "target": action.ref, "element": action.label, "text": action.text,
                    "submit": True})
            else:
                await self.session.call("browser_click", {"target": action.ref,
                                                          "element": action.label})
            index += 1
        text = await self.session.call("browser_snapshot", {})
        if expect not in text:
            await self.session.call("browser_wait_for", {"text": expect})
            text = await self.session.call("browser_snapshot", {})
        return text


class DevTools(Driver):
    """Chrome DevTools MCP: one tool per action (``fill_form`` takes several fields,
    ``type_text`` types into the focused field); an action's ``includeSnapshot`` shows the
    page, and ``wait_for`` answers with it."""

    REF = re.compile(r"uid=(\S+)")
    CHECKED = re.compile(r"(?<![\w-])checked(?![\w-])(?!=\"false\")")

    page_id: int | None = None
    focused: str | None = None

    async def setup(self) -> None:
        if self.session.takes("navigate_page", "pageId"):
            pages = await self.session.call("list_pages", {})
            found = re.search(r"^(\d+): .*\[selected\]", pages, re.MULTILINE)
            if found is None:
                raise TaskFailed(f"no selected page in:\n{pages}")
            self.page_id = int(found.group(1))

    def _args(self, tool: str, **arguments: Any) -> dict[str, Any]:
        if self.page_id is not None and self.session.takes(tool, "pageId"):
            arguments["pageId"] = self.page_id
        return arguments

    async def open(self, url: str) -> str:
        self.focused = None
        await self.session.call("navigate_page", self._args("navigate_page", type="url",
                                                            url=url))
        return self._saw(await self.session.call("take_snapshot", self._args("take_snapshot")))

    def _saw(self, text: str) -> str:
        for line in text.splitlines():
            if re.search(r"\bfocused\b", line) and (found := self.REF.search(line)):
                self.focused = found.group(1)
        return text

    async def turn(self, actions: list[Action], *, expect: str, whole_page: bool = False,
                   request: bool = False) -> str:
        calls: list[tuple[str, dict[str, Any]]] = []
        index = 0
        while index < len(actions):
            action = actions[index]
            if isinstance(action, Fill):
                fills = _run_of(actions, index, Fill)
                if len(fills) > 1:
                    calls.append(("fill_form", self._args("fill_form", elements=[
                        {"uid": fill.ref, "value": fill.value} for fill in fills])))
                else:
                    calls.append(("fill", self._args("fill", uid=action.ref,
                                                     value=action.value)))
                self.focused = fills[-1].ref
                index += len(fills)
                continue
            if isinstance(action, Enter):
                if self.focused == action.ref:
                    calls.append(("type_text", self._args("type_text", text=action.text,
                                                          submitKey="Enter")))
                else:
                    calls += [("fill", self._args("fill", uid=action.ref, value=action.text)),
                              ("press_key", self._args("press_key", key="Enter"))]
            else:
                calls.append(("click", self._args("click", uid=action.ref)))
            self.focused = action.ref
            index += 1
        last_tool, last_arguments = calls[-1]
        if self.session.takes(last_tool, "includeSnapshot"):
            last_arguments["includeSnapshot"] = True
        else:
            calls.append(("take_snapshot", self._args("take_snapshot")))
        for tool, arguments in calls:
            text = await self.session.call(tool, arguments)
        if expect not in text:
            text = await self.session.call("wait_for", self._args("wait_for", text=[expect]))
        return self._saw(text)


def _run_of(actions: list[Action], start: int, kind: type) -> list[Any]:
    """The actions of ``kind`` from ``start`` on, up to the first of another kind."""
    run = []
    for action in actions[start:]:
        if not isinstance(action, kind):
            break
        run.append(action)
    return run


DRIVERS: dict[str, type[Driver]] = {
    "cdpseq": Cdpseq, "Playwright MCP": Playwright, "Chrome DevTools MCP": DevTools}


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
    lines.append("Text content alone (what a client shows the model; cdpseq also sends the "
                 "same as structured content), KB in total: " + ", ".join(
                     f"{name} {_kb(result['servers'][name]['tasks']['total']['text_bytes'])}"
                     for name in names) + ".")
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

