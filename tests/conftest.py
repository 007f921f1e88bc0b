"""Shared test infrastructure: one real Chromium per test session, one real fixture server.

Chromium is started synchronously (pytest-trio runs a fresh trio loop per test, so a
session-scoped resource cannot live inside one) with the same command line and cleanup as
``cdpseq.launch``. Each test gets its own connection (``browser``) and its own tab (``tab``).
The ``browser`` and ``slow`` marks, and the guard that a browser-free run starts no Chromium,
are in ``tests/markers.py``.
"""

from __future__ import annotations

import compileall
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the fixtures package


def compile_bytecode() -> None:
    """Compile the checkout's Python that the tests' processes import (the package, the fixture
    server, the bench) as pip's install does, before any test starts one. With
    ``PYTHONDONTWRITEBYTECODE`` set (some sandboxes set it) no process writes a ``.pyc``, so
    every ``python -m cdpseq`` run in-process, every MCP server and every daemon compiled the
    whole package again: ~0.5 s of CPU each, which an installed cdpseq never pays. Files whose
    bytecode is up to date are only looked at (a few ms)."""
    for folder in ("cdpseq", "tools/bench"):
        compileall.compile_dir(str(ROOT / folder), quiet=1)
    for script in ("fixtures/__init__.py", "fixtures/server.py", "tools/soak.py"):
        compileall.compile_file(str(ROOT / script), quiet=1)


compile_bytecode()
# This process keeps the bytecode of what it imports from here on too: the test modules,
# rewritten by pytest's assertions, cost ~8 s of CPU to collect when compiled in every run.
sys.dont_write_bytecode = False

from cdpseq import Browser, LaunchedChromium, Tab, open_browser  # noqa: E402
from cdpseq.wire.launch import (  # noqa: E402
    chromium_command,
    find_chromium,
    kill_process_group,
    read_active_port,
    remove_tree,
    stop_process_group,
)
from fixtures.server import FixtureServer, serve_fixtures  # noqa: E402

pytest_plugins = ["tests.markers"]


def start_chromium(root: str) -> tuple[subprocess.Popen[bytes], LaunchedChromium]:
    profile = os.path.join(root, "profile")
    log = open(os.path.join(root, "chromium.log"), "wb")  # noqa: SIM115 - lives with the process
    process = subprocess.Popen(
        chromium_command(find_chromium(), port=0, profile_dir=profile),
        stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
    deadline = time.monotonic() + 30
    while (active := read_active_port(profile)) is None:
        if process.poll() is not None or time.monotonic() > deadline:
            stop_chromium(process, root)
            raise RuntimeError("Chromium did not start: "
                               + Path(root, "chromium.log").read_text(errors="replace")[-2000:])
        time.sleep(0.02)
    port, path = active
    return process, LaunchedChromium(endpoint=f"http://127.0.0.1:{port}",
                                     ws_url=f"ws://127.0.0.1:{port}{path}", port=port,
                                     pid=process.pid, profile_dir=profile)


def stop_chromium(process: subprocess.Popen[bytes], root: str) -> None:
    stop_process_group(process)
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        pass
    kill_process_group(process.pid)
    process.wait(5)
    remove_tree(root)


# -- the CLI's two paths: through its daemon (front/daemon) and in-process -----------------------

CLI_MODULES = {f"tests.front.{name}" for name in (
    "test_allow_evaluate", "test_cli_act", "test_cli_core", "test_cli_embedded",
    "test_cli_emulate", "test_cli_load", "test_cli_pipe", "test_observe_doors",
    "test_unknown_tab", "test_url_policy_doors")}
"""The modules whose tests run the ``cdpseq`` command: each runs once per ``cli_mode``, but for
those marked ``daemon_free`` (tests/markers.py). Not tests/front/test_pool.py: ``cdpseq pool``
always runs in its own process (``client.IN_PROCESS``), so both modes ran the same code."""


@pytest.fixture(scope="session", autouse=True)
def cli_daemons(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every ``cdpseq`` process of the session goes through a daemon (even the first call:
    ``$CDPSEQ_DAEMON_WAIT``) whose socket is in this session's daemon directory (short, under
    /tmp: a socket path has ~100 bytes), and which ends after 60 s unused; at the end every
    daemon there is asked to stop. Calls with no state directory of their own get the session's."""
    base = Path(tempfile.mkdtemp(prefix="cdpseq-t-"))
    saved = {name: os.environ.get(name) for name in
             ("CDPSEQ_STATE_DIR", "CDPSEQ_DAEMON_DIR", "CDPSEQ_DAEMON_WAIT",
              "CDPSEQ_DAEMON_IDLE_TIMEOUT")}
    os.environ.update(CDPSEQ_STATE_DIR=str(tmp_path_factory.mktemp("state")),
                      CDPSEQ_DAEMON_DIR=str(base), CDPSEQ_DAEMON_WAIT="1",
                      CDPSEQ_DAEMON_IDLE_TIMEOUT="60")
    try:
        yield base
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        for sock in base.glob("daemon-*.sock"):
            stop_daemon(sock)
        # Each daemon removes its socket as it goes; then the directory (and its log) goes too.
        deadline = time.monotonic() + 10
        while any(base.glob("daemon-*.sock")) and time.monotonic() < deadline:
            time.sleep(0.1)
        shutil.rmtree(base, ignore_errors=True)


def stop_daemon(sock: Path) -> None:
    """Ask the CLI daemon listening at ``sock`` to stop (a QUIT frame, as a newer one does)."""
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(2)
        try:
            probe.connect(str(sock))
            probe.sendall(b"\0\0\0\0Q")
        except OSError:
            pass


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if ("cli_mode" in metafunc.fixturenames and metafunc.module.__name__ in CLI_MODULES
            and metafunc.definition.get_closest_marker("daemon_free") is None):
        metafunc.parametrize("cli_mode", ["daemon", "in-process"], indirect=True)


@pytest.fixture(autouse=True)
def cli_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """How this test's ``cdpseq`` processes run: ``daemon`` (the default) or ``in-process``
    (``$CDPSEQ_NO_DAEMON``)."""
    mode: str = getattr(request, "param", "daemon")
    if mode == "in-process":
        monkeypatch.setenv("CDPSEQ_NO_DAEMON", "1")
    else:
        monkeypatch.delenv("CDPSEQ_NO_DAEMON", raising=False)
    return mode


@pytest.fixture(scope="session")
def chromium() -> Iterator[LaunchedChromium]:
    root = tempfile.mkdtemp(prefix="cdpseq-test-")
    process, launched = start_chromium(root)
    try:
        yield launched
    finally:
        stop_chromium(process, root)


@pytest.fixture(scope="session")
def server() -> Iterator[FixtureServer]:
    with serve_fixtures() as running:
        yield running


@pytest.fixture
async def browser(chromium: LaunchedChromium) -> AsyncIterator[Browser]:
    async with open_browser(chromium.ws_url) as connected:
        yield connected


@pytest.fixture
async def tab(browser: Browser) -> AsyncIterator[Tab]:
    opened = await browser.new_tab()
    try:
        yield opened
    finally:
        if opened.closed is None and not browser.connection.closed:
            await browser.close_tab(opened.id)
