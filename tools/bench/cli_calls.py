"""The CLI per call, cold and warm, beside agent-browser's CLI, paired in one run:
``python -m tools.bench.cli_calls [--runs N]``.

One headless Chromium (``launch_chromium``) with one tab on an idle fixture page (login.html).
Each round runs, in turn: ``cdpseq read-page`` first (no daemon runs: the call starts one and
runs in-process meanwhile, the daemons stopped before it and waited for after it), cold
(``CDPSEQ_NO_DAEMON=1``: a new process imports the package, connects and finds its tab, as
before the daemon), then an untimed read and click through the daemon (the one the first call
started is new), ``cdpseq read-page``
warm (through the daemon), ``cdpseq act`` of one click (with settling) cold and warm, and
agent-browser's ``snapshot -i`` and ``click`` against the same browser (``--cdp PORT``).
Each number is a call's wall time as its shell sees it, of the ``cdpseq`` console script beside
the interpreter (``python -m cdpseq`` when there is none). agent-browser is
``$AGENT_BROWSER``, else ``tools/peers/node_modules/.bin/agent-browser`` (``tools/setup
--bench``); without it the cdpseq rows are measured alone and the line says how to install it.
The package's bytecode is compiled first, as pip's install does: with
``PYTHONDONTWRITEBYTECODE`` set (some sandboxes set it) and an editable checkout whose ``.pyc``
is older than its source, every call would compile the client again (~6 ms).
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

from cdpseq import act, launch_chromium, open_browser
from fixtures.server import serve_fixtures
from tools.bench.common import ROOT

PEER = ROOT / "tools" / "peers" / "node_modules" / ".bin" / "agent-browser"
CLICK = json.dumps({"steps": [{"type": "click", "selector": "#remember"}]})


def _timed(command: list[str], env: dict[str, str], stdin: str | None = None) -> float:
    """One call's wall time in ms; it must succeed."""
    start = time.perf_counter()
    done = subprocess.run(command, env=env, input=stdin, capture_output=True, text=True,
                          timeout=120)
    elapsed = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        raise SystemExit(f"{command[:4]} failed ({done.returncode}): {done.stderr[-500:]}")
    return elapsed


def _peer() -> str | None:
    found = os.environ.get("AGENT_BROWSER") or (str(PEER) if PEER.exists() else None)
    return found if found and shutil.which(found) else None


async def _open_page(endpoint: str, url: str) -> None:
    async with open_browser(endpoint) as browser:
        for info in await browser.tabs():
            await browser.close_tab(info.id)
        tab = await browser.new_tab("about:blank")
        result = await act(tab, {"steps": [{"type": "navigate", "url": url}]})
        if not result.ok:
            raise SystemExit(f"cannot open {url}: {result.failed}")


def _stop_daemons(directory: Path) -> None:
    """Ask every daemon in ``directory`` to go, and wait until their sockets are gone."""
    for sock in directory.glob("daemon-*.sock"):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            with contextlib.suppress(OSError):
                probe.connect(str(sock))
                probe.sendall(b"\0\0\0\0Q")
    deadline = time.monotonic() + 30
    while any(directory.glob("daemon-*.sock")) and time.monotonic() < deadline:
        time.sleep(0.02)


def _until_listening(directory: Path) -> None:
    """Wait (30 s at most) until a daemon listens in ``directory``."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for sock in directory.glob("daemon-*.sock"):
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                with contextlib.suppress(OSError):
                    probe.connect(str(sock))
                    return
        time.sleep(0.02)
    raise SystemExit("the daemon a first call started never listened")


def bench(runs: int) -> dict[str, list[float]]:
    """Each row's per-call times (ms) over ``runs`` paired rounds."""
    rows: dict[str, list[float]] = {}
    peer = _peer()
    state = tempfile.mkdtemp(prefix="cdpseq-b-")
    compileall.compile_dir(str(ROOT / "cdpseq"), quiet=1)

    async def main(url: str) -> None:
        async with launch_chromium() as chromium:
            await _open_page(chromium.endpoint, url)
            await trio.to_thread.run_sync(rounds, chromium.endpoint, chromium.port)

    def rounds(endpoint: str, port: int) -> None:
        base = {**os.environ, "CDPSEQ_STATE_DIR": state, "CDPSEQ_DAEMON_DIR": state,
                "PYTHONPATH": str(ROOT),
                "CDPSEQ_DAEMON_WAIT": "1"}
        cold = {**base, "CDPSEQ_NO_DAEMON": "1"}
        first = {name: value for name, value in base.items() if name != "CDPSEQ_DAEMON_WAIT"}
        # The console script, as a shell runs it (``python -m cdpseq`` pays for runpy besides).
        script = Path(sys.executable).with_name("cdpseq")
        cli = [str(script)] if script.exists() else [sys.executable, "-m", "cdpseq"]
        read = [*cli, "read-page", "--cdp", endpoint]
        click = [*cli, "act", "--cdp", endpoint, "--steps", "-"]
        _timed(read, base)  # the daemon starts, connects, injects: what warm reuses
        if peer:
            _timed([peer, "--cdp", str(port), "snapshot", "-i"], base)
        def first_call() -> float:
            # No daemon: the call starts one in the background and runs in-process meanwhile.
            _stop_daemons(Path(state))
            elapsed = _timed(read, first)
            _until_listening(Path(state))
            return elapsed

        for _ in range(runs):
            calls = {
                "cdpseq read-page, first": first_call,
                "cdpseq read-page, cold": lambda: _timed(read, cold),
                "cdpseq act click, cold": lambda: _timed(click, cold, CLICK),
                # Untimed: the daemon the first call started is new, and the cold processes
                # attached to the tab meanwhile; warm means the daemon served it last.
                "warm-up": lambda: _timed(read, base) + _timed(click, base, CLICK),
                "cdpseq read-page, warm": lambda: _timed(read, base),
                "cdpseq act click, warm": lambda: _timed(click, base, CLICK),
            }
            if peer:
                calls["agent-browser snapshot -i"] = lambda: _timed(
                    [peer, "--cdp", str(port), "snapshot", "-i"], base)
                calls["agent-browser click"] = lambda: _timed(
                    [peer, "--cdp", str(port), "click", "#remember"], base)
            for name, call in calls.items():
                elapsed = call()
                if name != "warm-up":
                    rows.setdefault(name, []).append(elapsed)
        _stop_daemons(Path(state))
        if peer:
            subprocess.run([peer, "close", "--all"], capture_output=True, check=False)

    with serve_fixtures() as server:  # a thread of its own: entered outside trio
        trio.run(main, server.url("/login.html"))
    if not peer:
        print("agent-browser not found: set $AGENT_BROWSER or run tools/setup --bench "
              "(tools/peers/package.json)", file=sys.stderr)
    return rows


def main() -> None:
    """Run the bench and print one row per call kind (medians) and the target ratios."""
    parser = argparse.ArgumentParser(prog="python -m tools.bench.cli_calls")
    parser.add_argument("--runs", type=int, default=10)
    rows = bench(parser.parse_args().runs)
    medians = {name: statistics.median(times) for name, times in rows.items()}
    for name, median in medians.items():
        print(f"{name:28} median {median:7.0f} ms  (min {min(rows[name]):.0f}, "
              f"max {max(rows[name]):.0f}, n={len(rows[name])})")
    for ours, theirs in (("cdpseq act click, warm", "agent-browser click"),
                         ("cdpseq read-page, warm", "agent-browser snapshot -i")):
        if theirs in medians:
            print(f"{ours} / {theirs}: {medians[ours] / medians[theirs]:.2f}×")


if __name__ == "__main__":
    main()
