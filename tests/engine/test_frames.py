"""Cross-origin (out-of-process) iframes, against real Chromium: an embedded payment widget
(card fields in an iframe from another site, a bank check nested one level deeper).

The fixture server answers as 127.0.0.1 and as localhost: two sites, so Chromium's site
isolation runs the widget in its own renderer (the test checks that it is a target of type
"iframe", i.e. really out of process)."""

from __future__ import annotations

import re
from typing import Any

import trio

from cdpseq import ActResult, Tab, act, read_page
from cdpseq.cdp import target
from fixtures.server import FixtureServer


async def open_checkout(tab: Tab, server: FixtureServer) -> None:
    with trio.fail_after(30):
        result = await act(tab, [{"type": "navigate", "url": server.url("/oopif-checkout.html")},
                                 {"type": "wait_for", "stable": True}])
    assert result.failed is None


def ref_of(text: str, line: str) -> str:
    """The ref of the line of a read's text that contains ``line``."""
    found = re.search(r"\[(ref_\d+)\] " + re.escape(line), text)
    assert found, f"no {line!r} in:\n{text}"
    return found.group(1)


async def run(tab: Tab, steps: list[dict[str, Any]]) -> ActResult:
    with trio.fail_after(30):
        return await act(tab, steps)


async def test_the_widget_is_out_of_process_and_its_fields_get_refs(
        tab: Tab, server: FixtureServer) -> None:
    await open_checkout(tab, server)
    targets = (await tab.browser.send(target.GetTargets())).targetInfos
    assert any(t.type == "iframe" and "/oopif-pay.html" in t.url for t in targets)
    view = await read_page(tab)
    print(view.text)
    for line in ('textbox "Email for the receipt"', 'textbox "Card number"', 'textbox "CVC"',
                 'checkbox "Save card for next time" unchecked', 'button "Pay $20.00"'):
        ref_of(view.text, line)
    assert 'Frame: "Secure payment" http://localhost:' in view.text
    refs = [e.ref for e in view.elements]
    assert len(refs) == len(set(refs))


async def test_fill_and_click_in_the_widget(tab: Tab, server: FixtureServer) -> None:
    await open_checkout(tab, server)
    text = (await read_page(tab)).text
    result = await run(tab, [
        {"type": "fill", "target": ref_of(text, 'textbox "Card number"'),
         "value": "4242 4242 4242 4242"},
        {"type": "fill", "target": ref_of(text, 'textbox "Expiry"'), "value": "12 / 30"},
        {"type": "check", "target": ref_of(text, 'checkbox "Save card')},
        {"type": "click", "target": ref_of(text, 'button "Pay $20.00"')}])
    print(result)
    assert result.failed is None
    after = (await read_page(tab, "all")).text
    print(after)
    assert "Payment approved for card ending 4242" in after
    assert 'checkbox "Save card for next time" checked' in after
