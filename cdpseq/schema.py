"""The act request and result: one msgspec schema for the Python API, the CLI and MCP.

How validation works: :func:`parse_request` turns its input into plain Python data (JSON is
decoded untyped; a bare list becomes ``{"steps": [...]}``; a step's ``action`` key becomes
``type``), then decodes it strictly with ``msgspec.convert`` (no ``"5"`` -> 5, no bool as int,
unknown fields rejected), then runs the checks one field cannot express alone (exactly one of
target/selector, of value/credentialRef, of the wait_for conditions, key chords, URL schemes,
the step count against maxSteps). Every failure, msgspec's included, becomes one
:class:`InvalidRequest` naming the field by its wire path (``steps[2].url``) and the reason.

Wire names are camelCase (``rename="camel"``); Python attributes are snake_case.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal, Union, cast
from urllib.parse import urlsplit

import msgspec
from msgspec import UNSET, Meta, UnsetType

from .errors import CdpseqError
from .keys import parse_chord

__all__ = [
    "ACTION_TYPES",
    "STEP_CLASSES",
    "STEP_TYPES",
    "ActRequest",
    "ActResult",
    "Back",
    "Check",
    "Click",
    "ErrorCode",
    "Fill",
    "Forward",
    "Hover",
    "InvalidRequest",
    "Navigate",
    "Press",
    "ReadPage",
    "Reload",
    "Scroll",
    "Select",
    "Step",
    "StepFailure",
    "StepResult",
    "TabState",
    "TargetRef",
    "TypeText",
    "Uncheck",
    "Wait",
    "WaitFor",
    "invalid_result",
    "no_tab_result",
    "is_action",
    "parse_request",
    "parse_target",
    "request_schema",
    "result_schema",
    "step_label",
    "step_type",
]

MAX_STEPS = 50
"""The hard ceiling on the number of steps in one request."""

KEY_MODIFIERS = ("Alt", "Control", "Meta", "Shift", "Ctrl", "Cmd")
"""Modifier names accepted in a press chord ("Ctrl" and "Cmd" are aliases)."""

URL_SCHEMES = ("http", "https", "file", "about", "data")

_TARGET_RE = re.compile(r"^(?:(ref|node)_)?([1-9][0-9]*)$")
_TARGET_PATTERN = r"^(?:ref_|node_)?[1-9][0-9]*$"
_MODS = "|".join(KEY_MODIFIERS)
_KEY_PATTERN = rf"^(?:(?:{_MODS})\+)*(?!(?:{_MODS})$)(?:[^+]+|\+)$"
_CREDENTIAL_PATTERN = r"^[A-Za-z][A-Za-z0-9_]{0,63}$"
_SELECTOR_PATTERN = r"\S"


class InvalidRequest(CdpseqError, ValueError):
    """An act request that does not validate; ``field`` is its wire path, e.g. ``steps[2].url``."""

    def __init__(self, field: str, reason: str, *, index: int | None = None,
                 step_type: str | None = None, total_steps: int | None = None) -> None:
        if index is None:
            m = re.match(r"steps\[(\d+)\]", field)
            index = int(m.group(1)) if m else None
        self.field = field
        self.reason = reason
        self.index = index
        self.step_type = step_type
        self.total_steps = total_steps
        super().__init__(f"{field}: {reason}")


# ---------------------------------------------------------------------------------------------
# Targets


class TargetRef(msgspec.Struct, frozen=True):
    """A parsed target: ``ref_N`` from read_page, or a DOM backendNodeId (``node_N`` or ``N``)."""

    kind: Literal["ref", "node"]
    number: int


def _show(value: object) -> str:
    """A value as the request spelled it: JSON words for true/false/null, else repr."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else str(value).lower()
    return repr(value)


def _target_problem(value: object) -> str:
    return (f"invalid target {_show(value)}: expected \"ref_N\", \"node_N\" or a positive "
            "backendNodeId (integer or its decimal string), N >= 1")


