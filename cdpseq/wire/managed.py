"""The managed browser: one headless Chromium that cdpseq keeps alive between CLI commands.

Theory of operation. The CLI exits after each command, so something else must own the browser:
a *keeper* (``python -m cdpseq.wire.keeper``), started in its own session, runs Chromium through
``launch_chromium`` (a free port on 127.0.0.1, a fresh temporary profile), writes a record of it
into the state directory, and stops it — removing the profile and the record — on ``cdpseq
close`` (SIGTERM), when Chromium dies, or once no command used it for the idle period.

The state directory (``$CDPSEQ_STATE_DIR``, else ``$XDG_STATE_HOME/cdpseq``, else
``~/.local/state/cdpseq``) holds:

- ``browser.json``: the record (the keeper's and Chromium's pids, port, websocket URL, profile
  and whether it is persistent, window size, headed, start time), written atomically by the
  keeper once Chromium listens;
- ``lock``: an flock taken to find-or-start, to close, and by the keeper to decide an idle stop,
  so two commands started at once on a fresh machine end up with ONE browser;
- ``in-use``: every command using the browser holds a shared flock on it, taken under ``lock``
  as it finds the browser and kept until it ends; the keeper stops an idle browser only when it
  can take it exclusively, so a running command never loses its browser, however long it runs;
- ``last-use``: its mtime is when a command last found or finished with the browser;
- ``keeper.log``: the keeper's and Chromium's output, for a start that fails.

A record is trusted only when all of it still holds: the keeper runs (its command line names
this state directory), Chromium runs (its command line names the recorded profile; a reused pid
does not), and the port answers with the recorded websocket URL (whose id is new at each launch:
something else on a reused port does not). Otherwise it is stale: what is left of it is stopped
and removed, and a new keeper starts.

How it is launched (``ManagedLaunch``: a persistent profile, a window size, headed) is chosen by
the command that starts it. A later command that asks for something else than the running
browser has gets a ``LaunchError`` naming both, never the wrong browser: it is not restarted
under it, since other commands may be using it (``cdpseq close`` first). A command that asks
for nothing uses the running one, whatever it is. A persistent profile is never removed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

import msgspec
import trio

from ..errors import BrowserUnreachable, LaunchError, ProfileInUse
from .endpoint import Endpoint, discover
from .launch import check_display, kill_process_group, remove_tree
from .profile import profile_holder
from .state_dir import state_dir as state_dir  # its home before the thin client needed it light

IDLE_ENV = "CDPSEQ_IDLE_TIMEOUT"
DEFAULT_IDLE_SECONDS = 900.0
KEEPER_MODULE = "cdpseq.wire.keeper"
_RECORD = "browser.json"
_LOCK = "lock"
_LAST_USE = "last-use"
IN_USE = "in-use"
_LOG = "keeper.log"
_LOCK_WAIT = 90.0  # longer than one Chromium start (launch_chromium allows 30 s)
_START_WAIT = 45.0
_STOP_WAIT = 15.0
_ANSWER_WAIT = 10.0


class ManagedRecord(msgspec.Struct, kw_only=True, rename="camel"):
    """What the keeper writes once its Chromium listens."""

    keeper_pid: int
    pid: int
    port: int
    ws_url: str
    profile_dir: str
    started_at: float
    idle_timeout: float
    persistent: bool = False
    window_size: str = ""
    """``WxH``, or empty for Chromium's default."""
    headed: bool = False

    @property
    def endpoint(self) -> str:
        """The managed Chromium's HTTP endpoint on 127.0.0.1."""
        return f"http://127.0.0.1:{self.port}"


