"""Actions on the widgets people really use, each checked against the page's own state (issue
21): labels and their controls, text fields that commit on change, targets that go away on
the press, tri-state checkboxes, composite widgets that keep focus on themselves
(aria-activedescendant), scrolling what is hidden or what the page scrolls itself, selectors
into cross-origin frames, and screenshots of a tab behind another."""

from __future__ import annotations

import base64
import io
import json
from typing import Any

import msgspec
from PIL import Image

from cdpseq import ActResult, Browser, Tab, act
from cdpseq.cdp import runtime, target
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, run


def failure(result: ActResult) -> str:
    return json.dumps(msgspec.to_builtins(result.failed))


async def quick(tab: Tab, *steps: dict[str, Any], timeout_ms: int = 1500) -> ActResult:
    """An act without settling whose steps give up after ``timeout_ms``."""
    return await act(tab, {"settle": False, "perStepTimeoutMs": timeout_ms, "steps": list(steps)})


# -- 1. labels: the activation click the browser sends to the label's control ------------------

LABELS = "/widgets-act-labels.html"


async def checked(tab: Tab, selector: str) -> bool:
    return bool(await js(tab, f"document.querySelector({selector!r}).checked"))


async def test_a_click_on_a_label_for_a_checkbox_checks_it(tab: Tab, server: FixtureServer
                                                             ) -> None:
    await open_page(tab, server, LABELS)
    await run(tab, {"type": "click", "selector": "#terms-label"})
    assert await checked(tab, "#terms")
    # The page saw one click on the checkbox (the label's activation) and its change.
    assert await js(tab, "window.__log") == ["click terms true", "change terms true"]


async def test_check_and_uncheck_through_a_label_for_its_checkbox(tab: Tab, server: FixtureServer
                                                                  ) -> None:
    await open_page(tab, server, LABELS)
    result = await run(tab, {"type": "check", "selector": "#terms-label"},
                       {"type": "uncheck", "selector": "#terms-label"}, returnMode="all")
    assert [s.output for s in result.steps] == [{"changed": True}, {"changed": True}]
    assert not await checked(tab, "#terms")
    assert await js(tab, "window.__log") == ["click terms true", "change terms true",
                                             "click terms false", "change terms false"]


async def test_a_label_wrapping_its_checkbox_and_a_switch_whose_input_is_hidden(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, LABELS)
    await run(tab, {"type": "click", "selector": "#news-label"},
              {"type": "check", "selector": "#dark"},           # display:none: through its label
              {"type": "uncheck", "selector": "#dark-label"},
              {"type": "click", "selector": "#dark-label"})
    assert await checked(tab, "#news")
    assert await checked(tab, "#dark")
    assert await js(tab, "window.__log.filter(e => e.startsWith('change'))") == [
        "change news true", "change dark true", "change dark false", "change dark true"]


async def test_a_checkbox_moved_off_screen_or_clipped_is_checked_through_its_label(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, LABELS)
    await run(tab, {"type": "check", "selector": "#bluetooth"},  # left: -9999px
              {"type": "check", "selector": "#wifi"},            # clip: rect(0 0 0 0), 1x1 px
              {"type": "uncheck", "selector": "#bluetooth"})
    assert await checked(tab, "#wifi") and not await checked(tab, "#bluetooth")
    assert await js(tab, "window.__log.filter(e => e.startsWith('change'))") == [
        "change bluetooth true", "change wifi true", "change bluetooth false"]
    assert await js(tab, "scrollX") == 0


async def test_check_through_a_label_that_holds_a_link_does_not_follow_it(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, LABELS)
    await run(tab, {"type": "check", "selector": "#agree-label"},  # the label opens with a link
              {"type": "check", "selector": "#promo"})  # display:none, its label opens with one
    assert await checked(tab, "#agree") and await checked(tab, "#promo")
    assert await js(tab, "location.hash") == ""  # no link was followed


async def test_a_label_in_a_shadow_root_checks_its_checkbox(tab: Tab, server: FixtureServer
                                                            ) -> None:
    await open_page(tab, server, LABELS)
    await run(tab, {"type": "click", "selector": "#shadowed >> #inner-label"})
    assert await js(tab, "document.querySelector('#shadowed').shadowRoot"
                         ".querySelector('#inner').checked") is True
    await run(tab, {"type": "uncheck", "selector": "#shadowed >> #inner-label"})
    assert await js(tab, "document.querySelector('#shadowed').shadowRoot"
                         ".querySelector('#inner').checked") is False