def parse_target(value: str | int) -> TargetRef:
    """Parse ``"ref_3"``, ``"node_12"``, ``12`` or ``"12"``; raise :class:`InvalidRequest`."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value >= 1:
            return TargetRef("node", value)
    elif isinstance(value, str):
        m = _TARGET_RE.match(value)
        if m:
            return TargetRef("ref" if m.group(1) == "ref" else "node", int(m.group(2)))
    raise InvalidRequest("target", _target_problem(value))


# ---------------------------------------------------------------------------------------------
# Steps

OnError = Literal["stop", "skip", "retry"]
Modifier = Literal["Alt", "Control", "Meta", "Shift"]

_Target = Annotated[
    Annotated[str, Meta(pattern=_TARGET_PATTERN)] | Annotated[int, Meta(ge=1)] | None,
    Meta(description='Element to act on: "ref_N" from read_page, or "node_N" / a positive '
                     "integer backendNodeId. Give target or selector, exactly one."),
]
_Selector = Annotated[
    Annotated[str, Meta(pattern=_SELECTOR_PATTERN)] | None,
    Meta(description="CSS selector of the element to act on. Give target or selector, "
                     "exactly one."),
]
_OptTarget = Annotated[
    Annotated[str, Meta(pattern=_TARGET_PATTERN)] | Annotated[int, Meta(ge=1)] | None,
    Meta(description='Optional element: "ref_N" from read_page, or "node_N" / a positive '
                     "integer backendNodeId. At most one of target and selector."),
]
_OptSelector = Annotated[
    Annotated[str, Meta(pattern=_SELECTOR_PATTERN)] | None,
    Meta(description="Optional CSS selector of the element. At most one of target and "
                     "selector."),
]


class _StepCore(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                omit_defaults=True, rename="camel", tag_field="type"):
    ACTION: ClassVar[bool] = True
    """An action changes the page; the others (wait_for, read_page, wait) only observe."""
    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "none"
    """Whether exactly one (required) or at most one (optional) of target/selector is given."""

    timeout_ms: Annotated[
        Annotated[int, Meta(ge=1, le=120000)] | None,
        Meta(description="Timeout of this step in ms; default perStepTimeoutMs."),
    ] = None
    on_error: Annotated[
        OnError | None,
        Meta(description="If this step fails: stop the sequence, skip to the next step, or "
                         "retry it. Default: stop when failFast, else skip."),
    ] = None
    retries: Annotated[
        Annotated[int, Meta(ge=1, le=5)] | None,
        Meta(description='Extra attempts (1-5); only with onError "retry".'),
    ] = None


class _Step(_StepCore, frozen=True, kw_only=True):
    label: Annotated[
        str | None, Meta(description="Your name for this step, echoed in its result."),
    ] = None


class Click(_Step, frozen=True, kw_only=True, tag="click"):
    """Click an element. Give exactly one of target or selector."""

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "required"
    target: _Target = None
    selector: _Selector = None
    button: Annotated[Literal["left", "right", "middle"],
                      Meta(description="Mouse button.")] = "left"
    click_count: Annotated[int, Meta(ge=1, le=3,
                                     description="1 click, 2 double-click, 3 triple-click.")] = 1
    modifiers: Annotated[list[Modifier],
                         Meta(description="Keys held during the click.")] = []


class Hover(_Step, frozen=True, kw_only=True, tag="hover"):
    """Move the mouse over an element. Give exactly one of target or selector."""

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "required"
    target: _Target = None
    selector: _Selector = None


class Check(_Step, frozen=True, kw_only=True, tag="check"):
    """Make a checkbox or radio button checked. Give exactly one of target or selector."""

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "required"
    target: _Target = None
    selector: _Selector = None


class Uncheck(_Step, frozen=True, kw_only=True, tag="uncheck"):
    """Make a checkbox unchecked. Give exactly one of target or selector."""

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "required"
    target: _Target = None
    selector: _Selector = None


class Fill(_Step, frozen=True, kw_only=True, tag="fill"):
    """Replace the value of an input, textarea or editable element.

    Give exactly one of target or selector, and exactly one of value or credentialRef.
    """

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "required"
    target: _Target = None
    selector: _Selector = None
    value: Annotated[str | None, Meta(description="Text to put in the field.")] = None
    credential_ref: Annotated[
        Annotated[str, Meta(pattern=_CREDENTIAL_PATTERN)] | None,
        Meta(description="Name of a stored secret to fill instead of value; the secret never "
                         "appears in requests or results."),
    ] = None


class TypeText(_Step, frozen=True, kw_only=True, tag="type"):
    """Type text key by key, into target/selector or else into the focused element."""

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "optional"
    text: Annotated[str, Meta(description="Text to type.")]
    target: _OptTarget = None
    selector: _OptSelector = None
    delay_ms: Annotated[int, Meta(ge=0, le=1000,
                                  description="Pause between keystrokes in ms.")] = 0


class Press(_Step, frozen=True, kw_only=True, tag="press"):
    """Press a key or chord, on target/selector or else on the focused element."""

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "optional"
    key: Annotated[
        str,
        Meta(pattern=_KEY_PATTERN,
             description='Key or chord: "Enter", "Tab", "Control+A", "Shift+ArrowLeft". '
                         "Modifiers Alt, Control (Ctrl), Meta (Cmd), Shift, joined by + "
                         "before exactly one non-modifier key."),
    ]
    target: _OptTarget = None
    selector: _OptSelector = None


class Select(_StepCore, frozen=True, kw_only=True, tag="select"):
    """Choose an option of a <select> by its value or its visible label (exactly one).

    Give exactly one of target or selector. Here ``label`` names the option, so a select step
    has no step label.
    """

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "required"
    target: _Target = None
    selector: _Selector = None
    value: Annotated[str | None, Meta(description="The option's value attribute.")] = None
    option_label: Annotated[
        str | None, Meta(description="The option's visible text."),
    ] = msgspec.field(default=None, name="label")


class Scroll(_Step, frozen=True, kw_only=True, tag="scroll"):
    """Scroll target/selector into view, or else scroll the page by pixels in direction."""

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "optional"
    target: _OptTarget = None
    selector: _OptSelector = None
    direction: Annotated[Literal["up", "down", "left", "right"],
                         Meta(description="Page scroll direction.")] = "down"
    pixels: Annotated[int, Meta(ge=1, le=100000,
                                description="Page scroll distance in CSS pixels.")] = 600


class Navigate(_Step, frozen=True, kw_only=True, tag="navigate"):
    """Load a URL in the tab."""

    url: Annotated[str, Meta(description="Absolute URL; scheme http, https, file, about or "
                                         "data.")]


class Back(_Step, frozen=True, kw_only=True, tag="back"):
    """Go back one entry in the tab's history."""


