"""The pure routing core, fed frames captured from a real Chromium 156 session (no browser)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from cdpseq import ConnectionClosed, ProtocolError, TargetClosed, TargetCrashed
from cdpseq.wire.router import IncomingEvent, Pending, Router
from tests.paths import CAPTURED_FRAMES

CAPTURED = CAPTURED_FRAMES


def captured() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CAPTURED.read_text().splitlines() if line]


class Done:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> None:
        self.calls += 1


def send(router: Router, method: str = "X.y", session_id: str | None = None
         ) -> tuple[Pending, Done]:
    done = Done()
    pending, frame = router.command(method, {"a": 1}, session_id, done)
    sent = json.loads(frame)
    assert sent["id"] == pending.id and sent["method"] == method
    assert ("sessionId" in sent) == (session_id is not None)
    return pending, done


def attach(router: Router, session_id: str = "S1", target_id: str = "T1") -> None:
    router.receive(json.dumps({"method": "Target.attachedToTarget", "params": {
        "sessionId": session_id, "targetInfo": {"targetId": target_id, "type": "page"},
        "waitingForDebugger": False}}))


def test_replaying_a_real_session_resolves_every_command_and_routes_every_event() -> None:
    frames = captured()
    responses = [f for f in frames if f["kind"] == "response"]
    events = [f for f in frames if f["kind"] == "event"]
    assert len(responses) > 30 and len(events) > 100
    router = Router()
    ids = sorted(f["data"]["id"] for f in responses)
    pendings = {}
    for _ in range(ids[-1]):
        pending, done = send(router)
        pendings[pending.id] = (pending, done)
    routed: list[IncomingEvent] = []
    for frame in frames:
        out = router.receive(json.dumps(frame["data"]))
        if out is not None:
            routed.append(out)
    for response in responses:
        pending, done = pendings[response["data"]["id"]]
        assert done.calls == 1
        if "error" in response["data"]:
            with pytest.raises(ProtocolError):
                pending.outcome()
        else:
            assert msgspec.json.decode(pending.outcome()) == response["data"]["result"]
    assert [e.method for e in routed] == [f["method"] for f in events]
    assert all(e.session_id == f["sessionId"] for e, f in zip(routed, events, strict=True))
    stats = router.statistics()
    assert stats.invalid_frames == stats.unknown_session_frames == 0
    assert stats.error_frames_without_id == stats.unmatched_responses == 0


def test_event_params_stay_raw_until_asked() -> None:
    router = Router()
    event = router.receive(b'{"method":"Page.loadEventFired","params":{"timestamp":12.5}}')
    assert event is not None
    assert isinstance(event.params, msgspec.Raw)
    assert bytes(event.params) == b'{"timestamp":12.5}'


def test_ids_are_one_counter_across_sessions() -> None:
    router = Router()
    attach(router, "S1")
    attach(router, "S2", "T2")
    ids = [send(router, session_id=s)[0].id for s in (None, "S1", "S2", "S1")]
    assert ids == [1, 2, 3, 4]


def test_optional_nulls_are_never_sent() -> None:
    router = Router()
    _, frame = router.command("Page.enable", None, None, Done())
    assert json.loads(frame) == {"id": 1, "method": "Page.enable"}


def test_detach_fails_only_that_sessions_commands_and_later_ones_at_once() -> None:
    router = Router()
    attach(router, "S1", "T1")
    attach(router, "S2", "T2")
    p1, d1 = send(router, session_id="S1")
    p2, d2 = send(router, session_id="S2")
    router.receive(json.dumps({"method": "Target.detachedFromTarget",
                               "params": {"sessionId": "S1", "targetId": "T1"}}))
    assert d1.calls == 1 and d2.calls == 0
    with pytest.raises(TargetClosed) as caught:
        p1.outcome()
    assert caught.value.target_id == "T1" and caught.value.session_id == "S1"
    with pytest.raises(TargetClosed):
        send(router, session_id="S1")
    assert router.statistics().pending_commands == 1
    # Frames still arriving for the dead session are skipped, not fatal.
    assert router.receive(json.dumps({"method": "Page.loadEventFired", "sessionId": "S1",
                                      "params": {}})) is None


def test_target_crashed_fails_the_crashed_targets_session() -> None:
    router = Router()
    attach(router, "S1", "T1")
    attach(router, "S2", "T2")
    p1, _ = send(router, session_id="S1")
    p2, d2 = send(router, session_id="S2")
    router.receive(json.dumps({"method": "Target.targetCrashed", "params": {
        "targetId": "T1", "status": "killed", "errorCode": 9}}))
    with pytest.raises(TargetCrashed) as caught:
        p1.outcome()
    assert "killed" in caught.value.reason
    assert d2.calls == 0
    # A crashed session stays attached: a navigation can revive it.
    send(router, session_id="S1")


def test_inspector_events_end_or_crash_a_session() -> None:
    router = Router()
    attach(router, "S1", "T1")
    attach(router, "S2", "T2")
    p1, _ = send(router, session_id="S1")
    p2, _ = send(router, session_id="S2")
    router.receive(json.dumps({"method": "Inspector.targetCrashed", "sessionId": "S1",
                               "params": {}}))
    router.receive(json.dumps({"method": "Inspector.detached", "sessionId": "S2",
                               "params": {"reason": "replaced_with_devtools"}}))
    with pytest.raises(TargetCrashed):
        p1.outcome()
    with pytest.raises(TargetClosed) as caught:
        p2.outcome()
    assert caught.value.reason == "replaced_with_devtools"
    assert router.ended("S2") is not None and router.ended("S1") is None


def test_the_second_report_of_a_crash_spares_what_was_sent_after_the_first() -> None:
    # Chrome reports one crash twice, in either order; a navigate sent between the two (the
    # one reviving the tab) must not fail. A crash after that fails what is pending again.
    router = Router()
    attach(router, "S1", "T1")
    for first, second in [("inspector", "target"), ("target", "inspector")]:
        at_crash, _ = send(router, session_id="S1")
        _crash_report(router, first)
        with pytest.raises(TargetCrashed):
            at_crash.outcome()
        reviving, revived = send(router, session_id="S1")
        _crash_report(router, second)
        assert revived.calls == 0, first
    _crash_report(router, "inspector")  # a new crash
    assert revived.calls == 1
    with pytest.raises(TargetCrashed):
        reviving.outcome()


def _crash_report(router: Router, kind: str) -> None:
    if kind == "inspector":
        router.receive(json.dumps({"method": "Inspector.targetCrashed", "sessionId": "S1",
                                   "params": {}}))
    else:
        router.receive(json.dumps({"method": "Target.targetCrashed", "params": {
            "targetId": "T1", "status": "crashed", "errorCode": 11}}))


def test_close_fails_everything_and_every_later_command() -> None:
    router = Router()
    attach(router)
    pendings = [send(router, session_id=s) for s in (None, "S1")]
    router.close("websocket ABNORMAL_CLOSURE (1006)")
    for pending, done in pendings:
        assert done.calls == 1
        with pytest.raises(ConnectionClosed):
            pending.outcome()
    with pytest.raises(ConnectionClosed) as caught:
        send(router)
    assert "1006" in caught.value.reason
    assert router.statistics().pending_commands == 0


def test_an_abandoned_command_leaves_no_state_and_its_late_answer_is_skipped() -> None:
    router = Router()
    pending, done = send(router)
    router.forget(pending)
    assert router.statistics().pending_commands == 0
    assert router.receive(json.dumps({"id": pending.id, "result": {}})) is None
    assert done.calls == 0
    assert router.statistics().unmatched_responses == 1


def test_a_posted_command_is_numbered_in_line_never_pending_and_its_answer_dropped() -> None:
    router = Router()
    attach(router, "S1", "T1")
    before, _ = send(router, session_id="S1")
    posted = json.loads(router.post("Page.removeScriptToEvaluateOnNewDocument",
                                    {"identifier": "1"}, "S1"))
    after, _ = send(router, session_id="S1")
    assert (before.id, posted["id"], after.id) == (before.id, before.id + 1, before.id + 2)
    assert posted["sessionId"] == "S1" and posted["params"] == {"identifier": "1"}
    assert router.statistics().pending_commands == 2
    # Its answer (even an error) resolves nothing and is no unmatched response.
    router.receive(json.dumps({"id": posted["id"], "sessionId": "S1",
                               "error": {"code": -32000, "message": "no such script"}}))
    assert router.statistics().unmatched_responses == 0
    # The same id answered again is unknown now.
    router.receive(json.dumps({"id": posted["id"], "sessionId": "S1", "result": {}}))
    assert router.statistics().unmatched_responses == 1
    # Nothing posted outlives its session or the connection.
    router.post("X.y", {}, "S1")
    router.receive(json.dumps({"method": "Target.detachedFromTarget",
                               "params": {"sessionId": "S1", "targetId": "T1"}}))
    assert not router._posted
    with pytest.raises(TargetClosed):
        router.post("X.y", {}, "S1")
    router.post("X.y", {}, None)
    router.close("gone")
    assert not router._posted
    with pytest.raises(ConnectionClosed):
        router.post("X.y", {}, None)


@pytest.mark.parametrize("frame", [
    b"\xff\xfe", "", "null", "42", '{"id": "seven"}', '{"method": 5}',
    '{"error": {"code": -32000, "message": "no id"}}',
])
def test_nothing_a_browser_sends_raises(frame: str | bytes) -> None:
    router = Router()
    pending, done = send(router)
    assert router.receive(frame) is None
    assert done.calls == 0 and router.statistics().pending_commands == 1
