"""The documentation holds together: every relative link in README.md and docs/ reaches a file
and, when it names one, a heading there; the README stays a front page; and the command-line
example ./tools/demo suggests at its end is the README's."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.paths import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``path``: lower case, punctuation dropped, spaces
    as hyphens."""
    text = FENCE.sub("", path.read_text())
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.MULTILINE):
        found.add(re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-"))
    return found


def links(path: Path) -> list[str]:
    return [m for m in LINK.findall(FENCE.sub("", path.read_text()))
            if not re.match(r"[a-z]+:", m)]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_reaches_its_file_and_heading(doc: Path) -> None:
    broken = []
    for link in links(doc):
        target, _, anchor = link.partition("#")
        path = (doc.parent / target).resolve() if target else doc
        if not path.exists():
            broken.append(f"{link}: no file {target}")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{link}: no heading #{anchor} in {path.relative_to(ROOT)}")
    assert not broken, broken


def test_the_link_check_finds_a_broken_anchor(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Title\n\n## Some `code`: here\n\nSee [x](#some-code-here).\n")
    assert "some-code-here" in anchors(tmp_path / "a.md")
    assert "missing" not in anchors(tmp_path / "a.md")


def test_the_readme_is_a_front_page() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; move detail into docs/"


def test_the_demo_suggests_the_readmes_command_line_example() -> None:
    """Every command ./tools/demo prints under "Next, try" is in the README's example."""
    tree = ast.parse((ROOT / "tools" / "demo.py").read_text())
    next_text = next(ast.literal_eval(node.value) for node in ast.walk(tree)
                     if isinstance(node, ast.Assign)
                     and any(isinstance(t, ast.Name) and t.id == "NEXT" for t in node.targets))
    readme = {line.split("#")[0].strip() for line in (ROOT / "README.md").read_text().splitlines()}
    commands = [line.split("#")[0].strip() for line in next_text.splitlines()
                if line.startswith("  ")]
    assert len(commands) >= 8
    missing = [c for c in commands if c not in readme]
    assert not missing, f"tools/demo.py suggests commands README.md does not show: {missing}"
