"""The ``cdpseq`` command: a thin client of the CLI daemon (``front/daemon``), else the CLI itself.

A call goes to the daemon of this cdpseq (its socket ``daemon-<identity>.sock`` in the daemon
directory, ``daemon_dir``) as one framed request — the arguments, the directory, the
environment the CLI reads, whether stdout is a terminal, and standard input when an argument is
``-`` — and the daemon answers with the call's stdout and stderr bytes and its exit code, which
the client writes and exits with. When no daemon answers, the client starts one in the background
and runs this call itself (``cli.run``), so a cold call costs what it did before the daemon.

In the client's process always (``IN_PROCESS``): ``launch`` and ``mcp``, which are long-running
servers of their own, ``close``, and ``pool``, which opens its own connections anyway (no warm
state to reuse); everything when ``$CDPSEQ_NO_DAEMON`` is set (not empty or
``0``). Ctrl-C closes the socket, which cancels the call in the daemon; the client exits 130.

The frame: a 4-byte big-endian length, one byte of kind, the payload (``REQUEST``: a
``CallRequest``, NUL-separated fields;
``ACCEPTED``: empty, the call runs — a daemon that closes before it is going, and the client
runs the call itself; ``STDOUT``/``STDERR``: bytes; ``EXIT``: the code in ASCII; ``QUIT``:
empty, a newer daemon asking an older one to go). This module is what every call pays for: it
imports ``os``, ``sys`` and the C socket module, nothing else (tests/front/test_client.py).
"""

import os
import sys

# The private C module under ``socket``: the public one imports enum and selectors, ~5 ms on a
# small machine, which every call would pay for the four methods used here.
from _socket import AF_UNIX, SOCK_STREAM
from _socket import socket as _unix_socket

TYPE_CHECKING = False  # not ``typing``'s: importing typing costs a call ~10 ms; nor
# ``from __future__ import annotations`` (its module, ~0.3 ms): the hints it needs are quoted
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import NoReturn

NO_DAEMON_ENV = "CDPSEQ_NO_DAEMON"
DAEMON_IDLE_ENV = "CDPSEQ_DAEMON_IDLE_TIMEOUT"
DAEMON_DIR_ENV = "CDPSEQ_DAEMON_DIR"
DAEMON_WAIT_ENV = "CDPSEQ_DAEMON_WAIT"
"""Set (not empty or ``0``): a cold call waits for the daemon it starts and goes through it,
instead of running in-process (the tests' way to send every call through the daemon)."""
DEFAULT_DAEMON_IDLE = 600.0
IN_PROCESS = frozenset({"launch", "mcp", "close", "pool"})
FORWARDED = ("CHROME_PATH", "HOME", "PATH", "PYTHONPATH", "TMPDIR", "XDG_RUNTIME_DIR",
             "XDG_STATE_HOME")
"""The environment a call sends besides every ``CDPSEQ_*`` variable (secrets included): what the
CLI and the keeper it may start read."""

REQUEST, ACCEPTED, STDOUT, STDERR, EXIT, QUIT = b"R", b"A", b"1", b"2", b"X", b"Q"
_HEADER_SIZE = 5
_MAX_FRAME = 1 << 30
_CONNECT_WAIT = 2.0
_START_WAIT = 20.0
_REQUEST_VERSION = b"cdpseq-call-1"

PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def identity() -> str:
    """What names this cdpseq's daemon: the interpreter, where the package is, and every one of
    its files' size and modification time — another version or install never shares it."""
    names, folders = [sys.executable, PACKAGE], [PACKAGE]
    stamps: list[int] = []
    while folders:  # os.scandir rather than os.walk and a stat per path: ~0.5 ms of each call
        with os.scandir(folders.pop()) as found:
            entries = sorted(found, key=lambda entry: entry.name)
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    folders.append(entry.path)
                continue
            stat = entry.stat()
            names.append(entry.path)
            stamps += (stat.st_size, stat.st_mtime_ns)
    # Tuples of ints hash the same in every process (unlike str, whose hash is salted), in C and
    # without hashlib (whose OpenSSL costs a call several ms); it names, it protects nothing.
    material = "\0".join(names).encode("utf-8", "surrogateescape")
    return f"{hash((tuple(material), tuple(stamps))) & (2**64 - 1):016x}"


