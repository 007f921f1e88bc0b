"""Start the browserless that ``tools/setup`` installs (tools/browserless, the npm registry's
``@browserless.io/browserless`` at the version package-lock.json pins) for tests and benchmarks.

browserless 2.x loads a route for every browser it knows and refuses to start when one has no
binary, and looks for Chromium where Playwright installs it. So ``serve_browserless`` gives it a
routes directory holding only the Chromium routes (and management), and a Playwright browsers
directory whose Chromium is a link to the system one (no browser is downloaded); it listens on
127.0.0.1 only, at a free port, with a random token, in a process group of its own that is
ended on exit. browserless launches its Chromiums with ``--no-sandbox`` itself.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "node_modules" / "@browserless.io" / "browserless"
READY_TIMEOUT = 60.0


@dataclass(frozen=True)
class Browserless:
    """A running browserless: its websocket URL with the token (``ws_url``), the URL with a
    wrong token, and where it logs."""

    port: int
    token: str
    log: Path

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/chromium?token={self.token}"

    @property
    def wrong_token_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/chromium?token=not-{self.token}"


def installed() -> bool:
    """True when tools/setup has installed browserless."""
    return (PACKAGE / "build" / "index.js").is_file()


def _system_chromium() -> str:
    found = os.environ.get("CHROME_PATH") or shutil.which("chromium") or shutil.which(
        "chromium-browser") or "/usr/bin/chromium"
    return str(Path(found).resolve()) if Path(found).exists() else found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _chromium_path(browsers: Path) -> Path:
    """Where the pinned Playwright looks for Chromium under ``browsers``."""
    script = "import('playwright-core').then(m => console.log(m.chromium.executablePath()))"
    out = subprocess.run(["node", "-e", script], cwd=HERE, check=True, capture_output=True,
                         text=True, timeout=60,
                         env={**os.environ, "PLAYWRIGHT_BROWSERS_PATH": str(browsers)})
    return Path(out.stdout.strip())


@contextmanager
def serve_browserless(*, concurrent: int = 2, queued: int = 10, timeout_ms: int = 60_000
                      ) -> Iterator[Browserless]:
    """Run browserless for the block (see the module comment): ``concurrent`` browsers at
    once, ``queued`` connections waiting, each browser closed after ``timeout_ms``."""
    if not installed():
        raise RuntimeError("browserless is not installed: run tools/setup")
    with tempfile.TemporaryDirectory(prefix="cdpseq-browserless-") as tmp:
        root = Path(tmp)
        routes = root / "routes"
        routes.mkdir()
        for kind in ("chromium", "management"):
            (routes / kind).symlink_to(PACKAGE / "build" / "routes" / kind)
        chrome = _chromium_path(root / "browsers")
        chrome.parent.mkdir(parents=True)
        chrome.symlink_to(_system_chromium())
        port, token = _free_port(), secrets.token_hex(12)
        env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "TOKEN": token,
               "CONCURRENT": str(concurrent), "QUEUED": str(queued),
               "TIMEOUT": str(timeout_ms), "ROUTES": str(routes),
               "PLAYWRIGHT_BROWSERS_PATH": str(root / "browsers"),
               "DATA_DIR": str(root / "data"), "DOWNLOAD_DIR": str(root / "downloads"),
               "METRICS_JSON_PATH": str(root / "metrics.json"),
               "DEBUG": "browserless*,-*:trace,-*:verbose"}
        (root / "data").mkdir()
        (root / "downloads").mkdir()
        log = root / "browserless.log"
        with log.open("wb") as out:
            process = subprocess.Popen(["node", str(PACKAGE / "build" / "index.js")],
                                       cwd=HERE, env=env, stdout=out, stderr=subprocess.STDOUT,
                                       start_new_session=True)
        try:
            _wait_ready(process, port, token, log)
            yield Browserless(port, token, log)
        finally:
            _stop(process)


def _wait_ready(process: subprocess.Popen[bytes], port: int, token: str, log: Path) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    url = f"http://127.0.0.1:{port}/json/version?token={token}"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"browserless exited ({process.returncode}): "
                               f"{log.read_text(errors='replace')[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                json.load(answer)
                return
        except (OSError, urllib.error.URLError, ValueError):
            time.sleep(0.2)
    raise RuntimeError(f"browserless not ready within {READY_TIMEOUT:g} s: "
                       f"{log.read_text(errors='replace')[-2000:]}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """End browserless and the Chromiums it started (its process group)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)  # any Chromium left behind
    except ProcessLookupError:
        pass
    process.wait(timeout=10)
