"""The tab's device emulation, kept per tab across processes.

Emulation.* overrides belong to the CDP session that set them and vanish when it detaches,
while every CLI command attaches anew. So an ``emulate`` option is noted in the browser itself
(``page.tab_notes``, like the ref floor) and every process applies the noted settings again on
its first act or read of the tab; a process that changes them notes the change. Between two
CLI commands, with no session holding them, the page is back at the browser's own metrics.
"""

from __future__ import annotations

from typing import Any

from ..browser import Tab
from ..errors import InvalidRequest, ProtocolError
from ..page.tab_notes import note_emulation, noted_emulation
from .devices import commands, resolve
from .request import Emulate


class TabEmulation:
    """What this process put in force in a tab: ``tab.extension(TabEmulation)``."""

    def __init__(self, tab: Tab) -> None:
        self.settings: dict[str, Any] | None = None
        self.checked = False


async def prepare_emulation(tab: Tab, option: Emulate | None) -> dict[str, Any] | None:
    """Put the tab's emulation in force in this process's session: ``option`` when given (and
    note it for the others), else the one noted in the browser (checked once per process).
    The settings in force; ``InvalidRequest`` naming ``emulate`` when Chrome refuses them."""
    state = tab.extension(TabEmulation)
    if option is None:
        if not state.checked:
            noted = await noted_emulation(tab)
            state.checked = True
            if noted is not None:
                await _apply(tab, noted)
                state.settings = noted
        return state.settings
    settings = resolve(option)
    await _apply(tab, settings)
    await note_emulation(tab, settings)
    state.settings, state.checked = settings, True
    return settings


async def _apply(tab: Tab, settings: dict[str, Any] | None) -> None:
    try:
        await tab.send_all(*commands(settings))
    except ProtocolError as exc:
        raise InvalidRequest("emulate", f"the browser refused it: {exc.message}") from None
