"""The storage state file: its typed schema (version 1), read and validated once, written 0600.

The shape follows Playwright's ``storageState`` (``cookies`` with ``name``, ``value``,
``domain``, ``path``, ``expires``, ``httpOnly``, ``secure``, ``sameSite``; ``origins`` with
``origin`` and ``localStorage`` as ``{name, value}`` pairs), plus a ``version`` and each origin's
``sessionStorage``. The file holds live credentials: it is written through a temporary file
created 0600 in the same directory and renamed over the target, so no moment exists in which
another user could read it, and nothing here ever puts a cookie's or an item's value (or a
cookie's name, or an item's key) into a message.
"""

from __future__ import annotations

import os
import tempfile
from typing import Annotated, Literal
from urllib.parse import urlsplit

import msgspec
from msgspec import Meta

from ..errors import InvalidRequest

STATE_VERSION = 1
"""The version this cdpseq writes and reads."""


class StoredItem(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, frozen=True):
    """One localStorage or sessionStorage item."""

    name: str
    value: str


class CookiePartition(msgspec.Struct, kw_only=True, rename="camel", frozen=True,
                      forbid_unknown_fields=True):
    """A partitioned (CHIPS) cookie's partition key."""

    top_level_site: str
    has_cross_site_ancestor: bool


class StoredCookie(msgspec.Struct, kw_only=True, rename="camel", frozen=True,
                   forbid_unknown_fields=True, omit_defaults=True):
    """One cookie as the browser holds it."""

    name: str
    value: str
    domain: Annotated[str, Meta(min_length=1)]
    """``example.com`` for a host-only cookie, ``.example.com`` for a domain cookie."""
    path: Annotated[str, Meta(pattern="^/")] = "/"
    expires: float = -1
    """Seconds since the epoch; -1 for a session cookie."""
    http_only: bool = False
    secure: bool = False
    same_site: Literal["Strict", "Lax", "None"] | None = None
    partition_key: CookiePartition | None = None


class OriginStorage(msgspec.Struct, kw_only=True, rename="camel", frozen=True,
                    forbid_unknown_fields=True):
    """What one origin (``scheme://host[:port]``) keeps in DOM storage."""

    origin: str
    local_storage: list[StoredItem] = []
    session_storage: list[StoredItem] = []
    """The tab's: sessionStorage belongs to one tab (see ``storage_state``)."""


class StorageState(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True):
    """A browser's login state: cookies, and the DOM storage of the origins it visited."""

    version: int
    cookies: list[StoredCookie] = []
    origins: list[OriginStorage] = []


def check_origin(origin: str, field: str) -> str:
    """``origin`` as an http(s) origin, or ``InvalidRequest`` naming ``field``."""
    try:
        parts = urlsplit(origin)
        parts.port  # noqa: B018 - raises for a port that is not a number
    except ValueError:
        parts = None
    if (parts is None or parts.scheme not in ("http", "https") or not parts.hostname
            or parts.path or parts.query or parts.fragment or parts.username is not None
            or parts.password is not None or origin != f"{parts.scheme}://{parts.netloc}"):
        shown = origin if len(origin) <= 80 else origin[:77] + "..."
        raise InvalidRequest(field, f"{shown!r} is not an origin (http or https, "
                                    "scheme://host[:port], nothing after)")
    return origin


def parse_state(data: bytes, source: str = "state") -> StorageState:
    """A state file's bytes, validated; ``InvalidRequest`` names the field (``source`` first)
    and never shows a value."""
    try:
        raw = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise InvalidRequest(source, f"not JSON ({str(exc).split(' - ')[0]})") from None
    if not isinstance(raw, dict):
        raise InvalidRequest(source, "expected a JSON object with version, cookies, origins")
    version = raw.get("version")
    if version is None:
        raise InvalidRequest(f"{source}.version", "required field missing (a Playwright "
                                                  "storageState file has the same cookies and "
                                                  f'origins: add "version": {STATE_VERSION})')
    if type(version) is not int or version != STATE_VERSION:
        raise InvalidRequest(f"{source}.version", f"this cdpseq reads version {STATE_VERSION}, "
                                                  f"not {str(version)[:20]!r} (a newer cdpseq "
                                                  "wrote it?)")
    try:
        state = msgspec.convert(raw, StorageState)
    except msgspec.ValidationError as exc:
        message, _, where = str(exc).partition(" - at `$")
        raise InvalidRequest(source + where.rstrip("`"), message.replace("`", "")) from None
    for i, stored in enumerate(state.origins):
        check_origin(stored.origin, f"{source}.origins[{i}].origin")
    return state


def read_state(path: str | os.PathLike[str]) -> StorageState:
    """The state file at ``path``, validated (``InvalidRequest`` naming ``path`` or the
    field)."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as exc:
        raise InvalidRequest("path", f"cannot read {os.fspath(path)}: {exc.strerror}") from None
    return parse_state(data)


def write_state(path: str | os.PathLike[str], state: StorageState) -> None:
    """Write ``state`` to ``path``, mode 0600 from its first byte, replacing it atomically."""
    target = os.path.abspath(os.fspath(path))
    data = msgspec.json.format(msgspec.json.encode(state), indent=1) + b"\n"
    try:
        # mkstemp creates the file 0600 (O_EXCL): never readable by others, even for a moment.
        handle, temporary = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".cdpseq-state-")
    except OSError as exc:
        raise InvalidRequest("path", f"cannot write in {os.path.dirname(target)}: "
                                     f"{exc.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except OSError as exc:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise InvalidRequest("path", f"cannot write {target}: {exc.strerror}") from None
