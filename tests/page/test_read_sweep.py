"""A read of a page where nothing else changed still finds a shadow root attached to an element
already there (no mutation tells of one): readAgain's sweep (sweepRoots in js/agent/tracking.js)
asks, after a root's first sweep, only the elements that can hold one. Each late shadow root
here is attached after such a sweep, to each kind of element it asks: custom elements there at
the first sweep, custom elements added since, an element of a tag that can hold one, inside a
shadow root and inside a frame."""

from __future__ import annotations

import json

import pytest
import trio

from cdpseq import PageView, Tab, read_page
from cdpseq.cdp import runtime
from fixtures.server import FixtureServer
from tests.helpers import js, open_page

FRAME = "document.querySelector('iframe').contentDocument"
# A defined custom element without a shadow root of its own (until a script attaches one).
DEFINE = ("customElements.define('plain-box', class extends HTMLElement {});"
          "document.body.append(document.createElement('plain-box'))")


async def swept(tab: Tab) -> PageView:
    """A read of the page as it is, then a read of it unchanged: the sweep has passed."""
    await read_page(tab, "all")
    return await read_page(tab, "all")


async def shadow_buttons(tab: Tab) -> list[str]:
    """The names of the buttons inside every shadow root of the page and its frame, as the
    page's own DOM has them."""
    names: list[str] = await js(tab, """(() => { const names = [];
        const walk = (root, inShadow) => { for (const el of root.querySelectorAll('*')) {
          if (inShadow && el.tagName === 'BUTTON') names.push(el.textContent.trim());
          if (el.shadowRoot) walk(el.shadowRoot, true);
          if (el.tagName === 'IFRAME') walk(el.contentDocument, inShadow); } };
        walk(document, false); return names.sort(); })()""")
    return names


@pytest.mark.parametrize("where, host", [
    ("a custom element there at the first sweep", "document.querySelector('plain-box')"),
    ("a custom element added after it", "document.querySelector('later-box')"),
    ("a div", "document.querySelector('#late-div')"),
    ("a span inside a shadow root",
     "document.querySelector('acme-widget').shadowRoot.querySelector('#inner-span')"),
    ("a div inside a frame", f"{FRAME}.querySelector('#frame-div')"),
])
async def test_a_late_shadow_root_is_found_when_nothing_else_changed(
        tab: Tab, server: FixtureServer, where: str, host: str) -> None:
    await open_page(tab, server, "/shadow.html")
    with trio.fail_after(10):
        await tab.send(runtime.Evaluate(awaitPromise=True, expression=(
            "new Promise(done => { const f = document.createElement('iframe');"
            f"f.src = {json.dumps(server.url('/frame-child.html'))};"
            "f.onload = () => { f.contentDocument.body.append(Object.assign("
            "f.contentDocument.createElement('div'), {id: 'frame-div'})); done(); };"
            "document.body.prepend(f); })")))
    await js(tab, f"{DEFINE}; document.body.append(Object.assign(document.createElement('div'),"
                  " {id: 'late-div'}));"
                  "document.querySelector('acme-widget').shadowRoot.append(Object.assign("
                  "document.createElement('span'), {id: 'inner-span'}))")
    await swept(tab)
    await js(tab, "document.body.append(document.createElement('later-box'))")
    before = await swept(tab)
    await js(tab, f"{host}.attachShadow({{mode: 'open'}}).innerHTML ="
                  " '<button>Late inside</button>'")
    assert "Late inside" in await shadow_buttons(tab)
    after = await read_page(tab, "all")
    assert after.read == before.read + 1
    assert [e.name for e in after.elements if e.name == "Late inside"] == ["Late inside"], where
    assert len(after.elements) == len(before.elements) + 1
