"""The US keyboard layout and chords, as CDP key events, without a browser."""

from __future__ import annotations

import pytest

from cdpseq.engine.keys import Key, key_for, parse_chord, typed_key
from cdpseq.engine.steps.text import chord_events, typing_events


@pytest.mark.parametrize(("name", "key", "code", "key_code", "text"), [
    ("a", "a", "KeyA", 65, "a"),
    ("A", "A", "KeyA", 65, "A"),
    ("!", "!", "Digit1", 49, "!"),
    ("#", "#", "Digit3", 51, "#"),
    ("~", "~", "Backquote", 192, "~"),
    ("?", "?", "Slash", 191, "?"),
    ("+", "+", "Equal", 187, "+"),
    ('"', '"', "Quote", 222, '"'),
    ("Digit3", "3", "Digit3", 51, "3"),
    ("KeyA", "a", "KeyA", 65, "a"),
    ("Enter", "Enter", "Enter", 13, "\r"),
    ("NumpadEnter", "Enter", "NumpadEnter", 13, "\r"),
    ("NumpadSubtract", "-", "NumpadSubtract", 109, "-"),
    ("Space", " ", "Space", 32, " "),
    ("Esc", "Escape", "Escape", 27, ""),
    ("Shift", "Shift", "ShiftLeft", 16, ""),
    ("ShiftRight", "Shift", "ShiftRight", 16, ""),
    ("Meta", "Meta", "MetaLeft", 91, ""),
    ("F5", "F5", "F5", 116, ""),
])
def test_key_names_and_codes(name: str, key: str, code: str, key_code: int, text: str) -> None:
    found = key_for(name)
    assert found is not None
    assert (found.key, found.code, found.key_code, found.text) == (key, code, key_code, text)


def test_locations() -> None:
    assert key_for("ShiftLeft").location == 1  # type: ignore[union-attr]
    assert key_for("ControlRight").location == 2  # type: ignore[union-attr]
    assert key_for("Numpad5").location == 3  # type: ignore[union-attr]
    assert key_for("Digit5").location == 0  # type: ignore[union-attr]


def test_unknown_keys() -> None:
    for name in ("NotARealKey", "ё", "😊", "嗨"):
        assert key_for(name) is None
        with pytest.raises(ValueError, match="unknown key"):
            parse_chord(name)


def test_shift_gives_the_shifted_character_and_other_modifiers_do_not() -> None:
    assert parse_chord("Shift+Digit3").key.key == "#"
    assert parse_chord("Shift+a").key.key == "A"
    assert parse_chord("Control+A").key.key == "a"
    assert parse_chord("Control+Shift+~").key.key == "~"
    assert parse_chord("Shift").key.key == "Shift" and parse_chord("Shift").modifiers == ()


def _shape(events: list[object]) -> list[tuple[object, ...]]:
    return [(e.type, e.key, e.modifiers, e.text, e.location)  # type: ignore[attr-defined]
            for e in events]


def test_a_lone_modifier_has_its_own_bit_while_down() -> None:
    assert _shape(chord_events(parse_chord("Shift"))) == [
        ("rawKeyDown", "Shift", 8, None, 1), ("keyUp", "Shift", 0, None, 1)]


def test_a_chord_holds_its_modifiers_around_the_key() -> None:
    assert _shape(chord_events(parse_chord("Control+Shift+ArrowLeft"))) == [
        ("rawKeyDown", "Control", 2, None, 1), ("rawKeyDown", "Shift", 10, None, 1),
        ("rawKeyDown", "ArrowLeft", 10, None, None), ("keyUp", "ArrowLeft", 10, None, None),
        ("keyUp", "Shift", 2, None, 1), ("keyUp", "Control", 0, None, 1)]
    # With Control held a letter types nothing: a raw key down, no text.
    assert _shape(chord_events(parse_chord("Control+a")))[1] == ("rawKeyDown", "a", 2, None, None)
    # With only Shift held it types its shifted character.
    assert _shape(chord_events(parse_chord("Shift+Digit1")))[1] == ("keyDown", "!", 8, "!", None)


def test_typing_sends_key_events_for_every_key_and_inserts_the_rest() -> None:
    groups = typing_events("a!~嗨😊b\n\t")
    kinds = [[type(c).__name__ for c in group] for group in groups]
    assert kinds == [["DispatchKeyEvent"] * 2] * 3 + [["InsertText"]] + \
        [["DispatchKeyEvent"] * 2] * 2 + [["InsertText"]]
    down = [group[0] for group in groups if len(group) == 2]
    assert [(e.key, e.code, e.windowsVirtualKeyCode, e.modifiers) for e in down] == [
        ("a", "KeyA", 65, 0), ("!", "Digit1", 49, 0), ("~", "Backquote", 192, 0),
        ("b", "KeyB", 66, 0), ("Enter", "Enter", 13, 0)]
    assert groups[3][0].text == "嗨😊" and groups[-1][0].text == "\t"


def test_typed_key_uses_the_main_keyboard_not_the_numpad() -> None:
    assert typed_key("5") == Key("5", "Digit5", 53, "5")
    assert typed_key("é") is None
