"""cdpseq's MCP tools — ``act``, ``read_page`` and ``tabs`` — independent of the MCP SDK.

``Tools`` maps a tool call's arguments to a :class:`ToolOutput` (text, structured content, error
flag) through the front doors' shared :class:`~cdpseq.front.driver.Driver`, and never raises
for bad input or a browser that misbehaves. The tools' input schemas are generated from the
msgspec types of the act API (``request_schema()`` for act). ``mcp_server`` serves them.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any, Literal, cast

import msgspec
from msgspec import Meta

from ..browser import Browser
from ..browser.storage_state import StateSummary
from ..engine.multi import MultiActResult, invalid_multi_result, is_multi, parse_multi_request
from ..engine.request import ReadPage
from ..engine.result import ActResult, error_code, invalid_result
from ..engine.shown import show_name
from ..engine.validate import parse_request
from ..errors import BrowserUnreachable, CdpseqError, InvalidRequest, LaunchError
from ..page.view import PageView
from .budget import MAX_CHARS, MIN_CHARS, Cut, fit, kept_refs
from .captures import move_images
from .driver import Driver
from .mcp_schema import (
    BUDGET_NOTE,
    act_tool_input_schema,
    arguments_schema,
    fields_by_type,
    output_schema,
)
from .mcp_state import STATE_ACTIONS, STATE_NOTE, run_state, state_text
from .render import render_fitted, render_many_fitted

log = logging.getLogger("cdpseq.mcp")

# ---------------------------------------------------------------------------------------------
# What the model reads

INSTRUCTIONS = """\
cdpseq drives a Chrome browser. Typical loop: read_page once to see the page and get refs \
(ref_N) for its elements, then one act call with every step you already know — fill, click, \
wait_for, and a final read_page step to see the result — instead of one tool call per action. \
Use tabs to list, open, select or close tabs; act and read_page work on the current tab unless \
given a tabId."""

ACT_DESCRIPTION = """\
Run browser steps in one tab in ONE call; get each step's status and what changed on the \
page. Send every step you already know together, and end with a read_page step to see the \
page without another call. Example: {"steps": [{"type": "fill", "target": "ref_2", "value": \
"ada@example.org"}, {"type": "click", "target": "ref_4"}, {"type": "wait_for", "text": \
"Welcome"}, {"type": "read_page"}]}

A ref_N (from read_page) lasts as long as its document: through re-renders, not across a \
navigation (then STALE_REF: read again). A step is ok only when verified (the click reached \
the element, the field holds the value); cdpseq waits for the element to be actionable, and \
after the steps for the page to settle. credentialRef's secret never appears.

An invalid request runs nothing: INVALID_REQUEST names the field (steps[1].url). The first \
failed step stops the rest (failFast, onError). returnMode: final, all or delta. The answer: \
"N/M ok", the failure, what changed (+ appeared, - gone, ~ changed; refs to act on next), \
the page if read; structuredContent: the same as JSON (stateChange: what changed)."""

READ_PAGE_DESCRIPTION = """\
Read the page: one line per visible control, [ref_N] role "name" state, for act steps' \
target (shadow roots and same-origin frames included). filter "all" adds headings and text; \
compression "delta" only what changed since the last read. Skip it when an act is next: end \
the act with a read_page step. Example: {"filter": "all"}"""

TABS_DESCRIPTION = f"""\
List, open, select or close tabs; every answer lists them (id, url, title), the current one \
marked *. act and read_page use the current tab unless given a tabId. {STATE_NOTE} Example: \
{{"action": "new", "url": "https://example.org/"}}"""

BROWSER_GONE = """\
The browser is gone; the next call attaches or launches one again (a new browser: list the \
tabs, read the page for new refs)."""

NO_BROWSER = """\
No browser for this call; the next call tries again. Start Chrome with \
--remote-debugging-port, or let the server launch its own (`cdpseq mcp --launch`)."""


# ---------------------------------------------------------------------------------------------
# Arguments of read_page and tabs (act's are cdpseq.engine.request.ActRequest)

_READ_FIELDS = {f.name: f for f in msgspec.structs.fields(ReadPage)}
READ_OPTIONS = ("target", "selector", "roles", "viewport_only", "max_elements",
                "include_bounds")
"""The read_page step's options that the read_page tool takes too (Python names)."""

_NonEmpty = Annotated[str, Meta(min_length=1)]
_TabId = Annotated[_NonEmpty | None,
                   Meta(description="Tab id (from the tabs tool); default: the current tab.")]

_MaxChars = Annotated[int, Meta(
    ge=MIN_CHARS, le=MAX_CHARS,
    description="Answer in at most this many characters: the page's text goes first, then "
                "controls the answer does not name; every cut is marked.")] | None

