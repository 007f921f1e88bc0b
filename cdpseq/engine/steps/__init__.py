"""The step executors, one per step type, grouped by family in this package's modules."""

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
    Navigate,
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
from . import capture, extract, files, forms, navigation, observation, pointer, script, text
from .context import StepContext, StepError
from .drag import drag
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
    Screenshot: capture.screenshot, Extract: extract.extract,
}
"""The executor of each step type."""

__all__ = ["EXECUTORS", "Executor", "StepContext", "StepError"]
