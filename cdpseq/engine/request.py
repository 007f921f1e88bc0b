"""The act request: every step type and the request's options, as msgspec Structs.

These types are the one contract of the Python API, the CLI and MCP (whose input schema is
generated from them). Wire names are camelCase (``rename="camel"``); Python attributes are
snake_case. Turning untrusted input into an :class:`ActRequest` is ``validate.parse_request``'s
job; the result's types are in ``result``.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, Union, cast

import msgspec
from msgspec import Meta

MAX_STEPS = 50
"""The hard ceiling on the number of steps in one request."""

KEY_MODIFIERS = ("Alt", "Control", "Meta", "Shift", "Ctrl", "Cmd")
"""Modifier names accepted in a press chord ("Ctrl" and "Cmd" are aliases)."""

URL_SCHEMES = ("http", "https", "file", "about", "data")

_TARGET_PATTERN = r"^(?:ref_|node_)?[1-9][0-9]*$"
_MODS = "|".join(KEY_MODIFIERS)
_KEY_PATTERN = rf"^(?:(?:{_MODS})\+)*(?:[^+]+|\+)$"
_CREDENTIAL_PATTERN = r"^[A-Za-z][A-Za-z0-9_]{0,63}$"
_SELECTOR_PATTERN = r"\S"


# ---------------------------------------------------------------------------------------------
# Targets


class TargetRef(msgspec.Struct, frozen=True):
    """A parsed target: ``ref_N`` from read_page, or a DOM backendNodeId (``node_N`` or ``N``)."""

    kind: Literal["ref", "node"]
    number: int


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
    Meta(description='Element to act on: "ref_N" from read_page, or "node_N" / a positive '
                     "integer backendNodeId. Optional: at most one of target and selector."),
]
_OptSelector = Annotated[
    Annotated[str, Meta(pattern=_SELECTOR_PATTERN)] | None,
    Meta(description="CSS selector of the element to act on. Optional: at most one of target "
                     "and selector."),
]


# ---------------------------------------------------------------------------------------------
# Preconditions (the ``if`` of every step; run by ``preconditions``)

ConditionState = Literal["visible", "hidden", "enabled", "disabled", "exists", "gone"]
MAX_CONDITION_TIMEOUT_MS = 60000


class Condition(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                omit_defaults=True, rename="camel"):
    """A step's precondition: an element's state that must hold for the step to run."""

    target: _OptTarget = None
    selector: _OptSelector = None
    state: Annotated[
        ConditionState,
        Meta(description="visible, hidden (or absent), enabled, disabled, exists (attached) or "
                         "gone (absent)."),
    ] = "visible"
    timeout_ms: Annotated[
        int, Meta(ge=0, le=MAX_CONDITION_TIMEOUT_MS,
                  description="How long to wait for the state, in ms; 0 (default): check once, "
                              "after the page settled from the previous action."),
    ] = 0
    otherwise: Annotated[
        Literal["skip", "fail"],
        Meta(description="When the state does not hold: skip the step (reported skipped, the "
                         "act stays ok), or fail it with CONDITION_FAILED (then onError "
                         "applies)."),
    ] = msgspec.field(default="skip", name="else")


class _StepCore(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
                omit_defaults=True, rename="camel", tag_field="type"):
    ACTION: ClassVar[bool] = True
    """An action changes the page; the others (wait_for, read_page, wait) only observe."""
    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "none"
    """Whether exactly one (required) or at most one (optional) of target/selector is given."""
    REPORTS: ClassVar[bool] = False
    """The step's output is what it is for: in the result whatever the returnMode."""

    timeout_ms: Annotated[
        Annotated[int, Meta(ge=1, le=120000)] | None,
        Meta(description="Timeout of this step in ms; default perStepTimeoutMs."),
    ] = None
    on_error: Annotated[
        OnError | None,
        Meta(description="On failure: stop the sequence, skip to the next step, or retry. "
                         "Default: stop when failFast, else skip."),
    ] = None
    retries: Annotated[
        Annotated[int, Meta(ge=1, le=5)] | None,
        Meta(description='Extra attempts (1-5); only with onError "retry".'),
    ] = None
    when: Annotated[
        Condition | None,
        Meta(description="Run the step only if an element is in a state: {target|selector, "
                         "state, timeoutMs, else}."),
    ] = msgspec.field(default=None, name="if")


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
        Meta(description="Name of a stored secret to fill instead of value (it never "
                         "appears in results)."),
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
             description='Key or chord: "Enter", "Tab", "Control+A", "Shift+ArrowLeft", "!", '
                         '"Shift" (alone), "Digit3" (a key code). Modifiers Alt, Control '
                         "(Ctrl), Meta (Cmd), Shift, joined by + before exactly one key."),
    ]
    target: _OptTarget = None
    selector: _OptSelector = None


