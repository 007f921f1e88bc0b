"""read_page agrees with Chromium's own accessibility tree (``Accessibility.getFullAXTree``) on
every fixture page and every page of the real-component corpus.

For each element read_page lists (filter "all": controls and containers), matched to Chrome's
node by its backendDOMNodeId, the role, the name and the states Chrome computes too are
compared: checked, pressed, disabled, expanded, selected, required, readonly, invalid, focused,
level, the value (a field's text, a select's choice, a slider's or meter's number and range),
and the active item of a widget (``aria-activedescendant``). Also reported: an element cdpseq
lists that Chrome leaves out of its tree (hidden from everyone, or inert), and a control Chrome
exposes (a widget role, or focusable) that cdpseq does not list. Chrome's tree has no sort state
(``aria-sort`` is not among its properties): tests/page/test_read_widgets.py checks that one
against the page.

Every disagreement goes into the failure message. Those that are right to keep are allowed by
``BY_DESIGN`` (a rule for every page, each with its reason) or ``ALLOWED`` (one element of one
page, with its reason); an ``ALLOWED`` entry that matches nothing fails the test too, so the list
stays true.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

import pytest
import trio

from cdpseq import PageElement, PageView, Tab, act, read_page
from cdpseq.cdp import accessibility, dom, page, runtime
from cdpseq.errors import CdpseqError
from cdpseq.page.agent import PageAgent
from fixtures.server import REALWORLD_DIST, FixtureServer
from tests.paths import ROOT
from tests.realworld.common import open_app

PAGES = ROOT / "fixtures" / "pages"
APPS = ROOT / "fixtures" / "realworld" / "apps"

# Fixture pages not compared, and why: none. The pages that hang do so when clicked
# (fault-hang.html), and the pages that never settle (an endless spinner, polling, streams) are
# read after a short settle (settleTimeoutMs below).
SKIPPED: dict[str, str] = {}
# Pages read at a size of their own: their default is a benchmark's (10,000 or 2,000 rows); a
# dozen rows have every kind of element the full page has.
QUERIES = {
    "big.html": "?n=30",
    "big-grid.html": "?n=12",
    "big-todos.html": "?n=12",
    "widgets-read-select.html": "?many=3",
}


def fixture_pages() -> list[str]:
    return sorted(p.name for p in PAGES.glob("*.html") if p.name not in SKIPPED)


def corpus_apps() -> list[str]:
    """The corpus's apps, as they are when the tests are collected (helpers add more)."""
    return sorted(p.stem for p in APPS.glob("*.html"))


# -- Chrome's tree ------------------------------------------------------------------------------


@dataclass
class AxNode:
    role: str
    name: str
    value: Any
    ignored: bool
    ignored_reasons: list[str]
    props: dict[str, Any]
    parent: int | None
    """The backend node id of the nearest ancestor that has one."""


def _normal(text: Any) -> str:
    words = re.sub(r"\s+", " ", str(text or "")).strip()
    return words if len(words) <= 80 else words[:79] + "…"  # read_page's cut


async def ax_tree(tab: Tab) -> dict[int, AxNode]:
    """Every node of the accessibility trees of the tab's frames (its own process's: a
    cross-origin frame's tree is its target's), by backend node id."""
    frames = await tab.send(page.GetFrameTree())
    ids: list[str] = []
    stack = [frames.frameTree]
    while stack:
        frame = stack.pop()
        ids.append(frame.frame.id)
        stack.extend(frame.childFrames or [])
    out: dict[int, AxNode] = {}
    for frame_id in ids:
        try:
            tree = await tab.send(accessibility.GetFullAXTree(frameId=frame_id))
        except CdpseqError:  # a cross-origin frame
            continue
        by_id = {node.nodeId: node for node in tree.nodes}
        for node in tree.nodes:
            if not node.backendDOMNodeId:
                continue
            props = {p.name: p.value.value if p.value.value is not None else
                     [r.backendDOMNodeId for r in p.value.relatedNodes or []]
                     for p in node.properties or []}
            out[node.backendDOMNodeId] = AxNode(
                role=str(node.role.value) if node.role else "",
                name=_normal(node.name.value if node.name else ""),
                value=node.value.value if node.value else None,
                ignored=node.ignored, ignored_reasons=[r.name for r in node.ignoredReasons or []],
                props=props, parent=_backend_parent(node, by_id))
    return out


