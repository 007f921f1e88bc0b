"""Helpers the live tests share: run steps, open a fixture page, look up refs and text."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import trio

from cdpseq import ActResult, PageView, Tab, act, read_page
from cdpseq.cdp import runtime
from fixtures.server import FixtureServer


async def js(tab: Tab, expression: str) -> Any:
    result = await tab.send(runtime.Evaluate(expression=expression, returnByValue=True))
    return result.result.value


async def text_of(tab: Tab, selector: str, frame: str | None = None) -> str:
    root = f"document.querySelector({frame!r}).contentDocument" if frame else "document"
    return str(await js(tab, f"{root}.querySelector({selector!r}).textContent.trim()"))


async def run(tab: Tab, *steps: dict[str, Any], **options: Any) -> ActResult:
    with trio.fail_after(60):
        result = await act(tab, {"steps": list(steps), **options})
    assert result.ok, json.dumps(msgspec.to_builtins(result), indent=1)
    return result


async def open_page(tab: Tab, server: FixtureServer, path: str) -> PageView:
    await run(tab, {"type": "navigate", "url": server.url(path)})
    return await read_page(tab)


def ref(view: PageView, name: str, role: str | None = None) -> str:
    matches = [e.ref for e in view.elements if e.name == name and role in (None, e.role)]
    assert len(matches) == 1, (name, view.text)
    return matches[0]
