"""Tests for the fixture web server (plain synchronous clients, real sockets)."""

from __future__ import annotations

import http.client
import json
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Request, TextMessage

from fixtures.server import (
    PAGES_DIR,
    REALWORLD_DIST,
    FixtureServer,
    open_fixture_server,
    serve_fixtures,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 10.0  # hang guard for client sockets, never a timing assertion


@pytest.fixture
def server() -> Iterator[FixtureServer]:
    with serve_fixtures() as srv:
        yield srv


def connect(server: FixtureServer, timeout: float = TIMEOUT) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)


def fetch(
    server: FixtureServer,
    path: str,
    method: str = "GET",
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, http.client.HTTPMessage, bytes]:
    """One request on a fresh connection; redirects are not followed."""
    conn = connect(server)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.headers, resp.read()
    finally:
        conn.close()


def server_thread_alive(port: int) -> bool:
    return any(t.name == f"fixture-server-{port}" and t.is_alive() for t in threading.enumerate())


class WsClient:
    """Minimal blocking WebSocket client: wsproto over a plain socket."""

    def __init__(self, server: FixtureServer, target: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.pending: list[object] = []
        self.sock.sendall(self.ws.send(Request(host=f"127.0.0.1:{server.port}", target=target)))
        assert isinstance(self.next_event(), AcceptConnection)

    def next_event(self) -> object:
        while not self.pending:
            data = self.sock.recv(65536)
            self.ws.receive_data(data or None)
            self.pending.extend(self.ws.events())
        return self.pending.pop(0)

    def send_text(self, text: str) -> None:
        self.sock.sendall(self.ws.send(TextMessage(data=text)))

    def recv_text(self) -> str:
        parts = []
        while True:
            event = self.next_event()
            assert isinstance(event, TextMessage), event
            parts.append(event.data)
            if event.message_finished:
                return "".join(parts)

    def close(self) -> None:
        self.sock.close()


# --------------------------------------------------------------------------- static files


def test_index_page_is_served(server: FixtureServer) -> None:
    with urllib.request.urlopen(server.url("/"), timeout=TIMEOUT) as resp:
        body = resp.read().decode()
        assert resp.status == 200
        assert resp.headers["Content-Type"] == "text/html; charset=utf-8"
        assert resp.headers["Cache-Control"] == "no-store"
    assert "<title>cdpseq fixtures</title>" in body
    assert "<a " in body
    assert fetch(server, "/index.html")[2].decode() == body
    assert server.url("x.html") == server.url("/x.html") == server.origin + "/x.html"


def test_static_content_types(tmp_path: Path) -> None:
    files = {
        "a.html": "text/html; charset=utf-8",
        "a.js": "text/javascript; charset=utf-8",
        "a.css": "text/css; charset=utf-8",
        "a.json": "application/json",
        "a.png": "image/png",
        "a.svg": "image/svg+xml",
        "a.txt": "text/plain; charset=utf-8",
        "sub/b.txt": "text/plain; charset=utf-8",
    }
    for name in files:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(f"content of {name}".encode())
    with serve_fixtures(pages_dir=tmp_path) as srv:
        for name, content_type in files.items():
            status, headers, body = fetch(srv, "/" + name)
            assert (status, headers["Content-Type"]) == (200, content_type), name
            assert body == f"content of {name}".encode()
            assert headers["Cache-Control"] == "no-store"
        status, headers, body = fetch(srv, "/a.txt", method="HEAD")
        assert (status, body, headers["Content-Length"]) == (200, b"", str(len("content of a.txt")))


def test_missing_file_is_404(server: FixtureServer) -> None:
    assert fetch(server, "/no-such-page.html")[0] == 404
    assert fetch(server, "/no-such-dir/")[0] == 404


@pytest.mark.parametrize(
    "path",
    ["/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/pages/../../secret.txt"],
)
def test_path_traversal_is_blocked(tmp_path: Path, path: str) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "ok.txt").write_text("fine")
    (tmp_path / "secret.txt").write_text("TOP SECRET")
    with serve_fixtures(pages_dir=pages) as srv:
        status, _, body = fetch(srv, path)
        assert status == 404
        assert b"TOP SECRET" not in body
        assert fetch(srv, "/ok.txt")[2] == b"fine"


