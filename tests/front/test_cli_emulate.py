"""emulate across CLI processes: each process attaches anew and Emulation.* overrides end with
the session that set them, so the tab's emulation is noted in the browser and every process
puts it in force again."""

from __future__ import annotations

import json

from cdpseq import LaunchedChromium
from tests.front.test_cli_act import act, env, evaluate, open_tab, parse_result  # noqa: F401

__all__ = ["env", "open_tab"]


def test_a_device_set_by_one_process_is_in_force_in_the_next(
        env: dict[str, str], chromium: LaunchedChromium, open_tab: object,  # noqa: F811
        cli_mode: str) -> None:
    tab_id = open_tab("/touch.html")  # type: ignore[operator]
    first = act(env, chromium, json.dumps({"tabId": tab_id, "emulate": {"device": "iPhone 13"},
                                           "steps": [{"type": "reload"}]}))
    assert first.returncode == 0, first.stdout + first.stderr
    # In-process, no session holds it when the process ends: the tab is back at the browser's
    # own metrics. The daemon keeps its session, and with it the device, in force.
    width = evaluate(chromium, tab_id, "innerWidth")
    assert width == 390 if cli_mode == "daemon" else width != 390
    # The next process finds the device noted (or still in force) before its steps.
    second = act(env, chromium, json.dumps({"tabId": tab_id, "steps": [
        {"type": "wait_for", "text": "width 390, touch points 5", "timeoutMs": 3000},
        {"type": "tap", "selector": "#tap-me"}]}))
    assert second.returncode == 0, second.stdout + second.stderr
    assert parse_result(second.stdout)["ok"]
    reset = act(env, chromium, json.dumps({"tabId": tab_id, "emulate": {"reset": True},
                                           "steps": [{"type": "wait", "ms": 0}]}))
    assert reset.returncode == 0, reset.stdout + reset.stderr
    third = act(env, chromium, json.dumps({"tabId": tab_id, "steps": [
        {"type": "wait_for", "text": "width 390", "timeoutMs": 300}]}))
    assert not parse_result(third.stdout)["ok"]  # nothing noted any more
