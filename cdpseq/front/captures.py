"""What the doors do with the outputs of screenshot and extract steps.

A screenshot's base64 is for programs, not for reading: the text rendering names the image
instead of printing it; MCP moves it out of the JSON into an image content item (the JSON keeps
``image``: its position among the call's images); the CLI's ``--screenshot-dir`` writes it to a
file (the JSON keeps ``path``). An extract's content is for reading: the text rendering prints
it under a line saying where it came from. A pdf step's is named by its size and file.
"""

from __future__ import annotations

import base64
import os
from typing import Any

import msgspec

from ..engine.result import ActResult, StepResult

MIME_TYPES = {"png": "image/png", "jpeg": "image/jpeg"}


def _is_screenshot(step: StepResult) -> bool:
    return (step.type == "screenshot" and isinstance(step.output, dict)
            and "format" in step.output)


def output_lines(result: ActResult) -> list[str]:
    """Lines of the text rendering for the screenshot and extract outputs of a result."""
    lines: list[str] = []
    for step in result.steps:
        output = step.output
        if not isinstance(output, dict):
            continue
        if _is_screenshot(step):
            where = (f"saved to {output['path']}" if "path" in output else
                     f"image {output['image']} of this result" if "image" in output else
                     "base64 in the JSON output (--format json, or --screenshot-dir DIR)")
            cut = output.get("cut")
            cut_note = (f", cut from {cut['width']}x{cut['height']} CSS px at "
                        f"{cut['maxCssPx']}" if cut else "")
            lines.append(f"▣ step {step.index} screenshot: {output['format']} "
                         f"{output['width']}x{output['height']}{cut_note}, {where}")
        elif step.type == "pdf" and "bytes" in output:
            where = (f"saved to {output['path']}" if "path" in output
                     else "base64 in the JSON output (or give the step a path)")
            lines.append(f"▤ step {step.index} pdf: {output['bytes']} bytes, {where}")
        elif step.type == "extract" and "format" in output:
            if output["format"] == "form":
                values = msgspec.json.encode(output["values"]).decode()
                lines.append(f"▤ step {step.index} extract form from {output['from']}: {values}")
                continue
            more = (f", truncated from {output['chars']} chars" if output.get("truncated")
                    else "")
            lines.append(f"▤ step {step.index} extract {output['format']} from "
                         f"{output['from']}{more}:")
            lines.append(output["content"])
    return lines


def move_images(result: ActResult, structured: dict[str, Any],
                images: list[tuple[str, str]] | None = None) -> list[tuple[str, str]]:
    """Take the screenshots' base64 out of a result and its JSON form: (mime type, data) per
    image, in step order, appended to ``images``; each output keeps ``image`` (its number in
    ``images``, from 1) in place of ``data``."""
    images = [] if images is None else images
    for step, shown in zip(result.steps, structured.get("steps", []), strict=True):
        output = shown.get("output")
        if _is_screenshot(step) and isinstance(output, dict) and "data" in output:
            images.append((MIME_TYPES[output["format"]], output.pop("data")))
            output["image"] = len(images)
            step.output = output
    return images


def save_images(result: ActResult, directory: str) -> None:
    """Write each screenshot of ``result`` to ``directory`` (made if missing) as
    ``step-<index>.<format>``; its output keeps ``path`` in place of ``data``. Raises OSError."""
    os.makedirs(directory, exist_ok=True)
    for step in result.steps:
        output = step.output
        if _is_screenshot(step) and isinstance(output, dict) and "data" in output:
            path = os.path.abspath(os.path.join(directory,
                                                f"step-{step.index}.{output['format']}"))
            with open(path, "wb") as file:
                file.write(base64.b64decode(output.pop("data")))
            output["path"] = path
