"""The settle decision core, fed events and timestamps (no browser, no clock)."""

from __future__ import annotations

import json

from cdpseq.engine.settle_decision import BODY_IDLE, BROWSER_REPORT_WAIT, SettleState
from tests.paths import CAPTURED_FRAMES

QUIET = 0.1
CAP = 2.0


def fresh(now: float = 0.0, deadline: float = 5.0) -> SettleState:
    return SettleState(quiet=QUIET, stall_cap=CAP, deadline=deadline, now=now)


def quiet_probe(state: SettleState, now: float, quiet_for: float = 1.0) -> None:
    state.probe(now, quiet_for=quiet_for, spinner=None, timers_due_in=None)


def test_nothing_happening_settles_after_the_quiet_window() -> None:
    state = fresh()
    quiet_probe(state, 0.05, quiet_for=0.05)
    decision = state.decide(0.05)
    assert not decision.settled and decision.wake_at == QUIET  # counted from the action
    quiet_probe(state, 0.1, quiet_for=0.1)
    assert state.decide(0.1).settled


def test_the_dom_must_be_checked_before_settling() -> None:
    decision = fresh().decide(1.0)
    assert not decision.settled and "DOM not checked yet" in decision.reasons


def test_a_request_in_flight_blocks_until_it_ends_plus_the_window() -> None:
    state = fresh()
    state.request_started("S", "1", "http://x/api", "Fetch", "F", 0.01)
    quiet_probe(state, 0.2)
    decision = state.decide(0.2)
    assert not decision.settled and "1 request(s) in flight" in decision.reasons
    assert decision.pending == [{"url": "http://x/api", "type": "Fetch", "ageMs": 190,
                                 "stalled": False}]
    state.request_ended("S", "1", 0.31)
    assert not state.decide(0.35).settled  # network quiet window not over
    assert state.decide(0.42).settled


def test_chained_requests_do_not_settle_in_the_gap_between_them() -> None:
    state = fresh()
    quiet_probe(state, 0.0)
    state.request_started("S", "1", "http://x/a", "Fetch", None, 0.0)
    state.request_ended("S", "1", 0.2)
    state.request_started("S", "2", "http://x/b", "Fetch", None, 0.2001)
    assert not state.decide(0.25).settled
    state.request_ended("S", "2", 0.4)
    quiet_probe(state, 0.55)
    assert state.decide(0.55).settled


def test_a_redirect_is_one_request() -> None:
    state = fresh()
    state.request_started("S", "1", "http://x/old", "Document", None, 0.0)
    state.request_started("S", "1", "http://x/new", "Document", None, 0.05)
    state.request_ended("S", "1", 0.1)
    assert state.requests == {}


def test_excluded_kinds_never_block() -> None:
    state = fresh()
    for rid, (url, kind) in enumerate([
            ("data:text/plain,x", "Fetch"), ("blob:http://x/1", "Fetch"),
            ("ws://x/socket", "WebSocket"), ("http://x/sse", "EventSource"),
            ("http://x/beacon", "Ping")]):
        state.request_started("S", str(rid), url, kind, None, 0.0)
    assert state.requests == {}
    state.request_started("S", "stream", "http://x/events", "Fetch", None, 0.0)
    state.response_received("S", "stream", "text/event-stream", 0.01)
    assert state.requests == {}


def test_a_stalled_request_stops_blocking_but_is_reported() -> None:
    state = fresh(deadline=10.0)
    state.request_started("S", "poll", "http://x/longpoll", "XHR", None, 0.0)
    quiet_probe(state, 1.0)
    decision = state.decide(1.0)
    assert not decision.settled and decision.wake_at == CAP
    quiet_probe(state, CAP)
    decision = state.decide(CAP)
    assert decision.settled
    assert decision.pending == [{"url": "http://x/longpoll", "type": "XHR",
                                 "ageMs": 2000, "stalled": True}]


def test_a_response_whose_body_is_never_read_stops_blocking_when_idle() -> None:
    state = fresh()
    state.request_started("S", "1", "http://x/api", "Fetch", None, 0.0)
    state.response_received("S", "1", "application/json", 0.01)
    state.data_received("S", "1", 0.05)
    quiet_probe(state, 0.1)
    assert not state.decide(0.1).settled
    quiet_probe(state, 0.05 + BODY_IDLE + QUIET)
    assert state.decide(0.05 + BODY_IDLE + QUIET).settled


