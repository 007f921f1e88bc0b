"""The extract step: the page's main content, or one element, as Markdown or rendered text; or a
form's current values.

The agent (``js/agent/extract.js``) copies what the reader sees as HTML — hidden elements,
scripts, styles and controls left out, URLs made absolute, open shadow roots flattened — and
markdownify (on BeautifulSoup) turns it into Markdown here: headings, links, lists, tables and
code blocks survive; nothing is converted by hand. Text is the element's ``innerText``. Both are
cut at ``maxChars`` on a line boundary when one is near, and the output says ``truncated``.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from ...page.targets import PAGE
from ..request import Extract
from .context import StepContext, target_of, until_ready

_BLANK_LINES = re.compile(r"\n{3,}")
_TRAILING_SPACES = re.compile(r"[ \t]+\n")


@functools.cache
def _converter() -> Any:
    """markdownify with ATX headings, "-" bullets, and the language of a fenced code block
    taken from a ``language-*`` class (highlight.js, Prism and GitHub write it so). Imported on
    the first Markdown extract: markdownify and BeautifulSoup take ~90 ms to import, which every
    CLI call would pay."""
    from markdownify import MarkdownConverter

    return MarkdownConverter(heading_style="ATX", bullets="-", escape_underscores=False,
                             escape_asterisks=False, code_language_callback=_code_language)


def _code_language(element: Any) -> str | None:
    classes = list(element.get("class") or [])
    code = element.find("code")
    if code is not None:
        classes += list(code.get("class") or [])
    for name in classes:
        for prefix in ("language-", "lang-"):
            if name.startswith(prefix):
                return str(name[len(prefix):])
    return None


def to_markdown(html: str) -> str:
    """Markdown of the agent's rendered HTML, blank lines collapsed."""
    text = _converter().convert(html)
    text = _TRAILING_SPACES.sub("\n", text)
    return _BLANK_LINES.sub("\n\n", text).strip()


def cut(text: str, max_chars: int) -> tuple[str, bool]:
    """``text`` at most ``max_chars`` long, cut at the last line break in its final fifth when
    there is one; whether it was cut."""
    if len(text) <= max_chars:
        return text, False
    head = text[:max_chars]
    newline = head.rfind("\n")
    if newline >= max_chars * 4 // 5:
        head = head[:newline]
    return head.rstrip(), True


async def extract(ctx: StepContext, step: Extract) -> Any:
    """The page's or an element's content as Markdown or text, or a form's values."""
    target = target_of(step) or PAGE
    found = await until_ready(ctx, target, "extract", {"format": step.format})
    if step.format == "form":
        output: dict[str, Any] = {"format": "form", "from": found["from"],
                                  "values": found["values"]}
        if found["redacted"]:
            output["redacted"] = found["redacted"]
        if found["unnamed"]:
            output["unnamed"] = found["unnamed"]
        return output
    if step.format == "text":
        content = found["text"].strip()
        truncated = False
    else:
        content = to_markdown(found["html"])
        truncated = bool(found["truncated"])
    full = len(content)
    content, was_cut = cut(content, step.max_chars)
    return {"format": step.format, "from": found["from"], "chars": full,
            "truncated": truncated or was_cut, "content": content}