class Select(_StepCore, frozen=True, kw_only=True, tag="select"):
    """Choose the options of a <select>: one by its value or its visible label, or for a
    <select multiple> exactly the ones listed in values or labels (an empty list clears it).

    Give exactly one of target or selector, and one of value, label, values or labels. Waits
    for the options to exist and be enabled. Here ``label`` names the option, so a select step
    has no step label.
    """

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "required"
    target: _Target = None
    selector: _Selector = None
    value: Annotated[str | None, Meta(description="The option's value attribute.")] = None
    option_label: Annotated[
        str | None, Meta(description="The option's visible text."),
    ] = msgspec.field(default=None, name="label")
    values: Annotated[
        Annotated[list[str], Meta(max_length=1000)] | None,
        Meta(description="The values of every option to select (a <select multiple>; others "
                         "become unselected)."),
    ] = None
    labels: Annotated[
        Annotated[list[str], Meta(max_length=1000)] | None,
        Meta(description="The visible texts of every option to select (a <select multiple>)."),
    ] = None


class Scroll(_Step, frozen=True, kw_only=True, tag="scroll"):
    """Scroll target/selector into view; or, with a direction, turn the mouse wheel by pixels
    over target/selector or else over the middle of the page. Reports what moved."""

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "optional"
    target: _OptTarget = None
    selector: _OptSelector = None
    direction: Annotated[
        Literal["up", "down", "left", "right"] | None,
        Meta(description="Wheel direction; default: into view with a target, else down."),
    ] = None
    pixels: Annotated[int, Meta(ge=1, le=100000,
                                description="Wheel distance in CSS pixels.")] = 600


class Navigate(_Step, frozen=True, kw_only=True, tag="navigate"):
    """Load a URL in the tab."""

    url: Annotated[str, Meta(description="Absolute URL (the URL policy decides which).")]


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
    # Options (issue 13). target/selector, roles and viewportOnly narrow the read: a partial
    # look, not the baseline of a later delta read.
    target: Annotated[
        Annotated[str, Meta(pattern=_TARGET_PATTERN)] | None,
        Meta(description="Read only this element's subtree (a ref). At most one of target "
                         "and selector."),
    ] = None
    selector: Annotated[
        Annotated[str, Meta(pattern=_SELECTOR_PATTERN)] | None,
        Meta(description="Read only the subtree of this CSS selector's element."),
    ] = None
    roles: Annotated[
        Annotated[list[Annotated[str, Meta(min_length=1, max_length=40)]],
                  Meta(min_length=1, max_length=40)] | None,
        Meta(description='Only elements of these ARIA roles ("heading" keeps headings).'),
    ] = None
    viewport_only: Annotated[bool, Meta(description="Only elements that intersect the "
                                                    "viewport.")] = False
    max_elements: Annotated[
        Annotated[int, Meta(ge=1, le=100000)] | None,
        Meta(description="At most this many elements; the view says how many were left "
                         "out."),
    ] = None
    include_bounds: Annotated[bool, Meta(description="Each element's box [x, y, w, h] in "
                                                     "CSS px.")] = False


class Wait(_Step, frozen=True, kw_only=True, tag="wait"):
    """Pause for a fixed time."""

    ACTION: ClassVar[bool] = False
    ms: Annotated[int, Meta(ge=0, le=10000, description="Milliseconds to wait (0-10000).")]


