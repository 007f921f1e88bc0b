"""Out-of-process iframes: their elements get refs, take actions and show up in deltas.

An iframe from another site runs in another renderer (site isolation), out of reach of the
agent in the tab's main frame: ``contentDocument`` is null there, and the agent's walk stops at
the iframe element. Chromium shows each such frame as a target of type ``iframe``; with
``Target.setAutoAttach(flatten=True)`` on the tab's session (and on each frame's, for an iframe
in an iframe) every one gets its own session on the same connection (``Tab.frames``).

Theory of operation:

- **Agents.** The same agent script is installed in each frame's ``cdpseq`` isolated world
  through the frame's session (``FrameAgent``). Its registry numbers the frame's elements
  locally, from 1; a token drawn when it starts names that agent instance (that document).
- **Refs.** A client sees one numbering per tab: the top agent *adopts* each (frame, token,
  local ref) and gives it the next number of the tab's counter (``adopt()`` in
  js/agent/frames.js), so numbers stay unique and covered by the tab's ref floor. The table
  lives in the top agent's shared world, so a ref read by one process can be used by another
  (``locate`` asks it for a number this process does not know). A frame that loaded another
  document has another token: its old refs are STALE_REF; a frame that is gone (removed, or its
  session ended) likewise.
- **Views.** A read of the page appends, after the main document's lines, one section per
  frame (``Frame: "title" url``), nested frames after their parent, with the frame's elements
  renumbered to the tab's refs.
- **Actions.** A step whose target is a frame's ref runs with a ``FrameStepAgent``: the agent
  operations (aim, fill, focus, check, ...) run in the frame's agent on the local ref, and the
  points it answers are moved into the top page's viewport by the frame's offset (the content
  box of its iframe element in its parent, measured by the browser, summed up the chain). Mouse
  input goes to the tab's session with page coordinates, keys to the tab too: Chromium routes
  both to the frame under the point or holding focus (measured on Chromium 156: the quads of
  an element asked through the frame's session are in the frame's own viewport).
- **Selectors.** A chain like ``iframe#pay >> button`` is resolved by the top agent up to the
  iframe element; the agent cannot look inside (another process), so it answers what is left
  of the chain (``InFrame``), the step's retry loop asks the browser which frame that iframe
  element holds (``DOM.describeNode``) and runs the rest in that frame's agent
  (``route_selector``): the same ``FrameStepAgent``, with the rest of the chain as its
  target, and again for a frame inside that frame. Only a chain that matches nothing in the
  document itself goes on in a frame, so a plain click or fill pays nothing for it.
- **Deltas.** Each frame's agent is armed with the act and asked for its delta at the end; its
  items are merged into the act's, renumbered. A frame that appeared during the act is reported
  as one appeared item with its first controls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ..browser import FrameTarget, Tab
from ..cdp import dom, page, runtime, target
from ..errors import CdpseqError, ProtocolError
from ..escaping import whole_json
from ..wire.protocol import Command
from . import entries
from .agent import PageAgent
from .answers import (
    AgentError,
    ContextGone,
    Settling,
    WaitOutcome,
    answered,
    decode,
    is_context_gone,
)
from .script import AGENT_SCRIPT
from .view import PageElement, Snapshot, build_view, decode_read_head, element_line, quote

WORLD_NAME = "cdpseq"
MAX_DEPTH = 4
"""How deep iframes in iframes are attached (each level is one more setAutoAttach)."""
CONTROLS_OF_NEW_FRAME = 8


class FrameRef(msgspec.Struct, frozen=True):
    """Where a tab-wide ref number lives: the frame, its agent instance, the local ref."""

    frame: str
    token: str
    local: int


class FrameAgent:
    """The agent in one out-of-process iframe's document, through the frame's session."""

    def __init__(self, tab: Tab, frame: FrameTarget) -> None:
        self.tab = tab
        self.frame = frame
        self._context: int | None = None
        self.token = ""

    @property
    def gone(self) -> bool:
        """Whether the frame left the page (or was attached anew) since this agent."""
        return self.tab.frames.get(self.frame.session_id) is not self.frame

    async def send(self, command: Command[Any]) -> Any:
        """A command on the frame's own session."""
        return await self.tab.connection.send(command, session_id=self.frame.session_id)

    async def context_id(self) -> int:
        """The frame's isolated world, made (and the agent installed) on first use."""
        if self.gone:
            raise AgentError("STALE_REF", "its frame was removed from the page")
        if self._context is None:
            world = await self.send(page.CreateIsolatedWorld(
                frameId=self.frame.frame_id, worldName=WORLD_NAME, grantUniveralAccess=True))
            context = world.executionContextId
            await self._evaluate_in(context, AGENT_SCRIPT)
            self.token = await self._evaluate_in(context, entries.init_frame())
            self._context = context
        return self._context

    async def _evaluate_in(self, context: int, expression: str, await_promise: bool = False
                           ) -> Any:
        return answered(await self.send(runtime.Evaluate(
            expression=expression, contextId=context, returnByValue=True,
            awaitPromise=await_promise)), "in-frame agent")

    async def evaluate(self, expression: str, *, await_promise: bool = False) -> Any:
        """Run ``expression`` in the frame's agent; a new document gets the agent again."""
        for _ in range(3):
            context = await self.context_id()
            try:
                return await self._evaluate_in(context, expression, await_promise)
            except ContextGone:
                pass
            except ProtocolError as exc:
                if self.gone:
                    raise AgentError("STALE_REF", "its frame was removed from the page") from None
                if not is_context_gone(exc.message):
                    raise
            self._context = None
        raise AgentError("NAVIGATION_FAILED", "the frame kept navigating while cdpseq read it",
                         retryable=True)

    async def read(self, filter: str) -> Snapshot:
        """A full read of the frame's document, as the agent's rows."""
        text = await self.evaluate(entries.read({"filter": filter}))
        head, *rows = whole_json(text).split("\n")  # a lone surrogate as its escape
        return Snapshot(decode_read_head(head), rows)

    async def offset(self) -> tuple[float, float]:
        """Where the frame's viewport starts in the top page's viewport: the content box of its
        iframe element, scrolled into view first, plus its parent frame's offset."""
        x = y = 0.0
        frame: FrameTarget | None = self.frame
        while frame is not None:
            parent = frame.parent_session
            try:
                owner = await self.tab.connection.send(
                    dom.GetFrameOwner(frameId=frame.frame_id), session_id=parent)
                await self.tab.connection.send(dom.ScrollIntoViewIfNeeded(
                    backendNodeId=owner.backendNodeId), session_id=parent)
                box = await self.tab.connection.send(
                    dom.GetBoxModel(backendNodeId=owner.backendNodeId), session_id=parent)
            except ProtocolError as exc:
                raise AgentError("NOT_ACTIONABLE", "the browser has no layout for its iframe "
                                 f"({exc.message})", retryable=True) from None
            x, y = x + box.model.content[0], y + box.model.content[1]
            frame = self.tab.frames.get(parent)
        return x, y


