"""A reader that stops reading is no error: ``cdpseq act ... | head -1`` prints no traceback,
and the exit code still says what the act did (0 done, 1 a step failed, 2 invalid)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from cdpseq import LaunchedChromium
from fixtures.server import FixtureServer
from tests.paths import ROOT

TIMEOUT = 60


def run_into_a_closed_pipe(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """``cdpseq ARGS`` with standard output a pipe whose reading end is closed before the
    command starts, so that its first write fails with EPIPE — every time, unlike ``| head``."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "cdpseq", *args], input=stdin,
                              stdout=write_end, stderr=subprocess.PIPE, timeout=TIMEOUT,
                              cwd=str(ROOT))
    finally:
        os.close(write_end)


def steps(*given: dict[str, Any]) -> bytes:
    return json.dumps(list(given)).encode()


_OK = [{"type": "navigate", "url": "/status.html"}, {"type": "read_page"}]


@pytest.mark.parametrize(("request_steps", "code", "form"), [
    (_OK, 0, "text"),
    ([{"type": "click", "selector": "#no-such-thing", "timeoutMs": 200}], 1, "json"),
    ([{"type": "teleport"}], 2, "text"),
], ids=["ok", "step-failed", "invalid"])
def test_act_into_a_closed_pipe_exits_quietly_with_its_code(
        chromium: LaunchedChromium, server: FixtureServer, request_steps: list[dict[str, Any]],
        code: int, form: str) -> None:
    request_steps = [{**step, "url": server.url(step["url"])} if "url" in step else step
                     for step in request_steps]
    done = run_into_a_closed_pipe("act", "--cdp", chromium.endpoint, "--format", form,
                                  "--steps", "-", stdin=steps(*request_steps))
    assert done.returncode == code, done.stderr
    assert done.stderr == b""


@pytest.mark.parametrize("command", [["schema"], ["read-page"]])
def test_other_commands_into_a_closed_pipe_exit_0_quietly(chromium: LaunchedChromium,
                                                          command: list[str]) -> None:
    cdp = [] if command == ["schema"] else ["--cdp", chromium.endpoint]
    done = run_into_a_closed_pipe(*command, *cdp)
    assert (done.returncode, done.stderr) == (0, b"")


def test_act_piped_into_head(chromium: LaunchedChromium, server: FixtureServer) -> None:
    """The shell's own pipeline: ``head -1`` takes the first line and exits."""
    payload = json.dumps([{"type": "navigate", "url": server.url("/big.html")},
                          {"type": "read_page"}])
    command = (f"{sys.executable} -m cdpseq act --cdp {chromium.endpoint} --format text "
               "--steps - | head -1")
    done = subprocess.run(["sh", "-c", command], input=payload.encode(), capture_output=True,
                          timeout=TIMEOUT, cwd=str(ROOT))
    assert done.returncode == 0
    assert done.stdout.decode().startswith("2/2 ok")
    assert done.stdout.count(b"\n") == 1
    assert done.stderr == b""
