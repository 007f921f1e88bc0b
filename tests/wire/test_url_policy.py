"""The URL policy's decisions, without a browser: schemes, hosts, and the parser tricks that
would let a URL past a policy that reads it differently from Chromium."""

from __future__ import annotations

import pytest

from cdpseq.wire.url_policy import (
    HostPattern,
    UrlPolicy,
    is_loopback_host,
    normalize_host,
    parse_host_pattern,
)

DEFAULT = UrlPolicy()


@pytest.mark.parametrize("url", [
    "http://example.com/", "https://example.com:8443/a?b#c", "HTTP://EXAMPLE.COM",
    "about:blank", "ABOUT:BLANK", "about:blank#top", "about:blank?x",
    "blob:https://example.com/0c6c3f3e-1111-2222-3333-444444444444",
    "filesystem:http://example.com/temporary/x.html",
    "  https://example.com/  ", "ht\ttp://example.com/",
])
def test_default_allows_the_web_and_about_blank(url: str) -> None:
    assert DEFAULT.check(url) is None


@pytest.mark.parametrize(("url", "says"), [
    ("file:///etc/passwd", "file: URLs are refused by default"),
    ("FILE:///etc/passwd", "file: URLs are refused by default"),
    ("file://localhost/etc/passwd", "allow_file"),
    ("data:text/html,<script>alert(1)</script>", "data: URLs are refused by default"),
    ("DaTa:,x", "allow_data"),
    ("javascript:alert(1)", "javascript: URLs are never loaded"),
    ("JAVASCRIPT:alert(1)", "javascript:"),
    ("\x00\x01 javascript:alert(1)", "javascript:"),
    (" \x1f\tjava\nscript:alert(1)", "javascript:"),
    ("java\rscript:alert(1)", "javascript:"),
    ("chrome://version", "chrome: URLs are never loaded"),
    ("chrome://settings/passwords", "chrome:"),
    ("chrome-extension://abcdef/page.html", "chrome-extension:"),
    ("chrome-untrusted://terminal/", "chrome-untrusted:"),
    ("devtools://devtools/bundled/inspector.html", "devtools:"),
    ("view-source:https://example.com/", "view-source:"),
    ("about:version", "only about:blank"),
    ("about:settings", "only about:blank"),
    ("about:srcdoc", "only about:blank"),
    ("blob:null/1234", "http(s) origin"),
    ("blob:file:///1234", "http(s) origin"),
    ("filesystem:file:///x", "http(s) origin"),
    ("mailto:someone@example.com", "the scheme mailto: is not allowed"),
    ("ftp://example.com/", "the scheme ftp: is not allowed"),
    ("ws://example.com/", "the scheme ws: is not allowed"),
    ("localhost:8080/x", "the scheme localhost: is not allowed"),
    ("example.com", "no scheme"),
    ("//example.com/", "no scheme"),
    ("", "no scheme"),
])
def test_default_refuses_other_schemes(url: str, says: str) -> None:
    reason = DEFAULT.check(url)
    assert reason is not None and says in reason, reason


def test_file_and_data_are_allowed_one_by_one() -> None:
    files = UrlPolicy(allow_file=True)
    assert files.check("file:///tmp/page.html") is None
    assert files.check("data:,x") is not None
    data = UrlPolicy(allow_data=True)
    assert data.check("data:text/html,<b>x</b>") is None
    assert data.check("file:///tmp/page.html") is not None
    both = UrlPolicy(allow_file=True, allow_data=True)
    assert both.check("javascript:alert(1)") is not None  # never, whatever is allowed
    assert both.check("chrome://version") is not None


ALLOW = UrlPolicy(allow_hosts=("example.com", "*.example.com", "127.0.0.1:8000", "[::1]"),
                  deny_hosts=("admin.example.com", "*.internal.example.com"))


@pytest.mark.parametrize("url", [
    "http://example.com/", "https://example.com/", "http://www.example.com/",
    "http://a.b.c.example.com/", "HTTPS://WWW.EXAMPLE.COM/", "http://example.com./",
    "http://www.example.com.:443/", "http://user:pw@example.com/", "http://ex%61mple.com/",
    "http://127.0.0.1:8000/", "http://2130706433:8000/", "http://0x7f.0.0.1:8000/",
    "http://0177.0.0.1:8000/", "http://127.1:8000/", "http://[::1]/", "http://[0:0::1]:9/",
    "http://[0000:0000:0000:0000:0000:0000:0000:0001]/", "http:\\\\example.com\\x",
    "blob:https://www.example.com/uuid", "about:blank",
])
def test_allow_list_allows_matching_hosts(url: str) -> None:
    assert ALLOW.check(url) is None, ALLOW.check(url)