class TabFrames:
    """A tab's frame state, kept by ``tab.extension(TabFrames)``."""

    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self.auto_attached: set[str] = set()
        self.agents: dict[str, FrameAgent] = {}
        self.remote: dict[int, FrameRef] = {}
        self.numbers: dict[tuple[str, str, int], int] = {}
        """The same, the other way: (frame, token, local ref) -> tab-wide number."""
        self.document: str | None = None
        """The top document ``remote`` was learned in."""
        self.armed: set[str] = set()
        """Frame sessions armed for the current act."""

    def agent(self, frame: FrameTarget) -> FrameAgent:
        """The frame's agent (a new one for a frame that replaced another in its session)."""
        known = self.agents.get(frame.session_id)
        if known is None or known.frame is not frame:
            known = self.agents[frame.session_id] = FrameAgent(self.tab, frame)
        return known

    def known_remote(self) -> dict[int, FrameRef]:
        """The tab-wide refs of frame elements known in this document (cleared on a new one)."""
        if self.document != self.tab.loader_id:
            self.remote, self.numbers, self.document = {}, {}, self.tab.loader_id
        return self.remote

    def forget_gone(self) -> None:
        """Drop the agents and attachments of frames whose sessions ended."""
        for session_id in [s for s in self.agents if s not in self.tab.frames]:
            del self.agents[session_id]
        self.auto_attached &= {self.tab.session_id, *self.tab.frames}


