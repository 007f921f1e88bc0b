"""How a Tab keeps its out-of-process iframes from the browser's attach and detach events, fed
to its observer directly (no browser): nested frames attach through their parent's session,
and a frame that detaches takes the frames inside it along."""

from __future__ import annotations

from typing import Any

import msgspec

from cdpseq.browser import Tab
from cdpseq.wire.router import IncomingEvent


class _Connection:
    def __init__(self) -> None:
        self.taps: dict[str | None, Any] = {}

    def _tap(self, session_id: str | None, callback: Any) -> None:
        self.taps[session_id] = callback

    def _untap(self, session_id: str | None) -> None:
        self.taps.pop(session_id, None)


class _Browser:
    def __init__(self) -> None:
        self.connection = _Connection()


def _event(method: str, session_id: str, **params: Any) -> IncomingEvent:
    return IncomingEvent(method, session_id, msgspec.Raw(msgspec.json.encode(params)))


def _attached(parent: str, session_id: str, frame: str, kind: str = "iframe") -> IncomingEvent:
    return _event("Target.attachedToTarget", parent, sessionId=session_id, waitingForDebugger=False,
                  targetInfo={"targetId": frame, "type": kind, "url": f"http://{frame}/"})


def test_nested_frames_are_kept_and_go_with_their_parent() -> None:
    browser = _Browser()
    tab = Tab(browser, "T", "S0")  # type: ignore[arg-type]
    tab._observe(_attached("S0", "S1", "F1"))
    tab._observe(_attached("S0", "W1", "worker", kind="worker"))  # not a frame
    # The nested frame's attach comes on the outer frame's session, through the tap set for it.
    browser.connection.taps["S1"](_attached("S1", "S2", "F2"))
    tab._observe(_attached("S0", "S3", "F3"))
    assert tab.frame_sessions == {"S1", "S2", "S3"}
    assert tab.frames["S2"].parent_session == "S1" and tab.frames["S2"].frame_id == "F2"
    assert set(browser.connection.taps) == {"S1", "S2", "S3"}
    tab._observe(_event("Target.detachedFromTarget", "S0", sessionId="S1"))
    assert set(tab.frames) == {"S3"} and tab.frame_sessions == {"S3"}
    assert set(browser.connection.taps) == {"S3"}
