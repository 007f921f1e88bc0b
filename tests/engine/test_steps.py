"""Each act step type against the fixture pages, through the Python API."""

from __future__ import annotations

import json
from typing import Any

import trio

from cdpseq import Tab, act
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, ref, run, text_of


async def test_click_with_count_button_and_modifiers(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/form-controls.html")
    inc = ref(view, "Add one")
    await run(tab, {"type": "click", "target": inc},
              {"type": "click", "target": inc, "clickCount": 2, "modifiers": ["Shift"]})
    assert await text_of(tab, "#count") == "3"
    last = json.loads(await text_of(tab, "#last-click"))
    assert last["detail"] == 2 and last["shiftKey"] is True and last["isTrusted"] is True


async def test_click_by_selector_and_by_backend_node_id(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/form-controls.html")
    node_id = next(e.node_id for e in view.elements if e.name == "Add one")
    assert isinstance(node_id, int)
    await run(tab, {"type": "click", "selector": "#inc"},
              {"type": "click", "target": f"node_{node_id}"},
              {"type": "click", "target": node_id}, {"type": "click", "target": str(node_id)})
    assert await text_of(tab, "#count") == "4"


async def test_hover_shows_tooltip(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/form-controls.html")
    await run(tab, {"type": "hover", "selector": "#hover-target"},
              {"type": "wait_for", "selector": "#tooltip", "state": "visible"})


async def test_check_and_uncheck_are_idempotent(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/form-controls.html")
    agree = ref(view, "I agree to the terms")
    result = await run(tab, {"type": "check", "target": agree},
                       {"type": "check", "target": agree}, returnMode="all")
    assert [s.output for s in result.steps] == [{"changed": True}, {"changed": False}]
    assert await js(tab, "document.querySelector('#agree').checked") is True
    result = await run(tab, {"type": "uncheck", "target": agree},
                       {"type": "uncheck", "target": agree}, returnMode="all")
    assert [s.output for s in result.steps] == [{"changed": True}, {"changed": False}]
    assert await js(tab, "document.querySelector('#agree').checked") is False
    await run(tab, {"type": "check", "target": ref(view, "Large")})
    assert await js(tab, "document.querySelector('#size-l').checked") is True


async def test_fill_controlled_input_textarea_and_contenteditable(tab: Tab,
                                                                  server: FixtureServer) -> None:
    view = await open_page(tab, server, "/controlled.html")
    by_role = {e.role + ":" + e.tag: e.ref for e in view.elements}
    name = next(e.ref for e in view.elements if e.tag == "input")
    await run(tab, {"type": "fill", "target": name, "value": "Ada Lovelace"},
              {"type": "fill", "selector": "#bio", "value": "line one\nline two"},
              {"type": "fill", "selector": "#editor", "value": "Rich text"})
    # The page keeps its own state and reverts bare .value assignments; it only shows the
    # text if the fill fired what a React-like controlled input listens to.
    assert await text_of(tab, "#mirror") == "You typed: Ada Lovelace"
    assert await js(tab, "window.appState.name") == "Ada Lovelace"
    assert "line two" in await text_of(tab, "#bio-mirror")
    assert await text_of(tab, "#ce-mirror") == "Rich text"
    # A fill replaces what was there; an empty fill clears it.
    await run(tab, {"type": "fill", "target": name, "value": "Grace"})
    assert await js(tab, "window.appState.name") == "Grace"
    await run(tab, {"type": "fill", "target": name, "value": ""})
    assert await js(tab, "window.appState.name") == ""
    assert by_role  # the view had the controls


async def test_fill_types_through_the_editing_pipeline(tab: Tab, server: FixtureServer
                                                       ) -> None:
    """A text field gets trusted input events (as typing or pasting makes), and a rich-text
    editor also gets the beforeinput that only real input fires."""
    await open_page(tab, server, "/controlled.html")
    await js(tab, "window.events = [];"
                  "for (const type of ['beforeinput', 'input'])"
                  "  document.addEventListener(type, e => events.push("
                  "    [e.type, e.target.id, e.isTrusted, e.inputType, e.data]), true)")
    await run(tab, {"type": "fill", "selector": "#name", "value": "Lovelace"},
              {"type": "fill", "selector": "#editor", "value": "Rich"})
    assert await js(tab, "window.appState.name") == "Lovelace"
    events = await js(tab, "window.events")
    assert ["input", "name", True, "insertText", "Lovelace"] in events
    assert ["beforeinput", "editor", True, "insertText", "Rich"] in events


async def test_fill_that_maxlength_cuts_is_an_invalid_value(tab: Tab, server: FixtureServer
                                                            ) -> None:
    """maxlength holds, as for a user; the step says what the field kept instead of ok."""
    await open_page(tab, server, "/controlled.html")
    await js(tab, "document.querySelector('#name').maxLength = 5")
    result = await act(tab, [{"type": "fill", "selector": "#name", "value": "Lovelace"}])
    assert result.failed is not None and result.failed.code == "INVALID_VALUE"
    assert 'holds "Lovel" after filling "Lovelace" (maxlength 5)' in result.failed.error
    assert await js(tab, "window.appState.name") == "Lovel"


async def test_fill_refuses_when_focus_goes_elsewhere(tab: Tab, server: FixtureServer) -> None:
    """A page that moves focus away from the field: nothing is typed into the other field."""
    await open_page(tab, server, "/controlled.html")
    await js(tab, "document.querySelector('#name').addEventListener('focus',"
                  " () => document.querySelector('#bio').focus())")
    result = await act(tab, [{"type": "fill", "selector": "#name", "value": "x",
                             "timeoutMs": 300}])
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE"
    assert "focus went to textarea#bio" in result.failed.error
    assert await js(tab, "document.querySelector('#bio').value") == ""
    assert await js(tab, "document.querySelector('#name').value") == ""


async def test_fill_on_a_button_is_not_editable(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/form-controls.html")
    result = await act(tab, [{"type": "fill", "target": ref(view, "Add one"), "value": "x"}])
    assert result.failed is not None and result.failed.code == "NOT_EDITABLE"


async def test_type_and_press_keys(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/form-controls.html")
    await run(tab, {"type": "type", "selector": "#typing", "text": "hey"},
              {"type": "press", "key": "Control+A"}, {"type": "press", "key": "Backspace"},
              {"type": "type", "text": "ok"}, {"type": "press", "key": "Enter"})
    assert await js(tab, "document.querySelector('#typing').value") == "ok"
    keys = json.loads(await text_of(tab, "#keys"))
    assert "Control+a" in keys and "Enter" in keys


async def test_press_tab_moves_focus(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/login.html")
    await run(tab, {"type": "press", "key": "Tab", "selector": "#email"})
    assert await js(tab, "document.activeElement.id") == "password"


async def test_select_by_value_and_label(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/form-controls.html")
    fruit = ref(view, "Fruit")
    result = await run(tab, {"type": "select", "target": fruit, "value": "b"}, returnMode="all")
    assert result.steps[0].output == {"value": "b", "label": "Banana"}
    assert "Selected: b" in await text_of(tab, "#fruit-value")
    await run(tab, {"type": "select", "target": fruit, "label": "Golden kiwi (seasonal)"})
    assert await js(tab, "document.querySelector('#fruit').value") == "kiwi-gold"
    events = json.loads(await text_of(tab, "#fruit-events"))
    assert "input" in events and "change" in events
    # A missing option is waited for to the step's timeout (it may yet be added): 0.5 s here.
    missing = await act(tab, [{"type": "select", "target": fruit, "value": "mango",
                               "timeoutMs": 500}])
    assert missing.failed is not None and missing.failed.code == "OPTION_NOT_FOUND"
    assert "mango" in missing.failed.error and "kiwi-gold" in missing.failed.error


async def test_scroll_page_and_element(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/form-controls.html")
    result = await run(tab, {"type": "scroll", "direction": "down", "pixels": 500},
                       returnMode="all")
    # What the step reports is what the page did: the wheel's 500 px (a loaded machine's
    # scroll animation has been seen to land a little further; the report follows it).
    moved = result.steps[0].output["moved"]
    scrolled = await js(tab, "window.scrollY")
    assert moved == [{"element": "the page", "dx": 0, "dy": scrolled}]
    assert abs(scrolled - 500) <= 50
    await run(tab, {"type": "scroll", "direction": "up", "pixels": 500},
              {"type": "scroll", "selector": "#bottom"})
    assert await js(tab, "window.scrollY") > 1000
    # Clicking an element far down the page scrolls it into view first.
    await run(tab, {"type": "scroll", "direction": "up", "pixels": 100000},
              {"type": "click", "selector": "#bottom"})
    assert "clicked" in await text_of(tab, "#bottom-status")


async def test_navigate_back_forward_reload(tab: Tab, server: FixtureServer) -> None:
    first, second = server.url("/login.html"), server.url("/status.html")
    result = await run(tab, {"type": "navigate", "url": first},
                       {"type": "navigate", "url": second}, {"type": "back"},
                       {"type": "forward"}, {"type": "reload"})
    assert [s.url for s in result.steps] == [first, second, first, second, second]
    assert result.tab is not None and result.tab.title == (await tab.info()).title
    failed = await act(tab, [{"type": "navigate", "url": "http://127.0.0.1:1/"}])
    assert failed.failed is not None and failed.failed.code == "NAVIGATION_FAILED"


async def test_back_without_history_fails_cleanly(browser: Any, server: FixtureServer) -> None:
    fresh = await browser.new_tab()
    try:
        result = await act(fresh, [{"type": "back"}])
        assert result.failed is not None and result.failed.code == "NAVIGATION_FAILED"
        assert "no previous page" in result.failed.error
    finally:
        await browser.close_tab(fresh.id)


async def test_wait_for_each_condition(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/removal.html")
    result = await run(
        tab,
        {"type": "wait_for", "selector": "#remove-me", "state": "attached"},
        {"type": "click", "selector": "#remove"},
        {"type": "wait_for", "selector": "#remove-me", "state": "detached"},
        {"type": "wait_for", "selector": "#remove-me", "state": "hidden"},
        {"type": "wait_for", "text": "Alpha"},
        {"type": "wait_for", "textGone": "this text is not on the page"},
        {"type": "wait_for", "url": "removal"},
        returnMode="all")
    assert result.steps[0].output["selector"] == "#remove-me"
    assert isinstance(result.steps[2].output["waitedMs"], int)


async def test_wait_for_that_never_matches_times_out_within_its_bound(tab: Tab,
                                                                      server: FixtureServer
                                                                      ) -> None:
    await open_page(tab, server, "/status.html")
    with trio.fail_after(10):
        result = await act(tab, [{"type": "wait_for", "text": "never appears",
                                 "timeoutMs": 300}])
    assert result.failed is not None
    assert result.failed.code == "WAIT_TIMEOUT" and result.failed.retryable
    assert "never appears" in result.failed.error


async def test_wait_step_and_read_page_outputs(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/login.html")
    result = await run(tab, {"type": "wait", "ms": 10}, {"type": "read_page", "filter": "all"},
                       {"type": "read_page"}, returnMode="all")
    full, interactive = result.steps[1].output, result.steps[2].output
    assert "# Sign in to Acme Notes" in full["text"]
    assert "# Sign in" not in interactive["text"]
    assert {e["name"] for e in interactive["elements"]} >= {"Email", "Password", "Sign in"}
    final = await run(tab, {"type": "read_page"})
    assert final.steps[0].output is msgspec_unset() and final.page.elements


def msgspec_unset() -> Any:
    import msgspec

    return msgspec.UNSET


async def test_same_origin_iframe_and_shadow_root(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/frames.html")
    await run(tab, {"type": "click", "target": ref(view, "Frame button")},
              {"type": "fill", "target": ref(view, "Frame input"), "value": "inside"})
    assert await text_of(tab, "#status", frame="#child") == "frame clicked"
    assert "inside" in await text_of(tab, "#frame-mirror", frame="#child")
    assert await text_of(tab, "#status") == "Parent idle"  # the parent's own #status

    view = await open_page(tab, server, "/shadow.html")
    shadow_button = next(e for e in view.elements if e.name == "Shadow button")
    assert ">>" in shadow_button.selector  # host >> inner
    await run(tab, {"type": "click", "target": shadow_button.ref},
              {"type": "fill", "target": ref(view, "Shadow input"), "value": "deep"})
    assert await text_of(tab, "#status") == "shadow clicked"
    assert "deep" in await text_of(tab, "#shadow-mirror")
