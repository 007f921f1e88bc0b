"""The wire: everything between cdpseq and a browser's DevTools socket, and nothing above it.

- ``protocol``: the base classes of typed commands and events (the generated ``cdpseq.cdp``
  bindings derive from them).
- ``events``: the few target events several layers decode, as lean Structs (and why).
- ``router``: the I/O-free core of a connection (ids, pending commands, sessions, frames).
- ``connection``: the trio shell around the router (one websocket, one reader task).
- ``handshake``: the websocket handshake, with a service's refusal (401, 429) read at once.
- ``endpoint``: what a user typed (a port, ``host:port``, a URL) to the browser's websocket URL.
- ``launch``: a local headless Chromium on 127.0.0.1, always cleaned up.
- ``profile``: a persistent profile, claimed by one browser at a time and never removed.
- ``managed``: the headless Chromium kept alive between CLI commands (its record, lock, start).
- ``keeper``: the process that owns that managed Chromium (``python -m cdpseq.wire.keeper``).
- ``state_dir``: the state directory (managed browser, CLI daemon), importing nothing heavy.
- ``url_policy``: which URLs a tab may go to (pure: the hosts allowed, the schemes refused).
"""
