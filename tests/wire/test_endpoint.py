"""Endpoint parsing (pure) and bad endpoints against real sockets."""

from __future__ import annotations

import socket

import pytest
import trio

from cdpseq import BrowserUnreachable, InvalidEndpoint, open_browser
from cdpseq.wire.endpoint import Endpoint, parse_endpoint
from fixtures.server import FixtureServer


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("9222", Endpoint("9222", http_base="http://127.0.0.1:9222")),
        (9333, Endpoint("9333", http_base="http://127.0.0.1:9333")),
        ("localhost:9222", Endpoint("localhost:9222", http_base="http://localhost:9222")),
        ("http://127.0.0.1:9222", Endpoint("http://127.0.0.1:9222",
                                           http_base="http://127.0.0.1:9222")),
        ("http://127.0.0.1:9222/", Endpoint("http://127.0.0.1:9222/",
                                            http_base="http://127.0.0.1:9222")),
        ("ws://127.0.0.1:9222/devtools/browser/abc",
         Endpoint("ws://127.0.0.1:9222/devtools/browser/abc",
                  ws_url="ws://127.0.0.1:9222/devtools/browser/abc")),
        # Browser pools: a Selenium Grid 4 session's se:cdp, a hosted pool with a token.
        ("ws://grid:4444/session/5d1e/se/cdp",
         Endpoint("ws://grid:4444/session/5d1e/se/cdp", ws_url="ws://grid:4444/session/5d1e/se/cdp")),
        ("wss://pool.example/?token=T", Endpoint("wss://pool.example/?token=T",
                                                 ws_url="wss://pool.example/?token=T")),
    ],
)
def test_accepted_forms(given: str | int, expected: Endpoint) -> None:
    assert parse_endpoint(given) == expected


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ("", "expected a port"),
        ("chrome", "expected a port"),
        ("host:", "expected a port"),
        ("99999", "1-65535"),
        ("0", "1-65535"),
        ("http://127.0.0.1", "no port"),
        ("http://127.0.0.1:notaport", "1-65535"),
        ("ftp://127.0.0.1:21", "unsupported scheme"),
        ("ws://127.0.0.1:9222/devtools/page/ABC", "one page's websocket"),
    ],
)
def test_malformed_endpoints_name_the_endpoint_and_reason(given: str, reason: str) -> None:
    with pytest.raises(InvalidEndpoint) as caught:
        parse_endpoint(given)
    assert repr(given) in str(caught.value)
    assert reason in str(caught.value)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_closed_port_is_unreachable_naming_the_endpoint() -> None:
    port = _closed_port()
    with trio.fail_after(10), pytest.raises(BrowserUnreachable) as caught:
        async with open_browser(port):
            pass
    assert f"127.0.0.1:{port}" in str(caught.value)


async def test_http_server_that_is_not_chrome(server: FixtureServer) -> None:
    with trio.fail_after(10), pytest.raises(BrowserUnreachable) as caught:
        async with open_browser(server.origin):
            pass
    assert server.origin in str(caught.value)
    assert "404" in str(caught.value)


async def test_silent_tcp_server_times_out_with_a_bound() -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        with trio.fail_after(10), pytest.raises(BrowserUnreachable) as caught:
            async with open_browser(f"127.0.0.1:{port}", connect_timeout=0.5):
                pass
    assert f"127.0.0.1:{port}" in str(caught.value)
    assert "no answer" in str(caught.value)


async def test_websocket_url_nobody_listens_on() -> None:
    url = f"ws://127.0.0.1:{_closed_port()}/devtools/browser/x"
    with trio.fail_after(10), pytest.raises(BrowserUnreachable) as caught:
        async with open_browser(url):
            pass
    assert url in str(caught.value)
