"""The ref floor of each tab, shared between processes through a small file per tab.

A tab's floor is the highest ref number ever minted in it. A new document's agent starts
numbering above it, so a ref number is never given to two elements of a tab. Several processes
(a CLI call, an MCP server, a script) attach to the same tab; they agree on the floor through
``$CDPSEQ_STATE_DIR``, else ``$XDG_STATE_HOME/cdpseq``, else ``~/.local/state/cdpseq``. Files
older than two weeks are pruned. An unwritable state dir only weakens the cross-process
guarantee; it never fails an act.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

_STATE_MAX_AGE = 14 * 24 * 3600


def state_dir() -> Path:
    explicit = os.environ.get("CDPSEQ_STATE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(Path.home(), ".local", "state")
    return Path(base, "cdpseq")


def _floor_path(target_id: str) -> Path:
    return state_dir() / "tabs" / f"{target_id}.json"


def load_floor(target_id: str) -> int:
    try:
        data = json.loads(_floor_path(target_id).read_text())
        return int(data.get("floor", 0))
    except (OSError, ValueError, AttributeError):
        return 0


def store_floor(target_id: str, floor: int) -> None:
    path = _floor_path(target_id)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if load_floor(target_id) >= floor:
            return
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".floor-")
        with os.fdopen(fd, "w") as out:
            json.dump({"floor": floor}, out)
        os.replace(tmp, path)
        _prune(path.parent)
    except OSError:
        pass  # an unwritable state dir only weakens cross-process guarantees, never acts


def _prune(folder: Path) -> None:
    cutoff = time.time() - _STATE_MAX_AGE
    for old in folder.glob("*.json"):
        try:
            if old.stat().st_mtime < cutoff:
                old.unlink()
        except OSError:
            pass