async def attach_frames(tab: Tab) -> list[FrameAgent]:
    """Make sure every out-of-process iframe of the tab is attached (auto-attach on the tab's
    session, then on each frame's for the frames inside it), and return their agents, each
    frame right before the frames inside it."""
    state = tab.extension(TabFrames)
    state.forget_gone()
    for _ in range(MAX_DEPTH + 1):
        pending = [s for s in (tab.session_id, *tab.frames) if s not in state.auto_attached]
        if not pending:
            break
        for session_id in pending:
            state.auto_attached.add(session_id)
            try:  # Chromium reports the iframes already there before it answers
                await tab.connection.send(target.SetAutoAttach(
                    autoAttach=True, waitForDebuggerOnStart=False, flatten=True),
                    session_id=session_id)
            except CdpseqError:
                pass  # the frame went away meanwhile
    ordered: list[FrameAgent] = []

    def visit(parent: str, depth: int) -> None:
        for frame in list(tab.frames.values()):
            if frame.parent_session == parent and depth < MAX_DEPTH:
                ordered.append(state.agent(frame))
                visit(frame.session_id, depth + 1)

    visit(tab.session_id, 0)
    return ordered


async def adopt(top: PageAgent, frame: FrameAgent, locals: Sequence[int]) -> list[int]:
    """The tab-wide numbers of a frame's local refs (the same number for the same element)."""
    state = top.tab.extension(TabFrames)
    remote = state.known_remote()
    key = (frame.frame.frame_id, frame.token)
    new = [local for local in dict.fromkeys(locals) if (*key, local) not in state.numbers]
    if new:  # a round trip only for elements this process has not seen numbered
        answer = await top.evaluate(entries.adopt(*key, new))
        await top.note_minted(int(answer["next"]) - 1)
        for number, local in zip(answer["refs"], new, strict=True):
            remote[int(number)] = FrameRef(frame=key[0], token=key[1], local=local)
            state.numbers[(*key, local)] = int(number)
    return [state.numbers[(*key, local)] for local in locals]


# -- reads ----------------------------------------------------------------------------------


class FrameSection(msgspec.Struct):
    """One frame's part of a read: its elements (tab-wide refs) and its text lines."""

    title: str
    url: str
    elements: list[PageElement]
    lines: list[str]


async def read_frames(top: PageAgent, filter: str) -> list[FrameSection]:
    """The tab's out-of-process iframes as read sections, in attach order (a frame that went
    away meanwhile is left out)."""
    sections = []
    for frame in await attach_frames(top.tab):
        try:
            snapshot = await frame.read(filter)
        except (AgentError, CdpseqError):
            continue  # removed or navigating: the next read shows what is there then
        sections.append(await _section(top, frame, snapshot))
    return sections


async def _section(top: PageAgent, frame: FrameAgent, snapshot: Snapshot) -> FrameSection:
    view = build_view(snapshot, top.tab.id, {})
    locals = [int(e.ref[4:]) for e in view.elements]
    numbers = dict(zip(locals, await adopt(top, frame, locals), strict=True))
    head = snapshot.head
    lines = [f"Frame: {quote(head.title)} {head.url}"]
    elements = list(view.elements)
    shown = iter(elements)
    pending = next(shown, None)
    for line in view.text.split("\n")[1:]:
        if pending is not None and line.startswith(f"[{pending.ref}] "):
            pending.ref = f"ref_{numbers[int(pending.ref[4:])]}"
            pending.node_id = None  # a node of another renderer: not a node_N of the tab
            line = element_line(pending)
            pending = next(shown, None)
        lines.append(line)
    return FrameSection(title=head.title, url=head.url, elements=elements, lines=lines)