ReadPageArgs: type[msgspec.Struct] = msgspec.defstruct(
    "ReadPageArgs",
    [("tab_id", _TabId, None),
     *[(name, _READ_FIELDS[name].type, _READ_FIELDS[name].default)
       for name in ("filter", "compression", *READ_OPTIONS)],
     ("max_chars", _MaxChars, None)],
    kw_only=True, forbid_unknown_fields=True, rename="camel", frozen=True,
)
"""read_page's arguments: ``filter`` and ``compression`` are the act read_page step's own."""
ReadPageArgs.__doc__ = "Read the page with a ref on every interactive element."


class TabsArgs(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, rename="camel",
               frozen=True):
    """List, open, select or close tabs."""

    action: Annotated[Literal["list", "new", "select", "close", "save_state", "load_state"],
                      Meta(description="list (default), new, select or close.")] = "list"
    url: Annotated[_NonEmpty | None,
                   Meta(description="new: the URL to open (absolute: http or https; file and "
                                    "data when the server allows them); default "
                                    "about:blank.")] = None
    tab_id: Annotated[_NonEmpty | None,
                      Meta(description="select, close: the tab's id (from list).")] = None
    path: Annotated[_NonEmpty | None,
                    Meta(description="save_state, load_state: the file.")] = None
    isolated: Annotated[bool, Meta(description="new: open the tab in a browser context of its "
                                               "own (cookies and storage no other tab sees; "
                                               "disposed when its last tab closes).")] = False


class ListedTab(msgspec.Struct, kw_only=True):
    """A page tab, as the tabs tool lists it."""

    id: str
    url: str
    title: str
    current: bool


class TabsListing(msgspec.Struct, kw_only=True):
    """What the tabs tool answers: the page tabs and the current one."""

    current: Annotated[str | None, Meta(description="The current tab's id.")]
    tabs: list[ListedTab]


def tool_definitions(*, structured: bool = False) -> list[dict[str, Any]]:
    """The tools as MCP lists them (wire names), schemas generated from the msgspec types:
    act's input schema compact (``mcp_schema``); with ``structured``, slim output schemas of
    the structured content the tools then answer."""
    tools = [
        {"name": "act", "title": "Run browser steps",
         "description": f"{ACT_DESCRIPTION}\n\n{fields_by_type()}",
         "inputSchema": act_tool_input_schema(),
         "outputSchema": output_schema(ActResult, MultiActResult),
         "annotations": {"title": "Run browser steps", "readOnlyHint": False,
                         "destructiveHint": True, "idempotentHint": False,
                         "openWorldHint": True}},
        {"name": "read_page", "title": "Read the page", "description": READ_PAGE_DESCRIPTION,
         "inputSchema": arguments_schema(ReadPageArgs, {
             "target": "Read only this element (a ref).", "selector": "Or its CSS selector.",
             "maxChars": BUDGET_NOTE}),
         "outputSchema": output_schema(PageView),
         "annotations": {"title": "Read the page", "readOnlyHint": True,
                         "openWorldHint": True}},
        {"name": "tabs", "title": "Browser tabs", "description": TABS_DESCRIPTION,
         "inputSchema": arguments_schema(TabsArgs, {
             "url": "new: absolute URL to open.", "tabId": "select, close: the tab."}),
         "outputSchema": output_schema(TabsListing, StateSummary),
         "annotations": {"title": "Browser tabs", "readOnlyHint": False,
                         "destructiveHint": True, "idempotentHint": False,
                         "openWorldHint": True}},
    ]
    if not structured:
        for tool in tools:
            del tool["outputSchema"]
    return tools


# ---------------------------------------------------------------------------------------------
# The tools


class ToolOutput(msgspec.Struct, kw_only=True):
    """What a tool call answers: text for the model, optional structured JSON, error flag."""

    text: str
    structured: dict[str, Any] | None = None
    is_error: bool = False
    images: list[tuple[str, str]] = []
    """(mime type, base64) of each screenshot, for image content items."""


