"""The target events several layers decode (attached, detached, created, info changed), lean.

Why not the generated ``cdpseq.cdp.target`` types: the router decodes these in the wire layer,
which sits below ``cdpseq.cdp`` and may not import it; and the generated ``TargetInfo`` requires
every field the protocol marks required, experimental ones included (``canAccessOpener``), so an
event without one would not decode at all. These Structs hold only the fields cdpseq reads, each
absent one a default. (Not for speed: decoding an ``attachedToTarget`` takes ~0.65 µs either way.)
"""

from __future__ import annotations

import msgspec


class TargetInfo(msgspec.Struct):
    """A target as its events describe it."""

    targetId: str
    type: str = ""
    url: str = ""
    title: str = ""
    openerId: str | None = None


class AttachedToTarget(msgspec.Struct):
    """``Target.attachedToTarget``: a session to a target opened."""

    sessionId: str
    targetInfo: TargetInfo


class DetachedFromTarget(msgspec.Struct):
    """``Target.detachedFromTarget``: a session ended."""

    sessionId: str
    targetId: str | None = None


class TargetEvent(msgspec.Struct):
    """``Target.targetCreated`` and ``Target.targetInfoChanged``: a target and what it shows."""

    targetInfo: TargetInfo
