"""Navigation steps: navigate, back, forward and reload, each done when the new document is."""

from __future__ import annotations

from typing import Any

import trio

from ...cdp import page
from ..request import Back, Forward, Navigate, Reload
from .context import REPORT_MARGIN, StepContext, StepError

_NAV_EVENTS = (page.LifecycleEvent, page.FrameNavigated, page.NavigatedWithinDocument)


async def _await_document(ctx: StepContext, events: Any, loader_id: str | None) -> dict[str, Any]:
    """Wait for the main frame's new document (``loader_id`` when known): done at ``load``, or
    at DOMContentLoaded if ``load`` does not come before the deadline."""
    frame_id = ctx.tab.frame_id
    content_loaded = False
    committed = loader_id is not None
    with trio.move_on_after(max(ctx.remaining() - REPORT_MARGIN, 0)):
        async for event in events:
            if isinstance(event, page.NavigatedWithinDocument):
                if event.frameId == frame_id and not committed:
                    return {"url": event.url, "sameDocument": True}
            elif isinstance(event, page.FrameNavigated):
                frame = event.frame
                if frame.parentId is None:
                    committed = True
                    loader_id = frame.loaderId
                    if event.type == "BackForwardCacheRestore":
                        return {"url": frame.url, "restoredFromCache": True}
            elif event.frameId == frame_id and committed and event.loaderId == loader_id:
                if event.name == "DOMContentLoaded":
                    content_loaded = True
                elif event.name == "load":
                    return {"url": ctx.tab.url}
    if content_loaded:
        return {"url": ctx.tab.url, "loadEventPending": True}
    raise StepError("NAVIGATION_FAILED", "the new page did not load before the step timeout"
                    if committed else "no navigation happened before the step timeout",
                    retryable=True)


async def navigate(ctx: StepContext, step: Navigate) -> Any:
    blocked = ctx.tab.browser.policy.check(step.url)
    if blocked is not None:  # nothing is sent: the tab stays where it is
        raise StepError("URL_BLOCKED", f"{step.url} is blocked: {blocked}")
    async with ctx.tab.subscribe(*_NAV_EVENTS) as events:
        result = await ctx.tab.send(page.Navigate(url=step.url))
        if result.errorText:
            raise StepError("NAVIGATION_FAILED", f"{step.url}: {result.errorText}",
                            retryable=result.errorText != "net::ERR_ABORTED")
        if result.loaderId is None:
            return {"url": step.url, "sameDocument": True}
        return await _await_document(ctx, events, result.loaderId)


async def _history(ctx: StepContext, offset: int) -> Any:
    history = await ctx.tab.send(page.GetNavigationHistory())
    index = history.currentIndex + offset
    if not 0 <= index < len(history.entries):
        raise StepError("NAVIGATION_FAILED", "no {} page in this tab's history".format(
            "previous" if offset < 0 else "next"))
    async with ctx.tab.subscribe(*_NAV_EVENTS) as events:
        await ctx.tab.send(page.NavigateToHistoryEntry(entryId=history.entries[index].id))
        return await _await_document(ctx, events, None)


async def back(ctx: StepContext, step: Back) -> Any:
    return await _history(ctx, -1)


async def forward(ctx: StepContext, step: Forward) -> Any:
    return await _history(ctx, +1)


async def reload(ctx: StepContext, step: Reload) -> Any:
    async with ctx.tab.subscribe(*_NAV_EVENTS) as events:
        await ctx.tab.send(page.Reload())
        return await _await_document(ctx, events, None)