def test_requests_end_with_their_session_or_frame() -> None:
    state = fresh()
    state.request_started("child", "1", "http://x/a", "Fetch", "F2", 0.0)
    state.request_started("S", "2", "http://x/b", "Fetch", "F3", 0.0)
    state.session_ended("child", 0.1)
    state.frame_detached("F3", 0.1)
    assert state.requests == {}


def test_same_key_in_two_sessions_is_two_requests() -> None:
    state = fresh()
    state.request_started("S1", "7", "http://x/a", "Fetch", None, 0.0)
    state.request_started("S2", "7", "http://x/b", "Fetch", None, 0.0)
    state.request_ended("S1", "7", 0.1)
    assert list(state.requests) == [("S2", "7")]


def test_cross_document_navigation_waits_for_commit_and_content_loaded() -> None:
    state = fresh()
    quiet_probe(state, 0.0)
    state.navigation_started(0.01)
    assert "navigation in progress" in state.decide(0.5).reasons
    state.navigation_committed(0.6)
    assert "new document still loading (before DOMContentLoaded)" in state.decide(0.65).reasons
    state.content_loaded(0.7)
    quiet_probe(state, 0.85, quiet_for=0.15)
    assert state.decide(0.85).settled


def test_back_forward_cache_restore_is_done_at_commit() -> None:
    state = fresh()
    state.navigation_started(0.0)
    state.navigation_committed(0.05, restored_from_cache=True)
    quiet_probe(state, 0.2, quiet_for=0.15)
    assert state.decide(0.2).settled


def test_a_dialog_left_open_stops_the_wait_at_once() -> None:
    state = fresh()
    state.request_started("S", "1", "http://x/a", "Fetch", None, 0.0)
    state.dialog_opened(left_open=True)
    decision = state.decide(0.01)
    assert decision.done and not decision.settled
    assert decision.reasons == ["a JavaScript dialog is open (the page is paused)"]


def test_loading_indicator_and_short_timers_keep_it_unsettled() -> None:
    state = fresh(deadline=1.0)
    state.probe(0.5, quiet_for=0.5, spinner="div.spinner", timers_due_in=None)
    decision = state.decide(0.5)
    assert "loading indicator visible: div.spinner" in decision.reasons and not decision.done
    state.probe(0.6, quiet_for=0.6, spinner=None, timers_due_in=0.2)
    decision = state.decide(0.6)
    assert not decision.settled and decision.wake_at is not None
    assert abs(decision.wake_at - 0.8) < 1e-9


def test_at_the_deadline_it_answers_unstable_with_every_reason() -> None:
    state = fresh(deadline=1.0)
    state.request_started("S", "1", "http://x/slow", "Fetch", None, 0.5)
    state.probe(1.0, quiet_for=0.0, spinner=".spinner", timers_due_in=None)
    decision = state.decide(1.0)
    assert decision.done and not decision.settled
    assert decision.reasons == ["1 request(s) in flight", "still mutating",
                                "loading indicator visible: .spinner"]
    assert decision.pending[0]["url"] == "http://x/slow"


def test_pending_list_is_capped() -> None:
    state = fresh()
    for i in range(25):
        state.request_started("S", str(i), f"http://x/{i}", "Fetch", None, 0.0)
    pending = state.decide(0.1).pending
    assert len(pending) == 11 and pending[-1] == {"more": 15}


def test_replaying_real_network_frames_ends_every_request() -> None:
    """Network events of a real Chromium session: every counted request ends."""
    frames = [json.loads(line) for line in
              CAPTURED_FRAMES.read_text().splitlines()]
    state = fresh()
    started = 0
    for t, frame in enumerate(frames):
        data, now = frame["data"], t / 1000
        params, session = data.get("params", {}), frame["sessionId"]
        if frame["method"] == "Network.requestWillBeSent":
            state.request_started(session, params["requestId"], params["request"]["url"],
                                  params.get("type", "Other"), params.get("frameId"), now)
            started += 1
        elif frame["method"] in ("Network.loadingFinished", "Network.loadingFailed",
                                 "Network.requestServedFromCache"):
            state.request_ended(session, params["requestId"], now)
        elif frame["method"] == "Network.responseReceived":
            state.response_received(session, params["requestId"],
                                    params["response"].get("mimeType", ""), now)
    assert started >= 5
    assert all(r.responded for r in state.requests.values())  # nothing left waiting


