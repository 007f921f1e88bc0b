"""The step executors, one per step type, grouped by family; ``EXECUTORS`` maps each to its type.

- ``context``: what every executor shares (``StepContext``, ``StepError``, waiting for a target).
- ``pointer``: click, hover and scroll, verified where the input lands.
- ``touch``: tap and swipe, as a finger's touch events.
- ``drag``: drag from one element to another (or an offset), HTML5 or mouse-driven.
- ``text``: fill, type and press.
- ``forms``: check, uncheck and select, each verified afterwards.
- ``files``: upload into a file input (files checked before step 0) and clear a field.
- ``navigation``: navigate, back, forward and reload, each done when the new document is.
- ``observation``: wait_for, read_page and wait, which look and change nothing.
- ``script``: evaluate, a JavaScript expression's value, off unless the browser allows it.
- ``capture``: screenshot of the viewport, the full page or one element.
- ``pdf``: the page printed to PDF, to a file or base64.
- ``extract``: the page's content or one element as Markdown or text, or a form's values.
- ``logs``: the tab's recent console messages and requests (``engine/effects``), filtered.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ..request import (
    Back,
    Check,
    Clear,
    Click,
    Drag,
    Evaluate,
    Extract,
    Fill,
    Forward,
    Hover,
    Logs,
    Navigate,
    Pdf,
    Press,
    ReadPage,
    Reload,
    Screenshot,
    Scroll,
    Select,
    Swipe,
    Tap,
    TypeText,
    Uncheck,
    Upload,
    Wait,
    WaitFor,
)
from . import capture, extract, files, forms, navigation, observation, pdf, pointer, script, text
from .context import StepContext, StepError
from .drag import drag
from .logs import logs
from .touch import swipe, tap

Executor = Callable[[StepContext, Any], Awaitable[Any]]

EXECUTORS: Mapping[type[Any], Executor] = {
    Click: pointer.click, Hover: pointer.hover, Scroll: pointer.scroll,
    Fill: text.fill, TypeText: text.type_text, Press: text.press,
    Check: forms.check, Uncheck: forms.uncheck, Select: forms.select,
    Navigate: navigation.navigate, Back: navigation.back, Forward: navigation.forward,
    Reload: navigation.reload,
    WaitFor: observation.wait_for, ReadPage: observation.read_page, Wait: observation.wait,
    Upload: files.upload, Clear: files.clear, Evaluate: script.evaluate,
    Tap: tap, Swipe: swipe, Drag: drag,
    Screenshot: capture.screenshot, Extract: extract.extract, Pdf: pdf.pdf, Logs: logs,
}
"""The executor of each step type."""

__all__ = ["EXECUTORS", "Executor", "StepContext", "StepError"]