async def test_a_label_for_a_text_field_focuses_it(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, LABELS)
    await run(tab, {"type": "click", "selector": "#nick-label"})
    assert await js(tab, "document.activeElement.id") == "nick"


async def test_a_click_that_would_land_on_another_label_is_still_stopped(
        tab: Tab, server: FixtureServer) -> None:
    # A label slides over the Save button when the mouse comes: the click meant for Save would
    # land on the label and, through it, check a box nobody asked for.
    await open_page(tab, server, LABELS)
    result = await quick(tab, {"type": "click", "selector": "#save"})
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE", failure(result)
    assert "label#cover" in result.failed.error
    assert not await checked(tab, "#decoy")
    assert await js(tab, "window.__log") == []


# -- 2. fill types as a person does: the field's change comes on Enter or when focus leaves -----

COMMIT = "/widgets-act-commit.html"


async def changes(tab: Tab) -> list[str]:
    return list(await js(tab, "window.__changes"))


async def items(tab: Tab) -> list[str]:
    return list(await js(tab, "[...document.querySelectorAll('#items li')]"
                              ".map(li => li.textContent)"))


async def test_fill_does_not_commit_a_field_that_commits_on_change(tab: Tab, server: FixtureServer
                                                                    ) -> None:
    await open_page(tab, server, COMMIT)
    await run(tab, {"type": "fill", "selector": "#new-item", "value": "Milk"})
    assert await js(tab, "document.querySelector('#new-item').value") == "Milk"
    assert await changes(tab) == [] and await items(tab) == []
    # Enter commits it, once: the browser's change.
    await run(tab, {"type": "press", "key": "Enter"})
    assert await items(tab) == ["Milk"]
    assert await changes(tab) == ["new-item=Milk"]
    assert await js(tab, "document.querySelector('#new-item').value") == ""


async def test_leaving_a_filled_field_commits_it_once(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, COMMIT)
    await run(tab, {"type": "fill", "selector": "#note", "value": "Ring twice"},
              {"type": "fill", "selector": "#new-item", "value": "Eggs"},
              {"type": "click", "selector": "#elsewhere"})
    assert await changes(tab) == ["note=Ring twice", "new-item=Eggs"]
    assert await js(tab, "document.querySelector('#saved').textContent") == "Saved: Ring twice"
    assert await items(tab) == ["Eggs"]


async def test_value_fields_commit_at_once_as_a_picker_does(tab: Tab, server: FixtureServer
                                                            ) -> None:
    await open_page(tab, server, COMMIT)
    await run(tab, {"type": "fill", "selector": "#day", "value": "2030-01-02"},
              {"type": "fill", "selector": "#color", "value": "#AABBCC"},
              {"type": "fill", "selector": "#tip", "value": "10"})
    assert await changes(tab) == ["day=2030-01-02", "color=#aabbcc", "tip=10"]
    await run(tab, {"type": "click", "selector": "#elsewhere"})  # leaving commits nothing more
    assert len(await changes(tab)) == 3


async def test_clear_commits_only_when_the_field_is_left(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, COMMIT)
    await run(tab, {"type": "fill", "selector": "#note", "value": "Leave it at the door"},
              {"type": "press", "key": "Tab"},
              {"type": "clear", "selector": "#note"})
    assert await changes(tab) == ["note=Leave it at the door"]
    await run(tab, {"type": "click", "selector": "#elsewhere"})
    assert await changes(tab) == ["note=Leave it at the door", "note="]
    assert await js(tab, "document.querySelector('#saved').textContent") == "Saved: "


# -- 3. a target that goes away on the press: the rest of the click is the browser's -------------

VANISH = "/widgets-act-vanish.html"


async def test_a_menu_item_that_closes_its_menu_on_pointerdown_is_clicked_once(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, VANISH)
    await run(tab, {"type": "click", "selector": "#rename"})
    assert await js(tab, "[window.__done, window.__presses, !!document.querySelector('#menu')]"
                    ) == [["picked Rename"], 1, False]


async def test_a_menu_item_gone_on_the_finger_s_press_is_tapped_once(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, VANISH)
    await run(tab, {"type": "tap", "selector": "#delete"})
    assert await js(tab, "[window.__done, window.__presses, !!document.querySelector('#menu')]"
                    ) == [["picked Delete"], 1, False]


