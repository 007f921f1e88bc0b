"""The URL policy: where cdpseq lets a tab go. Pure: no I/O, tested without a browser.

Theory of operation
-------------------
``UrlPolicy.check(url)`` answers None (allowed) or the reason a URL is refused. It reads the URL
the way Chromium will, not the way a naive split would, because a policy that parses
differently from the browser can be walked around:

- Leading and trailing C0 controls and spaces are dropped and tabs and newlines removed
  anywhere (``"\\x01 java\\tscript:"`` is ``javascript:``); the scheme is case-insensitive.
- In http(s) URLs a backslash is a slash (``http://evil.com\\@good.com`` goes to evil.com), the
  host is what follows the last ``@`` of the authority, percent-escapes in it are decoded, it is
  lower-cased and IDNA-encoded (``bücher.de`` is ``xn--bcher-kva.de``), one trailing dot is
  dropped, and a host that ends in a number is read as an IPv4 address the WHATWG way
  (``2130706433``, ``0x7f.1`` and ``127.1`` are all 127.0.0.1). IPv6 addresses are compared in
  their compressed form.

Schemes are an allow-list: http, https and ``about:blank`` always; ``file:`` and ``data:`` only
when allowed; ``blob:`` and ``filesystem:`` as their inner origin (a blob made by an allowed
http(s) page is allowed). Everything else — javascript, chrome, chrome-extension,
chrome-untrusted, devtools, view-source, other about: pages, custom protocols — is refused.

Hosts are checked for http(s) (and the inner origin of blob/filesystem) against two lists of
patterns: ``example.com`` (that host only), ``*.example.com`` (its subdomains at any depth, not
example.com itself), either with ``:port`` to match one port only; IPv4 and ``[IPv6]`` literals
too. A host on the deny list is refused even when it is also allowed; with a non-empty allow
list, a host on neither list is refused; an empty allow list allows every host not denied.
"""

from __future__ import annotations

import functools
import ipaddress
import re
import urllib.parse

import msgspec

__all__ = ["HostPattern", "UrlPolicy", "is_loopback_host", "normalize_host", "parse_host_pattern"]

_C0_OR_SPACE = "".join(chr(c) for c in range(0x21))
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")
_SCHEME = re.compile(r"([a-zA-Z][a-zA-Z0-9+.\-]*):")
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
_HOST_SCHEMES = ("http", "https")
_ALWAYS_BLOCKED = ("javascript", "chrome", "chrome-extension", "chrome-untrusted", "devtools",
                   "view-source", "chrome-search", "chrome-error", "intent")


class HostPattern(msgspec.Struct, frozen=True):
    """One parsed host pattern: ``host`` (normalized), whether it covers subdomains only, and
    the one port it is limited to, if any."""

    host: str
    subdomains: bool = False
    port: int | None = None

    def matches(self, host: str, port: int) -> bool:
        """Whether ``host`` and ``port`` are what this pattern allows."""
        if self.port is not None and self.port != port:
            return False
        if self.subdomains:
            return host.endswith("." + self.host)
        return host == self.host


def _clean(url: str) -> str:
    return _TAB_OR_NEWLINE.sub("", url.strip(_C0_OR_SPACE))


def _ipv4(host: str) -> str | None:
    """The dotted form of a host the WHATWG URL parser reads as IPv4, else None. Raises
    ValueError for a host that ends in a number but is no valid address (Chromium refuses it)."""
    parts = host.split(".")
    if parts and parts[-1] == "" and len(parts) > 1:
        parts.pop()
    last = parts[-1]
    if not re.fullmatch(r"[0-9]+|0[xX][0-9a-fA-F]*", last):
        return None
    if len(parts) > 4:
        raise ValueError("not an IPv4 address")
    numbers = []
    for part in parts:
        if part == "":
            raise ValueError("not an IPv4 address")
        if part[:2].lower() == "0x":
            numbers.append(int(part[2:] or "0", 16))
        elif len(part) > 1 and part.startswith("0"):
            numbers.append(int(part[1:], 8))
        else:
            numbers.append(int(part, 10))
    *leading, tail = numbers
    if any(n > 255 for n in leading) or tail >= 256 ** (5 - len(numbers)):
        raise ValueError("an IPv4 part is out of range")
    value = tail
    for index, number in enumerate(leading):
        value += number << (8 * (3 - index))
    return str(ipaddress.IPv4Address(value))


def normalize_host(host: str) -> str:
    """A host as Chromium would connect to it, for comparison; raises ValueError for a host
    Chromium would refuse. IPv6 literals may come with or without brackets."""
    host = urllib.parse.unquote(host).strip()
    bracketed = host.startswith("[") and host.endswith("]")
    if bracketed:
        host = host[1:-1]
    if bracketed or ":" in host:
        try:
            return "[" + ipaddress.IPv6Address(host).compressed + "]"
        except ValueError:
            raise ValueError(f"{host!r} is not an IPv6 address") from None
    if not host:
        raise ValueError("no host")
    if host.endswith("."):
        host = host[:-1]
    try:
        ascii_host = host.encode("idna").decode("ascii").lower()
    except UnicodeError as exc:
        raise ValueError(f"not a valid host name ({exc})") from None
    if not ascii_host or any(c in ascii_host for c in " %/\\?#@<>^|"):
        raise ValueError("not a valid host name")
    return _ipv4(ascii_host) or ascii_host


