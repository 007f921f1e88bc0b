"""Hypothesis strategies for hostile act and read_page requests.

A request is built the way a confused or malicious caller would build one: mostly plausible
steps (so that many requests validate and really run), each possibly mutated — a field dropped,
a field added, a value of the wrong type, a huge or non-UTF-8 string, NaN, deep nesting — plus
whole requests that are not requests at all, and step lists far beyond ``maxSteps``.

``fast=True`` keeps every request that validates quick to run against a real tab: the
sequence's ``timeoutMs`` is always given and small unless it is itself the mutated field (then
it is invalid and nothing runs), so a batch of examples stays within seconds.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from cdpseq.engine.request import STEP_TYPES

_PDF_DIR = tempfile.mkdtemp(prefix="cdpseq-fuzz-")
atexit.register(shutil.rmtree, _PDF_DIR, True)

# -- leaves -------------------------------------------------------------------------------------

LONE_SURROGATES = st.sampled_from(["\ud800", "\udfff", "a\udc80b", "\udbff\ud800"])
"""Strings Python holds but UTF-8 (and so JSON on the wire) cannot carry."""

UNICODE = st.sampled_from([
    "", " ", "\u00a0", "é", "e\u0301", "日本語", "🙂", "👩‍👩‍👧", "\u202eevil", "\u0000", "\x7f",
    "\ufeff", "\uffff", "\U0010ffff", "\u2028\u2029", "null", "true", "undefined", "NaN",
])

# Built once: drawing them costs nothing, and no test mutates its input.
HUGE_STRINGS = st.sampled_from([
    text for n in (10_000, 100_000, 1_000_000)
    for text in ("x" * n, "🙂" * (n // 4), "[" * n, "a >> " * (n // 5) + "a")])

STRINGS = st.one_of(
    st.text(max_size=40),
    st.text(st.characters(codec="utf-8"), max_size=20),
    UNICODE,
    LONE_SURROGATES,
    HUGE_STRINGS,
)

NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 1, 2**31, 2**53 + 1, 2**63, 2**64, 10**30, -(10**30)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([float("nan"), float("inf"), float("-inf"), -0.0, 1e308, 5e-324, 1.0]),
)

LEAVES = st.one_of(st.none(), st.booleans(), NUMBERS, STRINGS)

_CONTAINERS = st.one_of(st.lists(LEAVES, max_size=4),
                        st.dictionaries(st.text(max_size=10), LEAVES, max_size=4))
JSON_VALUES: st.SearchStrategy[Any] = st.one_of(
    LEAVES, _CONTAINERS, st.lists(_CONTAINERS, max_size=3),
    st.dictionaries(st.text(max_size=10), _CONTAINERS, max_size=3))
"""Any JSON-like value, NaN and lone surrogates included."""


class _DeepList(list[Any]):
    """A list nested very deep, shown short (Hypothesis' printer recurses, and would fail)."""

    depth = 0

    def __repr__(self) -> str:
        return f"nested({self.depth}, 'list')"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


class _DeepDict(dict[str, Any]):
    depth = 0

    def __repr__(self) -> str:
        return f"nested({self.depth}, 'dict')"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


def nested(depth: int, kind: str) -> Any:
    """``depth`` lists (or objects) one inside the other, around a string."""
    value: Any = "deep"
    for _ in range(depth - 1):
        value = [value] if kind == "list" else {"a": value}
    outer: _DeepList | _DeepDict = _DeepList([value]) if kind == "list" else _DeepDict(a=value)
    outer.depth = depth
    return outer


DEEP = st.sampled_from([nested(depth, kind) for depth in (50, 200, 1_000, 5_000, 50_000)
                        for kind in ("list", "dict")])
"""Nesting far deeper than any request needs."""

JUNK = st.one_of(JSON_VALUES, DEEP)

# -- targets and selectors ----------------------------------------------------------------------

GOOD_TARGETS = st.one_of(
    st.integers(1, 40).map(lambda n: f"ref_{n}"),
    st.integers(1, 400).map(lambda n: f"node_{n}"),
    st.integers(1, 400),
    st.integers(1, 400).map(str),
)

BAD_TARGETS = st.one_of(
    st.sampled_from([
        "ref_0", "ref_-1", "ref_", "ref_01", "ref_1.5", "REF_1", "ref_1 ", " ref_1", "ref_١",
        "ref_" + "9" * 30, "node_" + "9" * 30, "9" * 30, "node_", "node_abc", "node_-5",
        "node_0x10", "node_1e3", "node_" + "7" * 400, "0", "-1", "", "button", "#go",
        "ref_1\u0000", "ref_\ud800",
    ]),
    st.sampled_from([0, -1, -(2**63), 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**30]),
    st.text(max_size=12).map(lambda s: "node_" + s),
    st.text(max_size=12).map(lambda s: "ref_" + s),
    st.floats(allow_nan=True),
    st.booleans(),
)
"""Targets that must fail: invalid ones at validation, well-formed but absent ones (30-digit
numbers, backend ids out of range) with STALE_REF / NODE_NOT_FOUND when the step runs."""

GOOD_SELECTORS = st.sampled_from([
    "#click-me", "button", "input", "a", "*", "body", "#email", "input[type=checkbox]",
    'role=button[name="Click me"]', "role=textbox", "body >> nth=0", "form >> button",
    "#nope-not-here", "div >> nth=99999999999999999999", "html >> body >> *",
])

THROWING_SELECTORS = st.sampled_from([
    "[", "a[", "a]", "::", ":::", "#", ".", "div:has(", ":nth-child(", ":nth-child(x)", "a,",
    ",", "a >> ", ">> a", "a >>>> b", "a >> >> b", "nth=1", "a >> nth=-1", "a >> nth=x",
    "role=", "role=Button", 'role=button[name=x]', 'role=button[name="x]', "role=button[",
    "\\", "'", '"', "a'b", "a\"b", "<script>", "div{}", "@media", "!important", "a:hover(",
    ":is(", ":not()", "a >> nth=", "\u0000", "a\ud800", "[x=\ud800]", ")", "(((", "a >> (",
])
"""Selectors the page's parser refuses (or that the validator refuses before it)."""


# -- step fields --------------------------------------------------------------------------------

KEYS_GOOD = st.sampled_from([
    "Enter", "Tab", "a", "A", "Shift", "Control+A", "Control++", "+", "F5", "Digit3", "Escape",
    "Backspace", "ArrowLeft", "Shift+Tab", "Meta+Shift+z"])
KEYS_BAD = st.sampled_from([
    "", "Control+", "++", "Hyper+A", "Control+Control+A", "NotAKey", "ß", "日",
    "Ctrl+Cmd+Alt+Shift+x", "Enter+Enter", " ", "\ud800", "Shift+\ud800"])


def url_strategy(base_urls: Sequence[str]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.sampled_from(list(base_urls)) if base_urls else st.nothing(),
        st.sampled_from([
            "about:blank", "data:text/html,<button id=click-me>Click me</button>",
            "http://127.0.0.1:9/", "http://[::1", "http://", "https://", "http:///x", "ftp://x/",
            "javascript:alert(1)", "chrome://version", "view-source:http://x/", "relative/path",
            "//no-scheme", "about:blank#\ud800", "http://\ud800/", "file:///nonexistent/x.html",
            "http://127.0.0.1:9/" + "a" * 100_000,
        ]),
        STRINGS,
    )


@functools.cache  # strategies are built once: building and validating them is slow
def _field_values(base_urls: tuple[str, ...], fast: bool) -> dict[str, st.SearchStrategy[Any]]:
    """Each field's values: good ones and bad ones; ``fast`` (requests that run on a real
    tab) favours the good ones three to one, so that many requests validate and run."""
    small = 800 if fast else 120_000
    plain = st.text(max_size=20) | UNICODE
    good_and_bad: dict[str, tuple[st.SearchStrategy[Any], st.SearchStrategy[Any]]] = {
        "target": (GOOD_TARGETS, BAD_TARGETS),
        "selector": (GOOD_SELECTORS, THROWING_SELECTORS | STRINGS),
        "value": (plain, STRINGS),
        "text": (plain, STRINGS),
        "textGone": (plain, STRINGS),
        "label": (plain, STRINGS),
        "values": (st.lists(plain, max_size=4), st.lists(STRINGS, max_size=4)),
        "labels": (st.lists(plain, max_size=4), st.lists(STRINGS, max_size=4)),
        "credentialRef": (st.sampled_from(["nope", "password"]),
                          st.sampled_from(["1bad", "", "x" * 65, "a-b"])),
        "key": (KEYS_GOOD, KEYS_BAD | STRINGS),
        "url": (st.sampled_from(list(base_urls) or ["about:blank"]) | st.just("about:blank"),
                url_strategy(base_urls)),
        "ms": (st.integers(0, 300 if fast else 10_000), st.sampled_from([-1, 10_001])),
        "timeoutMs": (st.integers(1, small), st.sampled_from([0, 120_001])),
        "onError": (st.sampled_from(["stop", "skip", "retry"]), st.sampled_from(["ignore", ""])),
        "retries": (st.integers(1, 2 if fast else 5), st.sampled_from([0, 6])),
        "button": (st.sampled_from(["left", "right", "middle"]), st.just("back")),
        "clickCount": (st.integers(1, 3), st.sampled_from([0, 4])),
        "modifiers": (st.lists(st.sampled_from(["Alt", "Control", "Meta", "Shift"]),
                               max_size=2, unique=True),
                      st.lists(st.sampled_from(["Shift", "Hyper"]), min_size=2, max_size=3)),
        "delayMs": (st.integers(0, 5 if fast else 1000), st.sampled_from([-1, 1001])),
        "direction": (st.sampled_from(["up", "down", "left", "right"]), st.just("sideways")),
        "pixels": (st.integers(1, 2000), st.sampled_from([0, 100_001])),
        "filter": (st.sampled_from(["interactive", "all"]), st.just("everything")),
        "compression": (st.sampled_from(["none", "delta"]), st.just("gzip")),
        "state": (st.sampled_from(["visible", "hidden", "attached", "detached"]),
                  st.just("gone")),
        "stable": (st.just(True), st.just(False)),
        "files": (st.lists(st.sampled_from([__file__, "/nonexistent/cdpseq-fuzz.txt"]),
                           min_size=1, max_size=2),
                  st.just([]) | st.lists(STRINGS, max_size=2) | STRINGS),
        "expression": (st.sampled_from(["document.title", "1 + 1", "undefined", "window"]),
                       st.just("") | STRINGS),
        "if": (st.fixed_dictionaries(
                   {"selector": GOOD_SELECTORS},
                   optional={"state": st.sampled_from(["visible", "hidden", "enabled",
                                                       "disabled", "exists", "gone"]),
                             "timeoutMs": st.integers(0, 100 if fast else 60_000),
                             "else": st.sampled_from(["skip", "fail"])}),
               st.sampled_from([{}, "visible", {"selector": "a", "state": "shown"},
                                {"target": "node_1"}, {"selector": "a", "timeoutMs": -1}])),
        "toTarget": (GOOD_TARGETS, BAD_TARGETS),
        "toSelector": (GOOD_SELECTORS, THROWING_SELECTORS | STRINGS),
        "dx": (st.integers(-300, 300), st.sampled_from([10_001, 1.5, "5"])),
        "dy": (st.integers(-300, 300), st.sampled_from([-10_001, 0.5, None])),
        # screenshot, extract and read_page's options (issue 13); format serves both steps
        "fullPage": (st.booleans(), st.just("yes")),
        "format": (st.sampled_from(["png", "jpeg", "markdown", "text", "form"]), st.just("gif")),
        "quality": (st.integers(0, 100), st.sampled_from([-1, 101])),
        "maxChars": (st.integers(100, 5000), st.sampled_from([0, 99])),
        "roles": (st.lists(st.sampled_from(["button", "link", "heading", "textbox"]),
                           min_size=1, max_size=3), st.just([])),
        "viewportOnly": (st.booleans(), st.just(1)),
        "maxElements": (st.integers(1, 50), st.just(0)),
        "includeBounds": (st.booleans(), st.just("true")),
        # the pdf step (issue 23): a file only ever in a directory removed at exit
        "path": (st.just(os.path.join(_PDF_DIR, "fuzz.pdf")),
                 st.sampled_from(["", "/nonexistent/cdpseq-fuzz.pdf", "/"])),
        "paper": (st.sampled_from(["letter", "legal", "a4"]), st.just("a9")),
        "landscape": (st.booleans(), st.just("no")),
        "printBackground": (st.booleans(), st.just(0)),
        # the logs step (issue 23); its url (a part of one) shares navigate's strategies
        "level": (st.sampled_from(["info", "warning", "error"]), st.just("debug")),
        "minStatus": (st.integers(100, 599), st.sampled_from([99, 600, "500"])),
        "since": (st.sampled_from(["last_act", "act"]), st.just("mark")),
    }
    return {name: _either(good, bad, fast) for name, (good, bad) in good_and_bad.items()}


def _either(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any],
            fast: bool) -> st.SearchStrategy[Any]:
    """Good or bad values: one in ten bad when ``fast`` (a request has several fields, and one
    bad field makes it invalid), else one in two."""
    flags = [False] * 9 + [True] if fast else [False, True]
    return st.sampled_from(flags).flatmap(lambda hostile: bad if hostile else good)