class Forward(_Step, frozen=True, kw_only=True, tag="forward"):
    """Go forward one entry in the tab's history."""


class Reload(_Step, frozen=True, kw_only=True, tag="reload"):
    """Reload the page."""


class WaitFor(_Step, frozen=True, kw_only=True, tag="wait_for"):
    """Wait until a condition holds. Give exactly one of text, textGone, selector, url, stable."""

    ACTION: ClassVar[bool] = False
    text: Annotated[Annotated[str, Meta(min_length=1)] | None,
                    Meta(description="Text that must appear on the page.")] = None
    text_gone: Annotated[Annotated[str, Meta(min_length=1)] | None,
                         Meta(description="Text that must disappear from the page.")] = None
    selector: Annotated[
        Annotated[str, Meta(pattern=_SELECTOR_PATTERN)] | None,
        Meta(description="CSS selector of an element that must reach state."),
    ] = None
    url: Annotated[Annotated[str, Meta(min_length=1)] | None,
                   Meta(description="Substring the tab's URL must contain.")] = None
    stable: Annotated[bool | None,
                      Meta(description="true: wait until the page settles (network and DOM "
                                       "quiet).")] = None
    state: Annotated[
        Literal["visible", "hidden", "attached", "detached"],
        Meta(description="State the selector's element must reach; only with selector."),
    ] = "visible"


class ReadPage(_Step, frozen=True, kw_only=True, tag="read_page"):
    """Return a compact snapshot of the page; its ref_N handles are valid step targets."""

    ACTION: ClassVar[bool] = False
    filter: Annotated[Literal["interactive", "all"],
                      Meta(description="interactive: only elements you can act on, each "
                                       "with a ref; all: also headings and text, for "
                                       "context.")] = "interactive"
    compression: Annotated[Literal["none", "delta"],
                           Meta(description="delta: only what changed since the previous "
                                            "read_page of this tab.")] = "none"


