"""The ``cdpseq`` command line.

Exit codes: 0 success, 1 a step failed (act), 2 invalid input (an act request, or a --tab that
names no tab), 3 browser unreachable, 4 a browser that could not be launched.

Without ``--cdp``/``$CDPSEQ_CDP``, commands use a Chrome on 127.0.0.1:9222, else the managed
browser (``front/cli_browser``); ``cdpseq close`` stops that one.

A reader that stops reading (``cdpseq act ... | head -1``) is not an error: the rest of the
output is dropped (standard output becomes /dev/null) and the command exits with the code it
would have used anyway, so the code still says what the act did. No traceback.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import warnings
from collections.abc import Awaitable, Callable, Sequence
from typing import NoReturn

import msgspec
import trio

from ..engine.multi import (
    MultiActRequest,
    MultiActResult,
    invalid_multi_result,
    is_multi_json,
    parse_multi_request,
    with_return_mode,
)
from ..engine.request import ActRequest, request_schema
from ..engine.result import ActResult, error_code, invalid_result, result_schema
from ..engine.secrets import SecretsError
from ..engine.validate import parse_request
from ..errors import BrowserUnreachable, CdpseqError, InvalidEndpoint, InvalidRequest, LaunchError
from ..wire.endpoint import DEFAULT_ENDPOINT
from ..wire.launch import launch_chromium
from ..wire.url_policy import UrlPolicy
from .budget import MAX_CHARS, MIN_CHARS, fit
from .captures import save_images
from .cli_browser import MANAGED, cli_browser, close_command
from .driver import Driver
from .pool import DEFAULT_TABS_PER_BROWSER, open_pool, parse_sequences
from .render import render_many, render_text

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_UNREACHABLE = 3
EXIT_LAUNCH = 4


def _add_cdp(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cdp", metavar="ENDPOINT", default=os.environ.get("CDPSEQ_CDP") or None,
        help="the browser: a port, host:port, http://host:port or ws://... URL (default: "
             f"$CDPSEQ_CDP, else a Chrome answering at {DEFAULT_ENDPOINT}, else the managed "
             "headless Chromium, started on first use and stopped by `cdpseq close`; "
             "'managed' names that one)")


def _add_policy(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "URL policy", "file:, data: and browser pages (chrome:, devtools:, view-source:, ...) "
                      "are refused unless allowed; steps that would go there fail with "
                      "URL_BLOCKED")
    group.add_argument("--allow-file", action="store_true",
                       help="allow file: URLs (pages then read the machine's files)")
    group.add_argument("--allow-data", action="store_true", help="allow data: URLs")
    group.add_argument("--allow-host", action="append", default=[], metavar="PATTERN",
                       help="allow only hosts matching a pattern (example.com, *.example.com, "
                            "127.0.0.1:8000); repeatable; default every host")
    group.add_argument("--deny-host", action="append", default=[], metavar="PATTERN",
                       help="refuse hosts matching a pattern, even when allowed; repeatable")


def _add_allow_evaluate(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--allow-evaluate", action="store_true",
        help="let evaluate steps run JavaScript in pages (off by default: script can read "
             "cookies and tokens and act beyond the step vocabulary; refused with "
             "EVALUATE_DISABLED)")


class _Version(argparse.Action):
    """--version, looked up only when asked (see ``cdpseq.__getattr__``)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0,
                         help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from .. import __version__

        print(f"cdpseq {__version__}")
        parser.exit()


class _UsageError(Exception):
    """A flag or an input the command cannot use: exit 2 with this message."""


def _policy(args: argparse.Namespace) -> UrlPolicy:
    """The policy the flags ask for (a bad host pattern is a usage error naming it)."""
    try:
        return UrlPolicy(allow_file=args.allow_file, allow_data=args.allow_data,
                         allow_hosts=tuple(args.allow_host), deny_hosts=tuple(args.deny_host))
    except ValueError as exc:
        raise _UsageError(f"--allow-host/--deny-host: {exc}") from None


