"""How each act step is carried out over CDP.

Every executor gets a ``StepContext`` (the tab, its page agent, the step's deadline) and either
returns the step's output (JSON-able, or None) or raises ``StepError`` with a stable code. Element
steps wait for their target to be actionable — attached, visible, enabled, in view, and the one
the hit test finds at the click point — retrying until just before the deadline, then fail with
the last reason they saw ("covered by div.modal-backdrop"), never with a bare timeout.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import msgspec
import trio

from . import schema as s
from .browser import Tab
from .cdp import input as cdp_input
from .cdp import page
from .errors import CdpseqError
from .keys import MODIFIER_BITS, Chord, Key, key_for, modifier_key, parse_chord
from .page_agent import AgentError, PageAgent
from .read_page import ReadHistory, read_view

if TYPE_CHECKING:
    from .settling import Watch

_BUTTON_BITS = {"left": 1, "right": 2, "middle": 4}
# Stop auto-waiting this long before the deadline, to report why rather than time out.
_REPORT_MARGIN = 0.05


class StepError(CdpseqError):
    def __init__(self, code: str, message: str, retryable: bool = False) -> None:
        self.code = code
        self.message = message
        self.retryable = retryable
        super().__init__(f"{code}: {message}")


class StepContext:
    def __init__(self, tab: Tab, agent: PageAgent, deadline: float,
                 secrets: Callable[[str], str], reads: ReadHistory, watch: Watch | None,
                 return_mode: str = "final") -> None:
        self.tab = tab
        self.return_mode = return_mode
        self.watch = watch
        self.agent = agent
        self.deadline = deadline
        self.secret = secrets
        self.reads = reads

    def remaining(self) -> float:
        return self.deadline - trio.current_time()


# -- targets ------------------------------------------------------------------------------------


def _target_of(step: Any) -> dict[str, Any] | None:
    if getattr(step, "selector", None) is not None:
        return {"selector": step.selector}
    target = getattr(step, "target", None)
    if target is None:
        return None
    parsed = s.parse_target(target)
    return {"ref": parsed.number} if parsed.kind == "ref" else {"node": parsed.number}


def _describe(target: dict[str, Any]) -> str:
    if "ref" in target:
        return f"ref_{target['ref']}"
    if "node" in target:
        return f"node_{target['node']}"
    return f"selector {target['selector']!r}"


async def _until_ready(ctx: StepContext, target: dict[str, Any], op: str,
                       args: dict[str, Any] | None = None) -> Any:
    """Run agent ``op`` on the target, retrying refusals that may pass (not yet there, covered,
    disabled, hidden) until just before the deadline."""
    delay = 0.0
    while True:
        try:
            return await ctx.agent.call(op, target, args)
        except AgentError as exc:
            waitable = exc.retry or (exc.code == "NODE_NOT_FOUND" and "selector" in target)
            if not waitable:
                raise _step_error(exc, target) from None
            last = exc
        if ctx.remaining() - delay <= _REPORT_MARGIN:
            raise _step_error(last, target, waited=True) from None
        await trio.sleep(delay)
        delay = min(0.1, max(0.01, delay * 2))


def _step_error(exc: AgentError, target: dict[str, Any], waited: bool = False) -> StepError:
    message = f"{_describe(target)}: {exc.reason}"
    if exc.code == "STALE_REF":
        message += "; read the page again for fresh refs"
    if waited:
        message += " (still so at the step timeout)"
    retryable = exc.code in ("NOT_ACTIONABLE", "NODE_NOT_FOUND", "NAVIGATION_FAILED")
    return StepError(exc.code, message, retryable)


# -- input --------------------------------------------------------------------------------------


def _mouse(kind: str, x: float, y: float, *, button: str = "none", click_count: int = 0,
           modifiers: int = 0, buttons: int = 0) -> cdp_input.DispatchMouseEvent:
    return cdp_input.DispatchMouseEvent(
        type=kind, x=x, y=y, button=button, clickCount=click_count, modifiers=modifiers,
        buttons=buttons)


async def _click_at(tab: Tab, x: float, y: float, button: str = "left", count: int = 1,
                    modifiers: int = 0) -> None:
    # One round trip: waiting for each answer would cost a rendering frame per move.
    events = [_mouse("mouseMoved", x, y, modifiers=modifiers)]
    bits = _BUTTON_BITS[button]
    for n in range(1, count + 1):
        events.append(_mouse("mousePressed", x, y, button=button, click_count=n,
                             modifiers=modifiers, buttons=bits))
        events.append(_mouse("mouseReleased", x, y, button=button, click_count=n,
                             modifiers=modifiers))
    await tab.send_all(*events)


async def _key(tab: Tab, kind: str, key: Key, modifiers: int) -> None:
    text = key.text if kind == "keyDown" else None
    await tab.send(cdp_input.DispatchKeyEvent(
        type=kind, key=key.key, code=key.code or None, modifiers=modifiers,
        windowsVirtualKeyCode=key.key_code or None, text=text or None,
        unmodifiedText=text or None))


async def _press_chord(tab: Tab, chord: Chord) -> None:
    held = 0
    for name in chord.modifiers:
        held |= MODIFIER_BITS[name]
        await _key(tab, "rawKeyDown", modifier_key(name), held)
    # With Control/Alt/Meta held a key types nothing: a raw key down, no text.
    types_text = bool(chord.key.text) and not (held & ~MODIFIER_BITS["Shift"])
    await _key(tab, "keyDown" if types_text else "rawKeyDown", chord.key, held)
    await _key(tab, "keyUp", chord.key, held)
    for name in reversed(chord.modifiers):
        held &= ~MODIFIER_BITS[name]
        await _key(tab, "keyUp", modifier_key(name), held)


async def _type_text(tab: Tab, text: str, delay: float) -> None:
    for ch in text:
        key = key_for("Enter" if ch == "\n" else ch)
        if key is not None and key.code:
            await _key(tab, "keyDown", key, 0)
            await _key(tab, "keyUp", key, 0)
        else:
            await tab.send(cdp_input.InsertText(text=ch))
        if delay:
            await trio.sleep(delay)


# -- element steps ------------------------------------------------------------------------------


def _required_target(step: Any) -> dict[str, Any]:
    target = _target_of(step)
    assert target is not None, "validated: element steps have a target or a selector"
    return target


async def click(ctx: StepContext, step: s.Click) -> Any:
    target = _required_target(step)
    point = await _until_ready(ctx, target, "point")
    modifiers = sum(MODIFIER_BITS[m] for m in step.modifiers)
    await _click_at(ctx.tab, point["x"], point["y"], step.button, step.click_count, modifiers)
    return None


async def hover(ctx: StepContext, step: s.Hover) -> Any:
    point = await _until_ready(ctx, _required_target(step), "point")
    await ctx.tab.send(_mouse("mouseMoved", point["x"], point["y"]))
    return None


async def _set_checked(ctx: StepContext, step: s.Check | s.Uncheck, want: bool) -> Any:
    target = _required_target(step)
    state = await _until_ready(ctx, target, "checkedState")
    if state["checked"] == want:
        return {"changed": False}
    point = await _until_ready(ctx, target, "point")
    await _click_at(ctx.tab, point["x"], point["y"])
    after = await _until_ready(ctx, target, "checkedState")
    if after["checked"] != want:
        raise StepError("NOT_ACTIONABLE", f"{_describe(target)}: clicking it did not "
                        f"{'check' if want else 'uncheck'} it (a radio can't be unchecked)")
    return {"changed": True}


async def check(ctx: StepContext, step: s.Check) -> Any:
    return await _set_checked(ctx, step, True)


async def uncheck(ctx: StepContext, step: s.Uncheck) -> Any:
    return await _set_checked(ctx, step, False)


async def fill(ctx: StepContext, step: s.Fill) -> Any:
    target = _required_target(step)
    if step.credential_ref is not None:
        value = ctx.secret(step.credential_ref)
    else:
        assert step.value is not None, "validated: fill has a value or a credentialRef"
        value = step.value
    secret = step.credential_ref is not None
    # One round trip for text fields; see ops.fill in js/agent.js. The value is passed, never
    # returned: only whether the field now holds it.
    done = await _until_ready(ctx, target, "fill", {"value": value, "secret": secret})
    if done.get("needsInput"):
        # A rich-text editor: real text input, and the check in the same round trip.
        typing: Any = cdp_input.InsertText(text=value) if value else None
        if typing is None and not done["empty"]:
            await ctx.agent.call("clearSelection", target)
        done = await ctx.agent.call("finishFill", target, {"value": value}, after=typing)
    return None if done["matches"] else {"valueMatches": False}


async def type_text(ctx: StepContext, step: s.TypeText) -> Any:
    target = _target_of(step)
    if target is not None:
        await _until_ready(ctx, target, "point")
        await ctx.agent.call("focus", target)
    await _type_text(ctx.tab, step.text, step.delay_ms / 1000)
    return None


async def press(ctx: StepContext, step: s.Press) -> Any:
    try:
        chord = parse_chord(step.key)
    except ValueError as exc:
        raise StepError("INVALID_REQUEST", str(exc)) from None
    target = _target_of(step)
    if target is not None:
        await _until_ready(ctx, target, "point")
        await ctx.agent.call("focus", target)
    await _press_chord(ctx.tab, chord)
    return None


async def select(ctx: StepContext, step: s.Select) -> Any:
    target = _required_target(step)
    args = {"value": step.value} if step.value is not None else {"label": step.option_label}
    return await _until_ready(ctx, target, "select", args)


async def scroll(ctx: StepContext, step: s.Scroll) -> Any:
    target = _target_of(step)
    if target is not None:
        return await _until_ready(ctx, target, "scrollIntoView")
    return await ctx.agent.evaluate(
        f"__cdpseq.scrollPage({json.dumps({'direction': step.direction, 'pixels': step.pixels})})")


# -- navigation ---------------------------------------------------------------------------------

_NAV_EVENTS = (page.LifecycleEvent, page.FrameNavigated, page.NavigatedWithinDocument)


async def _await_document(ctx: StepContext, events: Any, loader_id: str | None) -> dict[str, Any]:
    """Wait for the main frame's new document (``loader_id`` when known): done at ``load``, or
    at DOMContentLoaded if ``load`` does not come before the deadline."""
    frame_id = ctx.tab.frame_id
    content_loaded = False
    committed = loader_id is not None
    with trio.move_on_after(max(ctx.remaining() - _REPORT_MARGIN, 0)):
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


async def navigate(ctx: StepContext, step: s.Navigate) -> Any:
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


async def back(ctx: StepContext, step: s.Back) -> Any:
    return await _history(ctx, -1)


async def forward(ctx: StepContext, step: s.Forward) -> Any:
    return await _history(ctx, +1)


async def reload(ctx: StepContext, step: s.Reload) -> Any:
    async with ctx.tab.subscribe(*_NAV_EVENTS) as events:
        await ctx.tab.send(page.Reload())
        return await _await_document(ctx, events, None)


# -- observation --------------------------------------------------------------------------------


async def wait_for(ctx: StepContext, step: s.WaitFor) -> Any:
    if step.stable:
        if ctx.watch is None:
            raise StepError("WAIT_TIMEOUT", "the page cannot be watched (is the tab alive?)")
        report = await ctx.watch.settle(max(ctx.remaining() - _REPORT_MARGIN, 0))
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
    while True:
        budget_ms = int(max(ctx.remaining() - _REPORT_MARGIN, 0) * 1000)
        try:
            outcome = await ctx.agent.evaluate(
                f"__cdpseq.waitFor({json.dumps({**condition, 'timeoutMs': budget_ms})})",
                await_promise=True)
        except AgentError as exc:
            if exc.code != "NAVIGATION_FAILED" and exc.code != "AGENT_ERROR":
                raise
            if exc.code == "AGENT_ERROR" and "context" not in exc.reason:
                raise StepError("INVALID_REQUEST", exc.reason) from None
            outcome = {"matched": False}
        if outcome.get("matched"):
            return {**condition, "waitedMs": round((trio.current_time() - started) * 1000)}
        if ctx.remaining() <= _REPORT_MARGIN * 2:
            what = ", ".join(f"{k}={v!r}" for k, v in condition.items())
            raise StepError("WAIT_TIMEOUT", f"{what} did not hold within "
                            f"{round((trio.current_time() - started) * 1000)} ms", True)


async def read_page(ctx: StepContext, step: s.ReadPage) -> Any:
    view = await read_view(ctx.agent, step.filter)
    compression = "delta" if ctx.return_mode == "delta" else step.compression
    answer = ctx.reads.record(view, ctx.tab.loader_id, step.filter, compression)
    return msgspec.structs.replace(answer, tab=None)  # the act result names its tab once


async def wait(ctx: StepContext, step: s.Wait) -> Any:
    if step.ms / 1000 > ctx.remaining():
        await trio.sleep(max(ctx.remaining(), 0))
        raise StepError("STEP_TIMEOUT", f"a {step.ms} ms wait does not fit in the time left",
                        retryable=True)
    await trio.sleep(step.ms / 1000)
    return None


Executor = Callable[[StepContext, Any], Awaitable[Any]]

EXECUTORS: Mapping[type[Any], Executor] = {
    s.Click: click, s.Hover: hover, s.Check: check, s.Uncheck: uncheck, s.Fill: fill,
    s.TypeText: type_text, s.Press: press, s.Select: select, s.Scroll: scroll,
    s.Navigate: navigate, s.Back: back, s.Forward: forward, s.Reload: reload,
    s.WaitFor: wait_for, s.ReadPage: read_page, s.Wait: wait,
}

