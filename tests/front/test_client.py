"""The ``cdpseq`` command's thin client (front/client): what it loads, and the request it sends
the daemon, encoded and decoded without loss."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cdpseq.front.client import CallRequest, identity
from tools.bench.common import ROOT

# What a warm call must not pay for: each costs a small machine 0.3–15 ms of import.
HEAVY = ("typing", "json", "re", "pathlib", "hashlib", "socket", "enum", "dataclasses",
         "trio", "msgspec", "importlib", "importlib.metadata", "warnings", "__future__",
         "cdpseq.front.cli")


def test_importing_the_client_loads_nothing_heavy() -> None:
    # -S: without site, whose .pth files are the installation's, not the client's.
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); import cdpseq.front.client; "
             "print(sorted(sys.modules))")
    loaded = subprocess.run([sys.executable, "-S", "-c", probe, str(ROOT)], capture_output=True,
                            text=True, check=True, timeout=60).stdout
    heavy = [name for name in HEAVY if f"'{name}'" in loaded]
    assert heavy == [], f"the client imports {heavy}"
    # and the probe does see what the client imports
    assert "'cdpseq.front.client'" in loaded and "'_socket'" in loaded


def test_an_in_process_call_asks_no_version_and_loads_no_storage_state() -> None:
    # What a cold act or read does not need: the installed metadata's version (looked up only
    # for --version) and the state command's storage state.
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); import cdpseq, cdpseq.front.cli; "
             "cdpseq.front.cli._parser(); "
             "print('__version__' in vars(cdpseq), 'cdpseq.browser.storage_state' in sys.modules)")
    loaded = subprocess.run([sys.executable, "-c", probe, str(ROOT)], capture_output=True,
                            text=True, check=True, timeout=60).stdout
    assert loaded.split() == ["False", "False"], loaded
    shown = subprocess.run([sys.executable, "-m", "cdpseq", "--version"], capture_output=True,
                           text=True, timeout=60, cwd=ROOT,
                           env={**os.environ, "CDPSEQ_NO_DAEMON": "1"})
    assert shown.returncode == 0 and re.fullmatch(r"cdpseq \d+\.\d+\.\d+\S*\n", shown.stdout), \
        shown.stdout + shown.stderr


def test_a_request_comes_back_as_it_was_sent() -> None:
    odd_argument = b"caf\xe9-not-utf8".decode("utf-8", "surrogateescape")
    sent = CallRequest(["act", "--steps", "-", odd_argument, "", "a=b\tc"],
                       "/tmp/dir with space",
                       {"CDPSEQ_SECRET_PW": "p=w=x", "PATH": "/bin", "EMPTY": ""},
                       True, b'{"steps": []}\0\xff trailing NUL and bytes\0')
    got = CallRequest.decode(sent.encode())
    assert (got.argv, got.cwd, got.env, got.tty, got.stdin) == (
        sent.argv, sent.cwd, sent.env, sent.tty, sent.stdin)
    empty = CallRequest.decode(CallRequest([], "/", {}, False, b"").encode())
    assert (empty.argv, empty.env, empty.tty, empty.stdin) == ([], {}, False, b"")


@pytest.mark.parametrize("payload", [
    b"", b"not a request", json.dumps({"argv": []}).encode(),
    b"cdpseq-call-1\0/\x000\x005\0only-one\x000\0",   # fewer arguments than counted
    b"cdpseq-call-1\0/\x000\0-1\0",                    # a negative count
    b"cdpseq-call-1\0/\x000\0x\0",                     # a count that is not a number
    b"cdpseq-call-2\0/\x000\x000\x000\0",              # another version's
])
def test_anything_else_is_refused(payload: bytes) -> None:
    with pytest.raises(ValueError):
        CallRequest.decode(payload)


def test_the_identity_is_stable_and_names_this_install() -> None:
    here = identity()
    assert here == identity() and len(here) == 16 and int(here, 16) >= 0
    other = subprocess.run([sys.executable, "-c", "from cdpseq.front.client import identity; "
                            "print(identity())"], capture_output=True, text=True, check=True,
                           timeout=60, cwd=ROOT).stdout.strip()
    assert other == here  # another process (another str hash salt) names it alike


def test_the_installed_command_is_the_light_script() -> None:
    # pip's wrapper for a [project.scripts] entry point imports `re` before the client: the
    # command is bin/cdpseq, installed with its shebang set to the environment's interpreter.
    installed = Path(sys.executable).with_name("cdpseq").read_text()
    ours = (ROOT / "bin" / "cdpseq").read_text()
    assert installed.splitlines()[1:] == ours.splitlines()[1:]
    assert installed.startswith("#!") and "import re" not in installed
    done = subprocess.run([str(Path(sys.executable).with_name("cdpseq")), "--version"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "CDPSEQ_NO_DAEMON": "1"})
    assert done.returncode == 0 and done.stdout.startswith("cdpseq "), done.stderr


def test_the_command_finds_its_interpreter_through_a_symlink(tmp_path: Path) -> None:
    # bin/cdpseq starts the interpreter beside it without `site`: through a link in another
    # directory (~/.local/bin/cdpseq -> the virtualenv's), beside the file the link names, and
    # the environment's packages are found all the same (the in-process call imports trio).
    link = tmp_path / "cdpseq"
    link.symlink_to(Path(sys.executable).with_name("cdpseq"))
    done = subprocess.run([str(link), "tabs", "--cdp", "http://127.0.0.1:9"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path,
                          env={**os.environ, "CDPSEQ_NO_DAEMON": "1"})
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    assert "127.0.0.1:9" in done.stderr, done.stderr
