"""The architecture is checked, not hoped for: import-linter's contracts in pyproject.toml hold
for the package, and they fail when a module imports upwards, makes a cycle, or gives a pure
core I/O."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the package under ``root``, with that package first on the path."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_package_keeps_every_contract() -> None:
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout and "5 kept" in run.stdout


@pytest.mark.parametrize(("module", "line", "broken"), [
    ("wire/router.py", "from ..engine import request", "cdpseq.wire is not allowed to import "
                                                       "cdpseq.engine"),
    ("page/view.py", "from .read import read_view", "No cycles are allowed in cdpseq.page"),
    ("engine/settle_decision.py", "import trio",
     "cdpseq.engine.settle_decision is not allowed to import trio"),
    ("front/mcp_server.py", "import mcp", "cdpseq is not allowed to import mcp"),
    ("front/mcp_rpc.py", "import trio", "cdpseq.front.mcp_rpc is not allowed to import trio"),
    ("front/client.py", "from . import cli",
     "cdpseq.front.client is not allowed to import cdpseq.front.cli"),
])
def test_a_violation_breaks_a_contract(tmp_path: Path, module: str, line: str,
                                       broken: str) -> None:
    shutil.copytree(ROOT / "cdpseq", tmp_path / "cdpseq",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    with open(tmp_path / "cdpseq" / module, "a") as source:
        source.write(f"\n{line}  # the violation under test\n")
    run = lint_imports(tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert broken in run.stdout, run.stdout
