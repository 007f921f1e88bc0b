"""A trio loop in a thread, holding a live resource (a browser connection, an MCP session) for
synchronous Hypothesis tests.

Hypothesis runs a test function once per example and shrinks failures; pytest-trio would give
each example a fresh trio loop, and so a fresh browser connection. Instead the resource is
entered once, in a task of a loop that runs in its own thread, and every example calls into that
loop (``trio.from_thread.run``) under a time bound: a hung call fails the example with
``trio.TooSlowError`` instead of hanging the suite. The resource is exited by the task that
entered it (trio's context managers require that), when the block ends.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager, contextmanager
from typing import Any, Generic, TypeVar

import trio

T = TypeVar("T")
R = TypeVar("R")


class Live(Generic[T]):
    def __init__(self, resource: T, token: trio.lowlevel.TrioToken) -> None:
        self.resource = resource
        self._token = token

    def call(self, bound: float, fn: Callable[..., Awaitable[R]], *args: Any) -> R:
        """``await fn(resource, *args)`` in the loop, failing after ``bound`` seconds."""
        async def bounded() -> R:
            with trio.fail_after(bound):
                return await fn(self.resource, *args)
        return trio.from_thread.run(bounded, trio_token=self._token)


@contextmanager
def live(open_resource: Callable[[], AbstractAsyncContextManager[T]],
         startup: float = 60) -> Iterator[Live[T]]:
    """``open_resource()`` entered in a loop of its own thread, for the block's duration."""
    ready = threading.Event()
    box: dict[str, Any] = {}

    async def main() -> None:
        try:
            async with open_resource() as resource:
                box["stop"] = stop = trio.Event()
                box["live"] = Live(resource, trio.lowlevel.current_trio_token())
                ready.set()
                await stop.wait()
        except BaseException as exc:
            box["error"] = exc
            raise
        finally:
            ready.set()

    thread = threading.Thread(target=functools.partial(_run_quietly, main), daemon=True)
    thread.start()
    ready.wait(startup)
    if "live" not in box:
        raise RuntimeError(f"the live resource did not start: {box.get('error')!r}")
    try:
        yield box["live"]
    finally:
        trio.from_thread.run_sync(box["stop"].set, trio_token=box["live"]._token)
        thread.join(startup)
        assert not thread.is_alive(), "the live resource did not close"
        if "error" in box:
            raise RuntimeError(f"the live resource failed: {box['error']!r}")


def _run_quietly(main: Callable[[], Awaitable[None]]) -> None:
    try:
        trio.run(main)
    except BaseException:  # reported through box["error"] (startup) or the calls themselves
        pass