class Wait(_Step, frozen=True, kw_only=True, tag="wait"):
    """Pause for a fixed time."""

    ACTION: ClassVar[bool] = False
    ms: Annotated[int, Meta(ge=0, le=10000, description="Milliseconds to wait (0-10000).")]


Step = Union[  # noqa: UP007 - a runtime alias msgspec decodes as a tagged union
    Click, Hover, Check, Uncheck, Fill, TypeText, Press, Select, Scroll, Navigate,
    Back, Forward, Reload, WaitFor, ReadPage, Wait,
]

_STEP_CLASS_LIST: tuple[type[_StepCore], ...] = typing.get_args(Step)
STEP_CLASSES: Mapping[str, type[_StepCore]] = types.MappingProxyType(
    {cast(str, cls.__struct_config__.tag): cls for cls in _STEP_CLASS_LIST}
)
"""Step class by wire type name."""
STEP_TYPES: tuple[str, ...] = tuple(STEP_CLASSES)
"""Wire type names of every step, in documentation order."""
ACTION_TYPES: frozenset[str] = frozenset(t for t, c in STEP_CLASSES.items() if c.ACTION)
"""Step types that act on the page (the rest only observe: wait_for, read_page, wait)."""


def step_type(step: Step) -> str:
    """The wire type name of a step, e.g. ``"wait_for"``."""
    return cast(str, type(step).__struct_config__.tag)


def is_action(step: Step | str) -> bool:
    """Whether a step (or step type name) acts on the page rather than only observing it."""
    return (step in ACTION_TYPES) if isinstance(step, str) else type(step).ACTION


def step_label(step: Step) -> str | None:
    """The step's own label (a select step has none: its ``label`` names the option)."""
    return None if isinstance(step, Select) else step.label


# ---------------------------------------------------------------------------------------------
# Request

ReturnMode = Literal["final", "all", "delta"]
DialogAction = Literal["dismiss", "accept", "leave"]


class ActRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                 omit_defaults=True, rename="camel"):
    """Run browser steps in order in one tab and report what happened."""

    steps: Annotated[
        list[Step],
        Meta(min_length=1, max_length=MAX_STEPS,
             description="Steps to run in order; 1 to maxSteps of them."),
    ]
    tab_id: Annotated[str | None,
                      Meta(description="Tab to act in; default: the current tab.")] = None
    fail_fast: Annotated[bool, Meta(description="Stop at the first failed step; a step's "
                                                "onError overrides.")] = True
    return_mode: Annotated[
        ReturnMode,
        Meta(description="Page state to return: final (after the last step), all (after "
                         "each step) or delta (only changes)."),
    ] = "final"
    per_step_timeout_ms: Annotated[
        int, Meta(ge=1, le=120000, description="Default timeout of each step in ms."),
    ] = 5000
    max_steps: Annotated[
        int, Meta(ge=1, le=MAX_STEPS,
                  description="Reject the request if it has more steps than this (max 50)."),
    ] = 10
    timeout_ms: Annotated[
        int, Meta(ge=1, le=600000, description="Timeout of the whole sequence in ms."),
    ] = 30000
    settle: Annotated[bool, Meta(description="After each action, wait for the page to settle "
                                             "(network and DOM quiet).")] = True
    stability_ms: Annotated[
        Annotated[int, Meta(ge=0, le=5000)] | None,
        Meta(description="How long the page must stay quiet to count as settled, in ms; "
                         "default chosen by cdpseq."),
    ] = None
    settle_timeout_ms: Annotated[
        int, Meta(ge=0, le=60000, description="Longest wait for settling after an action, "
                                              "in ms."),
    ] = 5000
    dialog: Annotated[
        DialogAction,
        Meta(description="What to do with alert/confirm/prompt dialogs: dismiss, accept, or "
                         "leave them open."),
    ] = "dismiss"


# ---------------------------------------------------------------------------------------------
# Result

