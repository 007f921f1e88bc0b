"""Browser services in a pool: one URL that gives a fresh browser per connection.

browserless and the hosted CDP pools work this way: each websocket to the URL (token in its
query) is a browser of its own, at most a number of them run at once, and the connections past
that wait in the service's queue (the handshake is answered when a browser is free) or, the
queue full, are answered HTTP 429/503. ``connect`` opens one such browser for a worker: it
waits out the queue and retries a full one with backoff, both within ``queue_timeout`` seconds
from the first try; a refused token (401/403) raises at once, since no retry can help.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import msgspec
import trio

from ..browser import Browser, open_browser
from ..errors import BrowserUnreachable, InvalidRequest, ServiceRejected
from ..wire.url_policy import UrlPolicy

DEFAULT_QUEUE_TIMEOUT = 120.0
MAX_CONCURRENCY = 256
FIRST_BACKOFF = 0.25
MAX_BACKOFF = 4.0


class BrowserService(msgspec.Struct, frozen=True):
    """A service URL, how many of its browsers the pool uses at once (``concurrency``), how
    many sequences run on one connection before it is closed for a fresh browser
    (``sequences_per_connection``), and how long a connection may wait in its queue."""

    url: str
    concurrency: int
    sequences_per_connection: int = 1
    queue_timeout: float = DEFAULT_QUEUE_TIMEOUT


def service_of(url: str, concurrency: int, sequences_per_connection: int,
               queue_timeout: float) -> BrowserService:
    """A ``BrowserService`` from caller input; ``InvalidRequest`` naming the bad field."""
    if not isinstance(url, str) or not url.startswith(("ws://", "wss://")):
        raise InvalidRequest("poolUrl", "expected the service's ws:// or wss:// URL")
    for field, value, top in (("concurrency", concurrency, MAX_CONCURRENCY),
                              ("sequencesPerConnection", sequences_per_connection, 10_000)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
            raise InvalidRequest(field, f"expected an integer from 1 to {top}, got {value!r}")
    if isinstance(queue_timeout, bool) or not isinstance(queue_timeout, int | float) or not (
            0 < queue_timeout <= 3600):
        raise InvalidRequest("queueTimeout", f"expected seconds from 0 to 3600, "
                                             f"got {queue_timeout!r}")
    return BrowserService(url, concurrency, sequences_per_connection, float(queue_timeout))


@asynccontextmanager
async def connect(service: BrowserService, *, policy: UrlPolicy | None,
                  allow_evaluate: bool) -> AsyncIterator[Browser]:
    """One fresh browser of ``service`` for the block (see the module comment). Raises
    ``ServiceRejected`` (401/403 at once; 429/503 once the bound is spent) or
    ``BrowserUnreachable`` (refused, or still queued when the bound is spent)."""
    deadline = trio.current_time() + service.queue_timeout
    backoff = FIRST_BACKOFF
    while True:
        left = deadline - trio.current_time()
        attached = False
        try:
            # The handshake itself is what waits in the service's queue: it gets the whole
            # time left, not a fixed connect timeout.
            async with open_browser(service.url, connect_timeout=max(left, 0.001),
                                    policy=policy, allow_evaluate=allow_evaluate) as browser:
                attached = True
                yield browser
            return
        except ServiceRejected as exc:
            if attached or not exc.busy or left <= backoff:
                raise
        except BrowserUnreachable as exc:
            if attached or "within" not in exc.reason:
                raise
            raise BrowserUnreachable(service.url, f"no browser from the service within the "
                                     f"queue timeout ({service.queue_timeout:g} s)") from None
        await trio.sleep(backoff)  # the queue was full: try again a little later
        backoff = min(backoff * 2, MAX_BACKOFF)


__all__ = ["BrowserService", "connect", "service_of"]
