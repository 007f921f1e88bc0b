"""cdpseq as an MCP server: ``act``, ``read_page`` and ``tabs`` as tools, over stdio.

One :class:`Engine` lives as long as the server: one :class:`~cdpseq.browser.Browser` (attached,
or launched and cleaned up by the server) and a *current tab*. Tab objects persist in the
Browser, so refs and read baselines persist from one tool call to the next. The engine knows
nothing of MCP: it maps tool arguments to a :class:`ToolOutput` (text, structured content,
error flag) and never raises for bad input or a browser that misbehaves. :func:`build_server`
wraps it in the official SDK's low-level server with input schemas generated from the msgspec
types of the act API (``request_schema()`` for act), and :func:`serve` runs that over stdio on
trio until the client closes stdin or a signal arrives; then the launched Chromium is removed.

Credentials for ``credentialRef`` come from ``--secrets FILE`` (a JSON object) or the
environment (``CDPSEQ_SECRET_<NAME>``). Their values are never logged, and every tool result is
scrubbed of them.
"""

from __future__ import annotations

import inspect
import logging
import os
import signal
import stat
import sys
import time
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Annotated, Any, Literal, cast

import mcp.types as types
import msgspec
import trio
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from msgspec import Meta

from . import __version__
from . import schema as s
from .act import SECRET_ENV_PREFIX
from .browser import Browser, Tab, open_browser
from .errors import (
    BrowserUnreachable,
    CdpseqError,
    ConnectionClosed,
    TargetClosed,
    TargetCrashed,
)
from .launch import launch_chromium
from .render import render_text

__all__ = [
    "ACT_DESCRIPTION",
    "INSTRUCTIONS",
    "READ_PAGE_DESCRIPTION",
    "TABS_DESCRIPTION",
    "Engine",
    "ReadPageArgs",
    "SecretsError",
    "ServeOptions",
    "TabsArgs",
    "ToolOutput",
    "build_server",
    "load_secrets",
    "serve",
    "tool_definitions",
]

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
Run a sequence of browser steps in one tab in ONE call, and get back what happened to each \
step and the page afterwards. Prefer one act call with several steps over several calls: when \
you know the next actions (fill a form and submit it; click, wait for the result and read the \
page; navigate and read), send them together. Put a {"type": "read_page"} step last to see the \
page after your actions without another call.

