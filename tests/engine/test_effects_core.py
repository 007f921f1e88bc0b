"""The pure core of engine/effects: events as Chromium sends them, turned into entries,
attributed to steps, capped."""

from __future__ import annotations

import json
from typing import Any

from cdpseq.engine.effects import PER_STEP, TEXT_CAP, TabLog


def _feed(log: TabLog, method: str, params: dict[str, Any]) -> None:
    log.feed(method, json.dumps(params).encode())


_CONSOLE = {"type": "error", "args": [{"type": "string", "value": "bad"},
                                      {"type": "number", "value": 3, "description": "3"}],
            "executionContextId": 1, "timestamp": 1.0,
            "stackTrace": {"callFrames": [{"functionName": "", "scriptId": "5",
                                           "url": "https://a.test/app.js?v=9", "lineNumber": 11,
                                           "columnNumber": 2}]}}
_THROWN = {"timestamp": 1.0, "exceptionDetails": {
    "exceptionId": 1, "text": "Uncaught", "lineNumber": 4, "columnNumber": 1,
    "url": "https://a.test/x.js",
    "exception": {"type": "object", "subtype": "error", "className": "TypeError",
                  "description": "TypeError: x is undefined\n    at f (https://a.test/x.js:5:2)"}}}


def test_entries_from_captured_events() -> None:
    log = TabLog()
    _feed(log, "Runtime.consoleAPICalled", _CONSOLE)
    _feed(log, "Runtime.exceptionThrown", _THROWN)
    _feed(log, "Log.entryAdded", {"entry": {"source": "security", "level": "warning",
                                            "text": "Mixed content", "timestamp": 1}})
    shown = [(e.level, e.text, e.source) for _, e in log.console]
    assert shown == [("error", "bad 3", "https://a.test/app.js?v=***:12"),
                     ("error", "Uncaught TypeError: x is undefined", "https://a.test/x.js:5")]


def test_requests_are_attributed_to_the_step_that_sent_them() -> None:
    log = TabLog()
    act = log.start_act()
    act.began(0)
    _feed(log, "Network.requestWillBeSent", {"requestId": "1", "type": "Fetch", "request": {
        "url": "https://a.test/api/save?token=hunter2&x", "method": "POST"}})
    act.began(1)
    _feed(log, "Network.responseReceived", {"requestId": "1", "response": {"status": 500}})
    _feed(log, "Network.requestWillBeSent", {"requestId": "2", "request": {
        "url": "https://a.test/ok"}})
    _feed(log, "Network.responseReceived", {"requestId": "2", "response": {"status": 200}})
    _feed(log, "Network.requestWillBeSent", {"requestId": "3", "request": {
        "url": "https://a.test/gone"}})
    _feed(log, "Network.loadingFailed", {"requestId": "3", "errorText": "net::ERR_FAILED"})
    _feed(log, "Network.requestWillBeSent", {"requestId": "4", "request": {
        "url": "https://a.test/file"}})
    _feed(log, "Network.loadingFailed", {"requestId": "4", "errorText": "net::ERR_ABORTED",
                                         "canceled": True})
    first, second = act.of(0), act.of(1)
    assert first is not None and second is not None
    assert [(r.method, r.url, r.status) for r in first.requests] == [
        ("POST", "https://a.test/api/save?token=***&x", 500)]
    assert [(r.url, r.error) for r in second.requests] == [("https://a.test/gone",
                                                            "net::ERR_FAILED")]
    assert len(log.requests) == 3  # the ring keeps the 200 too, not the cancelled one
    log.end_act()
    assert log.since("last_act") == log.seq


def test_caps_and_cuts() -> None:
    log = TabLog()
    act = log.start_act()
    act.began(0)
    for i in range(50):
        _feed(log, "Runtime.consoleAPICalled", {"type": "warning", "args": [
            {"type": "string", "value": f"w{i} " + "x" * 500}]})
    _feed(log, "Runtime.consoleAPICalled", {"type": "log", "args": [
        {"type": "string", "value": "just info"}]})
    caused = act.of(0)
    assert caused is not None and len(caused.console) == PER_STEP
    assert caused.console_more == 50 - PER_STEP
    assert all(len(e.text) == TEXT_CAP for e in caused.console)
    assert act.of(1) is None


def test_an_event_chromium_changed_is_dropped_alone() -> None:
    log = TabLog()
    log.feed("Runtime.consoleAPICalled", b'{"type": 3}')
    log.feed("Network.responseReceived", b"not json")
    _feed(log, "Runtime.consoleAPICalled", {"type": "info", "args": []})
    assert [e.level for _, e in log.console] == ["info"]