class ManagedLaunch(msgspec.Struct, kw_only=True, frozen=True):
    """How a command wants the managed browser launched; None/False: no wish."""

    profile: str | None = None
    """A persistent profile directory (absolute)."""
    window_size: tuple[int, int] | None = None
    headed: bool = False

    def keeper_args(self) -> list[str]:
        """These wishes as the keeper's command-line arguments."""
        return ([f"--profile={self.profile}"] if self.profile else []) \
            + ([f"--window-size={self.window_size[0]}x{self.window_size[1]}"]
               if self.window_size else []) + (["--headed"] if self.headed else [])

    def mismatch(self, record: ManagedRecord) -> str | None:
        """What differs between these wishes and the running browser, or None."""
        running = record.profile_dir if record.persistent else "a temporary profile"
        size = (f"{self.window_size[0]}x{self.window_size[1]}" if self.window_size else "")
        if self.profile is not None and self.profile != record.profile_dir:
            return f"profile {self.profile} was asked for, it runs with {running}"
        if size and size != record.window_size:
            return (f"window size {size} was asked for, it runs with "
                    f"{record.window_size or 'the default size'}")
        if self.headed and not record.headed:
            return "headed was asked for, it runs headless"
        return None


class ManagedBrowser(msgspec.Struct, kw_only=True, frozen=True):
    """The managed browser a command is to use, and whether this command started it."""

    record: ManagedRecord
    started: bool
    state_dir: str


def idle_timeout(environ: Mapping[str, str] | None = None) -> float:
    """Seconds without a command before the keeper stops the browser (0: never). Raises
    ValueError naming ``$CDPSEQ_IDLE_TIMEOUT`` for a value that is not a number >= 0."""
    raw = (os.environ if environ is None else environ).get(IDLE_ENV, "").strip()
    if not raw:
        return DEFAULT_IDLE_SECONDS
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise ValueError(f"${IDLE_ENV} must be a number of seconds >= 0 (0: never stop), "
                         f"not {raw!r}")
    return value


# -- the record, the lock, the last use ------------------------------------------------------


def read_record(directory: Path) -> ManagedRecord | None:
    """The record, or None when there is none or it is unreadable (a stale record, then)."""
    try:
        return msgspec.json.decode(Path(directory, _RECORD).read_bytes(), type=ManagedRecord)
    except (OSError, msgspec.DecodeError):
        return None


def _exists(directory: Path) -> bool:
    return directory.is_dir()


def has_record(directory: Path) -> bool:
    """Whether a record file is there (readable or not)."""
    return Path(directory, _RECORD).exists()


def write_record(directory: Path, record: ManagedRecord) -> None:
    """Write the record atomically (a reader never sees half of it)."""
    partial = Path(directory, f"{_RECORD}.{os.getpid()}")
    partial.write_bytes(msgspec.json.encode(record))
    os.replace(partial, Path(directory, _RECORD))


def remove_record(directory: Path, keeper_pid: int | None = None) -> None:
    """Remove the record (only if it is ``keeper_pid``'s, when given)."""
    if keeper_pid is not None:
        found = read_record(directory)
        if found is None or found.keeper_pid != keeper_pid:
            return
    with contextlib.suppress(FileNotFoundError):
        Path(directory, _RECORD).unlink()


def touch_last_use(directory: Path) -> None:
    """Note that a command used the managed browser now (the idle clock)."""
    path = Path(directory, _LAST_USE)
    with contextlib.suppress(OSError):
        path.touch()
        os.utime(path)


def last_use(directory: Path, default: float) -> float:
    """When a command last used the managed browser (``default`` if never noted)."""
    try:
        return Path(directory, _LAST_USE).stat().st_mtime
    except OSError:
        return default


def _prepare(directory: Path) -> None:
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise LaunchError(f"cannot create the state directory {directory}: {exc.strerror} "
                          "(set CDPSEQ_STATE_DIR)") from None


