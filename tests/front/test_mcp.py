"""`cdpseq mcp` end to end: the official MCP client spawns the server over stdio.

Every test but the last few spawns ``python -m cdpseq mcp --launch`` with the client from the
``mcp`` package (``stdio_client`` + ``ClientSession``), so the server launches and later removes
its own Chromium. Fixture pages come from the session fixture server. Results are read from the
wire form of each CallToolResult (camelCase JSON), the same in every SDK version.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NamedTuple

import jsonschema
import msgspec
import pytest
import trio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

import cdpseq
from cdpseq import LaunchedChromium
from cdpseq.engine.request import MAX_STEPS, request_schema
from cdpseq.front.mcp_schema import act_tool_input_schema
from cdpseq.front.mcp_tools import ReadPageArgs, TabsArgs, tool_definitions
from fixtures.server import FixtureServer
from tests.fuzz.mcp_wire import raw_mcp
from tests.helpers import js
from tests.paths import ROOT

TIMEOUT = 60
EMAIL_SECRET = "ada.secret@example.org"
PASSWORD_SECRET = "pw-Zq8!never-shown"

# [ref_3] checkbox "Remember me" unchecked
_ELEMENT_LINE = re.compile(r'^\[(ref_\d+)\] (\S+) "((?:[^"\\]|\\.)*)"', re.MULTILINE)


# -- helpers ------------------------------------------------------------------------------------


class Reply(NamedTuple):
    text: str
    structured: Any
    is_error: bool
    wire: dict[str, Any]


class Served(NamedTuple):
    session: ClientSession
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def logged(self, pattern: str) -> re.Match[str]:
        match = re.search(pattern, self.log())
        assert match is not None, f"{pattern!r} not in the server log:\n{self.log()}"
        return match

    async def call(self, tool: str, arguments: dict[str, Any] | None = None) -> Reply:
        result = await self.session.call_tool(tool, arguments)
        wire = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        text = "\n".join(block["text"] for block in wire["content"] if block["type"] == "text")
        return Reply(text, wire.get("structuredContent"), bool(wire.get("isError")), wire)


def server_env(tmp_path: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The server's environment: the client passes only HOME, PATH and the like, plus this."""
    env = {"PYTHONIOENCODING": "utf-8"}
    if os.environ.get("CHROME_PATH"):
        env["CHROME_PATH"] = os.environ["CHROME_PATH"]
    return {**env, **(extra or {})}


@asynccontextmanager
async def mcp_server(tmp_path: Path, *args: str, env: dict[str, str] | None = None,
                     name: str = "server", structured: bool = True) -> AsyncIterator[Served]:
    """An initialized client session to ``cdpseq mcp ARGS`` (default ``--launch``), with
    ``--structured`` unless ``structured`` is false: most tests check the JSON results."""
    log_path = tmp_path / f"{name}.log"
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "cdpseq", "mcp", *(args or ("--launch",)),
                                      *(["--structured"] if structured else [])],
        env=server_env(tmp_path, env), cwd=str(ROOT))
    with open(log_path, "w") as errlog:  # noqa: ASYNC230 - a local file, opened once
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                yield Served(session, log_path)


def refs(text: str) -> dict[str, str]:
    """``{accessible name: ref}`` of the elements in a read_page text."""
    return {name: ref for ref, _role, name in _ELEMENT_LINE.findall(text)}


