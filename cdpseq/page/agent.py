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
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..browser import Tab
from ..cdp import dom, emulation, page, runtime
from ..errors import ProtocolError
from ..escaping import whole_json
from ..wire.connection import Batch
from ..wire.protocol import Command
from . import entries
from .answers import (
    GONE,
    AgentError,
    ContextGone,
    Delta,
    InFrame,
    PageState,
    Settling,
    WaitOutcome,
    WheelOutcome,
    answered,
    decode,
    is_context_gone,
    refusal,
    unless_gone,
)
from .script import AGENT_PRESENT, AGENT_SCRIPT, PREINSTALL_SCRIPT
from .tab_notes import floor_commands, floor_in, floor_query
from .targets import Node, Target
from .view import CachedView, Snapshot, decode_read_head

T = TypeVar("T")

# The errors are the answers' (``answers``); named here too, where most callers meet them.
__all__ = ["AgentError", "InFrame", "PageAgent", "refusal"]

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


class PageAgent:
    """The agent of one tab's main frame, and the only way the Python side talks to it: one
    method per entry point (``entries`` spells them), answers decoded into ``answers``' Structs,
    refusals raised as ``AgentError``. Get it with ``tab.extension(PageAgent)``."""

    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self.floor = 0
        self._context_id: int | None = None
        self._loader_id: str | None = None
        # ref number -> backendNodeId, learned for the current document by this process
        self.node_ids: dict[int, int] = {}
        # filter -> the last full read with that filter, answered again while nothing changes
        self.views: dict[str, CachedView] = {}
        # When the act's last action, a pointer input, ended (page clock): the frame it brought
        # can be a settle's proof (settle_wait). Set by the step, cleared when another begins.
        self.input_at: float | None = None
        # A call sent ahead of the step that makes it (``ahead_command``) and its answer to come.
        self._ahead: tuple[str, Batch, int] | None = None
        self._dropped: object = None

    async def context_id(self) -> int:
        """The agent's world in the current document, installing the agent there if needed."""
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
        init = entries.init(self.floor)
        state = await self._evaluate_in(context, f"{AGENT_PRESENT} ? {init} : null")
        if state is None:
            state = await self._evaluate_in(context, f"{AGENT_SCRIPT};\n{init}")
        self._context_id, self._loader_id = context, loader
        # The last document's ids and views (10,000 rows: ~2 ms to free) go while the page
        # answers the next call (_evaluate_in), not before it is sent.
        self._dropped = (self.node_ids, self.views)
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
            await unless_gone(self._evaluate_in(context, "0")) is not GONE

    def forget_context(self) -> None:
        """Install the agent again before the next call (its document changed under us)."""
        self._context_id = None
        self._ahead = None

    async def _evaluate_in(self, context: int, expression: str, *, await_promise: bool = False
                           ) -> Any:
        batch = await self.tab.dispatch(runtime.Evaluate(
            expression=expression, contextId=context, returnByValue=True,
            awaitPromise=await_promise))
        self._dropped = None
        [answer] = await batch.results()
        return answered(answer)

    async def evaluate(self, expression: str, *, await_promise: bool = False) -> Any:
        """Run ``expression`` in the agent's world; survives one navigation race."""
        for attempt in range(3):
            context = await self.context_id()
            try:
                return await self._evaluate_in(context, expression, await_promise=await_promise)
            except ContextGone:
                pass
            except ProtocolError as exc:
                if not is_context_gone(exc.message) or attempt == 2:
                    raise
            self.forget_context()
        raise AgentError("NAVIGATION_FAILED", "the page kept navigating while cdpseq read it",
                         retryable=True)

    async def evaluate_behind(self, commands: Sequence[Command[Any]], expression: str, *,
                              await_promise: bool = False) -> tuple[list[Any], Any]:
        """Send ``commands``, then run ``expression`` in the agent's world, in one round trip:
        the commands' results and the expression's value."""
        context = await self.context_id()
        *results, evaluated = await self.tab.send_all(*commands, runtime.Evaluate(
            expression=expression, contextId=context, returnByValue=True,
            awaitPromise=await_promise))
        try:
            return results, answered(evaluated)
        except ContextGone:
            self.forget_context()
            raise AgentError("NAVIGATION_FAILED", "the page navigated meanwhile",
                             retryable=True) from None

    async def call(self, op: str, target: Target, args: dict[str, Any] | None = None,
                   *, after: Command[Any] | None = None) -> Any:
        """Run agent operation ``op`` on a target (``targets``). Raises AgentError for refusals.
        ``after`` is a command to run just before it, in the same round trip."""
        expression = entries.call(op, target, args)
        ahead, self._ahead = self._ahead, None
        if after is not None and not isinstance(target, Node):
            context = await self.context_id()
            _, result = await self.tab.send_all(after, runtime.Evaluate(
                expression=expression, contextId=context, returnByValue=True, awaitPromise=True))
            try:
                value = answered(result)
            except ContextGone:
                raise AgentError("NAVIGATION_FAILED", "the page navigated during the step",
                                 retryable=True) from None
        elif isinstance(target, Node):
            if after is not None:
                await self.tab.send(after)
            value = await self._call_on_node(op, target.node, args or {})
        elif ahead is not None and ahead[0] == expression:
            value = await self._answered_ahead(ahead[1], ahead[2], expression)
        else:
            value = await self.evaluate(expression, await_promise=True)
        if isinstance(value, dict) and "error" in value:
            code = str(value["error"])
            if code == "STALE_REF" and isinstance(target, Node):
                code = "NODE_NOT_FOUND"  # node_N names a node, not a ref: it is simply gone
            if code == "INVALID_SELECTOR":
                code = "INVALID_REQUEST"
            raise refusal({**value, "error": code})
        if value is None:
            raise AgentError("NODE_NOT_FOUND", "no such element")
        return value

    async def ahead_command(self, op: str, target: Target, args: dict[str, Any]
                            ) -> runtime.Evaluate:
        """``call(op, target, args)`` as a command to send ahead of its step, in a batch of
        others (the act's setup sends step 0's aim with its own: a round trip saved);
        ``sent_ahead`` then keeps its answer for the next ``call`` if that is the same one (any
        other call drops it)."""
        return runtime.Evaluate(expression=entries.call(op, target, args),
                                contextId=await self.context_id(), returnByValue=True,
                                awaitPromise=True)

    def sent_ahead(self, command: runtime.Evaluate, batch: Batch, index: int) -> None:
        """``command`` (an ``ahead_command``) went as command ``index`` of ``batch``."""
        self._ahead = (command.expression, batch, index)

    async def _answered_ahead(self, batch: Batch, index: int, expression: str) -> Any:
        try:
            return answered(await batch.result(index))
        except (ContextGone, ProtocolError):  # its document went meanwhile: ask the new one
            return await self.evaluate(expression, await_promise=True)

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
                functionDeclaration=entries.CALL_ON_ELEMENT,
                objectId=object_id, returnByValue=True, awaitPromise=True,
                arguments=[runtime.CallArgument(value=op), runtime.CallArgument(value=args)]))
        finally:
            await self.tab.send(runtime.ReleaseObject(objectId=object_id))
        if result.exceptionDetails is not None:
            text = result.exceptionDetails.text
            raise AgentError("NODE_NOT_FOUND", f"node_{backend_node_id}: {text}")
        return result.result.value

    async def content_quads(self, target: Target) -> list[list[float]]:
        """The target's content quads as the browser lays them out (transforms, zoom and frames
        included), in top-level viewport coordinates."""
        if isinstance(target, Node):
            return (await self.tab.send(dom.GetContentQuads(backendNodeId=target.node))).quads
        context = await self.context_id()
        found = await self.tab.send(runtime.Evaluate(
            expression=entries.resolve_element(target), contextId=context))
        object_id = found.result.objectId
        if object_id is None:
            raise AgentError("NODE_NOT_FOUND", "the element is gone", retryable=True)
        try:
            return (await self.tab.send(dom.GetContentQuads(objectId=object_id))).quads
        except ProtocolError as exc:
            raise AgentError("NOT_ACTIONABLE", f"the browser has no layout for it ({exc.message})",
                             retryable=True) from None
        finally:
            await self.tab.send(runtime.ReleaseObject(objectId=object_id))

    async def after_input(self, commands: Sequence[Command[Any]]) -> dict[str, Any] | None:
        """Send input commands, then ask what the armed interceptor saw of them (``verdict()``
        in js/agent/intercept.js), in one round trip. None when the input took the page to
        another document, whose world knows nothing of it."""
        context = await self.context_id()
        try:
            *_, result = await self.tab.send_all(*commands, runtime.Evaluate(
                expression=entries.VERDICT, contextId=context, returnByValue=True,
                awaitPromise=True))
        except ProtocolError as exc:
            if is_context_gone(exc.message):
                return None
            raise
        try:
            verdict: dict[str, Any] = answered(result)
        except ContextGone:
            return None
        return verdict

    # -- the entry points an act uses (js/agent/exports.js) ------------------------------------

    async def arm(self) -> PageState:
        """Start recording what the act changes (``arm_command`` in a batch): the url and title
        the document has then."""
        return decode(await self.evaluate(entries.ARM), PageState)

    async def arm_command(self) -> runtime.Evaluate:
        """``arm()`` as a command for a batch; its value decodes as ``PageState``."""
        return entries.arm_command(await self.context_id())

    async def settle_wait(self, quiet_ms: int, max_ms: int, delta: int | None = None, *,
                          behind: Sequence[Command[Any]] = ()) -> tuple[list[Any], Settling]:
        """Answer once the DOM was quiet for ``quiet_ms`` with no loading indicator (or after
        ``max_ms``), with the act's delta when ``delta`` (items a list) is given; ``behind``
        are commands sent first in the same round trip, whose results come back too."""
        expression = entries.settle_wait(quiet_ms, max_ms, delta, self.input_at)
        if behind:
            results, value = await self.evaluate_behind(behind, expression, await_promise=True)
        else:
            results, value = [], await self.evaluate(expression, await_promise=True)
        return results, decode(value, Settling)

    async def moved_command(self) -> runtime.Evaluate:
        """A command for a batch: whether the DOM moved since ``arm()`` (a boolean value)."""
        return entries.moved_command(await self.context_id())

    async def delta(self, limit: int) -> Delta:
        """What changed since ``arm()``, at most ``limit`` items a list."""
        return decode(await self.evaluate(entries.delta(limit)), Delta)

    async def wait_for(self, condition: dict[str, Any], timeout_ms: int) -> WaitOutcome:
        """Whether ``condition`` (``waitFor``'s: text, textGone, url, or a target and a state)
        held within ``timeout_ms`` (0: checked once)."""
        return decode(await self.evaluate(entries.wait_for(condition, timeout_ms),
                                          await_promise=True), WaitOutcome)

    async def check_selectors(self, selectors: list[str]) -> list[str | None]:
        """For each selector, None when the page's own parser takes it, else why not
        (``entries.check_selectors`` is the same check for a batch)."""
        return decode(await self.evaluate(entries.check_selectors(selectors)),
                      list[str | None])

    async def wheel_moved(self) -> WheelOutcome:
        """What the wheel sent after ``wheelAt`` did so far."""
        return decode(await self.evaluate(entries.WHEEL_MOVED), WheelOutcome)

    async def pending_upload(self) -> str | None:
        """The object id of the file input ``prepareUpload`` chose (None: the page changed);
        the caller releases it."""
        found = await self.tab.send(entries.pending_upload_command(await self.context_id()))
        return found.result.objectId

    async def read(self, filter: str, build: Callable[[Snapshot], T], *,
                   limit: int | None = None, again: dict[str, Any] | None = None,
                   delta: bool = False, narrow: dict[str, Any] | None = None
                   ) -> tuple[Snapshot, T]:
        """The agent's rows for a read, and ``build(rows)``: the caller's view of them, made
        while Chrome stores the floor and learns the node ids of the first rows whose ids this
        process lacks (at most ``MAX_NODE_IDS_PER_READ``; ``fill_node_ids`` hands them out).
        ``limit`` stops after that many rows (a summary, not counted as a read; no node ids).
        With ``again`` (an earlier read's version, url, title, splice: see read.py) the head says
        ``unchanged`` (no rows) when nothing changed since. With ``delta`` the head also says what
        changed since the document's previous read. ``narrow`` (scope, roles, viewport) keeps
        only the rows that pass (``ReadOptions.narrowing``)."""
        options = {"filter": filter, **({"limit": limit} if limit else {}), **(again or {}),
                   **({"delta": True} if delta else {}), **({"narrow": narrow} if narrow else {})}
        for _ in range(3):
            text = await self.evaluate(entries.read(options, again=bool(again)))
            head, *rows = whole_json(text).split("\n")  # a lone surrogate's escape made text
            if head.startswith('{"error"'):  # a narrowed read's scope that names no element
                raise refusal(json.loads(head))
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
                         retryable=True)

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

        value = await unless_gone(deep_value(learning))
        if value is GONE:
            return False
        self._note_node_ids(numbers, value)
        return True

    async def bounds(self, refs: list[str]) -> dict[str, list[int] | None]:
        """The border box [x, y, width, height] of each ref's element in the top viewport's CSS
        pixels (None when it is gone or has no box), in one call."""
        boxes = await self.evaluate(entries.bounds([int(ref[4:]) for ref in refs]))
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
    return runtime.Evaluate(expression=entries.elements(numbers),
                            contextId=context, serializationOptions=_DEEP)


def _value_of(answer: runtime.EvaluateResult) -> Any:
    """The deep-serialized value of an evaluation (``ContextGone`` when its document went)."""
    if answer.exceptionDetails is not None:
        answered(answer)
    return answer.result.deepSerializedValue