def build_parser() -> argparse.ArgumentParser:
    """The ``cdpseq`` argument parser: every command and its options."""
    parser = argparse.ArgumentParser(
        prog="cdpseq", description="Drive Chrome over the DevTools Protocol in few round trips.")
    parser.add_argument("--version", action=_Version, help="show cdpseq's version and exit")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    launch = commands.add_parser(
        "launch", help="start a local headless Chromium and keep it running",
        description="Start a headless Chromium on 127.0.0.1, print its endpoint on the first "
                    "line, and run until interrupted; then stop it and remove its profile.")
    launch.add_argument("--port", type=int, default=9222,
                        help="debugging port on 127.0.0.1 (default %(default)s; 0 picks a free "
                             "one)")
    launch.add_argument("--headful", action="store_true", help="show a window (needs a display)")

    tabs = commands.add_parser(
        "tabs", help="list, open, select or close tabs",
        description="list (default): print a JSON array of {id, type, url, title, current}. "
                    "new [URL]: open URL (default about:blank) in a new tab, wait for it to "
                    "load, and make it the current tab. select ID: make tab ID the current "
                    "tab. close ID: close it. The current tab is what read-page and act use "
                    "without --tab; it is kept in the browser, so later commands use it too. "
                    "Every action prints the list afterwards.")
    tabs.add_argument("action", nargs="?", choices=["list", "new", "select", "close"],
                      default="list", help="list (default), new, select or close")
    tabs.add_argument("target", nargs="?", metavar="URL|ID",
                      help="new: the URL to open; select, close: the tab's id")
    _add_cdp(tabs)
    _add_policy(tabs)

    commands.add_parser(
        "close", help="stop the managed browser",
        description="Stop the headless Chromium that commands started for themselves (when "
                    "no --cdp was given and nothing answered on 127.0.0.1:9222), and remove "
                    "its profile and record. Browsers reached through --cdp are left alone.")

    read = commands.add_parser(
        "read-page", help="print the page with a ref on every interactive element",
        description="Print a compact view of a tab: one line per interactive element, each with "
                    "a ref (ref_N) that act can target. Refs stay valid for the life of the "
                    "element's document, across calls and processes.")
    _add_cdp(read)
    _add_tab(read)
    read.add_argument("--filter", choices=["interactive", "all"], default="interactive",
                      help="interactive elements only, or with headings and text "
                           "(default %(default)s)")
    read.add_argument("--compression", choices=["none", "delta"], default="none",
                      help="delta: only what changed since the previous read of the tab")
    read.add_argument("--json", action="store_true", help="print the JSON form")
    scope = read.add_mutually_exclusive_group()
    scope.add_argument("--target", metavar="REF", help="read only this element's subtree")
    scope.add_argument("--selector", metavar="CSS",
                       help="read only the subtree of the element this selector finds")
    read.add_argument("--role", action="append", dest="roles", metavar="ROLE",
                      help="only elements of this ARIA role; repeatable")
    read.add_argument("--viewport-only", action="store_true",
                      help="only elements that intersect the viewport")
    read.add_argument("--max-elements", type=int, metavar="N",
                      help="at most N elements (the view says how many were left out)")
    read.add_argument("--bounds", action="store_true",
                      help="each element's box: x,y,width,height in viewport CSS px")
    _add_max_chars(read)

    act = commands.add_parser(
        "act", help="run a sequence of steps in one call",
        description="Run an act request (a JSON object, or a bare JSON array of steps) read from "
                    "FILE or standard input, and print the result. Exit 0 when every step "
                    "completed, 1 when a step failed, 2 for an invalid request, 3 when the "
                    "browser is unreachable.")
    _add_cdp(act)
    _add_tab(act)
    act.add_argument("--steps", required=True, metavar="FILE",
                     help="the request or steps as JSON; - for standard input")
    act.add_argument("--return-mode", choices=["final", "all", "delta"],
                     help="override the request's returnMode")
    act.add_argument("--format", choices=["json", "text"], default="json",
                     help="json (default), or a compact text rendering")
    _add_max_chars(act)
    act.add_argument("--screenshot-dir", metavar="DIR",
                     help="write screenshots there as step-<index>.png|jpeg; the output "
                          "gives their path instead of base64")
    _add_policy(act)
    _add_allow_evaluate(act)

    schema = commands.add_parser("schema", help="print the JSON Schema of act requests",
                                 description="Print the JSON Schema of the act request "
                                             "(or, with --result, of its result).")
    schema.add_argument("--result", action="store_true", help="the result's schema instead")

    mcp = commands.add_parser(
        "mcp", help="serve act, read_page and tabs as MCP tools over stdio",
        description="Run an MCP server on standard input and output with the tools act, "
                    "read_page and tabs. The server answers before it has a browser: one is "
                    "attached or launched by the first call that needs one, and again by the next "
                    "call after it was lost (a call that finds none fails with CONNECTION_LOST, "
                    "naming the endpoint).")
    browser = mcp.add_mutually_exclusive_group()
    browser.add_argument(
        "--cdp", metavar="ENDPOINT", default=os.environ.get("CDPSEQ_CDP") or None,
        help="attach to the Chrome at ENDPOINT (a port, host:port, http://host:port or ws://... "
             "URL; default $CDPSEQ_CDP) and only to it: never the CLI's managed browser, and "
             "nothing is launched unless --launch-if-missing. Without --cdp and $CDPSEQ_CDP: "
             f"a Chrome answering at {DEFAULT_ENDPOINT}, else a private headless Chromium "
             "that the server launches and removes when it exits")
    browser.add_argument("--launch", action="store_true",
                         help="always launch a private headless Chromium for the server (never "
                              "attach), removed with its profile when the server exits")
    mcp.add_argument("--launch-if-missing", action="store_true",
                     help="with --cdp: launch a private Chromium when nothing answers there")
    mcp.add_argument("--headful", action="store_true",
                     help="a launched browser shows a window (needs a display)")
    mcp.add_argument("--secrets", metavar="FILE",
                     help="JSON object {name: value} of secrets for credentialRef (besides "
                          "$CDPSEQ_SECRET_<NAME>)")
    mcp.add_argument("--structured", action="store_true",
                     help="also answer each call's JSON result as structured content, and "
                          "declare output schemas (for programs; some clients then show the "
                          "model the JSON instead of the compact text)")
    _add_policy(mcp)
    _add_allow_evaluate(mcp)
    _add_pool_parser(commands)
    return parser


