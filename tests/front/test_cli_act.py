"""read-page, act and schema on the command line, run as real processes against a real Chromium.

Every CLI call is a separate ``python -m cdpseq`` process, so these tests also check what only
processes can show: refs minted by one process are understood by the next, exit codes, what
reaches stdout and stderr, and that credentials never do.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import trio

import cdpseq
from cdpseq import LaunchedChromium
from cdpseq.cdp import runtime
from cdpseq.engine.request import STEP_TYPES
from cdpseq.engine.result import ActResult
from fixtures.server import FixtureServer

CLI = [sys.executable, "-m", "cdpseq"]
TIMEOUT = 60
SECRET = "s3cr3t-value"

# [ref_3] checkbox "Remember me" unchecked
_ELEMENT_LINE = re.compile(r'^\[(ref_\d+)\] (\S+) "((?:[^"\\]|\\.)*)"')


# -- helpers ------------------------------------------------------------------------------------


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The environment of every CLI process: no inherited secrets."""
    base = {k: v for k, v in os.environ.items()
            if not k.startswith("CDPSEQ_SECRET_") and k != "CDPSEQ_CDP"}
    return {**base, "PYTHONIOENCODING": "utf-8"}


def cli(env: dict[str, str], *args: str, stdin: str | None = None,
        extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``cdpseq ARGS``; ``stdin`` is fed to it (else it reads an empty /dev/null)."""
    return subprocess.run(
        [*CLI, *args], capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT,
        env={**env, **(extra_env or {})},
        **({"input": stdin} if stdin is not None else {"stdin": subprocess.DEVNULL}))


def act(env: dict[str, str], chromium: LaunchedChromium, steps: object, *args: str,
        extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``cdpseq act --steps -`` with ``steps`` (JSON-encoded unless already a string)."""
    payload = steps if isinstance(steps, str) else json.dumps(steps)
    return cli(env, "act", "--cdp", chromium.endpoint, *args, "--steps", "-", stdin=payload,
               extra_env=extra_env)


def parse_result(stdout: str) -> dict[str, Any]:
    """The printed act result: checked against the result type, returned as plain JSON."""
    msgspec.json.decode(stdout, type=ActResult)
    result: dict[str, Any] = json.loads(stdout)
    return result


def refs_of(text: str) -> dict[tuple[str, str], str]:
    """(role, name) -> ref, from a read-page text view."""
    found: dict[tuple[str, str], str] = {}
    for line in text.splitlines():
        m = _ELEMENT_LINE.match(line)
        if m:
            found[(m.group(2), m.group(3))] = m.group(1)
    return found


def read_page(env: dict[str, str], chromium: LaunchedChromium, tab_id: str,
              *args: str) -> str:
    result = cli(env, "read-page", "--cdp", chromium.endpoint, "--tab", tab_id, *args)
    assert result.returncode == 0, result.stderr
    return result.stdout


def evaluate(chromium: LaunchedChromium, tab_id: str, expression: str) -> Any:
    """The value of ``expression`` in the tab's page, through this process's own connection."""
    async def main() -> Any:
        async with cdpseq.open_browser(chromium.endpoint) as browser:
            tab = await browser.tab(tab_id)
            with trio.fail_after(15):
                reply = await tab.send(runtime.Evaluate(expression=expression,
                                                        returnByValue=True))
            return reply.result.value
    return trio.run(main)


def _new_tab(chromium: LaunchedChromium, url: str) -> str:
    async def main() -> str:
        async with cdpseq.open_browser(chromium.endpoint) as browser:
            tab = await browser.new_tab(url)
            loaded = (f'document.readyState === "complete" && location.href === '
                      f"{json.dumps(url)}")
            with trio.fail_after(15):
                while not (await tab.send(runtime.Evaluate(expression=loaded,
                                                           returnByValue=True))).result.value:
                    await trio.sleep(0.02)
            return tab.id
    return trio.run(main)


def _close_tabs(chromium: LaunchedChromium, tab_ids: list[str]) -> None:
    async def main() -> None:
        async with cdpseq.open_browser(chromium.endpoint) as browser:
            for tab_id in tab_ids:
                try:
                    with trio.fail_after(15):
                        await browser.close_tab(tab_id)
                except (cdpseq.CdpseqError, trio.TooSlowError):
                    pass  # already gone
    trio.run(main)


@pytest.fixture
def open_tab(chromium: LaunchedChromium, server: FixtureServer
             ) -> Iterator[Callable[[str], str]]:
    """Opens a tab at a fixture page (waiting until it has loaded) and returns its id; every
    tab opened is closed when the test ends."""
    opened: list[str] = []

    def opener(path: str) -> str:
        tab_id = _new_tab(chromium, server.url(path))
        opened.append(tab_id)
        return tab_id

    try:
        yield opener
    finally:
        if opened:
            _close_tabs(chromium, opened)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- read-page ----------------------------------------------------------------------------------


def test_read_page_text_json_and_filter_all(chromium: LaunchedChromium, server: FixtureServer,
                                            env: dict[str, str],
                                            open_tab: Callable[[str], str]) -> None:
    tab_id = open_tab("/login.html")
    url = server.url("/login.html")

    tabs = cli(env, "tabs", "--cdp", chromium.endpoint)
    assert tabs.returncode == 0, tabs.stderr
    assert {"id": tab_id, "url": url} in [{"id": t["id"], "url": t["url"]}
                                          for t in json.loads(tabs.stdout)]

    text = read_page(env, chromium, tab_id)
    lines = text.splitlines()
    assert lines[0].startswith("Page: ")
    assert lines[0] == f'Page: "Sign in · Acme Notes" {url}'
    refs = refs_of(text)
    assert set(refs) == {("textbox", "Email"), ("textbox", "Password"),
                         ("checkbox", "Remember me"), ("button", "Sign in")}
    assert any(re.fullmatch(r'\[ref_\d+\] textbox "Email" value="" \(email\)', line)
               for line in lines)
    assert not any(line.startswith("#") for line in lines)  # headings only with --filter all

    as_json = cli(env, "read-page", "--cdp", chromium.endpoint, "--tab", tab_id, "--json")
    assert as_json.returncode == 0, as_json.stderr
    view = json.loads(as_json.stdout)
    assert set(view) == {"tab", "elements", "text", "read"}  # read: its number, for deltas
    assert view["tab"] == {"id": tab_id, "url": url, "title": "Sign in · Acme Notes"}
    assert view["text"] == text.rstrip("\n")
    for element in view["elements"]:
        assert {"ref", "nodeId", "tag", "role", "name", "selector"} <= set(element)
        assert re.fullmatch(r"ref_[1-9]\d*", element["ref"])
        assert type(element["nodeId"]) is int and element["nodeId"] >= 1
        assert element["selector"]
    by_name = {e["name"]: e for e in view["elements"]}
    assert {(e["role"], e["name"]): e["ref"] for e in view["elements"]} == refs
    assert by_name["Email"]["tag"] == "input" and by_name["Email"]["inputType"] == "email"
    assert by_name["Sign in"]["tag"] == "button" and by_name["Sign in"]["role"] == "button"
    assert by_name["Remember me"]["checked"] is False
    assert len({e["nodeId"] for e in view["elements"]}) == len(view["elements"])

    everything = read_page(env, chromium, tab_id, "--filter", "all")
    assert "# Sign in to Acme Notes" in everything.splitlines()
    assert refs_of(everything) == refs


def test_node_id_from_read_page_is_a_target(chromium: LaunchedChromium, env: dict[str, str],
                                            open_tab: Callable[[str], str]) -> None:
    tab_id = open_tab("/login.html")
    view = json.loads(read_page(env, chromium, tab_id, "--json"))
    email = next(e for e in view["elements"] if e["name"] == "Email")
    run = act(env, chromium, [{"type": "fill", "target": email["nodeId"], "value": "n@id.org"}],
              "--tab", tab_id)
    assert run.returncode == 0, run.stdout + run.stderr
    assert evaluate(chromium, tab_id, 'document.getElementById("email").value') == "n@id.org"


# -- refs across processes ----------------------------------------------------------------------


def test_refs_stable_across_processes_then_sign_in(chromium: LaunchedChromium,
                                                   env: dict[str, str],
                                                   open_tab: Callable[[str], str]) -> None:
    tab_id = open_tab("/login.html")
    first = read_page(env, chromium, tab_id)
    second = read_page(env, chromium, tab_id)
    assert refs_of(first) == refs_of(second)
    assert first == second
    refs = refs_of(first)

    run = act(env, chromium, [
        {"type": "fill", "target": refs[("textbox", "Email")], "value": "ada@example.com"},
        {"type": "fill", "target": refs[("textbox", "Password")], "value": "hunter2"},
        {"type": "click", "target": refs[("button", "Sign in")]},
        {"type": "wait_for", "text": "Welcome back"},
    ], "--tab", tab_id)
    assert run.returncode == 0, run.stdout + run.stderr
    result = parse_result(run.stdout)
    assert result["ok"] is True and result["failed"] is None
    assert (result["completed"], result["total"]) == (4, 4)
    assert [s["status"] for s in result["steps"]] == ["ok"] * 4
    assert result["tab"]["id"] == tab_id
    assert result["tab"]["url"].endswith("/dashboard")

    after = read_page(env, chromium, tab_id, "--filter", "all")
    assert "Welcome back" in after
    assert "Signed in as ada@example.com" in after


# -- exit codes ---------------------------------------------------------------------------------


def test_failed_step_exits_1_and_still_prints_the_result(
        chromium: LaunchedChromium, env: dict[str, str],
        open_tab: Callable[[str], str]) -> None:
    tab_id = open_tab("/login.html")
    refs = refs_of(read_page(env, chromium, tab_id))
    run = act(env, chromium, [
        {"type": "fill", "target": refs[("textbox", "Email")], "value": "first@step.org"},
        {"type": "click", "target": "ref_999999"},
        {"type": "read_page"},
        {"type": "fill", "target": refs[("textbox", "Password")], "value": "never"},
    ], "--tab", tab_id)
    assert run.returncode == 1, run.stdout + run.stderr
    result = parse_result(run.stdout)
    assert result["ok"] is False
    assert (result["completed"], result["total"]) == (1, 4)
    failed = result["failed"]
    assert (failed["index"], failed["type"], failed["code"]) == (1, "click", "STALE_REF")
    assert "ref_999999" in failed["error"]
    assert [s["status"] for s in result["steps"]] == ["ok", "error", "not_started",
                                                      "not_started"]
    assert result["steps"][1]["error"]["code"] == "STALE_REF"
    assert "page" not in result  # the read_page after the failure never ran
    assert evaluate(chromium, tab_id, 'document.getElementById("password").value') == ""


def test_unknown_step_type_exits_2(chromium: LaunchedChromium, env: dict[str, str],
                                   open_tab: Callable[[str], str]) -> None:
    tab_id = open_tab("/login.html")
    run = act(env, chromium, [{"type": "clack", "target": "ref_1"}], "--tab", tab_id)
    assert run.returncode == 2, run.stdout + run.stderr
    result = parse_result(run.stdout)
    assert result["ok"] is False and result["steps"] == []
    assert result["failed"]["code"] == "INVALID_REQUEST"
    assert result["failed"]["index"] == 0
    assert "steps[0].type" in result["failed"]["error"]
    assert "'clack'" in result["failed"]["error"]


def test_invalid_step_anywhere_means_nothing_runs(chromium: LaunchedChromium,
                                                  env: dict[str, str],
                                                  open_tab: Callable[[str], str]) -> None:
    tab_id = open_tab("/login.html")
    refs = refs_of(read_page(env, chromium, tab_id))
    run = act(env, chromium, [
        {"type": "fill", "target": refs[("textbox", "Email")], "value": "must@not.run"},
        {"type": "navigate", "url": "example.com/no-scheme"},
    ], "--tab", tab_id)
    assert run.returncode == 2, run.stdout + run.stderr
    result = parse_result(run.stdout)
    assert result["failed"]["code"] == "INVALID_REQUEST"
    assert result["failed"]["index"] == 1
    assert "steps[1].url" in result["failed"]["error"]
    assert result["steps"] == []
    assert evaluate(chromium, tab_id, 'document.getElementById("email").value') == ""


@pytest.mark.parametrize("payload", ['[{"type": "read_page"', "not json at all", "42"])
def test_malformed_request_exits_2(chromium: LaunchedChromium, env: dict[str, str],
                                   payload: str) -> None:
    run = act(env, chromium, payload)
    assert run.returncode == 2, run.stdout + run.stderr
    result = parse_result(run.stdout)
    assert result["ok"] is False and result["steps"] == []
    assert result["failed"]["code"] == "INVALID_REQUEST"
    assert result["failed"]["error"].startswith("request: ")


def test_missing_steps_file_exits_2(chromium: LaunchedChromium, env: dict[str, str],
                                    tmp_path: Path) -> None:
    missing = tmp_path / "no-such-steps.json"
    run = cli(env, "act", "--cdp", chromium.endpoint, "--steps", str(missing))
    assert run.returncode == 2
    assert run.stdout == ""
    assert "--steps" in run.stderr and str(missing) in run.stderr
    assert "No such file" in run.stderr
    pool = cli(env, "pool", "--cdp", chromium.endpoint, "--requests", str(missing))
    assert pool.returncode == 2 and pool.stdout == ""
    assert f"cannot read --requests {missing}: No such file" in pool.stderr


def test_unreachable_browser_exits_3_with_one_line(env: dict[str, str]) -> None:
    port = free_port()
    run = cli(env, "act", "--cdp", f"127.0.0.1:{port}", "--steps", "-",
              stdin='[{"type": "read_page"}]')
    assert run.returncode == 3, run.stdout + run.stderr
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"127.0.0.1:{port}" in lines[0]


# -- requests from a file, return modes, text format --------------------------------------------


def test_steps_file_with_tab_id_and_return_modes(chromium: LaunchedChromium,
                                                 server: FixtureServer, env: dict[str, str],
                                                 open_tab: Callable[[str], str],
                                                 tmp_path: Path) -> None:
    login = open_tab("/login.html")
    controls = open_tab("/form-controls.html")

    # Default returnMode final: the last read_page is the result's page, no step has output.
    request = tmp_path / "login.json"
    request.write_text(json.dumps({"tabId": login, "steps": [
        {"type": "fill", "selector": "#email", "value": "file@request.org"},
        {"type": "read_page"},
    ]}))
    run = cli(env, "act", "--cdp", chromium.endpoint, "--steps", str(request))
    assert run.returncode == 0, run.stdout + run.stderr
    result = parse_result(run.stdout)
    assert result["ok"] is True
    assert result["tab"]["id"] == login
    assert all("output" not in step for step in result["steps"])
    page = result["page"]
    assert "tab" not in page  # the result names its tab once
    assert result["tab"] == {"id": login, "url": server.url("/login.html"),
                             "title": "Sign in · Acme Notes"}
    email = next(e for e in page["elements"] if e["name"] == "Email")
    assert email["value"] == "file@request.org"

    # --return-mode all overrides the file's returnMode: each read_page step carries output.
    request = tmp_path / "controls.json"
    request.write_text(json.dumps({"tabId": controls, "returnMode": "final", "steps": [
        {"type": "check", "selector": "#agree"},
        {"type": "read_page", "filter": "all"},
    ]}))
    run = cli(env, "act", "--cdp", chromium.endpoint, "--steps", str(request),
              "--return-mode", "all")
    assert run.returncode == 0, run.stdout + run.stderr
    result = parse_result(run.stdout)
    assert result["ok"] is True
    assert result["tab"]["id"] == controls
    output = result["steps"][1]["output"]
    assert "tab" not in output
    assert isinstance(output["elements"], list) and output["elements"]
    agree = next(e for e in output["elements"] if e["name"] == "I agree to the terms")
    assert agree["checked"] is True
    assert "# Order form" in output["text"].splitlines()
    assert result["page"] == output


def test_format_text(chromium: LaunchedChromium, env: dict[str, str],
                     open_tab: Callable[[str], str]) -> None:
    tab_id = open_tab("/login.html")
    run = act(env, chromium, [{"type": "fill", "selector": "#email", "value": "t@x.org"},
                              {"type": "read_page"}], "--tab", tab_id, "--format", "text")
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert re.fullmatch(r"2/2 ok · stable after \d+ ms · /login\.html", lines[0]), lines[0]
    assert lines[1] == '~ [ref_1] textbox "Email" value "" → "t@x.org"'
    assert lines[2].startswith("Page: ")
    assert any(re.fullmatch(r'\[ref_\d+\] textbox "Email" value="t@x\.org" \(email\)( focused)?',
                            line)
               for line in lines)

    run = act(env, chromium, [{"type": "click", "target": "ref_999999"}], "--tab", tab_id,
              "--format", "text")
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert re.fullmatch(r"0/1 ok · stable after \d+ ms · /login\.html", lines[0]), lines[0]
    assert lines[1].startswith("✗ step 0 click: STALE_REF: ")


def test_max_chars_cuts_the_text_and_says_so(chromium: LaunchedChromium, env: dict[str, str],
                                              open_tab: Callable[[str], str]) -> None:
    tab_id = open_tab("/big-todos.html?n=60")
    whole = read_page(env, chromium, tab_id, "--filter", "all").rstrip("\n")
    cut = read_page(env, chromium, tab_id, "--filter", "all", "--max-chars", "700")
    lines = cut.rstrip("\n").splitlines()
    assert len("\n".join(lines)) <= 700 < len(whole)
    assert lines[0] == whole.splitlines()[0]
    assert lines[-1].endswith(f"of {len(whole):,} chars (maxChars 700)")
    assert all(line in whole.splitlines() for line in lines if not line.startswith("… "))

    run = act(env, chromium, [{"type": "fill", "selector": ".new-todo", "value": "Buy milk"},
                              {"type": "read_page", "filter": "all"}], "--tab", tab_id,
              "--format", "text", "--max-chars", "500")
    assert run.returncode == 0, run.stdout + run.stderr
    text = run.stdout.rstrip("\n")
    assert len(text) <= 500 and "(maxChars 500)" in text.splitlines()[-1]
    changed = re.search(r'^~ \[(ref_\d+)\] textbox .* value "" → "Buy milk"$', text, re.M)
    assert changed is not None, text
    assert re.search(rf'^\[{changed.group(1)}\] textbox', text, re.M), text  # kept: named

    for bad, reason in ((["--max-chars", "10"], "--max-chars must be in 200-"),
                        (["--max-chars", "800", "--format", "json"], "JSON form is whole")):
        refused = act(env, chromium, [{"type": "read_page"}], "--tab", tab_id, *bad)
        assert refused.returncode == 2 and reason in refused.stderr, refused.stderr
    refused = cli(env, "read-page", "--cdp", chromium.endpoint, "--tab", tab_id, "--json",
                  "--max-chars", "800")
    assert refused.returncode == 2 and "--max-chars" in refused.stderr


# -- credentials --------------------------------------------------------------------------------


def test_credentials_never_reach_the_output(chromium: LaunchedChromium, env: dict[str, str],
                                            open_tab: Callable[[str], str]) -> None:
    tab_id = open_tab("/login.html")
    refs = refs_of(read_page(env, chromium, tab_id))
    user = "ada-s3cr3t-user@example.com"
    secrets = {"CDPSEQ_SECRET_PW": SECRET, "CDPSEQ_SECRET_USER": user}
    steps = [
        {"type": "fill", "target": refs[("textbox", "Password")], "credentialRef": "pw"},
        # Not a password field: only the result scrubber stands between the value and stdout.
        {"type": "fill", "target": refs[("textbox", "Email")], "credentialRef": "user"},
        {"type": "read_page", "filter": "all"},
    ]
    for form in ("json", "text"):
        run = act(env, chromium, steps, "--tab", tab_id, "--return-mode", "all",
                  "--format", form, extra_env=secrets)
        assert run.returncode == 0, run.stdout + run.stderr
        for secret in (SECRET, user):
            assert secret not in run.stdout
            assert secret not in run.stderr
        if form == "json":
            result = parse_result(run.stdout)
            assert result["ok"] is True
            assert [s["status"] for s in result["steps"]] == ["ok", "ok", "ok"]
            elements = {e["name"]: e for e in result["steps"][2]["output"]["elements"]}
            assert elements["Password"]["value"]  # filled, shown masked
            assert elements["Email"]["value"]
        else:
            assert re.fullmatch(r"3/3 ok · stable after \d+ ms · /login\.html",
                                run.stdout.splitlines()[0])
    filled = evaluate(chromium, tab_id, '[document.getElementById("password").value, '
                                        'document.getElementById("email").value]')
    assert filled == [SECRET, user]


def test_missing_credential_exits_2_without_secrets(chromium: LaunchedChromium,
                                                    env: dict[str, str],
                                                    open_tab: Callable[[str], str]) -> None:
    tab_id = open_tab("/login.html")
    refs = refs_of(read_page(env, chromium, tab_id))
    run = act(env, chromium, [
        {"type": "fill", "target": refs[("textbox", "Password")], "credentialRef": "missing"},
        {"type": "fill", "target": refs[("textbox", "Email")], "credentialRef": "pw"},
    ], "--tab", tab_id, extra_env={"CDPSEQ_SECRET_PW": SECRET})
    assert run.returncode == 2, run.stdout + run.stderr
    assert SECRET not in run.stdout and SECRET not in run.stderr
    result = parse_result(run.stdout)
    assert result["ok"] is False
    assert [s["status"] for s in result["steps"]] == ["not_started"] * 2  # nothing ran
    assert result["failed"]["code"] == "INVALID_REQUEST"
    assert result["failed"]["index"] == 0
    assert "steps[0].credentialRef" in result["failed"]["error"]
    assert "CDPSEQ_SECRET_MISSING" in result["failed"]["error"]
    # validated before anything ran: the second fill did not happen either
    assert evaluate(chromium, tab_id, 'document.getElementById("email").value') == ""


# -- schema and help ----------------------------------------------------------------------------


def test_schema_prints_the_request_schema(env: dict[str, str]) -> None:
    run = cli(env, "schema")
    assert run.returncode == 0, run.stderr
    schema = json.loads(run.stdout)
    assert schema["type"] == "object"
    assert "steps" in schema["required"]
    steps = schema["properties"]["steps"]
    assert steps["type"] == "array"
    assert set(steps["items"]["discriminator"]["mapping"]) == set(STEP_TYPES)
    assert {"tabId", "returnMode", "failFast"} <= set(schema["properties"])
    fill = schema["$defs"]["Fill"]["properties"]
    assert "credentialRef" in fill and "value" in fill


def test_schema_result(env: dict[str, str]) -> None:
    run = cli(env, "schema", "--result")
    assert run.returncode == 0, run.stderr
    schema = json.loads(run.stdout)
    assert schema["type"] == "object"
    assert {"ok", "completed", "total", "failed", "steps", "tab"} <= set(schema["required"])
    assert "page" in schema["properties"]
    assert schema["properties"]["steps"]["type"] == "array"
    assert schema["properties"]["ok"]["type"] == "boolean"
    assert schema != json.loads(cli(env, "schema").stdout)


@pytest.mark.parametrize("command", ["read-page", "act", "schema"])
def test_help(env: dict[str, str], command: str) -> None:
    run = cli(env, command, "--help")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"usage: cdpseq {command}")


