"""The managed browser's pure parts: where its state lives, the idle setting, what it removes."""

from __future__ import annotations

from pathlib import Path

import pytest

from cdpseq.wire.managed import (
    DEFAULT_IDLE_SECONDS,
    ManagedRecord,
    _remove_profile,
    idle_timeout,
    read_record,
    remove_record,
    state_dir,
    write_record,
)


def test_state_dir_prefers_the_variable_then_xdg_then_home(tmp_path: Path) -> None:
    assert state_dir({"CDPSEQ_STATE_DIR": str(tmp_path / "s"), "XDG_STATE_HOME": "/x",
                      "HOME": "/h"}) == tmp_path / "s"
    assert state_dir({"XDG_STATE_HOME": "/x", "HOME": "/h"}) == Path("/x/cdpseq")
    assert state_dir({"HOME": "/h"}) == Path("/h/.local/state/cdpseq")
    assert state_dir({"CDPSEQ_STATE_DIR": "relative"}).is_absolute()


@pytest.mark.parametrize(("raw", "seconds"), [("", DEFAULT_IDLE_SECONDS), ("2.5", 2.5),
                                              (" 0 ", 0.0)])
def test_idle_timeout(raw: str, seconds: float) -> None:
    assert idle_timeout({"CDPSEQ_IDLE_TIMEOUT": raw}) == seconds


@pytest.mark.parametrize("raw", ["soon", "-1", "inf", "nan"])
def test_bad_idle_timeout_names_the_variable(raw: str) -> None:
    with pytest.raises(ValueError, match=r"\$CDPSEQ_IDLE_TIMEOUT .*" + repr(raw)):
        idle_timeout({"CDPSEQ_IDLE_TIMEOUT": raw})


def test_record_round_trip_and_removal_only_by_its_keeper(tmp_path: Path) -> None:
    record = ManagedRecord(keeper_pid=11, pid=12, port=3456, ws_url="ws://127.0.0.1:3456/x",
                           profile_dir="/tmp/cdpseq-a/profile", started_at=1.5, idle_timeout=9)
    write_record(tmp_path, record)
    assert b'"keeperPid":11' in (tmp_path / "browser.json").read_bytes()
    assert read_record(tmp_path) == record and record.endpoint == "http://127.0.0.1:3456"
    remove_record(tmp_path, keeper_pid=99)
    assert read_record(tmp_path) == record
    remove_record(tmp_path, keeper_pid=11)
    assert read_record(tmp_path) is None


@pytest.mark.parametrize("shape", ["elsewhere/profile", "cdpseq-x/other", "cdpseq-x/../profile"])
def test_only_a_launched_profile_is_ever_removed(tmp_path: Path, shape: str) -> None:
    victim = tmp_path / shape
    victim.mkdir(parents=True, exist_ok=True)
    _remove_profile(str(victim))
    assert victim.exists()
    launched = tmp_path / "cdpseq-y" / "profile"
    launched.mkdir(parents=True)
    _remove_profile(str(launched))
    assert not launched.parent.exists()