def _add_max_chars(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-chars", type=int, metavar="N",
                        help=f"print the text in at most N characters ({MIN_CHARS}-{MAX_CHARS}):"
                             " the page's text goes first, then controls no line names; every "
                             "cut is marked (text output only)")


def _max_chars(args: argparse.Namespace, json_output: bool) -> int | None:
    """``--max-chars``, checked: in range, and only where the output is text."""
    if args.max_chars is None:
        return None
    if not MIN_CHARS <= args.max_chars <= MAX_CHARS:
        raise _UsageError(f"--max-chars must be in {MIN_CHARS}-{MAX_CHARS}, not "
                          f"{args.max_chars}")
    if json_output:
        raise _UsageError("--max-chars cuts the text output; the JSON form is whole")
    return int(args.max_chars)


def _add_tab(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tab", metavar="ID", help="the tab's id (default: the current tab, "
                                                    "as `tabs select` or `tabs new` left it, "
                                                    "else the first page tab)")


async def _launch(args: argparse.Namespace) -> int:
    if not 0 <= args.port < 65536:
        return _usage(f"--port must be in 0-65535, not {args.port}")
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with launch_chromium(port=args.port, headless=not args.headful) as chromium:
            _emit(f"{chromium.endpoint}\n")
            print(f"browser websocket: {chromium.ws_url}\nprofile: {chromium.profile_dir}\n"
                  "stop with Ctrl-C", file=sys.stderr, flush=True)
            async for _ in signals:
                break
    return 0


async def _tabs(args: argparse.Namespace) -> int:
    if args.action in ("select", "close") and not args.target:
        return _usage(f"tabs {args.action} needs the tab's id (cdpseq tabs lists them)")
    if args.action == "list" and args.target is not None:
        return _usage(f"tabs list takes no argument, not {args.target!r}")
    policy = _policy(args)
    code = 0
    async with cli_browser(args.cdp, policy) as browser:
        driver = Driver(browser, shared_selection=True)
        if args.action == "new":
            _, loaded = await driver.open_tab(args.target or "about:blank")
            if loaded is not None and loaded.failed is not None:
                print(f"cdpseq: opened a tab, but loading {args.target} failed: "
                      f"{loaded.failed.code}: {loaded.failed.error}", file=sys.stderr)
                code = EXIT_FAILED
        elif args.action == "select":
            await driver.select(args.target)
        elif args.action == "close":
            await driver.close(args.target)
        pages = await driver.tabs()
        listing = [{**msgspec.to_builtins(info), "current": info.id == driver.current}
                   for info in pages]
    _print_json(listing)
    return code


async def _close(args: argparse.Namespace) -> int:
    print(f"cdpseq: {await close_command()}", file=sys.stderr)
    return 0


