"""Below ``act``: the connection and the protocol bindings a ``Tab`` speaks, re-exported.

Nothing here is defined here: these are the names of ``cdpseq.wire`` and ``cdpseq.cdp`` that a
caller driving CDP directly needs (``tab.send(cdp.page.Reload())``, ``tab.subscribe(...)``, a
``Connection`` of its own), gathered in one namespace so that ``cdpseq`` itself stays the act
API. Their home modules document them.
"""

from . import cdp
from .wire.connection import (
    ANY_SESSION,
    Connection,
    ConnectionStatistics,
    RawEvent,
    Subscription,
    open_connection,
)
from .wire.protocol import Command, Event

__all__ = [
    "ANY_SESSION",
    "Command",
    "Connection",
    "ConnectionStatistics",
    "Event",
    "RawEvent",
    "Subscription",
    "cdp",
    "open_connection",
]