# -- steps ----------------------------------------------------------------------------------


async def arm_frames(tab: Tab) -> None:
    """Open each frame's journal before the act's first step (see ``arm()`` in watch.js)."""
    state = tab.extension(TabFrames)
    state.armed = set()
    for frame in await attach_frames(tab):
        try:
            await frame.evaluate(entries.ARM)
        except (AgentError, CdpseqError):
            continue
        state.armed.add(frame.frame.session_id)


async def frame_changes(top: PageAgent, limit: int) -> dict[str, list[dict[str, Any]]]:
    """What the act changed inside the tab's frames, refs tab-wide: the frames armed with the
    act report their own delta; a frame that came meanwhile is one appeared item."""
    tab = top.tab
    state = tab.extension(TabFrames)
    out: dict[str, list[dict[str, Any]]] = {"appeared": [], "disappeared": [], "changed": []}
    for frame in await attach_frames(tab):
        try:
            if frame.frame.session_id in state.armed:
                delta = await frame.evaluate(entries.delta(limit))
                for key in out:
                    out[key] += [await _renumbered(top, frame, item) for item in delta[key]]
            else:
                out["appeared"].append(await _new_frame(top, frame))
        except (AgentError, CdpseqError):
            continue  # gone meanwhile: its iframe element's removal is in the main delta
    state.armed = set()
    return out


async def _renumbered(top: PageAgent, frame: FrameAgent, item: dict[str, Any]
                      ) -> dict[str, Any]:
    item = dict(item)
    if "ref" in item:
        item["ref"] = (await adopt(top, frame, [int(item["ref"])]))[0]
    if "controls" in item:
        item["controls"] = [await _renumbered(top, frame, c) for c in item["controls"]]
    return item


async def _new_frame(top: PageAgent, frame: FrameAgent) -> dict[str, Any]:
    section = await _section(top, frame, await frame.read("interactive"))
    controls = [{"ref": int(e.ref[4:]), "role": e.role, **({"name": e.name} if e.name else {})}
                for e in section.elements[:CONTROLS_OF_NEW_FRAME]]
    return {"role": "frame", "name": section.title, "url": section.url,
            "size": f"{len(section.elements)} controls", "controls": controls}


async def frames_quiet(tab: Tab) -> tuple[float, str | None] | None:
    """How long the DOM of every frame has been quiet (the least of them, in seconds) and a
    loading indicator visible in one, for the settle probe; None without frames."""
    if not tab.frames:
        return None
    quiet: float | None = None
    spinner: str | None = None
    for frame in await attach_frames(tab):
        try:
            state = decode(await frame.evaluate(entries.PROBE), Settling)
        except (AgentError, CdpseqError):
            continue  # gone or navigating: the network and frame events say so
        quiet_for = state.quiet_ms / 1000
        quiet = min(quiet, quiet_for) if quiet is not None else quiet_for
        spinner = spinner or state.spinner
    return None if quiet is None else (quiet, spinner)


# -- wait_for -------------------------------------------------------------------------------


async def text_condition_holds(top: PageAgent, condition: dict[str, Any], in_main: bool
                               ) -> bool:
    """Whether a wait_for text condition holds on the whole page, given whether it holds in the
    main document: ``text`` shown in it or in any frame, ``textGone`` in none of them."""
    want_all = "textGone" in condition
    if in_main != want_all:
        return in_main  # text already found, or text still in the main document
    for frame in await attach_frames(top.tab):
        try:
            outcome = decode(await frame.evaluate(entries.wait_for(condition, 0),
                                                  await_promise=True), WaitOutcome)
        except (AgentError, CdpseqError):
            continue  # gone: nothing of it is shown any more
        if outcome.matched != want_all:
            return not want_all
    return want_all
