#!/usr/bin/env python3
"""The cdpseq demo: launch Chromium, serve the demo app, read the login page, and sign in with
one act call whose refs come from that read. Run it through ./tools/demo."""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec
import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cdpseq  # noqa: E402
from cdpseq.front.render import render_text  # noqa: E402
from fixtures.server import serve_fixtures  # noqa: E402


async def demo(login_url: str) -> int:
    async with cdpseq.launch_browser() as browser:
        print(f"Chromium {browser.version.product} at {browser.endpoint}\n")
        tab = await browser.new_tab(login_url)
        with trio.fail_after(15):
            await cdpseq.act(tab, [{"type": "wait_for", "selector": "#login-form"}])
            page = await cdpseq.read_page(tab)
        print("read_page:\n" + page.text + "\n")

        def ref(role: str, name: str) -> str:
            return next(e.ref for e in page.elements if e.role == role and e.name == name)

        steps = [
            {"type": "fill", "target": ref("textbox", "Email"), "value": "ada@example.org"},
            {"type": "fill", "target": ref("textbox", "Password"), "credentialRef": "demo_pw"},
            {"type": "click", "target": ref("button", "Sign in")},
            {"type": "wait_for", "text": "Welcome back"},
            {"type": "read_page", "filter": "all"},
        ]
        print("act steps:\n" + msgspec.json.format(msgspec.json.encode(steps)).decode() + "\n")
        with trio.fail_after(60):
            result = await cdpseq.act(tab, {"steps": steps, "returnMode": "final"},
                                   secrets={"demo_pw": "correct horse battery staple"})
        print("act result:\n" + msgspec.json.format(msgspec.json.encode(result)).decode())
        print("\nas text:\n" + render_text(result))
        return 0 if result.ok else 1


def main() -> int:
    with serve_fixtures() as server:
        return trio.run(demo, server.url("/login.html"))


if __name__ == "__main__":
    sys.exit(main())