Steps (each {"type": ..., ...}): click, hover, check, uncheck, fill (value, or credentialRef: \
the name of a secret configured on the server; its value never appears in results), type \
(text, key by key), press (key or chord: "Enter", "Control+A"), select (an option's value or \
label), scroll, navigate (absolute url), back, forward, reload, wait_for (exactly one of text, \
textGone, selector [+ state], url, stable), read_page (filter, compression), wait (ms). Element \
steps take target — a ref "ref_N" from read_page — or a CSS selector. Before a click or fill \
the element must be visible, enabled and not covered; cdpseq waits for that up to the step's \
timeout. JavaScript dialogs are dismissed (dialog: "accept" to accept) and reported.

Refs: read_page gives each interactive element a ref. A ref names that one element for the \
life of its document: it survives re-renders that keep the element and later calls, and is \
never given to another element. After a navigation (or when the element is removed) the ref \
fails with STALE_REF and nothing else is clicked instead: read the page again for new refs.

The whole request is validated before anything runs; an invalid one runs nothing and fails \
with INVALID_REQUEST naming the field (e.g. steps[1].url). By default the sequence stops at \
the first failed step (failFast); a step's onError "skip" or "retry" (with retries) changes \
that. returnMode: "final" (default) returns each step's status and the last read_page; "all" \
also each step's output; "delta" only what changed. After actions cdpseq waits for the page \
to settle (network and DOM quiet; settle, stabilityMs, settleTimeoutMs).

Result: text — "N/M ok · <path>", the failure (step, code, reason) if any, what changed ("+" \
appeared, "-" disappeared, "~" changed), then the page as read. Structured content — the full \
JSON: ok, completed, total, failed {index, type, code, error, retryable}, steps [{index, \
type, status, durationMs, url, error?, output?}], tab {id, url, title}, page (the last \
read_page), and when reported: stable/unstableReason (whether the page settled), stateChange \
(the delta: what your steps changed on the page — URL, title, elements and text that \
appeared, disappeared or changed — so you often need no separate read), newTabs, dialog, \
download. isError is true when a step failed or the request was invalid. Codes: STALE_REF, \
NODE_NOT_FOUND, NOT_ACTIONABLE (with the reason, e.g. covered by another element), \
NOT_EDITABLE, OPTION_NOT_FOUND, WAIT_TIMEOUT, STEP_TIMEOUT, NAVIGATION_FAILED, TARGET_CLOSED, \
TARGET_CRASHED, CONNECTION_LOST, SEQUENCE_TIMEOUT.

tabId: the tab to act in (from tabs); default the current tab. It does not change the current \
tab."""

READ_PAGE_DESCRIPTION = """\
Read the page as compact text: a "Page:" line with title and URL, then one line per visible \
interactive element — [ref_N] role "name" value/state — including elements inside same-origin \
iframes and open shadow roots. Use a ref as the target of an act step. filter "all" adds \
headings and text; compression "delta" returns only what changed since this tab's previous \
read. Refs stay valid for the life of the document (across re-renders and calls), not across \
navigations. When you are about to act anyway, a read_page step at the end of your act call \
saves this call. tabId: the tab to read; default the current tab."""

TABS_DESCRIPTION = """\
List, open, select or close browser tabs. Every answer lists the page tabs (id, url, title), \
the current one marked with *. action "list" (default): just that. "new": open url (absolute; \
default about:blank) in a new tab, wait for it to load and make it the current tab. "select": \
make tabId the current tab — act and read_page use the current tab when they get no tabId. \
"close": close tabId; if it was current, the first remaining tab becomes current. Each tab \
keeps its own refs."""

# ---------------------------------------------------------------------------------------------
# Arguments of read_page and tabs (act's are cdpseq.schema.ActRequest)

_READ_FIELDS = {f.name: f for f in msgspec.structs.fields(s.ReadPage)}

_NonEmpty = Annotated[str, Meta(min_length=1)]
_TabId = Annotated[_NonEmpty | None,
                   Meta(description="Tab id (from the tabs tool); default: the current tab.")]

ReadPageArgs: type[msgspec.Struct] = msgspec.defstruct(
    "ReadPageArgs",
    [("tab_id", _TabId, None),
     *[(name, _READ_FIELDS[name].type, _READ_FIELDS[name].default)
       for name in ("filter", "compression")]],
    kw_only=True, forbid_unknown_fields=True, rename="camel", frozen=True,
)
"""read_page's arguments: ``filter`` and ``compression`` are the act read_page step's own."""
ReadPageArgs.__doc__ = "Read the page with a ref on every interactive element."


class TabsArgs(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, rename="camel",
               frozen=True):
    """List, open, select or close tabs."""

    action: Annotated[Literal["list", "new", "select", "close"],
                      Meta(description="list (default), new, select or close.")] = "list"
    url: Annotated[_NonEmpty | None,
                   Meta(description="new: the URL to open (absolute: http, https, file, about, "
                                    "data); default about:blank.")] = None
    tab_id: Annotated[_NonEmpty | None,
                      Meta(description="select, close: the tab's id (from list).")] = None


def _object_schema(cls: type[msgspec.Struct]) -> dict[str, Any]:
    """The Struct's object schema at the top, as MCP wants it."""
    schema = msgspec.json.schema(cls)
    defs = dict(schema.get("$defs", {}))
    root = defs.pop(schema["$ref"].rsplit("/", 1)[-1])
    return {**root, "$defs": defs} if defs else dict(root)


def tool_definitions() -> list[dict[str, Any]]:
    """The tools as MCP lists them (wire names), schemas generated from the msgspec types."""
    return [
        {"name": "act", "title": "Run browser steps", "description": ACT_DESCRIPTION,
         "inputSchema": s.request_schema(),
         "annotations": {"title": "Run browser steps", "readOnlyHint": False,
                         "destructiveHint": True, "idempotentHint": False,
                         "openWorldHint": True}},
        {"name": "read_page", "title": "Read the page", "description": READ_PAGE_DESCRIPTION,
         "inputSchema": _object_schema(ReadPageArgs),
         "annotations": {"title": "Read the page", "readOnlyHint": True,
                         "openWorldHint": True}},
        {"name": "tabs", "title": "Browser tabs", "description": TABS_DESCRIPTION,
         "inputSchema": _object_schema(TabsArgs),
         "annotations": {"title": "Browser tabs", "readOnlyHint": False,
                         "destructiveHint": True, "idempotentHint": False,
                         "openWorldHint": True}},
    ]


# ---------------------------------------------------------------------------------------------
# The engine


class ToolOutput(msgspec.Struct, kw_only=True):
    """What a tool call answers: text for the model, optional structured JSON, error flag."""

    text: str
    structured: dict[str, Any] | None = None
    is_error: bool = False


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
            name = message.split("`")[1]
            allowed = ", ".join(f.encode_name for f in msgspec.structs.fields(cls))
            raise _Invalid(name, f"unknown field (allowed: {allowed})") from None
        reason = message.replace("`", "")
        if reason.startswith("Object missing required field "):
            raise _Invalid(reason.rsplit(" ", 1)[-1], "required field missing") from None
        raise _Invalid(path or "arguments", reason[:1].lower() + reason[1:]) from None


def _error_code(exc: BaseException) -> str:
    if isinstance(exc, TargetCrashed):
        return "TARGET_CRASHED"
    if isinstance(exc, TargetClosed):
        return "TARGET_CLOSED"
    if isinstance(exc, ConnectionClosed):
        return "CONNECTION_LOST"
    code = getattr(exc, "code", None)  # the page agent's refusals carry an act error code
    return code if isinstance(code, str) else "ERROR"


class Engine:
    """The browser, the current tab and the secrets of one server, for all its tool calls."""

    def __init__(self, browser: Browser, secrets: Mapping[str, str] | None = None,
                 *, environ: Mapping[str, str] | None = None) -> None:
        self.browser = browser
        self.secrets = dict(secrets or {})
        self.current: str | None = None
        """The current tab's id; None until a call needs it (then the first page tab)."""
        env = os.environ if environ is None else environ
        values = {*self.secrets.values(),
                  *(v for k, v in env.items() if k.startswith(SECRET_ENV_PREFIX))}
        # Scrubbed from every tool result, longest first. Shorter values are scrubbed by act
        # from its own results only: replacing "ab" in every read would garble the page.
        self._scrub_values = sorted((v for v in values if len(v) >= 4), key=len, reverse=True)
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
                output = await handler(arguments)
            except _Invalid as exc:
                output = _error("INVALID_REQUEST", str(exc))
            except CdpseqError as exc:
                output = _error(_error_code(exc), str(exc))
            except Exception as exc:  # a bug: report it, keep serving
                log.error("tool %s failed:\n%s", name, self._scrub_text(traceback.format_exc()))
                output = _error("INTERNAL_ERROR", f"{type(exc).__name__}: {exc}")
        log.info("%s: %s in %.0f ms", name, "error" if output.is_error else "ok",
                 (time.perf_counter() - started) * 1000)
        return self._scrub(output)

    async def tab(self, tab_id: str | None = None) -> Tab:
        """``tab_id``, else the current tab, else the first page tab (which becomes current).
        Raises ``TargetClosed`` when the tab is gone."""
        if tab_id is not None:
            return await self.browser.tab(tab_id)
        if self.current is not None:
            try:
                return await self.browser.tab(self.current)
            except TargetClosed:
                gone, self.current = self.current, None
                raise TargetClosed(gone, None, "the current tab was closed; the next call "
                                   "without tabId uses the first tab (tabs lists them)") from None
        tab = await self.browser.tab()
        self.current = tab.id
        return tab

    # -- tools ---------------------------------------------------------------------------------

    async def act(self, arguments: Mapping[str, Any] | None) -> ToolOutput:
        try:
            request = s.parse_request(dict(arguments or {}))
        except s.InvalidRequest as exc:
            return self._act_output(s.invalid_result(exc))
        try:
            tab = await self.tab(request.tab_id)
        except TargetClosed as exc:
            return self._act_output(s.no_tab_result(request, request.tab_id, exc.reason))
        return self._act_output(await tab.act(request, secrets=self.secrets))

    async def read_page(self, arguments: Mapping[str, Any] | None) -> ToolOutput:
        args = _convert(arguments, ReadPageArgs)
        tab = await self.tab(args.tab_id)
        view = await tab.read_page(args.filter, args.compression)
        return ToolOutput(text=view.text)

    async def tabs(self, arguments: Mapping[str, Any] | None) -> ToolOutput:
        args = cast(TabsArgs, _convert(arguments, TabsArgs))
        if args.action in ("select", "close") and args.tab_id is None:
            raise _Invalid("tabId", f"required for action {args.action!r}")
        if args.action in ("list", "new") and args.tab_id is not None:
            raise _Invalid("tabId", "only applies to actions 'select' and 'close'")
        if args.action != "new" and args.url is not None:
            raise _Invalid("url", "only applies to action 'new'")
        note = ""
        if args.action == "new":
            url = args.url or "about:blank"
            try:
                s.parse_request([{"type": "navigate", "url": url}])
            except s.InvalidRequest as exc:
                raise _Invalid("url", exc.reason) from None
            tab = await self.browser.new_tab()
            self.current = tab.id
            note = f"opened {tab.id} (current)"
            if url != "about:blank":
                loaded = await tab.act([{"type": "navigate", "url": url}])
                if not loaded.ok and loaded.failed is not None:
                    listing = await self._listing(f"{note}, but loading {url} failed: "
                                                  f"{loaded.failed.code}: {loaded.failed.error}")
                    return msgspec.structs.replace(listing, is_error=True)
        elif args.action == "select":
            tab = await self.browser.tab(args.tab_id)
            await tab.activate()
            self.current = tab.id
            note = f"selected {tab.id}"
        elif args.action == "close":
            if args.tab_id not in {info.id for info in await self.browser.tabs()}:
                raise TargetClosed(args.tab_id, None, "no such page tab (tabs lists them)")
            await self.browser.close_tab(args.tab_id)
            if self.current == args.tab_id:
                self.current = None
            note = f"closed {args.tab_id}"
        return await self._listing(note)

    # -- helpers -------------------------------------------------------------------------------

    async def _listing(self, note: str) -> ToolOutput:
        pages = await self.browser.tabs()
        ids = [info.id for info in pages]
        if self.current not in ids:
            self.current = ids[0] if ids else None
        rows = [{"id": info.id, "url": info.url, "title": info.title,
                 "current": info.id == self.current} for info in pages]
        lines = [note] if note else []
        lines += [f"{'*' if row['current'] else ' '} {row['id']} {row['url']} "
                  f"\"{row['title']}\"" for row in rows]
        if not rows:
            lines.append("(no tabs; the next act or read_page opens a blank one)")
        return ToolOutput(text="\n".join(lines),
                          structured={"current": self.current, "tabs": rows})

    def _act_output(self, result: s.ActResult) -> ToolOutput:
        structured = msgspec.to_builtins(result)
        page = structured.get("page")
        if isinstance(page, dict):  # its text view is the tail of the text content already
            page.pop("text", None)
        return ToolOutput(text=render_text(result), structured=structured,
                          is_error=not result.ok)

    def _scrub_text(self, text: str) -> str:
        for value in self._scrub_values:
            text = text.replace(value, "••••")
        return text

    def _scrub(self, output: ToolOutput) -> ToolOutput:
        if not self._scrub_values:
            return output

        def clean(item: Any) -> Any:
            if isinstance(item, str):
                return self._scrub_text(item)
            if isinstance(item, list):
                return [clean(x) for x in item]
            if isinstance(item, dict):
                return {k: clean(v) for k, v in item.items()}
            return item

        return ToolOutput(text=clean(output.text), structured=clean(output.structured),
                          is_error=output.is_error)


# ---------------------------------------------------------------------------------------------
# Secrets


class SecretsError(CdpseqError):
    """A ``--secrets`` file that cannot be used (the message never holds a value)."""


def load_secrets(path: str | None) -> dict[str, str]:
    """``{name: value}`` from a JSON object file; names as credentialRef spells them."""
    if path is None:
        return {}
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as exc:
        raise SecretsError(f"cannot read --secrets {path}: {exc.strerror}") from None
    try:
        raw = msgspec.json.decode(data)
    except msgspec.DecodeError:
        raise SecretsError(f"--secrets {path}: not valid JSON") from None
    if not isinstance(raw, dict):
        raise SecretsError(f"--secrets {path}: expected a JSON object {{name: value}}")
    bad = [str(name) for name, value in raw.items() if not isinstance(value, str)]
    if bad:
        raise SecretsError(f"--secrets {path}: the value of {', '.join(sorted(bad))} is not a "
                           "string")
    return cast(dict[str, str], raw)


# ---------------------------------------------------------------------------------------------
# The MCP server


def build_server(engine: Engine) -> Server[Any]:
    """The SDK's low-level server with the three tools, answered by ``engine``.

    Works with the SDK's constructor-handler API (mcp 2.x) and its decorator API (1.x).
    """
    tools = [types.Tool.model_validate(tool) for tool in tool_definitions()]

    async def call(name: str, arguments: Mapping[str, Any] | None) -> types.CallToolResult:
        output = await engine.call(name, arguments)
        result: dict[str, Any] = {"content": [{"type": "text", "text": output.text}],
                                  "isError": output.is_error}
        if output.structured is not None:
            result["structuredContent"] = output.structured
        return types.CallToolResult.model_validate(result)

    identity: dict[str, Any] = {"version": __version__, "instructions": INSTRUCTIONS}
    if "on_call_tool" in inspect.signature(Server.__init__).parameters:  # mcp 2.x
        async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
            return types.ListToolsResult(tools=tools)

        async def on_call_tool(ctx: Any, params: types.CallToolRequestParams
                               ) -> types.CallToolResult:
            return await call(params.name, params.arguments)

        return Server("cdpseq", **identity, on_list_tools=on_list_tools,
                      on_call_tool=on_call_tool)

    server: Any = Server("cdpseq", **identity)  # mcp 1.x

    async def list_tools() -> list[types.Tool]:
        return tools

    server.list_tools()(list_tools)
    # The SDK's own jsonschema check would pre-empt parse_request's messages (which name the
    # field the way the API and CLI do); the engine validates everything itself.
    server.call_tool(validate_input=False)(call)
    return cast(Server[Any], server)


class _StdinLines:
    """Lines of a pipe on fd 0, read without a worker thread.

    The SDK reads stdin in a thread, and a thread blocked in a read cannot be cancelled: a
    signal would then wait for the client's next message before the browser is cleaned up.
    Waiting for readability in trio and then reading what is there never blocks.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buffer = bytearray()
        self._eof = False

    @staticmethod
    def usable(fd: int) -> bool:
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            return False
        return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)

    def __aiter__(self) -> _StdinLines:
        return self

    async def __anext__(self) -> str:
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0 or (self._eof and self._buffer):
                cut = end + 1 if end >= 0 else len(self._buffer)
                line = bytes(self._buffer[:cut])
                del self._buffer[:cut]
                return line.decode("utf-8", errors="replace")
            if self._eof:
                raise StopAsyncIteration
            await trio.lowlevel.wait_readable(self._fd)
            try:
                chunk = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if chunk:
                self._buffer += chunk
            else:
                self._eof = True


class ServeOptions(msgspec.Struct, kw_only=True):
    """``cdpseq mcp``'s options."""

    cdp: str
    launch: bool = False
    launch_if_missing: bool = False
    headful: bool = False
    secrets: str | None = None


@asynccontextmanager
async def _browser(options: ServeOptions) -> AsyncIterator[Browser]:
    """The server's browser: attached to at ``options.cdp``, or launched (and removed on exit)
    with ``--launch``, or with ``--launch-if-missing`` when nothing answers there."""
    async with AsyncExitStack() as stack:
        if not options.launch:
            try:
                browser = await stack.enter_async_context(open_browser(options.cdp))
            except BrowserUnreachable as exc:
                if not options.launch_if_missing:
                    raise
                log.info("%s; launching Chromium", exc)
            else:
                log.info("attached to %s (%s)", browser.endpoint, browser.version.product)
                yield browser
                return
        # On a free port: Chromium 156 does not write DevToolsActivePort for a fixed one,
        # which is how launch_chromium learns that the browser listens.
        chromium = await stack.enter_async_context(
            launch_chromium(port=0, headless=not options.headful))
        log.info("launched Chromium pid=%d endpoint=%s profile=%s", chromium.pid,
                 chromium.endpoint, chromium.profile_dir)
        yield await stack.enter_async_context(open_browser(chromium.ws_url))


async def _stop_on_signal(signals: AsyncIterator[int], scope: trio.CancelScope) -> None:
    async for signum in signals:
        log.info("received %s; shutting down", signal.Signals(signum).name)
        scope.cancel()
        return


async def serve(options: ServeOptions) -> int:
    """Serve MCP over stdio until the client closes stdin (or SIGTERM, SIGINT, SIGHUP).

    Startup errors (``SecretsError``, ``BrowserUnreachable``, ``LaunchError``) propagate as
    they are, for the CLI to report.
    """
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("cdpseq mcp: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    try:
        secrets = load_secrets(options.secrets)
        if secrets:
            log.info("secrets from %s: %s", options.secrets, ", ".join(sorted(secrets)))
        # A signal cancels everything, startup included; the browser's context then removes
        # what it launched (a default SIGTERM would leave Chromium behind).
        failure: Exception | None = None
        with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGHUP) as signals:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_stop_on_signal, signals, nursery.cancel_scope)
                try:
                    await _serve(options, secrets)
                except Exception as exc:  # re-raised below, outside the nursery's group
                    failure = exc
                nursery.cancel_scope.cancel()
        if failure is not None:
            raise failure
        return 0
    finally:
        log.removeHandler(handler)


async def _serve(options: ServeOptions, secrets: Mapping[str, str]) -> None:
    stdin = _StdinLines(0) if _StdinLines.usable(0) else None
    started = False
    try:
        async with _browser(options) as browser:
            started = True
            server = build_server(Engine(browser, secrets))
            async with stdio_server(stdin=cast(Any, stdin)) as (read, write):
                log.info("serving MCP on stdio (cdpseq %s, pid %d)", __version__, os.getpid())
                await server.run(read, write, server.create_initialization_options())
            log.info("client disconnected; shutting down")
    finally:
        if started:  # the browser is closed, and a launched one removed
            log.info("stopped")
