"""The selected tab, kept in the browser so that every CLI process agrees on it.

``cdpseq tabs select ID`` (or ``tabs new``) and the next ``cdpseq act`` are separate processes
that share only the browser; Chromium's own tab order does not follow activation
(``Target.getTargets`` lists tabs in the same order after ``Target.activateTarget``), so the
choice is written down as a session cookie on a host no page can load or read, like the ref
floors of ``page/tab_notes``. It is read and written with the browser-level ``Storage`` domain:
no tab has to be attached to learn which tab to attach to. The cookie goes when the browser
exits; a selection naming a tab that closed since is ignored.
"""

from __future__ import annotations

from ..browser import Browser

_URL = "http://selected.cdpseq.invalid/"
_DOMAIN = "selected.cdpseq.invalid"
_NAME = "tab"


async def load_selected(browser: Browser) -> str | None:
    """The tab id last selected by any process, or None."""
    found = await browser.connection.execute("Storage.getCookies")
    for cookie in found.get("cookies", []):
        if cookie.get("domain") == _DOMAIN and cookie.get("name") == _NAME:
            value = cookie.get("value")
            return value if isinstance(value, str) and value else None
    return None


async def store_selected(browser: Browser, tab_id: str | None) -> None:
    """Record ``tab_id`` as the selected tab (None forgets the selection)."""
    if tab_id is None:
        # Storage has no delete: an expired cookie is removed by the jar at once.
        cookie = {"name": _NAME, "value": "", "url": _URL, "expires": 1}
    else:
        cookie = {"name": _NAME, "value": tab_id, "url": _URL}
    await browser.connection.execute("Storage.setCookies", {"cookies": [cookie]})
