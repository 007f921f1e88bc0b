"""What a tab's page said and fetched, kept per tab and attributed to an act's steps (pure).

``TabLog`` (a tab extension) is fed synchronously, as each event arrives, with the tab's
console messages (``Runtime.consoleAPICalled``), uncaught exceptions
(``Runtime.exceptionThrown``) and its network requests (not what the browser logs itself: the
Log domain stays off). It keeps the last ``RING`` of each in a
ring for the ``logs`` step, and, while an act runs, hands what matters to the act's
``ActEffects``: errors and warnings, and requests that failed or answered >= 400, each to the
step running when it happened (a request: when it started). Caps: ``PER_STEP`` entries a kind
a step, the rest counted in ``*More``; texts cut at ``TEXT_CAP`` characters; URLs shown with
query values and passwords as ``***`` (``errors.shown_url``).

The ring covers what this process saw since it first acted on the tab; Runtime replays the
document's earlier console messages when enabled, so those are in it too, but not earlier
requests.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any, Literal

import msgspec

from ..errors import shown_url
from .reports import ConsoleEntry, RequestEntry, StepEffects

RING = 500
"""Console messages, and requests, each ring keeps per tab."""
PER_STEP = 5
"""Entries of one kind a step reports; past them, ``consoleMore`` / ``requestsMore`` count."""
TEXT_CAP = 200
"""Characters of a message or URL kept."""
_OPEN_REQUESTS = 2000

Level = Literal["info", "warning", "error"]
LEVELS: tuple[Level, ...] = ("info", "warning", "error")
_CONSOLE_LEVEL: dict[str, Level] = {"error": "error", "assert": "error", "warning": "warning"}
"""Every other console call (log, info, debug, table, ...) is ``info``."""
LOG_METHODS = frozenset((
    "Runtime.consoleAPICalled", "Runtime.exceptionThrown",
    "Network.requestWillBeSent", "Network.responseReceived", "Network.loadingFailed",
))


# -- the lean events -----------------------------------------------------------------------------


class _Arg(msgspec.Struct):
    type: str = ""
    value: Any = None
    description: str | None = None


class _CallFrame(msgspec.Struct):
    url: str = ""
    lineNumber: int = 0


class _Stack(msgspec.Struct):
    callFrames: list[_CallFrame] = []


class _ConsoleCalled(msgspec.Struct):
    type: str = "log"
    args: list[_Arg] = []
    stackTrace: _Stack | None = None


class _ExceptionDetails(msgspec.Struct):
    text: str = ""
    url: str | None = None
    lineNumber: int = 0
    exception: _Arg | None = None


class _ExceptionThrown(msgspec.Struct):
    exceptionDetails: _ExceptionDetails


class _Request(msgspec.Struct):
    url: str
    method: str = "GET"


class _WillBeSent(msgspec.Struct):
    requestId: str
    request: _Request
    type: str = "Other"


class _Response(msgspec.Struct):
    status: int = 0


class _Received(msgspec.Struct):
    requestId: str
    response: _Response


class _Failed(msgspec.Struct):
    requestId: str
    errorText: str = ""
    canceled: bool = False


# -- pieces ------------------------------------------------------------------------------------


def cut(text: str, cap: int = TEXT_CAP) -> str:
    """``text`` on one line, at most ``cap`` characters (an ellipsis says it was cut)."""
    text = " ".join(text.split())
    return text if len(text) <= cap else text[:cap - 1] + "…"


def _where(url: str | None, line: int | None) -> str | None:
    if not url:
        return None
    return cut(f"{shown_url(url)}:{(line or 0) + 1}")


def _arg_text(arg: _Arg) -> str:
    if arg.type == "string" and isinstance(arg.value, str):
        return arg.value
    if arg.description is not None:
        return arg.description
    return "undefined" if arg.type == "undefined" else msgspec.json.encode(arg.value).decode()


def console_entry(method: str, params: bytes) -> ConsoleEntry:
    """The console entry of a ``consoleAPICalled`` or ``exceptionThrown`` event."""
    decode = msgspec.json.decode
    if method == "Runtime.consoleAPICalled":
        called = decode(params, type=_ConsoleCalled)
        frames = called.stackTrace.callFrames if called.stackTrace else []
        return ConsoleEntry(level=_CONSOLE_LEVEL.get(called.type, "info"),
                            text=cut(" ".join(_arg_text(a) for a in called.args)),
                            source=_where(frames[0].url, frames[0].lineNumber)
                            if frames else None)
    details = decode(params, type=_ExceptionThrown).exceptionDetails
    thrown = details.exception
    what = (thrown.description or _arg_text(thrown)).split("\n")[0] if thrown else ""
    text = f"{details.text} {what}".strip() if what not in details.text else details.text
    return ConsoleEntry(level="error", text=cut(text),
                        source=_where(details.url, details.lineNumber))


def is_effect(entry: ConsoleEntry | RequestEntry) -> bool:
    """Whether a step reports the entry: an error or warning, or a request that failed
    (cancelled ones aside) or answered >= 400."""
    if isinstance(entry, ConsoleEntry):
        return entry.level in ("error", "warning")
    return (entry.status or 0) >= 400 or entry.error is not None


# -- what one act's steps caused -----------------------------------------------------------------


class _Kind:
    __slots__ = ("entries", "more")

    def __init__(self) -> None:
        self.entries: list[Any] = []
        self.more = 0

    def add(self, entry: Any) -> None:
        if len(self.entries) < PER_STEP:
            self.entries.append(entry)
        else:
            self.more += 1


class ActEffects:
    """What an act's steps caused, as the tab's events come in: the step running when each
    happened (``step``), console entries and failed requests per step, capped."""

    def __init__(self) -> None:
        self.step: int | None = None
        """The step running now (it keeps the time until the next one starts)."""
        self.console: dict[int, _Kind] = {}
        self.requests: dict[int, _Kind] = {}
        self.started_in: dict[str, int] = {}
        """The step during which each request of the act started."""
        self.others: dict[int, dict[str, list[Any]]] = {}

    def began(self, index: int) -> None:
        """Step ``index`` starts: what happens from now on is its doing."""
        self.step = index

    def request_started(self, request_id: str) -> None:
        """A request started now (a later failure is the doing of the step that sent it)."""
        if self.step is not None and len(self.started_in) < _OPEN_REQUESTS:
            self.started_in[request_id] = self.step

    def console_entry(self, entry: ConsoleEntry) -> None:
        """A console entry of the tab, kept when it is an error or warning."""
        if self.step is not None and is_effect(entry):
            self.console.setdefault(self.step, _Kind()).add(entry)

    def request_entry(self, request_id: str, entry: RequestEntry) -> None:
        """A request that ended (or answered), kept when it failed or answered >= 400."""
        step = self.started_in.pop(request_id, self.step)
        if step is not None and is_effect(entry):
            self.requests.setdefault(step, _Kind()).add(entry)

    def add(self, step: int | None, kind: str, item: Any) -> None:
        """A download, new tab or dialog ``item`` (``kind``: downloads, newTabs, dialogs) of
        ``step`` (None: the step running now)."""
        step = self.step if step is None else step
        if step is not None:
            self.others.setdefault(step, {}).setdefault(kind, []).append(item)

    def of(self, index: int) -> StepEffects | None:
        """What step ``index`` caused, or None when nothing."""
        console, requests = self.console.get(index), self.requests.get(index)
        others = self.others.get(index, {})
        if console is None and requests is None and not others:
            return None
        return StepEffects(
            console=console.entries if console else [],
            console_more=console.more if console else 0,
            requests=requests.entries if requests else [],
            requests_more=requests.more if requests else 0,
            downloads=others.get("downloads", []), new_tabs=others.get("newTabs", []),
            dialogs=others.get("dialogs", []))


# -- the tab's log --------------------------------------------------------------------------------


class TabLog:
    """A tab's recent console entries and requests (``tab.extension(TabLog)``), numbered in
    the order they came, and the act recording what its steps cause, while one runs."""

    def __init__(self, tab: object = None) -> None:
        self.console: deque[tuple[int, ConsoleEntry]] = deque(maxlen=RING)
        self.requests: deque[tuple[int, RequestEntry]] = deque(maxlen=RING)
        self.seq = 0
        """How many entries came so far (each is numbered: the marks below are numbers)."""
        self.open: dict[str, tuple[str, str]] = {}
        """Requests in flight: id -> (method, shown URL)."""
        self.act: ActEffects | None = None
        self.act_started = 0
        self.last_act_ended = 0
        self.tapped = False

    def feed(self, method: str, params: bytes) -> None:
        """One event of the tab (any method; those of ``LOG_METHODS`` are kept)."""
        if method not in LOG_METHODS:
            return
        try:
            self._feed(method, params)
        except (msgspec.DecodeError, IndexError):
            pass  # a field Chromium changed: that entry is lost, nothing else

    def _feed(self, method: str, params: bytes) -> None:
        decode, act = msgspec.json.decode, self.act
        if method == "Network.requestWillBeSent":
            sent = decode(params, type=_WillBeSent)
            if len(self.open) >= _OPEN_REQUESTS:
                self.open.pop(next(iter(self.open)))
            self.open[sent.requestId] = (sent.request.method,
                                         cut(shown_url(sent.request.url)))
            if act is not None:
                act.request_started(sent.requestId)
            return
        if method == "Network.responseReceived":
            got = decode(params, type=_Received)
            request_id, status, error = got.requestId, got.response.status, None
        elif method == "Network.loadingFailed":
            failed = decode(params, type=_Failed)
            if failed.canceled:  # stopped by the page or the browser (a download): no news
                self.open.pop(failed.requestId, None)
                return
            request_id, status, error = failed.requestId, None, cut(failed.errorText)
        else:
            entry = console_entry(method, params)
            self.seq += 1
            self.console.append((self.seq, entry))
            if act is not None:
                act.console_entry(entry)
            return
        opened = self.open.pop(request_id, None) if error is not None or status else None
        if opened is None:
            return
        request = RequestEntry(method=opened[0], url=opened[1], status=status, error=error)
        self.seq += 1
        self.requests.append((self.seq, request))
        if act is not None:
            act.request_entry(request_id, request)

    def start_act(self, act: ActEffects | None = None) -> ActEffects:
        """An act begins recording (into ``act``, else a new one): its effects from now on."""
        self.act, self.act_started = act or ActEffects(), self.seq
        return self.act

    def end_act(self) -> None:
        """The act ended: entries from now on are after it."""
        self.act, self.last_act_ended = None, self.seq

    def since(self, mark: str) -> int:
        """The number after which ``mark`` (start, last_act, act) begins."""
        return {"start": 0, "last_act": self.last_act_ended, "act": self.act_started}[mark]


def chosen(entries: Iterable[tuple[int, Any]], after: int, limit: int,
           keep: Any) -> tuple[list[Any], int]:
    """The last ``limit`` entries numbered past ``after`` that ``keep`` keeps, oldest first,
    and how many more it kept."""
    kept = [entry for number, entry in entries if number > after and keep(entry)]
    return kept[-limit:], max(len(kept) - limit, 0)


def levels_from(level: str) -> Iterator[str]:
    """The levels at or above ``level``."""
    return iter(LEVELS[LEVELS.index(level):])
