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
            caused = msgspec.to_builtins(step.effects)
            lines.extend(f"{at} {_console(e, origin)}" for e in caused.get("console", []))
            if caused.get("consoleMore"):
                lines.append(f"{at} … {caused['consoleMore']} more console messages")
            lines.extend(f"{at} {_request(e, origin)}" for e in caused.get("requests", []))
            if caused.get("requestsMore"):
                lines.append(f"{at} … {caused['requestsMore']} more failed requests")
        if step.type == "logs" and isinstance(step.output, dict):
            output = step.output
            lines.append(f"≡ step {step.index} logs: {len(output.get('console', []))} console, "
                         f"{len(output.get('requests', []))} requests")
            lines.extend(f"  {_console(e, origin)}" for e in output.get("console", []))
            if output.get("consoleMore"):
                lines.append(f"  … {output['consoleMore']} earlier console messages")
            lines.extend(f"  {_request(e, origin)}" for e in output.get("requests", []))
            if output.get("requestsMore"):
                lines.append(f"  … {output['requestsMore']} earlier requests")
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
