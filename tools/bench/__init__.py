"""The benchmarks, each a script: ``.venv/bin/python tools/bench/NAME.py --help``.

- ``all``: every scenario beside Playwright, one table (docs/BENCHMARKS.md);
- ``act``: act steps and read_page, beside Playwright's clicks, fills and aria snapshots;
- ``settle``: how closely settling follows the page (overshoot, idle cost, delta size);
- ``connection``: the connection against a bare websocket client;
- ``pool``: a pool of browsers against one;
- ``common``: what they share (statistics, the tree measured, the peer's line protocol).

Nothing in them fails on timing: they report.
"""
