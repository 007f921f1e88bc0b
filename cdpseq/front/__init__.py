"""The front doors: the command line and the MCP server, and what they share.

- ``client``: the ``cdpseq`` command: a thin client of the daemon, else the CLI in-process.
- ``daemon``: the CLI daemon: calls over a Unix socket, browser connections kept between them.
- ``cli``: the ``cdpseq`` command line (its commands, output and exit codes).
- ``cli_args``: the command line's grammar: every command, option and help text.
- ``cli_browser``: which browser a CLI command drives (``--cdp``, port 9222, or the managed one).
- ``mcp_server``: the MCP server over stdio, serving the tools of ``mcp_tools`` (its I/O shell).
- ``mcp_rpc``: MCP's JSON-RPC for a tools-only server, without I/O (a line in, what to do out).
- ``mcp_tools``: the MCP tools ``act``, ``read_page`` and ``tabs``, independent of the protocol.
- ``mcp_state``: the ``tabs`` tool's save_state and load_state (the login state to a file).
- ``mcp_schema``: what a model is shown of the tools' arguments, and their output schemas.
- ``driver``: the one path from either door into the engine (the browser, current tab, secrets).
- ``selection``: the selected tab, kept in the browser so that every CLI process agrees on it.
- ``render``: the compact text rendering of an act result.
- ``effects_text``: its lines for what steps caused beyond the DOM, and for logs steps.
- ``budget``: answers within a size budget (``maxChars``), every cut marked.
- ``captures``: what the doors do with screenshots and extracts (files, image items, names).
- ``pool``: ``open_pool``, act sequences spread over the browsers of several endpoints.
- ``pool_service``: browser services in a pool (a fresh browser per connection, a queue).
"""
