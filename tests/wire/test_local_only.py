"""Local-only by default: a launched Chromium listens on 127.0.0.1 only, and an endpoint off the
loopback interface works but warns, once, that the browser is reachable from the network."""

from __future__ import annotations

import socket
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from cdpseq import LaunchedChromium
from cdpseq.errors import BrowserUnreachable, InvalidEndpoint
from cdpseq.wire import endpoint as endpoint_module
from cdpseq.wire.endpoint import RemoteEndpointWarning, parse_endpoint, warn_if_remote
from cdpseq.wire.launch import chromium_command
from tests.paths import ROOT


def listening_addresses(port: int) -> list[str]:
    """Local addresses of the sockets listening on TCP ``port``, from /proc/net/tcp{,6}."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            local, _, state = row.split()[1:4]
            address, port_hex = local.split(":")
            if state == "0A" and int(port_hex, 16) == port:  # 0A: LISTEN
                if len(address) == 8:
                    found.append(socket.inet_ntop(socket.AF_INET,
                                                  bytes.fromhex(address)[::-1]))
                else:  # four little-endian 32-bit words
                    words = bytes.fromhex(address)
                    raw = b"".join(words[i:i + 4][::-1] for i in range(0, 16, 4))
                    found.append(socket.inet_ntop(socket.AF_INET6, raw))
    return found


def test_launched_chromium_listens_on_loopback_only(chromium: LaunchedChromium) -> None:
    # The session's Chromium runs chromium_command, as `cdpseq launch` and `mcp --launch` do.
    assert "--remote-debugging-address=127.0.0.1" in chromium_command(
        "chromium", port=0, profile_dir="/tmp/x")
    assert listening_addresses(chromium.port) == ["127.0.0.1"]


@pytest.mark.parametrize(("text", "loopback"), [
    ("9222", True), (9222, True), ("localhost:9222", True), ("127.0.0.2:9222", True),
    ("http://127.0.0.1:9222", True), ("http://[::1]:9222", True),
    ("ws://localhost:9222/devtools/browser/x", True),
    ("ws://10.0.0.5:9222/devtools/browser/x", False), ("http://myhost:9222", False),
    ("0.0.0.0:9222", False), ("192.168.1.20:9222", False), ("http://[fe80::1]:9222", False),
])
def test_endpoint_classification(text: str | int, loopback: bool) -> None:
    assert parse_endpoint(text).is_loopback is loopback


def test_the_warning_comes_once_per_host(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(endpoint_module, "_warned_hosts", set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warn_if_remote(parse_endpoint("9222"))
        for _ in range(3):
            warn_if_remote(parse_endpoint("ws://10.0.0.5:9222/devtools/browser/x"))
        warn_if_remote(parse_endpoint("http://10.0.0.5:9333"))
        warn_if_remote(parse_endpoint("http://myhost:9222"))
    assert [w.category for w in caught] == [RemoteEndpointWarning] * 2
    assert "ws://10.0.0.5:9222" in str(caught[0].message)
    assert "reachable from the network" in str(caught[0].message)


def test_a_non_loopback_endpoint_works_with_one_warning(chromium: LaunchedChromium) -> None:
    """The CLI is given the test's Chromium as http://0.0.0.0:PORT: an address that is not
    loopback (so it warns), which Linux nevertheless delivers to the listener on 127.0.0.1 —
    nothing is exposed to the network, and every machine has it."""
    done = subprocess.run(
        [sys.executable, "-m", "cdpseq", "tabs", "--cdp", f"http://0.0.0.0:{chromium.port}"],
        capture_output=True, text=True, timeout=60, cwd=str(ROOT))
    assert done.returncode == 0, done.stderr
    assert done.stdout.lstrip().startswith("[")
    assert done.stderr.count("cdpseq: warning: the DevTools endpoint") == 1, done.stderr
    assert f"0.0.0.0:{chromium.port}" in done.stderr
    assert "reachable from the network" in done.stderr


def test_a_loopback_endpoint_does_not_warn(chromium: LaunchedChromium) -> None:
    done = subprocess.run([sys.executable, "-m", "cdpseq", "tabs", "--cdp", chromium.endpoint],
                          capture_output=True, text=True, timeout=60, cwd=str(ROOT))
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr


def test_a_pool_token_is_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    # A hosted pool's URL is its key: the warning says so without printing it, and so do the
    # errors that name the endpoint.
    monkeypatch.setattr(endpoint_module, "_warned_hosts", set())
    secret = "wss://pool.example.com/chromium?token=s3cret-K3Y&stealth"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warn_if_remote(parse_endpoint(secret))
    message = str(caught[0].message)
    assert "s3cret" not in message and "token=***" in message, message
    assert "carries credentials" in message
    assert "s3cret" not in str(BrowserUnreachable(secret, "refused"))
    assert "pw" not in str(BrowserUnreachable("ws://me:pw@10.0.0.5:9222/devtools/browser/x",
                                              "refused"))
    assert "s3cret" not in str(InvalidEndpoint(secret + " ", "no port"))
