"""Base classes for the generated protocol bindings in :mod:`cdpseq.cdp`.

A command is a Struct of its parameters that also knows its wire method and the Struct its
result decodes into, so ``await session.send(page.Navigate(url=...))`` is typed end to end.
Optional parameters default to ``None`` and ``omit_defaults`` keeps them off the wire: Chrome
answers ``-32602`` to an explicit ``null``. Decoding ignores unknown fields, so a newer Chrome
that adds fields never breaks an older cdpseq.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

import msgspec

R = TypeVar("R")


class Command(msgspec.Struct, Generic[R], kw_only=True, omit_defaults=True):
    """Parameters of one CDP command; ``R`` is the Struct its result decodes into."""

    METHOD: ClassVar[str]
    RESULT: ClassVar[type[Any]]


class Event(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Parameters of one CDP event."""

    METHOD: ClassVar[str]


class NoResult(msgspec.Struct):
    """The result of a command that returns nothing."""
