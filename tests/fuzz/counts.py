"""How many examples each fuzz property ran, and what each ended as."""

from __future__ import annotations

import os
from collections import Counter, defaultdict

COUNTS: defaultdict[str, Counter[str]] = defaultdict(Counter)
"""property name -> outcome -> examples (outcomes: a result code, ``ok``, ``valid``...)."""

SCALE = max(1, int(os.environ.get("CDPSEQ_FUZZ_SCALE", "1")))


def examples(n: int) -> int:
    """A property's example count, scaled by ``CDPSEQ_FUZZ_SCALE``."""
    return n * SCALE


def count(prop: str, outcome: str) -> None:
    COUNTS[prop][outcome] += 1


def summary_lines() -> list[str]:
    lines = []
    for prop, outcomes in sorted(COUNTS.items()):
        detail = ", ".join(f"{name} {n}" for name, n in outcomes.most_common())
        lines.append(f"{prop}: {sum(outcomes.values())} examples ({detail})")
    lines.append(f"total: {sum(sum(c.values()) for c in COUNTS.values())} examples")
    return lines
