"""What read_page answers on a set of fixture pages, recorded so that a change to the read's code
can be proved to answer the same (issue 28: a faster first read, same output).

    PYTHONPATH=. .venv/bin/python tools/read_golden.py [--check] [PAGE ...]

For each page, in a tab of its own: a read with filter "interactive", then one with "all", then a
narrowed one (scope, roles, viewport), in that order (refs are minted by the first reads, so the
order is part of the record). Each output is recorded as its number of elements, a digest of the
whole view (text and elements, without what differs between runs: the tab id, node ids, the
fixture server's origin) and, when short, its text. Without ``--check`` the record is written to
tests/data/read_golden.json; with it, compared with that file (tests/page/test_read_golden.py does
the same under pytest).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import msgspec
import trio

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

import cdpseq  # noqa: E402
from cdpseq.cdp import page, runtime  # noqa: E402

RECORD = ROOT / "tests" / "data" / "read_golden.json"
# (path, what says the page is up). Pages whose reads do not move on their own (no ticker, no
# animation left running when they are up).
BIG_READY = "document.body && document.body.dataset.ready === 'true'"
APP_READY = "document.documentElement.hasAttribute('data-ready')"
PAGES: tuple[tuple[str, str], ...] = (
    ("big.html", BIG_READY),
    ("big-grid.html?n=2000", BIG_READY),
    ("big-todos.html?n=2000", BIG_READY),
    ("aria-widgets.html", ""),
    ("app-patterns.html", ""),
    ("form-controls.html", "document.getElementById('later')"),  # a button that comes later
    ("fields.html", ""),
    ("signup.html", ""),
    ("login.html", ""),
    ("hints.html", ""),
    ("shadow.html", ""),
    ("slots-composed.html", ""),
    ("frames.html", ""),
    ("read-deep.html", ""),
    ("regions.html", ""),
    ("dialogs.html", ""),
    ("article.html", ""),
    ("sortable.html", ""),
    ("dnd-kanban.html", ""),
    ("realworld/aggrid-orders.html", APP_READY),
    ("realworld/mui-checkout.html", APP_READY),
    ("realworld/shoelace-account.html", APP_READY),
    ("realworld/react-board.html", APP_READY),
    ("realworld/vue-workspace.html", APP_READY),
    ("realworld/rac-booking.html", APP_READY),
    ("realworld/headlessui-project.html", APP_READY),
    ("realworld/lit-chores.html", APP_READY),
    ("realworld/virtual-orders.html", APP_READY),
    ("realworld/jqueryui-booking.html", APP_READY),
    ("realworld/tomselect-issue.html", APP_READY),
    ("realworld/bootstrap-settings.html", APP_READY),
    ("realworld/preact-todos.html", APP_READY),
)
# The reads of a page, in order: (name, read_page's arguments).
READS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("interactive", {}),
    ("all", {"filter": "all"}),
    ("narrowed", {"filter": "all", "selector": "body", "viewport_only": True,
                  "roles": ["button", "link", "checkbox", "textbox", "combobox", "heading"]}),
)
SHORT = 6000  # characters of text kept in the record besides the digest


async def _open(tab: cdpseq.Tab, url: str, ready: str) -> None:
    await tab.send(page.Navigate(url=url))
    expression = "document.readyState === 'complete'" + (f" && !!({ready})" if ready else "")
    with trio.fail_after(30):
        while True:
            await trio.sleep(0.1)
            answer = await tab.send(runtime.Evaluate(expression=expression, returnByValue=True))
            if answer.result.value is True:
                break
    await trio.sleep(0.3)  # what a page does right after it is up (a focus, a first render)


def canonical(view: cdpseq.PageView, origin: str) -> dict[str, Any]:
    """A view as recorded: its number of elements, a digest of all of it, its text when short."""
    data = msgspec.to_builtins(view)
    if data.get("tab"):
        data["tab"].pop("id", None)
    for element in data["elements"]:
        element.pop("nodeId", None)
    whole = json.dumps(data, sort_keys=True, ensure_ascii=False).replace(origin, "ORIGIN")
    out: dict[str, Any] = {"elements": len(view.elements),
                           "sha256": hashlib.sha256(whole.encode()).hexdigest()}
    text = view.text.replace(origin, "ORIGIN")
    if len(text) <= SHORT:
        out["text"] = text
    return out


async def read_outputs(browser: cdpseq.Browser, origin: str, path: str, ready: str
                       ) -> dict[str, Any]:
    """The recorded reads of one page (see the module's docstring), in a new tab."""
    tab = await browser.new_tab()
    try:
        await _open(tab, f"{origin}/{path}", ready)
        return {name: canonical(await cdpseq.read_page(tab, **arguments), origin)
                for name, arguments in READS}
    finally:
        await browser.close_tab(tab.id)


def differences(recorded: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """What differs between a page's recorded reads and its reads now, one line each."""
    out = []
    for name in recorded.keys() | now.keys():
        before, after = recorded.get(name), now.get(name)
        if before == after:
            continue
        if before and after and "text" in before and before.get("text") != after.get("text"):
            old, new = before["text"].split("\n"), after.get("text", "").split("\n")
            lines = [f"-{line}" for line in old if line not in new]
            lines += [f"+{line}" for line in new if line not in old]
            out.append(f"{name}: text differs\n  " + "\n  ".join(lines[:20]))
        else:
            out.append(f"{name}: recorded {before}, now {after}")
    return out


async def main(args: argparse.Namespace, origin: str) -> int:
    chosen = [(path, ready) for path, ready in PAGES if not args.pages or path in args.pages]
    recorded = json.loads(RECORD.read_text()) if RECORD.exists() else {}
    failed = 0
    async with cdpseq.launch_browser() as browser:
        for path, ready in chosen:
            now = await read_outputs(browser, origin, path, ready)
            if args.check:
                problems = differences(recorded.get(path, {}), now)
                failed += bool(problems)
                print(f"{path}: {'DIFFERS' if problems else 'same'}")
                for problem in problems:
                    print("  " + problem)
            else:
                recorded[path] = now
                print(f"{path}: " + ", ".join(f"{k} {v['elements']}" for k, v in now.items()))
    if not args.check:
        RECORD.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    from fixtures.server import serve_fixtures

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the record")
    parser.add_argument("pages", nargs="*", help="some of the pages (default: all)")
    arguments = parser.parse_args()
    with serve_fixtures() as server:
        sys.exit(trio.run(main, arguments, server.origin))
