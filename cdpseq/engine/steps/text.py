"""Keyboard and text steps: fill, type and press."""

from __future__ import annotations

from typing import Any

import trio

from ...browser import Tab
from ...cdp import input as cdp_input
from ..keys import MODIFIER_BITS, Chord, Key, key_for, modifier_key, parse_chord
from ..request import Fill, Press, TypeText
from .context import StepContext, StepError, required_target, target_of, until_ready


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


async def fill(ctx: StepContext, step: Fill) -> Any:
    target = required_target(step)
    if step.credential_ref is not None:
        value = ctx.secret(step.credential_ref)
    else:
        assert step.value is not None, "validated: fill has a value or a credentialRef"
        value = step.value
    secret = step.credential_ref is not None
    # One round trip for text fields; see ops.fill in js/agent.js. The value is passed, never
    # returned: only whether the field now holds it.
    done = await until_ready(ctx, target, "fill", {"value": value, "secret": secret})
    if done.get("needsInput"):
        # A rich-text editor: real text input, and the check in the same round trip.
        typing: Any = cdp_input.InsertText(text=value) if value else None
        if typing is None and not done["empty"]:
            await ctx.agent.call("clearSelection", target)
        done = await ctx.agent.call("finishFill", target, {"value": value}, after=typing)
    return None if done["matches"] else {"valueMatches": False}


async def type_text(ctx: StepContext, step: TypeText) -> Any:
    target = target_of(step)
    if target is not None:
        await until_ready(ctx, target, "point")
        await ctx.agent.call("focus", target)
    await _type_text(ctx.tab, step.text, step.delay_ms / 1000)
    return None


async def press(ctx: StepContext, step: Press) -> Any:
    try:
        chord = parse_chord(step.key)
    except ValueError as exc:
        raise StepError("INVALID_REQUEST", str(exc)) from None
    target = target_of(step)
    if target is not None:
        await until_ready(ctx, target, "point")
        await ctx.agent.call("focus", target)
    await _press_chord(ctx.tab, chord)
    return None
