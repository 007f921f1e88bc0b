"""Actions on widgets of real component libraries that cdpseq got wrong (issue 21, second
round), each checked against the page's own state: buttons of web components whose label is
the host's text, slotted into the inner button."""

from __future__ import annotations

import json
from typing import Any

import msgspec

from cdpseq import ActResult, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, ref, run


def failure(result: ActResult) -> str:
    return json.dumps(msgspec.to_builtins(result.failed))


def refused(result: ActResult, *reasons: str) -> None:
    assert result.failed is not None and result.failed.code == "NOT_ACTIONABLE", failure(result)
    for reason in reasons:
        assert reason in result.failed.error, result.failed.error


async def quick(tab: Tab, *steps: dict[str, Any], timeout_ms: int = 1500) -> ActResult:
    """An act without settling whose steps give up after ``timeout_ms``."""
    return await act(tab, {"settle": False, "perStepTimeoutMs": timeout_ms, "steps": list(steps)})


async def log(tab: Tab) -> list[Any]:
    return list(await js(tab, "window.__log"))


# -- 2. a web component's button, labelled by the host's text through a slot -----------------

SLOTS = "/widgets-act2-slots.html"


async def test_a_component_button_labelled_by_slotted_text_is_clicked_by_its_ref(
        tab: Tab, server: FixtureServer) -> None:
    view = await open_page(tab, server, SLOTS)
    await run(tab, {"type": "click", "target": ref(view, "Save profile", "button")},
              {"type": "click", "selector": "#archive >> x-button >> button"})
    # Each click reached the component's inner button.
    assert await log(tab) == ["save button", "archive button"]


async def test_slotted_text_rendered_over_a_button_covers_it(tab: Tab, server: FixtureServer
                                                            ) -> None:
    view = await open_page(tab, server, SLOTS)
    result = await quick(tab, {"type": "click", "target": ref(view, "Go", "button")})
    refused(result, "covered by slot")  # the host's text, where the note shows it
    assert await log(tab) == []
