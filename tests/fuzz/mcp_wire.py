"""A raw MCP client: JSON-RPC lines written to ``cdpseq mcp``'s stdin byte for byte.

The SDK's client cannot send what a hostile client can (it refuses lone surrogates, NaN, deep
nesting before they leave), so the fuzz tests write the lines themselves. After each request
the client sends a ``ping``: the ping's answer proves the server still serves, and bounds the
wait for an answer to the request, which the server may rightly skip when the line is not JSON
at all (it has no id to answer).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import trio

from tests.fuzz.checks import dumps
from tests.paths import ROOT


class RawMcp:
    def __init__(self, process: trio.Process, log_path: Path) -> None:
        self.process = process
        self.log_path = log_path
        self._buffer = bytearray()
        self._next_id = 0

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    async def send_line(self, line: bytes) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.send_all(line + b"\n")

    async def _message(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        while b"\n" not in self._buffer:
            chunk = await self.process.stdout.receive_some()
            assert chunk, f"the server closed its stdout; its log:\n{self.log()[-3000:]}"
            self._buffer.extend(chunk)
        line, _, rest = bytes(self._buffer).partition(b"\n")
        self._buffer[:] = rest
        message: dict[str, Any] = json.loads(line)
        return message

    async def exchange(self, method: str, params: Any) -> dict[str, Any] | None:
        """Send one request (``params`` written by ``dumps``: NaN, lone surrogates and any
        nesting as they are) and wait for its answer; then a ping, which must be answered.

        A line that is not a JSON object with an id has nothing to answer: then only the ping
        is waited for, and the answer is None."""
        self._next_id += 2
        asked, pinged = self._next_id, self._next_id + 1
        line = (f'{{"jsonrpc":"2.0","id":{asked},"method":{json.dumps(method)},'
                f'"params":{dumps(params)}}}').encode("utf-8", "surrogatepass")
        await self.send_line(line)
        answer = None
        if parses(line):  # the server will answer it, however long the tool takes
            answer = await self._answer(asked)
        await self.send_line(json.dumps({"jsonrpc": "2.0", "id": pinged,
                                         "method": "ping"}).encode())
        while True:
            message = await self._message()
            if message.get("id") == asked:
                answer = message
            elif message.get("id") == pinged:
                assert message.get("result") == {}, message
                return answer

    async def _answer(self, request_id: int) -> dict[str, Any]:
        while True:
            message = await self._message()
            if message.get("id") == request_id:
                return message


def parses(line: bytes) -> bool:
    """Whether the server answers ``line``: a JSON object (read as Python reads JSON, after
    UTF-8 decoding that replaces what is not UTF-8) with an integer or string ``id``."""
    try:
        message = json.loads(line.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return False
    request_id = message.get("id") if isinstance(message, dict) else None
    return isinstance(request_id, str) or (isinstance(request_id, int)
                                          and not isinstance(request_id, bool))


@asynccontextmanager
async def raw_mcp(tmp_path: Path, *args: str) -> AsyncIterator[RawMcp]:
    """``cdpseq mcp ARGS``, initialized, its stderr in ``tmp_path/raw-mcp.log``; closed (stdin
    closed, the process awaited) at the end."""
    log_path = tmp_path / "raw-mcp.log"
    env = {**os.environ, "CDPSEQ_STATE_DIR": str(tmp_path / "state"),
           "PYTHONIOENCODING": "utf-8"}
    with open(log_path, "w") as errlog:  # noqa: ASYNC230 - a local file, opened once
        process = await trio.lowlevel.open_process(
            [sys.executable, "-m", "cdpseq", "mcp", "--structured", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=errlog, env=env, cwd=str(ROOT))
        client = RawMcp(process, log_path)
        try:
            answer = await client.exchange("initialize", {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "fuzz", "version": "0"}})
            assert answer is not None and "result" in answer, answer
            await client.send_line(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
            yield client
        finally:
            assert process.stdin is not None
            await process.stdin.aclose()
            with trio.move_on_after(15):
                await process.wait()
            if process.returncode is None:
                process.kill()
                await process.wait()