# -- stale refs after navigation, across processes ----------------------------------------------


def test_ref_from_before_navigation_is_stale(chromium: LaunchedChromium, server: FixtureServer,
                                             env: dict[str, str],
                                             open_tab: Callable[[str], str]) -> None:
    tab_id = open_tab("/login.html")
    old = refs_of(read_page(env, chromium, tab_id))
    sign_in = old[("button", "Sign in")]

    navigated = act(env, chromium, [{"type": "navigate", "url": server.url("/index.html")}],
                    "--tab", tab_id)
    assert navigated.returncode == 0, navigated.stdout + navigated.stderr
    assert parse_result(navigated.stdout)["tab"]["url"] == server.url("/index.html")

    run = act(env, chromium, [{"type": "click", "target": sign_in}], "--tab", tab_id)
    assert run.returncode == 1, run.stdout + run.stderr
    result = parse_result(run.stdout)
    assert result["failed"]["code"] == "STALE_REF"
    assert result["failed"]["index"] == 0
    assert sign_in in result["failed"]["error"]
    assert "read the page again" in result["failed"]["error"]
    assert result["tab"]["url"] == server.url("/index.html")

    # The new document's refs never reuse a number of the old one.
    new = refs_of(read_page(env, chromium, tab_id))
    assert new and not set(new.values()) & set(old.values())


