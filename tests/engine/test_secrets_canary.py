"""A canary credential through every channel of the Python API: the result (JSON and text), each
step's output, the state delta, error messages, and cdpseq's own logs at DEBUG. (The CLI's stdout
and stderr and the MCP server's content, structured content and log have the same check in
tests/front; cdpseq writes no files at all, which the CLI test of refs across HOMEs checks.)"""

from __future__ import annotations

import json
import logging

import msgspec
import pytest
import trio

from cdpseq import Tab, act
from cdpseq.front.render import render_text
from fixtures.server import FixtureServer
from tests.helpers import js, open_page

CANARY = "canary-Zx81-qq7W-secret"


async def test_a_canary_credential_reaches_no_channel(
        tab: Tab, server: FixtureServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="cdpseq")
    secrets = {"pw": CANARY, "email": CANARY + "@example.org"}
    steps = [
        {"type": "fill", "selector": "#email", "credentialRef": "email"},
        {"type": "fill", "selector": "#password", "credentialRef": "pw"},
        {"type": "read_page", "filter": "all"},
        {"type": "click", "selector": "#sign-in"},
        {"type": "wait_for", "text": "Welcome back"},
        {"type": "read_page", "filter": "all"},
        # A fill the page refuses (a button is not editable): the error must not quote it.
        {"type": "fill", "selector": "#sign-out", "credentialRef": "pw", "timeoutMs": 300},
    ]
    results = []
    with trio.fail_after(60):
        for mode in ("all", "delta", "final"):
            await open_page(tab, server, "/login.html")
            results.append(await act(tab, {"steps": steps, "returnMode": mode,
                                           "failFast": False}, secrets=secrets))
    # The credentials really went in (the page echoes the email back).
    assert CANARY in await js(tab, "document.querySelector('#signed-in-as').textContent")
    for result in results:
        assert [s.status for s in result.steps][:6] == ["ok"] * 6
        assert result.steps[6].status == "skipped"
        assert result.steps[6].error is not msgspec.UNSET and \
            result.steps[6].error.code == "NOT_EDITABLE"
        wire = msgspec.json.encode(result).decode()
        assert "Signed in as" in wire  # the echo is there, masked
        assert CANARY not in wire
        assert CANARY not in render_text(result)
        assert CANARY not in json.dumps(msgspec.to_builtins(result.state_change))
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert CANARY not in logged