# The fields each step type takes (its required ones first), as the request module declares.
_COMMON = ["timeoutMs", "onError", "retries", "label", "if"]
STEP_FIELDS: dict[str, list[str]] = {
    "click": ["target", "selector", "button", "clickCount", "modifiers"],
    "hover": ["target", "selector"],
    "check": ["target", "selector"],
    "uncheck": ["target", "selector"],
    "fill": ["target", "selector", "value", "credentialRef"],
    "type": ["text", "target", "selector", "delayMs"],
    "press": ["key", "target", "selector"],
    "select": ["target", "selector", "value", "label", "values", "labels"],
    "scroll": ["target", "selector", "direction", "pixels"],
    "navigate": ["url"],
    "back": [], "forward": [], "reload": [],
    "wait_for": ["text", "textGone", "selector", "url", "stable", "state"],
    "read_page": ["filter", "compression", "target", "selector", "roles", "viewportOnly",
                  "maxElements", "includeBounds"],
    "screenshot": ["target", "selector", "fullPage", "format", "quality"],
    "extract": ["target", "selector", "format", "maxChars"],
    "wait": ["ms"],
    "upload": ["files", "target", "selector"],
    "clear": ["target", "selector"],
    "evaluate": ["expression"],
    "tap": ["target", "selector"],
    "swipe": ["direction", "target", "selector", "pixels"],
    "drag": ["target", "selector", "toTarget", "toSelector", "dx", "dy"],
    "pdf": ["path", "paper", "landscape", "printBackground"],
    "logs": ["level", "minStatus", "url", "since"],
}
assert set(STEP_FIELDS) == set(STEP_TYPES)

