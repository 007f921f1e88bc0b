"""The command line, run as a real process: launch, tabs, errors, help and version."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import cdpseq
from cdpseq import LaunchedChromium

CLI = [sys.executable, "-m", "cdpseq"]


def run(*args: str, env: dict[str, str] | None = None, timeout: float = 60
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, stdin=subprocess.DEVNULL)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_version() -> None:
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"cdpseq {cdpseq.__version__}"


@pytest.mark.daemon_free
def test_a_cli_call_does_not_import_what_only_markdown_extracts_need() -> None:
    # Every `cdpseq` call imports the package before anything else: markdownify and
    # BeautifulSoup (~90 ms) wait for the first Markdown extract.
    probe = ("import sys, cdpseq.front.cli; "
             "print(sorted(m for m in ('markdownify', 'bs4', 'soupsieve') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("command", [[], ["launch"], ["tabs"]])
def test_help_on_every_command(command: list[str]) -> None:
    result = run(*command, "--help")
    assert result.returncode == 0
    assert result.stdout.startswith("usage: cdpseq")


def test_tabs_prints_json_array(chromium: LaunchedChromium) -> None:
    result = run("tabs", "--cdp", chromium.endpoint)
    assert result.returncode == 0, result.stderr
    tabs = json.loads(result.stdout)
    assert isinstance(tabs, list) and tabs
    assert all(set(t) == {"id", "type", "url", "title", "current"} and t["type"] == "page"
               for t in tabs)
    assert [t["current"] for t in tabs].count(True) == 1


def test_cdp_defaults_to_the_environment(chromium: LaunchedChromium) -> None:
    result = run("tabs", env={"CDPSEQ_CDP": str(chromium.port)})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)


def test_unreachable_browser_exits_3_with_one_line() -> None:
    port = free_port()
    result = run("tabs", "--cdp", f"127.0.0.1:{port}")
    assert result.returncode == 3
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"127.0.0.1:{port}" in lines[0]
    assert f"--remote-debugging-port={port}" in lines[0]


def test_malformed_endpoint_exits_2() -> None:
    result = run("tabs", "--cdp", "not an endpoint")
    assert result.returncode == 2
    assert "'not an endpoint'" in result.stderr


@pytest.mark.browser
def test_launch_prints_endpoint_serves_and_cleans_up_on_interrupt() -> None:
    process = subprocess.Popen([*CLI, "launch", "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    try:
        assert process.stdout is not None and process.stderr is not None
        endpoint = process.stdout.readline().strip()
        assert endpoint.startswith("http://127.0.0.1:")
        profile = ""
        while not profile:
            line = process.stderr.readline()
            assert line, "launch ended before naming its profile"
            if line.startswith("profile: "):
                profile = line.removeprefix("profile: ").strip()
        assert Path(profile).is_dir()
        tabs = run("tabs", "--cdp", endpoint)
        assert tabs.returncode == 0 and json.loads(tabs.stdout)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert not Path(profile).exists()
    assert run("tabs", "--cdp", endpoint).returncode == 3


@pytest.mark.daemon_free
def test_launch_on_a_taken_port_is_a_clear_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("launch", "--port", str(port))  # run() bounds it: it must not serve
    assert result.returncode == 4
    assert f"port {port}" in result.stderr and "in use" in result.stderr


@pytest.mark.browser
def test_launch_on_a_fixed_port() -> None:
    port = free_port()
    process = subprocess.Popen([*CLI, "launch", "--port", str(port)], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, stdin=subprocess.DEVNULL)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == f"http://127.0.0.1:{port}"
        tabs = run("tabs", "--cdp", str(port))
        assert tabs.returncode == 0 and json.loads(tabs.stdout)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
