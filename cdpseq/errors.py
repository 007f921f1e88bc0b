"""Every error cdpseq raises, each carrying the data a caller needs to react to it."""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Mapping
from typing import Any

from .escaping import escape_text


class CdpseqError(Exception):
    """Base class of every cdpseq error. Its message (``str``) holds no control character,
    bidi override or lone surrogate but as its escape (``cdpseq.escaping``): a page's title or
    a request's value in it cannot act on the terminal or log that shows it."""

    def __str__(self) -> str:
        return escape_text(super().__str__())


class ActError(CdpseqError):
    """A failure an act reports for a step: a stable ``code`` (STALE_REF, NOT_ACTIONABLE, ...),
    a ``message`` for whoever reads the result, and whether the same request may succeed when
    sent again (``retryable``). Raised as ``AgentError`` by the page agent, ``StepError`` by a
    step."""

    def __init__(self, code: str, message: str, retryable: bool = False) -> None:
        self.code = code
        self.message = message
        self.retryable = retryable
        super().__init__(message)


class ProtocolError(CdpseqError):
    """Chrome answered a command with an error."""

    def __init__(self, code: int, message: str, method: str, data: str | None = None) -> None:
        self.code = code
        self.message = message
        self.method = method
        self.data = data
        detail = f" ({data})" if data else ""
        super().__init__(f"{method}: {message}{detail} [code {code}]")


