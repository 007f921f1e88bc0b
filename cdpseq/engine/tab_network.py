"""What an act's watch enables on a tab, once for the tab's life, and what it removes after.

Network (so that requests count), Runtime (console messages and uncaught exceptions for
``engine/effects``' ``TabLog``, fed by a tap from then on), auto-attach to out-of-process iframes
(their requests count too) and download events stay enabled between acts: ``TabNetwork`` (a
tab extension) remembers them. Downloads are saved into the act's download directory (set
again only when it changes). The timer watch registered for new documents is removed when the
act ends.
"""

from __future__ import annotations

from pathlib import Path

import trio

from ..browser import Tab
from ..cdp import browser as cdp_browser
from ..cdp import network, page, runtime, target
from ..errors import CdpseqError
from ..wire.managed import state_dir
from .effects import TabLog

# Bounded: the socket may be stuck with a browser that stopped reading.
UNREGISTER_WAIT = 0.2


async def unregister_script(tab: Tab, identifier: str) -> None:
    """Later documents of the tab get no timer watch: only acts' documents do. Not waited for
    (the browser answers after a round trip, a hung page never): the tab's next command comes
    after it, so a navigation asked later never gets the watch."""
    with trio.CancelScope(shield=True), trio.move_on_after(UNREGISTER_WAIT):
        try:
            await tab.post(page.RemoveScriptToEvaluateOnNewDocument(identifier=identifier))
        except CdpseqError:
            pass  # the tab went away: so did the script


class TabNetwork:
    """What a tab has enabled for watching, once: ``tab.extension(TabNetwork)``."""

    def __init__(self, tab: Tab) -> None:
        self.ready = False
        self.download_dir: str | None = None
        """The download directory last set by this process."""
        self.sessions: set[str] = set()
        """Out-of-process iframe sessions whose Network domain is enabled."""


async def enable_frame_network(tab: Tab, session_id: str) -> None:
    """Enable Network in an out-of-process iframe's session, once."""
    enabled = tab.extension(TabNetwork).sessions
    if session_id in enabled:
        return
    enabled.add(session_id)
    try:
        await tab.connection.send(network.Enable(), session_id=session_id)
    except CdpseqError:
        pass  # the frame went away meanwhile


def download_dir(given: str | None) -> str:
    """The absolute directory downloads go to: ``given``, else ``downloads/`` in cdpseq's
    state directory (``$CDPSEQ_STATE_DIR``, else ``$XDG_STATE_HOME/cdpseq``, else
    ``~/.local/state/cdpseq``)."""
    return str(Path(given).expanduser().absolute() if given else state_dir() / "downloads")


async def enable_watching(tab: Tab, downloads: str | None = None) -> None:
    """Enable, once per tab, what the watch follows: Network, Runtime (into the tab's
    ``TabLog``), auto-attached iframes (and their Network), download events into
    ``download_dir(downloads)``."""
    state = tab.extension(TabNetwork)
    # Forget iframes gone since (the tab's tap drops them): else one more per load of a page
    # with an out-of-process iframe, for as long as the tab lives.
    state.sessions &= tab.frame_sessions
    if not state.ready:
        logged = tab.extension(TabLog)
        if not logged.tapped:  # before Runtime replays the document's console messages
            tab.tap(logged.feed)
            logged.tapped = True
        # Not the Log domain: what the browser logs itself (CSP, deprecations) is rarely an
        # act's news, and with it enabled the login benchmark ran slower in every pair.
        await tab.send_all(network.Enable(), runtime.Enable(),
                           target.SetAutoAttach(autoAttach=True, waitForDebuggerOnStart=False,
                                                flatten=True))
        state.ready = True
    directory = download_dir(downloads)
    if directory != state.download_dir:
        state.download_dir = directory
        try:  # the browser makes the directory when a download comes: none made before
            await tab.browser.send(cdp_browser.SetDownloadBehavior(
                behavior="allow", downloadPath=directory, eventsEnabled=True))
        except CdpseqError:
            pass  # an older or embedded browser without download events: nothing to report
    # Iframes attached since the last act, or just now: Chromium reports the iframes already
    # there before it answers setAutoAttach, before the pump listens.
    for session_id in list(tab.frame_sessions):
        await enable_frame_network(tab, session_id)