async def _read_page(args: argparse.Namespace) -> int:
    max_chars = _max_chars(args, args.json)
    async with cli_browser(args.cdp) as browser:
        driver = Driver(browser, shared_selection=True)
        view = await driver.read_page(
            args.tab, args.filter, args.compression, target=args.target,
            selector=args.selector, roles=args.roles, viewport_only=args.viewport_only,
            max_elements=args.max_elements, include_bounds=args.bounds)
    if args.json:
        _print_json(driver.scrub(msgspec.to_builtins(view)))
    else:
        text = view.text if max_chars is None else "\n".join(
            fit([], view.text.split("\n"), max_chars)[0])
        _emit(driver.scrub(text) + "\n")
    return 0


def _read_input(source: str, flag: str) -> bytes:
    """The bytes of a file named by ``flag``, or of stdin for ``-``."""
    if source == "-":
        return sys.stdin.buffer.read()
    try:
        with open(source, "rb") as file:
            return file.read()
    except OSError as exc:
        raise _UsageError(f"cannot read {flag} {source}: {exc.strerror}") from None


async def _act(args: argparse.Namespace) -> int:
    policy = _policy(args)
    max_chars = _max_chars(args, args.format == "json")
    raw = _read_input(args.steps, "--steps")
    many = is_multi_json(raw)  # {"sequences": [...]}: act in several tabs (engine/multi.py)
    request: ActRequest | MultiActRequest
    try:
        request = parse_multi_request(raw) if many else parse_request(raw)
        if many and args.tab is not None:
            raise InvalidRequest("--tab", "a request with sequences names each tab in its "
                                          "sequences' tabId")
    except InvalidRequest as exc:
        _print_result(invalid_multi_result(exc) if many else invalid_result(exc), args.format,
                      max_chars=max_chars)
        return EXIT_USAGE
    if args.return_mode:
        request = with_return_mode(request, args.return_mode)
    if args.tab is not None:  # even "": a tab id that names no tab is invalid, not the default
        request = msgspec.structs.replace(request, tab_id=args.tab)
    async with cli_browser(args.cdp, policy) as browser:
        browser.allow_evaluate = args.allow_evaluate
        driver = Driver(browser, shared_selection=True)
        result = await (driver.act_many(request) if isinstance(request, MultiActRequest)
                        else driver.act(request))
    if args.screenshot_dir:
        try:
            for one in (result.results if isinstance(result, MultiActResult) else [result]):
                save_images(one, args.screenshot_dir)
        except OSError as exc:
            print(f"cdpseq: cannot write --screenshot-dir {args.screenshot_dir}: "
                  f"{exc.strerror}", file=sys.stderr)
    _print_result(result, args.format, driver, max_chars)
    if result.failed is not None and result.failed.code == "INVALID_REQUEST":
        return EXIT_USAGE
    return 0 if result.ok else EXIT_FAILED


async def _schema(args: argparse.Namespace) -> int:
    _print_json(result_schema() if args.result else request_schema())
    return 0


