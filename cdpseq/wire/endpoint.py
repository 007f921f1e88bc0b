"""Endpoint forms and discovery: from what a user typed to the browser's websocket URL.

Accepted: a bare port (``9222``), ``host:port``, ``http://host:port``, or the browser websocket
URL itself (``ws://host:port/devtools/browser/<id>``, or any ``ws://``/``wss://`` URL a browser
pool hands out). HTTP forms are resolved through
``/json/version``; the tiny HTTP/1.1 client here speaks just enough for Chrome's DevTools server.

An endpoint off the loopback interface works, with a one-time ``RemoteEndpointWarning``: a
DevTools port has no authentication, so whoever reaches it owns the browser.
"""

from __future__ import annotations

import urllib.parse
import warnings

import msgspec
import trio

from ..errors import BrowserUnreachable, InvalidEndpoint, shown_url
from .url_policy import is_loopback_host

DEFAULT_ENDPOINT = "http://127.0.0.1:9222"
_MAX_RESPONSE = 1024 * 1024


class Endpoint(msgspec.Struct, frozen=True):
    """A parsed endpoint: either an HTTP base to discover through, or a websocket URL."""

    text: str
    http_base: str | None = None
    ws_url: str | None = None

    @property
    def host(self) -> str:
        """The host the endpoint names ("" when it names none)."""
        return urllib.parse.urlsplit(self.ws_url or self.http_base or "").hostname or ""

    @property
    def is_loopback(self) -> bool:
        """Whether the endpoint is on this machine's loopback interface only."""
        return is_loopback_host(self.host)


class RemoteEndpointWarning(UserWarning):
    """The DevTools endpoint is not on the loopback interface (see ``warn_if_remote``)."""


_warned_hosts: set[str] = set()


def warn_if_remote(endpoint: Endpoint, *, once: bool = True) -> None:
    """Warn, once per host and process (every time: ``once`` false), that a non-loopback
    endpoint exposes the browser."""
    host = endpoint.host
    if endpoint.is_loopback or (once and host in _warned_hosts):
        return
    _warned_hosts.add(host)
    shown = shown_url(endpoint.text)
    if shown != endpoint.text:  # a hosted pool's token, or a password: the URL is the key
        message = (
            f"the DevTools endpoint {shown} is not on this machine's loopback interface, and "
            "its URL carries credentials: whoever has that URL controls the browser (its pages, "
            "cookies, logged-in sessions and local files). Keep it out of logs, shell history "
            "and shared files, and prefer wss:// so it does not cross the network in clear.")
    else:
        message = (
            f"the DevTools endpoint {endpoint.text} is not on this machine's loopback interface: "
            "the browser's debugging port is reachable from the network, and anyone who can "
            "reach it controls the browser without a password (its pages, cookies, logged-in "
            "sessions and local files). Prefer a browser listening on 127.0.0.1, reached "
            "through an SSH tunnel.")
    warnings.warn(message, RemoteEndpointWarning, stacklevel=2)


class VersionInfo(msgspec.Struct, kw_only=True):
    """What ``/json/version`` answers."""

    Browser: str = ""
    webSocketDebuggerUrl: str = ""


def parse_endpoint(endpoint: str | int) -> Endpoint:
    """What a user typed as an endpoint, checked; ``InvalidEndpoint`` otherwise."""
    text = str(endpoint).strip()
    if isinstance(endpoint, int) or text.isdigit():
        return Endpoint(text, http_base=f"http://127.0.0.1:{_port(text, text)}")
    if "://" not in text:
        host, sep, port = text.rpartition(":")
        if not sep or not host or not port.isdigit():
            raise InvalidEndpoint(endpoint, "expected a port, host:port, http://host:port "
                                  "or ws://host:port/devtools/browser/<id>")
        return Endpoint(text, http_base=f"http://{host}:{_port(port, text)}")
    parts = urllib.parse.urlsplit(text)
    if parts.scheme not in ("http", "https", "ws", "wss"):
        raise InvalidEndpoint(endpoint, f"unsupported scheme {parts.scheme!r}")
    try:
        url_port = parts.port
    except ValueError:
        raise InvalidEndpoint(endpoint, "the port is not a number in 1-65535") from None
    if not parts.hostname:
        raise InvalidEndpoint(endpoint, "no host")
    if parts.scheme in ("ws", "wss"):
        # Used as given, path and query too: a local Chrome's is /devtools/browser/<id>, a
        # Selenium Grid 4 session's /session/<id>/se/cdp, a hosted pool's /?token=... . Only a
        # page's own websocket is refused: it speaks for one tab, not the browser.
        if parts.path.startswith("/devtools/page/"):
            raise InvalidEndpoint(endpoint, "this is one page's websocket; give the browser's "
                                  "(ws://host:port/devtools/browser/<id>, or http://host:port)")
        return Endpoint(text, ws_url=text)
    if url_port is None:
        raise InvalidEndpoint(endpoint, "no port (Chrome's debugging port, e.g. :9222)")
    return Endpoint(text, http_base=f"{parts.scheme}://{parts.netloc}")


