"""The one rule for characters that could act on a terminal or on how a reader sees text.

Every door writes the characters below as an escape that names them, wherever they come from
(a page's title, an element's name, a console message, a URL, a dialog; a request's own
values echoed back): the C0 controls but newline and tab (ESC starts ANSI sequences), DEL, the
C1 controls (U+009B is a CSI on some terminals), the bidi embeddings, overrides and isolates
(U+202A–U+202E, U+2066–U+2069: they reorder what a reader sees), and lone surrogates (no
UTF-8 can hold them). Newline and tab stay: a page's text and a console message mean them.

- ``escape_text``: for text, each written as Python writes it in a string literal, ``\\x1b``
  or ``\\u202e``. A backslash itself is left as it is: the JSON form is the exact one.
- ``unsafe_at``: where the first of them is, for the doors that refuse them (a selector, a
  URL or a ref cannot mean one: ``INVALID_REQUEST`` naming the field).
- ``whole_json``: JSON text whose lone surrogate escapes (``"\\ud800"``, which a page's
  string can hold and JavaScript's and Chrome's JSON write) are made text naming them, so
  that a strict decoder reads it.
- ``escape_json``: for JSON already encoded, each written as JSON's ``\\u001b``, so that the
  data a program decodes is unchanged and only the bytes on the way hold none of them.
"""

from __future__ import annotations

import re

__all__ = ["escape_json", "escape_text", "unsafe_at", "whole_json"]

_UNSAFE_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

# The same characters as JSON's encoders leave them, in UTF-8: C0 controls are escaped by every
# JSON encoder inside strings (a newline or tab outside one is layout), the others are not.
_UNSAFE_JSON = re.compile(rb"\x7f|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]")


def _text_escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _json_escape(found: re.Match[bytes]) -> bytes:
    return b"\\u%04x" % ord(found.group().decode())


def escape_text(text: str) -> str:
    """``text`` with each character of the rule written as its escape (``\\x1b``, ``\\u202e``,
    ``\\udca5``); newline and tab kept."""
    return _UNSAFE_TEXT.sub(_text_escape, text)


def unsafe_at(text: str) -> int | None:
    """The index of the first character of the rule in ``text``, or None."""
    found = _UNSAFE_TEXT.search(text)
    return None if found is None else found.start()


def escape_json(encoded: bytes) -> bytes:
    """JSON text (UTF-8) with each character of the rule that its encoder left as it is written
    as a JSON escape (``\\u202e``): the same JSON value, none of the characters in its bytes."""
    return _UNSAFE_JSON.sub(_json_escape, encoded)


# A JSON escape pair (\\, consumed first, so that what follows is read from the right place),
# a high surrogate escape with or without its low one, or a low one alone.
_SURROGATE_ESCAPE = re.compile(
    r"(\\\\)|\\u([dD][89abAB][0-9a-fA-F]{2})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?"
    r"|\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def _whole(found: re.Match[str]) -> str:
    if found.group(1) or found.group(3):  # an escaped backslash, or a whole pair
        return found.group()
    return "\\" + found.group()  # its escape as text: a backslash, "u" and the code


def whole_json(text: str) -> str:
    """JSON ``text`` with each lone surrogate escape made an escaped backslash, so that the
    string holds the escape as text (``\\ud800``, as ``escape_text`` writes it): the same
    JSON but for those characters, and readable by a strict decoder (msgspec)."""
    return _SURROGATE_ESCAPE.sub(_whole, text) if "\\u" in text else text
