"""screenshot and extract through the doors (issue 13): MCP carries a screenshot as an image
content item (not base64 in the text or the JSON); the CLI's text rendering names the image
and prints the extract, and --screenshot-dir writes the files."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import pytest
import trio
from PIL import Image

from cdpseq import LaunchedChromium
from fixtures.server import FixtureServer
from tests.front.test_cli_act import _new_tab, act, cli, env, parse_result  # noqa: F401 - a fixture
from tests.front.test_mcp import TIMEOUT, mcp_server


@pytest.mark.browser
@pytest.mark.daemon_free
async def test_mcp_answers_a_screenshot_as_an_image_content_item(
        tmp_path: Path, server: FixtureServer) -> None:
    with trio.fail_after(TIMEOUT):
        async with mcp_server(tmp_path) as served:
            opened = await served.call("tabs", {"action": "new",
                                                "url": server.url("/capture.html")})
            assert not opened.is_error, opened.text
            reply = await served.call("act", {"steps": [
                {"type": "screenshot", "selector": "#badge"},
                {"type": "extract", "format": "text", "selector": "header"}]})
    assert not reply.is_error, reply.text
    images = [block for block in reply.wire["content"] if block["type"] == "image"]
    assert len(images) == 1 and images[0]["mimeType"] == "image/png"
    image = Image.open(io.BytesIO(base64.b64decode(images[0]["data"])))
    assert image.format == "PNG" and image.width >= 120
    output = reply.structured["steps"][0]["output"]
    assert "data" not in output and output["image"] == 1
    assert output["width"] == image.width
    assert images[0]["data"][:40] not in reply.text  # the base64 travels once
    assert "▣ step 0 screenshot: png" in reply.text and "image 1 of this result" in reply.text
    assert "Acme — capture test" in reply.text  # the extract is in the text for the model


def test_cli_text_names_the_image_and_screenshot_dir_writes_it(
        env: dict[str, str], chromium: LaunchedChromium, server: FixtureServer,  # noqa: F811
        tmp_path: Path) -> None:
    tab = _new_tab(chromium, server.url("/capture.html"))
    steps = [{"type": "screenshot"}, {"type": "extract", "selector": "header", "format": "text"}]
    shown = act(env, chromium, {"tabId": tab, "steps": steps}, "--format", "text")
    assert shown.returncode == 0, shown.stderr
    assert "▣ step 0 screenshot: png" in shown.stdout and "--screenshot-dir" in shown.stdout
    assert len(shown.stdout) < 2000  # no base64
    assert "▤ step 1 extract text from header:\nAcme — capture test" in shown.stdout
    saved = act(env, chromium, {"tabId": tab, "steps": steps}, "--screenshot-dir",
                str(tmp_path / "shots"))
    assert saved.returncode == 0, saved.stderr
    output = parse_result(saved.stdout)["steps"][0]["output"]
    assert "data" not in output and output["path"] == str(tmp_path / "shots" / "step-0.png")
    with Image.open(output["path"]) as image:
        assert image.size == (output["width"], output["height"])
    assert json.dumps(output)


def test_cli_read_page_takes_the_read_options(env: dict[str, str],  # noqa: F811
                                              chromium: LaunchedChromium,
                                              server: FixtureServer) -> None:
    tab = _new_tab(chromium, server.url("/regions.html"))
    shown = cli(env, "read-page", "--cdp", chromium.endpoint, "--tab", tab, "--selector",
                "aside", "--role", "checkbox", "--max-elements", "1", "--bounds")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[1].startswith("[ref_") and 'checkbox "Open" checked box=' in lines[1]
    assert lines[2] == "… 1 more elements left out (maxElements 1)" and len(lines) == 3
    bad = cli(env, "read-page", "--cdp", chromium.endpoint, "--tab", tab, "--compression",
              "delta", "--viewport-only")
    assert bad.returncode == 2 and "viewportOnly" in bad.stderr
