"""The text rendering's lines for what steps caused beyond the DOM and for logs steps.

One line an entry, the step first, so that an agent reads ``step 1: POST /api/save → 500``
without asking for the JSON; URLs of the tab's own origin shown from their path.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import msgspec

from ..engine.result import ActResult


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""


def _short(url: str, origin: str) -> str:
    return url[len(origin):] or "/" if origin and url.startswith(origin + "/") else url


def _console(entry: dict[str, Any], origin: str) -> str:
    where = f" ({_short(entry['source'], origin)})" if entry.get("source") else ""
    return f"console.{entry['level']} {entry['text']}{where}"


def _request(entry: dict[str, Any], origin: str) -> str:
    outcome = entry["status"] if entry.get("status") is not None else entry.get("error", "?")
    return f"{entry['method']} {_short(entry['url'], origin)} → {outcome}"


def effect_lines(result: ActResult) -> list[str]:
    """Each step's console errors and warnings and failed requests, a line each, and what the
    caps left out; the logs steps' entries."""
    origin = _origin(result.tab.url) if result.tab is not None else ""
    lines: list[str] = []
    for step in result.steps:
        at = f"  step {step.index}:"
        if step.effects is not msgspec.UNSET:
            lines += _listed(f"{at} ", msgspec.to_builtins(step.effects), origin,
                             ("more console messages", "more failed requests"))
        if step.type == "logs" and isinstance(step.output, dict):
            output = step.output
            lines.append(f"≡ step {step.index} logs: {len(output.get('console', []))} console, "
                         f"{len(output.get('requests', []))} requests")
            lines += _listed("  ", output, origin, ("earlier console messages", "earlier requests"))
    return lines


def _listed(prefix: str, found: dict[str, Any], origin: str,
            rest: tuple[str, str]) -> list[str]:
    """The console and request lines of a step's effects or a logs step's output, each kind
    followed by how many more there were (``rest``: what to call them)."""
    lines = [f"{prefix}{_console(e, origin)}" for e in found.get("console", [])]
    if found.get("consoleMore"):
        lines.append(f"{prefix}… {found['consoleMore']} {rest[0]}")
    lines += [f"{prefix}{_request(e, origin)}" for e in found.get("requests", [])]
    if found.get("requestsMore"):
        lines.append(f"{prefix}… {found['requestsMore']} {rest[1]}")
    return lines


def download_line(download: dict[str, Any]) -> str:
    """The line of one download: its name, and where it was saved and how big, or how far it
    got."""
    line = f"↓ download {download['suggestedFilename'] or download['url']}"
    if download.get("finished"):
        return f"{line} → {download.get('path')} ({download.get('bytes')} bytes)"
    if download.get("canceled"):
        return f"{line} (canceled)"
    got = download.get("bytes")
    return f"{line} (not finished{f': {got} bytes so far' if got else ''})"
