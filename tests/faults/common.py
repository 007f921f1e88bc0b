"""What the fault tests share: a bystander tab on another site, and waiting for the page to
reach a point before the fault is injected (never a fixed sleep)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import trio

from cdpseq import ActResult, Browser, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import js, text_of


def elsewhere(server: FixtureServer, path: str) -> str:
    """``path`` on the fixture server under another site (localhost, not 127.0.0.1), so its tab
    gets a renderer of its own: a fault in one site's renderer must not reach it."""
    return server.url(path).replace("://127.0.0.1:", "://localhost:")


async def bystander(browser: Browser, server: FixtureServer) -> Tab:
    """A tab on status.html (another site) that the fault must leave alone."""
    tab = await browser.new_tab()
    result = await act(tab, [{"type": "navigate", "url": elsewhere(server, "/status.html")}])
    assert result.ok, dump(result)
    return tab


async def assert_unaffected(tab: Tab) -> None:
    """The bystander still takes an act: its button works and the delta says so."""
    with trio.fail_after(30):
        result = await act(tab, [{"type": "click", "selector": "#click-me"}])
    assert result.ok, dump(result)
    assert await text_of(tab, "#status") == "Clicked"
    assert "Clicked" in json.dumps(msgspec.to_builtins(result.state_change))


async def until_text(tab: Tab, selector: str, text: str, budget: float = 20) -> None:
    """Wait (bounded) until the page's ``selector`` reads ``text``: how a test knows an act
    got past a step before it injects a fault."""
    expression = (f"(document.querySelector({selector!r}) || {{}}).textContent === "
                  f"{json.dumps(text)}")
    with trio.fail_after(budget):
        while not await js(tab, expression):
            await trio.sleep(0.02)


async def once_past(tab: Tab, selector: str, text: str) -> None:
    """Wait until the act got past a step that makes ``selector`` read ``text``, and is in the
    next one. The text shows while the step still waits for the browser's answer; half a
    second more lets the step finish (the next step waits far longer, so nothing is lost)."""
    await until_text(tab, selector, text)
    await trio.sleep(0.5)


def dump(result: ActResult) -> str:
    return json.dumps(msgspec.to_builtins(result), indent=1)


def steps_status(result: ActResult) -> list[str]:
    return [step.status for step in result.steps]


def failed_code(result: ActResult) -> Any:
    return result.failed.code if result.failed is not None else None
