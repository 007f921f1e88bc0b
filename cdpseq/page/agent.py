"""The Python side of the in-page agent (``js/agent/``, see ``script``) for one tab.

The agent lives in the isolated world named ``cdpseq`` of the tab's main frame. Chromium keys
isolated worlds by name, so every client attached to the tab — this process, another cdpseq
process, a CLI call a minute later — sees the same world and the same ref registry, while the
page's own scripts see nothing. A new document brings a new world (with the agent in it already
when a session has asked for that: ``_SESSION``); the agent is installed there if missing and told
the tab's *ref floor*, the highest ref number ever minted in the tab, so numbers
continue upwards and an old ref can never name an element of the new document. The floor is kept
in the browser itself (``tab_notes``), so that separate processes agree whatever their HOME.

A floor must be stored before the refs it covers are handed out, and it must be stored while
their document is still the current one: otherwise another process could install the agent in a
newer document with an older floor and mint the same numbers there. So a read that mints refs
stores the floor, then checks that its document is still there, and reads again when it is not.

There is one ``PageAgent`` per tab: ``tab.extension(PageAgent)``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar, cast

from ..browser import Tab
from ..cdp import dom, emulation, page, runtime
from ..errors import CdpseqError, ProtocolError
from ..wire.connection import Batch
from ..wire.protocol import Command
from .script import AGENT_PRESENT, AGENT_SCRIPT, PREINSTALL_SCRIPT
from .tab_notes import floor_commands, floor_in, floor_query
from .view import CachedView, Snapshot, decode_read_head

T = TypeVar("T")

WORLD_NAME = "cdpseq"
MAX_NODE_IDS_PER_READ = 250

# What a session that uses a tab keeps for as long as it is attached: the agent installed in
# each new document of the tab before the page's own scripts (top frames; see script.py), and
# the tab in front as far as its pages can tell. Chrome draws no frames for a tab behind another
# of its window (in a headless window, every tab but the newest), so a render the page defers
# to requestAnimationFrame would never come; focus emulation keeps the tab visible and focused
# to its pages, as the page a person acts on is.
_SESSION: tuple[Command[Any], ...] = (
    page.AddScriptToEvaluateOnNewDocument(source=PREINSTALL_SCRIPT, worldName=WORLD_NAME),
    emulation.SetFocusEmulationEnabled(enabled=True),
)


class _SessionPrepared:
    """Whether the tab's session was told what it keeps (``_SESSION``): once per session,
    whichever agent of the tab (the page's, a frame step's) installs first."""

    def __init__(self, tab: Tab) -> None:
        self.done = False


class AgentError(CdpseqError):
    """The agent refused: ``code`` is an act error code (STALE_REF, NOT_ACTIONABLE, ...)."""

    def __init__(self, code: str, reason: str, retry: bool = False) -> None:
        self.code = code
        self.reason = reason
        self.retry = retry
        super().__init__(reason)


class InFrame(AgentError):
    """A selector chain that matches nothing in this document goes on inside cross-origin
    frames (``crossing()`` in js/agent/selectors.js): ``rest`` is the chain from there on,
    ``frames`` how many frame elements it may go on in."""

    def __init__(self, reason: str, rest: str, frames: int) -> None:
        super().__init__("NODE_NOT_FOUND", reason, retry=True)
        self.rest = rest
        self.frames = frames


def refusal(value: dict[str, Any]) -> AgentError:
    """The AgentError of an agent's refusal ``{error, reason, retry, inFrame?}``."""
    reason = str(value.get("reason", value["error"]))
    crossing = value.get("inFrame")
    if isinstance(crossing, dict):
        return InFrame(reason, str(crossing["rest"]), int(crossing["frames"]))
    return AgentError(str(value["error"]), reason, bool(value.get("retry")))