def _start_time(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat") as file:
            return file.read().rsplit(")", 1)[1].split()[19]
    except OSError:
        return None


def descendants(root: int) -> dict[int, str]:
    """``{pid: start time}`` of every living descendant of ``root``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as file:
                ppid = int(file.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    found: dict[int, str] = {}
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        start = _start_time(pid)
        if start is not None:
            found[pid] = start
        todo.extend(children.get(pid, []))
    return found


def processes_mentioning(text: str) -> list[int]:
    """Living processes whose command line contains ``text`` (zombies have none)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                if text.encode() in file.read():
                    pids.append(int(entry))
        except OSError:
            continue
    return pids


def survivors(recorded: dict[int, str]) -> list[int]:
    """The recorded processes that still run (same pid and start time, not a zombie)."""
    alive = []
    for pid, start in recorded.items():
        if _start_time(pid) != start:
            continue
        try:
            with open(f"/proc/{pid}/stat") as file:
                state = file.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state not in ("Z", "X"):
            alive.append(pid)
    return alive


async def assert_no_chromium_left(profile: str, recorded: dict[int, str]) -> None:
    """Nothing of the launched browser survives: no process, no profile directory."""
    with trio.move_on_after(5):  # the group's SIGKILL lands asynchronously
        while processes_mentioning(profile) or survivors(recorded):
            await trio.sleep(0.05)
    assert processes_mentioning(profile) == []
    assert survivors(recorded) == []
    assert not profile_exists(profile)


async def kill_launched_chromium(served: Served) -> str:
    """SIGKILL the Chromium the server logged it launched (the latest), wait until none of its
    processes is left, and return its profile directory."""
    pid = int(re.findall(r"launched Chromium pid=(\d+)", served.log())[-1])
    profile = re.findall(r"profile=(\S+)", served.log())[-1]
    os.killpg(pid, signal.SIGKILL)
    with trio.move_on_after(10):
        while processes_mentioning(profile):
            await trio.sleep(0.05)
    return profile


def profile_exists(profile: str) -> bool:
    """The profile, or the temporary directory launch_chromium made for it."""
    return os.path.exists(profile) or os.path.exists(os.path.dirname(profile))


# -- tools and schemas --------------------------------------------------------------------------


async def test_lists_tools_with_schemas_from_the_msgspec_types(tmp_path: Path) -> None:
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path) as served:
            listed = await served.session.list_tools()
    tools = {tool["name"]: tool for tool in
             (t.model_dump(mode="json", by_alias=True, exclude_none=True)
              for t in listed.tools)}
    assert set(tools) == {"act", "read_page", "tabs"}
    for tool in tools.values():
        schema = tool["inputSchema"]
        assert schema["type"] == "object"
        jsonschema.validators.validator_for(schema).check_schema(schema)
        assert len(tool["description"]) > 200
    # act's schema is the compact one, generated from the API's types (test_mcp_schema.py).
    assert tools["act"]["inputSchema"] == act_tool_input_schema()
    for defined in tool_definitions():
        assert tools[defined["name"]]["description"] == defined["description"]
        assert tools[defined["name"]]["inputSchema"] == defined["inputSchema"]
    act_description = tools["act"]["description"]
    for word in ("ONE call", "ref_N", "STALE_REF", "navigation", "returnMode", "stateChange",
                 "INVALID_REQUEST", "credentialRef"):
        assert word in act_description
    # A client that validates arguments against the schemas accepts good ones, rejects bad ones.
    act = jsonschema.Draft202012Validator(tools["act"]["inputSchema"])
    assert act.is_valid({"steps": [{"type": "click", "target": "ref_3"},
                                   {"type": "wait_for", "text": "Done"},
                                   {"type": "read_page", "filter": "all"}]})
    # The compact schema leaves patterns and bounds to the server (INVALID_REQUEST naming the
    # field); what it can tell, it refuses.
    assert not act.is_valid({"steps": [{"type": "teleport"}]})
    assert not act.is_valid({"steps": [{"type": "click", "clickCount": "2"}]})
    read = jsonschema.Draft202012Validator(tools["read_page"]["inputSchema"])
    assert read.is_valid({}) and read.is_valid({"filter": "all", "compression": "delta"})
    assert not read.is_valid({"filter": "everything"})
    tabs = jsonschema.Draft202012Validator(tools["tabs"]["inputSchema"])
    assert tabs.is_valid({"action": "new", "url": "https://example.org"})
    assert not tabs.is_valid({"action": "open"})
    # read_page's filter and compression are the act read_page step's own fields, shown alike.
    step = tools["act"]["inputSchema"]["$defs"]["step"]["properties"]
    props = tools["read_page"]["inputSchema"]["properties"]
    assert props["filter"] == step["filter"] and props["compression"] == step["compression"]
    assert {f.encode_name for f in msgspec.structs.fields(ReadPageArgs)} == {
        "tabId", "filter", "compression", "target", "selector", "roles", "viewportOnly",
        "maxElements", "includeBounds", "maxChars"}
    assert all(props[name] == step[name] for name in ("roles", "maxElements", "viewportOnly"))
    full = request_schema()["$defs"]["ReadPage"]["properties"]
    assert set(props["filter"]["enum"]) == set(full["filter"]["enum"])
    assert {f.encode_name for f in msgspec.structs.fields(TabsArgs)} == {
        "action", "url", "tabId", "path", "isolated"}


# -- answers within a budget --------------------------------------------------------------------


