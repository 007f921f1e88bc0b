"""upload (issue 13): files reach an <input type=file> as a user's pick does — the input itself,
one visually hidden behind a styled label, a drop zone's hidden input — and the bytes reach the
server when the form is sent. Missing files are refused before anything runs."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from cdpseq import ActResult, Tab, act
from fixtures.server import FixtureServer
from tests.helpers import js, open_page, run


async def one(tab: Tab, step: dict[str, Any]) -> ActResult:
    return await act(tab, {"settle": False, "returnMode": "all", "steps": [step]})


def make(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


async def log(tab: Tab) -> list[str]:
    return list(await js(tab, "[...document.querySelectorAll('#log li')].map(l => l.textContent)"))


async def test_the_bytes_of_a_hidden_input_behind_a_styled_label_reach_the_server(
        tab: Tab, server: FixtureServer, tmp_path: Path) -> None:
    data = bytes(range(256)) * 300 + b"end"  # binary, 76 KB
    picture = make(tmp_path, "photo.txt", data)
    notes = [make(tmp_path, f"note{i}.txt", f"note {i}\n".encode()) for i in range(2)]
    await open_page(tab, server, "/upload.html")
    result = await run(
        tab, {"type": "upload", "selector": "#avatar-button", "files": [str(picture)]},
        {"type": "upload", "selector": "#attachments", "files": [str(p) for p in notes]},
        returnMode="all", settle=False)
    assert result.steps[0].output == {"files": [{"name": "photo.txt", "size": len(data),
                                                 "type": "text/plain"}]}
    assert [f["name"] for f in result.steps[1].output["files"]] == ["note0.txt", "note1.txt"]
    # The page saw a real pick: input, then change, with the files already there.
    assert await log(tab) == ["input avatar true photo.txt", "change avatar true photo.txt",
                              "input attachments true note0.txt,note1.txt",
                              "change attachments true note0.txt,note1.txt"]
    assert await js(tab, "document.getElementById('avatar-name').textContent") == "photo.txt"
    await run(tab, {"type": "click", "selector": "#send"},
              {"type": "wait_for", "text": "sha256"})
    received = json.loads(await js(tab, "document.body.innerText"))
    assert received["method"] == "POST"
    files = {(p["field"], p["name"]): p for p in received["parts"] if "name" in p}
    assert files[("avatar", "photo.txt")]["sha256"] == hashlib.sha256(data).hexdigest()
    assert files[("avatar", "photo.txt")]["size"] == len(data)
    for index, path in enumerate(notes):
        assert files[("attachments", f"note{index}.txt")]["sha256"] == hashlib.sha256(
            path.read_bytes()).hexdigest()
    assert {"field": "comment", "value": "hello"} in received["parts"]


async def test_a_drop_zone_means_the_one_file_input_inside_it(
        tab: Tab, server: FixtureServer, tmp_path: Path) -> None:
    path = make(tmp_path, "dropped.csv", b"a,b\n1,2\n")
    await open_page(tab, server, "/upload.html")
    assert (await one(tab, {"type": "upload", "selector": "#dropzone",
                            "files": [str(path)]})).ok
    assert await js(tab, "document.getElementById('dropped').files[0].name") == "dropped.csv"


async def test_a_button_that_opens_a_file_input_elsewhere_by_script(
        tab: Tab, server: FixtureServer, tmp_path: Path) -> None:
    path = make(tmp_path, "contacts.csv", b"name\nAda\n")
    await open_page(tab, server, "/upload.html")
    result = await one(tab, {"type": "upload", "selector": "#import", "files": [str(path)]})
    assert result.ok, result.failed
    assert result.steps[0].output == {"files": [{"name": "contacts.csv", "size": 9,
                                                 "type": "text/csv"}]}
    assert await js(tab, "document.getElementById('imported').textContent"
                    ) == "imported contacts.csv"
    assert (await log(tab))[-1] == "change csv true contacts.csv"
    # A button that opens nothing says so.
    refused = await one(tab, {"type": "upload", "selector": "h1", "files": [str(path)],
                              "timeoutMs": 1000})
    assert refused.failed is not None and refused.failed.code == "NOT_EDITABLE"
    assert "opened no file chooser" in refused.failed.error


async def test_several_files_need_multiple_and_a_disabled_input_is_refused(
        tab: Tab, server: FixtureServer, tmp_path: Path) -> None:
    paths = [str(make(tmp_path, f"f{i}.txt", b"x")) for i in range(2)]
    await open_page(tab, server, "/upload.html")
    refused = await one(tab, {"type": "upload", "selector": "#avatar", "files": paths})
    assert refused.failed is not None and refused.failed.code == "INVALID_VALUE"
    assert "multiple" in refused.failed.error
    assert await js(tab, "document.getElementById('avatar').files.length") == 0
    locked = await one(tab, {"type": "upload", "selector": "#locked", "files": paths[:1],
                             "timeoutMs": 300})
    assert locked.failed is not None and locked.failed.code == "NOT_ACTIONABLE"
    assert "disabled" in locked.failed.error
    # A text field opens no file chooser: refused as it is, neither clicked nor waited on.
    await js(tab, "document.activeElement.blur()")
    text = await one(tab, {"type": "upload", "selector": "#comment", "files": paths[:1]})
    assert text.failed is not None and text.failed.code == "NOT_EDITABLE"
    assert "#comment" in text.failed.error and "input#comment is the input type=text" \
        in text.failed.error and "form field opens no file chooser" in text.failed.error
    assert await js(tab, "document.activeElement === document.body") is True
    assert await js(tab, "document.getElementById('comment').value") == "hello"


async def test_a_missing_file_is_refused_before_anything_runs(
        tab: Tab, server: FixtureServer, tmp_path: Path) -> None:
    await open_page(tab, server, "/upload.html")
    present = make(tmp_path, "here.txt", b"x")
    result = await act(tab, [
        {"type": "fill", "selector": "#comment", "value": "changed"},
        {"type": "upload", "selector": "#avatar", "files": [str(present),
                                                           str(tmp_path / "gone.txt")]}])
    assert result.failed is not None and result.failed.code == "INVALID_REQUEST"
    assert result.failed.index == 1
    assert result.failed.error.startswith("steps[1].files[1]: ")
    assert "gone.txt" in result.failed.error and "no such file" in result.failed.error
    assert await js(tab, "document.getElementById('comment').value") == "hello"  # nothing ran
    directory = await act(tab, [{"type": "upload", "selector": "#avatar",
                                 "files": [str(tmp_path)]}])
    assert directory.failed is not None and "not a regular file" in directory.failed.error


async def test_fill_on_a_file_input_points_to_upload_and_clear_empties_it(
        tab: Tab, server: FixtureServer, tmp_path: Path) -> None:
    await open_page(tab, server, "/upload.html")
    filled = await one(tab, {"type": "fill", "selector": "#attachments", "value": "x"})
    assert filled.failed is not None and filled.failed.code == "NOT_EDITABLE"
    assert "upload" in filled.failed.error
    path = make(tmp_path, "a.txt", b"a")
    await run(tab, {"type": "upload", "selector": "#attachments", "files": [str(path)]},
              {"type": "clear", "selector": "#attachments"}, settle=False)
    assert await js(tab, "document.getElementById('attachments').files.length") == 0
    # Emptied as the picker's "cancel" does: input and change, with no files left.
    assert (await log(tab))[-2:] == ["input attachments false ", "change attachments false "]
