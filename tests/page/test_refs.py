"""Refs: stable while their element lives, never reused, never acting on another element."""

from __future__ import annotations

import trio

from cdpseq import Browser, LaunchedChromium, Tab, act, open_browser, read_page
from cdpseq.cdp import dom, runtime
from cdpseq.page.agent import MAX_NODE_IDS_PER_READ
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, ref, run, text_of


async def test_refs_are_stable_across_reads_and_re_renders(tab: Tab, server: FixtureServer
                                                           ) -> None:
    first = await open_page(tab, server, "/controlled.html")
    await run(tab, {"type": "fill", "selector": "#name", "value": "re-render me"})
    second = await read_page(tab)
    assert {e.ref: e.name for e in first.elements} == {e.ref: e.name for e in second.elements}
    assert [e.node_id for e in first.elements] == [e.node_id for e in second.elements]


async def test_refs_are_shared_by_separate_connections(tab: Tab, chromium: LaunchedChromium,
                                                       server: FixtureServer) -> None:
    mine = await open_page(tab, server, "/form-controls.html")
    async with open_browser(chromium.endpoint) as other:
        theirs = await read_page(await other.tab(tab.id))
        assert [(e.ref, e.name) for e in theirs.elements] == \
               [(e.ref, e.name) for e in mine.elements]
        # A ref the other connection read works here, and the other way round.
        await run(await other.tab(tab.id), {"type": "click", "target": ref(mine, "Add one")})
    await run(tab, {"type": "click", "target": ref(theirs, "Add one")})
    assert await text_of(tab, "#count") == "2"


async def test_new_elements_get_new_numbers_never_reused(tab: Tab, server: FixtureServer
                                                         ) -> None:
    before = await open_page(tab, server, "/removal.html")
    old = {e.name: e.ref for e in before.elements}
    await run(tab, {"type": "click", "selector": "#replace"})
    after = await read_page(tab)
    new = {e.name: e.ref for e in after.elements}
    for name in ("Alpha", "Beta", "Gamma"):  # same text, new nodes: new refs
        assert new[name] != old[name]
    highest_before = max(int(r.removeprefix("ref_")) for r in old.values())
    assert all(int(new[n].removeprefix("ref_")) > highest_before for n in ("Alpha", "Beta"))


async def test_stale_ref_after_removal_never_acts_elsewhere(tab: Tab, server: FixtureServer
                                                            ) -> None:
    view = await open_page(tab, server, "/removal.html")
    beta = ref(view, "Beta")
    await run(tab, {"type": "click", "selector": "#replace"})
    status = await text_of(tab, "#status")
    result = await act(tab, [{"type": "click", "target": beta}])
    assert result.failed is not None and result.failed.code == "STALE_REF"
    assert "removed" in result.failed.error and "read the page again" in result.failed.error
    assert await text_of(tab, "#status") == status  # the new "Beta" was not clicked instead


async def test_stale_ref_after_navigation_even_when_numbers_exist_again(
        tab: Tab, server: FixtureServer) -> None:
    login = await open_page(tab, server, "/login.html")
    sign_in = ref(login, "Sign in")
    await open_page(tab, server, "/form-controls.html")  # more elements than login had
    result = await act(tab, [{"type": "click", "target": sign_in}])
    assert result.failed is not None and result.failed.code == "STALE_REF"
    assert "previous document" in result.failed.error
    assert await text_of(tab, "#count") == "0"
    # Back on the login page (a new document again), its old refs stay stale too.
    await run(tab, {"type": "navigate", "url": server.url("/login.html")})
    again = await act(tab, [{"type": "click", "target": sign_in}])
    assert again.failed is not None and again.failed.code == "STALE_REF"


async def test_refs_never_reused_across_connections_after_navigation(
        tab: Tab, chromium: LaunchedChromium, server: FixtureServer) -> None:
    first = await open_page(tab, server, "/login.html")
    # Another process navigates and is the first to read the new document.
    async with open_browser(chromium.endpoint) as other:
        other_tab = await other.tab(tab.id)
        await run(other_tab, {"type": "navigate", "url": server.url("/form-controls.html")})
        fresh = await read_page(other_tab)
    old_numbers = {int(e.ref.removeprefix("ref_")) for e in first.elements}
    new_numbers = {int(e.ref.removeprefix("ref_")) for e in fresh.elements}
    assert min(new_numbers) > max(old_numbers)


async def test_unknown_and_missing_targets(tab: Tab, server: FixtureServer) -> None:
    await open_page(tab, server, "/status.html")
    never = await act(tab, [{"type": "click", "target": "ref_999999"}])
    assert never.failed is not None and never.failed.code == "STALE_REF"
    node = await act(tab, [{"type": "click", "target": "node_99999999"}])
    assert node.failed is not None and node.failed.code == "NODE_NOT_FOUND"
    missing = await act(tab, [{"type": "click", "selector": "#nope", "timeoutMs": 200}])
    assert missing.failed is not None and missing.failed.code == "NODE_NOT_FOUND"
    bad = await act(tab, [{"type": "click", "selector": "##", "timeoutMs": 200}])
    assert bad.failed is not None and bad.failed.code == "INVALID_REQUEST"


