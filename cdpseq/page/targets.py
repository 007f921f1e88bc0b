"""What an agent operation acts on: a ref, a selector, a node, or the whole page.

A step names its element as ``ref_N``, ``node_N`` or a selector; the engine turns that into one
of these Structs once, and every layer below reads it by its type (``match``). Their class is
the tag: they carry no tag field, so ``to_agent`` gives the very objects js/agent/*.js reads
(``{ref: n}``, ``{selector: s}``, ``{page: true}``; see ``resolve`` in actionability.js).
A ``Node`` never reaches the agent's JavaScript by value: ``PageAgent`` resolves it by its
backendNodeId through the protocol.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import msgspec


class Ref(msgspec.Struct, frozen=True):
    """``ref_N``: an element a read numbered (in the main document or, adopted, a frame's)."""

    ref: int


class Selector(msgspec.Struct, frozen=True):
    """A selector (CSS, ``role=...``, a ``>>`` chain through shadow roots and frames)."""

    selector: str


class Node(msgspec.Struct, frozen=True):
    """``node_N``: the DOM node of backendNodeId N, whether or not a read numbered it."""

    node: int


class WholePage(msgspec.Struct, frozen=True):
    """No element: an operation on the document itself (a scroll, a drag's next move)."""

    page: bool = True


Target: TypeAlias = Ref | Selector | Node | WholePage
"""What an agent operation acts on."""

PAGE = WholePage()


def to_agent(target: Target) -> dict[str, Any]:
    """``target`` as the agent's JavaScript reads it (``{ref: n}``, ``{selector: s}``, ...)."""
    value: dict[str, Any] = msgspec.to_builtins(target)
    return value


def describe(target: Target) -> str:
    """The target as a message names it: ``ref_3``, ``node_7``, ``selector '#go'``, the page."""
    match target:
        case Ref(number):
            return f"ref_{number}"
        case Node(number):
            return f"node_{number}"
        case Selector(selector):
            return f"selector {selector!r}"
        case WholePage():
            return "the page"
