"""The tab's turn: one act or read_page at a time per tab (in this process)."""

from __future__ import annotations

import trio

from ..browser import Tab


class Turn:
    """``tab.extension(Turn).lock``: held by ``act`` and ``read_page`` for their whole call."""

    def __init__(self, tab: Tab) -> None:
        self.lock = trio.Lock()
