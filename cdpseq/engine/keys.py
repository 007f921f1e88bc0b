"""Key names and chords ("Enter", "Control+A", "Shift+ArrowLeft") as CDP key events (US layout)."""

from __future__ import annotations

import msgspec

MODIFIER_BITS = {"Alt": 1, "Control": 2, "Meta": 4, "Shift": 8}
_MODIFIER_ALIASES = {"Ctrl": "Control", "Cmd": "Meta"}
_MODIFIER_CODES = {"Alt": ("AltLeft", 18), "Control": ("ControlLeft", 17),
                   "Meta": ("MetaLeft", 91), "Shift": ("ShiftLeft", 16)}

# key -> (code, windowsVirtualKeyCode, text)
_NAMED: dict[str, tuple[str, int, str]] = {
    "Enter": ("Enter", 13, "\r"), "Tab": ("Tab", 9, ""), "Escape": ("Escape", 27, ""),
    "Backspace": ("Backspace", 8, ""), "Delete": ("Delete", 46, ""), " ": ("Space", 32, " "),
    "Space": ("Space", 32, " "), "ArrowUp": ("ArrowUp", 38, ""),
    "ArrowDown": ("ArrowDown", 40, ""), "ArrowLeft": ("ArrowLeft", 37, ""),
    "ArrowRight": ("ArrowRight", 39, ""), "Home": ("Home", 36, ""), "End": ("End", 35, ""),
    "PageUp": ("PageUp", 33, ""), "PageDown": ("PageDown", 34, ""),
    "Insert": ("Insert", 45, ""),
    **{f"F{n}": (f"F{n}", 111 + n, "") for n in range(1, 13)},
}
_ALIASES = {"Esc": "Escape", "Return": "Enter", "Up": "ArrowUp", "Down": "ArrowDown",
            "Left": "ArrowLeft", "Right": "ArrowRight", "Del": "Delete"}
_PUNCTUATION = {
    "-": ("Minus", 189), "=": ("Equal", 187), "[": ("BracketLeft", 219),
    "]": ("BracketRight", 221), "\\": ("Backslash", 220), ";": ("Semicolon", 186),
    "'": ("Quote", 222), ",": ("Comma", 188), ".": ("Period", 190), "/": ("Slash", 191),
    "`": ("Backquote", 192),
}


class Key(msgspec.Struct, frozen=True):
    key: str
    code: str
    key_code: int
    text: str


class Chord(msgspec.Struct, frozen=True):
    modifiers: tuple[str, ...]
    key: Key

    @property
    def modifier_bits(self) -> int:
        return sum(MODIFIER_BITS[m] for m in self.modifiers)


def key_for(name: str) -> Key | None:
    """The key named ``name`` ("Enter", "a", "A", "7", "F5"), or None when unknown."""
    name = _ALIASES.get(name, name)
    if name in _NAMED:
        code, key_code, text = _NAMED[name]
        return Key(" " if name == "Space" else name, code, key_code, text)
    if len(name) == 1:
        if name.isascii() and name.isalpha():
            return Key(name, f"Key{name.upper()}", ord(name.upper()), name)
        if name.isdigit():
            return Key(name, f"Digit{name}", ord(name), name)
        if name in _PUNCTUATION:
            code, key_code = _PUNCTUATION[name]
            return Key(name, code, key_code, name)
        return Key(name, "", 0, name)  # any other character: typed as text
    return None


def parse_chord(chord: str) -> Chord:
    """Parse "Control+Shift+ArrowLeft"; raises ValueError naming what is wrong."""
    if chord == "+":  # the plus key itself, alone or after modifiers ("Control++")
        parts = ["+"]
    elif chord.endswith("++"):
        parts = [*chord[:-2].split("+"), "+"]
    else:
        parts = chord.split("+")
    if not parts or any(p == "" for p in parts):
        raise ValueError(f"{chord!r} is not a key chord like 'Enter' or 'Control+A'")
    *mods, last = parts
    modifiers = []
    for mod in mods:
        mod = _MODIFIER_ALIASES.get(mod, mod)
        if mod not in MODIFIER_BITS:
            raise ValueError(f"{mod!r} is not a modifier (Alt, Control, Meta, Shift)")
        modifiers.append(mod)
    key = key_for(_MODIFIER_ALIASES.get(last, last))
    if key is None:
        if last in MODIFIER_BITS or last in _MODIFIER_ALIASES:
            raise ValueError("a chord needs one non-modifier key after the modifiers")
        raise ValueError(f"unknown key {last!r} (use names like Enter, Tab, Escape, "
                         "ArrowLeft, F5, or a single character)")
    if len(key.key) == 1 and key.key.isascii() and key.key.isalpha():
        # As on a keyboard: Shift makes the letter upper case; Control/Alt/Meta alone do not.
        if "Shift" in modifiers:
            key = Key(key.key.upper(), key.code, key.key_code, key.key.upper())
        elif modifiers:
            key = Key(key.key.lower(), key.code, key.key_code, key.key.lower())
    return Chord(tuple(modifiers), key)


def modifier_key(name: str) -> Key:
    code, key_code = _MODIFIER_CODES[name]
    return Key(name, code, key_code, "")
