"""What the benchmark scripts of tools/bench/ share, once: order statistics, the tree a number
belongs to, evaluating in a tab, and the Playwright peer — its launch settings, and both ends of
the line protocol a script speaks with its peer worker subprocess (asyncio, since trio and
asyncio cannot share a loop)."""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import json
import subprocess
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import trio

import cdpseq
from cdpseq import Tab
from cdpseq.cdp import runtime

ROOT = Path(__file__).resolve().parents[2]
"""The checkout."""

# The peer's own Chromium, where a script launches one through Playwright (the same binary).
CHROMIUM = "/usr/bin/chromium"
PEER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PEER_TIMEOUT = 300.0


# -- statistics -------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty sequence."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return float(ordered[rank - 1])


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    n = len(ordered)
    mid = n // 2
    return float(ordered[mid]) if n % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def summary_ms(samples_ms: Sequence[float], digits: int = 2) -> dict[str, Any]:
    """n, median, p90, min and max of samples in ms, rounded to ``digits``."""
    if not samples_ms:
        return {"n": 0}
    return {
        "n": len(samples_ms),
        "median_ms": round(median(samples_ms), digits),
        "p90_ms": round(percentile(samples_ms, 90), digits),
        "min_ms": round(min(samples_ms), digits),
        "max_ms": round(max(samples_ms), digits),
    }


def cell(value: float | None, spec: str = ".1f") -> str:
    """A table cell: the value formatted, or a dash for none."""
    return "—" if value is None else format(value, spec)


# -- the tree measured ------------------------------------------------------------------------


def tree_state() -> dict[str, Any]:
    """The commit measured, and which files of the package differ from it (others edit the
    tree while benchmarks run, so a number belongs to a tree state)."""
    package = Path(cdpseq.__file__).resolve().parent
    digest = hashlib.sha1()
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".js") and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    source = {"package": str(package), "source_sha1": digest.hexdigest()[:12]}
    if package != ROOT / "cdpseq":
        return {"head": None, "package_changes": [], **source}

    def git(*argv: str) -> str:
        try:
            return subprocess.run(["git", *argv], cwd=ROOT, capture_output=True, text=True,
                                  timeout=10).stdout
        except (OSError, subprocess.SubprocessError):
            return ""
    changed = [line[3:] for line in git("status", "--porcelain", "--", "cdpseq").splitlines()]
    return {"head": git("rev-parse", "--short", "HEAD").strip() or None,
            "package_changes": changed, **source}


def tree_line(tree: dict[str, Any]) -> str:
    """What ``tree_state`` found, in one line for a table's head."""
    if tree["head"] is None:
        return f"cdpseq from {tree['package']} (not this checkout), source {tree['source_sha1']}"
    return (f"tree: {tree['head']}" + (f" + uncommitted {', '.join(tree['package_changes'])}"
                                       if tree["package_changes"] else " (package as committed)")
            + f"; source {tree['source_sha1']}")


# -- the cdpseq side --------------------------------------------------------------------------


async def evaluate(tab: Tab, expression: str) -> Any:
    """``expression``'s value in the tab's main world; a thrown exception is a RuntimeError."""
    result = await tab.send(runtime.Evaluate(expression=expression, returnByValue=True))
    if result.exceptionDetails is not None:
        raise RuntimeError(f"{expression[:60]}: {result.exceptionDetails.text}")
    return result.result.value


# -- the peer ---------------------------------------------------------------------------------


def peer_note(no_peer: bool) -> str | None:
    """Why the Playwright peer does not run, or None when it does."""
    if no_peer:
        return "peer skipped (--no-peer)"
    if importlib.util.find_spec("playwright") is None:
        return ("peer absent: playwright is not importable (pip install 'cdpseq[bench]'; "
                "no 'playwright install' needed)")
    return None


class Peer:
    """A peer worker subprocess, seen from the script: one JSON request line in, one JSON answer
    line out (the worker's end is ``serve_requests``)."""

    def __init__(self, process: trio.Process) -> None:
        self.process = process
        self._buffer = bytearray()

    @classmethod
    async def start(cls, command: list[str]) -> Peer:
        process = await trio.lowlevel.open_process(command, stdin=subprocess.PIPE,
                                                   stdout=subprocess.PIPE)
        return cls(process)

    async def _line(self) -> bytes:
        assert self.process.stdout is not None
        while b"\n" not in self._buffer:
            chunk = await self.process.stdout.receive_some(65536)
            if not chunk:
                raise RuntimeError("the Playwright worker exited (see its stderr above)")
            self._buffer += chunk
        line, _, rest = bytes(self._buffer).partition(b"\n")
        self._buffer = bytearray(rest)
        return line

    async def request(self, **message: Any) -> dict[str, Any]:
        """Send ``message`` (nothing: only read the next answer) and return the answer."""
        assert self.process.stdin is not None
        with trio.fail_after(PEER_TIMEOUT):
            if message:
                await self.process.stdin.send_all(json.dumps(message).encode() + b"\n")
            answer: dict[str, Any] = json.loads(await self._line())
        if "error" in answer:
            raise RuntimeError(f"Playwright worker: {answer['error']}")
        return answer

    async def times(self, case: str, n: int, gap: float = 0.0) -> list[float]:
        return list((await self.request(op="time", case=case, n=n, gap=gap))["ms"])

    async def close(self) -> None:
        try:
            with trio.move_on_after(20):
                await self.request(op="quit")
                await self.process.wait()
        except (RuntimeError, trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()


def answer(message: dict[str, Any]) -> None:
    """The worker's answer: one JSON line on stdout."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def serve_requests(handle: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
                         ) -> None:
    """The worker's end of ``Peer``: each stdin line a request, answered by ``handle``, until
    ``{"op": "quit"}`` or the end of input. A request that fails is answered with its error,
    and the worker keeps serving."""
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            return
        try:
            request = json.loads(line)
            if request["op"] == "quit":
                answer({"ok": True})
                return
            answer(await handle(request))
        except Exception as exc:  # report, keep serving
            answer({"error": f"{type(exc).__name__}: {exc}"})
