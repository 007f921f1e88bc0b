"""cdpseq: drive Chrome over the raw DevTools Protocol, in few round trips.

This namespace is what a user of ``act`` needs: opening or launching a browser (``open_browser``,
``launch_browser``, ``launch_chromium``, ``open_pool``), its ``Browser`` and ``Tab``, ``act``,
``act_many`` and ``read_page``, the request and result Structs, and every error. The connection
and the generated protocol bindings a ``Tab`` speaks are re-exported in ``cdpseq.lowlevel``.

The modules, the layers each importing only those below it (``docs/ARCHITECTURE.md``):

- ``front``: the command line, the MCP server and the browser pool.
- ``engine``: act — the request and result, validation, steps, settling, the delta.
- ``page``: the in-page agent, refs, and the read view.
- ``browser``: ``Browser`` and ``Tab``, CDP sessions.
- ``cdp``: the typed protocol bindings (generated).
- ``wire``: the router, the connection, endpoints, launching Chromium.
- ``errors``: every public error.
- ``lowlevel``: re-exports of the connection and protocol layer, for callers below ``act``.
- ``__main__``: ``python -m cdpseq``, the command line.
"""

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
    ServiceRejected,
    TargetClosed,
    TargetCrashed,
    UrlBlocked,
)
from .front.pool import Pool, open_pool
from .page.view import PageElement, PageView
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
    "ActRequest",
    "ActResult",
    "Back",
    "Browser",
    "BrowserStatistics",
    "BrowserUnreachable",
    "BrowserVersion",
    "CdpseqError",
    "ChangedElement",
    "Check",
    "Clear",
    "Click",
    "Condition",
    "ConnectionClosed",
    "DialogOpen",
    "DialogReport",
    "Drag",
    "Emulate",
    "ErrorCode",
    "Evaluate",
    "Extract",
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
    "ReadPage",
    "Reload",
    "Replacement",
    "Screenshot",
    "Scroll",
    "Select",
    "ServiceRejected",
    "StateChange",
    "Step",
    "StepFailure",
    "StepResult",
    "Swipe",
    "Tab",
    "TabInfo",
    "TabState",
    "Tap",
    "TargetClosed",
    "TargetCrashed",
    "Transition",
    "TypeText",
    "Uncheck",
    "Upload",
    "UrlBlocked",
    "UrlPolicy",
    "Wait",
    "WaitFor",
    "act",
    "act_many",
    "launch_browser",
    "launch_chromium",
    "open_browser",
    "open_pool",
    "parse_request",
    "read_page",
    "request_schema",
    "result_schema",
]