def test_refs_agree_across_processes_with_different_homes(
        chromium: LaunchedChromium, server: FixtureServer, env: dict[str, str],
        open_tab: Callable[[str], str], tmp_path: Path) -> None:
    """The floor lives in the browser: processes with nothing local in common (an MCP server
    started by a desktop client has another HOME than the user's shell) still never reuse a
    number, and write nothing of their own."""
    homes = {name: tmp_path / name for name in ("a", "b")}
    envs = {}
    for name, home in homes.items():
        home.mkdir()
        envs[name] = {**env, "HOME": str(home), "XDG_STATE_HOME": str(home / "state"),
                      "CDPSEQ_STATE_DIR": str(home / "cdpseq")}
    tab_id = open_tab("/login.html")
    old = refs_of(read_page(envs["a"], chromium, tab_id))
    sign_in = old[("button", "Sign in")]
    # The page moves on by itself; process B is the first to read the new document.
    evaluate(chromium, tab_id, f"location.href = {json.dumps(server.url('/removal.html'))}")
    new: dict[tuple[str, str], str] = {}
    for _ in range(50):
        new = refs_of(read_page(envs["b"], chromium, tab_id))
        if ("button", "Beta") in new:
            break
    assert ("button", "Beta") in new
    assert not set(new.values()) & set(old.values())
    status = evaluate(chromium, tab_id, "document.querySelector('#status').textContent")

    run = act(envs["a"], chromium, [{"type": "click", "target": sign_in}], "--tab", tab_id)
    assert run.returncode == 1, run.stdout + run.stderr
    assert parse_result(run.stdout)["failed"]["code"] == "STALE_REF"
    assert evaluate(chromium, tab_id, "document.querySelector('#status').textContent") == status
    assert [p for home in homes.values() for p in home.rglob("*")] == []