@pytest.mark.browser
async def test_answers_within_a_budget_are_cut_where_least_useful_and_marked(
        tmp_path: Path, server: FixtureServer) -> None:
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path) as served:
            await served.call("tabs", {"action": "new",
                                       "url": server.url("/big-todos.html?n=80")})
            whole = await served.call("read_page", {"filter": "all"})
            read = await served.call("read_page", {"filter": "all", "maxChars": 900})
            assert not read.is_error and len(read.text) <= 900 < len(whole.text), read.text
            assert read.text.startswith('Page: "To-dos"')
            assert read.text.endswith(f"of {len(whole.text):,} chars (maxChars 900)")
            assert read.structured["cut"]["chars"] == len(whole.text)
            # The controls shown are the structured elements; the ones cut are counted.
            shown = set(re.findall(r"^\[(ref_\d+)\]", read.text, re.MULTILINE))
            assert {e["ref"] for e in read.structured["elements"]} == shown
            assert "more elements" in read.text
            # An act's answer keeps what its delta names: the checkbox it ticked.
            box = next(e["ref"] for e in whole.structured["elements"]
                       if e["role"] == "checkbox" and "\"Todo 80\"" in (e.get("context") or ""))
            ticked = await served.call("act", {"maxChars": 600, "steps": [
                {"type": "check", "target": box}, {"type": "read_page", "filter": "all"}]})
            assert not ticked.is_error and len(ticked.text) <= 600, ticked.text
            assert f"~ [{box}]" in ticked.text and ticked.text.count(f"[{box}]") == 2
            assert await_checked(ticked)
            # A budget too small, or not a number, is refused naming the field.
            for bad in (50, "lots"):
                refused = await served.call("read_page", {"maxChars": bad})
                assert refused.is_error and "maxChars" in refused.text, refused.text
                refused = await served.call("act", {"maxChars": bad, "steps": [
                    {"type": "read_page"}]})
                assert refused.is_error and "maxChars" in refused.text, refused.text


def await_checked(reply: Reply) -> bool:
    return any(step["type"] == "check" and step["status"] == "ok"
               for step in reply.structured["steps"])


# -- read_page, then act with its refs ----------------------------------------------------------


@pytest.mark.browser
async def test_read_page_then_act_with_its_refs_on_the_login_page(
        tmp_path: Path, server: FixtureServer) -> None:
    secrets_file = tmp_path / "secrets.json"
    secrets_file.write_text(json.dumps({"password": PASSWORD_SECRET}))
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path, "--launch", "--secrets", str(secrets_file),
                              env={"CDPSEQ_SECRET_EMAIL": EMAIL_SECRET}) as served:
            opened = await served.call("tabs", {"action": "new",
                                                "url": server.url("/login.html")})
            assert not opened.is_error, opened.text
            read = await served.call("read_page", {})
            assert not read.is_error and "text" not in read.structured
            assert read.structured["elements"]
            assert read.text.startswith('Page: "Sign in · Acme Notes"')
            found = refs(read.text)
            assert {"Email", "Password", "Sign in"} <= set(found)

            reply = await served.call("act", {"steps": [
                {"type": "fill", "target": found["Email"], "credentialRef": "email"},
                {"type": "fill", "target": found["Password"], "credentialRef": "password"},
                {"type": "click", "target": found["Sign in"]},
                {"type": "wait_for", "text": "Welcome back"},
                {"type": "read_page", "filter": "all"},
            ]})
            assert not reply.is_error, reply.text
            result = reply.structured
            assert result["ok"] is True and result["completed"] == result["total"] == 5
            assert [step["status"] for step in result["steps"]] == ["ok"] * 5
            assert result["tab"]["title"] == "Dashboard · Acme Notes"
            # The page's text view travels once, in the text content for the model; the
            # structured content keeps its elements (with refs) for programs.
            assert "text" not in result["page"] and result["page"]["elements"]
            assert "[ref_" in reply.text
            assert "# Welcome back!" in reply.text
            assert reply.text.startswith("5/5 ok")

            # The email went into a plain text field the page shows back; no result has it.
            after = await served.call("read_page", {"filter": "all"})
            assert "Signed in as ••••" in after.text

            # Refs of the sign-in form's read survive into later calls.
            again = await served.call("act", {"steps": [
                {"type": "click", "selector": "#sign-out"},
                {"type": "wait_for", "text": "Sign in to Acme Notes"},
                {"type": "fill", "target": found["Email"], "value": "someone@example.org"},
            ]})
            assert not again.is_error, again.text
            every = [opened, read, reply, after, again]
    for secret in (EMAIL_SECRET, PASSWORD_SECRET):
        for reply in every:
            assert secret not in json.dumps(reply.wire, ensure_ascii=False)
        assert secret not in served.log()
    served.logged(r"secrets from .*secrets\.json: password")


