"""Device emulation as data: the named devices, an ``emulate`` option resolved to the tab's
settings, and the CDP commands that put settings in force (pure: no I/O).

Settings are a plain dict (width, height, deviceScaleFactor, mobile, touch, userAgent; a missing
key is not emulated), so that they can be noted in the browser for other processes
(``page.tab_notes``) and applied again by each of them: Emulation.* overrides belong to the CDP
session that set them and end with it.
"""

from __future__ import annotations

from typing import Any

from ..cdp import emulation
from ..wire.protocol import Command
from .request import DeviceName, Emulate

_IOS_15 = ("Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15 "
           "(KHTML, like Gecko) Version/15.0 Mobile/15E148 Safari/604.1")
_IPAD = ("Mozilla/5.0 (iPad; CPU OS 15_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like "
         "Gecko) Version/15.0 Mobile/15E148 Safari/604.1")
_ANDROID = ("Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/120.0.0.0 Mobile Safari/537.36")

DEVICES: dict[DeviceName, dict[str, Any]] = {
    "iPhone 13": {"width": 390, "height": 664, "deviceScaleFactor": 3, "mobile": True,
                  "touch": True, "userAgent": _IOS_15},
    "Pixel 7": {"width": 412, "height": 839, "deviceScaleFactor": 2.625, "mobile": True,
                "touch": True, "userAgent": _ANDROID},
    "iPad Mini": {"width": 768, "height": 1024, "deviceScaleFactor": 2, "mobile": True,
                  "touch": True, "userAgent": _IPAD},
    "Desktop": {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False,
                "touch": False},
}
"""Named devices (viewport sizes are the browser's visible area, without its bars)."""

MAX_TOUCH_POINTS = 5


def resolve(option: Emulate) -> dict[str, Any] | None:
    """The settings an ``emulate`` option asks for (None: reset, no emulation)."""
    if option.reset:
        return None
    settings = dict(DEVICES[option.device]) if option.device is not None else {}
    given = {"width": option.width, "height": option.height,
             "deviceScaleFactor": option.device_scale_factor, "mobile": option.mobile,
             "touch": option.touch, "userAgent": option.user_agent}
    settings.update({name: value for name, value in given.items() if value is not None})
    return settings


def commands(settings: dict[str, Any] | None) -> list[Command[Any]]:
    """The commands that make a session's emulation exactly ``settings``: what is not in them
    is switched off (so a new option replaces the old one rather than adding to it)."""
    settings = settings or {}
    # Touch and the user agent first, the metrics last: a page that reads navigator on the
    # resize the metrics cause then sees the whole device.
    touch = bool(settings.get("touch"))
    sent: list[Command[Any]] = [emulation.SetTouchEmulationEnabled(
        enabled=touch, maxTouchPoints=MAX_TOUCH_POINTS if touch else None)]
    # An empty user agent ends the override.
    sent.append(emulation.SetUserAgentOverride(userAgent=str(settings.get("userAgent") or "")))
    metrics = [settings.get(k) for k in ("width", "height", "deviceScaleFactor", "mobile")]
    if any(value is not None for value in metrics):
        width, height = int(settings.get("width") or 0), int(settings.get("height") or 0)
        sent.append(emulation.SetDeviceMetricsOverride(
            width=width, height=height,
            deviceScaleFactor=float(settings.get("deviceScaleFactor") or 0),
            mobile=bool(settings.get("mobile")),
            screenWidth=width or None, screenHeight=height or None))
    else:
        sent.append(emulation.ClearDeviceMetricsOverride())
    return sent