class ConnectionClosed(CdpseqError):
    """The websocket to the browser is gone; every pending and later command fails with this."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"connection to the browser closed: {reason}")


class TargetClosed(CdpseqError):
    """The target (tab) behind a session was closed or detached."""

    def __init__(self, target_id: str | None, session_id: str | None, reason: str) -> None:
        self.target_id = target_id
        self.session_id = session_id
        self.reason = reason
        super().__init__(f"target {target_id or '?'} closed: {reason}")


class TargetCrashed(TargetClosed):
    """The renderer of a target crashed (or was killed); its pending commands never answer."""

    def __init__(self, target_id: str | None, session_id: str | None,
                 reason: str = "crashed") -> None:
        super().__init__(target_id, session_id, reason)
        self.args = (f"target {target_id or '?'} crashed: {reason}",)


class InvalidEndpoint(CdpseqError, ValueError):
    """An endpoint string that is none of the accepted forms."""

    def __init__(self, endpoint: object, reason: str) -> None:
        self.endpoint = endpoint
        self.reason = reason
        shown = shown_url(endpoint) if isinstance(endpoint, str) else endpoint
        super().__init__(f"invalid browser endpoint {shown!r}: {reason}")


class BrowserUnreachable(CdpseqError):
    """Nothing that speaks CDP answers at the endpoint (``endpoint`` as given; the message shows
    it without the credentials its URL may carry)."""

    def __init__(self, endpoint: str, reason: str) -> None:
        self.endpoint = endpoint
        self.reason = reason
        super().__init__(f"no Chrome DevTools endpoint at {shown_url(endpoint)}: {reason}")


class ServiceRejected(BrowserUnreachable):
    """A browser service (browserless, a hosted CDP pool) answered the websocket handshake with
    an HTTP error instead of a browser: ``status`` (401/403: the token is refused; 429/503: its
    queue is full, try again later) and ``body``, the service's reason (the first 200
    characters)."""

    def __init__(self, endpoint: str, status: int, body: bytes | str | None) -> None:
        self.status = status
        self.body = _first_line(body, endpoint)
        body = self.body
        super().__init__(endpoint, f"the service answered HTTP {status}"
                                   + (f": {body}" if body else ""))

    @property
    def auth_refused(self) -> bool:
        """True for 401/403: retrying with the same credentials cannot help."""
        return self.status in (401, 403)

    @property
    def busy(self) -> bool:
        """True for 429/503: the service is full now and may take the connection later."""
        return self.status in (429, 503)


def _first_line(body: bytes | str | None, url: str) -> str:
    """The first line of a service's answer, short, with ``url``'s secrets (query values, the
    password) replaced by ``***`` in case the service echoes them."""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body or ""
    lines = text.strip().splitlines()
    line = lines[0][:200] if lines else ""
    parts = urllib.parse.urlsplit(url)
    for _, secret in [*urllib.parse.parse_qsl(parts.query), ("", parts.password or "")]:
        if len(secret) >= 4:
            line = line.replace(secret, "***")
    return line


def shown_url(url: str) -> str:
    """``url`` fit for a message or a log: a hosted browser pool's token (``?token=...``) and a
    password in the URL replaced by ``***``, since whoever has them controls the browser."""
    parts = urllib.parse.urlsplit(url)
    if not parts.query and parts.password is None:
        return url
    netloc = parts.netloc
    if parts.password is not None:
        netloc = f"{parts.username or ''}:***@{netloc.rpartition('@')[2]}"
    query = "&".join(f"{name}=***" if value else name for name, value in
                     urllib.parse.parse_qsl(parts.query, keep_blank_values=True))
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


class LaunchError(CdpseqError):
    """A local Chromium could not be started."""


class PortInUse(LaunchError):
    """The requested debugging port is already taken on 127.0.0.1."""

    def __init__(self, port: int) -> None:
        self.port = port
        super().__init__(
            f"port {port} on 127.0.0.1 is already in use; "
            "pick another with --port, or 0 for a free one"
        )


class ProfileInUse(LaunchError):
    """Another browser runs on the persistent profile ``profile_dir`` (``pid`` when known)."""

    def __init__(self, profile_dir: str, pid: int | None, holder: str = "") -> None:
        self.profile_dir = profile_dir
        self.pid = pid
        by = f" (pid {pid})" if pid is not None else (f" ({holder})" if holder else "")
        super().__init__(
            f"the profile {profile_dir} is in use by another browser{by}; close that one "
            "first, or use another --profile directory"
        )


class InvalidRequest(CdpseqError, ValueError):
    """An act request that does not validate; ``field`` is its wire path, e.g. ``steps[2].url``.

    Nothing of the request ran. ``index`` and ``step_type`` name the step when the field is in
    one; ``total_steps`` is how many steps the request had, when that could be told."""

    def __init__(self, field: str, reason: str, *, index: int | None = None,
                 step_type: str | None = None, total_steps: int | None = None) -> None:
        if index is None:
            m = re.match(r"steps\[(\d+)\]", field)
            index = int(m.group(1)) if m else None
        # Escaped here, not only in ``str``: a field name or value echoed in either is the
        # caller's own, and the JSON ``failed`` of every door shows both.
        self.field = field = escape_text(field)
        self.reason = reason = escape_text(reason)
        self.index = index
        self.step_type = step_type
        self.total_steps = total_steps
        super().__init__(f"{field}: {reason}")


class DialogOpen(CdpseqError):
    """A JavaScript dialog is open in the tab and pauses its page; nothing more can be read or
    done there until it is handled (an act with ``dialog`` ``dismiss`` or ``accept`` does)."""

    code = "DIALOG_OPEN"

    def __init__(self, target_id: str, dialog: Mapping[str, Any] | None, reason: str) -> None:
        self.target_id = target_id
        self.dialog = dict(dialog) if dialog is not None else None
        super().__init__(reason)


class PageUnresponsive(CdpseqError):
    """The tab's page did not answer within its bound: a script keeps it busy, or a dialog no
    client can see pauses it."""

    code = "PAGE_UNRESPONSIVE"

    def __init__(self, target_id: str, reason: str) -> None:
        self.target_id = target_id
        super().__init__(reason)


class UrlBlocked(CdpseqError):
    """The URL policy refuses ``url`` (see ``cdpseq.wire.url_policy``); nothing was loaded."""

    code = "URL_BLOCKED"

    def __init__(self, url: str, reason: str) -> None:
        self.url = url
        self.reason = reason
        super().__init__(f"{_shorten(url)} is blocked: {reason}")


def _shorten(url: str, limit: int = 200) -> str:
    return url if len(url) <= limit else url[:limit] + "…"