def _backend_parent(node: accessibility.AXNode, by_id: dict[str, accessibility.AXNode]
                    ) -> int | None:
    parent = by_id.get(node.parentId) if node.parentId else None
    while parent is not None and not parent.backendDOMNodeId:
        parent = by_id.get(parent.parentId) if parent.parentId else None
    return parent.backendDOMNodeId if parent is not None else None


# -- the comparison -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Disagreement:
    page: str
    element: str
    """``role "name"`` as cdpseq lists it (as Chrome exposes it, for a control cdpseq omits)."""
    field: str
    cdpseq: Any
    chrome: Any
    listed: PageElement | None = dataclass_field(default=None, compare=False, repr=False)
    """The element cdpseq lists (for a control it omits: the listed element it is in)."""
    ax: AxNode | None = dataclass_field(default=None, compare=False, repr=False)
    node_id: int | None = dataclass_field(default=None, compare=False, repr=False)
    """The DOM node's backend id."""

    def __str__(self) -> str:
        return (f"{self.page}: {self.element}: {self.field}: cdpseq {self.cdpseq!r}, "
                f"chrome {self.chrome!r}")


# Chrome's roles that are widgets: a node of one that cdpseq does not list is a control missing.
WIDGET_ROLES = frozenset({
    "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox",
    "menuitemradio", "option", "textbox", "searchbox", "combobox", "listbox", "slider",
    "spinbutton", "treeitem", "gridcell", "DisclosureTriangle", "ColorWell", "Date", "DateTime",
    "InputTime", "meter", "progressbar"})
# Focusable nodes that are not controls: the page, frames, and what pages focus by script to
# move a reader there or to keep focus in (a heading, a landmark, a dialog, a grid's row group)
# — cdpseq lists those as what they are.
FOCUS_TARGETS = frozenset({"RootWebArea", "Iframe", "heading", "main", "dialog", "alertdialog",
                           "rowgroup",
                           "region", "navigation", "article", "form", "group", "list", "table",
                           "grid", "treegrid", "tree", "menu", "menubar", "tablist", "toolbar",
                           "listbox", "radiogroup", "complementary", "banner", "contentinfo"})
# States compared as true or false: Chrome leaves most out when false.
FLAGS = ("disabled", "expanded", "selected", "required", "readonly", "focused")
TRISTATE = {"true": True, "false": False, "mixed": "mixed"}


def _element(e: PageElement) -> str:
    return f'{e.role} "{e.name}"' if e.name else f"{e.role} (no name)"


def _number(value: Any) -> float | None:
    try:
        return round(float(value), 3)
    except (TypeError, ValueError):
        return None


def _states(e: PageElement, ax: AxNode, tree: dict[int, AxNode]) -> list[tuple[str, Any, Any]]:
    """(field, cdpseq, chrome) for each state the two disagree on."""
    out: list[tuple[str, Any, Any]] = []
    props = ax.props
    for name in ("checked", "pressed"):
        chrome = TRISTATE.get(str(props[name])) if name in props else None
        if name == "pressed" and chrome is False and e.pressed is None:
            chrome = None  # Chrome says "false" of every toggle button
        if getattr(e, name) != chrome:
            out.append((name, getattr(e, name), chrome))
    for name in FLAGS:
        if bool(getattr(e, name)) != bool(props.get(name)):
            out.append((name, getattr(e, name), props.get(name)))
    invalid = props.get("invalid") not in (None, "false")
    if bool(e.invalid) != invalid:
        out.append(("invalid", e.invalid, props.get("invalid")))
    if (e.level is not None or ax.role in ("treeitem", "row")) and e.level != props.get("level"):
        out.append(("level", e.level, props.get("level")))
    related = props.get("activedescendant")
    item = tree.get(related[0]) if isinstance(related, list) and related else None
    if _normal(e.active) != (item.name if item else ""):
        out.append(("active", e.active, item.name if item else None))
    out.extend(_value(e, ax))
    return out


