"""What a page opens during an act, seen from the browser: tabs (``target=_blank``,
``window.open``) and downloads, with the bounded waits for them to be known and to finish.

``Opened`` is the part of the settle watch (``settle_watch.Watch``) fed the browser-level events
(``Target.targetCreated``/``targetInfoChanged``, ``Browser.downloadWillBegin``/``Progress``); it
attributes each to the act's effects, when the act keeps them.
"""

from __future__ import annotations

from urllib.parse import unquote

import msgspec
import trio

from ..browser import Tab
from ..cdp import target
from ..errors import CdpseqError
from ..wire.connection import RawEvent
from ..wire.events import DownloadProgress, DownloadWillBegin, TargetEvent
from .effects import ActEffects
from .reports import Download, NewTab

# How long an act waits for the tabs it opened to know their address and title.
NEW_TAB_WAIT = 1.5
_NEW_TAB_POLL = 0.05


class Opened:
    """The tabs and downloads a tab's page opened while it is watched."""

    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self.changed = trio.Event()
        self.downloads: list[Download] = []
        self._downloading: dict[str, Download] = {}
        self.effects: ActEffects | None = None
        """Where the act attributes what its steps caused (downloads, tabs opened)."""
        self.new_tabs: list[NewTab] = []

    def _download_began(self) -> None:
        """A download began in the tab (a navigation may have become it)."""

    def _feed_browser(self, event: RawEvent) -> None:
        if event.method == "Target.targetCreated":
            info = msgspec.json.decode(event.params, type=TargetEvent).targetInfo
            if info.openerId == self.tab.id and info.type == "page":
                self.new_tabs.append(NewTab(id=info.targetId, url=info.url, title=info.title))
                if self.effects is not None:
                    self.effects.add(None, "newTabs", info.targetId)
        elif event.method == "Target.targetInfoChanged":
            info = msgspec.json.decode(event.params, type=TargetEvent).targetInfo
            for opened in self.new_tabs:
                if opened.id == info.targetId:
                    opened.url, opened.title = info.url, info.title
        elif event.method == "Browser.downloadWillBegin":
            download = msgspec.json.decode(event.params, type=DownloadWillBegin)
            if download.frameId == self.tab.frame_id or download.frameId == self.tab.id:
                began = Download(url=download.url, finished=False,
                                 suggested_filename=download.suggestedFilename)
                self.downloads.append(began)
                self._downloading[download.guid] = began
                if self.effects is not None:
                    self.effects.add(None, "downloads", began)
                self._download_began()
        elif event.method == "Browser.downloadProgress":
            progress = msgspec.json.decode(event.params, type=DownloadProgress)
            going = self._downloading.get(progress.guid)
            if going is not None:
                going.bytes = int(progress.receivedBytes)
                if progress.state == "completed":
                    going.finished, going.path = True, progress.filePath
                going.canceled = progress.state == "canceled"

    async def new_tabs_known(self, budget: float) -> None:
        """Wait (bounded) until every tab the act opened has committed a document: its address
        is known, and its title once it has one. The address comes with the browser's events;
        a title change does not (until the document has a title, the browser shows its address
        without the scheme as one), so it is asked for."""
        def known(opened: NewTab) -> bool:
            url, title = opened.url, opened.title
            return (url not in ("", "about:blank") and bool(title)
                    and not url.endswith(title) and not unquote(url).endswith(title))

        with trio.move_on_after(budget):
            while not all(known(opened) for opened in self.new_tabs):
                for opened in self.new_tabs:
                    try:
                        info = await self.tab.browser.send(
                            target.GetTargetInfo(targetId=opened.id))
                    except CdpseqError:
                        continue  # closed meanwhile: what is known stands
                    opened.url, opened.title = info.targetInfo.url, info.targetInfo.title
                if not all(known(opened) for opened in self.new_tabs):
                    await trio.sleep(_NEW_TAB_POLL)

    async def downloads_finished(self, budget: float) -> None:
        """Wait (bounded) until every download the act started completed or was cancelled:
        the settle after the last step is that step's, a download's end too."""
        with trio.move_on_after(budget):
            while any(d.finished is False and not d.canceled for d in self.downloads):
                changed = self.changed
                await changed.wait()
