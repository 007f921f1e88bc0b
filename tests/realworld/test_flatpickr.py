"""flatpickr 4.6: a flight search whose departure day is picked in the calendar (an alt input
shows it, the form keeps Y-m-d), hotel nights picked as a range, and a date of birth typed
straight in (allowInput). App: fixtures/realworld/apps/flatpickr-flights.html, which keeps
window.__log of each committed date and its pickers as window.__pickers."""

from __future__ import annotations

from typing import Any

import pytest

from cdpseq import ActResult, Tab, act, read_page
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import js, open_app

FLATPICKR = "flatpickr 4.6"


def changes(result: ActResult, ref_: str) -> dict[str, tuple[Any, Any]]:
    """What the delta says changed on one element: field -> (from, to)."""
    change = result.state_change
    assert change, result
    return {c.field or "": (c.before, c.after) for c in change.changed if c.ref == ref_}


async def this_month(tab: Tab, day: int, form: str) -> str:
    """A day of the month the calendar opens on (the page's today), in a flatpickr format."""
    return str(await js(tab, f"(() => {{ const d = new Date(); d.setDate({day}); "
                             f"return __pickers.departure.formatDate(d, {form!r}); }})()"))


async def open_calendar(tab: Tab, field: str) -> dict[str, str]:
    """Click a date field as a user does; the open calendar's days by their names."""
    opened = await act(tab, {"steps": [{"type": "click", "target": field}]})
    assert opened.ok, opened
    calendar = await read_page(tab, selector=".flatpickr-calendar.open")
    return {e.name: e.ref for e in calendar.elements if e.name}


@pytest.mark.corpus(FLATPICKR, "pick a day in the calendar (alt input)", "read act delta")
async def test_a_departure_day_is_picked(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "flatpickr-flights")
    # The alt input flatpickr shows has no label of its own (the label names the hidden
    # input): its name is its placeholder, as Chromium says too.
    departure = ref(view, "Pick a day", "textbox")
    days = await open_calendar(tab, departure)
    picked = await act(tab, {"steps": [
        {"type": "click", "target": days[await this_month(tab, 15, "F j, Y")]}]})
    assert picked.ok, picked
    day = await this_month(tab, 15, "Y-m-d")
    assert await js(tab, "document.getElementById('departure').value") == day
    assert await js(tab, "__log") == [f"departure={day}"]
    assert await js(tab, "document.querySelectorAll('.flatpickr-calendar.open').length") == 0
    assert changes(picked, departure) == {"value": ("", await this_month(tab, 15, "D j M Y"))}


@pytest.mark.corpus(FLATPICKR, "the calendar that opens, reported as one container", "delta")
async def test_the_opened_calendar_is_one_entry(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "flatpickr-flights")
    opened = await act(tab, {"steps": [{"type": "click",
                                        "target": ref(view, "Pick a day", "textbox")}]})
    assert opened.ok and opened.state_change, opened
    assert await js(tab, "document.querySelectorAll('.flatpickr-calendar.open').length") == 1
    assert len(opened.state_change.appeared) == 1, opened.state_change.appeared
    calendar = opened.state_change.appeared[0]
    assert await this_month(tab, 1, "F j, Y") in [c.name for c in calendar.controls or []]


@pytest.mark.corpus(FLATPICKR, "pick a range: two days, the second from the delta's "
                    "replaced refs (the days are rendered anew)", "read act delta")
async def test_hotel_nights_are_picked_as_a_range(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "flatpickr-flights")
    stay = ref(view, "Hotel nights", "textbox")
    days = await open_calendar(tab, stay)
    first = await act(tab, {"steps": [
        {"type": "click", "target": days[await this_month(tab, 10, "F j, Y")]}]})
    assert first.ok and first.state_change, first
    # flatpickr renders the days again after the first click: the delta says which new ref
    # each one has (its old ref is stale).
    last_name = await this_month(tab, 14, "F j, Y")
    renewed = {r.name: r.after for r in first.state_change.replaced}
    assert days[last_name] != renewed[last_name]
    second = await act(tab, {"steps": [{"type": "click", "target": renewed[last_name]}]})
    assert second.ok, second
    nights = f"{await this_month(tab, 10, 'Y-m-d')} to {await this_month(tab, 14, 'Y-m-d')}"
    assert await js(tab, "document.getElementById('stay').value") == nights
    assert await js(tab, "__log.at(-1)") == f"stay={nights}"
    assert await js(tab, "__pickers.stay.selectedDates.length") == 2
    assert await js(tab, "document.querySelectorAll('.flatpickr-calendar.open').length") == 0
    assert changes(second, stay) == {"value": (await this_month(tab, 10, "Y-m-d"), nights)}


@pytest.mark.corpus(FLATPICKR, "allowInput: a date typed into the field, Enter", "act delta")
async def test_a_birth_date_is_typed_in(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "flatpickr-flights")
    birth = ref(view, "Lead passenger's date of birth", "textbox")
    result = await act(tab, {"steps": [{"type": "fill", "target": birth, "value": "1990-04-12"},
                                       {"type": "press", "key": "Enter"}]})
    assert result.ok, result
    assert await js(tab, "__log") == ["birth=1990-04-12"]
    assert await js(tab, "__pickers.birth.formatDate(__pickers.birth.selectedDates[0], 'Y-m-d')"
                    ) == "1990-04-12"
    assert await js(tab, "document.querySelectorAll('.flatpickr-calendar.open').length") == 0
    assert changes(result, birth) == {"value": ("", "1990-04-12")}


@pytest.mark.corpus(FLATPICKR, "allowInput: a date typed in, committed by leaving the field",
                    "act")
async def test_a_typed_date_is_committed_on_leaving(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "flatpickr-flights")
    birth = ref(view, "Lead passenger's date of birth", "textbox")
    result = await act(tab, {"steps": [{"type": "fill", "target": birth, "value": "1985-12-01"},
                                       {"type": "click",
                                        "target": ref(view, "Search flights", "button")}]})
    assert result.ok, result
    # flatpickr takes the typed date when the press lands outside it (silently: no onChange).
    assert await js(tab, "__pickers.birth.formatDate(__pickers.birth.selectedDates[0], 'Y-m-d')"
                    ) == "1985-12-01"
    assert await js(tab, "document.querySelectorAll('.flatpickr-calendar.open').length") == 0
    assert await js(tab, "document.getElementById('status').textContent"
                    ) == "Flights on ?, hotel ?"
