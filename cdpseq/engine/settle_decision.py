"""When is the page done? The pure decision core of settling (no I/O, no clock of its own).

The shell (``settle_watch``) feeds it what it observes — network requests per CDP session,
navigation progress, what the in-page probe saw (last DOM mutation, a visible loading indicator,
short timers still pending), dialogs — each with a timestamp, and asks ``decide(now)``.

The page is settled when, all at once:
- no cross-document navigation is between its start and DOMContentLoaded of the new document;
- no counted request is in flight, and none has ended for a quiet window (a chained fetch
  starts within microseconds of the previous one ending: the window spans that gap);
- the DOM has been quiet for the quiet window (style-only churn is not counted by the probe);
- no loading indicator is visible and no short timer (or other counted callback: an idle
  callback, a message the page posted to itself or a worker, an IndexedDB transaction) set
  since the action is pending.

The quiet windows apply only once something moved, and only until the page is provably idle
again. A page on which, since the watch began, no counted request started, no navigation
committed and the probe saw no mutation across an animation frame (the microtasks drained
after it), with no animation frame the act asked for still to come, is provably idle: the
window would only wait for nothing. After a change the same proof counts from the last
movement: a probe sent after the last request ended (so that a request its ``.then`` starts is
reported before the probe's answer) that saw no mutation across a frame after the last one (and
read the timer watch after it) proves the page idle, and neither window is waited out. Work
that outlives that frame without touching the DOM or the network is what the timer watch counts
(``js/timers.js``). The windows stay where no
such proof is possible (the shell says when: out-of-process iframes, whose renderers are not
ordered with this page's answers), and for a quiet window after a new document's
DOMContentLoaded (what it does before the agent's observer is installed in it is not seen).

Requests are keyed by (session, requestId); a redirect reuses its id and is counted once.
``data:``/``blob:`` URLs, WebSockets, EventSource streams and beacons never count. A request
older than the stall cap stops blocking (a long-poll never ends) but is still reported. At the
deadline the answer is ``stable: false`` with every reason that was still blocking, never a
silent timeout. A dialog left open stops the wait at once: the renderer is paused.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Resource types that never block settling: streams that stay open, and fire-and-forget pings.
EXCLUDED_TYPES = frozenset({"WebSocket", "EventSource", "Ping", "CSPViolationReport"})
EXCLUDED_SCHEMES = ("data:", "blob:", "chrome-extension:", "about:")
STREAM_MIME_TYPES = frozenset({"text/event-stream"})


# A request whose response arrived blocks only while its body keeps coming: a page that never
# reads a body (fetch(url).then(...) without .json()) never gets loadingFinished.
BODY_IDLE = 0.1
MAX_PENDING_REPORTED = 10
# How long a navigation or download the page began waits for the browser to report it: a
# download is reported once its server answered, a navigation once the browser took it up.
BROWSER_REPORT_WAIT = 2.0


@dataclass
class Request:
    """One network request the decision counts, from its start to its end."""

    session_id: str | None
    request_id: str
    url: str
    type: str
    frame_id: str | None
    started: float
    responded: bool = False
    last_activity: float = 0.0


@dataclass
class Decision:
    """What ``SettleState.decide`` answers: settled or not, why, and when to ask again."""

    settled: bool
    """Nothing blocks any more."""
    done: bool
    """Stop waiting: settled, out of time, or a dialog is holding the page."""
    reasons: list[str] = field(default_factory=list)
    """Why not settled (also when done at the deadline)."""
    pending: list[dict[str, object]] = field(default_factory=list)
    """In-flight requests, including stalled ones, as {url, type, ageMs, stalled}."""
    wake_at: float | None = None
    """When the answer may change without any new event (a window closing, a request
    reaching the stall cap, a timer falling due)."""


class SettleState:
    """Everything observed about one tab since an act began, and the decision on it."""

    def __init__(self, *, quiet: float, stall_cap: float, deadline: float, now: float) -> None:
        self.quiet = quiet
        self.stall_cap = stall_cap
        self.deadline = deadline
        self.requests: dict[tuple[str | None, str], Request] = {}
        self.network_changed = now
        self.last_mutation = now
        self.network_moved = False
        """A counted request started since the watch began: the network window applies."""
        self.dom_moved = False
        """The DOM changed (or a document committed) since the watch began: the DOM window
        applies."""
        self.spinner: str | None = None
        self.timers_due: float | None = None
        self.animating = False
        """The timer watch saw a script animation in progress (a frame loop changing the page):
        its pending reading (``timers_due``) is that animation's next frame."""
        self.navigating_since: float | None = None
        self.committed = False
        self.dialog_open = False
        self.probed = False
        self.proven_since: float | None = None
        """When the last probe that proved the page idle was sent (None: the last one did not)."""
        self.provable = False
        """The last probe could have proved the page idle: when it did not, ask again at once
        rather than wait out a window."""
        self.unprovable_until = float("-inf")
        """A new document's DOM window, from its DOMContentLoaded, is waited out in full."""
        self.page_left = 0
        """Navigations to another document and downloads the document began (its probe)."""
        self.browser_left = 0
        """Of the document's navigations and downloads, how many the browser reported."""
        self.unreported_until = float("-inf")
        """Until when the page's unreported ones are waited for (``BROWSER_REPORT_WAIT``)."""

    # -- network -----------------------------------------------------------------------------

    def request_started(self, session_id: str | None, request_id: str, url: str,
                        resource_type: str, frame_id: str | None, now: float) -> None:
        """Count a request (a redirect of one counted keeps its count)."""
        key = (session_id, request_id)
        if key in self.requests:  # a redirect: same request, counted once
            self.requests[key].url = url
            return
        if url.startswith(EXCLUDED_SCHEMES) or resource_type in EXCLUDED_TYPES:
            return
        self.requests[key] = Request(session_id, request_id, url, resource_type, frame_id, now)
        self.network_changed = now
        self.network_moved = True

    def response_received(self, session_id: str | None, request_id: str, mime_type: str,
                          now: float) -> None:
        """A request's headers arrived (an event stream stops counting)."""
        if mime_type in STREAM_MIME_TYPES:  # an event stream served as a plain fetch
            self._drop(session_id, request_id, now)
            return
        request = self.requests.get((session_id, request_id))
        if request is not None:
            request.responded = True
            request.last_activity = now
            self.network_changed = now

    def data_received(self, session_id: str | None, request_id: str, now: float) -> None:
        """A chunk of a request's body arrived: it is still active."""
        request = self.requests.get((session_id, request_id))
        if request is not None:
            request.last_activity = now

    def request_ended(self, session_id: str | None, request_id: str, now: float) -> None:
        """loadingFinished, loadingFailed (a 204 ends this way), servedFromCache."""
        self._drop(session_id, request_id, now)

    def _drop(self, session_id: str | None, request_id: str, now: float) -> None:
        if self.requests.pop((session_id, request_id), None) is not None:
            self.network_changed = now

    def session_ended(self, session_id: str, now: float) -> None:
        """A session ended (an iframe's, a worker's): its requests no longer count."""
        for key in [k for k in self.requests if k[0] == session_id]:
            del self.requests[key]
            self.network_changed = now

    def frame_detached(self, frame_id: str, now: float) -> None:
        """A frame left the page: its requests no longer count."""
        for key in [k for k, r in self.requests.items() if r.frame_id == frame_id]:
            del self.requests[key]
            self.network_changed = now

    # -- navigation and dialogs --------------------------------------------------------------

    def navigation_started(self, now: float) -> None:
        """A cross-document navigation of the main frame began."""
        if self.navigating_since is None:
            self.navigating_since = now
        self.committed = False
        self.browser_left += 1

    def download_began(self) -> None:
        """A download of the main frame began (maybe a navigation that became one)."""
        self.navigating_since = None
        self.browser_left += 1

    def navigation_committed(self, now: float, *, restored_from_cache: bool = False) -> None:
        """The main frame's new document committed."""
        self.committed = True
        self.page_left = self.browser_left = 0  # the new document's count begins
        self.last_mutation = now
        self.dom_moved = True
        self._new_document(now)
        if restored_from_cache:  # a back/forward cache restore is complete at commit
            self.navigating_since = None

    def content_loaded(self, now: float) -> None:
        """DOMContentLoaded of the main frame's new document."""
        if self.committed:
            self.navigating_since = None
        self.last_mutation = now
        self.dom_moved = True
        self._new_document(now)

    def _new_document(self, now: float) -> None:
        self.proven_since = None
        self.unprovable_until = now + self.quiet

    def dialog_opened(self, *, left_open: bool) -> None:
        """A dialog opened; one left open holds the page, so waiting ends."""
        self.dialog_open = left_open

    # -- what the in-page probe saw ----------------------------------------------------------

    def probe(self, now: float, *, quiet_for: float, spinner: str | None,
              timers_due_in: float | None, moved: bool = True, animating: bool = False,
              proven_since: float | None = None, provable: bool = False,
              leaving: int = 0) -> None:
        """``quiet_for``: seconds since the last counted DOM mutation; ``timers_due_in``: when
        the last short timer set since the action falls due (None: none pending); ``moved``:
        False only when the probe saw no counted mutation since the watch was armed, across an
        animation frame (or a whole quiet window); ``animating``: part of what is pending is a
        script animation's next frame; ``proven_since``: when this probe was sent, if it saw no
        mutation across an animation frame after the last one, the timer watch read after
        that change, and every event the page sent before its answer fed in; ``provable``: such
        a proof was possible (asking again may give one); ``leaving``: how many navigations to
        another document and downloads the document began."""
        self.probed = True
        if leaving > self.page_left:
            self.unreported_until = now + BROWSER_REPORT_WAIT
        self.page_left = leaving
        self.proven_since = proven_since
        self.provable = provable
        self.dom_moved = self.dom_moved or moved
        # Never earlier than the start: the quiet window counts from the action at least.
        self.last_mutation = max(self.last_mutation, now - quiet_for)
        self.spinner = spinner
        self.timers_due = now + timers_due_in if timers_due_in is not None else None
        self.animating = animating and timers_due_in is not None

    # -- the decision ------------------------------------------------------------------------

    def decide(self, now: float) -> Decision:
        """Whether the page is settled at ``now``, and if not, why and until when."""
        pending, blocking = self._requests(now)
        if self.dialog_open:
            return Decision(False, True, ["a JavaScript dialog is open (the page is paused)"],
                            pending)
        reasons: list[str] = []
        wakes: list[float] = []
        if self.navigating_since is not None:
            reasons.append("navigation in progress" if not self.committed
                           else "new document still loading (before DOMContentLoaded)")
        if self.page_left > self.browser_left and now < self.unreported_until:
            reasons.append("the page began a navigation or download the browser has not "
                           "reported yet")
            wakes.append(self.unreported_until)
        if blocking:
            reasons.append(f"{len(blocking)} request(s) in flight")
            wakes.append(min(self._unblocks_at(r) for r in blocking))
        elif self.network_moved and now - self.network_changed < self.quiet and \
                not self._proven(self.network_changed):
            reasons.append("network quiet window not over")
            wakes.append(now if self.provable else self.network_changed + self.quiet)
        if not self.probed:
            reasons.append("DOM not checked yet")
            wakes.append(now + 0.02)  # look again soon
        elif self.dom_moved and now - self.last_mutation < self.quiet and \
                not (self.proven_since is not None and now >= self.unprovable_until):
            reasons.append("still mutating")
            wakes.append(now if self.provable and now >= self.unprovable_until
                         else self.last_mutation + self.quiet)
        if self.spinner:
            reasons.append(f"loading indicator visible: {self.spinner}")
        if self.timers_due is not None:
            # Pending until a probe says otherwise: once its time has come the timer (or the
            # animation's next frame) is about to run, and what it does is not seen yet. A loop
            # reads as due within a frame or two, over before this decision is taken.
            reasons.append("a script animation is changing the page" if self.animating
                           else "a timer or callback set by the page is pending")
            wakes.append(max(self.timers_due, now))
        if not reasons:
            return Decision(True, True, [], pending)
        done = now >= self.deadline
        wake = min([*wakes, self.deadline])
        return Decision(False, done, reasons, pending, None if done else wake)

    def _proven(self, since: float) -> bool:
        """Did the last probe prove the page idle, sent no earlier than ``since``?"""
        return self.proven_since is not None and self.proven_since >= since

    def _unblocks_at(self, request: Request) -> float:
        cap = request.started + self.stall_cap
        return min(cap, request.last_activity + BODY_IDLE) if request.responded else cap

    def _requests(self, now: float) -> tuple[list[dict[str, object]], list[Request]]:
        """(what to report, what blocks): requests still waiting for their response, stalled
        or not, and responses whose body is still arriving."""
        pending: list[dict[str, object]] = []
        blocking: list[Request] = []
        for request in sorted(self.requests.values(), key=lambda r: r.started):
            blocks = now < self._unblocks_at(request)
            if blocks:
                blocking.append(request)
            if blocks or not request.responded:
                pending.append({"url": request.url, "type": request.type,
                                "ageMs": round((now - request.started) * 1000),
                                "stalled": not blocks})
        if len(pending) > MAX_PENDING_REPORTED:
            more = len(pending) - MAX_PENDING_REPORTED
            pending = pending[-MAX_PENDING_REPORTED:]
            pending.append({"more": more})
        return pending, blocking
