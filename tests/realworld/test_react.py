"""React 19: controlled inputs, whose value lives in state and is written back on every input."""

from __future__ import annotations

import pytest

from cdpseq import Tab, act
from fixtures.server import FixtureServer
from tests.helpers import ref
from tests.realworld.common import js, open_app


@pytest.mark.corpus("React 19", "controlled text input, checkbox in its label, submit",
                    "read act delta")
async def test_a_controlled_form_is_filled_and_submitted(tab: Tab, server: FixtureServer) -> None:
    view = await open_app(tab, server, "react-signup")
    name, terms = ref(view, "Full name", "textbox"), ref(view, "I accept the terms", "checkbox")
    result = await act(tab, {"steps": [
        {"type": "fill", "target": name, "value": "Ada Lovelace"},
        {"type": "check", "target": terms},
        {"type": "click", "target": ref(view, "Create account", "button")}]})
    assert result.ok, result
    # The page's own state: React's (upper-cased by its onChange), the box, the greeting.
    assert await js(tab, "document.getElementById('name').value") == "ADA LOVELACE"
    assert await js(tab, "document.querySelector('input[type=checkbox]').checked") is True
    assert await js(tab, "document.querySelector('[role=status]').textContent"
                    ) == "Welcome, ADA LOVELACE!"
    change = result.state_change
    assert change is not None
    assert [a.name for a in change.appeared if a.role == "status"] == ["Welcome, ADA LOVELACE!"]
