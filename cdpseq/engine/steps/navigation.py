"""Navigation steps: navigate, back, forward and reload, each done when the new document is."""

from __future__ import annotations

from typing import Any

import trio

from ...cdp import inspector, page
from ...errors import CdpseqError, TargetCrashed
from ..request import Back, Forward, Navigate, Reload
from .context import REPORT_MARGIN, StepContext, StepError

# A renderer that crashes while it loads the page (a tree too deep for Chromium's own layout)
# sends no lifecycle event again: its crash ends the wait, not the step's timeout.
_NAV_EVENTS = (page.LifecycleEvent, page.FrameNavigated, page.NavigatedWithinDocument,
               inspector.TargetCrashed)
# How long stopping a navigation that outlived its step may take, beyond the step's deadline.
_STOP_BUDGET = 0.5


async def _await_document(ctx: StepContext, events: Any, loader_id: str | None) -> dict[str, Any]:
    """Wait for the main frame's new document (``loader_id`` when known): done at ``load``, or
    at DOMContentLoaded if ``load`` does not come before the deadline."""
    frame_id = ctx.tab.frame_id
    content_loaded = False
    committed = loader_id is not None
    with trio.move_on_after(max(ctx.remaining() - REPORT_MARGIN, 0)):
        async for event in events:
            if isinstance(event, inspector.TargetCrashed):
                raise TargetCrashed(ctx.tab.id, ctx.tab.session_id, "crashed loading the page")
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
    if not committed:
        await _stop_loading(ctx)
    raise StepError("NAVIGATION_FAILED", "the new page did not load before the step timeout"
                    if committed else "no navigation happened before the step timeout",
                    retryable=True)


async def _stop_loading(ctx: StepContext) -> None:
    """Cancel a navigation that outlived its step, so it cannot commit during later steps (a
    30 s response would otherwise replace the page under them). Bounded: the step is over."""
    with trio.move_on_after(_STOP_BUDGET):
        try:
            await ctx.tab.send(page.StopLoading())
        except CdpseqError:
            pass  # the tab went away meanwhile: nothing left to stop


async def navigate(ctx: StepContext, step: Navigate) -> Any:
    """Load a URL the policy allows, done when its document is (or failed)."""
    blocked = ctx.tab.browser.policy.check(step.url)
    if blocked is not None:  # nothing is sent: the tab stays where it is
        raise StepError("URL_BLOCKED", f"{step.url} is blocked: {blocked}")
    async with ctx.tab.subscribe(*_NAV_EVENTS) as events:
        # Chrome answers Page.navigate only once the response has come (or failed): a server
        # that answers late holds the command, so it gets no longer than the step.
        result: page.NavigateResult | None = None
        with trio.move_on_after(max(ctx.remaining() - REPORT_MARGIN, 0)):
            result = await ctx.tab.send(page.Navigate(url=step.url))
        if result is None:
            await _stop_loading(ctx)
            raise StepError("STEP_TIMEOUT", f"{step.url} did not answer before the step "
                            "timeout; the load was stopped", retryable=True)
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
    """Go one entry back in the tab's history, done when that document is."""
    return await _history(ctx, -1)


async def forward(ctx: StepContext, step: Forward) -> Any:
    """Go one entry forward in the tab's history, done when that document is."""
    return await _history(ctx, +1)


async def reload(ctx: StepContext, step: Reload) -> Any:
    """Reload the tab's document, done when the new one is."""
    async with ctx.tab.subscribe(*_NAV_EVENTS) as events:
        await ctx.tab.send(page.Reload())
        return await _await_document(ctx, events, None)