# ---------------------------------------------------------------------------------------------
# Files, clearing and script (issue 13): upload, clear, evaluate

MAX_UPLOAD_FILES = 100
MAX_EXPRESSION_LENGTH = 100_000


class Upload(_Step, frozen=True, kw_only=True, tag="upload"):
    """Set the files of an <input type=file> as a user's pick does (input and change fire).

    Give exactly one of target or selector: the file input (it may be visually hidden behind a
    styled button), its <label>, or an element with exactly one file input inside (a drop
    zone). Paths are files on the browser's machine; each must exist and be readable."""

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "required"
    target: _Target = None
    selector: _Selector = None
    files: Annotated[
        list[Annotated[str, Meta(min_length=1)]],
        Meta(min_length=1, max_length=MAX_UPLOAD_FILES,
             description="Local file paths (absolute or relative to the working directory); "
                         "several only for <input multiple>."),
    ]


class Clear(_Step, frozen=True, kw_only=True, tag="clear"):
    """Empty an input, textarea or editable element as a user does (select all, delete), or
    the files of an <input type=file>. Give exactly one of target or selector."""

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "required"
    target: _Target = None
    selector: _Selector = None


class Evaluate(_Step, frozen=True, kw_only=True, tag="evaluate"):
    """Run a JavaScript expression in the page (its main world: the app's globals) and return
    its JSON value, promises awaited. Refused with EVALUATE_DISABLED unless evaluation was
    allowed when the browser was opened (--allow-evaluate)."""

    REPORTS: ClassVar[bool] = True
    expression: Annotated[
        str,
        Meta(min_length=1, max_length=MAX_EXPRESSION_LENGTH,
             description="JavaScript expression, e.g. \"document.title\" or "
                         "\"await fetch('/api/me').then(r => r.json())\"."),
    ]


# -- touch and drag (issue 13): tap, swipe, drag; the emulate option is with the request below


class Tap(_Step, frozen=True, kw_only=True, tag="tap"):
    """Tap an element with a finger: real touch events (touchstart, touchend, then the click
    the browser makes of a tap). Give exactly one of target or selector."""

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "required"
    target: _Target = None
    selector: _Selector = None


class Swipe(_Step, frozen=True, kw_only=True, tag="swipe"):
    """Swipe a finger across target/selector, or else across the middle of the viewport.
    direction is the finger's: swipe up to see what is below (like scroll down)."""

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "optional"
    direction: Annotated[Literal["up", "down", "left", "right"],
                         Meta(description="Which way the finger moves.")]
    pixels: Annotated[int, Meta(ge=1, le=10000,
                                description="How far the finger moves in CSS px (at most "
                                            "the viewport).")] = 300
    target: _OptTarget = None
    selector: _OptSelector = None


class Drag(_Step, frozen=True, kw_only=True, tag="drag"):
    """Drag target/selector with the mouse and drop it on toTarget/toSelector, or dx/dy pixels
    away. Works for HTML5 drag and drop (draggable) and for mouse/pointer-driven sortables."""

    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "required"
    target: _Target = None
    selector: _Selector = None
    to_target: Annotated[
        Annotated[str, Meta(pattern=_TARGET_PATTERN)] | Annotated[int, Meta(ge=1)] | None,
        Meta(description="Element to drop on (ref_N or node_N). Give one of toTarget, "
                         "toSelector, or dx/dy."),
    ] = None
    to_selector: Annotated[
        Annotated[str, Meta(pattern=_SELECTOR_PATTERN)] | None,
        Meta(description="CSS selector of the element to drop on."),
    ] = None
    dx: Annotated[Annotated[int, Meta(ge=-10000, le=10000)] | None,
                  Meta(description="Drop this many CSS px to the right (negative: "
                                               "left).")] = None
    dy: Annotated[Annotated[int, Meta(ge=-10000, le=10000)] | None,
                  Meta(description="Drop this many CSS px down (negative: up).")] = None


# -- observe: screenshot and extract (issue 13) ------------------------------------------------