async def test_covered_disabled_hidden_and_zero_size_are_not_actionable(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/actionability.html")
    reasons = {}
    for name in ("Covered button", "Disabled", "Zero size"):
        with trio.fail_after(10):
            result = await act(tab, [{"type": "click", "target": ref(view, name),
                                     "timeoutMs": 300}])
        assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE", name
        reasons[name] = result.failed.error
    assert "covered by div#backdrop.modal-backdrop" in reasons["Covered button"]
    assert "disabled" in reasons["Disabled"]
    assert "zero-size" in reasons["Zero size"]
    hidden = await act(tab, [{"type": "click", "selector": "#hidden", "timeoutMs": 300}])
    assert hidden.failed is not None and hidden.failed.code == "NOT_ACTIONABLE"
    assert "display:none" in hidden.failed.error
    assert "overlay" not in await text_of(tab, "#log")  # the backdrop never got a click


async def test_auto_wait_until_the_cover_goes_away(tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, "/actionability.html")
    await run(tab, {"type": "click", "target": ref(view, "Remove backdrop in 500 ms")},
              {"type": "click", "target": ref(view, "Covered button"), "timeoutMs": 5000})
    assert await text_of(tab, "#status") == "covered clicked"


async def test_node_targets_from_a_read(browser: Browser, tab: Tab, server: FixtureServer
                                        ) -> None:
    view = await open_page(tab, server, "/status.html")
    button = next(e for e in view.elements if e.name == "Click me")
    await run(tab, {"type": "click", "target": button.node_id})
    assert await js(tab, "document.querySelector('#status').textContent") == "Clicked"


async def test_a_repeated_read_sees_changes_that_are_not_mutations(tab: Tab,
                                                                   server: FixtureServer
                                                                   ) -> None:
    """Re-reading an unchanged page is answered from the last read; these changes make no
    DOM mutation and must still show."""
    await open_page(tab, server, "/form-controls.html")
    first = await read_page(tab)
    again = await read_page(tab)
    assert again.text == first.text and again.read == first.read + 1
    # A form value set by script: a property, no attribute, no event.
    await js(tab, "document.querySelector('#typing').value = 'set by script'")
    assert 'value="set by script"' in (await read_page(tab)).text
    await js(tab, "document.querySelector('#agree').checked = true")
    agree = next(e for e in (await read_page(tab)).elements if e.name == "I agree to the terms")
    assert agree.checked is True
    # A shadow root attached to an element that was already there: no light-DOM mutation.
    await js(tab, "document.querySelector('#count').attachShadow({mode: 'open'}).innerHTML ="
                  " '<button>Inside late shadow</button>'")
    assert any(e.name == "Inside late shadow" for e in (await read_page(tab)).elements)
    # pushState without any DOM change.
    await js(tab, "history.pushState({}, '', '#moved')")
    assert (await read_page(tab)).tab.url.endswith("#moved")  # type: ignore[union-attr]


async def test_node_ids_of_a_big_page_fill_in_over_reads_and_name_their_elements(
        tab: Tab, server: FixtureServer) -> None:
    # 600 rows: more elements than one read learns ids for (MAX_NODE_IDS_PER_READ), the first
    # chunk learned while the view is built, the rest by later reads.
    first = await open_page(tab, server, "/big.html?n=600")
    rows = [e for e in first.elements if e.name.startswith("Row ")]
    assert len(rows) == 600
    have = [e.node_id is not None for e in first.elements]
    assert have[:MAX_NODE_IDS_PER_READ] == [True] * MAX_NODE_IDS_PER_READ
    assert not any(have[MAX_NODE_IDS_PER_READ:])
    second = await read_page(tab)
    assert sum(e.node_id is not None for e in second.elements) == 2 * MAX_NODE_IDS_PER_READ
    third = await read_page(tab)
    assert all(e.node_id is not None for e in third.elements)
    # Each id is its own element's: the browser resolves it to the element of that name.
    for element in (third.elements[0], rows[0], rows[MAX_NODE_IDS_PER_READ], rows[-1]):
        node_id = next(e.node_id for e in third.elements if e.ref == element.ref)
        remote = await tab.send(dom.ResolveNode(backendNodeId=node_id))
        assert remote.object.objectId is not None
        named = await tab.send(runtime.CallFunctionOn(
            functionDeclaration="function() { return this.textContent; }",
            objectId=remote.object.objectId, returnByValue=True))
        assert named.result.value == element.name
