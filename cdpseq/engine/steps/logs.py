"""The logs step: the tab's recent console messages and requests, as ``engine/effects`` keeps
them, filtered by level, status, URL and since when, capped."""

from __future__ import annotations

from typing import Any

import msgspec

from ..effects import TabLog, chosen, levels_from
from ..reports import ConsoleEntry, RequestEntry
from ..request import Logs
from .context import StepContext


async def logs(ctx: StepContext, step: Logs) -> Any:
    """What the tab's log kept that ``step`` asks for; ``*More``: how many the cap left out."""
    kept = ctx.tab.extension(TabLog)
    after, found = kept.since(step.since), step.url_contains
    answer: dict[str, Any] = {}
    if step.kind != "network":
        levels = set(levels_from(step.level))

        def console(entry: ConsoleEntry) -> bool:
            return entry.level in levels and (
                found is None or found in (entry.source or "") or found in entry.text)

        answer["console"], more = chosen(kept.console, after, step.max, console)
        if more:
            answer["consoleMore"] = more
    if step.kind != "console":
        least = step.min_status

        def request(entry: RequestEntry) -> bool:
            return (least is None or entry.error is not None or (entry.status or 0) >= least
                    ) and (found is None or found in entry.url)

        answer["requests"], more = chosen(kept.requests, after, step.max, request)
        if more:
            answer["requestsMore"] = more
    return msgspec.to_builtins(answer)
