"""cdpseq: drive Chrome over the raw DevTools Protocol, in few round trips."""

from importlib.metadata import PackageNotFoundError, version

from . import cdp
from .browser import Browser, BrowserVersion, Tab, TabInfo, launch_browser, open_browser
from .connection import (
    ANY_SESSION,
    Connection,
    ConnectionStatistics,
    RawEvent,
    Subscription,
    open_connection,
)
from .errors import (
    BrowserUnreachable,
    CdpseqError,
    ConnectionClosed,
    InvalidEndpoint,
    LaunchError,
    PortInUse,
    ProtocolError,
    TargetClosed,
    TargetCrashed,
)
from .launch import LaunchedChromium, launch_chromium

try:
    __version__ = version("cdpseq")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

__all__ = [
    "ANY_SESSION",
    "Browser",
    "BrowserUnreachable",
    "BrowserVersion",
    "CdpseqError",
    "Connection",
    "ConnectionClosed",
    "ConnectionStatistics",
    "InvalidEndpoint",
    "LaunchError",
    "LaunchedChromium",
    "PortInUse",
    "ProtocolError",
    "RawEvent",
    "Subscription",
    "Tab",
    "TabInfo",
    "TargetClosed",
    "TargetCrashed",
    "cdp",
    "launch_browser",
    "launch_chromium",
    "open_browser",
    "open_connection",
]
