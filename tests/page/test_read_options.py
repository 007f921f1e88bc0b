"""read_page's options (issue 13): a scope, roles, viewportOnly, maxElements, includeBounds —
and that a narrowed read leaves the delta baseline and the refs alone."""

from __future__ import annotations

import pytest

from cdpseq import InvalidRequest, PageElement, PageView, Tab, act, read_page
from cdpseq.page.view import cap_view, with_bounds
from fixtures.server import FixtureServer
from tests.helpers import js, open_page


def names(view: PageView) -> list[str]:
    return [e.name for e in view.elements]


async def test_a_scope_reads_one_region_with_the_refs_of_the_full_read(
        tab: Tab, server: FixtureServer) -> None:
    full = await open_page(tab, server, "/regions.html")
    scoped = await read_page(tab, "all", selector="aside")
    assert names(scoped) == ["Filters", "Open", "Closed", "Apply filters"]  # the aside's ref
    assert "## Filters" in scoped.text and "# Issues" not in scoped.text
    by_name = {e.name: e.ref for e in full.elements}
    assert all(by_name[e.name] == e.ref for e in scoped.elements if e.name in by_name)
    again = await read_page(tab, target=by_name["Closed"])  # a ref scope: the element itself
    assert names(again) == ["Closed"]


async def test_a_narrowed_read_is_not_the_next_deltas_baseline(tab: Tab,
                                                               server: FixtureServer) -> None:
    full = await open_page(tab, server, "/regions.html")
    await read_page(tab, selector="aside")
    await read_page(tab, roles=["checkbox"])
    await read_page(tab, viewport_only=True)
    delta = await read_page(tab, compression="delta")
    assert delta.delta is not None and delta.full is None, delta.text
    assert delta.delta.removed == [] and delta.elements == []
    assert delta.delta.against == full.read  # the narrowed reads were not counted
    assert delta.delta.unchanged == len(full.elements)


async def test_roles_keep_only_those_roles(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/regions.html")
    boxes = await read_page(tab, roles=["checkbox"])
    assert names(boxes) == ["Open", "Closed"]
    headings = await read_page(tab, "all", roles=["heading"])
    assert headings.elements == []
    assert headings.text.splitlines()[1:] == ["## Filters", "# Issues"]


async def test_viewport_only_follows_the_scroll(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/regions.html")
    top = names(await read_page(tab, viewport_only=True))
    assert "Home" in top and "Issue 1" in top
    assert "Issue 30" not in top and "Feedback" not in top
    await js(tab, "scrollTo(0, document.body.scrollHeight)")
    bottom = names(await read_page(tab, viewport_only=True))
    assert "Feedback" in bottom and "Home" not in bottom


async def test_max_elements_caps_and_says_how_many_went(tab: Tab, server: FixtureServer
                                                        ) -> None:
    full = await open_page(tab, server, "/regions.html")
    capped = await read_page(tab, max_elements=5)
    assert capped.elements == full.elements[:5]
    assert capped.omitted == len(full.elements) - 5
    assert capped.text.splitlines()[-1] == (f"… {capped.omitted} more elements left out "
                                            "(maxElements 5)")
    assert len(capped.text.splitlines()) == 1 + 5 + 1
    # A capped read is still a whole-page read: the delta after it has nothing to say.
    delta = await read_page(tab, compression="delta", max_elements=5)
    assert delta.delta is not None and delta.elements == [] and delta.omitted is None


async def test_include_bounds_gives_each_elements_box(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/regions.html")
    view = await read_page(tab, include_bounds=True, selector="body")
    boxes = {e.name: e.bounds for e in view.elements}
    open_box, first = boxes["Open"], boxes["Issue 1"]
    assert open_box is not None and first is not None
    assert open_box[0] < 180 <= 200 <= first[0]  # sidebar left of main
    assert open_box[2] > 0 and open_box[3] > 0
    x, y, w, h = await js(tab, "(r => [r.x, r.y, r.width, r.height].map(Math.round))("
                               "document.querySelector('#apply').getBoundingClientRect())")
    assert boxes["Apply filters"] == [x, y, w, h]
    assert f'button "Apply filters" box={x},{y},{w},{h}' in view.text
    plain = await read_page(tab)  # a cached full view is not left with boxes
    assert all(e.bounds is None for e in plain.elements)


async def test_as_act_steps(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/regions.html")
    result = await act(tab, {"returnMode": "delta", "perStepTimeoutMs": 400, "steps": [
        {"type": "read_page", "selector": "nav", "includeBounds": True, "maxElements": 2},
        {"type": "read_page", "selector": "#not-there"}]})
    page = result.steps[0].output
    assert [e["name"] for e in page["elements"]] == ["Home", "Issues"]
    assert page["omitted"] == 2 and all(e["bounds"] for e in page["elements"])
    assert result.failed is not None and result.failed.index == 1
    assert result.failed.code == "NODE_NOT_FOUND" and "#not-there" in result.failed.error


@pytest.mark.parametrize(("options", "field"), [
    ({"compression": "delta", "selector": "aside"}, "selector"),
    ({"compression": "delta", "viewport_only": True}, "viewportOnly"),
    ({"target": "node_5"}, "target"),
    ({"target": "ref_1", "selector": "aside"}, "selector"),
    ({"roles": []}, "roles"),
    ({"roles": "button"}, "roles"),
    ({"max_elements": 0}, "maxElements"),
])
async def test_bad_options_name_the_field(tab: Tab, options: dict[str, object], field: str
                                          ) -> None:
    with pytest.raises(InvalidRequest) as raised:
        await read_page(tab, **options)  # type: ignore[arg-type]
    assert raised.value.field == field


def _view(*refs: str, delta: bool = False) -> PageView:
    elements = [PageElement(ref=ref, tag="button", role="button", name=ref, selector="x")
                for ref in refs]
    mark = "+ " if delta else ""
    lines = ["Page: t u", *[f'{mark}[{ref}] button "{ref}"' for ref in refs], "some text"]
    if delta:
        lines.append('- [ref_99] button "gone"')
    return PageView(elements=elements, text="\n".join(lines))


def test_cap_view_keeps_the_lines_up_to_the_last_kept_element() -> None:
    capped = cap_view(_view("ref_1", "ref_2", "ref_3"), 2)
    assert capped.text.splitlines() == ["Page: t u", '[ref_1] button "ref_1"',
                                        '[ref_2] button "ref_2"',
                                        "… 1 more elements left out (maxElements 2)"]
    assert capped.omitted == 1
    delta = cap_view(_view("ref_1", "ref_2", delta=True), 1)
    assert '- [ref_99] button "gone"' in delta.text and "ref_2" not in delta.text
    same = _view("ref_1")
    assert cap_view(same, 1) is same


def test_with_bounds_copies_elements_and_marks_lines() -> None:
    view = _view("ref_1", "ref_2")
    boxed = with_bounds(view, {"ref_1": [1, 2, 3, 4], "ref_2": None})
    assert boxed.elements[0].bounds == [1, 2, 3, 4] and boxed.elements[1].bounds is None
    assert view.elements[0].bounds is None  # not mutated
    assert '[ref_1] button "ref_1" box=1,2,3,4' in boxed.text
    assert '[ref_2] button "ref_2"\n' in boxed.text
