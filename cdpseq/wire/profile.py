"""A persistent Chromium profile: claimed by one launch at a time, never removed by cdpseq.

Chromium guards a profile with ``SingletonLock``, a symlink to ``HOSTNAME-PID``; a second
Chromium on a held profile aborts ("Failed to create a ProcessSingleton", exit 21), but only
after it started, and in the meantime the profile's ``DevToolsActivePort`` names the *other*
browser's port: a launch that read it would attach to that browser. So a launch claims the
profile first: an flock on ``cdpseq.lock`` inside it (two cdpseq launches at once: the second
fails at once), then ``SingletonLock`` is read (a Chromium started otherwise: refused too,
naming its pid), and only then is the old ``DevToolsActivePort`` removed and Chromium started.
A lock left by a Chromium that died (its pid no longer runs on this host) is stale: Chromium
takes the profile over itself.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
from collections.abc import Iterator
from pathlib import Path

from ..errors import LaunchError, ProfileInUse

CLAIM_FILE = "cdpseq.lock"
SINGLETON_LOCK = "SingletonLock"


def profile_holder(profile_dir: str) -> tuple[int | None, str] | None:
    """Who holds the profile per Chromium's ``SingletonLock``: (pid on this host, or None for
    another host, and the link's text), or None when no live browser holds it."""
    try:
        target = os.readlink(Path(profile_dir, SINGLETON_LOCK))
    except OSError:
        return None
    host, _, raw_pid = target.rpartition("-")
    if not raw_pid.isdigit():
        return None, target
    if host != socket.gethostname():
        return None, target  # another machine (a shared home): cannot tell, so held
    pid = int(raw_pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None  # stale: that Chromium died; the next one takes the profile over
    except PermissionError:
        pass
    return pid, target


@contextlib.contextmanager
def claim_profile(user_data_dir: str | os.PathLike[str]) -> Iterator[str]:
    """Hold the persistent profile ``user_data_dir`` (created if missing) for the block; yields
    its absolute path. Raises ``ProfileInUse`` at once when another browser holds it."""
    profile = str(Path(user_data_dir).expanduser().absolute())
    try:
        os.makedirs(profile, mode=0o700, exist_ok=True)
        fd = os.open(Path(profile, CLAIM_FILE), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise LaunchError(f"cannot use the profile directory {profile}: "
                          f"{exc.strerror or exc}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            held = profile_holder(profile)
            raise ProfileInUse(profile, held[0] if held else None,
                               "another cdpseq launch") from None
        held = profile_holder(profile)
        if held is not None:
            raise ProfileInUse(profile, held[0], held[1])
        # Written by the last browser on this profile: it would name a port nobody listens on,
        # or another browser's.
        with contextlib.suppress(FileNotFoundError):
            Path(profile, "DevToolsActivePort").unlink()
        yield profile
    finally:
        os.close(fd)  # releases the flock