class PageAgent:
    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self.floor = 0
        self._context_id: int | None = None
        self._loader_id: str | None = None
        # ref number -> backendNodeId, learned for the current document by this process
        self.node_ids: dict[int, int] = {}
        # filter -> the last full read with that filter, answered again while nothing changes
        self.views: dict[str, CachedView] = {}

    async def context_id(self) -> int:
        if self._context_id is None or self._loader_id != self.tab.loader_id:
            await self._install()
        assert self._context_id is not None
        return self._context_id

    async def _install(self) -> None:
        tab = self.tab
        if tab.frame_id is None:
            raise AgentError("TARGET_CLOSED", "the tab has no main frame yet")
        loader = tab.loader_id
        # The world and the floor (and, once per session, what it keeps: see _SESSION); then the
        # numbering of an agent installed already (by this session's preinstall, or by another
        # process), or the agent and its numbering.
        prepared = tab.extension(_SessionPrepared)
        world, found, *_ = await tab.send_all(page.CreateIsolatedWorld(
            frameId=tab.frame_id, worldName=WORLD_NAME, grantUniveralAccess=True),
            floor_query(tab), *([] if prepared.done else _SESSION))
        prepared.done = True
        context = world.executionContextId
        self.floor = max(self.floor, floor_in(found))
        init = f"__cdpseq.init({self.floor})"
        state = await self._evaluate_in(context, f"{AGENT_PRESENT} ? {init} : null")
        if state is None:
            state = await self._evaluate_in(context, f"{AGENT_SCRIPT};\n{init}")
        self._context_id, self._loader_id = context, loader
        self.node_ids = {}
        self.views = {}
        await self.note_minted(int(state["next"]) - 1)

    async def note_minted(self, highest: int) -> bool:
        """Store the floor when refs up to ``highest`` were minted in the current document; False
        when that document is gone by the time the floor is stored (its refs must not be used:
        another process may have numbered a newer document from the older floor)."""
        if highest <= self.floor:
            return True
        await self.tab.send_all(*floor_commands(self.tab, highest, self.floor))
        self.floor = highest
        return await self._still_there()

    async def _still_there(self) -> bool:
        """Whether the document the agent was installed in is still the tab's."""
        context = self._context_id
        return context is not None and \
            await _unless_gone(self._evaluate_in(context, "0")) is not _GONE

    def forget_context(self) -> None:
        self._context_id = None

    async def _evaluate_in(self, context: int, expression: str, *, await_promise: bool = False
                           ) -> Any:
        return _value(await self.tab.send(runtime.Evaluate(
            expression=expression, contextId=context, returnByValue=True,
            awaitPromise=await_promise)))

    async def evaluate(self, expression: str, *, await_promise: bool = False) -> Any:
        """Run ``expression`` in the agent's world; survives one navigation race."""
        for attempt in range(3):
            context = await self.context_id()
            try:
                return await self._evaluate_in(context, expression, await_promise=await_promise)
            except _ContextGone:
                pass
            except ProtocolError as exc:
                if not _is_context_gone(exc.message) or attempt == 2:
                    raise
            self.forget_context()
        raise AgentError("NAVIGATION_FAILED", "the page kept navigating while cdpseq read it",
                         retry=True)

    async def evaluate_behind(self, commands: Sequence[Command[Any]], expression: str, *,
                              await_promise: bool = False) -> tuple[list[Any], Any]:
        """Send ``commands``, then run ``expression`` in the agent's world, in one round trip:
        the commands' results and the expression's value."""
        context = await self.context_id()
        *results, evaluated = await self.tab.send_all(*commands, runtime.Evaluate(
            expression=expression, contextId=context, returnByValue=True,
            awaitPromise=await_promise))
        try:
            return results, _value(evaluated)
        except _ContextGone:
            self.forget_context()
            raise AgentError("NAVIGATION_FAILED", "the page navigated meanwhile",
                             retry=True) from None

    async def call(self, op: str, target: dict[str, Any], args: dict[str, Any] | None = None,
                   *, after: Command[Any] | None = None) -> Any:
        """Run agent operation ``op`` on a target: {"ref": n}, {"selector": s} or
        {"node": backendNodeId}. Raises AgentError for refusals. ``after`` is a command to run
        just before it, in the same round trip."""
        expression = (f"__cdpseq.call({json.dumps(op)}, {json.dumps(target)}, "
                      f"{json.dumps(args or {})})")
        if after is not None and "node" not in target:
            context = await self.context_id()
            _, result = await self.tab.send_all(after, runtime.Evaluate(
                expression=expression, contextId=context, returnByValue=True, awaitPromise=True))
            try:
                value = _value(result)
            except _ContextGone:
                raise AgentError("NAVIGATION_FAILED", "the page navigated during the step",
                                 retry=True) from None
        elif "node" in target:
            if after is not None:
                await self.tab.send(after)
            value = await self._call_on_node(op, target["node"], args or {})
        else:
            value = await self.evaluate(expression, await_promise=True)
        if isinstance(value, dict) and "error" in value:
            code = str(value["error"])
            if code == "STALE_REF" and "node" in target:
                code = "NODE_NOT_FOUND"  # node_N names a node, not a ref: it is simply gone
            if code == "INVALID_SELECTOR":
                code = "INVALID_REQUEST"
            raise refusal({**value, "error": code})
        if value is None:
            raise AgentError("NODE_NOT_FOUND", "no such element")
        return value

    async def _call_on_node(self, op: str, backend_node_id: int, args: dict[str, Any]) -> Any:
        context = await self.context_id()
        try:
            resolved = await self.tab.send(dom.ResolveNode(
                backendNodeId=backend_node_id, executionContextId=context))
        except ProtocolError:
            raise AgentError("NODE_NOT_FOUND",
                             f"node_{backend_node_id} does not exist in this tab") from None
        object_id = resolved.object.objectId
        if object_id is None:
            raise AgentError("NODE_NOT_FOUND", f"node_{backend_node_id} cannot be resolved")
        try:
            result = await self.tab.send(runtime.CallFunctionOn(
                functionDeclaration="function(op, args) { return __cdpseq.call(op, "
                                    "{element: this}, args); }",
                objectId=object_id, returnByValue=True, awaitPromise=True,
                arguments=[runtime.CallArgument(value=op), runtime.CallArgument(value=args)]))
        finally:
            await self.tab.send(runtime.ReleaseObject(objectId=object_id))
        if result.exceptionDetails is not None:
            text = result.exceptionDetails.text
            raise AgentError("NODE_NOT_FOUND", f"node_{backend_node_id}: {text}")
        return result.result.value

    async def content_quads(self, target: dict[str, Any]) -> list[list[float]]:
        """The target's content quads as the browser lays them out (transforms, zoom and frames
        included), in top-level viewport coordinates."""
        if "node" in target:
            return (await self.tab.send(dom.GetContentQuads(backendNodeId=target["node"]))).quads
        context = await self.context_id()
        found = await self.tab.send(runtime.Evaluate(
            expression=f"__cdpseq.resolveElement({json.dumps(target)})", contextId=context))
        object_id = found.result.objectId
        if object_id is None:
            raise AgentError("NODE_NOT_FOUND", "the element is gone", retry=True)
        try:
            return (await self.tab.send(dom.GetContentQuads(objectId=object_id))).quads
        except ProtocolError as exc:
            raise AgentError("NOT_ACTIONABLE", f"the browser has no layout for it ({exc.message})",
                             retry=True) from None
        finally:
            await self.tab.send(runtime.ReleaseObject(objectId=object_id))

    async def after_input(self, commands: Sequence[Command[Any]]) -> dict[str, Any] | None:
        """Send input commands, then ask what the armed interceptor saw of them (``verdict()``
        in js/agent/intercept.js), in one round trip. None when the input took the page to
        another document, whose world knows nothing of it."""
        context = await self.context_id()
        try:
            *_, result = await self.tab.send_all(*commands, runtime.Evaluate(
                expression="__cdpseq.verdict()", contextId=context, returnByValue=True,
                awaitPromise=True))
        except ProtocolError as exc:
            if _is_context_gone(exc.message):
                return None
            raise
        try:
            verdict: dict[str, Any] = _value(result)
        except _ContextGone:
            return None
        return verdict

    async def read(self, filter: str, build: Callable[[Snapshot], T], *,
                   limit: int | None = None, again: dict[str, Any] | None = None,
                   delta: bool = False, narrow: dict[str, Any] | None = None
                   ) -> tuple[Snapshot, T]:
        """The agent's rows for a read, and ``build(rows)``: the caller's view of them, made
        while Chrome stores the floor and learns the node ids of the first rows whose ids this
        process lacks (at most ``MAX_NODE_IDS_PER_READ``; ``fill_node_ids`` hands them out).
        ``limit`` stops after that many rows (a summary, not counted as a read; no node ids).
        With ``again`` (version, url and title of an earlier read) the head says ``unchanged``
        (and no rows come) when nothing changed since. With ``delta`` the head also says what
        changed since the document's previous read. ``narrow`` (scope, roles, viewport) keeps
        only the rows that pass (``ReadOptions.narrowing``)."""
        options = {"filter": filter, **({"limit": limit} if limit else {}), **(again or {}),
                   **({"delta": True} if delta else {}), **({"narrow": narrow} if narrow else {})}
        entry = "readAgain" if again else "read"
        for _ in range(3):
            text = await self.evaluate(f"__cdpseq.{entry}({json.dumps(options)})")
            head, *rows = text.split("\n")
            if head.startswith('{"error"'):  # a narrowed read's scope that names no element
                refusal = json.loads(head)
                raise AgentError(refusal["error"], refusal.get("reason", refusal["error"]),
                                 bool(refusal.get("retry")))
            snapshot = Snapshot(decode_read_head(head), rows)
            if snapshot.head.unchanged:
                return snapshot, build(snapshot)
            highest = snapshot.head.next - 1
            storing = (await self.tab.dispatch(*floor_commands(self.tab, highest, self.floor))
                       if highest > self.floor else None)
            context = self._context_id  # the read's: the ids are of its document, or none
            numbers = [] if limit or context is None else self._unknown_refs(rows)
            learning = (await self.tab.dispatch(_learn_command(context, numbers))
                        if context is not None and numbers else None)
            built = build(snapshot)  # meanwhile Chrome answers both
            learned = await self._learned(learning, numbers)
            if await self._stored(storing, highest) and learned:  # the floor kept either way
                return snapshot, built
            self.forget_context()
        raise AgentError("NAVIGATION_FAILED", "the page kept navigating while cdpseq read it",
                         retry=True)

    def _unknown_refs(self, rows: list[str]) -> list[int]:
        """The first ``MAX_NODE_IDS_PER_READ`` ref numbers of ``rows`` whose node ids this
        process has not learned (a row is ``[ref, ...``; text rows have ref 0)."""
        known = self.node_ids
        numbers: list[int] = []
        for row in rows:
            number = int(row[1:row.index(",")])
            if number and number not in known:
                numbers.append(number)
                if len(numbers) == MAX_NODE_IDS_PER_READ:
                    break
        return numbers

    async def _stored(self, storing: Batch | None, highest: int) -> bool:
        """Whether the read's document is still there once its floor is stored (see the top)."""
        if storing is None:
            return True
        await storing.results()
        self.floor = highest
        return await self._still_there()

    async def _learned(self, learning: Batch | None, numbers: list[int]) -> bool:
        """Note the node ids ``learning`` brought; False when the document went meanwhile."""
        if learning is None:
            return True
        async def deep_value(batch: Batch) -> Any:
            [answer] = await batch.results()
            return _value_of(answer)

        value = await _unless_gone(deep_value(learning))
        if value is _GONE:
            return False
        self._note_node_ids(numbers, value)
        return True

    async def bounds(self, refs: list[str]) -> dict[str, list[int] | None]:
        """The border box [x, y, width, height] of each ref's element in the top viewport's CSS
        pixels (None when it is gone or has no box), in one call."""
        numbers = json.dumps([int(ref[4:]) for ref in refs])
        boxes = await self.evaluate(f"__cdpseq.bounds({numbers})")
        return dict(zip(refs, boxes, strict=True))

    async def fill_node_ids(self, elements: list[Any]) -> None:
        """Give elements the backendNodeIds they lack: those learned already, then at most
        ``MAX_NODE_IDS_PER_READ`` new ones per call, counting the ones a read learned (Chrome
        serializes ~35 µs per node): a big page's ids fill in over several reads."""
        known = self.node_ids.get
        lacking: list[tuple[Any, int]] = []
        looked = 0
        for element in elements:
            if element.node_id is None:
                number = int(element.ref[4:])
                element.node_id = known(number)
                if element.node_id is None:
                    lacking.append((element, number))
                looked += 1
                if looked == MAX_NODE_IDS_PER_READ:
                    break
        if not lacking:
            return
        numbers = [number for _, number in lacking]
        [answer] = await self.tab.send_all(_learn_command(await self.context_id(), numbers))
        self._note_node_ids(numbers, _value_of(answer))
        for element, number in lacking:
            element.node_id = known(number)

    def _note_node_ids(self, numbers: list[int], value: Any) -> None:
        """Keep the backendNodeIds of a deep-serialized array of elements (CDP's deep
        serialization of DOM nodes carries them)."""
        if not isinstance(value, runtime.DeepSerializedValue) or not isinstance(value.value, list):
            return
        for number, item in zip(numbers, value.value, strict=False):
            node = item.get("value") if isinstance(item, dict) else None
            if isinstance(node, dict) and node.get("backendNodeId"):
                self.node_ids[number] = node["backendNodeId"]