def _value(e: PageElement, ax: AxNode) -> list[tuple[str, Any, Any]]:
    """The value: a field's text, a select's chosen option, a slider's or meter's number and
    range, as words when the page gives them (Chrome's valuetext is empty then)."""
    chrome = ax.value
    out: list[tuple[str, Any, Any]] = []
    numeric = isinstance(chrome, (int, float)) and not isinstance(chrome, bool)
    if e.valuenow is not None or (numeric and e.value is None):
        if _number(e.valuenow) != _number(chrome):
            out.append(("valuenow", e.valuenow, chrome))
    elif e.value is not None or chrome not in (None, ""):
        if e.value == "••••":  # a secret: never read
            return out
        mine = _number(e.value) if numeric else _normal(e.value)
        theirs = _number(chrome) if numeric else _normal(chrome)
        if mine != theirs:
            out.append(("value", e.value, chrome))
    words = ax.props.get("valuetext") or None
    if words is not None and _normal(words) not in (_normal(e.valuetext), _normal(e.value)):
        out.append(("valuetext", e.valuetext, words))
    for name in ("valuemin", "valuemax"):
        if getattr(e, name) is not None and _number(getattr(e, name)) != _number(
                ax.props.get(name)):
            out.append((name, getattr(e, name), ax.props.get(name)))
    return out


def compare(page_name: str, view: PageView, tree: dict[int, AxNode]) -> list[Disagreement]:
    """Every disagreement of a view with Chrome's tree."""
    found: list[Disagreement] = []
    listed: set[int] = set()

    def say(e: PageElement | None, ax: AxNode | None, what: str, name: str, mine: Any,
            theirs: Any, node_id: int | None = None) -> None:
        found.append(Disagreement(page_name, what, name, mine, theirs, e, ax,
                                  node_id or (e.node_id if e else None)))

    for e in view.elements:
        if e.node_id is None:
            say(e, None, _element(e), "nodeId", e.ref, "(none learned)")
            continue
        listed.add(e.node_id)
        ax = tree.get(e.node_id)
        if ax is None or ax.ignored:
            say(e, ax, _element(e), "listed", True, ax.ignored_reasons if ax else "(no node)")
            continue
        if e.role != ax.role:
            say(e, ax, _element(e), "role", e.role, ax.role)
        if _normal(e.name) != ax.name:
            say(e, ax, _element(e), "name", e.name, ax.name)
        for name, mine, theirs in _states(e, ax, tree):
            say(e, ax, _element(e), name, mine, theirs)
    for node_id, ax in tree.items():
        if node_id in listed or ax.ignored:
            continue
        focusable = ax.props.get("focusable") and ax.role not in FOCUS_TARGETS
        if ax.role in WIDGET_ROLES or focusable:
            what = f'{ax.role} "{ax.name}"' if ax.name else f"{ax.role} (no name)"
            owner = _listed_ancestor(ax, tree, {e.node_id: e for e in view.elements})
            say(owner, ax, what, "missing", None, sorted(k for k, v in ax.props.items() if v),
                node_id)
    return found


def _listed_ancestor(ax: AxNode, tree: dict[int, AxNode],
                     listed: dict[int | None, PageElement]) -> PageElement | None:
    """The nearest ancestor of a node that cdpseq lists, if any."""
    parent = ax.parent
    while parent is not None:
        if parent in listed:
            return listed[parent]
        node = tree.get(parent)
        parent = node.parent if node else None
    return None


# -- what is right to keep ----------------------------------------------------------------------


@dataclass
class Facts:
    """What the rules need to know of a page, learned from the page itself."""

    framed: set[str] = dataclass_field(default_factory=set)
    """Refs of elements in a cross-origin frame."""
    drawn_by_label: set[str] = dataclass_field(default_factory=set)
    """Refs of checkboxes and radios that do not render while a label of theirs does."""
    aria_hidden: set[str] = dataclass_field(default_factory=set)
    """Refs of elements that are aria-hidden, or inside an aria-hidden element."""
    nodes: dict[int, dict[str, bool]] = dataclass_field(default_factory=dict)
    """Of a node Chrome exposes as focusable that cdpseq does not list, by backend id: whether
    it is empty, whether it is a scroll container without a tabindex."""


def _generated_only(chrome: str, name: str) -> bool:
    """Whether Chrome's name is cdpseq's with only symbols (no letters or digits) before or
    after it: what CSS generated content adds."""
    at = chrome.find(name)
    return at >= 0 and not re.search(r"\w", chrome[:at] + chrome[at + len(name):])


@dataclass(frozen=True)
class Rule:
    why: str
    applies: Callable[[Disagreement, Facts], bool]


DATE_TIME_TYPES = frozenset({"date", "time", "datetime-local", "month", "week", "color"})