def test_a_dialog_left_open_by_one_process_is_reported_and_handled_by_the_next(
        chromium: LaunchedChromium, env: dict[str, str],
        open_tab: Callable[[str], str]) -> None:
    """A process that leaves a dialog open takes Chromium's only way to handle it away when it
    exits; the next process neither hangs nor guesses: it says which dialog (the browser was
    told) and dismisses it when its policy allows."""
    tab_id = open_tab("/dialogs.html")
    left = act(env, chromium, {"steps": [{"type": "click", "selector": "#delete"}],
                               "dialog": "leave"}, "--tab", tab_id)
    assert left.returncode == 0, left.stdout + left.stderr
    assert parse_result(left.stdout)["dialog"]["handled"] == "left open"

    read = cli(env, "read-page", "--cdp", chromium.endpoint, "--tab", tab_id)
    assert read.returncode == 1
    assert "DIALOG_OPEN" in read.stderr and "Delete this project?" in read.stderr
    assert "Traceback" not in read.stderr

    handled = act(env, chromium, [{"type": "read_page", "filter": "all"}], "--tab", tab_id)
    assert handled.returncode == 0, handled.stdout + handled.stderr
    result = parse_result(handled.stdout)
    assert result["dialog"] == {"type": "confirm", "message": "Delete this project?",
                                "handled": "dismissed", "when": "before"}
    assert "Kept" in result["page"]["text"]
