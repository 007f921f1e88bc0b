"""Observation steps: wait_for, read_page and wait. They look at the page and change nothing."""

from __future__ import annotations

from typing import Any

import msgspec
import trio

from ...page.agent import AgentError
from ...page.frames import text_condition_holds
from ...page.read import read_view
from ...page.view import ReadOptions
from ..request import ReadPage, Wait, WaitFor
from .context import REPORT_MARGIN, StepContext, StepError, retrying, target_of

_FRAMES_SLICE_MS = 100


async def wait_for(ctx: StepContext, step: WaitFor) -> Any:
    """Wait until an element is in a state, a text shows, or the page is stable."""
    if step.stable:
        if ctx.watch is None:
            raise StepError("WAIT_TIMEOUT", "the page cannot be watched (is the tab alive?)")
        report = await ctx.watch.settle(max(ctx.remaining() - REPORT_MARGIN, 0))
        if not report["stable"]:
            raise StepError("WAIT_TIMEOUT", f"not stable: {report['unstableReason']}",
                            retryable=True)
        return report
    condition: dict[str, Any]
    if step.text is not None:
        condition = {"text": step.text}
    elif step.text_gone is not None:
        condition = {"textGone": step.text_gone}
    elif step.url is not None:
        condition = {"url": step.url}
    else:
        condition = {"selector": step.selector, "state": step.state}
    started = trio.current_time()
    # Text in out-of-process iframes counts too: the page is then asked in short slices.
    framed = ("text" in condition or "textGone" in condition) and bool(ctx.tab.frames)
    while True:
        budget_ms = int(max(ctx.remaining() - REPORT_MARGIN, 0) * 1000)
        if framed:
            budget_ms = min(budget_ms, _FRAMES_SLICE_MS)
        try:
            matched = (await ctx.agent.wait_for(condition, budget_ms)).matched
            if framed:
                matched = await text_condition_holds(ctx.agent, condition, matched)
        except AgentError as exc:
            if exc.code != "NAVIGATION_FAILED" and exc.code != "AGENT_FAILED":
                raise
            if exc.code == "AGENT_FAILED" and "context" not in exc.message:
                raise StepError("INVALID_REQUEST", exc.message) from None
            matched = False
        if matched:
            return {**condition, "waitedMs": round((trio.current_time() - started) * 1000)}
        if ctx.remaining() <= REPORT_MARGIN * 2:
            what = ", ".join(f"{k}={v!r}" for k, v in condition.items())
            raise StepError("WAIT_TIMEOUT", f"{what} did not hold within "
                            f"{round((trio.current_time() - started) * 1000)} ms", True)


async def read_page(ctx: StepContext, step: ReadPage) -> Any:
    """Read the page (or a part of it) as the step asks, as a ``PageView``."""
    options = read_options(step)
    narrowed = options is not None and options.narrows()
    compression = "delta" if ctx.return_mode == "delta" and not narrowed else step.compression
    scope = target_of(step)
    if scope is None:
        view = await read_view(ctx.agent, step.filter, compression, options)
    else:  # a scope that is not there yet is waited for, as an action's target is
        view = await retrying(ctx, scope, lambda _: read_view(ctx.agent, step.filter,
                                                              compression, options))
    return msgspec.structs.replace(view, tab=None)  # the act result names its tab once


def read_options(step: ReadPage) -> ReadOptions | None:
    """The step's read options, or None when it has none."""
    options = ReadOptions(scope=target_of(step),
                          roles=tuple(step.roles) if step.roles is not None else None,
                          viewport_only=step.viewport_only, max_elements=step.max_elements,
                          include_bounds=step.include_bounds)
    return None if options == ReadOptions() else options


async def wait(ctx: StepContext, step: Wait) -> Any:
    """Sleep a fixed time, within the time the step has left."""
    if step.ms / 1000 > ctx.remaining():
        await trio.sleep(max(ctx.remaining(), 0))
        raise StepError("STEP_TIMEOUT", f"a {step.ms} ms wait does not fit in the time left",
                        retryable=True)
    await trio.sleep(step.ms / 1000)
    return None