def daemon_dir(environ: "Mapping[str, str]") -> str:
    """Where the daemons' sockets and log are: ``$CDPSEQ_DAEMON_DIR``, else
    ``$XDG_RUNTIME_DIR/cdpseq``, else ``cdpseq-<uid>`` in the temporary directory. Not the state
    directory: a call on a ``--cdp`` browser writes nothing there, as before the daemon."""
    if environ.get(DAEMON_DIR_ENV):
        return os.path.abspath(environ[DAEMON_DIR_ENV])
    if environ.get("XDG_RUNTIME_DIR"):
        return os.path.join(environ["XDG_RUNTIME_DIR"], "cdpseq")
    return os.path.join(environ.get("TMPDIR") or "/tmp", f"cdpseq-{os.getuid()}")


def socket_path(environ: "Mapping[str, str]", ident: str) -> str:
    """The socket of the daemon ``ident`` for a call with ``environ``."""
    return os.path.join(daemon_dir(environ), f"daemon-{ident}.sock")


def _private(directory: str) -> bool:
    """Whether ``directory`` is ours and closed to others (a shared /tmp could hold another
    user's): else no daemon, the call runs in-process."""
    try:
        found = os.stat(directory)
    except FileNotFoundError:
        return True  # the daemon makes it, 0700
    except OSError:
        return False
    return found.st_uid == os.getuid() and found.st_mode & 0o077 == 0


def daemon_idle(environ: "Mapping[str, str]") -> float | None:
    """``$CDPSEQ_DAEMON_IDLE_TIMEOUT`` (seconds > 0), the default when unset, None when it is
    not a number > 0 (then no daemon: the call runs in-process and the CLI is as before)."""
    raw = environ.get(DAEMON_IDLE_ENV, "").strip()
    if not raw:
        return DEFAULT_DAEMON_IDLE
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if 0 < value < float("inf") else None


def forwarded_environment(environ: "Mapping[str, str]") -> dict[str, str]:
    """The part of ``environ`` a call sends (see ``FORWARDED``)."""
    return {name: value for name, value in environ.items()
            if name.startswith("CDPSEQ_") or name in FORWARDED}


class CallRequest:
    """One call as the client sends it: its arguments, directory, environment (see
    ``forwarded_environment``), whether its stdout is a terminal, and its standard input."""

    __slots__ = ("argv", "cwd", "env", "stdin", "tty")

    def __init__(self, argv: list[str], cwd: str, env: dict[str, str], tty: bool,
                 stdin: bytes) -> None:
        self.argv, self.cwd, self.env, self.tty, self.stdin = argv, cwd, env, tty, stdin

    def encode(self) -> bytes:
        """The ``REQUEST`` payload: NUL-separated fields (no argument, path or environment
        entry can hold a NUL), counts before the lists, standard input last, as it is."""
        fields = [_REQUEST_VERSION, os.fsencode(self.cwd), b"1" if self.tty else b"0",
                  str(len(self.argv)).encode(), *map(os.fsencode, self.argv),
                  str(len(self.env)).encode(),
                  *(os.fsencode(f"{name}={value}") for name, value in self.env.items())]
        return b"\0".join([*fields, self.stdin])

    @classmethod
    def decode(cls, payload: bytes) -> "CallRequest":
        """The request ``encode`` made; ValueError for anything else."""
        version, cwd, tty, count, rest = payload.split(b"\0", 4)
        if version != _REQUEST_VERSION:
            raise ValueError("not a request of this cdpseq")
        argv, rest = _fields(rest, int(count))
        count_env, rest = rest.split(b"\0", 1)
        env, stdin = _fields(rest, int(count_env))
        return cls([os.fsdecode(arg) for arg in argv], os.fsdecode(cwd),
                   dict(os.fsdecode(entry).split("=", 1) for entry in env), tty == b"1", stdin)


def _fields(data: bytes, count: int) -> tuple[list[bytes], bytes]:
    """``count`` NUL-terminated fields from the start of ``data``, and what follows them."""
    if count < 0:
        raise ValueError("a negative count")
    *found, rest = data.split(b"\0", count) if count else (data,)
    if len(found) != count:
        raise ValueError("fewer fields than counted")
    return found, rest


def write_frame(sock: _unix_socket, kind: bytes, payload: bytes = b"") -> None:
    """Send one frame."""
    sock.sendall(len(payload).to_bytes(4, "big") + kind + payload)


def _receive_exactly(sock: _unix_socket, size: int) -> bytes | None:
    parts, left = [], size
    while left:
        part = sock.recv(min(left, 1 << 16))
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def read_frame(sock: _unix_socket) -> tuple[bytes, bytes] | None:
    """The next frame's kind and payload; None at the end of the stream."""
    header = _receive_exactly(sock, _HEADER_SIZE)
    if header is None:
        return None
    size, kind = int.from_bytes(header[:4], "big"), header[4:]
    if size > _MAX_FRAME:
        raise ValueError(f"a frame of {size} bytes")
    payload = _receive_exactly(sock, size)
    return None if payload is None else (kind, payload)


