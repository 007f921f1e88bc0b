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
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from functools import cache
from typing import NoReturn

import msgspec
import trio

from ..browser import Browser, open_browser
from ..engine.multi import (
    MultiActRequest,
    MultiActResult,
    invalid_multi_result,
    is_multi_json,
    parse_multi_request,
    with_return_mode,
)
from ..engine.request import ActRequest, Pdf, Step, Upload, request_schema
from ..engine.result import ActResult, error_code, invalid_result, result_schema
from ..engine.secrets import SecretsError
from ..engine.validate import parse_request
from ..errors import (
    BrowserUnreachable,
    CdpseqError,
    InvalidEndpoint,
    InvalidRequest,
    LaunchError,
    ServiceRejected,
)
from ..escaping import escape_json, escape_text
from ..wire.endpoint import DEFAULT_ENDPOINT
from ..wire.launch import check_display, launch_chromium
from ..wire.url_policy import UrlPolicy
from .budget import fit
from .captures import save_images
from .cli_args import (
    UsageError,
    build_parser,
    launch_options_of,
    managed_launch_of,
    max_chars_of,
    policy_of,
)
from .cli_browser import MANAGED, Opener, cli_browser, close_command
from .driver import Driver
from .pool import open_pool, parse_sequences
from .render import render_many, render_text

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_UNREACHABLE = 3
EXIT_LAUNCH = 4


async def _launch(args: argparse.Namespace) -> int:
    if not 0 <= args.port < 65536:
        return _usage(f"--port must be in 0-65535, not {args.port}")
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        profile, size = launch_options_of(args)
        async with launch_chromium(port=args.port, headless=not args.headed,
                                   user_data_dir=profile, window_size=size) as chromium:
            _emit(f"{chromium.endpoint}\n")
            kept = " (persistent, kept)" if chromium.persistent else ""
            print(f"browser websocket: {chromium.ws_url}\nprofile: {chromium.profile_dir}{kept}\n"
                  "stop with Ctrl-C", file=sys.stderr, flush=True)
            async for _ in signals:
                break
    return 0


async def _tabs(args: argparse.Namespace) -> int:
    if args.action in ("select", "close") and not args.target:
        return _usage(f"tabs {args.action} needs the tab's id (cdpseq tabs lists them)")
    if args.action == "list" and args.target is not None:
        return _usage(f"tabs list takes no argument, not {args.target!r}")
    if args.isolated and args.action != "new":
        return _usage(f"--isolated applies to tabs new, not tabs {args.action}")
    policy = policy_of(args)
    code = 0
    async with _browser(args, policy) as browser:
        driver = Driver(browser, shared_selection=True, environ=args.environ)
        if args.action == "new":
            _, loaded = await driver.open_tab(args.target or "about:blank",
                                              isolated=args.isolated)
            if loaded is not None and loaded.failed is not None:
                print(escape_text(f"cdpseq: opened a tab, but loading {args.target} failed: "
                                  f"{loaded.failed.code}: {loaded.failed.error}"),
                      file=sys.stderr)
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
    print(f"cdpseq: {await close_command(args.environ)}", file=sys.stderr)
    return 0


async def _read_page(args: argparse.Namespace) -> int:
    max_chars = max_chars_of(args, args.json)
    async with _browser(args) as browser:
        driver = Driver(browser, shared_selection=True, environ=args.environ)
        view = await driver.read_page(
            args.tab, args.filter, args.compression, target=args.target,
            selector=args.selector, roles=args.roles, viewport_only=args.viewport_only,
            max_elements=args.max_elements, include_bounds=args.bounds)
    if args.json:
        _print_json(driver.scrub(msgspec.to_builtins(view)))
    else:
        text = view.text if max_chars is None else "\n".join(
            fit([], view.text.split("\n"), max_chars)[0])
        _emit_text(driver.scrub(text))
    return 0


def _browser(args: argparse.Namespace, policy: UrlPolicy | None = None
             ) -> AbstractAsyncContextManager[Browser]:
    """The command's browser (``cli_browser``), in the command's environment."""
    wanted = managed_launch_of(args) if hasattr(args, "headed") else None
    return cli_browser(args.cdp, policy, wanted,
                       allow_evaluate=getattr(args, "allow_evaluate", False),
                       environ=args.environ, opener=args.opener)


def _read_input(source: str, flag: str, cwd: str) -> bytes:
    """The bytes of a file named by ``flag`` (relative to ``cwd``), or of stdin for ``-``."""
    if source == "-":
        return sys.stdin.buffer.read()
    try:
        with open(os.path.join(cwd, source), "rb") as file:
            return file.read()
    except OSError as exc:
        raise UsageError(f"cannot read {flag} {source}: {exc.strerror}") from None


