"""The screenshot step: the viewport, the full page, or one element, as PNG or JPEG.

Chromium draws the image (``Page.captureScreenshot``); this module only chooses the clip. The
viewport is captured as it is. The full page is captured beyond the viewport from the document's
top left, cut at ``MAX_CAPTURE_CSS_PX`` in each direction. An element is first scrolled into
view (the agent's ``scrollIntoView``, retried while it is hidden or missing, as an action's
target is), then clipped to the union of its border quads as the browser lays them out
(transforms and frames included), moved from viewport to document coordinates (a clip is in
document coordinates) and cut the same way. The output reports the image's real size in pixels,
read from its own header: on a screen with a device scale factor of 2 it is twice the CSS size.

A tab behind another tab of its window gets no new frame drawn (in a headless window, every tab
but the newest), and ``Page.captureScreenshot`` waits for one: measured on Chromium 156
headless, 3.5 s at best and often far longer (95 s), and focus emulation, a screencast or
``fromSurface: false`` do not change that. In a headless browser, where no person looks at any
tab, the tab is brought to the front (``Page.bringToFront``) in the capture's round trip: 0.1 s.
In a browser with a screen (a person's own Chrome) cdpseq never takes the foreground from the
tab the person looks at: the capture waits until just before the step's deadline, then fails
saying how to bring the tab to the front.
"""

from __future__ import annotations

import base64
import struct
from typing import Any

import trio

from ...cdp import page
from ...errors import ProtocolError
from ..request import MAX_CAPTURE_CSS_PX, Screenshot
from .context import REPORT_MARGIN, StepContext, StepError, target_of, until_ready

_DEFAULT_JPEG_QUALITY = 80


async def screenshot(ctx: StepContext, step: Screenshot) -> Any:
    """Capture the viewport, the full page or one element; the image in base64."""
    target = target_of(step)
    metrics = await ctx.tab.send(page.GetLayoutMetrics())
    note: dict[str, Any] = {}
    clip: page.Viewport | None = None
    if target is not None:
        await until_ready(ctx, target, "scrollIntoView", {"visible": True})
        metrics = await ctx.tab.send(page.GetLayoutMetrics())  # the scroll moved the viewport
        quads = await ctx.agent.content_quads(target)
        if not quads:
            raise StepError("NOT_ACTIONABLE", "the element has no box to capture", True)
        xs = [quad[i] for quad in quads for i in (0, 2, 4, 6)]
        ys = [quad[i] for quad in quads for i in (1, 3, 5, 7)]
        left, top = min(xs), min(ys)
        width, height = max(xs) - left, max(ys) - top
        if width < 1 or height < 1:
            raise StepError("NOT_ACTIONABLE", f"the element's box is {width:g}x{height:g} px: "
                                              "nothing to capture", True)
        viewport = metrics.cssVisualViewport
        clip = _cut(left + viewport.pageX, top + viewport.pageY, width, height, note)
    elif step.full_page:
        size = metrics.cssContentSize
        clip = _cut(0, 0, size.width, size.height, note)
    quality = step.quality if step.quality is not None else _DEFAULT_JPEG_QUALITY
    capture = page.CaptureScreenshot(
        format=step.format, quality=quality if step.format == "jpeg" else None, clip=clip,
        captureBeyondViewport=clip is not None or None)
    headless = is_headless(ctx.tab.browser.version.user_agent)
    try:
        with trio.move_on_at(ctx.deadline - REPORT_MARGIN):
            *_, shot = await ctx.tab.send_all(*([page.BringToFront()] if headless else []),
                                              capture)
            return _output(step, shot.data, note)
    except ProtocolError as exc:
        raise StepError("NOT_ACTIONABLE", f"the browser could not capture it: {exc.message}",
                        True) from None
    raise StepError("NOT_ACTIONABLE", "Chrome drew no frame of the tab to capture: it draws "
                    "none for a tab behind another tab of its window. Bring it to the front "
                    "first (cdpseq tabs select ID; MCP tabs, action select): cdpseq does not take "
                    "the foreground from the tab a person is looking at", True)


def is_headless(user_agent: str) -> bool:
    """Whether the browser has no screen (it says HeadlessChrome in its user agent, old and new
    headless alike): no person looks at any of its tabs."""
    return "HeadlessChrome/" in user_agent


def _output(step: Screenshot, data_b64: str, note: dict[str, Any]) -> dict[str, Any]:
    data = base64.b64decode(data_b64)
    width_px, height_px = image_size(data)
    return {"format": step.format, "width": width_px, "height": height_px,
            "bytes": len(data), **note, "data": data_b64}


def _cut(x: float, y: float, width: float, height: float, note: dict[str, Any]
         ) -> page.Viewport:
    """A clip at most ``MAX_CAPTURE_CSS_PX`` on each side; ``note`` says what was cut off."""
    if width > MAX_CAPTURE_CSS_PX or height > MAX_CAPTURE_CSS_PX:
        note["cut"] = {"width": round(width), "height": round(height),
                       "maxCssPx": MAX_CAPTURE_CSS_PX}
    return page.Viewport(x=x, y=y, width=min(width, MAX_CAPTURE_CSS_PX),
                         height=min(height, MAX_CAPTURE_CSS_PX), scale=1)


def image_size(data: bytes) -> tuple[int, int]:
    """(width, height) in pixels of a PNG or JPEG, from its header; ValueError for anything
    else."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if data[:2] == b"\xff\xd8":
        at = 2
        while at + 9 < len(data):
            if data[at] != 0xFF:
                at += 1
                continue
            marker = data[at + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
                at += 1 if marker == 0xFF else 2
                continue
            length = struct.unpack(">H", data[at + 2:at + 4])[0]
            # SOF0-SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                height, width = struct.unpack(">HH", data[at + 5:at + 9])
                return width, height
            at += 2 + length
    raise ValueError("not a PNG or JPEG image")