async def test_by_default_answers_are_the_compact_text_alone(
        tmp_path: Path, chromium: LaunchedChromium, server: FixtureServer) -> None:
    # Without --structured no tool declares an output schema and no answer carries structured
    # content: clients that show a model the structured content instead of the text (or both)
    # show it the compact text, which holds the refs, the outcome and the delta.
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path, "--cdp", chromium.endpoint, structured=False) as served:
            listed = await served.session.list_tools()
            assert all("outputSchema" not in tool.model_dump(by_alias=True, exclude_none=True)
                       for tool in listed.tools)
            opened = await served.call("tabs", {"action": "new",
                                                "url": server.url("/login.html")})
            read = await served.call("read_page", {})
            found = refs(read.text)
            reply = await served.call("act", {"steps": [
                {"type": "fill", "target": found["Email"], "value": "ada@example.org"},
                {"type": "fill", "target": found["Password"], "value": "pw-1234"},
                {"type": "click", "target": found["Sign in"]},
                {"type": "wait_for", "text": "Welcome back"}]})
            tab_id = re.search(r"\* (\S+)", opened.text)
            assert tab_id is not None, opened.text
            async with cdpseq.open_browser(chromium.endpoint) as browser:
                page = await browser.tab(tab_id.group(1))
                title = await js(page, "document.title")
    for answer in (opened, read, reply):
        assert "structuredContent" not in answer.wire and answer.structured is None
        assert [block["type"] for block in answer.wire["content"]] == ["text"]
    assert not reply.is_error and reply.text.startswith("4/4 ok"), reply.text
    assert "Dashboard · Acme Notes" in reply.text
    assert title == "Dashboard · Acme Notes"  # the page itself, not cdpseq's answer


# -- bad input ----------------------------------------------------------------------------------

# Messages of the cases below whose request was read and then refused before step 0 (a missing
# credential, a blocked URL, a tab id that names no tab): a not_started row per step.
_REFUSED_BEFORE_STEP_0 = {"steps[0].credentialRef: no secret named 'nope'", "URL_BLOCKED",
                          "tabId: no page tab has the id 'no-such-tab'"}


@pytest.mark.browser
async def test_bad_input_is_a_tool_error_and_the_server_stays_healthy(
        tmp_path: Path, server: FixtureServer) -> None:
    huge = [{"type": "wait", "ms": 0}] * 5000
    cases: list[tuple[str, dict[str, Any] | None, str]] = [
        ("act", {"steps": [{"type": "navigate"}]}, "steps[0].url: required field missing"),
        ("act", None, "steps: required field missing"),
        ("act", {}, "steps: required field missing"),
        ("act", {"steps": "click the button"}, "steps"),
        ("act", {"steps": [{"type": "click", "target": "ref_1", "clickCount": "2"}]},
         "steps[0].clickCount"),
        ("act", {"steps": [{"type": "teleport", "to": "mars"}]},
         "steps[0].type: unknown step type"),
        ("act", {"steps": [{"type": "click", "target": "the blue button"}]},
         "steps[0].target"),
        ("act", {"steps": [{"type": "wait", "ms": 1}], "failFast": "yes"}, "failFast"),
        ("act", {"steps": [{"type": "wait", "ms": 1}], "bogus": 1}, "bogus: unknown field"),
        ("act", {"steps": huge}, f"5000 steps exceed the hard limit of {MAX_STEPS}"),
        ("act", {"steps": [{"type": "wait", "ms": 1}] * 11}, "steps: 11 steps exceed maxSteps"),
        ("act", {"steps": [{"type": "fill", "selector": "#email", "credentialRef": "nope"}]},
         "steps[0].credentialRef: no secret named 'nope'"),
        ("act", {"steps": [{"type": "navigate", "url": "example.com"}]}, "steps[0].url"),
        ("act", {"steps": [{"type": "navigate", "url": "javascript:alert(1)"}]},
         "URL_BLOCKED"),
        ("read_page", {"filter": 3}, "filter: expected str, got int"),
        ("read_page", {"filter": "everything"}, "filter"),
        ("read_page", {"tabid": "x"}, "tabid: unknown field (allowed: tabId, filter, "
                                      "compression, target, selector, roles, viewportOnly, "
                                      "maxElements, includeBounds, maxChars)"),
        ("tabs", {"action": "select"}, "tabId: required for action 'select'"),
        ("tabs", {"action": "explode"}, "action"),
        ("tabs", {"action": "new", "url": "example.com"}, "url: expected an absolute"),
        ("tabs", {"action": "new", "url": "javascript:alert(1)"}, "URL_BLOCKED"),
        ("tabs", {"action": "list", "url": "https://example.org"}, "url: only applies"),
        ("tabs", {"action": "close", "tabId": "no-such-tab"}, "INVALID_REQUEST: tabId: no page "
                                                              "tab has the id 'no-such-tab'"),
        ("tabs", {"action": "select", "tabId": "no-such-tab"}, "INVALID_REQUEST: tabId: no page "
                                                               "tab has the id 'no-such-tab'"),
        ("act", {"tabId": "no-such-tab", "steps": [{"type": "wait", "ms": 1}]},
         "tabId: no page tab has the id 'no-such-tab'"),
        ("read_page", {"tabId": "no-such-tab"}, "INVALID_REQUEST: tabId: no page tab has"),
        ("read_page", {"": 1}, 'INVALID_REQUEST: "": unknown field (allowed: tabId,'),
        ("no_such_tool", {}, "unknown tool 'no_such_tool'"),
    ]
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path) as served:
            for tool, arguments, message in cases:
                reply = await served.call(tool, arguments)
                assert reply.is_error, (tool, arguments, reply.text)
                assert message in reply.text, (tool, arguments, reply.text)
                if tool == "act" and "TARGET_CLOSED" not in message:
                    failed = reply.structured["failed"]
                    assert failed["code"] == ("URL_BLOCKED" if message == "URL_BLOCKED"
                                              else "INVALID_REQUEST")
                    # Nothing ran: a request that was read has a not_started row per step;
                    # one that could not be read has no steps to list.
                    read = message in _REFUSED_BEFORE_STEP_0 and arguments is not None
                    assert [s["status"] for s in reply.structured["steps"]] == (
                        ["not_started"] * len(arguments["steps"]) if read else [])
            # Still healthy: a good call works.
            reply = await served.call("act", {"steps": [
                {"type": "navigate", "url": server.url("/status.html")},
                {"type": "read_page"}]})
            assert not reply.is_error, reply.text
            assert 'button "Click me"' in reply.text
    assert "Traceback" not in served.log()


