"""Nurseries wrap every exception in an ExceptionGroup; callers of cdpseq's context managers
should see the one error that happened, with its traceback, not a group of one."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


def _leaves(group: BaseExceptionGroup[BaseException]) -> Iterator[BaseException]:
    for exc in group.exceptions:
        if isinstance(exc, BaseExceptionGroup):
            yield from _leaves(exc)
        else:
            yield exc


@contextmanager
def single_error() -> Iterator[None]:
    """Re-raise a group holding exactly one exception as that exception."""
    try:
        yield
    except BaseExceptionGroup as group:
        leaves = list(_leaves(group))
        if len(leaves) == 1:
            raise leaves[0] from leaves[0].__cause__
        raise
