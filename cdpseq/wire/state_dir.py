"""The state directory: where the managed browser's record and the CLI daemon's socket live.

Its own module, importing nothing but the standard library's ``os`` and ``pathlib``, because the
``cdpseq`` command's thin client (``front/client``) needs it before anything heavy is loaded.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$CDPSEQ_STATE_DIR``, else ``$XDG_STATE_HOME/cdpseq``, else ``~/.local/state/cdpseq``,
    made absolute (the keeper is recognised by the directory its command line names)."""
    env = os.environ if environ is None else environ
    if env.get("CDPSEQ_STATE_DIR"):
        found = Path(env["CDPSEQ_STATE_DIR"])
    elif env.get("XDG_STATE_HOME"):
        found = Path(env["XDG_STATE_HOME"], "cdpseq")
    else:
        found = Path(env.get("HOME") or Path.home(), ".local", "state", "cdpseq")
    return found.expanduser().absolute()
