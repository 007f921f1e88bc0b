"""Keyboard and text steps: fill, type and press."""

from __future__ import annotations

from typing import Any

import trio

from ...cdp import input as cdp_input
from ...page.targets import Target
from ..keys import MODIFIER_BITS, NUMPAD, Chord, Key, modifier_key, parse_chord, typed_key
from ..request import Fill, Press, TypeText
from .context import StepContext, StepError, required_target, target_of, until_ready


def _key_event(kind: str, key: Key, modifiers: int) -> cdp_input.DispatchKeyEvent:
    text = key.text if kind == "keyDown" else None
    return cdp_input.DispatchKeyEvent(
        type=kind, key=key.key, code=key.code or None, modifiers=modifiers,
        windowsVirtualKeyCode=key.key_code or None, text=text or None,
        unmodifiedText=text or None, location=key.location or None,
        isKeypad=True if key.location == NUMPAD else None)


def chord_events(chord: Chord) -> list[cdp_input.DispatchKeyEvent]:
    """The key events of pressing a chord: its modifiers down in order, its key down and up,
    the modifiers up in reverse. A key down types nothing while Control, Alt or Meta is held."""
    events = []
    held = 0
    for name in chord.modifiers:
        held |= MODIFIER_BITS[name]
        events.append(_key_event("rawKeyDown", modifier_key(name), held))
    key = chord.key
    if key.modifier is not None:  # a modifier pressed as the key: down with its own bit set
        events.append(_key_event("rawKeyDown", key, held | MODIFIER_BITS[key.modifier]))
    else:
        types_text = bool(key.text) and not held & ~MODIFIER_BITS["Shift"]
        events.append(_key_event("keyDown" if types_text else "rawKeyDown", key, held))
    events.append(_key_event("keyUp", key, held))
    for name in reversed(chord.modifiers):
        held &= ~MODIFIER_BITS[name]
        events.append(_key_event("keyUp", modifier_key(name), held))
    return events


def typing_events(text: str) -> list[list[Any]]:
    """The commands that type ``text``, one group per character (or per run of characters
    without a key, inserted as text in one go)."""
    groups: list[list[Any]] = []
    pending = ""
    for character in text:
        key = typed_key(character)
        if key is None:
            pending += character
            continue
        if pending:
            groups.append([cdp_input.InsertText(text=pending)])
            pending = ""
        groups.append([_key_event("keyDown", key, 0), _key_event("keyUp", key, 0)])
    if pending:
        groups.append([cdp_input.InsertText(text=pending)])
    return groups


async def fill(ctx: StepContext, step: Fill) -> Any:
    """Replace a field's value with the given text or secret, verified afterwards."""
    target = required_target(step)
    if step.credential_ref is not None:
        value = ctx.secret(step.credential_ref)
    else:
        assert step.value is not None, "validated: fill has a value or a credentialRef"
        value = step.value
    done = await put_text(ctx, target, value, secret=step.credential_ref is not None)
    return {"formattedByPage": done["formatted"]} if "formatted" in done else None


async def put_text(ctx: StepContext, target: Target, value: str, *, secret: bool = False,
                   op: str = "fill") -> Any:
    """Make a field hold ``value`` through agent ``op`` (fill, or clear: fill's machinery with
    the empty value), and answer what the agent said of the result."""
    args = {"value": value, "secret": secret}
    # One round trip for text and value fields (see js/agent/fill.js). The value is passed,
    # never returned: the agent answers whether the field holds it, or INVALID_VALUE.
    done = await until_ready(ctx, target, op, args)
    if done.get("needsInput"):
        # A rich-text editor: real text input, and the check in the same round trip.
        typing: Any = cdp_input.InsertText(text=value) if value else None
        if typing is None and not done["empty"]:
            await ctx.agent.call("clearSelection", target)
        done = await ctx.agent.call("finishFill", target, args, after=typing)
    return done


async def type_text(ctx: StepContext, step: TypeText) -> Any:
    """Type text as key events into the focused element (or a target, focused first)."""
    target = target_of(step)
    if target is not None:
        await until_ready(ctx, target, "focus")
    delay = step.delay_ms / 1000
    groups = typing_events(step.text)
    if not delay:  # one round trip: Chrome runs a session's commands in order
        await ctx.tab.send_all(*[command for group in groups for command in group])
        return None
    for group in groups:
        await ctx.tab.send_all(*group)
        await trio.sleep(delay)
    return None


async def press(ctx: StepContext, step: Press) -> Any:
    """Press a key or chord, on a target (focused first) or where the focus is."""
    try:
        chord = parse_chord(step.key)
    except ValueError as exc:
        raise StepError("INVALID_REQUEST", str(exc)) from None
    target = target_of(step)
    if target is not None:
        await until_ready(ctx, target, "focus")
    await ctx.tab.send_all(*chord_events(chord))
    return None
