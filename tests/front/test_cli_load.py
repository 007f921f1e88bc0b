"""Load on the command line: 8 ``cdpseq act`` processes at once on one browser, each on its own
tab. Each tab's page carries its own marker (``/login.html?next=tabNN``, and the email each
process types), so a result that describes another tab shows a foreign marker. Afterwards no
tab the test opened is left, and no process left a session attached.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import msgspec
import trio

from cdpseq import Browser, LaunchedChromium, open_browser
from cdpseq.cdp import target
from cdpseq.engine.result import ActResult
from fixtures.server import FixtureServer

PROCESSES = 8
_MARKER = re.compile(r"tab(\d\d)")


def marker(index: int) -> str:
    return f"tab{index:02d}"


def email(index: int) -> str:
    return f"{marker(index)}-cli@example.com"


async def opened(browser: Browser, url: str) -> str:
    """A new tab at ``url``, once loaded; not attached here, so only the CLIs attach to it."""
    created = await browser.send(target.CreateTarget(url=url))
    while (await browser.send(target.GetTargetInfo(targetId=created.targetId))
           ).targetInfo.title != "Sign in · Acme Notes":
        await trio.sleep(0.02)
    return created.targetId


async def attached_targets(browser: Browser) -> dict[str, bool]:
    infos = (await browser.send(target.GetTargets())).targetInfos
    return {info.targetId: info.attached for info in infos if info.type == "page"}


async def test_eight_cli_processes_at_once_each_on_its_own_tab(
        chromium: LaunchedChromium, server: FixtureServer, cli_mode: str) -> None:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("CDPSEQ_SECRET_") and k != "CDPSEQ_CDP"}
    with trio.fail_after(120):
        async with open_browser(chromium.ws_url) as browser:
            before = {t.id for t in await browser.tabs()}
            tab_ids = [await opened(browser, server.url(f"/login.html?next={marker(i)}"))
                       for i in range(PROCESSES)]
            outputs: dict[int, subprocess.CompletedProcess[bytes]] = {}

            async def run_cli(index: int) -> None:
                steps = [
                    {"type": "fill", "selector": "#email", "value": email(index)},
                    {"type": "fill", "selector": "#password", "value": "pw"},
                    {"type": "click", "selector": "#sign-in"},
                    {"type": "wait_for", "text": f"Signed in as {email(index)}"},
                    {"type": "read_page", "filter": "all"},
                ]
                outputs[index] = await trio.run_process(
                    [sys.executable, "-m", "cdpseq", "act", "--cdp", chromium.endpoint,
                     "--tab", tab_ids[index], "--steps", "-"],
                    stdin=json.dumps(steps).encode(), capture_stdout=True,
                    capture_stderr=True, check=False, env=env)

            async with trio.open_nursery() as nursery:
                for index in range(PROCESSES):
                    nursery.start_soon(run_cli, index)

            for index, done in sorted(outputs.items()):
                stdout = done.stdout.decode()
                assert done.returncode == 0, (stdout, done.stderr.decode())
                result = msgspec.json.decode(stdout, type=ActResult)
                assert result.ok and result.tab is not None, stdout
                assert result.tab.id == tab_ids[index], stdout
                assert result.tab.title == "Dashboard · Acme Notes", stdout
                assert set(_MARKER.findall(stdout)) == {f"{index:02d}"}, stdout
                assert f"Signed in as {email(index)}" in result.page.text, stdout
                assert result.state_change.url.before.endswith(f"next={marker(index)}")

            # No process opened a tab of its own; in-process, none left a session attached
            # (the daemon keeps its sessions: that is what makes the next call warm).
            pages = await attached_targets(browser)
            assert set(pages) == before | set(tab_ids)
            kept = cli_mode == "daemon"
            assert [pages[tab_id] for tab_id in tab_ids] == [kept] * PROCESSES
            for tab_id in tab_ids:
                await browser.close_tab(tab_id)
            assert {t.id for t in await browser.tabs()} == before
