"""Property: ``parse_request`` answers any input with an ActRequest or an InvalidRequest naming
a field — as Python data, as JSON text, as raw bytes — and never raises anything else.

Pure (no browser), so these run thousands of examples.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from cdpseq.engine.request import MAX_STEPS, ActRequest
from cdpseq.engine.validate import parse_request
from cdpseq.errors import InvalidRequest
from tests.fuzz.checks import check_invalid, dumps
from tests.fuzz.counts import count, examples
from tests.fuzz.strategies import DEEP, JSON_VALUES, act_requests


def _parse(prop: str, data: Any, raw: Any) -> ActRequest | None:
    try:
        request = parse_request(data)
    except InvalidRequest as exc:
        check_invalid(exc, raw)
        count(prop, f"INVALID_REQUEST {'request' if exc.field == 'request' else 'field'}")
        return None
    count(prop, "valid")
    return request


def _check_valid(request: ActRequest) -> None:
    """A request that validated is within its limits and survives the wire unchanged."""
    assert 1 <= len(request.steps) <= request.max_steps <= MAX_STEPS
    encoded = msgspec.json.encode(request)  # UTF-8 all through: it can be sent to Chrome
    assert parse_request(encoded) == request
    assert parse_request(msgspec.to_builtins(request)) == request


@settings(max_examples=examples(400))
@given(act_requests(("http://127.0.0.1:8000/status.html",), fast=False))
def test_python_data(raw: Any) -> None:
    request = _parse("validate: python data", raw, raw)
    if request is not None:
        _check_valid(request)


@settings(max_examples=examples(150))
@given(act_requests(("http://127.0.0.1:8000/status.html",), fast=False))
def test_json_text(raw: Any) -> None:
    text = dumps(raw)
    for data in (text, text.encode("utf-8", "surrogatepass")):
        request = _parse("validate: json text", data, raw)
        if request is not None:
            _check_valid(request)


@settings(max_examples=examples(200))
@given(st.one_of(st.binary(max_size=200), st.text(max_size=200),
                 JSON_VALUES.map(dumps).map(lambda s: s[: len(s) // 2]),  # truncated
                 DEEP.map(dumps)))
def test_garbage_text(data: bytes | str) -> None:
    _parse("validate: garbage text", data, _decoded(data))


_NOT_UTF8 = (b"\xc3(", b"\xff", b"\xed\xa0\x80", b"\xe2\x82", b"\xc0\xaf")


@settings(max_examples=examples(150))
@given(act_requests(("http://127.0.0.1:8000/status.html",), fast=False),
       st.sampled_from(_NOT_UTF8), st.integers(min_value=0))
def test_json_with_bytes_that_are_not_utf8(raw: Any, bad: bytes, where: int) -> None:
    # Spliced into the first string of a request, where msgspec would carry them on.
    data = dumps(raw).encode("utf-8", "surrogatepass")
    quote = data.find(b'"')
    at = quote + 1 if quote >= 0 else where % (len(data) + 1)
    spliced = data[:at] + bad + data[at:]
    try:
        parse_request(spliced)
    except InvalidRequest as exc:
        if quote >= 0 and bad != b"\xed\xa0\x80" and not _surrogates(data[:at]):
            assert exc.field == "request" and f"byte {at} is not UTF-8" in exc.reason, exc
        return
    raise AssertionError(f"accepted bytes that are not UTF-8: {spliced!r}")


def _surrogates(data: bytes) -> bool:
    """Whether ``data`` holds an encoded lone surrogate (itself not UTF-8) before the splice."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _decoded(data: bytes | str) -> Any:
    """What ``data`` holds as JSON, for naming its fields; None when it is not JSON."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def test_json_encoder_of_the_tests_matches_json_dumps() -> None:
    value = {"a": [1, 2.5, None, True, {"b": "c\u00e9", "d": []}], "e": {}, "f": "\ud800"}
    assert dumps(value) == json.dumps(value, separators=(",", ":"))