@pytest.mark.browser
async def test_garbage_on_the_wire_does_not_crash_the_server(tmp_path: Path) -> None:
    """Below what a typed client can send: lines that are not JSON, a tools/call whose
    arguments are not an object. The server answers or skips them and keeps serving."""
    env = {**os.environ, **server_env(tmp_path)}
    with trio.fail_after(TIMEOUT), open(tmp_path / "raw.log", "w") as errlog:  # noqa: ASYNC230
        process = await trio.lowlevel.open_process(
            [sys.executable, "-m", "cdpseq", "mcp", "--launch"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=errlog, env=env, cwd=str(ROOT))
        assert process.stdin is not None and process.stdout is not None
        buffer = bytearray()

        async def send(message: object) -> None:
            data = message if isinstance(message, bytes) else json.dumps(message).encode()
            await process.stdin.send_all(data + b"\n")  # type: ignore[union-attr]

        async def answer(request_id: int) -> dict[str, Any]:
            while True:
                while b"\n" not in buffer:
                    chunk = await process.stdout.receive_some()  # type: ignore[union-attr]
                    assert chunk, "the server closed its stdout"
                    buffer.extend(chunk)
                line, _, rest = bytes(buffer).partition(b"\n")
                buffer[:] = rest
                message = json.loads(line)
                if message.get("id") == request_id:
                    return dict(message)

        try:
            await send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"}}})
            assert "result" in await answer(1)
            await send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            await send(b"this is not json")
            await send(b'{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": ')
            await send({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                        "params": {"name": "act", "arguments": [1, 2, 3]}})
            bad = await answer(3)
            assert "error" in bad or bad["result"].get("isError"), bad
            await send({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                        "params": {"name": "act", "arguments": {"steps": [{"type": "nope"}]}}})
            invalid = await answer(4)
            assert invalid["result"]["isError"] is True
            assert "steps[0].type" in invalid["result"]["content"][0]["text"]
            await send({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                        "params": {"name": "tabs", "arguments": {}}})
            listed = await answer(5)
            assert listed["result"].get("isError") in (None, False), listed
        finally:
            await process.stdin.aclose()
            with trio.move_on_after(10):
                await process.wait()
            if process.returncode is None:
                process.kill()
                await process.wait()
    assert process.returncode == 0
    log = (tmp_path / "raw.log").read_text()
    assert "stopped" in log and "Traceback" not in log


# -- tabs ---------------------------------------------------------------------------------------


@pytest.mark.browser
async def test_act_on_a_closed_tab(tmp_path: Path, server: FixtureServer) -> None:
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path) as served:
            opened = await served.call("tabs", {"action": "new",
                                                "url": server.url("/status.html")})
            closing = opened.structured["current"]
            closed = await served.call("tabs", {"action": "close", "tabId": closing})
            assert not closed.is_error, closed.text
            assert closing not in {t["id"] for t in closed.structured["tabs"]}
            assert closed.structured["current"] != closing

            reply = await served.call("act", {"tabId": closing, "steps": [
                {"type": "click", "selector": "#click-me"}]})
            assert reply.is_error
            assert reply.structured["failed"]["code"] == "TARGET_CLOSED"
            assert [s["status"] for s in reply.structured["steps"]] == ["not_started"]
            assert "TARGET_CLOSED" in reply.text

            # The current tab closed behind the server's back: one clear failure, then the
            # next call without tabId goes to the first tab.
            opened = await served.call("tabs", {"action": "new",
                                                "url": server.url("/status.html")})
            current = opened.structured["current"]
            endpoint = served.logged(r"endpoint=(\S+)").group(1)
            async with cdpseq.open_browser(endpoint) as outsider:
                await outsider.close_tab(current)
            reply = await served.call("act", {"steps": [{"type": "wait", "ms": 1}]})
            assert reply.is_error
            assert reply.structured["failed"]["code"] == "TARGET_CLOSED"
            assert "current tab was closed" in reply.structured["failed"]["error"]
            reply = await served.call("act", {"steps": [{"type": "wait", "ms": 1}]})
            assert not reply.is_error, reply.text
            assert reply.structured["tab"]["id"] != current