@pytest.mark.parametrize(("url", "says"), [
    ("http://evil.com/", "evil.com is not on the allow list"),
    ("http://example.com@evil.com/", "evil.com is not on the allow list"),
    ("http://example.com:pw@evil.com/", "evil.com"),
    ("http://evil.com\\@example.com/", "evil.com is not on the allow list"),
    ("http://evil.com\\.example.com/", "evil.com"),
    ("http://evil.com#@example.com/", "evil.com"),
    ("http://evil.com?@example.com/", "evil.com"),
    ("http://example.com.evil.com/", "example.com.evil.com"),
    ("http://notexample.com/", "notexample.com"),
    ("http://example.co/", "example.co"),
    ("http://127.0.0.1:8001/", "127.0.0.1:8001 is not on the allow list"),
    ("http://127.0.0.1/", "127.0.0.1 is not on the allow list"),
    ("http://localhost:8000/", "localhost:8000"),
    ("http://[::2]/", "[::2]"),
    ("http://admin.example.com/", "admin.example.com is on the deny list"),
    ("http://ADMIN.EXAMPLE.COM./", "deny list"),
    ("http://adm%69n.example.com/", "deny list"),
    ("http://x.internal.example.com/", "deny list"),
    ("http://a.b.internal.example.com/", "deny list"),
    ("blob:http://evil.com/uuid", "evil.com"),
    ("http://1.2.3.4.5/", "not valid"),
    ("http://256.1.1.1/", "not valid"),
    ("http://0x100000000/", "not valid"),
    ("http:///", "not valid"),
    ("http://[::1/", "not valid"),
    ("http://exa mple.com/", "not valid"),
])
def test_allow_and_deny_lists_refuse_the_rest(url: str, says: str) -> None:
    reason = ALLOW.check(url)
    assert reason is not None and says in reason, reason


def test_deny_wins_over_allow_and_empty_allow_means_every_host() -> None:
    both = UrlPolicy(allow_hosts=("example.com",), deny_hosts=("example.com",))
    assert "deny list" in (both.check("http://example.com/") or "")
    deny_only = UrlPolicy(deny_hosts=("evil.com",))
    assert deny_only.check("http://anything.org/") is None
    assert deny_only.check("http://evil.com/") is not None
    assert deny_only.check("http://sub.evil.com/") is None  # write *.evil.com for subdomains
    assert not UrlPolicy().restricts_hosts and deny_only.restricts_hosts


def test_subdomain_patterns_do_not_cover_the_domain_itself() -> None:
    subs = UrlPolicy(allow_hosts=("*.example.com",))
    assert subs.check("http://www.example.com/") is None
    assert subs.check("http://example.com/") is not None


def test_ports_default_by_scheme() -> None:
    port80 = UrlPolicy(allow_hosts=("example.com:80",))
    assert port80.check("http://example.com/") is None
    assert port80.check("https://example.com/") is not None  # 443
    assert port80.check("https://example.com:80/") is None


def test_international_names_compare_in_their_ascii_form() -> None:
    idn = UrlPolicy(deny_hosts=("bücher.de",))
    assert idn.check("http://xn--bcher-kva.de/") is not None
    assert idn.check("http://BÜCHER.de/") is not None
    assert idn.check("http://bücher。de/") is not None  # an ideographic full stop is a dot
    assert UrlPolicy(deny_hosts=("xn--bcher-kva.de",)).check("http://bücher.de/") is not None


@pytest.mark.parametrize(("pattern", "parsed"), [
    ("example.com", HostPattern("example.com")),
    ("EXAMPLE.COM.", HostPattern("example.com")),
    ("*.example.com", HostPattern("example.com", subdomains=True)),
    ("127.0.0.1:8000", HostPattern("127.0.0.1", port=8000)),
    ("[::1]:9222", HostPattern("[::1]", port=9222)),
    ("::1", HostPattern("[::1]")),
    ("2130706433", HostPattern("127.0.0.1")),
])
def test_patterns_parse(pattern: str, parsed: HostPattern) -> None:
    assert parse_host_pattern(pattern) == parsed


@pytest.mark.parametrize(("pattern", "says"), [
    ("", "empty"), ("http://example.com", "not a URL"), ("example.com/path", "not a URL"),
    ("user@example.com", "not a URL"), ("ex*mple.com", "wildcard"), ("*example.com", "wildcard"),
    ("*.*.example.com", "wildcard"), ("example.com:0", "1-65535"),
    ("example.com:70000", "1-65535"), ("*.10.0.0.1", "no subdomains"), ("1.2.3.4.5", "IPv4"),
    ("[not-v6]", "IPv6"), ("exa mple.com", "not a valid host"),
])
def test_bad_patterns_say_what_is_wrong(pattern: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        parse_host_pattern(pattern)
    with pytest.raises(ValueError):
        UrlPolicy(deny_hosts=(pattern,))


def test_normalize_host() -> None:
    assert normalize_host("WWW.Example.COM.") == "www.example.com"
    assert normalize_host("[0:0:0:0:0:0:0:1]") == "[::1]"
    assert normalize_host("0x7f000001") == "127.0.0.1"
    assert normalize_host("10.1") == "10.0.0.1"


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.0.0.2", True), ("127.1", True), ("localhost", True),
    ("LOCALHOST.", True), ("app.localhost", True), ("::1", True), ("[::1]", True),
    ("0.0.0.0", False), ("10.0.0.5", False), ("192.168.1.2", False), ("myhost", False),
    ("example.com", False), ("[::]", False), ("[fe80::1]", False), ("", False),
])
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback
