"""read_page: the page as a compact view, with its keyword options checked as the step's are.

The options are the read_page step's fields, checked with the same rules and the same messages
(``InvalidRequest`` naming the option as the step spells it, camelCase), with no request built
around them: the types by ``_ReadArgs`` (a Struct of the step's own option fields), then what
one field cannot say alone (one of target and selector, a scope that is a ref, no narrowing in a
delta read).
"""

from __future__ import annotations

import re
import typing
from collections.abc import Sequence
from typing import Any, Literal

import msgspec
import trio

from ..browser import Tab
from ..errors import InvalidRequest, PageUnresponsive
from ..page.agent import PageAgent
from ..page.read import Compression, read_view
from ..page.targets import Ref, Selector, Target
from ..page.view import PageView, ReadFilter, ReadOptions
from .dialogs import refuse_if_paused
from .emulation import prepare_emulation
from .request import ReadPage
from .request_rules import refuse_controls
from .shown import parse_target, show_value, target_problem
from .turn import Turn

READ_TIMEOUT = 5.0
"""Seconds a read_page gets before the page counts as not answering: a step's default timeout
(``perStepTimeoutMs``), as a read is a step; an agent learns a tab is dead as fast as an act
would tell it."""

_READ_FILTERS: tuple[str, ...] = typing.get_args(ReadFilter)
_COMPRESSIONS: tuple[str, ...] = typing.get_args(Compression)
_OPTIONS = ("target", "selector", "roles", "viewport_only", "max_elements", "include_bounds")
_ReadArgs: type[msgspec.Struct] = msgspec.defstruct(
    "_ReadArgs", [(f.name, f.type, f.default) for f in msgspec.structs.fields(ReadPage)
                  if f.name in _OPTIONS],
    kw_only=True, rename="camel", frozen=True)
_MESSAGE = re.compile(r"^(?P<msg>.*?)(?: - at `\$\.?(?P<path>[^`]*)`)?$", re.DOTALL)


async def read_page(tab: Tab, filter: ReadFilter = "interactive",
                    compression: Literal["none", "delta"] = "none", *,
                    answer_timeout: float = READ_TIMEOUT, target: str | None = None,
                    selector: str | None = None, roles: Sequence[str] | None = None,
                    viewport_only: bool = False, max_elements: int | None = None,
                    include_bounds: bool = False) -> PageView:
    """The page as a compact view in which every interactive element carries a ref, remembered
    as the tab's latest read (the baseline of a later ``compression="delta"`` read).

    Raises ``DialogOpen`` when a JavaScript dialog pauses the page (reads never handle one),
    ``PageUnresponsive`` when the page does not answer within ``answer_timeout`` seconds, and
    ``InvalidRequest`` naming ``filter`` or ``compression`` for a value they do not take.

    The options are the read_page step's: ``target`` (a ref) or ``selector`` reads one
    element's subtree, ``roles`` only those roles, ``viewport_only`` only what intersects the
    viewport — a narrowed read, which is not the baseline of a later delta read and cannot be
    one; ``max_elements`` caps the elements (``omitted`` says how many went),
    ``include_bounds`` adds each element's box. A bad option raises ``InvalidRequest`` naming
    it (camelCase, as in the step)."""
    for name, value, choices in (("filter", filter, _READ_FILTERS),
                                 ("compression", compression, _COMPRESSIONS)):
        if not isinstance(value, str) or value not in choices:
            raise InvalidRequest(name, f"invalid value {show_value(value)} (expected one of "
                                       f"{', '.join(choices)})")
    options = read_options(compression, {
        "target": target, "selector": selector,
        "roles": list(roles) if roles is not None and not isinstance(roles, str) else roles,
        "viewportOnly": viewport_only or None, "maxElements": max_elements,
        "includeBounds": include_bounds or None})
    async with tab.extension(Turn).lock:
        tab.check_alive()
        await refuse_if_paused(tab)
        try:
            with trio.fail_after(answer_timeout):
                await prepare_emulation(tab, None)
                return await read_view(tab.extension(PageAgent), filter, compression, options)
        except trio.TooSlowError:
            await refuse_if_paused(tab)  # a dialog that opened during the read says so
            raise PageUnresponsive(tab.id, f"the page did not answer the read within "
                                           f"{answer_timeout:g} s (a busy script)") from None


def read_options(compression: str, given: dict[str, Any]) -> ReadOptions | None:
    """The options of a read (``given`` by their wire names; None: not given), checked as the
    read_page step's; None when there are none."""
    given = {name: value for name, value in given.items() if value is not None}
    for name, value in given.items():
        _check_text(name, value)
        if name in ("target", "selector") and isinstance(value, str):
            refuse_controls(name, name, value)
    try:
        args: Any = msgspec.convert(given, _ReadArgs)
    except msgspec.ValidationError as exc:
        raise _invalid(str(exc), given) from None
    if args.target is not None and args.selector is not None:
        raise InvalidRequest("selector", "give only one of target or selector, not both")
    if args.target is not None and parse_target(args.target).kind != "ref":
        raise InvalidRequest("target", 'a read\'s scope is a ref "ref_N" (or give a selector)')
    if compression == "delta":
        for name in ("target", "selector", "roles", "viewportOnly"):
            if name in given:
                raise InvalidRequest(name, "narrows the read, and a delta compares whole-page "
                                           "reads: leave out compression \"delta\" or this")
    scope: Target | None = None
    if args.target is not None:
        scope = Ref(parse_target(args.target).number)
    elif args.selector is not None:
        scope = Selector(args.selector)
    options = ReadOptions(scope=scope, roles=tuple(args.roles) if args.roles is not None else None,
                          viewport_only=args.viewport_only, max_elements=args.max_elements,
                          include_bounds=args.include_bounds)
    return None if options == ReadOptions() else options


def _check_text(name: str, value: object) -> None:
    """A lone surrogate cannot travel to the page: refused as the step's validation does."""
    for index, item in enumerate(value if isinstance(value, list) else [value]):
        if isinstance(item, str) and not item.isascii():
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                where = f"{name}[{index}]" if isinstance(value, list) else name
                raise InvalidRequest(where, f"character {exc.start} is a lone surrogate, not "
                                            "Unicode text") from None


def _invalid(message: str, given: dict[str, Any]) -> InvalidRequest:
    """msgspec's refusal of an option as the step's validation words it."""
    found = _MESSAGE.match(message)
    assert found is not None  # the pattern matches any string
    reason, path = found.group("msg").replace("`", ""), found.group("path") or ""
    value = given.get(path)
    if path == "target":
        return InvalidRequest("target", target_problem(value))
    if path == "selector" and isinstance(value, str):
        return InvalidRequest("selector", "selector must be a non-empty CSS selector")
    return InvalidRequest(path or "request", reason[:1].lower() + reason[1:])