def _command(argv: list[str]) -> str | None:
    return next((arg for arg in argv if not arg.startswith("-")), None)


def _wants_stdin(argv: list[str]) -> bool:
    return any(arg == "-" or arg.endswith("=-") for arg in argv)


def _connect(path: str) -> _unix_socket | None:
    sock = _unix_socket(AF_UNIX, SOCK_STREAM)
    sock.settimeout(_CONNECT_WAIT)
    try:
        sock.connect(path)
    except OSError:
        sock.close()
        return None
    sock.settimeout(None)
    return sock


def _start_daemon(environ: "Mapping[str, str]", path: str, idle: float) -> None:
    """Start the daemon for ``path`` in its own session, with the environment it needs and no
    secret; it answers from the next call on."""
    import subprocess  # only on a cold call

    directory = os.path.dirname(path)
    os.makedirs(directory, mode=0o700, exist_ok=True)
    root = os.path.dirname(PACKAGE)
    env = {name: value for name, value in environ.items()
           if not name.startswith("CDPSEQ_SECRET_")}
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    with open(os.path.join(directory, "daemon.log"), "ab") as log:
        subprocess.Popen(
            [sys.executable, "-m", "cdpseq.front.daemon", "--socket", path,
             "--idle", repr(idle)], env=env, cwd="/", stdin=subprocess.DEVNULL, stdout=log,
            stderr=log, start_new_session=True, close_fds=True)


def _wait_for(path: str) -> _unix_socket | None:
    """A connection to the daemon starting at ``path``, once it listens (None after a bound)."""
    import time

    deadline = time.monotonic() + _START_WAIT
    while time.monotonic() < deadline:
        if os.path.exists(path) and (sock := _connect(path)) is not None:
            return sock
        time.sleep(0.02)
    return None


def _write(fd: int, data: bytes) -> bool:
    """Write ``data`` to ``fd``; False once its reader has gone (the rest is dropped, as
    ``cli`` does)."""
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except BrokenPipeError:
        return False
    return True


def call_daemon(sock: _unix_socket, argv: list[str], environ: "Mapping[str, str]"
                ) -> int | None:
    """Hand one call to the daemon on ``sock``; its exit code, or None when the daemon closed
    before it accepted the call (it was going: the call did not start)."""
    request = CallRequest(argv, os.getcwd(), forwarded_environment(environ), os.isatty(1),
                          sys.stdin.buffer.read() if _wants_stdin(argv) else b"")
    write_frame(sock, REQUEST, request.encode())
    first = read_frame(sock)
    if first is None or first[0] != ACCEPTED:
        return None
    open_fds = {STDOUT: True, STDERR: True}
    while (frame := read_frame(sock)) is not None:
        kind, payload = frame
        if kind == EXIT:
            return int(payload)
        if kind in open_fds and open_fds[kind]:
            open_fds[kind] = _write(1 if kind == STDOUT else 2, payload)
    _write(2, b"cdpseq: the daemon ended during the call (see daemon.log in the state "
              b"directory); run it again, or with CDPSEQ_NO_DAEMON=1\n")
    return 1


def main() -> "NoReturn":
    """The ``cdpseq`` console script: the call through the daemon, else in this process."""
    argv, environ = sys.argv[1:], os.environ
    idle = daemon_idle(environ)
    if (environ.get(NO_DAEMON_ENV, "") not in ("", "0") or idle is None
            or _command(argv) in IN_PROCESS):
        _in_process()
    path = socket_path(environ, identity())
    if not _private(os.path.dirname(path)):
        _in_process()
    sock = _connect(path)
    if sock is None:
        try:
            _start_daemon(environ, path, idle)
        except OSError:
            _in_process()  # no daemon: this call and the next run in-process, as before
        if environ.get(DAEMON_WAIT_ENV, "") in ("", "0"):
            _in_process()
        sock = _wait_for(path)
        if sock is None:
            _in_process()
    try:
        code = call_daemon(sock, argv, environ)
    except KeyboardInterrupt:
        code = 130  # the socket is closed: the daemon cancels the call
    finally:
        sock.close()
    if code is None:
        _in_process()
    sys.exit(code)


def _in_process() -> "NoReturn":
    # The command starts Python without `site` (bin/cdpseq): the CLI's dependencies are found
    # through it, as in any Python.
    if sys.flags.no_site:
        __import__("site").main()
    # By name, where it is needed: the import-linter contract that the client imports nothing
    # heavy (pyproject.toml) holds for everything a warm call loads.
    __import__("cdpseq.front.cli")
    sys.modules["cdpseq.front.cli"].main()
    raise AssertionError("cli.main exits")
