"""A compact text rendering of an act result, for people and for language models."""

from __future__ import annotations

from urllib.parse import urlsplit

from .schema import ActResult


def _short(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme in ("http", "https"):
        return (parts.path or "/") + (f"?{parts.query}" if parts.query else "") + (
            f"#{parts.fragment}" if parts.fragment else "")
    return url


def render_text(result: ActResult) -> str:
    head = [f"{result.completed}/{result.total} ok"]
    if result.tab is not None and result.tab.url:
        head.append(_short(result.tab.url))
    lines = [" · ".join(head)]
    failed = result.failed
    if failed is not None:
        where = f"step {failed.index} {failed.type}" if failed.index is not None else "request"
        lines.append(f"✗ {where}: {failed.code}: {failed.error}")
    for step in result.steps:
        if step.status == "skipped" and step.error:
            lines.append(f"  skipped step {step.index} {step.type}: {step.error.code}")
    if isinstance(result.page, dict) and result.page.get("text"):
        lines.append(result.page["text"])
    return "\n".join(lines)
