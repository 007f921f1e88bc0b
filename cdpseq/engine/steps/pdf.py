"""The pdf step: the page printed as Chrome prints it (``Page.printToPDF``), to a file or base64.

Chromium prints only when headless; a headed one answers that printing is not available, which
the step reports as NOT_ACTIONABLE saying so. The request was checked at the door (the paper
size, the file's directory); a file is written whole or not at all (a partial
file next to it, then renamed), so a reader never sees half a PDF.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any

import trio

from ...cdp import page
from ...errors import ProtocolError
from ..request import PAPER_FORMATS, Pdf
from .context import REPORT_MARGIN, StepContext, StepError


async def pdf(ctx: StepContext, step: Pdf) -> Any:
    """Print the page; the output names the file written, or carries the PDF in base64."""
    width, height = PAPER_FORMATS[step.paper]
    command = page.PrintToPDF(
        landscape=step.landscape or None, printBackground=step.print_background or None,
        paperWidth=width, paperHeight=height)
    try:
        with trio.move_on_at(ctx.deadline - REPORT_MARGIN):
            printed = await ctx.tab.send(command)
            data = base64.b64decode(printed.data)
            if step.path is None:
                return {"format": "pdf", "bytes": len(data), "data": printed.data}
            written = await trio.to_thread.run_sync(_write_whole, step.path, data)
            return {"format": "pdf", "bytes": len(data), "path": written}
    except ProtocolError as exc:
        raise StepError("NOT_ACTIONABLE", f"the browser could not print the page: "
                        f"{exc.message} (Chromium prints to PDF only when headless)",
                        True) from None
    except OSError as exc:
        raise StepError("NOT_ACTIONABLE", f"cannot write {step.path}: {exc.strerror}",
                        False) from None
    raise StepError("NOT_ACTIONABLE", "the page was not printed before the step's deadline",
                    True)


def _write_whole(name: str, data: bytes) -> str:
    """Write ``data`` to ``name`` whole; its absolute path."""
    path = Path(name).absolute()
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        partial.write_bytes(data)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return str(path)