@pytest.mark.browser
async def test_two_tabs_in_one_session(tmp_path: Path, server: FixtureServer) -> None:
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path) as served:
            first = await served.call("tabs", {"action": "new",
                                               "url": server.url("/status.html")})
            status_tab = first.structured["current"]
            second = await served.call("tabs", {"action": "new",
                                                "url": server.url("/login.html")})
            login_tab = second.structured["current"]
            assert login_tab != status_tab
            listed = {t["id"]: t for t in second.structured["tabs"]}
            assert listed[login_tab]["current"] and not listed[status_tab]["current"]
            assert f"* {login_tab} " in second.text

            login = refs((await served.call("read_page", {})).text)
            status = refs((await served.call("read_page", {"tabId": status_tab})).text)
            assert "Sign in" in login and "Click me" in status

            # Act in the status tab by id; the login tab stays current.
            clicked = await served.call("act", {"tabId": status_tab, "steps": [
                {"type": "click", "target": status["Click me"]},
                {"type": "wait_for", "text": "Clicked"}]})
            assert not clicked.is_error, clicked.text
            assert clicked.structured["tab"]["id"] == status_tab
            filled = await served.call("act", {"steps": [
                {"type": "fill", "target": login["Email"], "value": "ada@example.org"},
                {"type": "read_page"}]})
            assert not filled.is_error, filled.text
            assert filled.structured["tab"]["id"] == login_tab
            assert 'value="ada@example.org"' in filled.text

            # Select the status tab: calls without tabId go there; its refs still hold.
            selected = await served.call("tabs", {"action": "select", "tabId": status_tab})
            assert selected.structured["current"] == status_tab
            read = await served.call("read_page", {"filter": "all"})
            assert "Clicked" in read.text and "Acme" not in read.text
            again = await served.call("act", {"steps": [
                {"type": "click", "target": status["Click me"]}]})
            assert not again.is_error, again.text
            listed_now = await served.call("tabs", {})
            assert {status_tab, login_tab} <= {t["id"] for t in listed_now.structured["tabs"]}


# -- lifecycle ----------------------------------------------------------------------------------


@pytest.mark.browser
async def test_server_exits_when_the_client_disconnects_leaving_no_chromium(
        tmp_path: Path, server: FixtureServer) -> None:
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path) as served:
            reply = await served.call("act", {"steps": [
                {"type": "navigate", "url": server.url("/status.html")}]})
            assert not reply.is_error, reply.text
            pid = int(served.logged(r"pid (\d+)\)").group(1))
            profile = served.logged(r"profile=(\S+)").group(1)
            recorded = descendants(pid)
            assert recorded and processes_mentioning(profile)
            # Disconnect while a long act is running.
            async with trio.open_nursery() as nursery:
                nursery.start_soon(served.call, "act", {
                    "steps": [{"type": "wait", "ms": 10000}], "timeoutMs": 60000})
                await trio.sleep(0.5)
                nursery.cancel_scope.cancel()
        log = served.log()
        # It exited by itself after stdin closed, before the client would have SIGTERMed it
        # (the log would say so; no clock is read: these machines are shared).
        assert "client disconnected; shutting down" in log and log.rstrip().endswith("stopped")
        assert "received SIG" not in log and "Traceback" not in log
        assert _start_time(pid) is None
        await assert_no_chromium_left(profile, recorded)


@pytest.mark.browser
async def test_sigterm_stops_the_server_and_its_chromium(tmp_path: Path) -> None:
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path) as served:
            await served.call("tabs", {})
            pid = int(served.logged(r"pid (\d+)\)").group(1))
            profile = served.logged(r"profile=(\S+)").group(1)
            recorded = descendants(pid)
            os.kill(pid, signal.SIGTERM)
            with trio.move_on_after(10):
                while _start_time(pid) is not None and "stopped" not in served.log():
                    await trio.sleep(0.05)
        assert "received SIGTERM; shutting down" in served.log()
        await assert_no_chromium_left(profile, recorded)


# -- the equivalence check of OpenChrome issue #969 --------------------------------------------


