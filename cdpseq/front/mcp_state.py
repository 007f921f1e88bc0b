"""The MCP ``tabs`` tool's ``save_state`` and ``load_state``: the login state to a local file.

They are actions of ``tabs`` rather than a tool of their own because what a model is shown of
the tools has a budget (tests/front/test_mcp_schema.py) and a tool costs more than two actions.
The MCP server is local-user tooling: it reads and writes any file the server's user may, as
the CLI does. The path must be absolute (or start with ``~``): a model cannot know the
server's working directory. The answer holds counts and origins, never a value
(``browser/storage_state``); the extra origins of ``save_state(origins=...)`` are the CLI's and
the API's only.
"""

from __future__ import annotations

import os

import msgspec

from ..browser.state_file import read_state
from ..browser.storage_state import StateSummary, load_state, save_state, summarize
from ..errors import InvalidRequest
from .driver import Driver

STATE_ACTIONS = ("save_state", "load_state")
"""The ``tabs`` tool's actions this module answers."""

STATE_NOTE = ("save_state/load_state: the login state (cookies, storage) to/from an absolute "
              "path, 0600; answers counts only.")
"""What the ``tabs`` tool's description says of them."""


def _absolute(path: str | None) -> str:
    if path is None:
        raise InvalidRequest("path", "required for actions 'save_state' and 'load_state'")
    expanded = os.path.expanduser(path)
    if not os.path.isabs(expanded):
        raise InvalidRequest("path", "must be absolute (or start with ~)")
    return expanded


async def run_state(driver: Driver, action: str, path: str | None, tab_id: str | None
                    ) -> StateSummary:
    """Save or load the state in ``tab_id`` (else the current tab): ``InvalidRequest`` names
    the field of a bad path or file."""
    where = _absolute(path)
    to_load = read_state(where) if action == "load_state" else None  # before any tab is had
    tab = await driver.tab(tab_id)
    if to_load is None:
        return summarize(await save_state(tab, where), "saved", where)
    return msgspec.structs.replace(await load_state(tab, to_load), path=where)


def state_text(summary: StateSummary) -> str:
    """The answer the model reads: counts and origins."""
    lines = [f"{summary.action} {summary.cookies} cookies and the storage of "
             f"{len(summary.origins)} origins ({summary.path})"]
    lines += [f"  {o.origin}: localStorage {o.local_storage}, sessionStorage "
              f"{o.session_storage}" for o in summary.origins]
    return "\n".join(lines)