_REQUIRED_CHOICE = {  # one of these makes a valid step of the type
    "click": ["target", "selector"], "hover": ["target", "selector"],
    "check": ["target", "selector"], "uncheck": ["target", "selector"],
    "fill": ["target", "selector"], "select": ["target", "selector"],
    "wait_for": ["text", "textGone", "selector", "url", "stable"],
    "upload": ["target", "selector"], "clear": ["target", "selector"],
    "tap": ["target", "selector"], "drag": ["target", "selector"],
}
_ALWAYS = {"type": ["text"], "press": ["key"], "navigate": ["url"], "wait": ["ms"],
           "upload": ["files"], "evaluate": ["expression"],
           "fill": ["value"], "select": ["value"], "swipe": ["direction"],
           "drag": ["dy"]}

SMALL_STEPS = [{"type": "wait", "ms": 1}, {"type": "click", "target": "ref_1"},
               {"type": "read_page"}, {"type": "navigate", "url": "about:blank"},
               {"type": "wait", "ms": "1"}, {"type": "teleport"}, {"action": "back"}]

MUTATIONS = ("drop", "extra", "retype", "alias", "not_object")


@st.composite
def steps(draw: st.DrawFn, base_urls: Sequence[str] = (), fast: bool = True) -> Any:
    """One step: plausible for its type, then perhaps mutated."""
    values = _field_values(tuple(base_urls), fast)
    kind = draw(_either(st.sampled_from(STEP_TYPES),
                        st.sampled_from(["teleport", "Click", "read-page", ""]), fast))
    fields = STEP_FIELDS.get(kind, ["target", "url"])
    chosen: list[str] = list(_ALWAYS.get(kind, []))
    if kind in _REQUIRED_CHOICE:
        chosen.append(draw(st.sampled_from(_REQUIRED_CHOICE[kind])))
    chosen += draw(st.lists(st.sampled_from([*fields, *_COMMON]), max_size=3, unique=True))
    step: dict[str, Any] = {"type": kind}
    for name in dict.fromkeys(chosen):
        step[name] = draw(values.get(name, JUNK))
    if fast and kind == "wait_for":  # a condition that may never hold waits its whole timeout
        step["timeoutMs"] = draw(st.integers(1, 300))
    mutation = draw(st.sampled_from(["none"] * (40 if fast else 5) + list(MUTATIONS)))
    if mutation == "drop" and len(step) > 1:
        del step[draw(st.sampled_from(sorted(step)))]
    elif mutation == "extra":
        step[draw(st.one_of(st.sampled_from(["bogus", "Target", "target_", "tabId", "steps",
                                             "__proto__", "constructor", ""]),
                            st.text(max_size=8), LONE_SURROGATES))] = draw(JUNK)
    elif mutation == "retype":
        step[draw(st.sampled_from(sorted(step)))] = draw(JUNK)
    elif mutation == "alias":
        step["action"] = step.pop("type") if draw(st.booleans()) else draw(JUNK)
    elif mutation == "not_object":
        return draw(JUNK)
    return step


