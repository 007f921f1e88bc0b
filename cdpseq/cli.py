"""The ``cdpseq`` command line.

Exit codes: 0 success, 1 a step failed (act), 2 invalid input, 3 browser unreachable,
4 a browser that could not be launched.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import NoReturn

import msgspec
import trio

from . import __version__
from .browser import open_browser
from .endpoint import DEFAULT_ENDPOINT
from .errors import BrowserUnreachable, CdpseqError, InvalidEndpoint, LaunchError
from .launch import launch_chromium

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_UNREACHABLE = 3
EXIT_LAUNCH = 4


def _add_cdp(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cdp", metavar="ENDPOINT", default=os.environ.get("CDPSEQ_CDP") or DEFAULT_ENDPOINT,
        help="the browser: a port, host:port, http://host:port or ws://... URL "
             "(default: $CDPSEQ_CDP, else %(default)s)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cdpseq", description="Drive Chrome over the DevTools Protocol in few round trips.")
    parser.add_argument("--version", action="version", version=f"cdpseq {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    launch = commands.add_parser(
        "launch", help="start a local headless Chromium and keep it running",
        description="Start a headless Chromium on 127.0.0.1, print its endpoint on the first "
                    "line, and run until interrupted; then stop it and remove its profile.")
    launch.add_argument("--port", type=int, default=9222,
                        help="debugging port on 127.0.0.1 (default %(default)s; 0 picks a free "
                             "one)")
    launch.add_argument("--headful", action="store_true", help="show a window (needs a display)")

    tabs = commands.add_parser("tabs", help="list the page tabs as JSON",
                               description="Print a JSON array of {id, type, url, title}.")
    _add_cdp(tabs)
    return parser


async def _launch(args: argparse.Namespace) -> int:
    if not 0 <= args.port < 65536:
        return _usage(f"--port must be in 0-65535, not {args.port}")
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with launch_chromium(port=args.port, headless=not args.headful) as chromium:
            print(chromium.endpoint, flush=True)
            print(f"browser websocket: {chromium.ws_url}\nprofile: {chromium.profile_dir}\n"
                  "stop with Ctrl-C", file=sys.stderr, flush=True)
            async for _ in signals:
                break
    return 0


async def _tabs(args: argparse.Namespace) -> int:
    async with open_browser(args.cdp) as browser:
        tabs = await browser.tabs()
    sys.stdout.write(msgspec.json.format(msgspec.json.encode(tabs)).decode() + "\n")
    return 0


_COMMANDS: dict[str, Callable[[argparse.Namespace], Awaitable[int]]] = {
    "launch": _launch,
    "tabs": _tabs,
}


def _usage(message: str) -> int:
    print(f"cdpseq: {message}", file=sys.stderr)
    return EXIT_USAGE


def run(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return trio.run(_COMMANDS[args.command], args)
    except InvalidEndpoint as exc:
        return _usage(str(exc))
    except BrowserUnreachable as exc:
        port = exc.endpoint.rsplit(":", 1)[-1].split("/", 1)[0]
        hint = port if port.isdigit() else "9222"
        print(f"cdpseq: {exc}. Start Chrome with --remote-debugging-port={hint} "
              "(or run `cdpseq launch`) and pass its endpoint with --cdp.", file=sys.stderr)
        return EXIT_UNREACHABLE
    except LaunchError as exc:
        print(f"cdpseq: {exc}", file=sys.stderr)
        return EXIT_LAUNCH
    except CdpseqError as exc:
        print(f"cdpseq: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130


def main() -> NoReturn:
    sys.exit(run())
