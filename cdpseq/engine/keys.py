"""Keys as a US keyboard has them, and chords ("Enter", "Control+A", "Shift+Digit3").

Every key is known by its ``key`` name ("a", "!", "Enter", "Shift") and by its ``code``, the
physical key ("KeyA", "Digit1", "NumpadEnter", "ShiftRight"). A character that a US keyboard types
with Shift keeps its key's code and keyCode ("!" is Digit1, keyCode 49). ``type`` sends real key
events for every character that has a key, with the modifiers that are held (none: as a
keyboard's Shift would not be pressed), and ``Input.insertText`` for the others (emoji, CJK).
A chord holds its modifiers, in order, around its last key; a modifier may be that last key
("Shift" alone). With Shift held, a key with a shifted character types it ("Shift+Digit3" is
"#"); with Control, Alt or Meta held, keys type nothing.
"""

from __future__ import annotations

import msgspec

MODIFIER_BITS = {"Alt": 1, "Control": 2, "Meta": 4, "Shift": 8}
_MODIFIER_ALIASES = {"Ctrl": "Control", "Cmd": "Meta", "Command": "Meta", "Option": "Alt"}

LEFT, RIGHT, NUMPAD = 1, 2, 3
"""``KeyboardEvent.location`` of keys that exist twice."""


class Key(msgspec.Struct, frozen=True):
    """One key of a US keyboard, with the fields a CDP key event carries."""

    key: str
    """``KeyboardEvent.key``: "a", "A", "!", "Enter", "Shift"."""
    code: str
    """``KeyboardEvent.code``, the physical key: "KeyA", "Digit1", "ShiftLeft"."""
    key_code: int
    """``keyCode`` (CDP ``windowsVirtualKeyCode``)."""
    text: str
    """What the key types ("" for none)."""
    location: int = 0

    @property
    def modifier(self) -> str | None:
        """The modifier this key is ("Shift", ...), or None."""
        return self.key if self.key in MODIFIER_BITS else None


class Chord(msgspec.Struct, frozen=True):
    """A key pressed with modifiers held ("Control+A")."""

    modifiers: tuple[str, ...]
    key: Key

    @property
    def modifier_bits(self) -> int:
        """The modifiers as CDP's bit mask (Alt 1, Control 2, Meta 4, Shift 8)."""
        return sum(MODIFIER_BITS[m] for m in self.modifiers)


def _layout() -> tuple[dict[str, Key], dict[str, Key], dict[str, Key]]:
    """(by code, by key name, shifted variant by code)."""
    by_code: dict[str, Key] = {}
    by_key: dict[str, Key] = {}
    shifted: dict[str, Key] = {}

    def add(code: str, key_code: int, key: str, text: str = "", shift: str | None = None,
            location: int = 0) -> None:
        plain = Key(key, code, key_code, text, location)
        by_code[code] = plain
        by_key.setdefault(key, plain)
        if shift is not None:
            up = Key(shift, code, key_code, shift, location)
            shifted[code] = up
            by_key.setdefault(shift, up)

    for letter in "abcdefghijklmnopqrstuvwxyz":
        add(f"Key{letter.upper()}", ord(letter.upper()), letter, letter, letter.upper())
    for digit, up in zip("0123456789", ")!@#$%^&*(", strict=True):
        add(f"Digit{digit}", ord(digit), digit, digit, up)
    for code, key_code, key, up in (
            ("Minus", 189, "-", "_"), ("Equal", 187, "=", "+"), ("BracketLeft", 219, "[", "{"),
            ("BracketRight", 221, "]", "}"), ("Backslash", 220, "\\", "|"),
            ("Semicolon", 186, ";", ":"), ("Quote", 222, "'", '"'), ("Comma", 188, ",", "<"),
            ("Period", 190, ".", ">"), ("Slash", 191, "/", "?"), ("Backquote", 192, "`", "~")):
        add(code, key_code, key, key, up)
    add("Space", 32, " ", " ")
    add("Enter", 13, "Enter", "\r")
    add("Tab", 9, "Tab")
    for code, key_code in (("Backspace", 8), ("Escape", 27), ("Delete", 46), ("Insert", 45),
                           ("Home", 36), ("End", 35), ("PageUp", 33), ("PageDown", 34),
                           ("ArrowLeft", 37), ("ArrowUp", 38), ("ArrowRight", 39),
                           ("ArrowDown", 40), ("CapsLock", 20), ("ContextMenu", 93),
                           ("PrintScreen", 44), ("ScrollLock", 145), ("Pause", 19),
                           ("NumLock", 144)):
        add(code, key_code, code)
    for n in range(1, 13):
        add(f"F{n}", 111 + n, f"F{n}")
    for name, key_code in (("Shift", 16), ("Control", 17), ("Alt", 18)):
        add(f"{name}Left", key_code, name, location=LEFT)
        add(f"{name}Right", key_code, name, location=RIGHT)
    add("MetaLeft", 91, "Meta", location=LEFT)
    add("MetaRight", 92, "Meta", location=RIGHT)
    for code, key_code, key in (("NumpadDivide", 111, "/"), ("NumpadMultiply", 106, "*"),
                                ("NumpadSubtract", 109, "-"), ("NumpadAdd", 107, "+"),
                                ("NumpadDecimal", 110, ".")):
        by_code[code] = Key(key, code, key_code, key, NUMPAD)
    by_code["NumpadEnter"] = Key("Enter", "NumpadEnter", 13, "\r", NUMPAD)
    for n in range(10):
        by_code[f"Numpad{n}"] = Key(str(n), f"Numpad{n}", 96 + n, str(n), NUMPAD)
    for media in ("AudioVolumeMute", "AudioVolumeDown", "AudioVolumeUp", "MediaTrackNext",
                  "MediaTrackPrevious", "MediaStop", "MediaPlayPause"):
        by_code[media] = Key(media, media, 0, "")
    return by_code, by_key, shifted