BY_DESIGN = (
    Rule("ARIA has no role for a <summary>: Chrome's own is DisclosureTriangle; cdpseq calls it a "
         "button, which is what pressing it is (its expanded state is Chrome's)",
         lambda d, f: d.field == "role" and d.cdpseq == "button"
         and d.chrome == "DisclosureTriangle"),
    Rule("ARIA has no role for date, time and color fields: Chrome's are its own (Date, DateTime, "
         "InputTime, ColorWell); cdpseq calls them textbox and says their inputType, and fill "
         "sets their whole value",
         lambda d, f: d.field == "role" and d.cdpseq == "textbox" and d.listed is not None
         and d.listed.input_type in DATE_TIME_TYPES),
    Rule("Chrome exposes the parts of a date or time field's built-in editor (day, month and year "
         "spin buttons, the picker button); cdpseq lists the field once, which fill sets whole",
         lambda d, f: d.field == "missing" and d.listed is not None
         and d.listed.input_type in DATE_TIME_TYPES),
    Rule("a <select>'s options are in its element's options (the first 12, and how many more), "
         "not listed one by one",
         lambda d, f: d.field == "missing" and d.listed is not None and d.listed.tag == "select"
         and d.ax is not None and d.ax.role in ("option", "MenuListOption")
         and (d.ax.name in (d.listed.options or []) or bool(d.listed.options_more))),
    Rule("a multiple select's value is its chosen options, joined: Chrome's tree says them as "
         "selected options instead, and gives the listbox no value",
         lambda d, f: d.field == "value" and d.listed is not None and d.listed.tag == "select"
         and d.listed.role == "listbox" and d.chrome is None),
    Rule("Chrome's active option of a native multiple select is where its own keyboard cursor "
         "is, which a page cannot read; cdpseq reads the active item a page sets "
         "(aria-activedescendant)",
         lambda d, f: d.field == "active" and d.listed is not None and d.listed.tag == "select"
         and d.cdpseq is None),
    Rule("Chrome words an empty file input's value ('No file chosen'); cdpseq says the files "
         "chosen: none",
         lambda d, f: d.field == "value" and d.listed is not None and d.listed.input_type == "file"
         and d.cdpseq == ""),
    Rule("Chrome names an unlabelled file input by the text of its built-in button ('Choose "
         "File'), which a page cannot read; cdpseq says it has no name",
         lambda d, f: d.field == "name" and d.listed is not None and d.listed.input_type == "file"
         and d.cdpseq == ""),
    Rule("a clickable element whose role takes no name from its content (generic, listitem): "
         "Chrome gives it no name; cdpseq names it by its text, the words a person would use",
         lambda d, f: d.field == "name" and d.listed is not None
         and d.listed.role in ("generic", "listitem") and d.chrome == ""),
    Rule("Chrome exposes a draggable element without a role as a group; cdpseq keeps its role "
         "(generic) and lists it as the control it is (dragged, clicked)",
         lambda d, f: d.field == "role" and d.cdpseq == "generic" and d.chrome == "group"),
    Rule("an element of a cross-origin frame is read through that frame's own target, whose node "
         "ids the tab's tree does not hold; the frame's page is compared on its own "
         "(oopif-pay.html)",
         lambda d, f: d.field == "nodeId" and d.listed is not None and d.listed.ref in f.framed),
    Rule("cdpseq lists what renders, whatever aria-hidden says: it hides an element from "
         "assistive technology, not from the screen or the pointer (a drag handle, a decorative "
         "fieldset, a form's hidden proxy input); Chrome's tree leaves it out. Verified on the "
         "page: the element or an element around it is aria-hidden",
         lambda d, f: d.field == "listed" and d.listed is not None
         and d.listed.ref in f.aria_hidden),
    Rule("a clickable element that only a handler or a pointer cursor says is one (a library's "
         "chip, a card): Chrome finds it uninteresting; cdpseq lists it as a control",
         lambda d, f: d.field == "listed" and d.listed is not None and d.listed.role == "generic"
         and d.chrome == ["uninteresting"]),
    Rule("names are the text as the page has it: Chrome's are as CSS text-transform shows them "
         "(an upper-case button)",
         lambda d, f: d.field == "name" and isinstance(d.chrome, str)
         and _normal(d.cdpseq).casefold() == d.chrome.casefold()),
    Rule("Chrome's name takes the CSS generated content (::before, ::after) of every element it "
         "goes through; cdpseq's only that of an element with nothing else in it (an icon): a "
         "required field's '*' drawn by CSS after its label, a checkbox's box drawn before its "
         "text ('☐ Extra spicy'), are not in cdpseq's name",
         lambda d, f: d.field == "name" and isinstance(d.chrome, str) and bool(d.cdpseq)
         and _generated_only(d.chrome, _normal(d.cdpseq))),
    Rule("a contenteditable region is a textbox to cdpseq (fill types into it); Chrome exposes "
         "one without a role as an editable generic",
         lambda d, f: d.field == "role" and d.cdpseq == "textbox" and d.chrome == "generic"
         and d.ax is not None and bool(d.ax.props.get("editable"))),
    Rule("a spin button or slider without aria-valuenow has no value (its valuetext says so, "
         "'Empty'); Chrome gives it 0",
         lambda d, f: d.field == "valuenow" and d.cdpseq is None and d.chrome == 0),
    Rule("an empty focusable box (a focus guard a grid or dialog keeps at its edges) is not a "
         "control; verified on the page: nothing in it",
         lambda d, f: d.field == "missing" and f.nodes.get(d.node_id or 0, {}).get("empty")
         is True),
    Rule("Chrome makes a scroll container focusable (keyboard scrolling) when nothing in it is; "
         "cdpseq scrolls it (the scroll step) but does not list it as a control; verified on the "
         "page: it scrolls and has no tabindex",
         lambda d, f: d.field == "missing" and f.nodes.get(d.node_id or 0, {}).get("scroller")
         is True),
    Rule("a grid cell that holds the control to press (a date picker's day button) and takes "
         "no focus itself is not listed: the control in it is, once",
         lambda d, f: d.field == "missing" and d.ax is not None and d.ax.role == "gridcell"
         and f.nodes.get(d.node_id or 0, {}).get("holds_control") is True),
    Rule("a checkbox or radio drawn by its label over a hidden input (a CSS toggle switch): Chrome "
         "exposes the label only; cdpseq lists the input, with its state, so that an agent has "
         "its ref (check clicks the label); verified on the page: the input does not render and "
         "a label of it does",
         lambda d, f: d.field == "listed" and d.listed is not None
         and d.listed.ref in f.drawn_by_label),
    Rule("an option its author put in a wrapper inside its listbox (a menu's <li> around each "
         "option, jQuery UI's selectmenu): Chrome demotes it to an unnamed generic, as outside "
         "its listbox; cdpseq keeps the role its author gave it, and names it by its text",
         lambda d, f: d.listed is not None and d.listed.role == "option"
         and ((d.field == "role" and d.chrome == "generic")
              or (d.field == "name" and d.chrome == ""))),
)

