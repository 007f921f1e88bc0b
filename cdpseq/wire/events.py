"""The CDP events cdpseq decodes on hot paths, lean: targets (attached, detached, created, info
changed), and the network and page events the settle watch follows through an act.

Why not the generated ``cdpseq.cdp.target`` types: the router decodes these in the wire layer,
which sits below ``cdpseq.cdp`` and may not import it; and the generated ``TargetInfo`` requires
every field the protocol marks required, experimental ones included (``canAccessOpener``), so an
event without one would not decode at all. These Structs hold only the fields cdpseq reads, each
absent one a default. (Not for speed: decoding an ``attachedToTarget`` takes ~0.65 µs either way.)
The network and page events are lean for the same tolerance: an act's watch decodes every one of
them, and one field the protocol adds or drops must not stop settling.
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


class Request(msgspec.Struct):
    """A request as ``Network.requestWillBeSent`` describes it."""

    url: str


class RequestWillBeSent(msgspec.Struct):
    """``Network.requestWillBeSent``: a request starts."""

    requestId: str
    request: Request
    type: str = "Other"
    frameId: str | None = None


class Response(msgspec.Struct):
    """A response as ``Network.responseReceived`` describes it."""

    mimeType: str = ""


class ResponseReceived(msgspec.Struct):
    """``Network.responseReceived``: a response's headers arrived."""

    requestId: str
    response: Response


class RequestEnded(msgspec.Struct):
    """``Network.loadingFinished``, ``loadingFailed`` or ``requestServedFromCache``: it ended."""

    requestId: str


class FrameStartedNavigating(msgspec.Struct):
    """``Page.frameStartedNavigating``: a frame begins a navigation."""

    frameId: str
    navigationType: str = "differentDocument"


class Frame(msgspec.Struct):
    """A frame as ``Page.frameNavigated`` describes it."""

    id: str
    parentId: str | None = None
    url: str = ""


class FrameNavigated(msgspec.Struct):
    """``Page.frameNavigated``: a frame committed a navigation."""

    frame: Frame
    type: str = "Navigation"


class LifecycleEvent(msgspec.Struct):
    """``Page.lifecycleEvent``: a frame's load reached a milestone."""

    frameId: str
    name: str


class FrameEvent(msgspec.Struct):
    """A page event that names only a frame (stopped loading, detached)."""

    frameId: str



class DownloadWillBegin(msgspec.Struct):
    """``Browser.downloadWillBegin``: a download starts."""

    frameId: str
    url: str
    suggestedFilename: str = ""
    guid: str = ""


class DownloadProgress(msgspec.Struct):
    """``Browser.downloadProgress``: a download went on, completed or was cancelled."""

    guid: str
    receivedBytes: float = 0
    state: str = "inProgress"
    filePath: str | None = None
