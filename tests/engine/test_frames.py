"""Cross-origin (out-of-process) iframes, against real Chromium: an embedded payment widget
(card fields in an iframe from another site, a bank check nested one level deeper).

The fixture server answers as 127.0.0.1 and as localhost: two sites, so Chromium's site
isolation runs the widget in its own renderer (the test checks that it is a target of type
"iframe", i.e. really out of process)."""

from __future__ import annotations

import re
from typing import Any, cast

import msgspec
import trio

from cdpseq import ActResult, LaunchedChromium, Tab, act, open_browser, read_page
from cdpseq.cdp import page, target
from cdpseq.page.agent import WORLD_NAME
from fixtures.server import FixtureServer


def _delta(result: Any) -> dict[str, Any]:
    """The act's state change as its JSON reads (``from``/``to``, camelCase)."""
    return cast(dict[str, Any], msgspec.to_builtins(result.state_change))


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
    assert result.failed is None
    after = (await read_page(tab, "all")).text
    # The widget's own DOM changed (its status line), and told the shop (postMessage).
    assert 'textbox "Card number" value="4242 4242 4242 4242"' in after
    assert 'checkbox "Save card for next time" checked' in after
    widget = after[after.index("Frame: "):]
    assert "Payment approved for card ending 4242" in widget
    # The act's delta reports the changes inside the frame, with the tab's refs.
    changed = {(c["ref"], c["field"], str(c["to"])) for c in _delta(result)["changed"]}
    assert (ref_of(text, 'textbox "Card number"'), "value", "4242 4242 4242 4242") in changed
    assert (ref_of(text, 'checkbox "Save card'), "checked", "True") in changed
    assert any(c["selector"] == "#result" and c["to"] == "Payment approved for card ending 4242"
               for c in _delta(result)["changed"])


async def test_typing_and_keys_reach_a_field_in_the_widget(tab: Tab, server: FixtureServer
                                                           ) -> None:
    await open_checkout(tab, server)
    text = (await read_page(tab)).text
    cvc = ref_of(text, 'textbox "CVC"')
    result = await run(tab, [{"type": "type", "target": cvc, "text": "1234"},
                             {"type": "press", "target": cvc, "key": "Backspace"}])
    assert result.failed is None
    assert 'textbox "CVC" value="123" focused' in (await read_page(tab)).text


async def test_a_bank_check_nested_one_frame_deeper(tab: Tab, server: FixtureServer) -> None:
    await open_checkout(tab, server)
    text = (await read_page(tab)).text
    result = await run(tab, [
        {"type": "fill", "target": ref_of(text, 'textbox "Card number"'),
         "value": "4000000000003220"},
        {"type": "click", "target": ref_of(text, 'button "Pay $20.00"')}])
    assert result.failed is None
    # The bank's iframe (127.0.0.1 inside localhost: out of process again) came during the
    # act: one appeared item, with its controls' refs.
    came = [item for item in _delta(result)["appeared"] if item["role"] == "frame"]
    assert len(came) == 1 and came[0]["name"] == "Bank check"
    controls = {c["name"]: c["ref"] for c in came[0]["controls"]}
    assert set(controls) == {"One-time code", "Verify"}
    result = await run(tab, [{"type": "fill", "target": controls["One-time code"],
                              "value": "123456"},
                             {"type": "click", "target": controls["Verify"]},
                             # text two frames deep, and text gone from every frame
                             {"type": "wait_for", "text": "Code accepted", "timeoutMs": 5000},
                             {"type": "wait_for", "textGone": "Your bank asks",
                              "timeoutMs": 5000}])
    assert result.failed is None
    missing = await run(tab, [{"type": "wait_for", "text": "Code refused", "timeoutMs": 300}])
    assert missing.failed is not None and missing.failed.code == "WAIT_TIMEOUT"
    after = (await read_page(tab, "all")).text
    assert after.index('Frame: "Secure payment"') < after.index('Frame: "Bank check"')
    assert "Code accepted" in after[after.index('Frame: "Bank check"'):]
    assert 'status "Payment approved after bank check"' in after or \
        after.count("Payment approved after bank check") == 2  # the widget and the shop
    changed = {(c["selector"], c["to"]) for c in _delta(result)["changed"]}
    assert ("#bank-result", "Code accepted") in changed
    assert ("#result", "Payment approved after bank check") in changed


