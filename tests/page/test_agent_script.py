"""The in-page agent is assembled from its parts (``page/script.py``): every part is in, once and
in order, no two parts declare the same name, every entry point is declared, and the assembled
script installs in a real isolated world."""

from __future__ import annotations

import re
from pathlib import Path

from cdpseq import Tab
from cdpseq.cdp import page, runtime
from cdpseq.page import script
from cdpseq.page.script import AGENT_PARTS, AGENT_SCRIPT, agent_part, assemble_agent

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