async def _act(args: argparse.Namespace) -> int:
    policy = policy_of(args)
    max_chars = max_chars_of(args, args.format == "json")
    raw = _read_input(args.steps, "--steps", args.cwd)
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
    if args.download_dir:
        request = (msgspec.structs.replace(request, download_dir=args.download_dir)
                   if isinstance(request, ActRequest) else msgspec.structs.replace(
                       request, sequences=[msgspec.structs.replace(
                           one, download_dir=args.download_dir) for one in request.sequences]))
    request = (_anchored(request, args.cwd) if isinstance(request, ActRequest) else
               msgspec.structs.replace(request, sequences=[
                   _anchored(one, args.cwd) for one in request.sequences]))
    if args.tab is not None:  # even "": a tab id that names no tab is invalid, not the default
        request = msgspec.structs.replace(request, tab_id=args.tab)
    async with _browser(args, policy) as browser:
        driver = Driver(browser, shared_selection=True, environ=args.environ)
        result = await (driver.act_many(request) if isinstance(request, MultiActRequest)
                        else driver.act(request))
    if args.screenshot_dir:
        try:
            for one in (result.results if isinstance(result, MultiActResult) else [result]):
                save_images(one, os.path.join(args.cwd, args.screenshot_dir))
        except OSError as exc:
            print(f"cdpseq: cannot write --screenshot-dir {args.screenshot_dir}: "
                  f"{exc.strerror}", file=sys.stderr)
    _print_result(result, args.format, driver, max_chars)
    if result.failed is not None and result.failed.code == "INVALID_REQUEST":
        return EXIT_USAGE
    return 0 if result.ok else EXIT_FAILED


def _anchored(request: ActRequest, cwd: str) -> ActRequest:
    """``request`` with its relative file paths (a pdf's, an upload's, the download directory)
    made absolute against the command's own directory: the call may run in the daemon, whose
    working directory is not the caller's."""
    def steps() -> list[Step]:
        return [msgspec.structs.replace(step, path=os.path.join(cwd, step.path))
                if isinstance(step, Pdf) and step.path is not None else
                msgspec.structs.replace(step, files=[os.path.join(cwd, f) for f in step.files])
                if isinstance(step, Upload) else step for step in request.steps]
    download_dir = request.download_dir
    return msgspec.structs.replace(
        request, steps=steps(),
        download_dir=download_dir if download_dir is None else os.path.join(cwd, download_dir))


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


def _emit_text(text: str) -> None:
    """Write ``text`` and a newline, its control characters escaped (``cdpseq.escaping``)."""
    _emit(escape_text(text) + "\n")


def _print_json(value: object) -> None:
    """Write ``value`` as indented JSON, control characters as JSON escapes: the same data."""
    _emit(escape_json(msgspec.json.format(msgspec.json.encode(value))).decode() + "\n")


def _print_result(result: ActResult | MultiActResult, form: str,
                  driver: Driver | None = None, max_chars: int | None = None) -> None:
    """Print a result; with the ``driver`` that ran it, scrubbed of every secret it knows."""
    if form == "text":
        text = (render_text(result, max_chars) if isinstance(result, ActResult)
                else render_many(result, max_chars))
        _emit_text(driver.scrub(text) if driver else text)
    else:
        _print_json(driver.scrub(msgspec.to_builtins(result)) if driver else result)


async def _mcp(args: argparse.Namespace) -> int:
    from .mcp_server import ServeOptions, serve  # only this command needs the server

    policy = policy_of(args)
    profile, size = launch_options_of(args)
    shaped = profile is not None or size is not None or args.headed
    if shaped and args.cdp is not None and not args.launch_if_missing:
        return _usage("--profile, --window-size and --headed shape a browser the server "
                      f"launches; with --cdp {args.cdp} add --launch-if-missing")
    if args.headed:
        check_display()  # now, not at the first call
    if args.cdp == MANAGED:
        return _usage("--cdp managed is the CLI commands' shared browser; the MCP server "
                      "starts its own with --launch")
    try:
        # Without --cdp/$CDPSEQ_CDP a client's plain `cdpseq mcp` works on a fresh machine: a
        # Chrome on the default port, else a private one for the server's lifetime.
        # Launch options without --cdp ask for a launched browser, not one on the default port.
        return await serve(ServeOptions(cdp=args.cdp or DEFAULT_ENDPOINT,
                                        launch=args.launch or (shaped and args.cdp is None),
                                        launch_if_missing=args.launch_if_missing
                                        or args.cdp is None,
                                        headful=args.headed, profile=profile,
                                        window_size=size, secrets=args.secrets,
                                        policy=policy, allow_evaluate=args.allow_evaluate,
                                        structured=args.structured))
    except SecretsError as exc:
        return _usage(str(exc))


# -- cdpseq pool: sequences spread over several browsers (front/pool.py) ------------------------