# -- the idle page: no quiet window when nothing moved ---------------------------------------------


def idle_probe(state: SettleState, now: float, timers_due_in: float | None = None,
               leaving: int = 0) -> None:
    state.probe(now, quiet_for=now, spinner=None, timers_due_in=timers_due_in, moved=False,
                leaving=leaving)


def test_a_page_where_nothing_moved_settles_at_the_first_idle_probe() -> None:
    state = fresh()
    idle_probe(state, 0.03)
    assert state.decide(0.03).settled  # long before the 0.1 s window


def test_an_idle_probe_still_waits_for_a_counted_timer_or_callback() -> None:
    state = fresh()
    idle_probe(state, 0.03, timers_due_in=0.01)
    decision = state.decide(0.03)
    assert not decision.settled and decision.wake_at == 0.04
    assert "a timer or callback set by the page is pending" in decision.reasons


def test_a_request_since_the_action_brings_the_network_window_back() -> None:
    state = fresh()
    state.request_started("S", "1", "http://x/api", "Fetch", None, 0.01)
    state.request_ended("S", "1", 0.02)
    idle_probe(state, 0.03)
    decision = state.decide(0.03)
    assert not decision.settled and "network quiet window not over" in decision.reasons
    assert state.decide(0.121).settled


def test_an_excluded_request_does_not_count_as_movement() -> None:
    state = fresh()
    state.request_started("S", "1", "data:,x", "Image", None, 0.01)
    idle_probe(state, 0.03)
    assert state.decide(0.03).settled


def test_once_the_dom_moved_the_quiet_window_applies_to_later_probes() -> None:
    state = fresh()
    quiet_probe(state, 0.03, quiet_for=0.01)  # a mutation at 0.02
    idle_probe(state, 0.05)  # a later probe cannot undo what was seen
    decision = state.decide(0.05)
    assert not decision.settled and "still mutating" in decision.reasons
    assert decision.wake_at == 0.12


def test_a_committed_navigation_counts_as_movement() -> None:
    state = fresh()
    state.navigation_started(0.01)
    state.navigation_committed(0.02)
    state.content_loaded(0.03)
    idle_probe(state, 0.04)
    assert not state.decide(0.04).settled
    assert state.decide(0.13).settled


# -- what the timer watch reads as pending ---------------------------------------------------------


def test_a_pending_reading_blocks_until_a_probe_says_otherwise() -> None:
    # A step animation's next timer was due in 5 ms when read: once that time has passed it is
    # about to run (and set the next), not over. The decision wakes at once to ask again.
    state = fresh(deadline=1.0)
    idle_probe(state, 0.03, timers_due_in=0.005)
    decision = state.decide(0.04)
    assert not decision.settled and not decision.done
    assert decision.reasons == ["a timer or callback set by the page is pending"]
    assert decision.wake_at == 0.04
    idle_probe(state, 0.07)  # the next reading: nothing pending any more
    assert state.decide(0.07).settled


def test_a_script_animation_is_named_and_reported_at_the_deadline() -> None:
    state = fresh(deadline=1.0)
    state.probe(0.5, quiet_for=0.5, spinner=None, timers_due_in=0.01, moved=False,
                animating=True)
    decision = state.decide(0.5)
    assert decision.reasons == ["a script animation is changing the page"]
    assert not decision.done and decision.wake_at == 0.51
    state.probe(1.0, quiet_for=1.0, spinner=None, timers_due_in=0.01, moved=False,
                animating=True)
    decision = state.decide(1.0)
    assert decision.done and not decision.settled
    assert decision.reasons == ["a script animation is changing the page"]


def test_an_animation_flag_without_anything_pending_is_no_reason() -> None:
    state = fresh()
    state.probe(0.03, quiet_for=0.03, spinner=None, timers_due_in=None, moved=False,
                animating=True)
    assert state.decide(0.03).settled


# -- after a change: the proof ends the windows ----------------------------------------------------


def proven_probe(state: SettleState, now: float, sent: float, quiet_for: float = 0.04,
                 timers_due_in: float | None = None) -> None:
    """A probe sent at ``sent`` that saw the last mutation ``quiet_for`` ago and no change across
    two frames after it."""
    state.probe(now, quiet_for=quiet_for, spinner=None, timers_due_in=timers_due_in,
                proven_since=sent, provable=True)