async def test_a_button_gone_on_pointerup_is_clicked_once(tab: Tab, server: FixtureServer
                                                          ) -> None:
    await open_page(tab, server, VANISH)
    await run(tab, {"type": "click", "selector": "#dismiss"})
    assert await js(tab, "[window.__done, window.__presses, !!document.querySelector('#toast')]"
                    ) == [["dismissed"], 1, False]


async def test_a_button_re_rendered_on_pointerdown_is_pressed_once(tab: Tab,
                                                                   server: FixtureServer) -> None:
    await open_page(tab, server, VANISH)
    await run(tab, {"type": "click", "selector": ".star"})
    assert await js(tab, "[window.__done, window.__presses]") == [["starred 1"], 1]
    assert await js(tab, "document.querySelector('.star').textContent") == "Star (1)"


# -- 4. tri-state checkboxes: mixed is neither checked nor unchecked ----------------------------

TRISTATE = "/widgets-act-tristate.html"


async def test_uncheck_of_an_indeterminate_select_all_unchecks_it_and_its_items(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, TRISTATE)
    assert await js(tab, "document.querySelector('#all').indeterminate") is True
    result = await run(tab, {"type": "uncheck", "selector": "#all"}, returnMode="all")
    assert result.steps[0].output == {"changed": True, "clicks": 2}
    assert await js(tab, "[all.checked, all.indeterminate, "
                         "[...document.querySelectorAll('.topping')].map(t => t.checked)]"
                    ) == [False, False, [False, False, False]]


async def test_check_of_an_indeterminate_select_all_checks_every_item(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, TRISTATE)
    result = await run(tab, {"type": "check", "selector": "#all"}, returnMode="all")
    assert result.steps[0].output == {"changed": True}
    assert await js(tab, "[all.checked, all.indeterminate, "
                         "[...document.querySelectorAll('.topping')].map(t => t.checked)]"
                    ) == [True, False, [True, True, True]]


async def test_an_aria_mixed_checkbox_is_clicked_until_it_is_what_was_asked(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, TRISTATE)
    await run(tab, {"type": "uncheck", "selector": "#sauces"})  # mixed -> checked -> unchecked
    assert await js(tab, "window.__states.sauces") == ["true", "false"]
    await run(tab, {"type": "check", "selector": "#sauces"})    # unchecked -> mixed -> checked
    assert await js(tab, "window.__states.sauces") == ["true", "false", "mixed", "true"]
    assert await js(tab, "sauces.getAttribute('aria-checked')") == "true"


async def test_a_checkbox_that_never_gets_checked_fails_saying_what_it_did(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, TRISTATE)
    result = await quick(tab, {"type": "check", "selector": "#stubborn"})
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE", failure(result)
    assert "went unchecked -> mixed -> unchecked" in result.failed.error
    assert await js(tab, "window.__states.stubborn") == ["mixed", "false"]  # two clicks, no more


async def test_a_switch_that_shows_its_new_state_once_the_server_agreed(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, TRISTATE)
    result = await run(tab, {"type": "check", "selector": "#notify"},
                       {"type": "uncheck", "selector": "#notify"}, returnMode="all")
    assert [s.output for s in result.steps] == [{"changed": True}, {"changed": True}]
    assert await js(tab, "window.__saved") == [True, False]  # one click each, both saved
    assert await js(tab, "notify.checked") is False


# -- 5. composite widgets that keep focus on themselves (aria-activedescendant) ----------------

COMPOSITE = "/widgets-act-composite.html"


async def composite_state(tab: Tab) -> list[Any]:
    return list(await js(tab, "[window.__keys, document.activeElement.id, "
                              "document.getElementById('status').textContent]"))


async def test_press_on_the_active_option_of_a_listbox(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, COMPOSITE)
    await run(tab, {"type": "press", "selector": "#fruit-apple", "key": "Enter"})
    assert await composite_state(tab) == [["fruits Enter fruit-apple"], "fruits", "Fruit: Apple"]


async def test_click_an_option_then_keys_on_options_of_the_focused_listbox(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, COMPOSITE)
    await run(tab, {"type": "click", "selector": "#fruit-kiwi"},
              {"type": "press", "selector": "#fruit-kiwi", "key": "ArrowDown"},
              {"type": "press", "selector": "#fruit-plum", "key": "Enter"})
    assert await composite_state(tab) == [
        ["fruits ArrowDown fruit-kiwi", "fruits Enter fruit-plum"], "fruits", "Fruit: Plum"]
    assert await js(tab, "document.querySelector('#fruit-plum').getAttribute('aria-selected')"
                    ) == "true"