async def _pool(args: argparse.Namespace) -> int:
    policy = policy_of(args)
    raw = _read_input(args.requests, "--requests", args.cwd)
    try:
        sequences = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        return _usage(f"--requests: not JSON: {exc}")
    parse_sequences(sequences)  # InvalidRequest before any browser is reached (exit 2)
    endpoints = args.cdp or ([] if args.pool_url else
                             [args.environ.get("CDPSEQ_CDP") or DEFAULT_ENDPOINT])
    async with open_pool(endpoints, tabs_per_browser=args.tabs_per_browser,
                         policy=policy, allow_evaluate=args.allow_evaluate,
                         isolate=args.isolate, pool_url=args.pool_url or (),
                         concurrency=args.concurrency,
                         sequences_per_connection=args.sequences_per_connection,
                         queue_timeout=args.queue_timeout) as pool:
        results = await pool.run(sequences)
    _print_json(results)
    return 0 if all(result.ok for result in results) else EXIT_FAILED


async def _state(args: argparse.Namespace) -> int:
    # Only this command reads and writes storage state: no other call imports it.
    from ..browser.state_file import read_state
    from ..browser.storage_state import load_state, save_state, summarize

    if args.action == "load" and args.origin:
        return _usage("--origin only applies to state save")
    # A bad file is exit 2 before any browser is reached; read once, loaded typed.
    path = os.path.join(args.cwd, args.file)  # the caller's directory, not the daemon's
    to_load = read_state(path) if args.action == "load" else None
    async with _browser(args, policy_of(args)) as browser:
        tab = await Driver(browser, shared_selection=True, environ=args.environ).tab(args.tab)
        if to_load is None:
            saved = await save_state(tab, path, origins=args.origin)
            summary = summarize(saved, "saved", args.file)
        else:
            summary = await load_state(tab, to_load)
    _print_json(msgspec.structs.replace(summary, path=args.file))
    return 0


_COMMANDS: dict[str, Callable[[argparse.Namespace], Awaitable[int]]] = {
    "launch": _launch,
    "tabs": _tabs,
    "read-page": _read_page,
    "act": _act,
    "schema": _schema,
    "mcp": _mcp,
    "close": _close,
    "pool": _pool,
    "state": _state,
}


def _usage(message: str) -> int:
    print(f"cdpseq: {escape_text(message)}", file=sys.stderr)
    return EXIT_USAGE


def _print_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                   file: object = None, line: str | None = None) -> None:
    print(f"cdpseq: warning: {message}", file=sys.stderr, flush=True)


def run(argv: Sequence[str] | None = None) -> int:
    """Run one ``cdpseq`` command line in this process and return its exit code."""
    args = _parse(argv, os.environ, os.getcwd(), open_browser)
    if isinstance(args, int):
        return args
    try:
        return trio.run(_COMMANDS[args.command], args)
    except (CdpseqError, UsageError) as exc:
        return _failed(args, exc)
    except KeyboardInterrupt:
        return 130


async def run_call(argv: Sequence[str], *, environ: Mapping[str, str], cwd: str,
                   opener: Opener) -> int:
    """Run one ``cdpseq`` command line in a running trio loop (the daemon's, ``front/daemon``)
    with the ``environ`` and ``cwd`` of the call it serves, reaching browsers by ``opener``;
    its exit code. Output goes to ``sys.stdout``/``sys.stderr``, which the daemon points at the
    call's: the same code as ``run`` from here on."""
    args = _parse(argv, environ, cwd, opener)
    if isinstance(args, int):
        return args
    try:
        return await _COMMANDS[args.command](args)
    except (CdpseqError, UsageError) as exc:
        return _failed(args, exc)


def _parse(argv: Sequence[str] | None, environ: Mapping[str, str], cwd: str,
           opener: Opener) -> argparse.Namespace | int:
    """The parsed command line with its call's environment, directory and opener; or the exit
    code when argparse answered itself (``--help``, a usage error it printed)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else EXIT_USAGE
    args.environ, args.cwd, args.opener = environ, cwd, opener
    if args.command != "pool" and hasattr(args, "cdp") and args.cdp is None:
        args.cdp = environ.get("CDPSEQ_CDP") or None
    warnings.showwarning = _print_warning  # one line on stderr, for the CLI and the MCP server
    return args


@cache
def _parser() -> argparse.ArgumentParser:
    # Built once per process: building it costs ~15 ms (argparse looks up translations for
    # every help text), which a warm call through the daemon would pay each time; parsing does
    # not change it (``append`` options copy their default).
    return build_parser()


def _failed(args: argparse.Namespace, exc: Exception) -> int:
    """Say what went wrong, in one line or two on stderr; the exit code."""
    if isinstance(exc, InvalidEndpoint | InvalidRequest | UsageError):
        return _usage(str(exc))
    if isinstance(exc, ServiceRejected):  # a browser service's answer says what to fix
        print(f"cdpseq: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE
    if isinstance(exc, BrowserUnreachable):
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
    if isinstance(exc, LaunchError):
        print(f"cdpseq: {exc}", file=sys.stderr)
        return EXIT_LAUNCH
    code = error_code(exc) if isinstance(exc, CdpseqError) else None
    print(f"cdpseq: {code + ': ' if code else ''}{escape_text(str(exc))}", file=sys.stderr)
    return EXIT_FAILED


def main() -> NoReturn:
    """The ``cdpseq`` console script: run the command line and exit with its code."""
    sys.exit(run())