ErrorCode = Literal[
    "INVALID_REQUEST", "STALE_REF", "NODE_NOT_FOUND", "NOT_ACTIONABLE", "NOT_EDITABLE",
    "OPTION_NOT_FOUND", "WAIT_TIMEOUT", "STEP_TIMEOUT", "NAVIGATION_FAILED", "TARGET_CLOSED",
    "TARGET_CRASHED", "CONNECTION_LOST", "SEQUENCE_TIMEOUT",
]
StepStatus = Literal["ok", "error", "skipped", "not_started"]


class StepFailure(msgspec.Struct, kw_only=True, rename="camel"):
    """Why a step (or the whole request) failed."""

    index: Annotated[int | None,
                     Meta(description="Index of the failed step; null if not step-specific.")]
    type: Annotated[str | None, Meta(description="Type of the failed step, if known.")]
    code: Annotated[ErrorCode, Meta(description="Machine-readable error code.")]
    error: Annotated[str, Meta(description="Human-readable explanation.")]
    retryable: Annotated[bool, Meta(description="Whether the same request may succeed if "
                                                "sent again.")]


class StepResult(msgspec.Struct, kw_only=True, rename="camel"):
    """The outcome of one step."""

    index: Annotated[int, Meta(description="Position of the step in the request.")]
    type: Annotated[str, Meta(description="Step type.")]
    label: Annotated[str | UnsetType, Meta(description="The step's label, if it had one.")] = (
        UNSET)
    status: Annotated[StepStatus, Meta(description="ok, error, skipped or not_started.")]
    duration_ms: Annotated[float, Meta(description="Time the step took in ms.")]
    url: Annotated[str, Meta(description="The tab's URL after the step.")]
    attempts: Annotated[int | UnsetType,
                        Meta(description="Attempts made, when retried.")] = UNSET
    error: Annotated[StepFailure | UnsetType,
                     Meta(description="Why the step failed.")] = UNSET
    output: Annotated[Any | UnsetType,
                      Meta(description="What an observing step returned.")] = UNSET


class TabState(msgspec.Struct, kw_only=True, rename="camel"):
    """The tab acted in."""

    id: str
    url: str
    title: str


class ActResult(msgspec.Struct, kw_only=True, rename="camel"):
    """The outcome of an act request."""

    ok: Annotated[bool, Meta(description="Whether every step succeeded.")]
    completed: Annotated[int, Meta(description="Number of steps that succeeded.")]
    total: Annotated[int, Meta(description="Number of steps in the request.")]
    failed: Annotated[StepFailure | None,
                      Meta(description="The failure that ended or marred the run, or null.")]
    steps: Annotated[list[StepResult], Meta(description="One result per step run.")]
    tab: Annotated[TabState | None, Meta(description="The tab acted in, if known.")]
    page: Annotated[Any | UnsetType,
                    Meta(description="Output of the last read_page step.")] = UNSET
    stable: Any | UnsetType = UNSET
    stability_wait_ms: Any | UnsetType = UNSET
    unstable_reason: Any | UnsetType = UNSET
    pending: Any | UnsetType = UNSET
    dialog: Any | UnsetType = UNSET
    download: Any | UnsetType = UNSET
    new_tabs: Any | UnsetType = UNSET
    state_change: Any | UnsetType = UNSET


def _inline_root(schema: dict[str, Any]) -> dict[str, Any]:
    """Put the root Struct's object schema at the top (MCP wants ``type: object`` there)."""
    defs = dict(schema.get("$defs", {}))
    name = schema["$ref"].rsplit("/", 1)[-1]
    root = defs.pop(name)
    return {**root, "$defs": defs} if defs else root


def request_schema() -> dict[str, Any]:
    """JSON Schema of :class:`ActRequest` (object at the top, step types in ``$defs``)."""
    schema = _inline_root(msgspec.json.schema(ActRequest))
    stable = schema["$defs"]["WaitFor"]["properties"]["stable"]
    stable["anyOf"] = [{"const": True}, {"type": "null"}]
    return schema


def result_schema() -> dict[str, Any]:
    """JSON Schema of :class:`ActResult`."""
    return _inline_root(msgspec.json.schema(ActResult))