async def test_a_grid_cell_whose_focus_the_grid_takes_and_a_combobox_option(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, COMPOSITE)
    await run(tab, {"type": "press", "selector": "#seat-b2", "key": "Enter"})
    assert await composite_state(tab) == [["seats Enter seat-b2"], "seats", "Seat: B2"]
    await run(tab, {"type": "type", "selector": "#city-oslo", "text": " "})
    assert await js(tab, "document.querySelector('#city').value") == "Oslo"
    assert await js(tab, "document.activeElement.id") == "city"


async def test_keys_for_an_option_the_listbox_does_not_point_at_fail_and_say_why(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, COMPOSITE)
    result = await quick(tab, {"type": "press", "selector": "#fruit-plum", "key": "Enter"})
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE", failure(result)
    assert "points at #fruit-apple (aria-activedescendant), not at li#fruit-plum" in \
        result.failed.error
    assert await js(tab, "window.__keys") == []  # no key went to the wrong option


# -- 6. scrolling what shows nothing, and a wheel the page takes for itself ------------------------

SCROLL = "/widgets-act-scroll.html"


async def in_viewport(tab: Tab, selector: str) -> bool:
    return bool(await js(tab, f"(r => r.bottom >= 0 && r.top <= innerHeight)(document"
                              f".querySelector({selector!r}).getBoundingClientRect())"))


async def test_scroll_into_view_of_a_visibility_hidden_anchor_and_a_zero_size_sentinel(
        tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, SCROLL)
    result = await run(tab, {"type": "scroll", "selector": "#hidden-anchor"}, returnMode="all")
    assert result.steps[0].output == {"scrolled": True, "invisible": "visibility:hidden"}
    assert await in_viewport(tab, "#hidden-anchor")
    result = await run(tab, {"type": "scroll", "selector": "#sentinel"}, returnMode="all")
    assert result.steps[0].output == {"scrolled": True, "invisible": "zero-size"}
    assert await in_viewport(tab, "#sentinel")
    assert await js(tab, "window.__sentinelSeen") is True  # the page's own observer saw it


async def test_scroll_into_view_of_what_has_no_box_fails(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, SCROLL)
    result = await quick(tab, {"type": "scroll", "selector": "#gone"}, timeout_ms=500)
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE", failure(result)
    assert "display:none" in result.failed.error
    assert await js(tab, "scrollY") == 0


async def test_a_wheel_the_page_takes_is_ok_and_says_who_took_it(tab: Tab, server: FixtureServer
                                                                 ) -> None:
    await open_page(tab, server, SCROLL)
    result = await run(tab, {"type": "scroll", "selector": "#map", "direction": "down"},
                       {"type": "scroll", "selector": "#map", "direction": "left"},
                       {"type": "scroll", "selector": "#feed", "direction": "down",
                        "pixels": 200}, returnMode="all")
    assert [s.output for s in result.steps] == [
        {"moved": [], "handledBy": "div#map"}, {"moved": [], "handledBy": "div#map"},
        {"moved": [], "handledBy": "div#feed"}]
    assert await js(tab, "window.__wheel") == ["zoom 9", "zoom 10", "feed 200"]
    assert await js(tab, "scrollY") == 0  # the page itself did not scroll


async def test_a_wheel_nothing_takes_or_scrolls_still_fails(tab: Tab, server: FixtureServer
                                                            ) -> None:
    await open_page(tab, server, SCROLL)
    result = await quick(tab, {"type": "scroll", "direction": "up"})
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE", failure(result)
    assert "can scroll up any further" in result.failed.error


# -- 7. selector chains into cross-origin (out-of-process) frames -------------------------------


async def in_frame(tab: Tab, url_part: str, expression: str) -> Any:
    """``expression`` evaluated in the page's own world of the out-of-process frame whose URL
    contains ``url_part`` (through its DevTools session, not cdpseq's agent)."""
    for frame in tab.frames.values():
        info = await tab.connection.send(target.GetTargetInfo(targetId=frame.frame_id))
        if url_part in info.targetInfo.url:
            assert info.targetInfo.type == "iframe"  # really out of process
            result = await tab.connection.send(runtime.Evaluate(
                expression=expression, returnByValue=True), session_id=frame.session_id)
            return result.result.value
    raise AssertionError(f"no frame {url_part}")


