"""The in-page agent is assembled from its parts (``page/script.py``): every part is in, once and
in order, no two parts declare the same name, every entry point is declared, and the assembled
script installs in a real isolated world."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import trio

from cdpseq import LaunchedChromium, Tab, open_browser, read_page
from cdpseq.cdp import page, runtime
from cdpseq.page import script
from cdpseq.page.agent import WORLD_NAME, PageAgent
from cdpseq.page.script import (
    AGENT_PARTS,
    AGENT_SCRIPT,
    AGENT_VERSION,
    agent_part,
    assemble_agent,
)
from fixtures.server import FixtureServer
from tests.helpers import js, open_page

PARTS_DIR = Path(script.__file__).parent / "js" / "agent"
# A declaration at the top level of a part (parts are written unindented).
_DECLARATION = re.compile(r"^(?:async\s+)?(?:function\*?|const|let|var|class)\s+(\w+)",
                          re.MULTILINE)


def exported_names() -> list[str]:
    exports = agent_part("exports")
    body = re.search(r"globalThis\.__cdpseq = \{(.*?)\};", exports, re.DOTALL)
    assert body is not None, exports
    return [name.strip() for name in body.group(1).split(",")
            if name.strip() and not name.strip().startswith("version")]


def test_every_part_file_is_assembled_once_and_exports_come_last() -> None:
    on_disk = sorted(path.stem for path in PARTS_DIR.glob("*.js"))
    assert sorted(AGENT_PARTS) == on_disk
    assert len(set(AGENT_PARTS)) == len(AGENT_PARTS)
    assert AGENT_PARTS[0] == "registry" and AGENT_PARTS[-1] == "exports"
    assert assemble_agent() == AGENT_SCRIPT
    positions = [AGENT_SCRIPT.index(agent_part(name)) for name in AGENT_PARTS]
    assert positions == sorted(positions)
    assert AGENT_SCRIPT.startswith("(() => {\n") and AGENT_SCRIPT.endswith("\n})()")


def test_parts_are_small_and_declare_distinct_names() -> None:
    declared: dict[str, str] = {}
    for name in AGENT_PARTS:
        source = agent_part(name)
        assert len(source.splitlines()) <= 400, name
        assert source.startswith("//"), f"{name}.js opens without a comment saying what it holds"
        for found in _DECLARATION.findall(source):
            assert found not in declared, f"{found} is declared in {declared[found]} and {name}"
            declared[found] = name
    missing = [entry for entry in exported_names() if entry not in declared]
    assert not missing, f"exported but declared by no part: {missing}"


async def test_the_assembled_agent_installs_in_an_isolated_world(tab: Tab) -> None:
    frame = (await tab.send(page.GetFrameTree())).frameTree.frame.id
    world = await tab.send(page.CreateIsolatedWorld(frameId=frame, worldName="assembly-test"))
    context = world.executionContextId

    async def evaluate(expression: str) -> object:
        result = await tab.send(runtime.Evaluate(expression=expression, contextId=context,
                                                 returnByValue=True))
        assert result.exceptionDetails is None, result.exceptionDetails
        return result.result.value

    version = await evaluate(AGENT_SCRIPT)
    assert isinstance(version, int) and version > 0
    assert await evaluate(AGENT_SCRIPT) == version  # a second install keeps the first
    entry_points = await evaluate("Object.keys(__cdpseq).filter(k => typeof __cdpseq[k] === "
                                  "'function').sort()")
    assert entry_points == sorted(exported_names())
    main_world = await tab.send(runtime.Evaluate(expression="typeof __cdpseq",
                                                 returnByValue=True))
    assert main_world.result.value == "undefined"  # the page's own world sees nothing


async def _agent_version_in(tab: Tab, frame_id: str) -> object:
    """The version of the agent in the cdpseq world of a frame, as the browser has it now."""
    world = await tab.send(page.CreateIsolatedWorld(frameId=frame_id, worldName=WORLD_NAME))
    found = await tab.send(runtime.Evaluate(expression="globalThis.__cdpseq?.version ?? null",
                                            contextId=world.executionContextId,
                                            returnByValue=True))
    return found.result.value


async def _loaded(tab: Tab, url: str) -> None:
    await tab.send(page.Navigate(url=url))
    with trio.fail_after(10):
        while await js(tab, "location.href + ' ' + document.readyState") != f"{url} complete":
            await trio.sleep(0.02)


async def test_new_documents_come_with_the_agent_and_no_install_sends_it_again(
        tab: Tab, chromium: LaunchedChromium, server: FixtureServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    first = await open_page(tab, server, "/big.html?n=5")  # installs, and preinstalls
    sent: list[str] = []
    evaluate_in = PageAgent._evaluate_in

    async def recording(self: PageAgent, context: int, expression: str, **kw: Any) -> Any:
        sent.append(expression)
        return await evaluate_in(self, context, expression, **kw)

    monkeypatch.setattr(PageAgent, "_evaluate_in", recording)
    # A document cdpseq did not navigate to has the agent before cdpseq asks for anything.
    await _loaded(tab, server.url("/big.html?n=5&next"))
    assert tab.frame_id is not None
    assert await _agent_version_in(tab, tab.frame_id) == AGENT_VERSION
    second = await read_page(tab)
    assert [e.name for e in second.elements] == [e.name for e in first.elements]
    assert min(int(e.ref[4:]) for e in second.elements) > max(
        int(e.ref[4:]) for e in first.elements)  # numbered above the previous document
    # Another process's first read of the document does not send the agent either.
    async with open_browser(chromium.endpoint) as other:
        theirs = await read_page(await other.tab(tab.id))
    assert [e.ref for e in theirs.elements] == [e.ref for e in second.elements]
    assert sent and not any(AGENT_SCRIPT in expression for expression in sent)
    # Frames inside the document are read through it: they get no agent of their own.
    await _loaded(tab, server.url("/frames.html"))
    tree = await tab.send(page.GetFrameTree())
    assert await _agent_version_in(tab, tree.frameTree.frame.id) == AGENT_VERSION
    children = tree.frameTree.childFrames or []
    assert children and all([await _agent_version_in(tab, child.frame.id) is None
                             for child in children])