def invalid_result(exc: InvalidRequest) -> ActResult:
    """The result of an act request that failed validation: nothing ran."""
    return ActResult(
        ok=False, completed=0, total=exc.total_steps or 0,
        failed=StepFailure(index=exc.index, type=exc.step_type, code="INVALID_REQUEST",
                           error=str(exc), retryable=False),
        steps=[], tab=None,
    )


def no_tab_result(request: ActRequest, tab_id: str | None, reason: str) -> ActResult:
    """The result of a valid request whose tab could not be had: nothing ran."""
    steps = [StepResult(index=i, type=step_type(step), status="not_started", duration_ms=0.0,
                        url="") for i, step in enumerate(request.steps)]
    return ActResult(
        ok=False, completed=0, total=len(steps),
        failed=StepFailure(index=None, type=None, code="TARGET_CLOSED",
                           error=f"tab {tab_id or '(first)'}: {reason}", retryable=False),
        steps=steps, tab=None,
    )


# ---------------------------------------------------------------------------------------------
# Validation


def parse_request(data: bytes | str | Mapping[str, Any] | Sequence[Any] | ActRequest,
                  ) -> ActRequest:
    """Validate an act request given as JSON, Python data or an :class:`ActRequest`.

    A bare list is taken as the steps. Raises :class:`InvalidRequest` and nothing else.
    """
    raw = _to_python(data)
    steps = raw.get("steps")
    total = len(steps) if isinstance(steps, list) else None
    try:
        request = msgspec.convert(raw, ActRequest)
    except msgspec.ValidationError as e:
        try:
            field, reason = _translate(str(e), raw)
        except Exception:  # an unforeseen message shape: still a clean InvalidRequest
            field, reason = "request", str(e).replace("`", "")
        raise _invalid(field, reason, raw, total) from None
    except Exception as e:  # an exotic Python object msgspec cannot read
        raise InvalidRequest("request", f"cannot read request: {e}",
                             total_steps=total) from None
    try:
        _check(request, cast(list[dict[str, Any]], raw["steps"]))
    except InvalidRequest as e:
        raise _invalid(e.field, e.reason, raw, total) from None
    return request


def _invalid(field: str, reason: str, raw: dict[str, Any], total: int | None) -> InvalidRequest:
    exc = InvalidRequest(field, reason, total_steps=total)
    if exc.index is not None:
        step = raw["steps"][exc.index]
        if isinstance(step, dict) and isinstance(step.get("type"), str):
            exc.step_type = step["type"]
    return exc


def _to_python(data: object) -> dict[str, Any]:
    """Plain dict of the request with the steps list normalized; no validation beyond shape."""
    if isinstance(data, bytes | bytearray | memoryview | str):
        try:
            data = msgspec.json.decode(data)
        except msgspec.DecodeError as e:
            raise InvalidRequest("request", f"invalid JSON: {e}") from None
    elif isinstance(data, msgspec.Struct):
        data = _builtins(data)
    if isinstance(data, Mapping):
        raw = dict(data)
    elif isinstance(data, Sequence) and not isinstance(data, str | bytes | bytearray):
        raw = {"steps": data}
    else:
        raise InvalidRequest("request", "expected an object with steps or a list of steps, "
                             f"got {_kind(data)}")
    steps = raw.get("steps")
    if isinstance(steps, Sequence) and not isinstance(steps, str | bytes | bytearray):
        raw["steps"] = [_normalize_step(i, s, len(steps)) for i, s in enumerate(steps)]
    return raw


def _builtins(value: msgspec.Struct) -> Any:
    try:
        return msgspec.to_builtins(value)
    except Exception as e:  # a Struct holding something that is not plain data
        raise InvalidRequest("request", f"cannot read request: {e}") from None


def _normalize_step(index: int, step: object, total: int) -> object:
    if isinstance(step, msgspec.Struct):
        step = _builtins(step)
    if not isinstance(step, Mapping):
        return step
    out = dict(step)
    if "action" in out:
        action = out.pop("action")
        if "type" in out and out["type"] != action:
            raise InvalidRequest(
                f"steps[{index}].action",
                f"action {_show(action)} conflicts with type {_show(out['type'])} "
                "(give one of them)",
                step_type=out["type"] if isinstance(out["type"], str) else None,
                total_steps=total)
        out["type"] = action
    return out


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "bool", int: "int", float: "float", str: "str"}.get(
        type(value), type(value).__name__)


