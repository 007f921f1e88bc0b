"""cdpseq: drive Chrome over the raw DevTools Protocol, in few round trips.

The layers, each importing only those below it (``docs/ARCHITECTURE.md``):

- ``cdpseq.front``: the command line and the MCP server;
- ``cdpseq.engine``: act — the request and result, validation, steps, settling, the delta;
- ``cdpseq.page``: the in-page agent, refs, and the read view;
- ``cdpseq.browser``: ``Browser`` and ``Tab``, CDP sessions;
- ``cdpseq.cdp``: the typed protocol bindings (generated);
- ``cdpseq.wire``: the router, the connection, endpoints, launching Chromium;
- ``cdpseq.errors``: every public error.

Everything a user needs is exported here.
"""

from . import cdp
from .browser import (
    Browser,
    BrowserStatistics,
    BrowserVersion,
    Tab,
    TabInfo,
    launch_browser,
    open_browser,
)
from .engine.multi import MultiActRequest, MultiActResult, act_many
from .engine.reading import read_page
from .engine.reports import ChangedElement, DialogReport, Replacement, StateChange, Transition
from .engine.request import (
    ActRequest,
    Back,
    Check,
    Clear,
    Click,
    Condition,
    Drag,
    Emulate,
    Evaluate,
    Extract,
    Fill,
    Forward,
    Hover,
    Navigate,
    Press,
    ReadPage,
    Reload,
    Screenshot,
    Scroll,
    Select,
    Step,
    Swipe,
    Tap,
    TypeText,
    Uncheck,
    Upload,
    Wait,
    WaitFor,
    request_schema,
)
from .engine.result import ActResult, ErrorCode, StepFailure, StepResult, TabState, result_schema
from .engine.runner import act
from .engine.validate import parse_request
from .errors import (
    BrowserUnreachable,
    CdpseqError,
    ConnectionClosed,
    DialogOpen,
    InvalidEndpoint,
    InvalidRequest,
    LaunchError,
    PageUnresponsive,
    PortInUse,
    ProtocolError,
    TargetClosed,
    TargetCrashed,
    UrlBlocked,
)
from .front.pool import Pool, open_pool
from .page.view import PageElement, PageView
from .wire.connection import (
    ANY_SESSION,
    Connection,
    ConnectionStatistics,
    RawEvent,
    Subscription,
    open_connection,
)
from .wire.launch import LaunchedChromium, launch_chromium
from .wire.url_policy import UrlPolicy


def __getattr__(name: str) -> str:
    # ``__version__``, read from the installed metadata when first asked: importlib.metadata
    # takes ~40 ms to import, which every CLI call would pay for nothing.
    if name != "__version__":
        raise AttributeError(f"module 'cdpseq' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("cdpseq")
    except PackageNotFoundError:  # running from a source tree that is not installed
        found = "0.0.0"
    globals()["__version__"] = found
    return found

__all__ = [
    "ANY_SESSION",
    "ActRequest",
    "ActResult",
    "Back",
    "Browser",
    "BrowserStatistics",
    "BrowserUnreachable",
    "BrowserVersion",
    "CdpseqError",
    "Check",
    "Clear",
    "Click",
    "Condition",
    "Connection",
    "ConnectionClosed",
    "ChangedElement",
    "ConnectionStatistics",
    "DialogOpen",
    "DialogReport",
    "ErrorCode",
    "Drag",
    "Emulate",
    "Evaluate",
    "Fill",
    "Forward",
    "Hover",
    "InvalidEndpoint",
    "InvalidRequest",
    "LaunchError",
    "LaunchedChromium",
    "MultiActRequest",
    "MultiActResult",
    "Navigate",
    "PageElement",
    "PageUnresponsive",
    "PageView",
    "Pool",
    "PortInUse",
    "Press",
    "ProtocolError",
    "RawEvent",
    "Replacement",
    "ReadPage",
    "Reload",
    "Scroll",
    "Select",
    "Step",
    "StateChange",
    "StepFailure",
    "StepResult",
    "Subscription",
    "Tab",
    "TabInfo",
    "TabState",
    "TargetClosed",
    "TargetCrashed",
    "Transition",
    "TypeText",
    "Uncheck",
    "Extract",
    "Screenshot",
    "Swipe",
    "Tap",
    "Upload",
    "UrlBlocked",
    "UrlPolicy",
    "Wait",
    "WaitFor",
    "act",
    "act_many",
    "cdp",
    "launch_browser",
    "launch_chromium",
    "open_browser",
    "open_connection",
    "open_pool",
    "parse_request",
    "read_page",
    "request_schema",
    "result_schema",
]