def test_a_proof_after_a_mutation_settles_before_the_window() -> None:
    state = fresh()
    quiet_probe(state, 0.03, quiet_for=0.01)  # a mutation at 0.02: the window would run to 0.12
    proven_probe(state, 0.06, sent=0.03)
    assert state.decide(0.06).settled


def test_a_proof_still_waits_for_a_counted_timer() -> None:
    state = fresh()
    proven_probe(state, 0.06, sent=0.03, timers_due_in=0.05)
    decision = state.decide(0.06)
    assert not decision.settled
    assert decision.reasons == ["a timer or callback set by the page is pending"]


def test_a_proof_counts_for_the_network_only_when_sent_after_the_last_request_ended() -> None:
    state = fresh()
    state.request_started("s", "1", "https://x/api", "Fetch", None, 0.01)
    state.request_ended("s", "1", 0.05)
    proven_probe(state, 0.07, sent=0.04)  # sent before the end: a chained fetch may be missed
    decision = state.decide(0.07)
    assert not decision.settled and "network quiet window not over" in decision.reasons
    assert decision.wake_at == 0.07  # a proof is possible: ask again at once
    proven_probe(state, 0.09, sent=0.07)
    assert state.decide(0.09).settled


def test_without_a_possible_proof_the_windows_stay() -> None:
    state = fresh()
    state.request_started("s", "1", "https://x/api", "Fetch", None, 0.01)
    state.request_ended("s", "1", 0.05)
    # An unproved probe on a page where no proof is possible (out-of-process iframes).
    state.probe(0.07, quiet_for=0.03, spinner=None, timers_due_in=None, provable=False)
    decision = state.decide(0.07)
    assert not decision.settled
    assert "network quiet window not over" in decision.reasons
    assert "still mutating" in decision.reasons
    assert decision.wake_at == 0.14  # the DOM window (0.04 + 0.1) closes first
    assert state.decide(0.151).settled


def test_a_new_documents_dom_window_is_not_shortened_by_a_proof() -> None:
    state = fresh()
    state.navigation_started(0.01)
    state.navigation_committed(0.02)
    state.content_loaded(0.03)
    proven_probe(state, 0.06, sent=0.04)
    decision = state.decide(0.06)
    assert not decision.settled and decision.reasons == ["still mutating"]
    assert decision.wake_at == 0.13
    proven_probe(state, 0.14, sent=0.13, quiet_for=0.11)
    assert state.decide(0.14).settled


UNREPORTED = "the page began a navigation or download the browser has not reported yet"


def test_a_navigation_or_download_the_page_began_waits_for_the_browser_to_report_it() -> None:
    # The page's probe says it began one; the browser's report comes in its own time.
    state = fresh()
    idle_probe(state, 0.03, leaving=1)
    decision = state.decide(0.03)
    assert not decision.settled and UNREPORTED in decision.reasons
    assert decision.wake_at == 0.03 + BROWSER_REPORT_WAIT
    state.download_began()
    idle_probe(state, 0.2, leaving=1)
    assert state.decide(0.2).settled
    # A second one in the same document is waited for in turn; a navigation is reported too.
    idle_probe(state, 0.3, leaving=2)
    assert UNREPORTED in state.decide(0.3).reasons
    state.navigation_started(0.35)
    assert state.decide(0.35).reasons == ["navigation in progress"]


def test_an_unreported_one_is_waited_for_only_so_long() -> None:
    # One the browser never reports (a link to an app's own scheme): the wait is bounded.
    state = fresh()
    idle_probe(state, 0.03, leaving=1)
    assert not state.decide(0.03 + BROWSER_REPORT_WAIT - 0.01).settled
    idle_probe(state, 0.03 + BROWSER_REPORT_WAIT, leaving=1)
    assert state.decide(0.03 + BROWSER_REPORT_WAIT).settled


def test_a_new_document_counts_its_own() -> None:
    state = fresh()
    idle_probe(state, 0.01, leaving=1)
    state.navigation_started(0.02)
    state.navigation_committed(0.1)
    state.content_loaded(0.12)
    quiet_probe(state, 0.3, quiet_for=0.18)  # the new document began none
    assert state.decide(0.3).settled
