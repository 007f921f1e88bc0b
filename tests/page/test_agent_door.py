"""One door to the in-page agent: its entry points (``__cdpseq.``) are spelled in ``cdpseq/page/``
only, so a change to the JavaScript side has one Python module to follow it. No browser."""

from __future__ import annotations

from pathlib import Path

import cdpseq

PACKAGE = Path(cdpseq.__file__).parent


def _spelling_the_agent(root: Path) -> set[str]:
    return {path.relative_to(PACKAGE).as_posix() for path in root.rglob("*.py")
            if "__cdpseq." in path.read_text(encoding="utf-8")}


def test_no_module_outside_the_page_package_calls_the_agent_by_name() -> None:
    outside = {name for name in _spelling_the_agent(PACKAGE) if not name.startswith("page/")}
    assert outside == set()


def test_inside_the_page_package_the_entry_points_are_spelled_in_one_module() -> None:
    assert _spelling_the_agent(PACKAGE / "page") == {"page/entries.py"}