def _equivalence_tool() -> Any:
    spec = importlib.util.spec_from_file_location("mcp_equivalence",
                                                  ROOT / "tools" / "bench" / "mcp_equivalence.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.browser
async def test_one_act_call_against_three_single_calls(
        tmp_path: Path, server: FixtureServer) -> None:
    tool = _equivalence_tool()
    with open(tmp_path / "server.log", "w") as errlog, trio.fail_after(TIMEOUT):  # noqa: ASYNC230
        report = await tool.compare(server.url("/status.html"), rounds=2,
                                    env=server_env(tmp_path), errlog=errlog)
    one, three = report["paths"]["act (one call)"], report["paths"]["three calls"]
    print(tool.format_report(report))
    assert one["calls"] == 1 and three["calls"] == 3
    for path in (one, three):
        assert path["final_read"].rstrip().endswith("\nClicked")  # the status paragraph
    assert max(one["bytes_per_round"]) < min(three["bytes_per_round"]), report


# -- attaching, startup errors ------------------------------------------------------------------


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_attaches_with_cdp_and_launches_if_missing(
        tmp_path: Path, chromium: LaunchedChromium, server: FixtureServer) -> None:
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path, "--cdp", chromium.endpoint, name="attached") as served:
            opened = await served.call("tabs", {"action": "new",
                                                "url": server.url("/status.html")})
            mine = opened.structured["current"]
            read = await served.call("read_page", {})
            assert "Click me" in read.text
            await served.call("tabs", {"action": "close", "tabId": mine})
        served.logged(r"attached to " + re.escape(chromium.endpoint))
        assert "launched" not in served.log()

        port = _free_port()
        async with mcp_server(tmp_path, "--cdp", str(port), "--launch-if-missing",
                              name="if-missing") as served:
            reply = await served.call("act", {"steps": [
                {"type": "navigate", "url": server.url("/status.html")},
                {"type": "read_page"}]})
            assert not reply.is_error, reply.text
            served.logged(rf"no Chrome DevTools endpoint at http://127.0.0.1:{port}/")
            served.logged(r"launched Chromium pid=\d+ endpoint=http://127.0.0.1:\d+ ")
            profile = served.logged(r"profile=(\S+)").group(1)
        await assert_no_chromium_left(profile, {})


def _run_cli(tmp_path: Path, *args: str, code: str | None = None
             ) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, *(["-c", code] if code else ["-m", "cdpseq"]), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT,
                          env={**os.environ, **server_env(tmp_path)}, stdin=subprocess.DEVNULL,
                          cwd=str(ROOT))


@pytest.mark.browser
async def test_an_unreachable_browser_is_the_error_of_the_call_that_needs_it(
        tmp_path: Path, server: FixtureServer) -> None:
    # The server is up without a browser; each call that needs one tries again, and says
    # where it looked when nothing answers.
    port = _free_port()
    with trio.fail_after(TIMEOUT * 2):
        async with mcp_server(tmp_path, "--cdp", str(port), name="unreachable") as served:
            listed = await served.session.list_tools()
            assert {tool.name for tool in listed.tools} == {"act", "read_page", "tabs"}
            for _ in range(2):
                missing = await served.call("read_page", {})
                assert missing.is_error and "CONNECTION_LOST" in missing.text, missing.text
                assert f"127.0.0.1:{port}" in missing.text
                assert "the next call tries again" in missing.text
            async with cdpseq.launch_browser(port=port) as browser:
                reply = await served.call("tabs", {"action": "new",
                                                   "url": server.url("/status.html")})
                assert not reply.is_error, reply.text
                opened = reply.structured["current"]
                assert opened in {info.id for info in await browser.tabs()}
                read = await served.call("read_page", {})
                assert not read.is_error and "Click me" in read.text, read.text
            # That browser quit: the next call says so, the one after looks again.
            gone = await served.call("read_page", {})
            assert gone.is_error and "CONNECTION_LOST" in gone.text, gone.text
            again = await served.call("read_page", {})
            assert again.is_error and f"127.0.0.1:{port}" in again.text, again.text
        served.logged(rf"the browser at \S*{port} is gone")


@pytest.mark.browser
async def test_a_crashed_launched_browser_is_launched_again(
        tmp_path: Path, server: FixtureServer) -> None:
    with trio.fail_after(TIMEOUT * 2):
        async with mcp_server(tmp_path, name="crash") as served:
            assert "launched" not in served.log()  # not before a call needs it
            first = await served.call("act", {"steps": [
                {"type": "navigate", "url": server.url("/status.html")}]})
            assert not first.is_error, first.text
            profile = await kill_launched_chromium(served)
            gone = await served.call("act", {"steps": [{"type": "click",
                                                        "selector": "#click-me"}]})
            assert gone.is_error and "CONNECTION_LOST" in gone.text, gone.text
            again = await served.call("act", {"steps": [
                {"type": "navigate", "url": server.url("/status.html")},
                {"type": "click", "selector": "#click-me"},
                {"type": "wait_for", "text": "Clicked"}]})
            assert not again.is_error, again.text
            profiles = re.findall(r"profile=(\S+)", served.log())
            assert len(profiles) == 2, served.log()
        await assert_no_chromium_left(profile, {})
        await assert_no_chromium_left(profiles[1], {})


