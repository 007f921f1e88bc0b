"""Typed parts of an act result: the state change (what the steps changed), the dialogs, and
the requests, downloads and tabs the watch saw.

The in-page agent (``js/agent/delta.js``) and the dialog guard (``dialogs.py``) produce plain
JSON; ``msgspec.convert`` turns it into these Structs when the result is assembled, so a Python
caller gets attributes (snake_case) and a JSON reader gets the same camelCase keys as before.
Every key the agent writes must have a field here: msgspec drops a key it does not know
(``tests/test_typed_api.py`` round-trips real deltas to catch that).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType


class _Report(msgspec.Struct, kw_only=True, omit_defaults=True, rename="camel"):
    pass


class Transition(_Report):
    """A value before and after the act (``from`` is a Python keyword: ``before``)."""

    before: str = msgspec.field(name="from")
    after: str = msgspec.field(name="to")


class ChangedElement(_Report):
    """An element, or a container, that appeared, disappeared or changed; a container comes with
    its size, first lines and controls (each with a ref)."""

    ref: Annotated[str | None, Meta(description="ref_N, a valid act target.")] = None
    tag: str | None = None
    role: str | None = None
    name: Annotated[str | None, Meta(description="Accessible name, or the text of a text "
                                                 "entry.")] = None
    states: Annotated[dict[str, Any] | None,
                      Meta(description="States worth saying: checked, expanded, value...")] = None
    context: str | None = None
    selector: Annotated[str | None, Meta(description="A selector hint.")] = None
    url: Annotated[str | None, Meta(description="A frame's address (a cross-origin iframe that "
                                                "appeared).")] = None
    size: Annotated[str | None, Meta(description='A container\'s size: "3 rows".')] = None
    added: Annotated[str | None, Meta(description='Rows or items added to a container that '
                                                  'stayed: "3 rows".')] = None
    removed: Annotated[str | None, Meta(description="Rows or items removed from a container "
                                                    "that stayed.")] = None
    lines: Annotated[list[str] | None,
                     Meta(description="A container's first lines: whole rows or items, a "
                                      "table's header row first.")] = None
    lines_more: Annotated[int | None, Meta(description="How many rows, items or texts the "
                                                       "lines leave out.")] = None
    controls: Annotated[list[ChangedElement] | None,
                        Meta(description="A container's controls, with refs; in an order "
                                         "change: the items the act moved.")] = None
    controls_more: int | None = None
    field: Annotated[str | None, Meta(description="In changed: the field that changed (text, "
                                                  "name, value, checked..., className, "
                                                  "wrapperClassName, sort, order).")] = None
    # UNSET, not None: a field may change from or to null, which must stay in the JSON.
    before: Annotated[Any | UnsetType, Meta(description="In changed: the value before.")] = (
        msgspec.field(default=UNSET, name="from"))
    after: Annotated[Any | UnsetType, Meta(description="In changed: the value after.")] = (
        msgspec.field(default=UNSET, name="to"))
    classes_added: Annotated[list[str] | None,
                             Meta(description="In a className change: the tokens added.")] = None
    classes_removed: Annotated[list[str] | None,
                               Meta(description="In a className change: the tokens removed.")
                               ] = None


class Replacement(_Report):
    """A control rendered again as a new element: its old ref is stale, its new ref works."""

    before: str = msgspec.field(name="from")
    after: str = msgspec.field(name="to")
    role: str
    name: str | None = None


class StateChange(_Report):
    """What an act's steps changed on the page: after a cross-document navigation, the new
    page's first lines (``navigated``, ``summary``); else what appeared, disappeared, changed,
    where focus went. ``*More`` counts what the lists leave out."""

    navigated: bool = False
    summary: str | None = None
    url: Transition | None = None
    title: Transition | None = None
    appeared: list[ChangedElement] = []
    appeared_more: int = 0
    disappeared: list[ChangedElement] = []
    disappeared_more: int = 0
    changed: list[ChangedElement] = []
    changed_more: int = 0
    focus: ChangedElement | None = None
    replaced: list[Replacement] = []
    replaced_more: int = 0


class DialogReport(_Report):
    """A JavaScript dialog the act met, and what became of it."""

    type: Annotated[str, Meta(description="alert, confirm, prompt or beforeunload.")]
    message: str
    handled: Annotated[str, Meta(description='"accepted", "dismissed" or "left open".')]
    when: Annotated[Literal["before"] | None,
                    Meta(description='"before": it was open when the call started.')] = None
    note: str | None = None


class PendingRequest(_Report):
    """A request still in flight when the act ended; past the reported ones, one entry says
    how many ``more`` were left out (and has no other field)."""

    url: str | UnsetType = UNSET
    type: str | UnsetType = UNSET
    age_ms: int | UnsetType = UNSET
    stalled: Annotated[bool | UnsetType,
                       Meta(description="Older than the stall cap: no longer waited for.")] = UNSET
    more: int | UnsetType = UNSET


class Download(_Report):
    """A download the steps started: where it was saved and how much of it, once the browser
    said so (``finished``: it completed before the act ended)."""

    url: str
    suggested_filename: str
    path: Annotated[str | None, Meta(description="The file, once the download completed.")
                    ] = None
    bytes: Annotated[int | None, Meta(description="Bytes received.")] = None
    finished: Annotated[bool | None, Meta(description="Whether it completed before the act "
                                                      "ended.")] = None
    canceled: bool = False


class NewTab(_Report):
    """A tab the steps opened (act in it with its ``id``)."""

    id: str
    url: str
    title: str


class ConsoleEntry(_Report):
    """A console message, an uncaught exception (its text begins "Uncaught") or what the
    browser logged; text cut at 200 characters."""

    level: Annotated[str, Meta(description="error, warning or info (log, debug, ...).")]
    text: str
    source: Annotated[str | None, Meta(description="url:line where it was logged.")] = None


class RequestEntry(_Report):
    """A request that answered (``status``) or failed (``error``: the network error)."""

    method: str
    url: Annotated[str, Meta(description="Query values shown as ***.")]
    status: int | None = None
    error: str | None = None


class StepEffects(_Report):
    """What a step caused beyond the DOM (the settle after it included): console errors and
    warnings, uncaught exceptions, requests that failed or answered >= 400 (5 of each at
    most, ``*More`` counting the rest), downloads, tabs opened, dialogs."""

    console: list[ConsoleEntry] = []
    console_more: int = 0
    requests: list[RequestEntry] = []
    requests_more: int = 0
    downloads: list[Download] = []
    new_tabs: Annotated[list[str], Meta(description="Ids of the tabs it opened.")] = []
    dialogs: Annotated[list[str], Meta(description='The dialogs it met: "alert: text".')] = []
