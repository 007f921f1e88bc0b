"""The logs step: the tab's recent console messages and requests, as ``engine/effects`` keeps
them, filtered by level (console), status (requests), URL and since when, capped."""

from __future__ import annotations

from typing import Any

import msgspec

from ..effects import TabLog, chosen, levels_from
from ..reports import ConsoleEntry, RequestEntry
from ..request import Logs
from .context import StepContext

LOGS_SHOWN = 50
"""Entries of each kind a logs step returns at most: the last that pass its filters."""


async def logs(ctx: StepContext, step: Logs) -> Any:
    """What the tab's log kept that ``step`` asks for; ``*More``: how many the cap left out."""
    kept = ctx.tab.extension(TabLog)
    after, found, least = kept.since(step.since or "start"), step.url, step.min_status
    levels = set(levels_from(step.level))

    def console(entry: ConsoleEntry) -> bool:
        return entry.level in levels and (
            found is None or found in (entry.source or "") or found in entry.text)

    def request(entry: RequestEntry) -> bool:
        return (least is None or entry.error is not None or (entry.status or 0) >= least
                ) and (found is None or found in entry.url)

    answer: dict[str, Any] = {}
    answer["console"], more = chosen(kept.console, after, LOGS_SHOWN, console)
    if more:
        answer["consoleMore"] = more
    answer["requests"], more = chosen(kept.requests, after, LOGS_SHOWN, request)
    if more:
        answer["requestsMore"] = more
    return msgspec.to_builtins(answer)
