"""Answers within a size budget (``maxChars``): what is cut first, and how every cut is marked.

An answer's text is a head (an act's header, its failure, what changed) and a page (a
``Page:`` line, then one line per element or text). Over the budget, lines go in this order,
each kind from the end, until the text fits:

1. the page's text lines (paragraphs of filter "all": context, not controls), then its
   headings (the page's outline);
2. the page's elements that no line of the head names (a ref the delta gives stays usable);
3. the head's detail lines: a container's text lines and a new document's summary.

Never cut: the ``Page:`` line, the header, the failure, and every line of the head that names
a ref. Where lines went, one line says how many (``… 37 more lines``), and the last line says
the size: ``… cut to 3,968 of 12,345 chars (maxChars 4000)``. When what is never cut is over
the budget by itself, it is answered whole, and the last line says so.

Pure: lines in, lines out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

MIN_CHARS, MAX_CHARS = 200, 1_000_000
"""The budgets an answer may be given: under 200 characters, the header alone may not fit."""

_REF = re.compile(r"\[(ref_\d+)\]")
_ELEMENT = re.compile(r"^\[(ref_\d+)\]")


class Cut(msgspec.Struct, kw_only=True, rename="camel"):
    """What a budget cut from an answer."""

    max_chars: int
    chars: int
    """The whole answer's size, in characters."""
    shown: int
    """The size of what is answered, markers included."""
    lines: int
    """Lines left out."""


def fit(head: Sequence[str], page: Sequence[str], max_chars: int
        ) -> tuple[list[str], Cut | None]:
    """``head`` and ``page`` (lines) within ``max_chars``: the lines to answer, and what was
    cut (None when everything fits)."""
    whole = [*head, *page]
    chars = _size(whole)
    if chars <= max_chars:
        return whole, None
    candidates = _cut_order(head, page)
    # The fewest cuts that fit: markers do not shrink the answer one for one, so the count is
    # searched, each try rendered exactly.
    count = len(candidates)
    low, high = 1, len(candidates) - 1
    while low <= high:
        middle = (low + high) // 2
        if _size(_render(head, page, candidates, middle, chars, max_chars)) <= max_chars:
            count, high = middle, middle - 1
        else:
            low = middle + 1
    best = _render(head, page, candidates, count, chars, max_chars)
    return best, Cut(max_chars=max_chars, chars=chars, shown=_size(best), lines=count)


def kept_refs(lines: Sequence[str]) -> set[str]:
    """The refs that ``lines`` name."""
    return {ref for line in lines for ref in _REF.findall(line)}


def _size(lines: Sequence[str]) -> int:
    return sum(len(line) for line in lines) + max(len(lines) - 1, 0)


_MARK = "… "


def _cut_order(head: Sequence[str], page: Sequence[str]) -> list[tuple[str, int]]:
    """(``head`` or ``page``, index) of every line that may go, first to go first."""
    named = kept_refs(head)
    text = [("page", i) for i in range(len(page) - 1, 0, -1)
            if not _ELEMENT.match(page[i]) and not page[i].startswith("#")]
    headings = [("page", i) for i in range(len(page) - 1, 0, -1) if page[i].startswith("#")]
    elements = [("page", i) for i in range(len(page) - 1, 0, -1)
                if (match := _ELEMENT.match(page[i])) and match.group(1) not in named]
    details = [("head", i) for i in range(len(head) - 1, 0, -1)
               if head[i].startswith("  ") and not _REF.search(head[i])]
    return text + headings + elements + details


def _render(head: Sequence[str], page: Sequence[str], candidates: list[tuple[str, int]],
            count: int, chars: int, max_chars: int) -> list[str]:
    """The answer without the first ``count`` candidates, with its markers and size line."""
    gone = set(candidates[:count])
    out = _with_markers(head, {i for part, i in gone if part == "head"})
    out += _with_markers(page, {i for part, i in gone if part == "page"})
    body = _size(out) + 1
    line = ""
    for _ in range(3):  # the size line counts itself: settle its digits
        line = f"… cut to {body + len(line):,} of {chars:,} chars (maxChars {max_chars})"
    if body + len(line) > max_chars and count == len(candidates):
        line = (f"… {count} lines cut, the rest is over maxChars {max_chars}: the header, "
                "the failure and every line naming a ref are never cut")
    return [*out, line]


def _with_markers(lines: Sequence[str], gone: set[int]) -> list[str]:
    """``lines`` without ``gone``, each run of lines that went replaced by one marker."""
    out: list[str] = []
    run_elements = run_text = 0
    indent = ""
    for index, line in enumerate([*lines, None]):
        if line is not None and index in gone:
            if not run_elements and not run_text:
                indent = line[:len(line) - len(line.lstrip(" "))]
            if _ELEMENT.match(line):
                run_elements += 1
            else:
                run_text += 1
            continue
        if run_elements or run_text:
            said = [f"{n} more {word}{'s' if n > 1 else ''}"
                    for n, word in ((run_elements, "element"), (run_text, "line")) if n]
            out.append(f"{indent}{_MARK}{', '.join(said)}")
            run_elements = run_text = 0
        if line is not None:
            out.append(line)
    return out
