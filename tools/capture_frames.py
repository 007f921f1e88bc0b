"""Record real CDP traffic from a headless Chromium into ``tests/data/captured_frames.jsonl``.

Usage::

    python tools/capture_frames.py [--chromium /usr/bin/chromium] [--out PATH]

The script starts Chromium with a throwaway profile, serves a few small pages from a temporary
directory on ``127.0.0.1`` (a form, an iframe, a fetch, a ``pushState``, console output, a
redirect, a failing request, an uncaught exception), drives one flat-session page through them
with plain ``trio_websocket`` and writes every frame it receives as one JSON line::

    {"method": ..., "kind": "event"|"response", "sessionId": ..., "data": <frame as received>}

``method`` is the event method, or for a response the method of the command it answers.
Responses larger than 300 kB are not recorded (the calls that can be big run on small pages, so
every method still gets recorded once). The browser, its profile and the page directory are
removed on exit, including on error or Ctrl-C. The output file is only replaced on success.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import trio
from trio_websocket import WebSocketConnection, open_websocket_url

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "data" / "captured_frames.jsonl"
MAX_RESPONSE = 300 * 1024
TIMEOUT = 20.0

PAGES = {
    "index.html": """<!doctype html>
<html><head><meta charset="utf-8"><title>cdpseq capture: index</title>
<style>body { font: 14px sans-serif } .hidden { display: none }</style></head>
<body>
<h1 id="title">Sign up</h1>
<form id="signup" action="/page2.html" method="get">
  <label for="name">Name</label> <input id="name" name="name" value="">
  <label for="plan">Plan</label>
  <select id="plan" name="plan"><option>free</option><option>pro</option></select>
  <label><input type="checkbox" name="tos"> I agree</label>
  <button type="submit">Send</button>
</form>
<p><a href="/redirect">go via redirect</a></p>
<iframe id="child" src="/frame.html" title="child frame" width="300" height="80"></iframe>
<ul id="list"><li>one</li><li>two</li></ul>
<script>
console.log("index loaded", {answer: 42});
fetch("/data.json").then(r => r.json()).then(d => {
  document.getElementById("title").dataset.loaded = d.items.length;
  history.pushState({step: 1}, "", "/index.html#step1");
});
</script>
</body></html>
""",
    "frame.html": """<!doctype html>
<html><head><meta charset="utf-8"><title>child</title></head>
<body><p>inside the iframe</p><button onclick="console.info('clicked')">press</button>
<script>console.debug("frame says hi");</script></body></html>
""",
    "page2.html": """<!doctype html>
