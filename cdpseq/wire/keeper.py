"""The managed browser's keeper: ``python -m cdpseq.wire.keeper --state-dir DIR --idle SECONDS``
(and ``--profile DIR``, ``--window-size WxH``, ``--headed`` as ``ManagedLaunch`` asks).

Started by the CLI in its own session (see ``managed``), it runs one headless Chromium through
``launch_chromium``, records it in DIR, and returns — Chromium stopped, its profile (unless
persistent) and the record removed — on SIGTERM/SIGINT/SIGHUP (``cdpseq close``), when Chromium
exits, or when no command used it for SECONDS (0: never). An idle stop is decided under the
state directory's lock, only when no command holds ``in-use``, and the record goes before the
lock is released: a command that takes the lock next starts a new browser instead of finding
this one stopping.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

import trio

from ..errors import LaunchError
from .launch import launch_chromium, parse_window_size
from .managed import (
    IN_USE,
    ManagedLaunch,
    ManagedRecord,
    last_use,
    remove_record,
    try_lock,
    unlock,
    write_record,
)


def _exited(pid: int) -> bool:
    """Whether our child ``pid`` has exited, without reaping it (its owner waits for it)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _idle_stop(directory: Path, idle: float, since: float) -> bool:
    """Whether the browser went unused for ``idle`` seconds; if so the record is removed, under
    the lock. A busy lock (a command finding the browser right now) or a command holding
    ``in-use`` means not idle."""
    if idle <= 0 or time.time() - last_use(directory, since) < idle:
        return False
    fd = try_lock(directory)
    if fd is None:
        return False
    try:
        if time.time() - last_use(directory, since) < idle:
            return False
        unused = try_lock(directory, IN_USE)
        if unused is None:
            return False
        unlock(unused)  # no command can take it again before the record is gone: `lock` is ours
        remove_record(directory, os.getpid())
        return True
    finally:
        unlock(fd)


async def _watch(record: ManagedRecord, directory: Path) -> str:
    poll = min(1.0, record.idle_timeout / 4) if record.idle_timeout > 0 else 1.0
    while True:
        await trio.sleep(poll)
        if _exited(record.pid):
            return "Chromium exited"
        if _idle_stop(directory, record.idle_timeout, record.started_at):
            return f"unused for {record.idle_timeout:g} s"


async def keep(directory: Path, idle: float, wanted: ManagedLaunch | None = None) -> None:
    """Run Chromium as ``wanted``, recorded in ``directory``, until a signal, its exit or
    idleness."""
    wanted = wanted or ManagedLaunch()
    size = wanted.window_size
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGHUP) as signals:
        async with launch_chromium(port=0, user_data_dir=wanted.profile, window_size=size,
                                   headless=not wanted.headed) as chromium:
            record = ManagedRecord(keeper_pid=os.getpid(), pid=chromium.pid, port=chromium.port,
                                   ws_url=chromium.ws_url, profile_dir=chromium.profile_dir,
                                   started_at=time.time(), idle_timeout=idle,
                                   persistent=chromium.persistent, headed=wanted.headed,
                                   window_size=f"{size[0]}x{size[1]}" if size else "")
            try:
                write_record(directory, record)
                print(f"cdpseq keeper {os.getpid()}: Chromium pid {chromium.pid} at "
                      f"{chromium.endpoint}", file=sys.stderr, flush=True)
                reason = "stopped by a signal"
                async with trio.open_nursery() as nursery:
                    async def stop_on_signal() -> None:
                        async for _ in signals:
                            nursery.cancel_scope.cancel()
                            return

                    nursery.start_soon(stop_on_signal)
                    reason = await _watch(record, directory)
                    nursery.cancel_scope.cancel()
                print(f"cdpseq keeper {os.getpid()}: {reason}; stopping Chromium",
                      file=sys.stderr, flush=True)
            finally:
                remove_record(directory, os.getpid())


def main() -> None:
    """``python -m cdpseq.wire.keeper``: parse the arguments and keep the browser."""
    parser = argparse.ArgumentParser(prog="python -m cdpseq.wire.keeper")
    parser.add_argument("--state-dir", required=True)
    parser.add_argument("--idle", type=float, required=True)
    parser.add_argument("--profile")
    parser.add_argument("--window-size", type=parse_window_size)
    parser.add_argument("--headed", action="store_true")
    args = parser.parse_args()
    wanted = ManagedLaunch(profile=args.profile, window_size=args.window_size,
                           headed=args.headed)
    with contextlib.suppress(KeyboardInterrupt):
        try:
            trio.run(keep, Path(args.state_dir), args.idle, wanted)
        except LaunchError as exc:  # the CLI shows the log's last lines: this one says it
            print(f"cdpseq keeper {os.getpid()}: {exc}", file=sys.stderr, flush=True)
            sys.exit(4)


if __name__ == "__main__":
    main()