@functools.cache
def _options(fast: bool) -> dict[str, st.SearchStrategy[Any]]:
    return {
        "tabId": st.one_of(st.sampled_from(["NOPE", "", "0" * 32]), STRINGS),
        "failFast": st.booleans(),
        "returnMode": st.sampled_from(["final", "all", "delta", "none"]),
        "perStepTimeoutMs": st.integers(1, 800 if fast else 120_000),
        "maxSteps": st.integers(0, 51),
        "settle": st.booleans(),
        "stabilityMs": st.integers(0, 100 if fast else 5000),
        "settleTimeoutMs": st.integers(0, 300 if fast else 60_000),
        "dialog": st.sampled_from(["dismiss", "accept", "leave", "ignore"]),
        "emulate": st.one_of(
            st.sampled_from([{"device": "Pixel 7"}, {"touch": True}, {"reset": True},
                             {"width": 400, "height": 500, "mobile": True},
                             {"userAgent": "fuzz/1"}, {}, {"width": 5}, {"device": "Nokia"},
                             {"reset": True, "touch": False}, {"deviceScaleFactor": 0}]),
            JUNK),
    }


@st.composite
def act_requests(draw: st.DrawFn, base_urls: Sequence[str] = (), fast: bool = True,
                 tab_ids: bool = True) -> Any:
    """An act request as a caller would send it (Python data; JSON-encodable or not)."""
    shape = draw(st.sampled_from(["object"] * 6 + ["bare_list", "many_steps", "junk", "deep"]))
    if shape == "junk":
        return draw(JUNK)
    if shape == "deep":
        return {"steps": [{"type": "wait", "ms": 1}], "label": draw(DEEP)}
    if shape == "many_steps":
        count = draw(st.sampled_from([51, 60, 1_000, 5_000, 20_000]))
        step = draw(st.sampled_from(SMALL_STEPS))  # thousands of copies: keep each one small
        return {"steps": [step] * count, "maxSteps": draw(st.sampled_from([10, 50, 51, count]))}
    listed = draw(st.lists(steps(base_urls, fast), min_size=1, max_size=5))
    if shape == "bare_list":
        return listed
    request: dict[str, Any] = {"steps": listed}
    options = _options(fast)
    names = sorted(options) if tab_ids else sorted(set(options) - {"tabId"})
    for name in draw(st.lists(st.sampled_from(names), max_size=4, unique=True)):
        request[name] = draw(options[name])
    request["timeoutMs"] = draw(st.integers(300, 1500) | st.just(1)) if fast else draw(
        st.integers(1, 600_000))
    mutation = draw(st.sampled_from(["none"] * (30 if fast else 5)
                                    + ["drop_steps", "extra", "retype", "steps_not_list"]))
    if mutation == "drop_steps":
        del request["steps"]
    elif mutation == "extra":
        request[draw(st.sampled_from(["bogus", "step", "Steps", "tab_id", "", "type",
                                      "\udfff"]))] = draw(JUNK)
    elif mutation == "retype":
        request[draw(st.sampled_from(sorted(request)))] = draw(JUNK)
    elif mutation == "steps_not_list":
        request["steps"] = draw(st.one_of(JUNK, st.just(listed[0])))
    return request


@st.composite
def read_page_arguments(draw: st.DrawFn) -> dict[str, Any]:
    """read_page's arguments (MCP): tabId, filter, compression, each perhaps wrong."""
    arguments: dict[str, Any] = {}
    if draw(st.booleans()):
        arguments["filter"] = draw(st.one_of(st.sampled_from(["interactive", "all"]), JUNK))
    if draw(st.booleans()):
        arguments["compression"] = draw(st.one_of(st.sampled_from(["none", "delta"]), JUNK))
    if draw(st.integers(0, 3)) == 0:
        arguments["tabId"] = draw(st.one_of(st.sampled_from(["NOPE", "", "0" * 32]), STRINGS,
                                            JUNK))
    if draw(st.integers(0, 5)) == 0:
        arguments[draw(st.sampled_from(["bogus", "tab_id", "steps", "", "\ud800"]))] = draw(JUNK)
    return arguments
