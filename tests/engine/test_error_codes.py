"""The act's error vocabulary is closed: every code a failure can carry is in ``ErrorCode``,
documented in REFERENCE.md, and reached through the one mapping ``error_code``; an in-page
agent that throws (or outgrows the page's JavaScript engine) is a documented code."""

from __future__ import annotations

import typing
from pathlib import Path

import msgspec
import pytest

from cdpseq import ActResult, ErrorCode, act
from cdpseq.cdp import runtime
from cdpseq.engine.result import StepFailure, error_code
from cdpseq.engine.validate import parse_request
from cdpseq.errors import ActError, InvalidRequest, PageUnresponsive
from cdpseq.page.answers import AgentError, answered

_REFERENCE = Path(__file__).parents[2] / "docs" / "REFERENCE.md"


def _thrown(description: str) -> runtime.EvaluateResult:
    """What Runtime.evaluate answers for an expression that threw ``description``."""
    return runtime.EvaluateResult(
        result=runtime.RemoteObject(type="object"),
        exceptionDetails=runtime.ExceptionDetails(
            exceptionId=1, text="Uncaught", lineNumber=0, columnNumber=0,
            exception=runtime.RemoteObject(type="object", description=description)))


def test_every_code_is_documented() -> None:
    reference = _REFERENCE.read_text()
    for code in typing.get_args(ErrorCode):
        assert f"`{code}`" in reference, code


def test_a_stack_overflow_in_the_agent_is_page_too_complex() -> None:
    with pytest.raises(AgentError) as caught:
        answered(_thrown("RangeError: Maximum call stack size exceeded\n    at walk"))
    assert caught.value.code == "PAGE_TOO_COMPLEX"
    assert "Maximum call stack size exceeded" in caught.value.message
    assert error_code(caught.value) == "PAGE_TOO_COMPLEX"


def test_any_other_exception_in_the_agent_is_agent_failed_with_its_reason() -> None:
    with pytest.raises(AgentError) as caught:
        answered(_thrown("TypeError: cannot read properties of null (reading 'x')"))
    assert caught.value.code == "AGENT_FAILED"
    assert "reading 'x'" in caught.value.message


@pytest.mark.parametrize("exc", [ActError("SOMETHING_ELSE", "made up"),
                                 AgentError("AGENT_ERROR", "the old name")])
def test_a_code_outside_the_set_maps_to_agent_failed(exc: ActError) -> None:
    code = error_code(exc)
    assert code == "AGENT_FAILED"
    # ... which a result carries, and decodes back (a credential scrub converts it again).
    failure = StepFailure(index=0, type="read_page", code=code, error=exc.message,
                          retryable=False)
    result = ActResult(ok=False, completed=0, total=1, failed=failure, steps=[], tab=None)
    assert msgspec.convert(msgspec.to_builtins(result), ActResult).failed == failure


def test_typed_errors_keep_their_codes_and_others_have_none() -> None:
    assert error_code(PageUnresponsive("T", "busy")) == "PAGE_UNRESPONSIVE"
    assert error_code(InvalidRequest("steps", "no")) == "INVALID_REQUEST"
    assert error_code(ValueError("not cdpseq's")) is None


@pytest.mark.parametrize("data", [
    b"\xc3(",
    b'[{"type": "fill", "selector": "#a", "value": "\xc3("}]',
    bytearray(b'{"steps": [{"type": "click", "selector": "\xff"}]}'),
])
def test_bytes_that_are_not_utf8_are_an_invalid_request(data: bytes) -> None:
    byte = data.index(b"\xc3") if b"\xc3" in data else data.index(b"\xff")
    with pytest.raises(InvalidRequest) as caught:
        parse_request(data)
    assert caught.value.field == "request"
    assert f"byte {byte} is not UTF-8" in caught.value.reason


async def test_act_answers_invalid_utf8_with_a_result() -> None:
    # Refused at the door: no tab is touched, so none is needed.
    result = await act(None, b'[{"type": "click", "selector": "\xc3("}]')  # type: ignore[arg-type]
    assert result.ok is False and result.failed is not None
    assert result.failed.code == "INVALID_REQUEST"
    assert "not UTF-8" in result.failed.error