_DEEP = runtime.SerializationOptions(serialization="deep", maxDepth=1, additionalParameters={
    "maxNodeDepth": 0, "includeShadowTree": "none"})


def _learn_command(context: int, numbers: list[int]) -> runtime.Evaluate:
    """The elements of ref ``numbers``, deep-serialized: their backendNodeIds."""
    return runtime.Evaluate(expression=f"__cdpseq.elements({json.dumps(numbers)})",
                            contextId=context, serializationOptions=_DEEP)


def _value_of(answer: runtime.EvaluateResult) -> Any:
    """The deep-serialized value of an evaluation (``_ContextGone`` when its document went)."""
    if answer.exceptionDetails is not None:
        _value(answer)
    return answer.result.deepSerializedValue


class _ContextGone(Exception):
    pass


_GONE: Any = object()


async def _unless_gone(call: Awaitable[T]) -> T:
    """What ``call`` answers, or ``_GONE`` when the document it ran in went meanwhile."""
    try:
        return await call
    except _ContextGone:
        return cast(T, _GONE)
    except ProtocolError as exc:
        if _is_context_gone(exc.message):
            return cast(T, _GONE)
        raise


def _value(result: runtime.EvaluateResult) -> Any:
    if result.exceptionDetails is not None:
        details = result.exceptionDetails
        text = details.exception.description if details.exception else details.text
        if _is_context_gone(text or ""):
            raise _ContextGone()
        raise AgentError("AGENT_ERROR", f"in-page agent failed: {text}")
    return result.result.value


def _is_context_gone(message: str) -> bool:
    # The last: what a command still pending in a document's renderer gets when the tab commits
    # a navigation in another renderer (a cross-site link) meanwhile.
    return ("Cannot find context" in message or "context was destroyed" in message
            or "Execution context was destroyed" in message
            or "Inspected target navigated or closed" in message)