_MSG_RE = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)
_TOKEN_RE = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def _translate(message: str, raw: dict[str, Any]) -> tuple[str, str]:
    """(field path, reason) from a msgspec validation message."""
    m = _MSG_RE.match(message)
    assert m is not None  # the pattern matches any string
    msg, path = m.group("msg"), (m.group("path") or "").lstrip(".")
    if "`key` in" in message:  # a non-string key in a Python mapping
        return "request", "object keys must be strings"
    if mm := re.fullmatch(r"Object missing required field `([^`]+)`", msg):
        return _join(path, mm.group(1)), "required field missing"
    if mm := re.fullmatch(r"Object contains unknown field `([^`]+)`", msg):
        cls = _type_at(path, raw)
        allowed = ""
        if isinstance(cls, type) and issubclass(cls, msgspec.Struct):
            names = [f.encode_name for f in msgspec.structs.fields(cls)]
            tag = cls.__struct_config__.tag
            where = f" for {tag}" if isinstance(tag, str) else ""
            allowed = f" (allowed{where}: {', '.join(names)})"
        return _join(path, mm.group(1)), f"unknown field{allowed}"
    last = path.rsplit(".", 1)[-1]
    if (mm := re.fullmatch(r"Invalid value (.*)", msg)) and re.fullmatch(r"steps\[\d+\]\.type",
                                                                           path):
        return path, (f"unknown step type {mm.group(1)} "
                      f"(expected one of {', '.join(STEP_TYPES)})")
    if mm := re.fullmatch(r"Invalid enum value (.*)", msg):
        choices = _literal_choices(_type_at(path, raw))
        expected = f" (expected one of {', '.join(map(str, choices))})" if choices else ""
        return path, f"invalid value {mm.group(1)}{expected}"
    friendly = _friendly(last, path, raw)
    if friendly is not None:
        return path, friendly
    reason = msg.replace("`", "")
    return path or "request", reason[:1].lower() + reason[1:]


def _friendly(last: str, path: str, raw: dict[str, Any]) -> str | None:
    """A clearer reason for fields whose constraint is a regex or a length."""
    value = _value_at(path, raw)
    if last == "target" and re.fullmatch(r"steps\[\d+\]\.target", path):
        return _target_problem(value)
    if last == "key" and isinstance(value, str):
        return _key_problem(value)
    if last == "credentialRef" and isinstance(value, str):
        return (f"invalid credentialRef {value!r}: expected a name of 1-64 letters, digits or "
                "underscores starting with a letter")
    if last == "selector" and isinstance(value, str):
        return "selector must be a non-empty CSS selector"
    if path == "maxSteps" and isinstance(value, int) and value > MAX_STEPS:
        return f"{value} exceeds the hard ceiling of {MAX_STEPS} steps"
    if path == "steps" and isinstance(value, list):
        if not value:
            return "at least one step is required"
        return f"{len(value)} steps exceed the hard limit of {MAX_STEPS}"
    return None


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _tokens(path: str) -> list[str | int]:
    return [a if a else int(b) for a, b in _TOKEN_RE.findall("." + path)]


def _value_at(path: str | list[str | int], raw: object) -> object:
    value = raw
    for token in _tokens(path) if isinstance(path, str) else path:
        try:
            value = value[token]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _strip(tp: Any) -> Any:
    """The type inside Annotated and Optional wrappers."""
    while True:
        origin = typing.get_origin(tp)
        if origin is Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (Union, types.UnionType) and tp != Step:
            args = [a for a in typing.get_args(tp) if a not in (type(None), UnsetType)]
            if len(args) != 1:
                return tp
            tp = args[0]
        else:
            return tp