def test_the_built_corpus_is_served_under_realworld(server: FixtureServer) -> None:
    status, headers, body = fetch(server, "/realworld/react-signup.html")
    assert (status, headers["Content-Type"]) == (200, "text/html; charset=utf-8")
    assert b"<title>Sign up" in body
    assert (REALWORLD_DIST / "react-signup.html").read_bytes() == body
    # Out of the build directory there is nothing, and the fixture pages are not under it.
    for path in ("/realworld/../index.html", "/realworld/%2e%2e/package.json",
                 "/realworld/index.html"):
        assert fetch(server, path)[0] == 404, path


# --------------------------------------------------------------------------- simple /api routes


def test_delay_waits_at_least_ms(server: FixtureServer) -> None:
    start = time.monotonic()
    status, headers, body = fetch(server, "/api/delay?ms=300")
    assert time.monotonic() - start >= 0.3
    assert (status, headers["Content-Type"], body) == (200, "application/json", b'{"ok":true}')
    assert headers["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize(
    ("kind", "content_type"),
    [("json", "application/json"), ("text", "text/plain"), ("html", "text/html")],
)
def test_delay_body_and_type(server: FixtureServer, kind: str, content_type: str) -> None:
    query = urllib.parse.urlencode({"body": "hello <b>x</b>", "type": kind})
    status, headers, body = fetch(server, f"/api/delay?{query}", method="POST", body=b"x")
    assert (status, body) == (200, b"hello <b>x</b>")
    assert headers["Content-Type"].startswith(content_type)


def test_bad_parameter_is_400(server: FixtureServer) -> None:
    status, headers, body = fetch(server, "/api/delay?ms=soon")
    assert status == 400
    assert "ms" in json.loads(body)["error"]
    assert headers["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("status", [301, 302, 303, 307])
def test_redirect_status_and_location(server: FixtureServer, status: int) -> None:
    got, headers, _ = fetch(server, f"/api/redirect?to=/index.html&status={status}")
    assert (got, headers["Location"]) == (status, "/index.html")
    assert headers["Access-Control-Allow-Origin"] == "*"


def test_redirect_defaults_and_post(server: FixtureServer) -> None:
    to = urllib.parse.quote("/api/page?title=Done", safe="")
    status, headers, _ = fetch(server, f"/api/redirect?to={to}", method="POST", body=b"a=1")
    assert (status, headers["Location"]) == (302, "/api/page?title=Done")
    assert fetch(server, "/api/redirect?to=/&status=200")[0] == 400


def test_status_204_has_no_body(server: FixtureServer) -> None:
    conn = connect(server)
    conn.request("GET", "/api/status?code=204")
    resp = conn.getresponse()
    assert resp.status == 204
    assert resp.headers["Content-Length"] is None
    assert resp.read() == b""
    # A stray body would corrupt the next response on the same connection.
    conn.request("GET", "/api/status?code=418")
    resp = conn.getresponse()
    assert (resp.status, resp.read()) == (418, b"")
    conn.close()


def test_echo_reports_request(server: FixtureServer) -> None:
    status, headers, body = fetch(
        server,
        "/api/echo?x=1",
        method="POST",
        body=b'{"hello":"world"}',
        headers={"Content-Type": "application/json", "X-Test": "yes"},
    )
    assert (status, headers["Content-Type"]) == (200, "application/json")
    echoed = json.loads(body)
    assert echoed["method"] == "POST"
    assert echoed["path"] == "/api/echo?x=1"
    assert echoed["body"] == '{"hello":"world"}'
    assert echoed["headers"]["x-test"] == "yes"
    assert echoed["headers"]["content-type"] == "application/json"
    assert json.loads(fetch(server, "/api/echo")[2])["method"] == "GET"


def test_download_headers(server: FixtureServer) -> None:
    status, headers, body = fetch(server, "/api/download?name=report.txt")
    assert status == 200
    assert headers["Content-Type"].startswith("text/plain")
    assert headers["Content-Disposition"] == 'attachment; filename="report.txt"'
    assert body


def test_beacon_page_and_unknown_api(server: FixtureServer) -> None:
    status, headers, body = fetch(server, "/api/beacon", method="POST", body=b"ping")
    assert (status, body, headers["Access-Control-Allow-Origin"]) == (204, b"", "*")

    query = urllib.parse.urlencode({"title": "A & B", "body": "<p id=x>hi</p>"})
    status, headers, body = fetch(server, f"/api/page?{query}")
    assert (status, headers["Content-Type"]) == (200, "text/html; charset=utf-8")
    assert b"<title>A &amp; B</title>" in body and b"<p id=x>hi</p>" in body

    status, headers, body = fetch(server, "/api/nope")
    assert (status, headers["Content-Type"]) == (404, "application/json")
    assert json.loads(body)["error"] == "not found"
    assert headers["Access-Control-Allow-Origin"] == "*"


def test_cors_preflight(server: FixtureServer) -> None:
    status, headers, _ = fetch(
        server,
        "/api/echo",
        method="OPTIONS",
        headers={"Origin": "http://other", "Access-Control-Request-Method": "POST"},
    )
    assert status == 204
    assert headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in headers["Access-Control-Allow-Methods"]


def test_malformed_request_gets_400(server: FixtureServer) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) as sock:
        sock.sendall(b"this is not http\r\n\r\n")
        assert sock.recv(4096).startswith(b"HTTP/1.1 400")


