"""Steps in out-of-process iframes: a frame's ref or a selector chain into a frame, acted on
through the frame's agent (``frames``' theory of operation, "Actions" and "Selectors").

``agent_for`` picks the agent a step's target lives in; a ``FrameStepAgent`` runs the agent
operations in the frame on its local ref and moves the points it answers into the top page's
viewport; ``route_selector`` follows a chain the top agent could resolve only up to an iframe.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cdp import dom, runtime
from ..errors import ProtocolError
from ..wire.protocol import Command
from . import entries
from .agent import PageAgent
from .answers import AgentError, InFrame, refusal
from .frames import FrameAgent, FrameRef, TabFrames, attach_frames
from .targets import Ref, Selector, Target, describe

# Agent operations whose answer is a point in the frame's viewport, moved into the page's.
_POINT_OPS = frozenset({"aim", "aimAt", "wheelAt"})

async def locate(top: PageAgent, number: int) -> FrameRef | None:
    """Where ref ``number`` lives when it is a frame's, else None (the main document's)."""
    tab = top.tab
    remote = tab.extension(TabFrames).known_remote()
    if number in remote:
        return remote[number]
    if not tab.frames and not remote:
        return None  # no frame was ever attached: every ref is the main document's
    found = await top.evaluate(entries.remote_ref(number))
    if not found:
        return None
    ref = remote[number] = FrameRef(frame=found["frame"], token=found["token"],
                                    local=int(found["local"]))
    return ref


async def agent_for(top: PageAgent, target: Target | None) -> PageAgent:
    """The agent a step with ``target`` runs with: the top one, or a ``FrameStepAgent`` when
    the target is a ref of an out-of-process iframe. STALE_REF when that frame is gone."""
    if not isinstance(target, Ref):
        return top
    ref = await locate(top, target.ref)
    if ref is None:
        return top
    tab = top.tab
    await attach_frames(tab)
    for frame in tab.frames.values():
        if frame.frame_id == ref.frame:
            return FrameStepAgent(top, tab.extension(TabFrames).agent(frame), ref)
    raise AgentError("STALE_REF", f"{describe(target)} was in a frame that is gone from the "
                     "page")


class FrameStepAgent(PageAgent):
    """A step's agent for a target inside an out-of-process iframe: what executors ask of a
    ``PageAgent``, done in the frame, with points in the top page's viewport. The target is a
    frame's ref (``ref``), or a selector chain whose part ``selector`` (the chain from the
    frame on) the frame's agent resolves in place of the step's ``chain``."""

    def __init__(self, top: PageAgent, frame: FrameAgent, ref: FrameRef | None = None, *,
                 chain: str | None = None, selector: str | None = None) -> None:
        super().__init__(top.tab)
        self.top = top
        self.frame = frame
        self.ref = ref
        self.chain = chain
        self.selector = selector

    def _local(self, target: Target) -> Target:
        if isinstance(target, Ref) and self.ref is not None:
            return Ref(self.ref.local)
        if isinstance(target, Selector) and target.selector == self.chain \
                and self.selector is not None:
            return Selector(self.selector)
        return target

    async def call(self, op: str, target: Target, args: dict[str, Any] | None = None,
                   *, after: Command[Any] | None = None) -> Any:
        """Run an agent operation on the target in the frame; a point it answers is moved to the
        top page's viewport."""
        if after is not None:  # text input: the browser gives it to the focused frame
            await self.tab.send(after)
        local = self._local(target)
        # A ref is of one document of the frame (callAs refuses it in another); a selector is
        # resolved in whichever document the frame shows.
        expression = (entries.call_as(self.ref.token, op, local, args) if self.ref is not None
                      else entries.call(op, local, args))
        value = await self.frame.evaluate(expression, await_promise=True)
        if isinstance(value, dict) and "error" in value:
            raise refusal(value)
        if value is None:
            raise AgentError("NODE_NOT_FOUND", "no such element")
        if op in _POINT_OPS and isinstance(value, dict) and "x" in value and "y" in value:
            dx, dy = await self.frame.offset()
            value = {**value, "x": value["x"] + dx, "y": value["y"] + dy}
        return value

    async def content_quads(self, target: Target) -> list[list[float]]:
        """The element's quads in the frame's own viewport (what the frame's ``aimAt``
        takes; the point it answers is moved to the page)."""
        context = await self.frame.context_id()
        found = await self.frame.send(runtime.Evaluate(
            expression=entries.resolve_element(self._local(target)),
            contextId=context))
        object_id = found.result.objectId
        if object_id is None:
            raise AgentError("NODE_NOT_FOUND", "the element is gone", retryable=True)
        try:
            quads: list[list[float]] = (await self.frame.send(
                dom.GetContentQuads(objectId=object_id))).quads
            return quads
        except ProtocolError as exc:
            raise AgentError("NOT_ACTIONABLE", f"the browser has no layout for it ({exc.message})",
                             retryable=True) from None
        finally:
            await self.frame.send(runtime.ReleaseObject(objectId=object_id))

    async def after_input(self, commands: Sequence[Command[Any]]) -> dict[str, Any] | None:
        """Mouse input to the tab (page coordinates), then the frame's interceptor's verdict.

        The browser routes input to an out-of-process frame by where its compositor last drew
        the frame: after a scroll or a layout change (a focused field scrolled into view) that
        picture is a frame behind, and input aimed right goes to the page around the frame. So
        the page first draws two frames (the second after the compositor took the first)."""
        await self.top.evaluate("new Promise(done => requestAnimationFrame(() => "
                                "requestAnimationFrame(() => done(true))))", await_promise=True)
        await self.tab.send_all(*commands)
        try:
            verdict: dict[str, Any] = await self.frame.evaluate(entries.VERDICT,
                                                                await_promise=True)
        except AgentError as exc:
            if exc.code in ("STALE_REF", "NAVIGATION_FAILED"):
                return None  # the input took the frame away: it landed
            raise
        return verdict

    async def evaluate(self, expression: str, *, await_promise: bool = False) -> Any:
        """Evaluate an expression in the frame's agent world."""
        return await self.frame.evaluate(expression, await_promise=await_promise)