ALLOWED: dict[tuple[str, str, str], str] = {
    ("widgets-read-toggles.html", "button (no name)", "missing"):
        "a display:contents button with nothing inside that renders has no box to click; Chrome "
        "keeps its node",
}


def unexplained(found: list[Disagreement], facts: Facts
                ) -> tuple[list[str], set[tuple[str, str, str]]]:
    """The disagreements no rule or allowlist entry explains, and the entries that explained
    some."""
    left: list[str] = []
    used: set[tuple[str, str, str]] = set()
    for d in found:
        key = (d.page, d.element, d.field)
        if key in ALLOWED:
            used.add(key)
        elif not any(rule.applies(d, facts) for rule in BY_DESIGN):
            left.append(str(d))
    return left, used


async def page_facts(tab: Tab, view: PageView) -> Facts:
    """What the rules need to know of the page's listed elements (Facts)."""
    facts = Facts()
    framed = False
    refs = {e.ref for e in view.elements}
    for line in view.text.split("\n"):
        framed = framed or line.startswith("Frame:")
        match = re.match(r"\[(ref_\d+)\]", line)
        if framed and match and match.group(1) in refs:
            facts.framed.add(match.group(1))
    mine = [e for e in view.elements if e.ref not in facts.framed]
    numbers = json.dumps([int(e.ref[4:]) for e in mine])
    answers = await tab.extension(PageAgent).evaluate(
        f"__cdpseq.elements({numbers}).map({FACTS})")
    for e, (hidden, drawn) in zip(mine, answers, strict=True):
        if hidden:
            facts.aria_hidden.add(e.ref)
        if drawn and e.role in ("checkbox", "radio", "switch"):
            facts.drawn_by_label.add(e.ref)
    return facts