<html><head><meta charset="utf-8"><title>cdpseq capture: page2</title></head>
<body><h1>Page two</h1><p id="out">waiting</p>
<img src="/missing.png" alt="missing image">
<script>
console.warn("page2 warning");
document.getElementById("out").textContent = location.search || "no query";
fetch("http://127.0.0.1:1/unreachable").catch(e => console.error("fetch failed", String(e)));
setTimeout(() => { throw new Error("deliberate uncaught error"); }, 0);
</script>
</body></html>
""",
    "data.json": json.dumps({"items": [1, 2, 3], "ok": True}) + "\n",
}


# --------------------------------------------------------------------------- local resources


class _Handler(http.server.SimpleHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        if self.path.startswith("/redirect"):
            self.send_response(302)
            self.send_header("Location", "/page2.html?via=redirect")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - base signature
        pass


@contextmanager
def serve_pages() -> Iterator[str]:
    site = tempfile.mkdtemp(prefix="cdpseq-capture-site-")
    server: http.server.ThreadingHTTPServer | None = None
    try:
        for name, text in PAGES.items():
            Path(site, name).write_text(text, encoding="utf-8")
        handler = functools.partial(_Handler, directory=site)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
        shutil.rmtree(site, ignore_errors=True)


@contextmanager
def launch_chromium(executable: str) -> Iterator[str]:
    """Start Chromium in its own process group; yield ``http://127.0.0.1:PORT``."""
    profile = tempfile.mkdtemp(prefix="cdpseq-capture-profile-")
    proc: subprocess.Popen[bytes] | None = None
    try:
        proc = subprocess.Popen(
            [executable, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={profile}",
             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        port_file = Path(profile, "DevToolsActivePort")
        deadline = time.monotonic() + TIMEOUT
        port = ""
        while not port:
            if proc.poll() is not None:
                raise RuntimeError(f"chromium exited early with status {proc.returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError("chromium did not write DevToolsActivePort in time")
            if port_file.exists():
                port = port_file.read_text().split("\n", 1)[0].strip()
            if not port:
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        if proc is not None:
            _stop(proc)
        shutil.rmtree(profile, ignore_errors=True)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
        # the leader is gone; give the rest of its group the same signal once more
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        break


# --------------------------------------------------------------------------- CDP connection


class Recorder:
    """Reads every frame, records it, resolves command futures and event waiters."""

    def __init__(self, ws: WebSocketConnection) -> None:
        self.ws = ws
        self.next_id = 0
        self.pending: dict[int, tuple[str, trio.Event, list[dict[str, Any]]]] = {}
        self.waiters: list[tuple[str, str | None, trio.Event, list[dict[str, Any]]]] = []
        self.lines: list[str] = []
        self.skipped: set[str] = set()
        self.recorded: set[str] = set()
        self.events_seen: set[str] = set()

    async def reader(self) -> None:
        while True:
            text = await self.ws.get_message()
            frame = json.loads(text)
            session = frame.get("sessionId")
            if "id" in frame:
                method, done, slot = self.pending.pop(frame["id"], ("?", None, None))
                if len(text) > MAX_RESPONSE:
                    self.skipped.add(method)
                    print(f"not recording {len(text)} byte response to {method}",
                          file=sys.stderr)
                else:
                    self.record(method, "response", session, frame)
                if done is not None and slot is not None:
                    slot.append(frame)
                    done.set()
            else:
                method = frame.get("method", "?")
                self.events_seen.add(method)
                self.record(method, "event", session, frame)
                for waiter in list(self.waiters):
                    want, want_session, done, slot = waiter
                    if want == method and want_session in (None, session):
                        slot.append(frame)
                        done.set()
                        self.waiters.remove(waiter)

    def record(self, method: str, kind: str, session: str | None, frame: Any) -> None:
        self.recorded.add(method)
        line = {"method": method, "kind": kind, "sessionId": session, "data": frame}
        self.lines.append(json.dumps(line, ensure_ascii=False, separators=(",", ":")))

    async def send(self, method: str, params: dict[str, Any] | None = None,
                   session: str | None = None, *, check: bool = True) -> dict[str, Any]:
        self.next_id += 1
        msg: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if session is not None:
            msg["sessionId"] = session
        done, slot = trio.Event(), list[dict[str, Any]]()
        self.pending[self.next_id] = (method, done, slot)
        await self.ws.send_message(json.dumps(msg))
        with trio.fail_after(TIMEOUT):
            await done.wait()
        reply = slot[0]
        if "error" in reply and check:
            raise RuntimeError(f"{method} failed: {reply['error']}")
        return dict(reply.get("result", {}))

    def expect(self, method: str,
               session: str | None = None) -> tuple[trio.Event, list[dict[str, Any]]]:
        """Register interest in the next ``method`` event *before* triggering it."""
        done, slot = trio.Event(), list[dict[str, Any]]()
        self.waiters.append((method, session, done, slot))
        return done, slot

    @staticmethod
    async def wait(what: tuple[trio.Event, list[dict[str, Any]]], seconds: float = TIMEOUT) -> None:
        with trio.move_on_after(seconds) as scope:
            await what[0].wait()
        if scope.cancelled_caught:
            print("timed out waiting for an event", file=sys.stderr)


async def drive(rec: Recorder, site: str) -> None:
    send = rec.send
    await send("Target.setDiscoverTargets", {"discover": True})
    target_id = (await send("Target.createTarget", {"url": "about:blank"}))["targetId"]
    sid = (await send("Target.attachToTarget", {"targetId": target_id, "flatten": True}))[
        "sessionId"]
    for domain in ("Page", "Runtime", "Network", "DOM", "Inspector", "Log"):
        await send(f"{domain}.enable", {}, sid)
    await send("Page.setLifecycleEventsEnabled", {"enabled": True}, sid)

    async def navigate(url: str) -> None:
        loaded = rec.expect("Page.loadEventFired", sid)
        await send("Page.navigate", {"url": url}, sid)
        await rec.wait(loaded)
        await trio.sleep(0.7)  # let fetches, pushState, timers and console output happen

    await navigate(f"{site}/index.html")
    await send("DOM.getDocument", {"depth": -1, "pierce": True}, sid)
    await send("Runtime.evaluate", {"expression": "1 + 1"}, sid)
    await send("Runtime.evaluate", {"expression": "({a: [1, 'x'], b: null})",
                                    "returnByValue": True}, sid)
    await send("Runtime.evaluate", {"expression": "document.querySelector('#list')"}, sid)
    await send("Runtime.evaluate", {"expression": "(() => { throw new TypeError('nope'); })()"},
               sid)
    await send("Runtime.evaluate", {"expression": "new Promise(r => setTimeout(() => r(7), 50))",
                                    "awaitPromise": True}, sid)
    # DOM mutations the DOM agent reports for the nodes it has sent
    await send("Runtime.evaluate", {"expression": """(() => {
        const list = document.getElementById('list');
        const li = document.createElement('li'); li.textContent = 'three'; list.appendChild(li);
        list.firstElementChild.remove();
        list.firstElementChild.firstChild.data = 'TWO';
        document.getElementById('name').setAttribute('placeholder', 'your name');
        document.getElementById('title').removeAttribute('id');
        document.body.insertAdjacentHTML('beforeend', '<div class="hidden">late</div>');
        console.log('mutated', list.children.length);
        return list.children.length;
    })()"""}, sid)
    await trio.sleep(0.3)
    await send("DOMSnapshot.captureSnapshot", {"computedStyles": []}, sid)
    await send("Accessibility.getFullAXTree", {}, sid)
    await send("Page.getFrameTree", {}, sid)
    await send("Page.getNavigationHistory", {}, sid)
    await send("Page.getLayoutMetrics", {}, sid)
    await send("Browser.getVersion")
    await send("Target.getTargets")
    await send("Runtime.getHeapUsage", {}, sid)
    await send("Emulation.setDeviceMetricsOverride",
               {"width": 800, "height": 600, "deviceScaleFactor": 1, "mobile": False}, sid)

    # submit the form: a renderer-initiated navigation
    loaded = rec.expect("Page.loadEventFired", sid)
    await send("Runtime.evaluate", {"expression": """(() => {
        document.getElementById('name').value = 'Ada';
        document.getElementById('signup').requestSubmit();
    })()"""}, sid)
    await rec.wait(loaded)
    await trio.sleep(0.7)

    loaded = rec.expect("Page.loadEventFired", sid)
    await send("Page.reload", {}, sid)
    await rec.wait(loaded)
    await trio.sleep(0.5)

    await navigate(f"{site}/redirect")
    await send("DOM.getDocument", {"depth": -1, "pierce": True}, sid)
    await send("Runtime.evaluate", {"expression": "location.href", "returnByValue": True}, sid)
    await navigate(f"{site}/index.html")
    await send("Page.navigateToHistoryEntry", {"entryId": (await send(
        "Page.getNavigationHistory", {}, sid))["entries"][0]["id"]}, sid, check=False)
    await trio.sleep(0.5)

    # a popup opened by the page, then a second target opened and closed by us
    opened = rec.expect("Target.targetCreated")
    await send("Runtime.evaluate", {"expression": "window.open('/frame.html', '_blank') && 1",
                                    "userGesture": True}, sid)
    await rec.wait(opened, 5)
    await trio.sleep(0.5)
    second = (await send("Target.createTarget", {"url": f"{site}/frame.html"}))["targetId"]
    await trio.sleep(0.7)
    await send("Target.getTargetInfo", {"targetId": second})
    destroyed = rec.expect("Target.targetDestroyed")
    await send("Target.closeTarget", {"targetId": second})
    await rec.wait(destroyed, 5)
    for info in (await send("Target.getTargets"))["targetInfos"]:
        if info["type"] == "page" and info["targetId"] != target_id:
            await send("Target.closeTarget", {"targetId": info["targetId"]}, check=False)
    await trio.sleep(0.3)

    # finally close our own page: detachedFromTarget / Inspector.detached
    detached = rec.expect("Target.detachedFromTarget")
    await send("Target.closeTarget", {"targetId": target_id})
    await rec.wait(detached, 5)
    await trio.sleep(0.3)


async def capture(chromium: str) -> Recorder:
    with serve_pages() as site, launch_chromium(chromium) as endpoint:
        version = await trio.to_thread.run_sync(_get_json, f"{endpoint}/json/version")
        async with open_websocket_url(version["webSocketDebuggerUrl"],
                                      max_message_size=256 * 1024 * 1024) as ws:
            rec = Recorder(ws)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(rec.reader)
                await drive(rec, site)
                nursery.cancel_scope.cancel()
        return rec


def _get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=TIMEOUT) as resp:
        return json.load(resp)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("--chromium", default=os.environ.get("CHROME_PATH", "/usr/bin/chromium"))
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    rec = trio.run(capture, args.chromium)
    missing = rec.skipped - rec.recorded
    if missing:
        print(f"warning: never recorded a response to {sorted(missing)}", file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text("".join(line + "\n" for line in rec.lines), encoding="utf-8")
    tmp.replace(args.out)
    print(f"wrote {len(rec.lines)} frames, {len(rec.events_seen)} event methods, "
          f"{args.out.stat().st_size} bytes to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