def try_lock(directory: Path, name: str = _LOCK, *, shared: bool = False) -> int | None:
    """The fd of lock file ``name``, locked now (exclusively unless ``shared``), else None."""
    fd = os.open(Path(directory, name), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def unlock(fd: int) -> None:
    """Release a lock taken by ``try_lock`` and close its file."""
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


@contextlib.asynccontextmanager
async def _locked(directory: Path) -> AsyncIterator[None]:
    """Hold the state directory's lock (polled: a blocking flock could not be cancelled)."""
    _prepare(directory)
    with trio.move_on_after(_LOCK_WAIT):
        while True:
            fd = try_lock(directory)
            if fd is not None:
                break
            await trio.sleep(0.05)
        try:
            yield
        finally:
            unlock(fd)
        return
    raise LaunchError(f"another cdpseq held {Path(directory, _LOCK)} for {_LOCK_WAIT:g} s")


# -- identity --------------------------------------------------------------------------------


def _command_line(pid: int) -> str | None:
    """The process's command line (NUL-separated arguments joined by spaces), or None when no
    such process runs (a zombie has an empty one)."""
    if pid <= 0:
        return None
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return None
    except OSError:
        raw = b""
    if not raw and not Path("/proc/self").exists():  # no procfs: trust the pid alone
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass
        return ""
    return raw.replace(b"\0", b" ").decode(errors="replace") if raw else None


def _is_keeper(pid: int, directory: Path) -> bool:
    line = _command_line(pid)
    return line is not None and (line == "" or (KEEPER_MODULE in line and str(directory) in line))


def _is_chromium(record: ManagedRecord) -> bool:
    line = _command_line(record.pid)
    return line is not None and (line == "" or f"--user-data-dir={record.profile_dir}" in line)


async def _answers(record: ManagedRecord) -> bool:
    # Generous: a Chromium that just started answers its first /json/version in seconds on a
    # loaded machine, and taking it for stale would stop a good browser and start another.
    try:
        found = await discover(Endpoint(record.endpoint, http_base=record.endpoint),
                               answer_timeout=_ANSWER_WAIT)
    except BrowserUnreachable:
        return False
    return found == record.ws_url


async def is_live(record: ManagedRecord, directory: Path) -> bool:
    """Whether the record still describes a running managed browser (see the module comment)."""
    return (_is_keeper(record.keeper_pid, directory) and _is_chromium(record)
            and await _answers(record))


# -- find or start, stop ---------------------------------------------------------------------


@contextlib.asynccontextmanager
async def use_managed_browser(directory: Path, idle: float,
                              wanted: ManagedLaunch | None = None,
                              environ: Mapping[str, str] | None = None
                              ) -> AsyncIterator[ManagedBrowser]:
    """The managed browser of ``directory`` — the live one, or a new one started now as
    ``wanted`` — kept from an idle stop until the block exits (see ``in-use`` in the module
    comment). Raises ``LaunchError`` when the live one is not as ``wanted``. A keeper started
    now gets ``environ`` (default: this process's), without its secrets."""
    wanted = wanted or ManagedLaunch()
    async with _locked(directory):
        record = read_record(directory)
        started = False
        if record is None or not await is_live(record, directory):
            if record is not None or has_record(directory):
                await _remove_remains(record, directory)
            record = await _start_keeper(directory, idle, wanted, environ)
            started = True
        differs = wanted.mismatch(record)
        if differs is not None:
            raise LaunchError(f"the managed browser (pid {record.pid}) is not the one asked "
                              f"for: {differs}; stop it with `cdpseq close` first")
        in_use = try_lock(directory, IN_USE, shared=True)  # shared locks never wait
        touch_last_use(directory)
    try:
        yield ManagedBrowser(record=record, started=started, state_dir=str(directory))
    finally:
        touch_last_use(directory)
        if in_use is not None:
            unlock(in_use)


async def close_managed_browser(directory: Path) -> ManagedRecord | None:
    """Stop the managed browser of ``directory`` and remove its profile and record; the record
    it had, or None when there was none."""
    if not _exists(directory):
        return None
    async with _locked(directory):  # a start under way finishes first, then stops
        record = read_record(directory)
        await _remove_remains(record, directory)
        return record


async def _remove_remains(record: ManagedRecord | None, directory: Path) -> None:
    """Stop the keeper (it removes its Chromium and profile), then whatever outlived it."""
    if record is not None:
        if _is_keeper(record.keeper_pid, directory):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(record.keeper_pid, signal.SIGTERM)
            with trio.move_on_after(_STOP_WAIT):
                while True:
                    if not _is_keeper(record.keeper_pid, directory):
                        break
                    await trio.sleep(0.05)
            if _is_keeper(record.keeper_pid, directory):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(record.keeper_pid, signal.SIGKILL)
        if _is_chromium(record):
            kill_process_group(record.pid)
        _remove_profile(record.profile_dir)
    remove_record(directory)


def _remove_profile(profile_dir: str) -> None:
    # Only what launch_chromium makes (<tmp>/cdpseq-XXXX/profile): a record is a file anyone
    # with access to the state directory could edit, and must not aim a removal elsewhere.
    profile = Path(profile_dir)
    if profile.name == "profile" and profile.parent.name.startswith("cdpseq-") \
            and profile.is_absolute() and ".." not in profile.parts:
        remove_tree(str(profile.parent))


async def _start_keeper(directory: Path, idle: float, wanted: ManagedLaunch,
                        environ: Mapping[str, str] | None = None) -> ManagedRecord:
    if wanted.headed:
        check_display()
    if wanted.profile is not None:  # the keeper would find out too, less plainly
        held = profile_holder(wanted.profile)
        if held is not None:
            raise ProfileInUse(wanted.profile, held[0], held[1])
    remove_record(directory)
    log_path = Path(directory, _LOG)
    command = [sys.executable, "-m", KEEPER_MODULE, "--state-dir", str(directory),
               "--idle", repr(idle), *wanted.keeper_args()]
    with open(log_path, "wb") as log_file:  # noqa: ASYNC230 - a local file, opened once
        try:
            # Popen, not trio's process: the keeper outlives this command, nobody waits for it.
            keeper = subprocess.Popen(  # noqa: ASYNC220
                command, env=_keeper_environment(environ), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=log_file, start_new_session=True,
                close_fds=True)
        except OSError as exc:
            raise LaunchError(f"could not start the browser keeper: {exc}") from None
    with trio.move_on_after(_START_WAIT):
        while True:
            record = read_record(directory)
            if record is not None and record.keeper_pid == keeper.pid:
                return record
            if keeper.poll() is not None:
                raise LaunchError(f"the managed browser did not start (keeper exit code "
                                  f"{keeper.returncode}):\n{_log_tail(log_path)}")
            await trio.sleep(0.05)
    keeper.terminate()
    raise LaunchError(f"the managed browser did not start within {_START_WAIT:g} s:\n"
                      f"{_log_tail(log_path)}")


def _keeper_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """``environ`` (default: this one) without secrets — the keeper outlives the command whose
    secrets they are — and with this very cdpseq first on the keeper's import path (the CLI may
    run from a checkout that the interpreter would not find from another directory)."""
    env = os.environ if environ is None else environ
    here = str(Path(__file__).resolve().parent.parent.parent)
    path = env.get("PYTHONPATH")
    return {**{name: value for name, value in env.items()
               if not name.startswith("CDPSEQ_SECRET_")},
            "PYTHONPATH": here + (os.pathsep + path if path else "")}


def _log_tail(path: Path) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").strip().splitlines()[-8:])
    except OSError:
        return ""


def describe(managed: ManagedBrowser) -> str:
    """The one line a command prints on stderr about the managed browser it uses."""
    record = managed.record
    idle = (f"stops after {record.idle_timeout:g} s unused or on `cdpseq close`"
            if record.idle_timeout > 0 else "stops on `cdpseq close`")
    if managed.started:
        mode = "headed" if record.headed else "headless"
        kept = "persistent " if record.persistent else ""
        return (f"started a managed {mode} Chromium at {record.endpoint} (pid {record.pid}, "
                f"{kept}profile {record.profile_dir}; {idle})")
    age = time.time() - record.started_at
    return (f"using the managed Chromium at {record.endpoint} (pid {record.pid}, up "
            f"{age:.0f} s; {idle})")
