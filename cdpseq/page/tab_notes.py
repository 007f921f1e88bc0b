"""Small facts about a tab, kept in the browser itself so that every process agrees on them.

Several processes attach to one tab — a CLI call, an MCP server started by a desktop client with
another HOME, a script — and they share nothing but the browser. What they must agree on is
written into the browser's cookie jar, on a host no page can load or read
(``t<targetid>.cdpseq.invalid``: ``.invalid`` never resolves, and a page's ``document.cookie``
only sees its own site): the tab's *ref floor* (the highest ref number ever minted in it) and a
dialog a process left open on purpose. The cookies are session cookies of the tab's own browser
context; they go when the browser exits. Each costs about a millisecond to read or write, and
the Network handler answers in the browser process, so a page paused by a dialog cannot block it.

A floor is written as a cookie *name* (``f<N>``) and read as the highest such name: two processes
writing at once can only add names, so the floor never goes down; each process prunes the name it
wrote before.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from ..browser import Tab
from ..cdp import network
from ..wire.protocol import Command

_FLOOR_PREFIX = "f"
_DIALOG = "dialog"


def _url(tab: Tab) -> str:
    return f"http://t{tab.id.lower()}.cdpseq.invalid/"


async def _names(tab: Tab) -> dict[str, str]:
    found = await tab.send(network.GetCookies(urls=[_url(tab)]))
    return {cookie.name: cookie.value for cookie in found.cookies}


def _floors(names: dict[str, str]) -> list[int]:
    return sorted(int(name[1:]) for name in names
                  if name.startswith(_FLOOR_PREFIX) and name[1:].isdigit())


def floor_query(tab: Tab) -> network.GetCookies:
    """The command whose answer ``floor_in`` reads the tab's floor from: the highest ref number
    any process minted in this tab (0 when none did)."""
    return network.GetCookies(urls=[_url(tab)])


def floor_in(found: network.GetCookiesResult) -> int:
    """The tab's ref floor in the answer to ``floor_query`` (0 when none was noted)."""
    floors = _floors({cookie.name: cookie.value for cookie in found.cookies})
    return floors[-1] if floors else 0


def floor_commands(tab: Tab, floor: int, previous: int) -> list[Command[Any]]:
    """The commands that raise the tab's floor to ``floor`` (a lower floor than the stored one
    changes nothing) and prune ``previous``, the floor this process knew: one round trip."""
    url = _url(tab)
    commands: list[Command[Any]] = [
        network.SetCookie(name=f"{_FLOOR_PREFIX}{floor}", value="1", url=url)]
    if 0 < previous < floor:
        commands.append(network.DeleteCookies(name=f"{_FLOOR_PREFIX}{previous}", url=url))
    return commands


async def _note(tab: Tab, name: str, value: dict[str, Any] | None) -> None:
    """Keep ``value`` (JSON) in the browser under ``name`` for this tab; None forgets it."""
    if value is None:
        await tab.send(network.DeleteCookies(name=name, url=_url(tab)))
        return
    encoded = base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")
    await tab.send(network.SetCookie(name=name, value=encoded, url=_url(tab)))


async def _noted(tab: Tab, name: str) -> dict[str, Any] | None:
    """What ``_note`` kept under ``name`` for this tab, if anything readable."""
    value = (await _names(tab)).get(name)
    if not value:
        return None
    try:
        found = json.loads(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


async def note_left_dialog(tab: Tab, dialog: dict[str, Any]) -> None:
    """Remember a dialog left open on purpose (``dialog: leave``) for later processes."""
    await _note(tab, _DIALOG, dialog)


async def left_dialog(tab: Tab) -> dict[str, Any] | None:
    """The dialog a process left open in this tab, if one said so and nobody handled it since."""
    return await _noted(tab, _DIALOG)


async def forget_left_dialog(tab: Tab) -> None:
    """Drop the note of a dialog left open (it was handled)."""
    await _note(tab, _DIALOG, None)


_EMULATION = "emulation"


async def note_emulation(tab: Tab, settings: dict[str, Any] | None) -> None:
    """Remember the tab's device emulation for later processes (None: it has none)."""
    await _note(tab, _EMULATION, settings)


async def noted_emulation(tab: Tab) -> dict[str, Any] | None:
    """The device emulation a process gave this tab, if any."""
    return await _noted(tab, _EMULATION)