def parse_host_pattern(pattern: str) -> HostPattern:
    """``example.com``, ``*.example.com``, ``127.0.0.1:8000``, ``[::1]:9222``; raises
    ValueError saying what is wrong with any other form."""
    text = pattern.strip()
    if not text:
        raise ValueError("an empty host pattern")
    if "://" in text or "/" in text or "@" in text:
        raise ValueError(f"{pattern!r}: a host pattern is a host (e.g. example.com, "
                         "*.example.com, 127.0.0.1:8000), not a URL")
    subdomains = text.startswith("*.")
    if subdomains:
        text = text[2:]
    port: int | None = None
    if text.count(":") > 1 and not text.startswith("["):
        text = f"[{text}]"  # a bare IPv6 address, without a port
    match = re.fullmatch(r"(\[[^\]]*\]|[^:]*)(?::(\d+))?", text)
    if match is None:
        raise ValueError(f"{pattern!r}: not a host, host:port or [IPv6]:port")
    host, port_text = match.groups()
    if port_text is not None:
        port = int(port_text)
        if not 0 < port < 65536:
            raise ValueError(f"{pattern!r}: the port is not in 1-65535")
    if "*" in host:
        raise ValueError(f"{pattern!r}: a wildcard may only open the pattern, as *.example.com")
    try:
        normalized = normalize_host(host)
    except ValueError as exc:
        raise ValueError(f"{pattern!r}: {exc}") from None
    if subdomains and (normalized.startswith("[") or re.fullmatch(r"[\d.]+", normalized)):
        raise ValueError(f"{pattern!r}: an IP address has no subdomains")
    return HostPattern(normalized, subdomains, port)


@functools.lru_cache(maxsize=64)
def _parse_patterns(patterns: tuple[str, ...]) -> tuple[HostPattern, ...]:
    return tuple(parse_host_pattern(pattern) for pattern in patterns)


class UrlPolicy(msgspec.Struct, frozen=True, kw_only=True):
    """Where tabs may go: schemes (see the module comment) and hosts.

    The default refuses file:, data: and every non-web scheme, and allows every http(s) host.
    Invalid host patterns raise ValueError when the policy is made."""

    allow_file: bool = False
    """Allow ``file:`` URLs (the machine's files, readable by the page and shown in results)."""
    allow_data: bool = False
    """Allow ``data:`` URLs (documents, scripts included, made up from the URL itself)."""
    allow_hosts: tuple[str, ...] = ()
    """Host patterns; when any is given, only hosts matching one are allowed."""
    deny_hosts: tuple[str, ...] = ()
    """Host patterns always refused, even when also allowed."""

    def __post_init__(self) -> None:
        # An invalid pattern fails when the policy is made, not when it is first used.
        _parse_patterns(tuple(self.allow_hosts))
        _parse_patterns(tuple(self.deny_hosts))

    @property
    def restricts_hosts(self) -> bool:
        """Whether any host can be refused (then navigations are intercepted in the browser)."""
        return bool(self.allow_hosts or self.deny_hosts)

    def check(self, url: str) -> str | None:
        """None when ``url`` may be loaded, else why not (a sentence naming the rule)."""
        url = _clean(url)
        match = _SCHEME.match(url)
        if match is None:
            return "not an absolute URL (it has no scheme)"
        scheme = match.group(1).lower()
        rest = url[match.end():]
        if scheme in _HOST_SCHEMES:
            return self._check_host(scheme, rest)
        if scheme == "about":
            page = re.split(r"[?#]", rest, maxsplit=1)[0].lower()
            return None if page == "blank" else (
                f"about:{page} is a browser page; only about:blank is allowed")
        if scheme == "file":
            return None if self.allow_file else (
                "file: URLs are refused by default (they expose the machine's files); "
                "allow them explicitly (allow_file, --allow-file)")
        if scheme == "data":
            return None if self.allow_data else (
                "data: URLs are refused by default (they make a document, scripts included, "
                "from the URL itself); allow them explicitly (allow_data, --allow-data)")
        if scheme in ("blob", "filesystem"):
            inner = _SCHEME.match(rest)
            if inner is None or inner.group(1).lower() not in _HOST_SCHEMES:
                return f"{scheme}: URLs are allowed only with an http(s) origin"
            return self._check_host(inner.group(1).lower(), rest[inner.end():])
        if scheme in _ALWAYS_BLOCKED:
            return f"{scheme}: URLs are never loaded by cdpseq"
        return (f"the scheme {scheme}: is not allowed (http, https and about:blank are; "
                "file: and data: when allowed explicitly)")

    def _check_host(self, scheme: str, rest: str) -> str | None:
        """``rest`` is what follows ``scheme:`` in a special (http-like) URL."""
        rest = rest.replace("\\", "/").lstrip("/")
        authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
        host_port = authority.rpartition("@")[2]
        match = re.fullmatch(r"(\[[^\]]*\]|[^:]*)(?::(\d*))?", host_port)
        if match is None:
            return f"the address {host_port!r} is not valid"
        host_text, port_text = match.groups()
        try:
            host = normalize_host(host_text)
        except ValueError as exc:
            return f"the host {host_text!r} is not valid: {exc}"
        port = int(port_text) if port_text else _DEFAULT_PORTS[scheme]
        shown = host if port == _DEFAULT_PORTS[scheme] else f"{host}:{port}"
        denied = _parse_patterns(tuple(self.deny_hosts))
        allowed = _parse_patterns(tuple(self.allow_hosts))
        for pattern in denied:
            if pattern.matches(host, port):
                return f"the host {shown} is on the deny list"
        if allowed and not any(pattern.matches(host, port) for pattern in allowed):
            return f"the host {shown} is not on the allow list"
        return None


_LOOPBACK_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` names this machine only (127.0.0.0/8, ::1, localhost). Unknown names
    are not loopback: a name could resolve anywhere."""
    try:
        normalized = normalize_host(host)
    except ValueError:
        return False
    if normalized in _LOOPBACK_NAMES or normalized.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(normalized.strip("[]")).is_loopback
    except ValueError:
        return False
