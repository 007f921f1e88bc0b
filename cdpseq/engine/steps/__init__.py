"""The step executors, one per step type, grouped by family in this package's modules."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ..request import (
    Back,
    Check,
    Click,
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
    TypeText,
    Uncheck,
    Wait,
    WaitFor,
)
from . import capture, extract, forms, navigation, observation, pointer, text
from .context import StepContext, StepError

Executor = Callable[[StepContext, Any], Awaitable[Any]]

EXECUTORS: Mapping[type[Any], Executor] = {
    Click: pointer.click, Hover: pointer.hover, Scroll: pointer.scroll,
    Fill: text.fill, TypeText: text.type_text, Press: text.press,
    Check: forms.check, Uncheck: forms.uncheck, Select: forms.select,
    Navigate: navigation.navigate, Back: navigation.back, Forward: navigation.forward,
    Reload: navigation.reload,
    WaitFor: observation.wait_for, ReadPage: observation.read_page, Wait: observation.wait,
    Screenshot: capture.screenshot, Extract: extract.extract,
}
"""The executor of each step type."""

__all__ = ["EXECUTORS", "Executor", "StepContext", "StepError"]