MAX_CAPTURE_CSS_PX = 8000
"""The longest side of a screenshot's clip in CSS pixels: a longer page or element is cut there
(the step's output says so), so that one image stays a few megabytes at most."""


class Screenshot(_Step, frozen=True, kw_only=True, tag="screenshot"):
    """Capture the viewport (default), the full page (fullPage), or one element (target or
    selector: scrolled into view, clipped to its box). The image is in the step's output as
    base64, with its width, height and format."""

    ACTION: ClassVar[bool] = False
    REPORTS: ClassVar[bool] = True
    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "optional"
    target: _OptTarget = None
    selector: _OptSelector = None
    full_page: Annotated[bool, Meta(description="The whole page (cut at 8000 CSS px), not a "
                                                "target.")] = False
    format: Annotated[Literal["png", "jpeg"], Meta(description="Image format.")] = "png"
    quality: Annotated[
        Annotated[int, Meta(ge=0, le=100)] | None,
        Meta(description="JPEG quality 0-100 (jpeg only; default 80)."),
    ] = None


class Extract(_Step, frozen=True, kw_only=True, tag="extract"):
    """Return content: the page's main content (or target/selector's element) as Markdown or
    as its rendered text, or a form's current values as a JSON object (format "form": the
    target's form, else the page's first form)."""

    ACTION: ClassVar[bool] = False
    REPORTS: ClassVar[bool] = True
    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "optional"
    target: _OptTarget = None
    selector: _OptSelector = None
    format: Annotated[
        Literal["markdown", "text", "form"],
        Meta(description="markdown (headings, links, tables, code kept), text (as "
                         "rendered) or form (field name -> value)."),
    ] = "markdown"
    max_chars: Annotated[int, Meta(ge=100, le=1000000,
                                   description="Cut the content at this many characters."
                                   )] = 20000


PAPER_FORMATS: Mapping[str, tuple[float, float]] = types.MappingProxyType({
    "letter": (8.5, 11), "legal": (8.5, 14), "a4": (210 / 25.4, 297 / 25.4)})
"""Paper sizes (width, height) in inches, as Playwright's ``page.pdf`` names them."""


class Pdf(_Step, frozen=True, kw_only=True, tag="pdf"):
    """Print the page to PDF (as Chrome prints it; headless Chromium only). The file is written
    to path (relative to the working directory of the cdpseq process; its directory must
    exist), else the PDF is in the step's output as base64."""

    ACTION: ClassVar[bool] = False
    REPORTS: ClassVar[bool] = True
    TARGETING: ClassVar[Literal["required", "optional", "none"]] = "none"
    path: Annotated[Annotated[str, Meta(min_length=1, max_length=4096)] | None,
                    Meta(description="Write the PDF to this file.")] = None
    landscape: Annotated[bool, Meta(description="Landscape orientation.")] = False
    print_background: Annotated[bool, Meta(description="Print background colours and "
                                                       "images.")] = False
    paper: Annotated[Literal["letter", "legal", "a4"],
                     Meta(description="Paper size.")] = "letter"


class Logs(_Step, frozen=True, kw_only=True, tag="logs"):
    """Return the tab's recent console messages and network requests, oldest first: what this
    process saw since it first acted on the tab (and the console messages the document had
    logged before), 500 of each kept; the last ``LOGS_SHOWN`` (50) of each that pass the
    filters are returned."""

    ACTION: ClassVar[bool] = False
    REPORTS: ClassVar[bool] = True
    level: Annotated[Literal["info", "warning", "error"],
                     Meta(description="Console entries at this level or above.")] = "info"
    min_status: Annotated[
        Annotated[int, Meta(ge=100, le=599)] | None,
        Meta(description="Only requests that answered this status or above, or failed."),
    ] = None
    url: Annotated[
        Annotated[str, Meta(min_length=1, max_length=2000)] | None,
        Meta(description="Only entries whose URL (a request's, a message's source) contains "
                         "this."),
    ] = None
    since: Annotated[
        Literal["last_act", "act"] | None,
        Meta(description="last_act: since this process's previous act on the tab ended; act: "
                         "since this act began; absent: all kept."),
    ] = None


