"""read_page on the widgets people really use: what it lists, names and says of each is checked
against the page itself (its DOM and state, read without cdpseq), and acting on the refs it
gives changes the page as a person's action would.

The pages (fixtures/pages/widgets-read-*.html): a button made display:contents, toggle switches
drawn by their labels over hidden inputs, controls named by nothing but the text beside them,
native selects, widgets written to the W3C ARIA Authoring Practices patterns, grids, and content
made inert. tests/page/test_ax_conformance.py compares the same pages with Chrome's
accessibility tree.
"""

from __future__ import annotations

import json
from typing import Any

from cdpseq import ActResult, PageElement, PageView, Tab, act, read_page
from cdpseq.engine.reports import ChangedElement, StateChange
from cdpseq.front.render import render_text
from cdpseq.page.agent import PageAgent
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, run


def named(view: PageView, name: str, role: str | None = None) -> PageElement:
    found = [e for e in view.elements if e.name == name and role in (None, e.role)]
    assert len(found) == 1, (name, role, view.text)
    return found[0]


def line(view: PageView, element: PageElement) -> str:
    return next(text for text in view.text.splitlines() if text.startswith(f"[{element.ref}] "))


async def refs_of(tab: Tab, selector: str) -> list[int]:
    """The refs of the elements a CSS selector matches (0 for one without a ref)."""
    found: list[int] = await tab.extension(PageAgent).evaluate(
        f"__cdpseq.which({json.dumps(selector)})")
    return found


def ref_number(element: PageElement) -> int:
    return int(element.ref[4:])


def change_of(result: ActResult) -> StateChange:
    assert isinstance(result.state_change, StateChange), result.state_change
    return result.state_change


def changes(changed: list[ChangedElement]) -> list[tuple[str | None, str | None, Any, Any]]:
    return [(c.ref, c.field, c.before, c.after) for c in changed]


def contains(found: list[Any], *wanted: Any) -> bool:
    return all(item in found for item in wanted)


# -- display: contents, toggles drawn by labels, context ----------------------------------------


