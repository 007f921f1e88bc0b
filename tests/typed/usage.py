"""A user's script written against cdpseq's Python API, as a type checker sees it.

``tests/test_typed_api.py`` runs mypy --strict on this file (it must pass) and on a broken copy
(it must fail), and runs :func:`sign_in` on a live tab. Python names are snake_case; the JSON
of the same result is camelCase.
"""

from __future__ import annotations

import cdpseq
from cdpseq import (
    ActRequest,
    ActResult,
    Click,
    DialogReport,
    Fill,
    MultiActResult,
    PageElement,
    PageView,
    ReadPage,
    StateChange,
    Tab,
    WaitFor,
)


async def sign_in(tab: Tab, login_url: str) -> list[str]:
    """Sign in on the fixture login page; what the typed result told, as lines."""
    told: list[str] = []
    # A bare list of steps: Structs and plain dicts mixed.
    loaded: ActResult = await cdpseq.act(tab, [
        {"type": "navigate", "url": login_url}, ReadPage(filter="interactive")])
    page = loaded.page
    assert isinstance(page, PageView)
    fields: dict[str, PageElement] = {element.name: element for element in page.elements}
    # An ActRequest, with snake_case options.
    request = ActRequest(steps=[
        Fill(target=fields["Email"].ref, value="ada@example.org"),
        Fill(selector="#password", value="pw"),
        Click(target=fields["Sign in"].ref),
        WaitFor(text="Welcome back"),
    ], return_mode="final", settle_timeout_ms=5000)
    result = await cdpseq.act(tab, request)
    told.append(f"ok={result.ok} completed={result.completed}/{result.total}")
    if isinstance(result.stability_wait_ms, int):
        told.append(f"settled in {result.stability_wait_ms} ms")
    change = result.state_change
    if isinstance(change, StateChange):
        if change.url is not None:
            told.append(f"url {change.url.before} -> {change.url.after}")
        for item in change.appeared:
            ref: str | None = item.ref
            told.append(f"appeared {item.role} {item.name!r} {ref}")
            told.extend(f"  line {line}" for line in item.lines or [])
            for control in item.controls or []:
                told.append(f"  control {control.role} {control.name!r} {control.ref}")
        for changed in change.changed:
            told.append(f"changed {changed.field}: {changed.before!r} -> {changed.after!r}")
    dialogs = result.dialog
    for dialog in dialogs if isinstance(dialogs, list) else [dialogs]:
        if isinstance(dialog, DialogReport):
            told.append(f"dialog {dialog.type} {dialog.handled}")
    return told


async def both_tabs(browser: cdpseq.Browser, first: Tab, second: Tab) -> bool:
    many: MultiActResult = await cdpseq.act_many(browser, [
        ActRequest(tab_id=first.id, steps=[ReadPage()]),
        {"tabId": second.id, "steps": [{"type": "read_page"}]},
    ])
    return all(one.ok for one in many.results)


async def keep_login(tab: Tab, fresh: cdpseq.Browser, path: str) -> list[str]:
    state: cdpseq.StorageState = await cdpseq.save_state(tab, path)
    summary: cdpseq.StateSummary = await cdpseq.load_state(fresh, state)
    return [f"{summary.cookies} cookies"] + [
        f"{origin.origin}: {len(origin.local_storage)} items" for origin in state.origins]
