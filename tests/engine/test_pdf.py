"""The pdf step: the page printed by headless Chromium to a file or base64, checked as a PDF
(its header, its pages and their size read from the file itself), its options checked at the
door, and the step accepted over the CLI and MCP."""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from cdpseq import LaunchedChromium, Tab, act
from cdpseq.front.mcp_schema import act_tool_input_schema
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, run

LONG_PAGE = ("document.body.innerHTML = Array.from({length: 300}, (_, i) => "
             "`<p>paragraph ${i}</p>`).join('')")


def pages_of(pdf: bytes) -> list[tuple[float, float]]:
    """(width, height) in points of each page, from the page objects' MediaBox."""
    assert pdf.startswith(b"%PDF-")
    boxes = re.findall(rb"/Type\s*/Page\b(?!s).*?/MediaBox\s*\[\s*([\d.\s]+)\]", pdf, re.S)
    if not boxes:  # the box may come before the type in the page's dictionary
        boxes = re.findall(rb"/MediaBox\s*\[\s*([\d.\s]+)\]", pdf)
    sizes = []
    for box in boxes:
        x0, y0, x1, y1 = (float(v) for v in box.split())
        sizes.append((x1 - x0, y1 - y0))
    return sizes


def page_count(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))


async def test_prints_to_a_file_relative_to_the_working_directory(
        tab: Tab, server: FixtureServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    await open_page(tab, server, "/index.html")
    monkeypatch.chdir(tmp_path)
    result = await run(tab, {"type": "pdf", "path": "out.pdf", "paper": "a4"})
    output = result.steps[0].output
    written = tmp_path / "out.pdf"
    assert output == {"format": "pdf", "bytes": written.stat().st_size, "path": str(written)}
    pdf = written.read_bytes()
    assert pdf.startswith(b"%PDF-") and page_count(pdf) == 1
    width, height = pages_of(pdf)[0]
    assert abs(width - 595.3) < 1 and abs(height - 841.9) < 1  # A4 in points
    assert not list(tmp_path.glob(".*partial"))  # noqa: ASYNC240 - a test's own directory


async def test_base64_without_a_path_and_the_options_take_effect(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/index.html")
    await js(tab, LONG_PAGE)
    whole = await run(tab, {"type": "pdf"})
    pdf = base64.b64decode(whole.steps[0].output["data"])
    assert whole.steps[0].output["bytes"] == len(pdf)
    assert page_count(pdf) > 2
    width, height = pages_of(pdf)[0]
    assert (round(width), round(height)) == (612, 792)  # letter, portrait, by default
    turned = await run(tab, {"type": "pdf", "paper": "legal", "landscape": True,
                             "printBackground": True})
    legal = base64.b64decode(turned.steps[0].output["data"])
    width, height = pages_of(legal)[0]
    assert (round(width), round(height)) == (1008, 612)  # 14 x 8.5 inches, turned
    assert page_count(legal) > page_count(pdf)  # 8.5 in high, not 11: more pages


@pytest.mark.parametrize(("step", "field", "reason"), [
    ({"path": "no-such-dir/out.pdf"}, "steps[0].path", "does not exist"),
    ({"path": "."}, "steps[0].path", "is a directory"),
    ({"path": ""}, "steps[0].path", ""),
    ({"paper": "a9"}, "steps[0].paper", ""),
    ({"landscape": "yes"}, "steps[0].landscape", ""),
    ({"pageRanges": "1-2"}, "steps[0]", "pageRanges"),
    ({"target": "ref_1"}, "steps[0]", ""),
])
async def test_bad_options_are_refused_naming_the_field(
        tab: Tab, step: dict[str, Any], field: str, reason: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = await act(tab, [{"type": "pdf", **step}])
    assert result.failed is not None and result.failed.code == "INVALID_REQUEST"
    assert result.failed.error.startswith(field) and reason in result.failed.error
    assert list(tmp_path.iterdir()) == []  # noqa: ASYNC240 - a test's own directory


def test_the_mcp_act_tool_takes_the_pdf_step() -> None:
    schema = act_tool_input_schema()["$defs"]["step"]
    assert "pdf" in schema["properties"]["type"]["enum"]
    assert {"path", "paper", "printBackground", "landscape"} <= set(schema["properties"])


async def test_the_cli_act_writes_it(chromium: LaunchedChromium, server: FixtureServer,
                                     tmp_path: Path) -> None:
    steps = [{"type": "navigate", "url": server.url("/index.html")},
             {"type": "pdf", "path": "page.pdf", "printBackground": True}]
    done = await trio.to_thread.run_sync(lambda: subprocess.run(
        [sys.executable, "-m", "cdpseq", "act", "--cdp", chromium.endpoint, "--steps", "-"],
        input=json.dumps(steps), capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}))
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["steps"][1]["output"]["path"] == str(tmp_path / "page.pdf")
    assert (tmp_path / "page.pdf").read_bytes().startswith(b"%PDF-")