# --------------------------------------------------------------------------- streams


def read_sse_ticks(resp: http.client.HTTPResponse, n: int) -> list[str]:
    ticks = []
    while len(ticks) < n:
        line = resp.readline()
        assert line, "stream ended early"
        if line.startswith(b"data: "):
            ticks.append(line[6:].strip().decode())
    return ticks


def test_sse_ticks_until_client_closes(server: FixtureServer) -> None:
    conn = connect(server)
    conn.request("GET", "/api/sse?interval_ms=50")
    resp = conn.getresponse()
    assert resp.status == 200
    assert resp.headers["Content-Type"] == "text/event-stream"
    assert read_sse_ticks(resp, 2) == ["tick 1", "tick 2"]
    conn.close()
    assert fetch(server, "/api/delay")[0] == 200  # server unaffected


def test_sse_count_ends_stream(server: FixtureServer) -> None:
    conn = connect(server)
    conn.request("GET", "/api/sse?interval_ms=10&count=3")
    body = conn.getresponse().read()  # returns only because the stream ends
    assert body == b"data: tick 1\n\ndata: tick 2\n\ndata: tick 3\n\n"
    conn.close()


def test_longpoll_holds_request_open(server: FixtureServer) -> None:
    conn = connect(server, timeout=0.3)
    conn.request("GET", "/api/longpoll")
    with pytest.raises(TimeoutError):
        conn.getresponse()
    conn.close()
    status, _, body = fetch(server, "/api/longpoll?ms=50")
    assert (status, body) == (200, b'{"ok":true}')


def test_websocket_echo(server: FixtureServer) -> None:
    client = WsClient(server, "/api/ws")
    client.send_text("hello")
    assert client.recv_text() == "hello"
    client.send_text("second")
    assert client.recv_text() == "second"
    client.sock.sendall(client.ws.send(CloseConnection(code=1000)))
    assert isinstance(client.next_event(), CloseConnection)
    client.close()


def test_websocket_ticks(server: FixtureServer) -> None:
    client = WsClient(server, "/api/ws?interval_ms=30")
    assert client.recv_text() == "tick 1"
    assert client.recv_text() == "tick 2"
    client.close()
    assert fetch(server, "/api/delay")[0] == 200


