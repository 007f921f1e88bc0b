"""tap, swipe, drag and emulate without a browser: validation with exact field paths, the
finger's and the mouse's paths, and device settings turned into CDP commands."""

from __future__ import annotations

from typing import Any

import pytest

from cdpseq.cdp import emulation
from cdpseq.engine.devices import DEVICES, commands, resolve
from cdpseq.engine.request import Drag, Emulate, Swipe, Tap
from cdpseq.engine.steps.drag import drag_path
from cdpseq.engine.steps.touch import SWIPE_MOVES, swipe_events, tap_events
from cdpseq.engine.validate import parse_request
from cdpseq.errors import InvalidRequest


def invalid(request: Any) -> tuple[str, str]:
    with pytest.raises(InvalidRequest) as caught:
        parse_request(request)
    return caught.value.field, caught.value.reason


def test_gesture_steps_parse() -> None:
    parsed = parse_request([
        {"type": "tap", "target": "ref_3"},
        {"type": "swipe", "direction": "left", "pixels": 120, "selector": "#carousel"},
        {"type": "swipe", "direction": "up"},
        {"type": "drag", "selector": "#a", "toTarget": "ref_9"},
        {"type": "drag", "target": 12, "dx": -40},
    ])
    tap, swipe, page_swipe, drag, by = parsed.steps
    assert isinstance(tap, Tap) and tap.target == "ref_3"
    assert isinstance(swipe, Swipe) and (swipe.direction, swipe.pixels) == ("left", 120)
    assert isinstance(page_swipe, Swipe) and page_swipe.pixels == 300
    assert isinstance(drag, Drag) and drag.to_target == "ref_9"
    assert isinstance(by, Drag) and (by.dx, by.dy) == (-40, None)


@pytest.mark.parametrize(("step", "field", "reason"), [
    ({"type": "tap"}, "steps[0].target", "required: give target or selector"),
    ({"type": "tap", "target": "ref_1", "selector": "b"}, "steps[0].selector", "not both"),
    ({"type": "swipe"}, "steps[0].direction", "required field missing"),
    ({"type": "swipe", "direction": "sideways"}, "steps[0].direction", "expected one of up"),
    ({"type": "swipe", "direction": "up", "pixels": 0}, "steps[0].pixels", ">= 1"),
    ({"type": "drag", "selector": "#a"}, "steps[0].toTarget", "give toTarget, toSelector or"),
    ({"type": "drag", "toSelector": "#b"}, "steps[0].target", "required"),
    ({"type": "drag", "selector": "#a", "toSelector": "#b", "dx": 5}, "steps[0].dx",
     "not both"),
    ({"type": "drag", "selector": "#a", "toTarget": "ref_2", "toSelector": "#b"},
     "steps[0].toSelector", "not both"),
    ({"type": "drag", "selector": "#a", "dx": 0, "dy": 0}, "steps[0].dx", "moves nothing"),
    ({"type": "drag", "selector": "#a", "toTarget": "x"}, "steps[0].toTarget",
     'expected "ref_N"'),
    ({"type": "drag", "selector": "#a", "dy": 1.5}, "steps[0].dy", "expected int"),
])
def test_bad_gesture_steps_name_the_field(step: dict[str, Any], field: str, reason: str) -> None:
    got_field, got_reason = invalid([step])
    assert got_field == field and reason in got_reason, (got_field, got_reason)


@pytest.mark.parametrize(("emulate", "field", "reason"), [
    ({}, "emulate", "give a device"),
    ({"width": 300}, "emulate.height", "together"),
    ({"reset": True, "touch": True}, "emulate.touch", "alone"),
    ({"device": "Nokia 3310"}, "emulate.device", "expected one of iPhone 13"),
    ({"width": 0, "height": 10}, "emulate.width", ">= 1"),
    ({"deviceScaleFactor": 0}, "emulate.deviceScaleFactor", "> 0"),
    ({"touch": "yes"}, "emulate.touch", "expected bool"),
    ({"userAgent": "\ud800"}, "emulate.userAgent", "lone surrogate"),
    ({"dpi": 3}, "emulate.dpi", "unknown field"),
])
def test_bad_emulation_names_the_field(emulate: dict[str, Any], field: str, reason: str) -> None:
    got_field, got_reason = invalid({"steps": [{"type": "wait", "ms": 0}], "emulate": emulate})
    assert got_field == field and reason in got_reason, (got_field, got_reason)


def test_a_device_is_the_defaults_and_fields_override_it() -> None:
    settings = resolve(Emulate(device="Pixel 7", width=400, user_agent="Test/1"))
    assert settings == {**DEVICES["Pixel 7"], "width": 400, "userAgent": "Test/1"}
    assert resolve(Emulate(reset=True)) is None
    assert resolve(Emulate(touch=True)) == {"touch": True}


def test_settings_become_commands_that_switch_off_what_they_do_not_name() -> None:
    touch, agent, metrics = commands(resolve(Emulate(device="iPhone 13")))
    assert isinstance(metrics, emulation.SetDeviceMetricsOverride)
    assert (metrics.width, metrics.height, metrics.deviceScaleFactor, metrics.mobile) == (
        390, 664, 3.0, True)
    assert touch == emulation.SetTouchEmulationEnabled(enabled=True, maxTouchPoints=5)
    assert isinstance(agent, emulation.SetUserAgentOverride) and "iPhone" in agent.userAgent
    cleared = commands({"touch": True})
    assert isinstance(cleared[2], emulation.ClearDeviceMetricsOverride)
    assert cleared[1] == emulation.SetUserAgentOverride(userAgent="")
    assert commands(None)[0] == emulation.SetTouchEmulationEnabled(enabled=False)


def test_the_metrics_come_last_so_a_resize_sees_the_whole_device() -> None:
    # A page that reads navigator.maxTouchPoints on the resize the metrics cause must see the
    # touch screen already.
    kinds = [type(command) for command in commands(resolve(Emulate(device="Pixel 7")))]
    assert kinds[-1] is emulation.SetDeviceMetricsOverride
    assert kinds.index(emulation.SetTouchEmulationEnabled) < kinds.index(
        emulation.SetDeviceMetricsOverride)


def test_a_tap_is_a_finger_down_and_up_at_one_point() -> None:
    down, up = tap_events(10, 20)
    assert (down.type, [(p.x, p.y) for p in down.touchPoints]) == ("touchStart", [(10, 20)])
    assert (up.type, up.touchPoints) == ("touchEnd", [])


def test_a_swipe_moves_evenly_then_holds_still_before_lifting() -> None:
    events = swipe_events((100, 400), (100, 100), now=1000.0)
    kinds = [e.type for e in events]
    assert kinds == ["touchStart", *["touchMove"] * (SWIPE_MOVES + 1), "touchEnd"]
    ys = [e.touchPoints[0].y for e in events[:-1]]
    assert ys[0] == 400 and ys[-1] == ys[-2] == 100  # the last move is the hold
    steps = {round(a - b, 6) for a, b in zip(ys, ys[1:-1], strict=False)}
    assert steps == {30.0}
    times = [e.timestamp for e in events if e.timestamp is not None]
    assert times == sorted(times) and times[-2] - times[-3] >= 0.1  # no fling: it stopped


def test_a_drag_path_goes_evenly_to_the_drop_point() -> None:
    path = drag_path((0, 0), (100, -50), moves=4)
    assert path == [(25, -12.5), (50, -25), (75, -37.5), (100, -50)]