FACTS = """el => {
  // Whether el or an element around it is aria-hidden; whether it is an input that does not
  // render while a label of it does.
  if (!el) return [false, false];
  let hidden = false;
  for (let n = el; n && !hidden; n = n.parentElement || (n.parentNode && n.parentNode.host)) {
    hidden = n.getAttribute("aria-hidden") === "true";
  }
  const drawn = el.tagName === "INPUT" && !el.checkVisibility() && !!el.labels &&
    [...el.labels].some(label => label.checkVisibility());
  return [hidden, drawn];
}"""
NODE_FACTS = """function () {
  const style = getComputedStyle(this);
  const scrolls = /auto|scroll/.test(style.overflow + style.overflowX + style.overflowY) &&
    (this.scrollHeight > this.clientHeight || this.scrollWidth > this.clientWidth);
  const acts = "a[href], button, input, select, textarea, [role=button], [role=link], [tabindex]";
  return { empty: !this.firstElementChild && !this.textContent.trim(),
    scroller: scrolls && !this.hasAttribute("tabindex"),
    holds_control: !this.hasAttribute("tabindex") && !!this.querySelector(acts) };
}"""


async def missing_facts(tab: Tab, found: list[Disagreement], facts: Facts) -> None:
    """What the rules need to know of the nodes Chrome exposes as controls that cdpseq omits."""
    for d in found:
        if d.field != "missing" or d.node_id is None or d.node_id in facts.nodes:
            continue
        try:
            node = await tab.send(dom.ResolveNode(backendNodeId=d.node_id))
            if node.object.objectId is None:
                continue
            answer = await tab.send(runtime.CallFunctionOn(
                objectId=node.object.objectId, functionDeclaration=NODE_FACTS,
                returnByValue=True))
        except CdpseqError:  # in a user-agent shadow root, or gone
            continue
        facts.nodes[d.node_id] = answer.result.value or {}


async def read_fully(tab: Tab, framed: set[str]) -> PageView:
    """A read (filter "all": containers too) in which every element has its node id (but those
    of cross-origin frames): a read learns a few hundred new ones at most."""
    view = await read_page(tab, filter="all")
    for _ in range(20):
        if all(e.node_id is not None for e in view.elements if e.ref not in framed):
            break
        view = await read_page(tab, filter="all")
    return view


async def check(tab: Tab, page_name: str) -> tuple[list[Disagreement], Facts]:
    """The page's disagreements with Chrome, and what the rules need to know of it."""
    facts = await page_facts(tab, await read_page(tab, filter="all"))
    view = await read_fully(tab, facts.framed)
    found = compare(page_name, view, await ax_tree(tab))
    await missing_facts(tab, found, facts)
    return found, facts


def report(found: list[Disagreement], facts: Facts, page_name: str) -> None:
    left, used = unexplained(found, facts)
    stale = [key for key in ALLOWED if key[0] == page_name and key not in used]
    assert not left and not stale, "\n".join(
        [f"{len(left)} disagreements with Chrome's accessibility tree:", *left,
         *(f"allowed but not found (remove it from ALLOWED): {key}" for key in stale)])


@pytest.mark.parametrize("name", fixture_pages())
async def test_fixture_page_agrees_with_chrome(tab: Tab, server: FixtureServer, name: str
                                               ) -> None:
    with trio.fail_after(90):
        # A page that never settles by design (an endless spinner, polling) is read all the same.
        result = await act(tab, {"steps": [{"type": "navigate",
                                            "url": server.url(f"/{name}{QUERIES.get(name, '')}")}],
                                 "settleTimeoutMs": 3000})
        assert result.completed == 1, result.failed
        found, facts = await check(tab, name)
    report(found, facts, name)


@pytest.mark.parametrize("app", corpus_apps())
async def test_corpus_page_agrees_with_chrome(tab: Tab, server: FixtureServer, app: str) -> None:
    if not (REALWORLD_DIST / f"{app}.html").is_file():
        pytest.fail(f"the corpus app {app} is not built: run ./tools/setup")
    with trio.fail_after(90):
        await open_app(tab, server, app)
        found, facts = await check(tab, f"realworld/{app}")
    report(found, facts, f"realworld/{app}")