async def route_selector(agent: PageAgent, chain: str, crossing: InFrame) -> PageAgent:
    """The agent for a step whose selector ``chain`` goes on inside a cross-origin frame of
    ``agent``'s document (``crossing``: what is left of the chain there, in how many frame
    elements): a ``FrameStepAgent`` resolving the rest in that frame, the first of the frames
    where it matches something (or the first of them, to wait for it there). The frame's
    element is named by the browser (``DOM.describeNode``'s ``frameId``) in the session of the
    document that holds it. NODE_NOT_FOUND (retry) while the frame is not attached yet."""
    top = agent.top if isinstance(agent, FrameStepAgent) else agent
    holder = agent.frame if isinstance(agent, FrameStepAgent) else None
    local = agent.selector if isinstance(agent, FrameStepAgent) and agent.selector else chain
    session = holder.frame.session_id if holder is not None else top.tab.session_id
    tab = top.tab
    await attach_frames(tab)
    state = tab.extension(TabFrames)
    chosen: FrameAgent | None = None
    for index in range(crossing.frames):
        frame_id = await _frame_of_owner(top, holder, local, index)
        frame = next((f for f in tab.frames.values()
                      if f.frame_id == frame_id and f.parent_session == session), None)
        if frame is None:
            continue
        candidate = state.agent(frame)
        if crossing.frames == 1 or await candidate.evaluate(
                entries.which(crossing.rest)):
            chosen = candidate
            break
        chosen = chosen or candidate
    if chosen is None:
        raise AgentError("NODE_NOT_FOUND", f"{crossing.message}, not attached yet",
                         retryable=True)
    return FrameStepAgent(top, chosen, chain=chain, selector=crossing.rest)


async def _frame_of_owner(top: PageAgent, holder: FrameAgent | None, selector: str, index: int
                          ) -> str | None:
    """The frame id of the ``index``-th cross-origin frame element ``selector`` goes on in, in
    the top document (``holder`` None) or in a frame's."""
    expression = entries.frame_owner(selector, index)
    send = top.tab.send if holder is None else holder.send
    try:
        context = await (top.context_id() if holder is None else holder.context_id())
        found = await send(runtime.Evaluate(expression=expression, contextId=context))
        object_id = found.result.objectId
        if object_id is None:
            return None
        try:
            described = await send(dom.DescribeNode(objectId=object_id))
        finally:
            await send(runtime.ReleaseObject(objectId=object_id))
    except ProtocolError:
        return None  # the document went meanwhile: the retry looks again
    frame_id: str | None = described.node.frameId
    return frame_id


# -- the act's delta --------------------------------------------------------------------------
