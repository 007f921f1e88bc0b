"""The front doors: the command line (``cli``) and the MCP server (``mcp_server`` serving the
tools of ``mcp_tools``), both through the one ``driver``, and the compact text rendering of a
result (``render``)."""
