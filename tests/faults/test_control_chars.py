"""Hostile text through every door: a page whose title, names, console message, dialog and URL
hold ANSI escapes, bidi overrides, C1 and C0 controls, DEL, NUL and a lone surrogate, and
requests whose selector holds one. Every door's raw output holds none of them (but newline and
tab), the text forms name each by its escape, the JSON forms carry the same data, and a naming
field with one is refused INVALID_REQUEST naming it (``cdpseq.escaping``)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import msgspec
import pytest
import trio

import cdpseq
from cdpseq import LaunchedChromium, Tab
from cdpseq.errors import InvalidRequest, TargetClosed
from cdpseq.escaping import escape_json, escape_text, unsafe_at, whole_json
from cdpseq.front.render import render_text
from fixtures.server import FixtureServer
from tests.helpers import js

CLI = [sys.executable, "-m", "cdpseq"]

# In UTF-8: C0 but newline and tab, DEL, C1, the bidi embeddings, overrides and isolates, and a
# surrogate (which only "surrogatepass" writes).
_FORBIDDEN = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]"
                        rb"|\xe2\x81[\xa6-\xa9]|\xed[\xa0-\xbf]")
# How the text forms name what the page wrote (its button's name holds them all).
_NAMED = ("\\x1b[31mRED\\x1b[2J", "\\u202eevil\\u202c", "\\u2066iso\\u2069", "\\x9b31m",
          "\\x7fdel", "\\x07bell", "\\x00nul")


def _assert_clean(raw: bytes, where: str) -> None:
    found = _FORBIDDEN.search(raw)
    assert found is None, f"{where}: {found.group()!r} in {raw[found.start() - 80:found.end()]!r}"


def _assert_named(text: str, where: str) -> None:
    for named in _NAMED:
        assert named in text, f"{where}: no {named!r} in {text!r}"


def _steps(server: FixtureServer) -> list[dict[str, Any]]:
    return [{"type": "navigate", "url": server.url("/fault-controls.html")},
            {"type": "click", "selector": "#go"}, {"type": "read_page"}]


async def _assert_clicked(tab: Tab) -> None:
    """The page's own state: the button's handler ran (its paragraph and title are there)."""
    with trio.fail_after(10):
        assert await js(tab, "document.querySelectorAll('p').length") == 1
        assert (await js(tab, "document.title")).startswith("T2 ")


def test_the_rule_escapes_each_character_by_name() -> None:
    hostile = "a\x1b[2J\u202e\u2066\x9b\x7f\x00\ud800\n\tz"
    assert escape_text(hostile) == "a\\x1b[2J\\u202e\\u2066\\x9b\\x7f\\x00\\ud800\n\tz"
    assert unsafe_at("plain\n\ttext") is None and unsafe_at("ab\u202e") == 2
    encoded = escape_json(json.dumps(hostile.replace("\ud800", ""), ensure_ascii=False)
                          .encode())
    _assert_clean(encoded, "escape_json")
    assert json.loads(encoded) == hostile.replace("\ud800", "")  # the same data
    # a lone surrogate escape becomes text naming it; a pair and an escaped backslash stay
    assert json.loads(whole_json(r'"a\ud800b\\ud800\ud83d\ude00"')) == "a\\ud800b\\ud800😀"


async def test_python_errors_are_escaped_and_results_exact(
        tab: Tab, server: FixtureServer) -> None:
    bad = [{"type": "click", "selector": "#go\x1b[2J"}]
    with trio.fail_after(10):
        answered = await cdpseq.act(tab, bad)
    assert answered.failed is not None and answered.failed.code == "INVALID_REQUEST"
    assert "steps[0].selector" in answered.failed.error, answered.failed
    with pytest.raises(InvalidRequest) as refused:
        cdpseq.parse_request(bad)
    assert refused.value.field == "steps[0].selector"
    assert "\\x1b" in str(refused.value) and "\x1b" not in str(refused.value)
    assert "\x1b" not in repr(refused.value)
    closed = TargetClosed("T", None, "gone \x1b[2J\u202e")
    assert str(closed) == "target T closed: gone \\x1b[2J\\u202e"
    with trio.fail_after(30):
        done = await cdpseq.act(tab, _steps(server))
    assert done.ok, done
    await _assert_clicked(tab)
    dialog = msgspec.to_builtins(done.dialog)
    assert "\x1b[31mRED" in dialog["message"]  # the Python API hands the data as it is
    text = render_text(done)
    _assert_clean(text.encode("utf-8", "surrogatepass"), "render_text")
    _assert_named(text, "render_text")


def _cli(chromium: LaunchedChromium, *args: str, steps: object = None
         ) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*CLI, *args, "--cdp", chromium.endpoint],
                          input=None if steps is None else json.dumps(steps).encode(),
                          capture_output=True, timeout=60)


@pytest.mark.parametrize("cli_mode", ["daemon", "in-process"], indirect=True)
async def test_cli_output_is_escaped(tab: Tab, chromium: LaunchedChromium,
                                     server: FixtureServer, cli_mode: str) -> None:
    text = await trio.to_thread.run_sync(lambda: _cli(
        chromium, "act", "--tab", tab.id, "--steps", "-", "--format", "text",
        steps=_steps(server)))
    assert text.returncode == 0, text
    _assert_clean(text.stdout + text.stderr, "act --format text")
    _assert_named(text.stdout.decode(), "act --format text")
    await _assert_clicked(tab)
    shown = await trio.to_thread.run_sync(lambda: _cli(
        chromium, "act", "--tab", tab.id, "--steps", "-", "--format", "json",
        steps=_steps(server)))
    assert shown.returncode == 0, shown
    _assert_clean(shown.stdout + shown.stderr, "act --format json")
    result = json.loads(shown.stdout)
    assert "\x1b[31mRED" in result["dialog"]["message"]  # the JSON's data is the page's
    assert "\u202eevil" in result["page"]["elements"][0]["name"]
    read = await trio.to_thread.run_sync(lambda: _cli(chromium, "read-page", "--tab", tab.id))
    assert read.returncode == 0, read
    _assert_clean(read.stdout + read.stderr, "read")
    _assert_named(read.stdout.decode(), "read")
    refused = await trio.to_thread.run_sync(lambda: _cli(
        chromium, "act", "--tab", tab.id, "--steps", "-",
        steps=[{"type": "click", "selector": "#go\x1b[2J\u202e"}]))
    assert refused.returncode == 2, refused
    _assert_clean(refused.stdout + refused.stderr, "a refused act")
    said = (refused.stdout + refused.stderr).decode()
    assert "steps[0].selector" in said and "\\x1b" in said, said


def _mcp_messages(tab_id: str, server: FixtureServer) -> list[dict[str, Any]]:
    def call(number: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": number, "method": "tools/call",
                "params": {"name": name, "arguments": arguments}}
    return [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        call(1, "act", {"tabId": tab_id, "steps": _steps(server)}),
        call(2, "read_page", {"tabId": tab_id}),
        call(3, "act", {"tabId": tab_id, "steps": [
            {"type": "click", "selector": "#go\x1b[2J\u202e"}]}),
    ]


def _mcp_session(chromium: LaunchedChromium, messages: list[dict[str, Any]]) -> bytes:
    """The server's raw answers to ``messages``, each call sent once the one before it is
    answered (the server answers calls concurrently)."""
    server = subprocess.Popen([*CLI, "mcp", "--cdp", chromium.endpoint, "--structured"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    assert server.stdin is not None and server.stdout is not None
    answered = b""
    try:
        for message in messages:
            server.stdin.write(json.dumps(message).encode() + b"\n")
            server.stdin.flush()
            if "id" in message:
                answered += server.stdout.readline()  # its answer (bounded: the call's own)
        server.stdin.close()
        server.wait(30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    return answered


async def test_mcp_answers_are_escaped(tab: Tab, chromium: LaunchedChromium,
                                       server: FixtureServer) -> None:
    with trio.fail_after(120):
        served = await trio.to_thread.run_sync(
            _mcp_session, chromium, _mcp_messages(tab.id, server), abandon_on_cancel=True)
    _assert_clean(served, "the MCP server's answers")
    answers = {a["id"]: a["result"] for a in map(json.loads, served.splitlines())}
    assert set(answers) == {0, 1, 2, 3}, served
    acted, read, refused = answers[1], answers[2], answers[3]
    assert not acted["isError"] and acted["structuredContent"]["ok"], acted
    _assert_named(acted["content"][0]["text"], "act's text")
    assert "\x1b[31mRED" in acted["structuredContent"]["dialog"]["message"]  # exact data
    _assert_named(read["content"][0]["text"], "read_page's text")
    assert refused["isError"], refused
    assert "steps[0].selector" in refused["content"][0]["text"]
    assert "\\x1b" in refused["content"][0]["text"]
    await _assert_clicked(tab)