def test_bad_secrets_fail_with_one_line(tmp_path: Path) -> None:
    secrets = tmp_path / "secrets.json"
    secrets.write_text('{"pw": 12345678}')
    done = _run_cli(tmp_path, "mcp", "--launch", "--secrets", str(secrets))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith("cdpseq: --secrets")
    assert "12345678" not in done.stderr
    secrets.write_text('{"pw": "hunter2-but-broken"')  # not JSON
    done = _run_cli(tmp_path, "mcp", "--launch", "--secrets", str(secrets))
    assert done.returncode == 2 and "not valid JSON" in done.stderr
    assert "hunter2" not in done.stderr


def test_the_server_needs_no_mcp_package_and_answers_requests_read_from_a_file(
        tmp_path: Path) -> None:
    # cdpseq speaks MCP itself: with the SDK unimportable, a client that writes its requests
    # and closes stdin (here a regular file, which is read in a thread, not polled) gets every
    # request answered, in order of its lines, and the server exits 0.
    requests = tmp_path / "requests.jsonl"
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "file", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "two", "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "ping"},
        {"jsonrpc": "2.0", "id": 4, "method": "resources/list"},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": ["act"]},
        {"jsonrpc": "2.0", "id": 6, "method": "tools/call",
         "params": {"name": "nope", "arguments": {}}},
    ]
    requests.write_text("\n".join([json.dumps(line) for line in lines] + ["not json"]) + "\n")
    code = ("import sys; sys.modules['mcp'] = None; sys.argv[0] = 'cdpseq'; "
            "from cdpseq.front.cli import main; main()")
    command = [sys.executable, "-c", code, "mcp", "--cdp", str(_free_port())]
    with requests.open() as stdin:
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT,
                              env={**os.environ, **server_env(tmp_path)}, stdin=stdin,
                              cwd=str(ROOT))
    assert done.returncode == 0, done.stderr
    answers = {answer["id"]: answer for answer in map(json.loads, done.stdout.splitlines())}
    assert sorted(answers, key=str) == [1, 3, 4, 5, 6, "two"]
    assert answers[1]["result"]["protocolVersion"] == "2025-06-18"
    assert answers[1]["result"]["serverInfo"]["name"] == "cdpseq"
    assert [tool["name"] for tool in answers["two"]["result"]["tools"]] == \
        ["act", "read_page", "tabs"]
    assert answers[3]["result"] == {}
    assert answers[4]["error"]["code"] == -32601
    assert answers[5]["error"]["code"] == -32602
    assert answers[6]["result"]["isError"] is True
    assert "unknown tool 'nope'" in answers[6]["result"]["content"][0]["text"]
    assert "a line ignored: not JSON" in done.stderr
    assert "Traceback" not in done.stderr


async def test_a_cancelled_call_ends_unanswered_while_the_others_are_answered(
        tmp_path: Path, chromium: LaunchedChromium, server: FixtureServer) -> None:
    # Calls run side by side, and notifications/cancelled stops one: a wait of 60 s cancelled
    # at once is never answered, a click sent after it is, and the server then exits on EOF
    # without waiting out the 60 s.
    async with raw_mcp(tmp_path, "--cdp", chromium.endpoint) as client:
        opened = await client.exchange("tools/call", {"name": "tabs", "arguments": {
            "action": "new", "url": server.url("/status.html")}})
        assert opened is not None and not opened["result"]["isError"], opened
        await client.send_line(json.dumps({
            "jsonrpc": "2.0", "id": "slow", "method": "tools/call", "params": {
                "name": "act", "arguments": {"timeoutMs": 60000, "steps": [
                    {"type": "wait_for", "text": "never on the page", "timeoutMs": 60000}]}}
        }).encode())
        await client.send_line(json.dumps({
            "jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": "slow", "reason": "the user changed their mind"}}).encode())
        await client.send_line(json.dumps({
            "jsonrpc": "2.0", "id": 100, "method": "tools/call", "params": {
                "name": "act", "arguments": {"steps": [
                    {"type": "click", "selector": "#click-me"},
                    {"type": "wait_for", "text": "Clicked"}]}}}).encode())
        seen = []
        with trio.fail_after(TIMEOUT):
            while not seen or seen[-1]["id"] != 100:
                seen.append(await client._message())
        assert [message["id"] for message in seen] == [100]
        assert not seen[-1]["result"]["isError"], seen[-1]
        assert seen[-1]["result"]["structuredContent"]["ok"] is True
        assert client.process.stdin is not None
        await client.process.stdin.aclose()
        with trio.fail_after(40):  # the cancelled wait would hold the exit for 60 s
            await client.process.wait()
        assert client.process.returncode == 0
        assert "request 'slow' cancelled by the client" in client.log()
