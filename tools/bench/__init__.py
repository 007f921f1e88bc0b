"""The benchmarks, each a script: ``.venv/bin/python tools/bench/NAME.py --help``.

- ``all``: every scenario beside Playwright, one table (docs/BENCHMARKS.md);
- ``act``: act steps and read_page, beside Playwright's clicks, fills and aria snapshots;
- ``read_profile``: where a first read_page spends its time, in the page and in Python;
- ``settle``: how closely settling follows the page (overshoot, idle cost, delta size);
- ``connection``: the connection against a bare websocket client;
- ``pool``: a pool of browsers against one;
- ``mcp_servers``: the MCP servers side by side (cdpseq's, Playwright MCP, Chrome DevTools
  MCP): what they cost before the first call, and five agent tasks through each
  (``mcp_tasks``, driven as a model drives each server by ``mcp_drivers``);
- ``mcp_equivalence``: one act call against the single calls an agent makes without batching;
- ``common``: what they share (statistics, the tree measured, the peer's line protocol).

Nothing in them fails on timing: they report.
"""