def _type_at(path: str, raw: dict[str, Any]) -> Any:
    """The declared type at a wire path of the request, or None if it cannot be told."""
    tp: Any = ActRequest
    tokens = _tokens(path)
    for depth, token in enumerate([*tokens, None]):
        tp = _strip(tp)
        if tp == Step:  # the tagged union: the step's own type tells its class
            step = _value_at(tokens[:depth], raw)
            kind = step.get("type") if isinstance(step, dict) else None
            tp = STEP_CLASSES.get(kind) if isinstance(kind, str) else None
        if token is None:
            return tp
        if isinstance(token, int):
            if typing.get_origin(tp) is not list:
                return None
            tp = typing.get_args(tp)[0]
        else:
            if not (isinstance(tp, type) and issubclass(tp, msgspec.Struct)):
                return None
            by_name = {f.encode_name: f.type for f in msgspec.structs.fields(tp)}
            if token not in by_name:
                return None
            tp = by_name[token]
    return None  # unreachable: the loop returns at the sentinel


def _literal_choices(tp: Any) -> tuple[Any, ...]:
    tp = _strip(tp)
    if typing.get_origin(tp) is list:
        tp = _strip(typing.get_args(tp)[0])
    return typing.get_args(tp) if typing.get_origin(tp) is Literal else ()


def _key_problem(key: str) -> str | None:
    """Why ``key`` is not a valid press key or chord, or None if it is."""
    try:
        parse_chord(key)
    except ValueError as exc:
        return f"invalid key {key!r}: {exc}"
    return None


def _check(request: ActRequest, raw_steps: list[dict[str, Any]]) -> None:
    """The checks that span several fields or that msgspec cannot express."""
    if len(request.steps) > request.max_steps:
        raise InvalidRequest("steps", f"{len(request.steps)} steps exceed maxSteps "
                                      f"{request.max_steps}")
    for i, step in enumerate(request.steps):
        _check_step(f"steps[{i}]", step, raw_steps[i])


def _exactly_one(at: str, given: dict[str, object], required: bool = True) -> None:
    present = [name for name, value in given.items() if value is not None]
    names = list(given)
    if len(present) > 1:
        raise InvalidRequest(f"{at}.{present[1]}",
                             f"give only one of {' or '.join(names)}, not both")
    if required and not present:
        raise InvalidRequest(f"{at}.{names[0]}",
                             f"required: give {' or '.join(names)}")


def _check_step(at: str, step: Step, raw: dict[str, Any]) -> None:
    if step.retries is not None and step.on_error != "retry":
        raise InvalidRequest(f"{at}.retries", 'retries only applies with onError "retry"')
    if isinstance(step, Click | Hover | Check | Uncheck | Fill | Select | TypeText | Press
                  | Scroll):
        _exactly_one(at, {"target": step.target, "selector": step.selector},
                     required=step.TARGETING == "required")
    if isinstance(step, Fill):
        _exactly_one(at, {"value": step.value, "credentialRef": step.credential_ref})
    elif isinstance(step, Select):
        _exactly_one(at, {"value": step.value, "label": step.option_label})
    elif isinstance(step, Press):
        problem = _key_problem(step.key)
        if problem:
            raise InvalidRequest(f"{at}.key", problem)
    elif isinstance(step, Navigate):
        problem = _url_problem(step.url)
        if problem:
            raise InvalidRequest(f"{at}.url", problem)
    elif isinstance(step, WaitFor):
        conditions: dict[str, object] = {
            "text": step.text, "textGone": step.text_gone, "selector": step.selector,
            "url": step.url, "stable": step.stable,
        }
        present = [name for name, value in conditions.items() if value is not None]
        if len(present) > 1:
            raise InvalidRequest(f"{at}.{present[1]}",
                                 f"give exactly one condition, got {' and '.join(present)}")
        if not present:
            raise InvalidRequest(at, "give exactly one condition: text, textGone, selector, "
                                     "url or stable")
        if step.stable is False:
            raise InvalidRequest(f"{at}.stable", "must be true (omit it to wait for another "
                                                 "condition)")
        if "state" in raw and step.selector is None:
            raise InvalidRequest(f"{at}.state", "state only applies with selector")


def _url_problem(url: str) -> str | None:
    try:
        parts = urlsplit(url)
    except ValueError as e:
        return f"invalid URL {url!r}: {e}"
    if parts.scheme not in URL_SCHEMES:
        return (f"expected an absolute URL with scheme {', '.join(URL_SCHEMES)}, "
                f"got {url!r}")
    if parts.scheme in ("http", "https") and not parts.hostname:
        return f"invalid URL {url!r}: no host"
    return None