async def test_refs_of_a_frame_that_navigated_are_stale(tab: Tab, server: FixtureServer
                                                         ) -> None:
    await open_checkout(tab, server)
    text = (await read_page(tab)).text
    card = ref_of(text, 'textbox "Card number"')
    result = await run(tab, [{"type": "click", "target": ref_of(text, 'button "Pay another')}])
    assert result.failed is None
    after = (await read_page(tab)).text
    assert 'button "Show bank details"' in after and "Card number" not in after
    stale = await run(tab, [{"type": "fill", "target": card, "value": "4242424242424242"}])
    assert stale.failed is not None and stale.failed.code == "STALE_REF"
    assert ref_of(after, 'button "Show bank details"') not in text  # numbers are never reused


async def test_refs_of_a_removed_frame_are_stale(tab: Tab, server: FixtureServer) -> None:
    await open_checkout(tab, server)
    text = (await read_page(tab)).text
    result = await run(tab, [{"type": "click", "target": ref_of(text, 'button "Cancel payment"')}])
    assert result.failed is None
    assert any(c["to"] == "Payment cancelled" for c in _delta(result)["changed"])
    after = (await read_page(tab)).text
    assert "Frame:" not in after and "Card number" not in after
    for step in ({"type": "fill", "target": ref_of(text, 'textbox "Card number"'), "value": "1"},
                 {"type": "click", "target": ref_of(text, 'button "Pay $20.00"')}):
        stale = await run(tab, [step])
        assert stale.failed is not None and stale.failed.code == "STALE_REF", stale.failed


async def test_a_frame_ref_read_by_one_process_works_in_another(
        tab: Tab, server: FixtureServer, chromium: LaunchedChromium) -> None:
    await open_checkout(tab, server)
    text = (await read_page(tab)).text
    async with open_browser(chromium.ws_url) as other:  # its own connection, nothing shared
        elsewhere = await other.tab(tab.id)
        result = await run(elsewhere, [
            {"type": "fill", "target": ref_of(text, 'textbox "Card number"'),
             "value": "4242424242424242"},
            {"type": "click", "target": ref_of(text, 'button "Pay $20.00"')}])
        assert result.failed is None
        assert result.stable is True
        again = (await read_page(elsewhere)).text
    # The same elements keep the same refs in the other process's read.
    assert ref_of(again, 'textbox "Card number"') == ref_of(text, 'textbox "Card number"')
    assert "Payment approved for card ending 4242" in (await read_page(tab, "all")).text


async def test_a_session_registers_the_agent_for_new_documents_once(
        tab: Tab, server: FixtureServer, monkeypatch: Any) -> None:
    # Every agent of the tab (the page's, each frame step's) installs through the same session,
    # in every document: the agent for new documents is registered there once, not once per
    # agent or per install (each copy would be parsed again by every later document).
    registered: list[str] = []
    send_all = Tab.send_all

    async def recording(self: Tab, *commands: Any) -> list[Any]:
        registered.extend(c.worldName for c in commands
                          if isinstance(c, page.AddScriptToEvaluateOnNewDocument) and c.worldName)
        return await send_all(self, *commands)

    monkeypatch.setattr(Tab, "send_all", recording)
    await open_checkout(tab, server)
    text = (await read_page(tab)).text
    for _ in range(2):
        result = await run(tab, [
            {"type": "check", "target": ref_of(text, 'checkbox "Save card')},
            {"type": "click", "target": ref_of(text, 'textbox "Card number"')}])
        assert result.failed is None
    await open_checkout(tab, server)  # a new document: installed again, registered no more
    assert 'button "Pay $20.00"' in (await read_page(tab)).text
    assert registered == [WORLD_NAME]
