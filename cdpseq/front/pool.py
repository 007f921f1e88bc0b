"""A pool of browsers: many act sequences spread over several CDP endpoints.

Theory of operation: ``open_pool`` opens one ``Browser`` per endpoint (``open_browser``, so any
endpoint form works: a local port, ``ws://`` of a container, a hosted pool's ``wss://...``
URL) and keeps them for the block. ``Pool.run`` validates every sequence first (a bad one raises
``InvalidRequest`` naming ``sequences[i]....`` and nothing runs), then starts
``tabs_per_browser`` workers per browser that take the next sequence from one shared queue, so a
slow browser simply takes fewer: each sequence gets a new tab of its own (``isolate``: in a
browser context of its own, so sequences share no cookies or storage), runs as one ``act``, and
its tab is closed (and its context disposed with it). Results come back in the order of the
sequences, one ``ActResult`` each; a sequence whose tab could not be opened answers a result in
which nothing ran (``TARGET_CLOSED``), so one lost browser does not lose the others' results.

This is the many-browsers door; a request naming several tabs of ONE browser (``tabId`` per
sequence) is the Driver's business. A pool sequence must not name a ``tabId``: its tab is new.

A browser service (``pool_url``: browserless, a hosted CDP pool; ``pool_service``) gives a fresh
browser per connection instead: ``concurrency`` workers each take a sequence, open a connection
for it (waiting out the service's queue within ``queue_timeout``), run it, up to
``sequences_per_connection`` in all, in a new tab there, and close the connection. A browser the
service could not give fails that sequence alone; a refused token stops the run at once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import trio

from ..browser import Browser, open_browser
from ..engine.request import ActRequest
from ..engine.result import ActResult, no_tab_result
from ..engine.runner import run_validated
from ..engine.validate import parse_request
from ..errors import CdpseqError, InvalidRequest, ServiceRejected, shown_url
from ..wire.url_policy import UrlPolicy
from . import pool_service
from .pool_service import DEFAULT_QUEUE_TIMEOUT, BrowserService, service_of

DEFAULT_TABS_PER_BROWSER = 4
MAX_TABS_PER_BROWSER = 64
CLOSE_TIMEOUT = 10.0


def parse_sequences(sequences: Sequence[Any]) -> list[ActRequest]:
    """Validate pool sequences (each an act request: an object or a bare list of steps).
    Raises ``InvalidRequest`` whose field is prefixed with ``sequences[i].``."""
    if isinstance(sequences, str | bytes) or not isinstance(sequences, Sequence):
        raise InvalidRequest("sequences", "expected a list of act requests (each an object "
                                          "with steps, or a list of steps)")
    if not sequences:
        raise InvalidRequest("sequences", "expected at least one sequence")
    requests: list[ActRequest] = []
    for index, sequence in enumerate(sequences):
        try:
            request = parse_request(sequence)
        except InvalidRequest as exc:
            raise InvalidRequest(f"sequences[{index}].{exc.field}", exc.reason,
                                 total_steps=exc.total_steps) from None
        if request.tab_id is not None:
            raise InvalidRequest(f"sequences[{index}].tabId", "a pool runs each sequence in a "
                                 "new tab of its own; leave tabId out")
        requests.append(request)
    return requests


class Pool:
    """Open browsers and browser services that sequences are spread over; see the module
    comment."""

    def __init__(self, browsers: Sequence[Browser], tabs_per_browser: int,
                 secrets: Mapping[str, str] | None,
                 services: Sequence[BrowserService] = (), *, policy: UrlPolicy | None = None,
                 allow_evaluate: bool = False, isolate: bool = False) -> None:
        self.browsers = list(browsers)
        self.services = list(services)
        self.isolate = isolate
        self.tabs_per_browser = tabs_per_browser
        self._secrets = secrets
        self._policy = policy
        self._allow_evaluate = allow_evaluate
        self.sequences_run = [0] * (len(self.browsers) + len(self.services))
        """How many sequences each browser, then each service (in the order given), has run."""

    async def run(self, sequences: Sequence[Any]) -> list[ActResult]:
        """Run every sequence in a new tab of one of the browsers, or in a fresh browser of one
        of the services; results in order. Raises ``ServiceRejected`` at once when a service
        refuses its token (401/403): no sequence could run there."""
        requests = parse_sequences(sequences)
        results: list[ActResult | None] = [None] * len(requests)
        queue = iter(enumerate(requests))  # shared: each worker takes the next one

        async def worker(number: int) -> None:
            for index, request in queue:
                results[index] = await self._run_one(self.browsers[number], request)
                self.sequences_run[number] += 1

        async def service_worker(number: int) -> None:
            service = self.services[number]
            for first in queue:
                await self._run_on_service(service, first, queue, results)
                self.sequences_run[len(self.browsers) + number] += 1

        try:
            async with trio.open_nursery() as nursery:
                for number in range(len(self.browsers)):
                    for _ in range(min(self.tabs_per_browser, len(requests))):
                        nursery.start_soon(worker, number)
                for number, service in enumerate(self.services):
                    for _ in range(min(service.concurrency, len(requests))):
                        nursery.start_soon(service_worker, number)
        except BaseExceptionGroup as group:  # a refused token: the first one says it all
            refused = group.subgroup(ServiceRejected)
            if refused is None:
                raise
            raise _first_leaf(refused) from None
        return [result for result in results if result is not None]

    async def _run_on_service(self, service: BrowserService, first: tuple[int, ActRequest],
                              queue: Iterator[tuple[int, ActRequest]],
                              results: list[ActResult | None]) -> None:
        """``first``, then up to ``sequences_per_connection - 1`` more from ``queue``, on one
        fresh browser of ``service``; a browser that could not be had fails ``first`` alone."""
        index, request = first
        try:
            async with pool_service.connect(service, policy=self._policy,
                                            allow_evaluate=self._allow_evaluate) as browser:
                results[index] = await self._run_one(browser, request)
                for _, (index, request) in zip(range(service.sequences_per_connection - 1),
                                               queue, strict=False):
                    results[index] = await self._run_one(browser, request)
        except ServiceRejected as exc:
            if exc.auth_refused:
                raise
            results[index] = no_tab_result(request, None, str(exc))
        except CdpseqError as exc:
            if results[index] is None:
                results[index] = no_tab_result(request, None, str(exc))

    async def _run_one(self, browser: Browser, request: ActRequest) -> ActResult:
        try:
            tab = await browser.new_tab(isolated=self.isolate)
        except CdpseqError as exc:
            return no_tab_result(request, None,
                                 f"no new tab in {shown_url(browser.endpoint)}: {exc}")
        try:
            return await run_validated(tab, request, secrets=self._secrets)
        except CdpseqError as exc:  # the browser itself went away (act answers the rest)
            return no_tab_result(request, tab.id, f"lost {shown_url(browser.endpoint)}: {exc}")
        finally:
            with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_TIMEOUT):
                try:
                    await browser.close_tab(tab.id)
                except CdpseqError:
                    pass  # the tab (or its browser) is gone already


def _first_leaf(group: BaseExceptionGroup[ServiceRejected]) -> ServiceRejected:
    first = group.exceptions[0]
    return first if isinstance(first, ServiceRejected) else _first_leaf(first)


def split_endpoints(endpoints: Sequence[str | int] | str) -> list[str | int]:
    """Endpoints given as a list, where each string may itself be comma-separated."""
    items = [endpoints] if isinstance(endpoints, str) else list(endpoints)
    found: list[str | int] = []
    for item in items:
        if isinstance(item, str):
            found.extend(part.strip() for part in item.split(",") if part.strip())
        else:
            found.append(item)
    return found


@asynccontextmanager
async def open_pool(endpoints: Sequence[str | int] | str = (), *,
                    tabs_per_browser: int = DEFAULT_TABS_PER_BROWSER,
                    connect_timeout: float = 10.0, policy: UrlPolicy | None = None,
                    secrets: Mapping[str, str] | None = None,
                    allow_evaluate: bool = False, isolate: bool = False,
                    pool_url: str | Sequence[str] = (), concurrency: int = 1,
                    sequences_per_connection: int = 1,
                    queue_timeout: float = DEFAULT_QUEUE_TIMEOUT) -> AsyncIterator[Pool]:
    """Attach to every browser in ``endpoints`` (any form ``open_browser`` takes; a string may
    list several, comma-separated) for the block; ``Pool.run`` spreads sequences over them, at
    most ``tabs_per_browser`` at once in each; ``allow_evaluate`` is ``open_browser``'s;
    ``isolate`` runs each sequence in a browser context of its own. ``pool_url`` adds browser
    services (one URL or several; see ``pool_service``), each used by ``concurrency``
    connections at once, a fresh browser per ``sequences_per_connection`` sequences, whose
    queue is waited out for up to ``queue_timeout`` seconds; a service is connected to only
    when sequences run. Raises ``BrowserUnreachable`` if an endpoint does not answer,
    ``InvalidRequest`` (``endpoints``, ``tabsPerBrowser``, ``poolUrl``, ``concurrency``, ...)
    for bad arguments."""
    found = split_endpoints(endpoints)
    urls = [pool_url] if isinstance(pool_url, str) else list(pool_url)
    services = [service_of(url, concurrency, sequences_per_connection, queue_timeout)
                for url in urls]
    if not found and not services:
        raise InvalidRequest("endpoints", "expected at least one browser endpoint or pool URL")
    if isinstance(tabs_per_browser, bool) or not isinstance(tabs_per_browser, int) or not (
            1 <= tabs_per_browser <= MAX_TABS_PER_BROWSER):
        raise InvalidRequest("tabsPerBrowser", f"expected an integer from 1 to "
                                               f"{MAX_TABS_PER_BROWSER}, got {tabs_per_browser!r}")
    async with AsyncExitStack() as stack:
        browsers = [await stack.enter_async_context(
                        open_browser(endpoint, connect_timeout=connect_timeout, policy=policy,
                                     allow_evaluate=allow_evaluate))
                    for endpoint in found]
        yield Pool(browsers, tabs_per_browser, secrets, services, policy=policy,
                   allow_evaluate=allow_evaluate, isolate=isolate)

__all__ = ["Pool", "open_pool", "parse_sequences", "split_endpoints"]