_BY_CODE, _BY_KEY, _SHIFTED = _layout()
_ALIASES = {"Esc": "Escape", "Return": "Enter", "Up": "ArrowUp", "Down": "ArrowDown",
            "Left": "ArrowLeft", "Right": "ArrowRight", "Del": "Delete", "Space": " ",
            "\n": "Enter", "\r": "Enter", **_MODIFIER_ALIASES}


def key_for(name: str) -> Key | None:
    """The key with this key name ("a", "!", "Enter", "Shift") or code ("KeyA", "Digit1",
    "NumpadEnter", "ShiftRight"), or None when a US keyboard has no such key."""
    name = _ALIASES.get(name, name)
    return _BY_KEY.get(name) or _BY_CODE.get(name)


def with_shift(key: Key) -> Key:
    """What the key types with Shift held (its shifted character), else the key itself."""
    return _SHIFTED.get(key.code, key) if key.key == _BY_CODE.get(key.code, key).key else key


def modifier_key(name: str) -> Key:
    """The left-hand key of a modifier."""
    return _BY_CODE[f"{name}Left"]


def parse_chord(chord: str) -> Chord:
    """Parse "Control+Shift+ArrowLeft", "Shift", "Control++"; raises ValueError saying why."""
    if chord == "+":  # the plus key itself, alone or after modifiers ("Control++")
        parts = ["+"]
    elif chord.endswith("++"):
        parts = [*chord[:-2].split("+"), "+"]
    else:
        parts = chord.split("+")
    if not parts or any(p == "" for p in parts):
        raise ValueError(f"{chord!r} is not a key chord like 'Enter' or 'Control+A'")
    *mods, last = parts
    modifiers: list[str] = []
    for mod in mods:
        mod = _MODIFIER_ALIASES.get(mod, mod)
        if mod not in MODIFIER_BITS:
            raise ValueError(f"{mod!r} is not a modifier (Alt, Control, Meta, Shift)")
        if mod in modifiers:
            raise ValueError(f"{mod} is held twice")
        modifiers.append(mod)
    key = key_for(last)
    if key is None:
        raise ValueError(f"unknown key {last!r} (use a key name like Enter, Tab, ArrowLeft, F5, "
                         "a single character a US keyboard has, or a code like KeyA, Digit3)")
    if "Shift" in modifiers:
        key = with_shift(key)
    elif modifiers and len(key.key) == 1 and key.key.isalpha():
        # Control/Alt/Meta with a letter: the letter as its key is named, unshifted.
        key = _BY_CODE.get(key.code, key)
    return Chord(tuple(modifiers), key)


def typed_key(character: str) -> Key | None:
    """The key that types ``character`` (a shifted character keeps its key's code), or None
    when a US keyboard has none (then it is inserted as text)."""
    key = key_for("Enter" if character in "\r\n" else character)
    if key is None or key.location == NUMPAD or (len(character) == 1 and key.text != character
                                                 and character not in "\r\n"):
        return None
    return key
