"""The state delta an act reports: what its steps changed on the page.

The in-page agent records mutations from ``arm()`` (before the first step) and answers
``delta()`` once the page settled: url and title, elements that appeared or disappeared, and
changed fields, each with a ref. After a cross-document navigation everything is new, so the
delta is the navigation and the first lines of the new page instead of a giant diff.
"""

from __future__ import annotations

import logging
from typing import Any

import msgspec

from ..browser import Tab
from ..errors import CdpseqError
from ..page.agent import AgentError, PageAgent
from ..page.answers import Delta
from ..page.frames import frame_changes
from ..page.read import summary
from .reports import StateChange
from .settle_watch import Watch

log = logging.getLogger("cdpseq.act")

DELTA_LIMIT = 15
"""Items per list of the delta."""
SUMMARY_LINES = 25
"""Lines of the new page a cross-document navigation reports."""


async def collect_state_change(tab: Tab, agent: PageAgent, watch: Watch
                               ) -> tuple[StateChange | None, tuple[str, str] | None]:
    """What changed since the act began (None when nothing did), and the url and title the
    page has now."""
    before = watch.arm_state
    try:
        if watch.cross_document:
            text, url, title = await summary(agent, SUMMARY_LINES)
            change: dict[str, Any] = {"navigated": True, "summary": text}
            if before.url != url:
                change["url"] = {"from": before.url, "to": url}
            if before.title != title:
                change["title"] = {"from": before.title, "to": title}
            return msgspec.convert(change, StateChange), (url, title)
        # The settle's last probe answered it when the page was found settled: the page as
        # it settled, without a round trip more.
        delta = watch.settled_delta
        watch.settled_delta = None
        if delta is None:
            delta = await agent.delta(DELTA_LIMIT)
        framed = await frame_changes(agent, DELTA_LIMIT)  # iframes
        delta.appeared += framed["appeared"]
        delta.appeared_total += len(framed["appeared"])
        delta.disappeared += framed["disappeared"]
        delta.disappeared_total += len(framed["disappeared"])
        delta.changed += framed["changed"]
        delta.changed_total += len(framed["changed"])
    except (CdpseqError, AgentError) as exc:
        log.info("no state delta for %s: %s", tab.id, exc)
        return None, None
    if not await agent.note_minted(delta.next - 1):
        log.info("no state delta for %s: its document went away", tab.id)
        return None, None
    found = build_state_change(delta)
    typed = msgspec.convert(found, StateChange) if found is not None else None
    return typed, (delta.url.to, delta.title.to)


def build_state_change(delta: Delta) -> dict[str, Any] | None:
    """The ``stateChange`` of a result from what the agent answered (js/agent/delta.js): only
    what changed, refs as ``ref_N``; None when nothing did."""
    change: dict[str, Any] = {}
    for key, moved in (("url", delta.url), ("title", delta.title)):
        if moved.from_ != moved.to:
            change[key] = {"from": moved.from_, "to": moved.to}
    for key, listed, total in (("appeared", delta.appeared, delta.appeared_total),
                               ("disappeared", delta.disappeared, delta.disappeared_total),
                               ("changed", delta.changed, delta.changed_total)):
        items = [_with_ref(item) for item in listed]
        if items:
            change[key] = items
        more = total - len(items)
        if more > 0:
            change[f"{key}More"] = more
    if delta.focus:
        change["focus"] = _with_ref(delta.focus)
    if delta.replaced:
        change["replaced"] = [{**item, "from": f"ref_{item['from']}", "to": f"ref_{item['to']}"}
                              for item in delta.replaced]
        if delta.replaced_total > len(delta.replaced):
            change["replacedMore"] = delta.replaced_total - len(delta.replaced)
    return change or None


def _with_ref(item: dict[str, Any]) -> dict[str, Any]:
    item = dict(item)
    if "ref" in item:
        item["ref"] = f"ref_{item['ref']}"
    if "controls" in item:
        item["controls"] = [_with_ref(control) for control in item["controls"]]
    return item