def test_stop_with_open_longpoll_sse_and_websocket() -> None:
    with serve_fixtures() as srv:
        port = srv.port
        assert server_thread_alive(port)
        longpoll = connect(srv, timeout=0.3)
        longpoll.request("GET", "/api/longpoll")
        with pytest.raises(TimeoutError):
            longpoll.getresponse()
        sse = connect(srv)
        sse.request("GET", "/api/sse?interval_ms=20")
        sse_resp = sse.getresponse()
        read_sse_ticks(sse_resp, 1)
        ws = WsClient(srv, "/api/ws?interval_ms=20")
        assert ws.recv_text() == "tick 1"
    # Leaving the block returned, so the server stopped despite the open requests.
    assert not server_thread_alive(port)
    event = ws.next_event()
    assert isinstance(event, CloseConnection) and event.code == 1001
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    for conn in (longpoll, sse, ws):
        conn.close()


# ------------------------------------------------------------ connections & recording


def test_keep_alive_two_requests_on_one_connection(server: FixtureServer) -> None:
    conn = connect(server)
    conn.request("GET", "/index.html")
    first = conn.getresponse()
    first.read()
    sock = conn.sock
    assert sock is not None
    conn.request("POST", "/api/echo", body=b"two")
    second = conn.getresponse()
    assert json.loads(second.read())["body"] == "two"
    assert conn.sock is sock  # http.client would have reconnected if the server closed
    conn.close()
    assert {r.headers["host"] for r in server.requests[-2:]} == {f"127.0.0.1:{server.port}"}


def test_requests_are_recorded(server: FixtureServer) -> None:
    before = time.monotonic()
    fetch(server, "/index.html?v=1", headers={"X-Trace": "abc"})
    fetch(server, "/api/echo", method="POST", body=b"payload")
    recorded = server.requests
    assert [(r.method, r.path) for r in recorded] == [
        ("GET", "/index.html?v=1"),
        ("POST", "/api/echo"),
    ]
    assert recorded[0].headers["x-trace"] == "abc"
    assert recorded[0].body == b"" and recorded[1].body == b"payload"
    assert before <= recorded[0].time <= recorded[1].time <= time.monotonic()
    server.clear_requests()
    assert server.requests == []


def test_pending_requests_and_upgrades_are_recorded(server: FixtureServer) -> None:
    conn = connect(server, timeout=0.3)
    conn.request("GET", "/api/longpoll?tag=pending")
    with pytest.raises(TimeoutError):
        conn.getresponse()  # still pending, yet already recorded
    ws = WsClient(server, "/api/ws")
    assert [r.path for r in server.requests] == ["/api/longpoll?tag=pending", "/api/ws"]
    assert server.requests[1].headers["upgrade"].lower() == "websocket"
    conn.close()
    ws.close()


def test_many_concurrent_connections(server: FixtureServer) -> None:
    results: list[int] = []

    def worker(i: int) -> None:
        results.append(fetch(server, f"/api/delay?ms=100&body={i}&type=text")[0])

    held = [connect(server, timeout=0.3) for _ in range(10)]
    for conn in held:
        conn.request("GET", "/api/longpoll")
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT)
    assert results == [200] * 30
    for conn in held:
        conn.close()


# --------------------------------------------------------------------------- async form & CLI


def test_async_form_in_callers_trio_run(tmp_path: Path) -> None:
    (tmp_path / "hi.txt").write_text("hi from trio")

    async def main() -> bytes:
        async with open_fixture_server(pages_dir=tmp_path) as srv:
            async with await trio.open_tcp_stream("127.0.0.1", srv.port) as stream:
                request = "GET /hi.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                await stream.send_all(request.encode())
                data = b""
                while chunk := await stream.receive_some(65536):
                    data += chunk
            assert [r.path for r in srv.requests] == ["/hi.txt"]
            return data

    response = trio.run(main)
    assert response.startswith(b"HTTP/1.1 200") and response.endswith(b"hi from trio")

    async def failing() -> None:
        async with open_fixture_server():
            raise KeyError("boom")

    with pytest.raises(KeyError):  # the caller's error is not wrapped in an ExceptionGroup
        trio.run(failing)


def test_command_line_prints_origin_and_stops_on_ctrl_c() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "fixtures.server", "--pages", str(PAGES_DIR)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        origin = proc.stdout.readline().strip()
        assert origin.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(origin + "/", timeout=TIMEOUT) as resp:
            assert b"cdpseq fixtures" in resp.read()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=TIMEOUT) == 0
    finally:
        proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