def _port(value: str, endpoint: str) -> int:
    port = int(value)
    if not 0 < port < 65536:
        raise InvalidEndpoint(endpoint, "the port is not a number in 1-65535")
    return port


async def fetch_json(base: str, path: str, *, answer_timeout: float = 5.0,
                     method: str = "GET") -> bytes:
    """GET ``base + path`` and return the body of a 200 answer; errors name the URL."""
    url = base + path
    parts = urllib.parse.urlsplit(base)
    if parts.scheme != "http":
        raise BrowserUnreachable(url, "only plain http discovery is supported; pass the ws:// URL")
    host = parts.hostname or "127.0.0.1"
    port = parts.port or 80
    request = (f"{method} {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAccept: application/json\r\n"
               "Connection: close\r\n\r\n").encode()
    try:
        with trio.fail_after(answer_timeout):
            stream = await trio.open_tcp_stream(host, port)
            async with stream:
                await stream.send_all(request)
                head, body = await _read_response(stream, url)
    except trio.TooSlowError:
        raise BrowserUnreachable(url, f"no answer within {answer_timeout:g} s") from None
    except OSError as exc:
        raise BrowserUnreachable(url, exc.strerror or str(exc)) from None
    status_line = head.split(b"\r\n", 1)[0].decode("latin-1")
    fields = status_line.split(" ", 2)
    if len(fields) < 2 or not fields[0].startswith("HTTP/"):
        raise BrowserUnreachable(url, "the answer is not HTTP")
    if fields[1] != "200":
        raise BrowserUnreachable(url, f"HTTP {' '.join(fields[1:])} (not a Chrome DevTools "
                                 "endpoint?)")
    return body


async def _read_response(stream: trio.SocketStream, url: str) -> tuple[bytes, bytes]:
    """Head and body of one answer. Chrome keeps the connection open after answering, so the
    body ends at Content-Length, not at EOF."""
    data = bytearray()
    length: int | None = None
    head = b""
    while True:
        if length is None and b"\r\n\r\n" in data:
            head, _, rest = bytes(data).partition(b"\r\n\r\n")
            data = bytearray(rest)
            length = -1
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length" and value.strip().isdigit():
                    length = int(value.strip())
            if length > _MAX_RESPONSE:
                raise BrowserUnreachable(url, "the answer is too large for a DevTools endpoint")
        if length is not None and length >= 0 and len(data) >= length:
            return head, bytes(data[:length])
        chunk = await stream.receive_some(65536)
        if not chunk:
            if length is None:
                raise BrowserUnreachable(url, "the answer is not HTTP")
            return head, bytes(data)
        data += chunk
        if len(data) > _MAX_RESPONSE:
            raise BrowserUnreachable(url, "the answer is too large for a DevTools endpoint")


async def discover(endpoint: Endpoint, *, answer_timeout: float = 5.0) -> str:
    """The browser-level websocket URL behind ``endpoint`` (warning once if either is off the
    loopback interface)."""
    warn_if_remote(endpoint)
    if endpoint.ws_url is not None:
        return endpoint.ws_url
    assert endpoint.http_base is not None
    body = await fetch_json(endpoint.http_base, "/json/version", answer_timeout=answer_timeout)
    try:
        info = msgspec.json.decode(body, type=VersionInfo)
    except msgspec.DecodeError:
        raise BrowserUnreachable(endpoint.http_base + "/json/version",
                                 "the answer is not Chrome's version JSON") from None
    if not info.webSocketDebuggerUrl.startswith(("ws://", "wss://")):
        raise BrowserUnreachable(endpoint.http_base + "/json/version",
                                 "no webSocketDebuggerUrl in the answer")
    warn_if_remote(Endpoint(info.webSocketDebuggerUrl, ws_url=info.webSocketDebuggerUrl))
    return info.webSocketDebuggerUrl