async def test_a_display_contents_button_is_listed_and_takes_the_click(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-toggles.html")
    assert await js(tab, "getComputedStyle(document.getElementById('save')).display") == "contents"
    save, share = named(view, "Save draft", "button"), named(view, "Share", "button")
    assert await refs_of(tab, "#save") == [ref_number(save)]
    assert await refs_of(tab, "#share") == [ref_number(share)]  # in a display:contents wrapper
    # Nothing inside the third renders: there is nothing to click, so nothing is listed.
    [ghost] = await refs_of(tab, "#ghost")
    assert f"ref_{ghost}" not in {e.ref for e in view.elements} and "Ghost" not in view.text
    await run(tab, {"type": "click", "target": save.ref})
    assert await js(tab, "document.getElementById('log').textContent") == "clicked save"


async def test_toggles_drawn_by_their_labels_are_listed_with_their_state(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-toggles.html")
    # The page hides every one of these inputs; their labels show.
    assert await js(tab, "['dark', 'wifi', 'day', 'week', 'month'].every(id =>"
                         " getComputedStyle(document.getElementById(id)).display === 'none')")
    dark, wifi = named(view, "Dark mode"), named(view, "Wi-Fi")
    assert (dark.role, dark.checked) == ("checkbox", True)
    assert line(view, wifi) == f'[{wifi.ref}] switch "Wi-Fi" unchecked'
    radios = {e.name: e for e in view.elements if e.role == "radio"}
    assert {name: e.checked for name, e in radios.items()} == {
        "Day": False, "Week": True, "Month": False}
    for element, selector in ((dark, "#dark"), (wifi, "#wifi"), (radios["Day"], "#day")):
        assert await refs_of(tab, selector) == [ref_number(element)]
    assert "Beta" not in view.text  # hidden with its label: nothing shows it

    result = await run(tab, {"type": "check", "target": wifi.ref},
                       {"type": "check", "target": radios["Day"].ref},
                       {"type": "uncheck", "target": dark.ref})
    assert await js(tab, "[wifi.checked, day.checked, week.checked, dark.checked]") == [
        True, True, False, False]
    assert contains(changes(change_of(result).changed),
                    (wifi.ref, "checked", False, True), (radios["Day"].ref, "checked", False, True),
                    (radios["Week"].ref, "checked", True, False),
                    (dark.ref, "checked", True, False))
    again = await read_page(tab)
    assert named(again, "Wi-Fi").checked is True and named(again, "Day").checked is True


async def test_controls_without_a_name_take_the_text_beside_them_as_context(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-toggles.html")
    page = await js(tab, "({qty: document.querySelector('#qty').previousElementSibling.textContent,"
                         " news: document.querySelector('#news').nextSibling.data.trim(),"
                         " terms: document.querySelector('#terms').parentElement"
                         ".previousSibling.data.trim(),"
                         " hint: document.getElementById('employee-hint').textContent})")
    by_selector = {}
    for selector in ("#qty", "#news", "#terms", "#employee"):
        [number] = await refs_of(tab, selector)
        by_selector[selector] = next(e for e in view.elements if e.ref == f"ref_{number}")
    said = {key: json.dumps(text, ensure_ascii=False) for key, text in page.items()}
    assert {s: (e.name, e.context) for s, e in by_selector.items()} == {
        "#qty": ("", f"near: {said['qty']}"), "#news": ("", f"near: {said['news']}"),
        "#terms": ("", f"near: {said['terms']}"), "#employee": ("", f"desc: {said['hint']}")}
    news = by_selector["#news"]
    assert line(view, news) == (f'[{news.ref}] checkbox (no name) unchecked '
                                '(near: "Send me the newsletter")')


# -- selects -------------------------------------------------------------------------------------


async def test_a_select_lists_its_options(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-select.html")
    labels: dict[str, list[str]] = await js(
        tab, "Object.fromEntries([...document.querySelectorAll('select')].map(s =>"
             " [s.id, [...s.options].map(o => o.label)]))")
    by_id = {"speed": named(view, "Speed"), "country": named(view, "Country"),
             "city": named(view, "City"), "carrier": named(view, "Carrier"),
             "wrap": named(view, "Gift wrap")}
    for select_id, element in by_id.items():
        assert await refs_of(tab, f"#{select_id}") == [ref_number(element)]
        options = labels[select_id]
        assert element.options == options[:12], select_id
        assert element.options_more == (len(options) - 12 if len(options) > 12 else None)
    assert len(labels["country"]) == 46  # 45 countries and the prompt
    # A custom select's native proxy (aria-hidden, out of the tab order) is not listed; its
    # button is.
    [proxy] = await refs_of(tab, "#size-proxy")
    assert f"ref_{proxy}" not in {e.ref for e in view.elements}
    size = named(view, "Size Medium", "button")
    assert await refs_of(tab, "#size-button") == [ref_number(size)]
    speed = by_id["speed"]
    assert line(view, speed) == (f'[{speed.ref}] combobox "Speed" value="Express" '
                                 'options=["Standard", "Express", "Overnight (sold out)"]')
    assert line(view, by_id["country"]).endswith('"Colombia", "Czechia", "Denmark"] +34 more')
    assert by_id["wrap"].role == "listbox" and by_id["wrap"].value == "Paper, Card"


async def test_options_that_arrive_are_read_and_reported(tab: Tab,
                                                         server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-select.html")
    country, city = named(view, "Country"), named(view, "City")
    result = await run(tab, {"type": "select", "target": country.ref, "value": "Japan"})
    assert await js(tab, "[...document.getElementById('city').options].map(o => o.text)") == [
        "Tokyo", "Osaka"]
    assert (city.ref, "options", ["Choose a country first"], ["Tokyo", "Osaka"]) in changes(
        change_of(result).changed)
    assert (f'~ [{city.ref}] combobox "City" options ["Choose a country first"] → '
            '["Tokyo", "Osaka"]') in render_text(result).splitlines()
    assert named(await read_page(tab), "City").options == ["Tokyo", "Osaka"]
    # A label changed in place, an option added by script: the next read has them.
    await js(tab, "document.querySelector('#city option').textContent = 'Tōkyō';"
                  "document.getElementById('city').add(new Option('Kyoto'))")
    assert named(await read_page(tab), "City").options == ["Tōkyō", "Osaka", "Kyoto"]


async def test_a_page_of_many_selects_lists_each_ones_options(tab: Tab,
                                                              server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-select.html?many=300")
    lines = [e for e in view.elements if e.name.startswith("Line ")]
    assert len(lines) == 300
    for element in lines:
        number = element.name.split()[1]
        assert element.options == [f"Item {number}.{k}" for k in range(1, 13)]
        assert element.options_more == 28
    first = await js(tab, "[...document.querySelector('select[name=line1]').options]"
                          ".map(o => o.text).slice(0, 12)")
    assert lines[0].options == first


# -- ARIA Authoring Practices widgets ------------------------------------------------------------


async def test_names_leave_out_what_is_hidden_and_icon_buttons_take_their_title(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-apg.html")
    # The page's own text has the asterisk and the switch's On/Off; the names do not.
    assert await js(tab, "document.querySelector('label[for=traveller]').textContent.trim()"
                    ) == "Traveller name *"
    traveller = named(view, "Traveller name", "textbox")
    assert traveller.required is True
    assert named(view, "Travel insurance").role == "switch"
    more, fewer = named(view, "Add adult", "button"), named(view, "Remove adult", "button")
    assert await refs_of(tab, "#more") == [ref_number(more)]
    assert "+" not in view.text.split("\n")[1:] and '"−"' not in view.text
    await run(tab, {"type": "click", "target": more.ref}, {"type": "click", "target": more.ref},
              {"type": "click", "target": fewer.ref})
    assert await js(tab, "document.getElementById('adults').value") == "3"


async def test_column_headers_say_how_the_table_is_sorted(tab: Tab,
                                                          server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-apg.html")
    departure, airline = named(view, "Departure", "button"), named(view, "Airline", "button")
    price = named(view, "Price", "columnheader")  # sorts by a click of its own
    assert (departure.sort, airline.sort, price.sort) == ("ascending", None, None)
    assert line(view, departure) == f'[{departure.ref}] button "Departure" sorted ascending'

    result = await run(tab, {"type": "click", "target": airline.ref})
    sorts = "[...document.querySelectorAll('#flights th')].map(th => th.getAttribute('aria-sort'))"
    assert await js(tab, sorts) == ["none", "ascending", "none"]
    airlines = ("[...document.querySelectorAll('#flights tbody tr')]"
                ".map(row => row.cells[1].textContent)")
    assert await js(tab, airlines) == ["Aurora", "Meridian", "Zephyr Air"]
    # The delta says it once, of the table (not again of each header's button).
    sorted_by = [(c.field, c.before, c.after) for c in change_of(result).changed
                 if c.field == "sort"]
    assert sorted_by == [("sort", "Departure ascending", "Airline ascending")]
    again = await read_page(tab)
    assert (named(again, "Departure").sort, named(again, "Airline").sort) == (None, "ascending")

    await run(tab, {"type": "click", "target": price.ref}, {"type": "click", "target": price.ref})
    assert await js(tab, sorts) == ["none", "none", "descending"]
    assert named(await read_page(tab), "Price").sort == "descending"


async def test_the_active_item_of_a_widget_is_read(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-apg.html")
    meals = named(view, "Meal", "listbox")
    assert meals.active == "Fish"
    assert line(view, meals) == f'[{meals.ref}] listbox "Meal" active="Fish"'
    await run(tab, {"type": "press", "target": meals.ref, "key": "ArrowDown"})
    assert await js(tab, "document.getElementById('meals').getAttribute('aria-activedescendant')"
                    ) == "meal-veg"
    view = await read_page(tab)
    assert named(view, "Meal").active == "Vegetarian"
    assert named(view, "Vegetarian", "option").selected is True

    # A menu that keeps focus on itself while its arrow keys move the active item.
    await run(tab, {"type": "click", "target": named(view, "Seat options").ref},
              {"type": "press", "key": "ArrowDown"})
    assert await js(tab, "document.getElementById('seat-menu').getAttribute("
                         "'aria-activedescendant')") == "seat-aisle"
    # The menu is listed with the controls (where the keys go), with its active item.
    view = await read_page(tab)
    menu = named(view, "Seat options", "menu")
    assert menu.active == "Aisle"
    assert line(view, menu) == f'[{menu.ref}] menu "Seat options" focused active="Aisle"'
    assert await refs_of(tab, "#seat-menu") == [ref_number(menu)]


async def test_a_select_only_combobox_shows_its_value(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-apg.html")
    combo = named(view, "Travel class", "combobox")
    assert (combo.value, combo.expanded) == ("Economy", False)
    await run(tab, {"type": "click", "target": combo.ref})
    view = await read_page(tab)
    assert named(view, "Travel class", "combobox").expanded is True
    await run(tab, {"type": "click", "target": named(view, "Business", "option").ref})
    assert await js(tab, "document.getElementById('class-combo').textContent") == "Business"
    combo = named(await read_page(tab), "Travel class", "combobox")
    assert (combo.value, combo.expanded) == ("Business", False)


async def test_a_disclosure_says_whether_it_is_open(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-apg.html")
    baggage, visa = named(view, "Baggage rules"), named(view, "Visa")
    assert (baggage.expanded, visa.expanded) == (False, True)
    assert line(view, baggage) == f'[{baggage.ref}] button "Baggage rules" collapsed'
    result = await run(tab, {"type": "click", "target": baggage.ref})
    assert await js(tab, "document.getElementById('baggage').open") is True
    assert (baggage.ref, "expanded", False, True) in changes(change_of(result).changed)
    # The summary's row is kept between reads (nothing in it changed): its state is not.
    assert named(await read_page(tab), "Baggage rules").expanded is True
    await js(tab, "document.getElementById('visa').open = false")
    assert named(await read_page(tab), "Visa").expanded is False


async def test_meters_and_progress_bars_say_their_value(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-apg.html")
    values = {e.name: (e.role, e.valuenow, e.valuemin, e.valuemax, e.valuetext)
              for e in view.elements if e.role in ("meter", "progressbar")}
    assert values == {
        "Seats left": ("meter", 42, 0, 180, None),
        "Passport upload": ("progressbar", 30, 0, 100, None),
        "Loyalty points": ("meter", 640, 0, 1000, "640 of 1000 points")}
    upload = named(view, "Passport upload")
    assert line(view, upload) == (f'[{upload.ref}] progressbar "Passport upload" value=30 '
                                  'range=0..100')
    await js(tab, "document.getElementById('upload').value = 85")
    assert named(await read_page(tab), "Passport upload").valuenow == 85
    await js(tab, "document.getElementById('upload').removeAttribute('value')")  # indeterminate
    assert named(await read_page(tab), "Passport upload").valuenow is None


async def test_an_aria_progress_bar_says_its_step(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-progress.html")
    steps = named(view, "Checkout steps", "progressbar")
    assert (steps.valuenow, steps.valuemin, steps.valuemax, steps.valuetext) == (
        2, 1, 4, "Step 2 of 4: Delivery")
    assert line(view, steps) == (f'[{steps.ref}] progressbar "Checkout steps" '
                                 'value="Step 2 of 4: Delivery" range=1..4')


async def test_a_page_with_a_static_progress_bar_settles(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/widgets-read-progress.html")
    result = await run(tab, {"type": "click", "selector": "#next"})
    assert await js(tab, "document.getElementById('log').textContent") == "continued"
    assert result.stable is True, result.unstable_reason


async def test_an_indeterminate_progress_bar_is_a_loading_indicator(tab: Tab, server: FixtureServer
                                                                    ) -> None:
    await open_page(tab, server, "/widgets-read-progress.html")
    result = await act(tab, {"steps": [{"type": "click", "selector": "#upload"}],
                             "settleTimeoutMs": 800})
    assert await js(tab, "document.getElementById('uploading').checkVisibility()") is True
    assert result.ok and result.stable is False
    assert "loading indicator visible: progress" in (result.unstable_reason or "")


async def test_a_pointer_wrapper_around_an_option_is_not_listed_beside_it(
        tab: Tab, server: FixtureServer) -> None:
    # Each list item takes the click (a pointer cursor starts there), but its option is all its
    # text: the option is listed, once, and a click on it reaches the item's handler.
    view = await open_page(tab, server, "/widgets-read-wrapped.html")
    sizes = [(e.role, e.name) for e in view.elements if e.name in ("Small", "Medium", "Large")]
    assert sizes == [("option", "Small"), ("option", "Medium"), ("option", "Large")], view.text
    # An item that holds a button among other text takes clicks of its own.
    assert [e.role for e in view.elements if e.name.startswith("Milk")] == ["listitem"]
    await run(tab, {"type": "click", "target": named(view, "Medium", "option").ref})
    assert await js(tab, "document.getElementById('log').textContent") == "Medium"
    assert named(await read_page(tab), "Medium", "option").selected is True


# -- grids ---------------------------------------------------------------------------------------


async def test_grid_cells_and_rows_are_controls_with_refs(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-grids.html")
    cells = [e.name for e in view.elements if e.role == "gridcell"]
    page_cells = await js(tab, "[...document.querySelectorAll('#ledger td, #days td,"
                               " #inbox [role=gridcell]')].map(td => td.textContent.trim())")
    assert cells == page_cells
    day = named(view, "3", "gridcell")
    assert await refs_of(tab, "[data-date='2024-05-03']") == [ref_number(day)]
    assert named(view, "2", "gridcell").selected is True
    await run(tab, {"type": "click", "target": day.ref})
    assert await js(tab, "document.querySelector('[data-date=\"2024-05-03\"]')"
                         ".getAttribute('aria-selected')") == "true"
    view = await read_page(tab)
    assert (named(view, "3", "gridcell").selected, named(view, "2", "gridcell").selected) == (
        True, False)

    thread = named(view, "Trip plans Ada", "row")
    assert (thread.expanded, thread.level) == (True, 1)
    assert named(view, "Re: Trip plans Grace", "row").level == 2
    await run(tab, {"type": "click", "target": thread.ref})
    assert await js(tab, "document.getElementById('thread').nextElementSibling.hidden") is True
    view = await read_page(tab)
    assert named(view, "Trip plans Ada", "row").expanded is False
    assert not [e for e in view.elements if e.name.startswith("Re: Trip plans")]

    levels = {e.name: e.level for e in view.elements if e.role == "treeitem"}
    assert levels == {"Documents": 1, "Taxes": 2, "Photos": 2}  # 2023 is in a closed folder
    total = named(view, "1254", "cell")
    assert await refs_of(tab, "#total") == [ref_number(total)]

    # Month links without href: a handler and a pointer cursor make them controls.
    after = named(view, "Next month")
    assert await refs_of(tab, "#next-month") == [ref_number(after)]
    await run(tab, {"type": "click", "target": after.ref})
    assert await js(tab, "document.getElementById('month').textContent") == "June 2024"


# -- inert content ------------------------------------------------------------------------------


async def test_inert_content_is_not_listed(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/widgets-read-inert.html")
    # The collapsed panel is on the page (it takes layout) but inert: nothing in it is listed.
    assert await js(tab, "const panel = document.getElementById('billing');"
                         " panel.inert && document.getElementById('update-card').checkVisibility()")
    assert [e.name for e in view.elements] == ["Billing", "Delete account", "Rename account",
                                               "Share account"]
    await run(tab, {"type": "click", "target": named(view, "Billing").ref})
    assert await js(tab, "document.getElementById('billing').inert") is False
    view = await read_page(tab)
    assert {"Card holder", "Update card"} <= {e.name for e in view.elements}

    # A modal dialog: the page behind it takes no input.
    result = await run(tab, {"type": "click", "target": named(view, "Delete account").ref})
    assert await js(tab, "document.getElementById('confirm').matches(':modal')") is True
    assert [e.name for e in (await read_page(tab)).elements] == ["Cancel", "Delete"]
    change = change_of(result)
    assert [(a.role, a.name) for a in change.appeared] == [("dialog", "Delete your account?")]
    assert not change.disappeared  # the page behind is still on screen
    await run(tab, {"type": "click", "selector": "#cancel"})

    # A script modal that makes the rest of the page inert.
    view = await read_page(tab)
    await run(tab, {"type": "click", "target": named(view, "Rename account").ref})
    assert await js(tab, "document.getElementById('app').inert") is True
    view = await read_page(tab)
    assert [e.name for e in view.elements] == ["New name", "Done"]
    await run(tab, {"type": "click", "target": named(view, "Done").ref})
    view = await read_page(tab)
    assert "Delete account" in [e.name for e in view.elements]

    # A modal that hides the rest from assistive technology and holds the focus, its backdrop
    # over the page.
    await run(tab, {"type": "click", "target": named(view, "Share account").ref})
    assert await js(tab, "document.getElementById('app').getAttribute('aria-hidden') === 'true'"
                         " && document.activeElement.id === 'share-email'")
    assert [e.name for e in (await read_page(tab)).elements] == ["Email", "Send invite"]
    await run(tab, {"type": "click", "selector": "#share-send"})
    assert "Share account" in [e.name for e in (await read_page(tab)).elements]


async def test_act_refuses_nothing_it_lists(tab: Tab, server: FixtureServer) -> None:
    """Every control read_page lists on these pages is one an act can aim at (no ref for
    something hidden or inert that would fail as not actionable)."""
    for path in ("/widgets-read-toggles.html", "/widgets-read-apg.html",
                 "/widgets-read-grids.html", "/widgets-read-inert.html"):
        view = await open_page(tab, server, path)
        for element in view.elements:
            result = await act(tab, [{"type": "hover", "target": element.ref,
                                      "timeoutMs": 2000}])
            hidden_input = element.tag == "input" and element.role in ("checkbox", "radio",
                                                                        "switch")
            assert result.ok or hidden_input, (path, element, result.failed)