Step = Union[  # noqa: UP007 - a runtime alias msgspec decodes as a tagged union
    Click, Hover, Check, Uncheck, Fill, TypeText, Press, Select, Scroll, Navigate,
    Back, Forward, Reload, WaitFor, ReadPage, Wait,
    Upload, Clear, Evaluate,
    Tap, Swipe, Drag,
    Screenshot, Extract, Pdf, Logs,
]
"""Any step: the wire field ``type`` tells which."""

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


DeviceName = Literal["iPhone 13", "Pixel 7", "iPad Mini", "Desktop"]


class Emulate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
              omit_defaults=True, rename="camel"):
    """Device emulation for the tab, applied before the first step and kept for the tab (every
    later act and read of any cdpseq process applies it again) until changed or reset."""

    device: Annotated[DeviceName | None,
                      Meta(description="A named device: its metrics, touch and user agent; "
                                       "the other fields override them.")] = None
    width: Annotated[Annotated[int, Meta(ge=1, le=10000)] | None,
                     Meta(description="Viewport width in CSS pixels.")] = None
    height: Annotated[Annotated[int, Meta(ge=1, le=10000)] | None,
                      Meta(description="Viewport height in CSS pixels.")] = None
    device_scale_factor: Annotated[Annotated[float, Meta(gt=0, le=10)] | None,
                                   Meta(description="Device pixel ratio.")] = None
    mobile: Annotated[bool | None, Meta(description="Mobile: meta viewport honoured, "
                                                    "overlay scrollbars.")] = None
    touch: Annotated[bool | None, Meta(description="A touch screen (navigator.maxTouchPoints, "
                                                   "pointer: coarse).")] = None
    user_agent: Annotated[Annotated[str, Meta(min_length=1, max_length=1000)] | None,
                          Meta(description="The User-Agent header and navigator.userAgent."
                                           )] = None
    reset: Annotated[bool, Meta(description="true: drop the tab's emulation (alone).")] = False


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
        Meta(description="What to return: final (the page after the last step), all (after "
                         "each step) or delta (changes only)."),
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
        Meta(description="How long the page must stay quiet to count as settled, in ms "
                         "(default 100)."),
    ] = None
    settle_timeout_ms: Annotated[
        int, Meta(ge=0, le=60000, description="Longest wait for settling after an action, "
                                              "in ms."),
    ] = 5000
    dialog: Annotated[
        DialogAction,
        Meta(description="alert/confirm/prompt/beforeunload dialogs, opened by steps or "
                         "already open: dismiss, accept, or leave them open."),
    ] = "dismiss"
    prompt_text: Annotated[
        Annotated[str, Meta(max_length=10000)] | None,
        Meta(description="Text a prompt() gets when accepted; default: the prompt's own "
                         "default text."),
    ] = None
    emulate: Annotated[
        Emulate | None,
        Meta(description="Emulate a device in this tab from now on (kept for the tab)."),
    ] = None
    download_dir: Annotated[
        Annotated[str, Meta(min_length=1, max_length=4096)] | None,
        Meta(description="Directory downloads are saved into (on the browser's machine); "
                         "default: downloads/ in cdpseq's state directory."),
    ] = None


def object_schema(cls: type[msgspec.Struct]) -> dict[str, Any]:
    """The JSON Schema of a Struct with its object schema at the top (MCP wants
    ``type: object`` there) and the types it uses in ``$defs``."""
    schema = msgspec.json.schema(cls)
    defs = dict(schema.get("$defs", {}))
    name = schema["$ref"].rsplit("/", 1)[-1]
    root = defs.pop(name)
    return {**root, "$defs": defs} if defs else root


def request_schema() -> dict[str, Any]:
    """JSON Schema of :class:`ActRequest` (object at the top, step types in ``$defs``)."""
    schema = object_schema(ActRequest)
    stable = schema["$defs"]["WaitFor"]["properties"]["stable"]
    stable["anyOf"] = [{"const": True}, {"type": "null"}]
    return schema
