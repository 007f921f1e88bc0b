"""cdpseq: drive Chrome over the raw DevTools Protocol, in few round trips.

This namespace is what a user of ``act`` needs: opening or launching a browser (``open_browser``,
``launch_browser``, ``launch_chromium``, ``open_pool``), its ``Browser`` and ``Tab``, ``act``,
``act_many`` and ``read_page``, the request and result Structs, saving and loading a login
(``save_state``, ``load_state``), and every error. The connection
and the generated protocol bindings a ``Tab`` speaks are re-exported in ``cdpseq.lowlevel``.

The modules, the layers each importing only those below it (``docs/ARCHITECTURE.md``):

- ``front``: the command line, the MCP server and the browser pool.
- ``engine``: act — the request and result, validation, steps, settling, the delta.
- ``page``: the in-page agent, refs, and the read view.
- ``browser``: ``Browser`` and ``Tab``, CDP sessions.
- ``cdp``: the typed protocol bindings (generated).
- ``wire``: the router, the connection, endpoints, launching Chromium.
- ``errors``: every public error.
- ``escaping``: the one rule for control characters in what cdpseq shows.
- ``lowlevel``: re-exports of the connection and protocol layer, for callers below ``act``.
- ``__main__``: ``python -m cdpseq``, the command line.
"""

# The names below are imported when first used (PEP 562): `import cdpseq` — which every
# ``cdpseq.x`` import runs first — costs nothing, so the ``cdpseq`` command's thin client
# (``front/client``) starts in tens of milliseconds. Type checkers see the imports.
TYPE_CHECKING = False  # not typing's: importing typing costs every call ~10 ms
if TYPE_CHECKING:
    from typing import Any

    from .browser import (
        Browser,
        BrowserStatistics,
        BrowserVersion,
        Tab,
        TabInfo,
        launch_browser,
        open_browser,
    )
    from .browser.state_file import StorageState
    from .browser.storage_state import StateSummary, load_state, save_state
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
        Logs,
        Navigate,
        Pdf,
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
    from .engine.result import (
        ActResult,
        ErrorCode,
        StepFailure,
        StepResult,
        TabState,
        result_schema,
    )
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
        ProfileInUse,
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
del TYPE_CHECKING

_EXPORTS = {
    "ActRequest": ".engine.request",
    "ActResult": ".engine.result",
    "Back": ".engine.request",
    "Browser": ".browser",
    "BrowserStatistics": ".browser",
    "BrowserUnreachable": ".errors",
    "BrowserVersion": ".browser",
    "CdpseqError": ".errors",
    "ChangedElement": ".engine.reports",
    "Check": ".engine.request",
    "Clear": ".engine.request",
    "Click": ".engine.request",
    "Condition": ".engine.request",
    "ConnectionClosed": ".errors",
    "DialogOpen": ".errors",
    "DialogReport": ".engine.reports",
    "Drag": ".engine.request",
    "Emulate": ".engine.request",
    "ErrorCode": ".engine.result",
    "Evaluate": ".engine.request",
    "Extract": ".engine.request",
    "Fill": ".engine.request",
    "Forward": ".engine.request",
    "Hover": ".engine.request",
    "InvalidEndpoint": ".errors",
    "InvalidRequest": ".errors",
    "LaunchError": ".errors",
    "LaunchedChromium": ".wire.launch",
    "Logs": ".engine.request",
    "MultiActRequest": ".engine.multi",
    "MultiActResult": ".engine.multi",
    "Navigate": ".engine.request",
    "PageElement": ".page.view",
    "PageUnresponsive": ".errors",
    "PageView": ".page.view",
    "Pdf": ".engine.request",
    "Pool": ".front.pool",
    "PortInUse": ".errors",
    "Press": ".engine.request",
    "ProfileInUse": ".errors",
    "ProtocolError": ".errors",
    "ReadPage": ".engine.request",
    "Reload": ".engine.request",
    "Replacement": ".engine.reports",
    "Screenshot": ".engine.request",
    "Scroll": ".engine.request",
    "Select": ".engine.request",
    "ServiceRejected": ".errors",
    "StateChange": ".engine.reports",
    "StateSummary": ".browser.storage_state",
    "Step": ".engine.request",
    "StepFailure": ".engine.result",
    "StepResult": ".engine.result",
    "StorageState": ".browser.state_file",
    "Swipe": ".engine.request",
    "Tab": ".browser",
    "TabInfo": ".browser",
    "TabState": ".engine.result",
    "Tap": ".engine.request",
    "TargetClosed": ".errors",
    "TargetCrashed": ".errors",
    "Transition": ".engine.reports",
    "TypeText": ".engine.request",
    "Uncheck": ".engine.request",
    "Upload": ".engine.request",
    "UrlBlocked": ".errors",
    "UrlPolicy": ".wire.url_policy",
    "Wait": ".engine.request",
    "WaitFor": ".engine.request",
    "act": ".engine.runner",
    "act_many": ".engine.multi",
    "launch_browser": ".browser",
    "launch_chromium": ".wire.launch",
    "load_state": ".browser.storage_state",
    "open_browser": ".browser",
    "open_pool": ".front.pool",
    "parse_request": ".engine.validate",
    "read_page": ".engine.reading",
    "request_schema": ".engine.request",
    "result_schema": ".engine.result",
    "save_state": ".browser.storage_state",
}
"""Each exported name and the module that defines it."""


def __getattr__(name: str) -> "Any":
    module = _EXPORTS.get(name)
    if module is not None:
        # importlib here, not at the top: with the ``warnings`` it imports, ~2 ms of every
        # thin-client call, which never asks for a name.
        from importlib import import_module

        value = getattr(import_module(module, __name__), name)
        globals()[name] = value
        return value
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


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
    "Logs",
    "MultiActRequest",
    "MultiActResult",
    "Navigate",
    "PageElement",
    "PageUnresponsive",
    "PageView",
    "Pdf",
    "Pool",
    "PortInUse",
    "Press",
    "ProfileInUse",
    "ProtocolError",
    "ReadPage",
    "Reload",
    "Replacement",
    "Screenshot",
    "Scroll",
    "Select",
    "ServiceRejected",
    "StateChange",
    "StateSummary",
    "Step",
    "StepFailure",
    "StepResult",
    "StorageState",
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
    "load_state",
    "open_browser",
    "open_pool",
    "parse_request",
    "read_page",
    "request_schema",
    "result_schema",
    "save_state",
]