class _Invalid(Exception):
    """Tool arguments that do not validate: ``field`` is the wire name."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}")


def _error(code: str, message: str) -> ToolOutput:
    return ToolOutput(text=f"✗ {code}: {message}", is_error=True)


def _convert(arguments: Mapping[str, Any] | None, cls: type[msgspec.Struct]) -> Any:
    """Validate tool arguments strictly; raise :class:`_Invalid` naming the field."""
    raw = {} if arguments is None else arguments
    if not isinstance(raw, Mapping):
        raise _Invalid("arguments", f"expected an object, got {type(raw).__name__}")
    try:
        return msgspec.convert(dict(raw), cls)
    except msgspec.ValidationError as exc:
        message, _, where = str(exc).partition(" - at `$")
        path = where.rstrip("`").lstrip(".")
        if message.startswith("Object contains unknown field `"):
            name = show_name(message.split("`")[1])
            allowed = ", ".join(f.encode_name for f in msgspec.structs.fields(cls))
            raise _Invalid(name, f"unknown field (allowed: {allowed})") from None
        reason = message.replace("`", "")
        if reason.startswith("Object missing required field "):
            raise _Invalid(reason.rsplit(" ", 1)[-1], "required field missing") from None
        raise _Invalid(path or "arguments", reason[:1].lower() + reason[1:]) from None


class Tools:
    """The tools of one server, answered through one ``Driver`` for all its calls.

    ``connect``, when given, is awaited before each call for the browser to use: the MCP
    server's, opened on first use and again after it was lost. Its failure (nothing answers,
    a launch that fails) is that call's error, CONNECTION_LOST naming the endpoint; the next
    call tries again."""

    def __init__(self, driver: Driver,
                 connect: Callable[[], Awaitable[Browser]] | None = None,
                 lost: Callable[[], None] | None = None) -> None:
        self.driver = driver
        self._connect = connect
        self._lost = lost
        self._handlers: dict[str, Callable[[Mapping[str, Any] | None],
                                           Awaitable[ToolOutput]]] = {
            "act": self.act, "read_page": self.read_page, "tabs": self.tabs,
        }

    async def call(self, name: str, arguments: Mapping[str, Any] | None) -> ToolOutput:
        """Run one tool call. Never raises, except for cancellation."""
        started = time.perf_counter()
        handler = self._handlers.get(name)
        if handler is None:
            output = _error("INVALID_REQUEST", f"unknown tool {name!r} (tools: "
                                               f"{', '.join(self._handlers)})")
        else:
            try:
                if self._connect is not None:
                    self.driver.use(await self._connect())
                output = await handler(arguments)
            except (BrowserUnreachable, LaunchError) as exc:
                output = _error("CONNECTION_LOST", f"{exc}. {NO_BROWSER}")
            except _Invalid as exc:
                output = _error("INVALID_REQUEST", str(exc))
            except CdpseqError as exc:
                output = _error(error_code(exc) or "ERROR", str(exc))
            except Exception as exc:  # a bug: report it, keep serving
                log.error("tool %s failed:\n%s", name,
                          self.driver.scrub(traceback.format_exc()))
                output = _error("INTERNAL_ERROR", f"{type(exc).__name__}: {exc}")
        log.info("%s: %s in %.0f ms", name, "error" if output.is_error else "ok",
                 (time.perf_counter() - started) * 1000)
        if output.is_error and "CONNECTION_LOST" in output.text:
            if self._lost is not None:
                self._lost()
            if NO_BROWSER not in output.text:
                output = msgspec.structs.replace(output, text=output.text + "\n" + BROWSER_GONE)
        return ToolOutput(text=self.driver.scrub(output.text),
                          structured=self.driver.scrub(output.structured),
                          is_error=output.is_error, images=output.images)

    def refused(self, name: str, field: str, reason: str) -> ToolOutput:
        """The answer to tool ``name``'s arguments refused before they could be read (``field``
        and ``reason`` say why), as the tool itself answers arguments that do not validate."""
        if name == "act":
            return self._act_output(invalid_result(InvalidRequest(field, reason)))
        return _error("INVALID_REQUEST", str(_Invalid(field, reason)))

    # -- tools ---------------------------------------------------------------------------------

    async def act(self, arguments: Mapping[str, Any] | None) -> ToolOutput:
        """The ``act`` tool: one act (or several tabs' acts) and its compact result."""
        arguments = dict(arguments or {})
        max_chars = cast(_Budget, _convert({"maxChars": arguments.pop("maxChars", None)},
                                           _Budget)).max_chars
        if is_multi(arguments):
            try:
                many = parse_multi_request(arguments)
            except InvalidRequest as exc:
                return self._many_output(invalid_multi_result(exc), max_chars)
            return self._many_output(await self.driver.act_many(many), max_chars)
        try:
            request = parse_request(arguments)
        except InvalidRequest as exc:
            return self._act_output(invalid_result(exc), max_chars)
        return self._act_output(await self.driver.act(request), max_chars)

    async def read_page(self, arguments: Mapping[str, Any] | None) -> ToolOutput:
        """The ``read_page`` tool: the page's elements as a compact view."""
        args = _convert(arguments, ReadPageArgs)
        try:
            view = await self.driver.read_page(
                args.tab_id, args.filter, args.compression,
                **{name: getattr(args, name) for name in READ_OPTIONS})
        except InvalidRequest as exc:
            raise _Invalid(exc.field, exc.reason) from None
        structured = msgspec.to_builtins(view)
        structured.pop("text")  # the text content is the view's text
        if args.max_chars is None:
            return ToolOutput(text=view.text, structured=structured)
        lines, cut = fit([], view.text.split("\n"), args.max_chars)
        return ToolOutput(text="\n".join(lines), structured=_fitted(structured, lines, cut))

    async def tabs(self, arguments: Mapping[str, Any] | None) -> ToolOutput:
        """The ``tabs`` tool: list, open, select or close tabs."""
        args = cast(TabsArgs, _convert(arguments, TabsArgs))
        if args.action in STATE_ACTIONS:
            try:
                summary = await run_state(self.driver, args.action, args.path, args.tab_id)
            except InvalidRequest as exc:
                raise _Invalid(exc.field, exc.reason) from None
            return ToolOutput(text=state_text(summary), structured=msgspec.to_builtins(summary))
        if args.path is not None:
            raise _Invalid("path", "only applies to actions 'save_state' and 'load_state'")
        if args.action in ("select", "close") and args.tab_id is None:
            raise _Invalid("tabId", f"required for action {args.action!r}")
        if args.action in ("list", "new") and args.tab_id is not None:
            raise _Invalid("tabId", "only applies to actions 'select' and 'close'")
        if args.action != "new" and args.url is not None:
            raise _Invalid("url", "only applies to action 'new'")
        if args.action != "new" and args.isolated:
            raise _Invalid("isolated", "only applies to action 'new'")
        note = ""
        if args.action == "new":
            url = args.url or "about:blank"
            try:
                tab, loaded = await self.driver.open_tab(url, isolated=args.isolated)
            except InvalidRequest as exc:
                raise _Invalid(exc.field, exc.reason) from None
            note = f"opened {tab.id} (current{', isolated' if args.isolated else ''})"
            if loaded is not None:
                if not loaded.ok and loaded.failed is not None:
                    listing = await self._listing(f"{note}, but loading {url} failed: "
                                                  f"{loaded.failed.code}: {loaded.failed.error}")
                    return msgspec.structs.replace(listing, is_error=True)
        elif args.action == "select":
            assert args.tab_id is not None
            tab = await self.driver.select(args.tab_id)
            note = f"selected {tab.id}"
        elif args.action == "close":
            assert args.tab_id is not None
            await self.driver.close(args.tab_id)
            note = f"closed {args.tab_id}"
        return await self._listing(note)

    # -- helpers -------------------------------------------------------------------------------

    async def _listing(self, note: str) -> ToolOutput:
        pages = await self.driver.tabs()
        current = self.driver.current
        rows = [msgspec.to_builtins(ListedTab(id=info.id, url=info.url, title=info.title,
                                              current=info.id == current)) for info in pages]
        lines = [note] if note else []
        lines += [f"{'*' if row['current'] else ' '} {row['id']} {row['url']} "
                  f"\"{row['title']}\"" for row in rows]
        if not rows:
            lines.append("(no tabs; the next act or read_page opens a blank one)")
        return ToolOutput(text="\n".join(lines), structured={"current": current, "tabs": rows})

    def _act_output(self, result: ActResult, max_chars: int | None = None) -> ToolOutput:
        structured = _without_page_text(msgspec.to_builtins(result))
        images = move_images(result, structured)  # image content items, not base64 in the JSON
        text, cut = render_fitted(result, max_chars)
        return ToolOutput(text=text, structured=_fitted(structured, text.split("\n"), cut),
                          is_error=not result.ok, images=images)

    def _many_output(self, result: MultiActResult, max_chars: int | None = None
                     ) -> ToolOutput:
        structured = msgspec.to_builtins(result)
        images: list[tuple[str, str]] = []
        for one, shown in zip(result.results, structured["results"], strict=True):
            move_images(one, _without_page_text(shown), images)
        text, cuts = render_many_fitted(result, max_chars)
        for shown, cut in zip(structured["results"], cuts, strict=True):
            _fitted(shown, text.split("\n"), cut)
        return ToolOutput(text=text, structured=structured, is_error=not result.ok,
                          images=images)


class _Budget(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, rename="camel"):
    max_chars: _MaxChars = None


def _fitted(structured: dict[str, Any], lines: list[str], cut: Cut | None) -> dict[str, Any]:
    """The structured content of an answer cut to a budget: the page's elements that the text
    still shows, and ``cut`` (what went); unchanged when nothing was cut."""
    if cut is None:
        return structured
    shown = kept_refs(lines)
    page = structured.get("page", structured)
    if isinstance(page, dict) and isinstance(page.get("elements"), list):
        page["elements"] = [e for e in page["elements"] if e.get("ref") in shown]
    structured["cut"] = msgspec.to_builtins(cut)
    return structured


def _without_page_text(structured: dict[str, Any]) -> dict[str, Any]:
    """An act result's JSON without its page's text view: that is the tail of the text
    content already."""
    page = structured.get("page")
    if isinstance(page, dict):
        page.pop("text", None)
    return structured
