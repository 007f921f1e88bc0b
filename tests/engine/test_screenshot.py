"""The screenshot step (issue 13): viewport, full page and one element, PNG and JPEG, decoded
and measured; the image's size read from its header."""

from __future__ import annotations

import base64
import io
from typing import Any

import pytest
from PIL import Image

from cdpseq import Tab, act
from cdpseq.engine.steps.capture import image_size
from fixtures.server import FixtureServer
from tests.helpers import js, open_page

RED = (220, 38, 38)
BLUE = (30, 64, 175)


async def shoot(tab: Tab, **step: Any) -> tuple[dict[str, Any], Image.Image]:
    result = await act(tab, [{"type": "screenshot", **step}])  # returnMode final: still output
    assert result.ok, result.failed
    output = result.steps[0].output
    image = Image.open(io.BytesIO(base64.b64decode(output["data"])))
    assert image.size == (output["width"], output["height"])
    assert image.format == output["format"].upper()
    return output, image.convert("RGB")


def near(pixel: Any, colour: tuple[int, int, int], slack: int = 12) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(pixel, colour, strict=True))


async def test_the_viewport_by_default(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/capture.html")
    scale = await js(tab, "devicePixelRatio")
    width, height = await js(tab, "[innerWidth, innerHeight]")
    output, image = await shoot(tab)
    assert (output["width"], output["height"]) == (round(width * scale), round(height * scale))
    assert near(image.getpixel((5, 5)), BLUE)  # the header, at the top of the viewport
    assert "cut" not in output


async def test_the_full_page_beyond_the_viewport(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/capture.html")
    scale = await js(tab, "devicePixelRatio")
    output, image = await shoot(tab, fullPage=True)
    assert output["height"] == round(3000 * scale)  # header 100 + main 2900
    # the badge at (40, 100 + 1500), far below the fold
    assert near(image.getpixel((round(100 * scale), round(1630 * scale))), RED)


async def test_a_very_long_page_is_cut_and_says_so(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/capture.html")
    await js(tab, "document.querySelector('main').style.height = '11900px'")
    scale = await js(tab, "devicePixelRatio")
    output, image = await shoot(tab, fullPage=True, format="jpeg", quality=10)
    assert output["cut"] == {"width": output["cut"]["width"], "height": 12000,
                             "maxCssPx": 8000}
    assert image.height == round(8000 * scale)


async def test_one_element_is_scrolled_into_view_and_clipped_to_its_box(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/capture.html")
    scale = await js(tab, "devicePixelRatio")
    output, image = await shoot(tab, selector="#badge")
    assert (output["width"], output["height"]) == (round(120 * scale), round(60 * scale))
    colours = {image.getpixel((x, y)) for x in (0, image.width - 1) for y in (0, image.height - 1)}
    assert all(near(c, RED) for c in colours), colours  # every corner: nothing around it
    assert await js(tab, "scrollY") > 0  # it was scrolled into view


async def test_jpeg_quality_changes_the_bytes(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/capture.html")
    low, _ = await shoot(tab, format="jpeg", quality=5)
    high, high_image = await shoot(tab, format="jpeg", quality=95)
    assert low["format"] == "jpeg" and low["bytes"] < high["bytes"]
    assert near(high_image.getpixel((200, 50)), BLUE, slack=20)


async def test_a_hidden_element_fails_with_the_reason(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/capture.html")
    result = await act(tab, {"perStepTimeoutMs": 300,
                             "steps": [{"type": "screenshot", "selector": "#hidden-box"}]})
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE"
    assert "#hidden-box" in result.failed.error


@pytest.mark.parametrize(("step", "field"), [
    ({"type": "screenshot", "fullPage": True, "selector": "#badge"}, "steps[0].fullPage"),
    ({"type": "screenshot", "quality": 50}, "steps[0].quality"),
    ({"type": "screenshot", "format": "gif"}, "steps[0].format"),
])
async def test_bad_options_are_refused_naming_the_field(tab: Tab, step: dict[str, Any],
                                                        field: str) -> None:
    result = await act(tab, [step])
    assert result.failed is not None and result.failed.code == "INVALID_REQUEST"
    assert field in result.failed.error


def test_image_size_reads_png_and_jpeg_headers() -> None:
    for fmt in ("PNG", "JPEG"):
        buffer = io.BytesIO()
        Image.new("RGB", (37, 11), RED).save(buffer, fmt)
        assert image_size(buffer.getvalue()) == (37, 11)
    with pytest.raises(ValueError):
        image_size(b"GIF89a....")
