"""The map a newcomer reads first is checked, so it cannot drift (no browser needed).

- Each package's docstring names every module of the package, one ``- ``name``: ...`` line
  each, and names no module that is not there.
- ``cdpseq.__all__`` and ``cdpseq.lowlevel.__all__`` are sorted, every name in them exists, and
  every public name the namespace holds is in them (as httpx checks its own).
- Every public class and function of ``cdpseq/`` has a docstring (AST, hand-written code only).
"""

from __future__ import annotations

import ast
import importlib
import re
import types
from pathlib import Path

import pytest

import cdpseq
import cdpseq.lowlevel
from tests.paths import ROOT

PACKAGE = ROOT / "cdpseq"
GENERATED = PACKAGE / "cdp"

# A line of a package docstring that names one module: ``- ``name``: what it holds``.
MODULE_LINE = re.compile(r"^- ``(?:cdpseq\.)?([\w.]+)``[:,]", re.M)


def packages() -> list[Path]:
    return sorted(init.parent for init in PACKAGE.rglob("__init__.py")
                  if "__pycache__" not in init.parts)


def modules_of(package: Path) -> set[str]:
    """The modules and subpackages a package holds (``__init__`` aside)."""
    found = {path.stem for path in package.glob("*.py") if path.stem != "__init__"}
    found |= {path.name for path in package.iterdir()
              if path.is_dir() and (path / "__init__.py").exists()}
    return found


def docstring_of(package: Path) -> str:
    return ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""


@pytest.mark.parametrize("package", [p for p in packages() if p != GENERATED],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_package_docstring_names_each_of_its_modules_once(package: Path) -> None:
    named = MODULE_LINE.findall(docstring_of(package))
    assert len(named) == len(set(named)), f"a module named twice: {named}"
    assert set(named) == modules_of(package), (
        f"missing from the docstring: {sorted(modules_of(package) - set(named))}; "
        f"named but not there: {sorted(set(named) - modules_of(package))}")


def test_the_generated_bindings_package_holds_one_module_per_domain() -> None:
    # tools/gen_protocol.py writes cdpseq/cdp/__init__.py; it names its modules as a group and
    # imports each one, so the imports are its map: every module there, nothing else.
    tree = ast.parse((GENERATED / "__init__.py").read_text())
    imported = {alias.name for node in tree.body if isinstance(node, ast.ImportFrom)
                and node.level == 1 and node.module is None for alias in node.names}
    assert imported == modules_of(GENERATED)
    assert "one module per domain" in docstring_of(GENERATED)


# Typing aliases (a Literal, a Union of Structs) have no module of their own to report.
ALIASES = {"ErrorCode", "Step"}


@pytest.mark.parametrize("namespace", [cdpseq, cdpseq.lowlevel], ids=lambda m: m.__name__)
def test_all_is_sorted_exists_and_is_complete(namespace: types.ModuleType) -> None:
    exported: list[str] = namespace.__all__
    assert exported == sorted(exported)
    assert len(exported) == len(set(exported))
    missing = [name for name in exported if not hasattr(namespace, name)]
    assert not missing
    # Subpackages are bound on their parent once imported; they are the map, not exports.
    public = {name for name, value in vars(namespace).items() if not name.startswith("_")
              and not (isinstance(value, types.ModuleType) and name not in exported)
              and name != "annotations"}
    assert public == set(exported), (sorted(public - set(exported)),
                                     sorted(set(exported) - public))
    for name in exported:
        value = getattr(namespace, name)
        if isinstance(value, types.ModuleType):
            assert value.__name__.startswith("cdpseq."), name
        elif name in ALIASES:
            assert getattr(value, "__module__", None) == "typing", name
        else:
            home = getattr(value, "__module__", None) or type(value).__module__
            assert home.startswith("cdpseq."), (name, home)
            assert getattr(importlib.import_module(home), name, None) is value, (name, home)


def test_the_top_level_is_the_act_api_and_the_wire_is_below_it() -> None:
    assert {"act", "act_many", "read_page", "open_browser", "launch_browser", "Browser", "Tab",
            "ActRequest", "ActResult", "PageView", "CdpseqError"} <= set(cdpseq.__all__)
    assert not {"Connection", "open_connection", "RawEvent", "ANY_SESSION",
                "cdp"} & set(cdpseq.__all__)
    assert cdpseq.lowlevel.open_connection is importlib.import_module(
        "cdpseq.wire.connection").open_connection




def undocumented(path: Path) -> list[str]:
    """The public classes, functions and methods of one module that have no docstring."""
    lacking: list[str] = []

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if not isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if node.name.startswith("_") or any(  # typing.overload stubs share one docstring
                    isinstance(d, ast.Name) and d.id == "overload" for d in node.decorator_list):
                continue
            if ast.get_docstring(node) is None:
                lacking.append(f"{prefix}{node.name} (line {node.lineno})")
            if isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")

    visit(ast.parse(path.read_text()).body, "")
    return lacking


def hand_written() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if GENERATED not in path.parents
                  and "__pycache__" not in path.parts)


@pytest.mark.parametrize("module", hand_written(),
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_public_class_and_function_has_a_docstring(module: Path) -> None:
    assert not undocumented(module)

