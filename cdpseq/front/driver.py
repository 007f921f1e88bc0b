"""The one path from a front door (the CLI, the MCP server) into the engine.

A ``Driver`` holds one browser, the *current tab* and the secrets, and does what both doors
offer: act, read the page, list, open, select and close tabs. Tab selection, the answer for a
tab that cannot be had, and secret scrubbing live here once; each door only turns its own input
into these calls and their answers into its own output.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec
import trio

from ..browser import Browser, Tab, TabInfo
from ..browser.tab import ATTACH_ANSWER
from ..engine.multi import MultiActRequest, MultiActResult, run_sequences
from ..engine.reading import READ_TIMEOUT, read_page
from ..engine.request import ActRequest
from ..engine.result import ActResult, invalid_result, no_tab_result
from ..engine.runner import run_validated
from ..engine.secrets import Secrets, scrub
from ..engine.validate import parse_request
from ..errors import InvalidRequest, TargetClosed
from ..page.view import PageView, ReadFilter
from .selection import load_selected, store_selected

# Secrets shorter than this are scrubbed by act from its own results only: replacing "ab" in
# every read would garble the page.
_SCRUB_MIN_LENGTH = 4


class Driver:
    """One browser, its current tab and the secrets, for every call of a front door."""

    def __init__(self, browser: Browser | None, secrets: Mapping[str, str] | None = None, *,
                 environ: Mapping[str, str] | None = None, shared_selection: bool = False
                 ) -> None:
        self._browser = browser
        """None until :meth:`use` gives one (the MCP server's, opened by its first call)."""
        self.shared_selection = shared_selection
        """Whether the current tab is kept in the browser (``front/selection``), so that the
        next process starts where this one selected: the CLI's processes. An MCP server keeps
        its own, so that two clients on one browser do not move each other's current tab."""
        self.secrets = Secrets(secrets, environ=environ)
        self.current: str | None = None
        """The current tab's id; None until a call needs it (then the first page tab)."""
        self._scrub_values = self.secrets.known_values(min_length=_SCRUB_MIN_LENGTH)

    @property
    def browser(self) -> Browser:
        """The browser being driven (``use`` it first)."""
        if self._browser is None:
            raise RuntimeError("Driver.use(browser) first")  # a bug of the door, not input
        return self._browser

    def use(self, browser: Browser) -> None:
        """Drive ``browser`` from now on: the same one, or a new one after the last was lost
        (the MCP server's), whose tabs are new: the current tab is forgotten."""
        if browser is not self._browser:
            self._browser, self.current = browser, None

    async def tab(self, tab_id: str | None = None, *, answer_timeout: float = ATTACH_ANSWER
                  ) -> Tab:
        """``tab_id``, else the current tab, else the first page tab (which becomes current),
        attached within about ``answer_timeout`` seconds (``Browser.tab``). Raises
        ``TargetClosed`` when the tab is gone, ``InvalidRequest`` (``tabId``) when the id names
        no tab."""
        if tab_id is not None:
            return await self.browser.tab(tab_id, answer_timeout=answer_timeout)
        if self.current is None:
            await self._adopt_shared_selection()
        if self.current is not None:
            try:
                return await self.browser.tab(self.current, answer_timeout=answer_timeout)
            except TargetClosed:
                gone, self.current = self.current, None
                raise TargetClosed(gone, None, "the current tab was closed; the next call "
                                   "without tabId uses the first tab (tabs lists them)") from None
        tab = await self.browser.tab(answer_timeout=answer_timeout)
        self.current = tab.id
        return tab

    async def act(self, request: ActRequest) -> ActResult:
        """Run a validated request in its ``tab_id`` (else the current tab); a tab that cannot
        be had answers a result in which nothing ran: INVALID_REQUEST for an id that names no
        tab, TARGET_CLOSED for a tab that closed."""
        try:
            tab = await self.tab(request.tab_id)
        except InvalidRequest as exc:
            return invalid_result(exc, request)
        except TargetClosed as exc:
            return no_tab_result(request, request.tab_id, exc.reason)
        return await run_validated(tab, request, secrets=self.secrets.given,
                                   environ=self.secrets.environ)

    async def read_page(self, tab_id: str | None, filter: ReadFilter = "interactive",
                        compression: Literal["none", "delta"] = "none", *,
                        answer_timeout: float = READ_TIMEOUT, **options: Any) -> PageView:
        """``options``: ``cdpseq.read_page``'s (target, selector, roles, viewport_only,
        max_elements, include_bounds). Attaching the tab and reading it share ``answer_timeout``:
        a hung tab, which also keeps an attach waiting, is ``PageUnresponsive`` within it."""
        deadline = trio.current_time() + answer_timeout
        tab = await self.tab(tab_id, answer_timeout=answer_timeout)
        return await read_page(tab, filter, compression,
                               answer_timeout=max(deadline - trio.current_time(), 0), **options)

    async def tabs(self) -> list[TabInfo]:
        """The page tabs; the current tab is forgotten when it is not among them."""
        if self.current is None:
            await self._adopt_shared_selection()
        pages = await self.browser.tabs()
        if self.current not in {info.id for info in pages}:
            self.current = pages[0].id if pages else None
        return pages

    async def new_tab(self, url: str = "about:blank", *, isolated: bool = False) -> Tab:
        """A new tab at ``url`` (blank by default), which becomes the current one; ``isolated``
        opens it in a browser context of its own (``Browser.new_tab``). Raises
        ``UrlBlocked``, opening nothing, when the browser's policy refuses ``url``."""
        tab = await self.browser.new_tab(url, isolated=isolated)
        await self._set_current(tab.id)
        return tab

    async def open_tab(self, url: str = "about:blank", *, isolated: bool = False
                       ) -> tuple[Tab, ActResult | None]:
        """A new current tab loaded with ``url`` as a navigate step would load it, and that
        load's result (None for about:blank); ``isolated`` is ``new_tab``'s. Raises, opening
        nothing, ``InvalidRequest`` (field ``url``) for a URL a navigate step refuses, and
        ``UrlBlocked`` for one the browser's policy refuses."""
        try:
            load = parse_request([{"type": "navigate", "url": url}])
        except InvalidRequest as exc:
            raise InvalidRequest("url", exc.reason) from None
        self.browser.check_url(url)
        tab = await self.new_tab(isolated=isolated)
        if url == "about:blank":
            return tab, None
        return tab, await self.act(msgspec.structs.replace(load, tab_id=tab.id))

    async def select(self, tab_id: str) -> Tab:
        """Make ``tab_id`` the current tab (and bring it to the front)."""
        tab = await self.browser.tab(tab_id)
        await tab.activate()
        await self._set_current(tab.id)
        return tab

    async def close(self, tab_id: str) -> None:
        """Close ``tab_id``; ``InvalidRequest`` when it names no tab, ``TargetClosed`` when it
        closed already."""
        await self.browser.find_tab(tab_id)
        await self.browser.close_tab(tab_id)
        if self.current == tab_id:
            await self._set_current(None)

    async def _set_current(self, tab_id: str | None) -> None:
        self.current = tab_id
        if self.shared_selection:
            await store_selected(self.browser, tab_id)

    async def _adopt_shared_selection(self) -> None:
        """Take the browser's recorded selection as the current tab, if it is still open."""
        if not self.shared_selection:
            return
        selected = await load_selected(self.browser)
        if selected is not None and selected in {info.id for info in await self.browser.tabs()}:
            self.current = selected

    async def act_many(self, request: MultiActRequest) -> MultiActResult:
        """Run a validated multi-tab request: each sequence as :meth:`act` runs one, all at
        once."""
        return await run_sequences(request, self.act)

    def scrub(self, data: Any) -> Any:
        """Plain data (a string, or JSON-like lists and dicts) with every known secret masked."""
        return scrub(data, self._scrub_values)
