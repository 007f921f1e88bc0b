"""The in-page agent's entry points as the JavaScript expressions that call them.

The one place the Python side spells ``__cdpseq.`` (the agent's global in its world, see
``script``; js/agent/exports.js lists what it exports); a test keeps it so. Each function
returns the expression, or the ``Runtime.evaluate`` command when a caller sends it in a batch
of its own with other commands. Arguments go through JSON, so the expressions are safe for any
string a request carries.
"""

from __future__ import annotations

import json
from typing import Any

from ..cdp import runtime
from .targets import PAGE, Target, to_agent


def init(floor: int) -> str:
    """Number refs above ``floor`` in this document; answers ``{next}``."""
    return f"__cdpseq.init({floor})"


def init_frame() -> str:
    """Set up the agent of a frame and answer the frame's token."""
    return "__cdpseq.init(0), __cdpseq.frameToken()"


def call(op: str, target: Target, args: dict[str, Any] | None = None) -> str:
    """Run operation ``op`` (js/agent/exports.js's ``call``) on ``target``."""
    return (f"__cdpseq.call({json.dumps(op)}, {json.dumps(to_agent(target))}, "
            f"{json.dumps(args or {})})")


def call_as(token: str, op: str, target: Target, args: dict[str, Any] | None) -> str:
    """``call`` in the frame document whose token is ``token`` only (a ref is of one document)."""
    return (f"__cdpseq.callAs({json.dumps(token)}, {json.dumps(op)}, "
            f"{json.dumps(to_agent(target))}, {json.dumps(args or {})})")


CALL_ON_ELEMENT = "function(op, args) { return __cdpseq.call(op, {element: this}, args); }"
"""``call`` as a function declaration for ``Runtime.callFunctionOn`` on a resolved node."""


def resolve_element(target: Target) -> str:
    """The target's element itself (evaluate without returnByValue to get its object id)."""
    return f"__cdpseq.resolveElement({json.dumps(to_agent(target))})"


def read(options: dict[str, Any], *, again: bool = False) -> str:
    """A read's rows (``readAgain``: answers ``unchanged`` when nothing changed)."""
    return f"__cdpseq.{'readAgain' if again else 'read'}({json.dumps(options)})"


def bounds(numbers: list[int]) -> str:
    """The border boxes of the elements of ref ``numbers``."""
    return f"__cdpseq.bounds({json.dumps(numbers)})"


def elements(numbers: list[int]) -> str:
    """The elements of ref ``numbers`` (deep-serialized, they carry their backendNodeIds)."""
    return f"__cdpseq.elements({json.dumps(numbers)})"


VERDICT = "__cdpseq.verdict()"
"""What the armed interceptor saw of the input just sent (js/agent/intercept.js)."""
WHEEL_MOVED = "__cdpseq.wheelMoved()"
"""What the wheel did since ``wheelAt`` (js/agent/input.js)."""
ARM = "__cdpseq.arm()"
"""Start recording an act's changes; answers the url and title (js/agent/watch.js)."""
PROBE = "__cdpseq.probe()"
"""The DOM's quiet time, loading indicator and whether it moved since ``arm()``."""


def arm_command(context: int) -> runtime.Evaluate:
    """``arm()`` in the agent's world ``context``, for a batch."""
    return runtime.Evaluate(expression=ARM, contextId=context, returnByValue=True)


def moved_command(context: int) -> runtime.Evaluate:
    """Whether the DOM moved since ``arm()``, in the agent's world ``context``, for a batch."""
    return runtime.Evaluate(expression=f"{PROBE}.moved", contextId=context, returnByValue=True)


def pending_upload_command(context: int) -> runtime.Evaluate:
    """The file input an upload step prepared (by reference: its object id)."""
    return runtime.Evaluate(expression=call("pendingUpload", PAGE),
                            contextId=context)


def settle_wait(quiet_ms: int, max_ms: int, delta: int | None = None,
                since: float | None = None) -> str:
    """Answer once the DOM was quiet ``quiet_ms`` (at most after ``max_ms``), with the act's
    delta (``delta`` items a list) when asked; ``since``: when the act's last pointer action
    ended (page clock), whose frame, once passed, is not waited for again."""
    asked = f", delta: {delta}" if delta is not None else ""
    after = f", since: {since!r}" if since is not None else ""
    return f"__cdpseq.settleWait({{quietMs: {quiet_ms}, maxMs: {max_ms}{asked}{after}}})"


def delta(limit: int) -> str:
    """What changed since ``arm()``, ``limit`` items a list."""
    return f"__cdpseq.delta({{limit: {limit}}})"


def wait_for(condition: dict[str, Any], timeout_ms: int) -> str:
    """Resolve once ``condition`` holds (or not, after ``timeout_ms``; 0: check once)."""
    return f"__cdpseq.waitFor({json.dumps({**condition, 'timeoutMs': timeout_ms})})"


def check_selectors(selectors: list[str]) -> str:
    """For each selector, None when the page's parser takes it, else why not."""
    return f"__cdpseq.checkSelectors({json.dumps(selectors)})"


def adopt(frame_id: str, token: str, numbers: list[int]) -> str:
    """Top-level refs for the refs ``numbers`` of a frame (its id, its document's token)."""
    return f"__cdpseq.adopt({json.dumps(frame_id)}, {json.dumps(token)}, {json.dumps(numbers)})"


def remote_ref(number: int) -> str:
    """Where the top-level ref ``number`` of a frame's element points."""
    return f"__cdpseq.remoteRef({number})"


def which(selector: str) -> str:
    """Whether ``selector`` matches anything in this document."""
    return f"__cdpseq.which({json.dumps(selector)}).length > 0"


def frame_owner(selector: str, index: int) -> str:
    """The frame element ``index`` among those ``selector`` goes on in."""
    return f"__cdpseq.frameOwner({json.dumps(selector)}, {index})"
