"""The Python API typed end to end: mypy --strict on a user's script, and the typed result on
live pages (a PageView, a StateChange, DialogReports; snake_case in Python, camelCase JSON)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
import trio
from mypy import api as mypy_api

import cdpseq.engine.delta as delta_module
from cdpseq import DialogReport, PageView, StateChange, Tab, act
from fixtures.server import FixtureServer
from tests.paths import ROOT
from tests.typed.usage import sign_in

USAGE = ROOT / "tests" / "typed" / "usage.py"


def mypy(*files: Path) -> tuple[str, int]:
    # mypy raises the interpreter's recursion limit for good; put it back, or later tests of
    # how deep a request may nest see another interpreter than a user's.
    limit = sys.getrecursionlimit()
    try:
        out, err, status = mypy_api.run(["--strict", "--no-error-summary",
                                         "--cache-dir", str(ROOT / ".mypy_cache"),
                                         *map(str, files)])
    finally:
        sys.setrecursionlimit(limit)
    return out + err, status


async def test_a_user_script_is_clean_under_mypy_strict_and_misuse_is_caught(
        tmp_path: Path) -> None:
    out, status = await trio.to_thread.run_sync(mypy, USAGE)
    assert status == 0, out
    misuse = tmp_path / "misuse.py"
    misuse.write_text(
        "import cdpseq\n"
        "async def f(tab: cdpseq.Tab) -> None:\n"
        "    result = await cdpseq.act(tab, [cdpseq.ReadPage()])\n"
        "    print(result.page.elements)\n"  # page may be UNSET: narrow it first
        "    change = result.state_change\n"
        "    assert isinstance(change, cdpseq.StateChange)\n"
        "    print(change.appeared[0].nope)\n"  # no such field
        "    print(result.stateChange)\n"  # JSON names are not Python names
        "    await cdpseq.act(tab, [42])\n")  # a step is a Struct or a mapping
    out, status = await trio.to_thread.run_sync(mypy, misuse)
    assert status == 1, out
    for line, what in ((4, '"UnsetType" of "PageView | UnsetType" has no attribute "elements"'),
                       (7, '"ChangedElement" has no attribute "nope"'),
                       (8, '"ActResult" has no attribute "stateChange"'),
                       (9, 'incompatible type "int"')):
        assert f"misuse.py:{line}: error:" in out and what in out, (line, out)


async def test_the_typed_script_runs_and_its_result_is_camel_case_json(
        tab: Tab, server: FixtureServer) -> None:
    with trio.fail_after(60):
        told = await sign_in(tab, server.url("/login.html"))
    assert told[0] == "ok=True completed=4/4", told
    assert any(line.startswith("url ") and line.endswith("/dashboard") for line in told), told
    assert any("Welcome back!" in line for line in told), told
    # The same result as JSON speaks camelCase.
    with trio.fail_after(30):
        result = await act(tab, [{"type": "navigate", "url": server.url("/login.html")},
                                 {"type": "read_page"}])
    assert isinstance(result.page, PageView) and result.page.elements
    encoded = msgspec.json.decode(msgspec.json.encode(result))
    assert "stabilityWaitMs" in encoded and "stability_wait_ms" not in encoded
    assert "stateChange" in encoded and isinstance(result.state_change, StateChange)
    assert encoded["stateChange"]["navigated"] is True
    first = result.page.elements[0]
    assert isinstance(first.node_id, int) and encoded["page"]["elements"][0]["nodeId"] == (
        first.node_id)
    email = next(e for e in result.page.elements if e.name == "Email")
    assert email.input_type == "email" and "email" in {
        e.get("inputType") for e in encoded["page"]["elements"]}


@pytest.fixture
def raw_deltas(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any] | None]:
    """Every state change as the agent's answer made it, before it was typed."""
    seen: list[dict[str, Any] | None] = []
    build = delta_module.build_state_change

    def recording(delta: dict[str, Any]) -> dict[str, Any] | None:
        seen.append(build(delta))
        return seen[-1]

    monkeypatch.setattr(delta_module, "build_state_change", recording)
    return seen


@pytest.mark.parametrize(("page", "steps"), [
    ("/login.html", [{"type": "fill", "selector": "#email", "value": "ada@example.org"},
                     {"type": "fill", "selector": "#password", "value": "pw"},
                     {"type": "click", "selector": "#sign-in"}]),
    ("/settle-validation.html", [{"type": "click", "selector": "#submit"}]),
    ("/form-controls.html", [{"type": "click", "selector": "#inc"},
                             {"type": "check", "selector": "#agree"}]),
    ("/todo-lit.html", [{"type": "fill", "selector": "todo-app >> input.new-todo",
                         "value": "Buy milk"}, {"type": "press", "key": "Enter"}]),
])
async def test_typing_the_state_change_keeps_every_key_the_agent_wrote(
        tab: Tab, server: FixtureServer, raw_deltas: list[dict[str, Any] | None], page: str,
        steps: list[dict[str, Any]]) -> None:
    with trio.fail_after(60):
        await act(tab, [{"type": "navigate", "url": server.url(page)}])
        raw_deltas.clear()
        result = await act(tab, steps)
    assert raw_deltas and raw_deltas[-1], msgspec.to_builtins(result)
    assert isinstance(result.state_change, StateChange)
    assert msgspec.to_builtins(result.state_change) == raw_deltas[-1]


async def test_a_dialog_is_a_typed_report(tab: Tab, server: FixtureServer) -> None:
    with trio.fail_after(60):
        await act(tab, [{"type": "navigate", "url": server.url("/settle-alert.html")}])
        result = await act(tab, [{"type": "click", "selector": "#go"}])
    assert isinstance(result.dialog, DialogReport), msgspec.to_builtins(result)
    assert result.dialog.type == "alert" and result.dialog.handled == "dismissed"