def _emit(text: str) -> None:
    """Write ``text`` to standard output now; if the reader has gone (EPIPE), drop it and the
    rest of the output (see the module's docstring)."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # Point fd 1 at /dev/null, so that what is left in the buffer (and the interpreter's
        # flush at exit) goes nowhere instead of failing again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _print_json(value: object) -> None:
    _emit(msgspec.json.format(msgspec.json.encode(value)).decode() + "\n")


def _print_result(result: ActResult | MultiActResult, form: str,
                  driver: Driver | None = None, max_chars: int | None = None) -> None:
    """Print a result; with the ``driver`` that ran it, scrubbed of every secret it knows."""
    if form == "text":
        text = (render_text(result, max_chars) if isinstance(result, ActResult)
                else render_many(result, max_chars))
        _emit((driver.scrub(text) if driver else text) + "\n")
    else:
        _print_json(driver.scrub(msgspec.to_builtins(result)) if driver else result)


async def _mcp(args: argparse.Namespace) -> int:
    from .mcp_server import ServeOptions, serve  # only this command needs the server

    policy = _policy(args)
    if args.cdp == MANAGED:
        return _usage("--cdp managed is the CLI commands' shared browser; the MCP server "
                      "starts its own with --launch")
    try:
        # Without --cdp/$CDPSEQ_CDP a client's plain `cdpseq mcp` works on a fresh machine: a
        # Chrome on the default port, else a private one for the server's lifetime.
        return await serve(ServeOptions(cdp=args.cdp or DEFAULT_ENDPOINT, launch=args.launch,
                                        launch_if_missing=args.launch_if_missing
                                        or args.cdp is None,
                                        headful=args.headful, secrets=args.secrets,
                                        policy=policy, allow_evaluate=args.allow_evaluate,
                                        structured=args.structured))
    except SecretsError as exc:
        return _usage(str(exc))


# -- cdpseq pool: sequences spread over several browsers (front/pool.py) ------------------------


def _add_pool_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    pool = commands.add_parser(
        "pool", help="run several act sequences spread over one or more browsers",
        description="Read a JSON array of act requests (each an object with steps, or a bare "
                    "array of steps; no tabId) from FILE or standard input, run each in a new "
                    "tab of one of the browsers given with --cdp (repeatable or comma-separated), "
                    "and print the JSON array of results in the same order. Exit 0 when every "
                    "sequence completed, 1 when one failed, 2 for an invalid request, 3 when a "
                    "browser is unreachable.")
    pool.add_argument("--cdp", metavar="ENDPOINT", action="append",
                      help="a browser of the pool (any form act's --cdp takes); repeatable, or "
                           "comma-separated (default: $CDPSEQ_CDP, else "
                           f"{DEFAULT_ENDPOINT})")
    pool.add_argument("--requests", required=True, metavar="FILE",
                      help="the JSON array of act requests; - for standard input")
    pool.add_argument("--tabs-per-browser", type=int, default=DEFAULT_TABS_PER_BROWSER,
                      metavar="N", help="sequences running at once in each browser "
                                        "(default %(default)s)")
    _add_policy(pool)
    _add_allow_evaluate(pool)


async def _pool(args: argparse.Namespace) -> int:
    policy = _policy(args)
    raw = _read_input(args.requests, "--requests")
    try:
        sequences = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        return _usage(f"--requests: not JSON: {exc}")
    parse_sequences(sequences)  # InvalidRequest before any browser is reached (exit 2)
    endpoints = args.cdp or [os.environ.get("CDPSEQ_CDP") or DEFAULT_ENDPOINT]
    async with open_pool(endpoints, tabs_per_browser=args.tabs_per_browser,
                         policy=policy, allow_evaluate=args.allow_evaluate) as pool:
        results = await pool.run(sequences)
    _print_json(results)
    return 0 if all(result.ok for result in results) else EXIT_FAILED


_COMMANDS: dict[str, Callable[[argparse.Namespace], Awaitable[int]]] = {
    "launch": _launch,
    "tabs": _tabs,
    "read-page": _read_page,
    "act": _act,
    "schema": _schema,
    "mcp": _mcp,
    "close": _close,
    "pool": _pool,
}


def _usage(message: str) -> int:
    print(f"cdpseq: {message}", file=sys.stderr)
    return EXIT_USAGE


def _print_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                   file: object = None, line: str | None = None) -> None:
    print(f"cdpseq: warning: {message}", file=sys.stderr, flush=True)


def run(argv: Sequence[str] | None = None) -> int:
    """Run one ``cdpseq`` command line and return its exit code."""
    args = build_parser().parse_args(argv)
    warnings.showwarning = _print_warning  # one line on stderr, for the CLI and the MCP server
    try:
        return trio.run(_COMMANDS[args.command], args)
    except (InvalidEndpoint, InvalidRequest, _UsageError) as exc:
        return _usage(str(exc))
    except BrowserUnreachable as exc:
        port = exc.endpoint.rsplit(":", 1)[-1].split("/", 1)[0]
        hint = port if port.isdigit() else "9222"
        if args.command == "mcp":
            print(f"cdpseq: {exc}. Start Chrome with --remote-debugging-port={hint}, or let "
                  "the server start its own: `cdpseq mcp --launch` (or --launch-if-missing).",
                  file=sys.stderr)
        else:
            print(f"cdpseq: {exc}. Start Chrome with --remote-debugging-port={hint} "
                  "(or run `cdpseq launch`) and pass its endpoint with --cdp, or leave out "
                  "--cdp and $CDPSEQ_CDP to use the managed browser.", file=sys.stderr)
        return EXIT_UNREACHABLE
    except LaunchError as exc:
        print(f"cdpseq: {exc}", file=sys.stderr)
        return EXIT_LAUNCH
    except CdpseqError as exc:
        code = error_code(exc)
        print(f"cdpseq: {code + ': ' if code else ''}{exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130


def main() -> NoReturn:
    """The ``cdpseq`` console script: run the command line and exit with its code."""
    sys.exit(run())
