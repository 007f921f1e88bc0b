"""The ``cdpseq`` command line's grammar: every command, its options and their help, and the
options read back as values (a URL policy, a budget) with a usage error naming the flag.

``cli`` runs the commands; this module only describes them, so that what a flag means is
written once, beside its help.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from ..wire.endpoint import DEFAULT_ENDPOINT
from ..wire.launch import parse_window_size
from ..wire.managed import ManagedLaunch
from ..wire.url_policy import UrlPolicy
from .budget import MAX_CHARS, MIN_CHARS
from .pool import DEFAULT_TABS_PER_BROWSER
from .pool_service import DEFAULT_QUEUE_TIMEOUT


def _add_cdp(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cdp", metavar="ENDPOINT", default=None,
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


def _add_launch_options(parser: argparse.ArgumentParser, what: str) -> None:
    """--profile, --window-size and --headed, for ``what`` (the browser they shape)."""
    group = parser.add_argument_group(
        "launch", f"how {what} is launched (default: headless, a temporary profile removed "
                  "with it, Chromium's default viewport)")
    group.add_argument("--profile", metavar="DIR",
                       help="a persistent profile directory (created if missing, never removed):"
                            " cookies and storage outlive the browser; one browser at a time")
    group.add_argument("--window-size", metavar="WxH",
                       help="every tab's viewport (innerWidth x innerHeight) in pixels, e.g. "
                            "1280x800; the window grows by the browser's UI")
    group.add_argument("--headed", "--headful", dest="headed", action="store_true",
                       help="show a window (needs a display: DISPLAY or WAYLAND_DISPLAY)")


def launch_options_of(args: argparse.Namespace) -> tuple[str | None, tuple[int, int] | None]:
    """``--profile`` (absolute) and ``--window-size`` read back; a bad size is a usage error."""
    size = None
    if args.window_size is not None:
        try:
            size = parse_window_size(args.window_size)
        except ValueError as exc:
            raise UsageError(f"--window-size {exc}") from None
    # Against the command's directory: the call may run in the daemon (front/daemon).
    profile = (os.path.normpath(os.path.join(args.cwd, os.path.expanduser(args.profile)))
               if args.profile else None)
    return profile, size


def managed_launch_of(args: argparse.Namespace) -> ManagedLaunch | None:
    """The launch options of a command that uses the managed browser, or None when none was
    given; with ``--cdp ENDPOINT`` (another browser) they are a usage error."""
    profile, size = launch_options_of(args)
    if profile is None and size is None and not args.headed:
        return None
    if args.cdp is not None and args.cdp != "managed":
        raise UsageError("--profile, --window-size and --headed shape the managed browser; "
                         f"they do not apply to --cdp {args.cdp}")
    return ManagedLaunch(profile=profile, window_size=size, headed=args.headed)


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
        # Here, not at the top: importing the name from the package asks the metadata for it
        # (~40 ms, more on a loaded machine), which every call paid for.
        from .. import __version__

        print(f"cdpseq {__version__}")
        parser.exit()


class UsageError(Exception):
    """A flag or an input the command cannot use: exit 2 with this message."""


def policy_of(args: argparse.Namespace) -> UrlPolicy:
    """The policy the flags ask for (a bad host pattern is a usage error naming it)."""
    try:
        return UrlPolicy(allow_file=args.allow_file, allow_data=args.allow_data,
                         allow_hosts=tuple(args.allow_host), deny_hosts=tuple(args.deny_host))
    except ValueError as exc:
        raise UsageError(f"--allow-host/--deny-host: {exc}") from None


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
    _add_launch_options(launch, "this Chromium")

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
    tabs.add_argument("--isolated", action="store_true",
                      help="new: open the tab in a browser context of its own (cookies and "
                           "storage no other tab sees; disposed when its last tab closes)")
    _add_cdp(tabs)
    _add_launch_options(tabs, "the managed browser (they imply --cdp managed)")
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
    _add_launch_options(read, "the managed browser (they imply --cdp managed)")
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
    _add_launch_options(act, "the managed browser (they imply --cdp managed)")
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
    act.add_argument("--download-dir", metavar="DIR",
                     help="save downloads there (the request's downloadDir; default: "
                          "downloads/ in cdpseq's state directory)")
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
        "--cdp", metavar="ENDPOINT", default=None,
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
    _add_launch_options(mcp, "a browser the server launches")
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
    _add_state_parser(commands)
    return parser


def _add_max_chars(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-chars", type=int, metavar="N",
                        help=f"print the text in at most N characters ({MIN_CHARS}-{MAX_CHARS}):"
                             " the page's text goes first, then controls no line names; every "
                             "cut is marked (text output only)")


def max_chars_of(args: argparse.Namespace, json_output: bool) -> int | None:
    """``--max-chars``, checked: in range, and only where the output is text."""
    if args.max_chars is None:
        return None
    if not MIN_CHARS <= args.max_chars <= MAX_CHARS:
        raise UsageError(f"--max-chars must be in {MIN_CHARS}-{MAX_CHARS}, not "
                          f"{args.max_chars}")
    if json_output:
        raise UsageError("--max-chars cuts the text output; the JSON form is whole")
    return int(args.max_chars)


def _add_tab(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tab", metavar="ID", help="the tab's id (default: the current tab, "
                                                    "as `tabs select` or `tabs new` left it, "
                                                    "else the first page tab)")


def _add_pool_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    pool = commands.add_parser(
        "pool", help="run several act sequences spread over one or more browsers",
        description="Read a JSON array of act requests (each an object with steps, or a bare "
                    "array of steps; no tabId) from FILE or standard input, run each in a new "
                    "tab of one of the browsers given with --cdp (repeatable or comma-separated), "
                    "or in a fresh browser of a service given with --pool-url, "
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
    pool.add_argument("--pool-url", metavar="URL", action="append",
                      help="a browser service giving a fresh browser per connection "
                           "(browserless, a hosted CDP pool: ws[s]://host/?token=...); "
                           "repeatable; mixes with --cdp")
    pool.add_argument("--concurrency", type=int, default=1, metavar="N",
                      help="connections open at once to each --pool-url (default %(default)s)")
    pool.add_argument("--sequences-per-connection", type=int, default=1, metavar="K",
                      help="sequences run on one service connection before a fresh browser "
                           "(default %(default)s)")
    pool.add_argument("--queue-timeout", type=float, default=DEFAULT_QUEUE_TIMEOUT,
                      metavar="SECONDS", help="how long a sequence waits in a service's queue "
                                              "for a browser (default %(default)g)")
    pool.add_argument("--isolate", action="store_true",
                      help="run each sequence in a browser context of its own (no shared "
                           "cookies or storage)")
    _add_policy(pool)
    _add_allow_evaluate(pool)


def _add_state_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    state = commands.add_parser(
        "state", help="save or load the login state (cookies, localStorage, sessionStorage)",
        description="save FILE: write the cookies of the tab's browser context, the "
                    "localStorage of the origins its tabs show (and --origin's), and the tab's "
                    "sessionStorage to FILE as JSON, mode 0600. load FILE: restore them: "
                    "cookies merge (a saved cookie replaces the one of the same name, domain "
                    "and path), sessionStorage goes into the tab. Prints counts and origins, "
                    "never a value.")
    state.add_argument("action", choices=["save", "load"], help="save or load")
    state.add_argument("file", metavar="FILE", help="the state file")
    state.add_argument("--origin", action="append", default=[], metavar="ORIGIN",
                       help="save: also the localStorage of this origin (scheme://host[:port]) "
                            "when no tab shows it; repeatable")
    _add_cdp(state)
    _add_tab(state)
    _add_policy(state)
