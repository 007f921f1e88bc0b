"""The scripts cdpseq evaluates in pages, read from ``js/`` once at import.

The in-page agent is written as several files in ``js/agent/``, one per concern, and assembled
here into the one script that is evaluated in a tab's isolated world: the parts are concatenated
in ``AGENT_PARTS`` order inside one function, so they share one scope (a function declared in
one part is called from another) and the whole is a single expression that returns the agent's
version. No bundler: the parts are plain statements, and ``exports.js`` comes last. A part's
top-level code runs in this order, so a part may only use at load time what an earlier part
declared.

``timers_script(key)`` is the timer watch, evaluated in the page's main world (see
``js/timers.js``, with ``js/timers_awaited.js`` spliced in at its marker), and ``timers_*`` its
readings.
"""

from __future__ import annotations

import hashlib
import re
from importlib import resources

AGENT_PARTS = (
    "registry",       # the ref registry and what every part shares
    "dom",            # traversal across frames and shadow roots, element descriptions
    "selectors",      # CSS, role= and >> chains
    "roles",          # roles, and which elements are controls
    "names",          # accessible names
    "states",         # states and values
    "hints",          # selector hints
    "tracking",       # change tracking between reads
    "seen",           # what renders, what is inert, what containers give the controls inside
    "read",           # read_page's walk
    "model",          # the page model: entries kept current, the journal of an act
    "walkorder",      # the read's walk order: where an element's rows are among those kept
    "rewalk",         # read_page again: walk only what changed since the last read
    "splices",        # a read's rows as what changed against the caller's earlier read
    "context",        # context for controls a name does not tell apart
    "geometry",       # boxes on screen, viewports, frames
    "actionability",  # targets, states, hit tests, aiming
    "intercept",      # the input interceptor: did an action's events reach the element?
    "fill",           # filling text and value fields
    "input",          # the operations on elements: focus, select, check state, scroll
    "files",          # upload's file inputs, clear (adds to input's operations)
    "gestures",       # swipe and drag: their paths and what they did
    "waits",          # wait_for conditions
    "watch",          # arming an act, the settle probe
    "facts",          # what entries carry for the delta alone: classes, a table's order
    "pairing",        # elements rendered again, paired with those they replaced
    "changes",        # how an entry changed: its fields, the items a reorder moved
    "blocks",         # blocks without a role that appear whole
    "delta",          # the state delta
    "frames",         # refs of out-of-process iframes
    "extract",        # extract's rendered HTML, text and form values
    "exports",        # the entry points (last)
)

_JS = resources.files(__package__).joinpath("js")


def agent_part(name: str) -> str:
    """The source of one part of the agent."""
    return _JS.joinpath("agent", f"{name}.js").read_text(encoding="utf-8")


def assemble_agent() -> str:
    """The agent as one script: the parts in order, inside one function that runs at once."""
    body = "\n".join(f"// ---- js/agent/{name}.js\n{agent_part(name)}" for name in AGENT_PARTS)
    return f"(() => {{\n{body}\n}})()"


AGENT_SCRIPT = assemble_agent()
_VERSION = re.search(r"^const VERSION = (\d+);$", agent_part("registry"), re.MULTILINE)
assert _VERSION is not None, "js/agent/registry.js declares no VERSION"
AGENT_VERSION = int(_VERSION.group(1))
AGENT_PRESENT = f"globalThis.__cdpseq?.version === {AGENT_VERSION}"
"""An expression true where this agent is installed already (no need to send it again)."""
PREINSTALL_SCRIPT = f"if (window === window.top && !({AGENT_PRESENT})) {AGENT_SCRIPT};"
"""The agent for every new document of a tab, before its own scripts; top frames only (an
iframe's document is read through its parent's agent)."""
# The timer watch is one function; the callbacks it awaits besides timers and frames are kept
# in a file of their own, spliced in at their marker.
_TIMERS_SOURCE = re.sub(
    r"^ *// __CDPSEQ_TIMERS_AWAITED__.*$",
    lambda _: _JS.joinpath("timers_awaited.js").read_text(encoding="utf-8"),
    _JS.joinpath("timers.js").read_text(encoding="utf-8"), count=1, flags=re.MULTILINE)
assert "__CDPSEQ_TIMERS_AWAITED__" not in _TIMERS_SOURCE, "js/timers.js lost its marker"


def timers_key(target_id: str) -> str:
    """The key the timer watch of a tab answers to: the page never sees the tab's target id, so
    it cannot look for the watch; every cdpseq process finds the watch another one installed."""
    return "k" + hashlib.sha256(f"cdpseq timers {target_id}".encode()).hexdigest()[:32]


def timers_script(key: str) -> str:
    """The timer watch, answering to ``key`` (see ``js/timers.js``)."""
    return _TIMERS_SOURCE.replace("__CDPSEQ_TIMERS_KEY__", key)


def _timers(key: str, reading: str) -> str:
    # The watch's readings, in the main world. Its bookkeeping is found through the key on one of
    # the functions it wraps (setTimeout, or another where a page replaced window's setTimeout).
    return (f"(() => {{ const t = [window.setTimeout, window.clearTimeout, "
            f"window.requestAnimationFrame, Function.prototype.toString]"
            f".map(f => f && f.{key}).find(Boolean); {reading} }})()")


def timers_due(key: str) -> str:
    """Milliseconds until the last counted timer falls due (-1: none); null without the watch."""
    return _timers(key, "return t ? t.due() : null;")


def timers_reset(key: str) -> str:
    """Begin counting for a new act (work of an older one never counts again)."""
    return _timers(key, "return t ? t.reset() : null;")


def timers_after_frames(key: str, bound_ms: int, since: float | None = None) -> str:
    """The watch's reading after an animation frame (bounded by ``bound_ms`` when none come):
    ``{due, at, frames}``; null in a document without the watch, 'old' from a watch that cannot
    wait for frames. ``since``: when the act's last pointer action ended (page clock), whose
    frame, once passed, is not waited for again."""
    after = f", {since!r}" if since is not None else ""
    return _timers(key, f"if (!t) return null; "
                        f"return t.afterFrames ? t.afterFrames({bound_ms}{after}) : 'old';")


def timers_busy(key: str) -> str:
    """What the timer watch counts now, for tests and diagnosis; null without the watch."""
    return _timers(key, "return t ? t.busy() : null;")