async def test_a_selector_chain_into_a_cross_origin_frame(tab: Tab, server: FixtureServer
                                                          ) -> None:
    await run(tab, {"type": "navigate", "url": server.url("/oopif-checkout.html")},
              {"type": "wait_for", "stable": True})
    await run(tab, {"type": "fill", "selector": "iframe#pay >> #number",
                    "value": "4242 4242 4242 4242"},
              {"type": "check",
               "selector": '#pay >> role=checkbox[name="Save card for next time"]'},
              {"type": "click", "selector": 'iframe >> role=button[name="Pay $20.00"]'},
              {"type": "wait_for", "text": "Payment approved"})
    assert await in_frame(tab, "/oopif-pay.html", "[number.value, save.checked]") == [
        "4242 4242 4242 4242", True]
    assert await js(tab, "document.querySelector('#order-status').textContent") == \
        "Payment approved for card ending 4242"


async def test_a_selector_chain_into_a_frame_inside_a_cross_origin_frame(
        tab: Tab, server: FixtureServer) -> None:
    await run(tab, {"type": "navigate", "url": server.url("/oopif-checkout.html")},
              {"type": "wait_for", "stable": True})
    await run(tab, {"type": "fill", "selector": "iframe#pay >> #number",
                    "value": "4000 0000 0000 3220"},
              {"type": "click", "selector": "iframe#pay >> #submit"},
              {"type": "wait_for", "text": "Your bank asks you to confirm"},
              {"type": "fill", "selector": "iframe >> iframe >> #code", "value": "123456",
               "timeoutMs": 5000},
              {"type": "click", "selector": 'iframe#pay >> iframe >> role=button[name="Verify"]'},
              {"type": "wait_for", "text": "Payment approved after bank check"})
    assert await in_frame(tab, "/oopif-bank.html", "code.value") == "123456"
    assert await js(tab, "document.querySelector('#order-status').textContent") == \
        "Payment approved after bank check"


async def test_a_chain_into_a_cross_origin_frame_that_matches_nothing_there_fails(
        tab: Tab, server: FixtureServer) -> None:
    await run(tab, {"type": "navigate", "url": server.url("/oopif-checkout.html")},
              {"type": "wait_for", "stable": True})
    result = await quick(tab, {"type": "click", "selector": "iframe#pay >> #no-such-button"})
    assert result.failed is not None and result.failed.code == "NODE_NOT_FOUND", failure(result)
    assert "#no-such-button" in result.failed.error


# -- 8. a screenshot of a tab behind another -------------------------------------------------------


async def test_screenshots_of_tabs_behind_another(browser: Browser, tab: Tab,
                                                  server: FixtureServer) -> None:
    # Two tabs, each captured in turn while the other is in front: Chrome draws no frame for a
    # tab behind another, and a capture waiting for one waited seconds, or minutes.
    await open_page(tab, server, "/capture.html")  # a blue header at the top
    other = await browser.new_tab()  # now in front of the first
    try:
        await open_page(other, server, "/capture.html")
        for turn, (shot, colour) in enumerate([(tab, (0, 160, 0)), (other, (160, 0, 160)),
                                               (tab, (0, 0, 0)), (other, (200, 200, 0))]):
            in_front = other if shot is tab else tab
            await in_front.activate()
            await js(shot, "document.querySelector('header').style.background = "
                           f"'rgb{colour}'")
            result = await act(shot, {"steps": [{"type": "screenshot"}]})
            assert result.ok, (turn, failure(result))
            image = Image.open(io.BytesIO(base64.b64decode(result.steps[0].output["data"])))
            # The tab's own content as it is now, changed while it was behind the other.
            assert image.convert("RGB").getpixel((5, 5)) == colour, turn
    finally:
        await browser.close_tab(other.id)


def test_only_a_browser_without_a_screen_has_its_tab_brought_to_the_front() -> None:
    from cdpseq.engine.steps.capture import is_headless
    assert is_headless("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                       "HeadlessChrome/156.0.0.0 Safari/537.36")
    assert not is_headless("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like "
                           "Gecko) Chrome/156.0.0.0 Safari/537.36")
