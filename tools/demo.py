#!/usr/bin/env python3
"""The cdpseq demo: launch Chromium, serve the demo app, read the login page, and sign in with
one act call whose refs come from that read; then say how to do the same from the command line.
Run it through ./tools/demo."""

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


# The README's command-line example ("The command line, against the demo app"), step by step.
NEXT = """
Next, try the same from the command line (README.md, "The command line, against the demo app"):

  .venv/bin/python -m fixtures.server --port 8000    # the demo app; leave it running

and in a second terminal:

  source .venv/bin/activate
  cdpseq tabs new http://127.0.0.1:8000/login.html
  cdpseq read-page
  echo '[{"type": "fill", "target": "ref_3", "value": "ada@example.org"},
         {"type": "fill", "target": "ref_4", "credentialRef": "pw"},
         {"type": "click", "target": "ref_6"},
         {"type": "wait_for", "text": "Welcome back"}]' |
    CDPSEQ_SECRET_PW='correct horse' cdpseq act --steps - --format text
  cdpseq close

(use the refs your read-page printed if they differ)"""


def main() -> int:
    with serve_fixtures() as server:
        status = trio.run(demo, server.url("/login.html"))
    print(NEXT)
    return status


if __name__ == "__main__":
    sys.exit(main())
