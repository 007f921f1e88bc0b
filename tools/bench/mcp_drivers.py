"""How tools/bench/mcp_tasks.py drives each MCP server: what a competent model does, in that
server's tools.

Every target is a ref parsed from the server's own answer (a model's view of the page), never
hard-coded. Each server is driven in as few calls as its tools allow, by the same rules: open
the page and read it; send what the model knows next (several fills in one call where a tool
takes several); then look at the page the cheapest way the server offers (cdpseq: the act's
own answer, with a read_page step when the whole page is wanted; Chrome DevTools MCP: the last
action's ``includeSnapshot``; Playwright MCP: ``browser_snapshot``, since its actions link
their snapshot in a file); if the outcome is not there yet, wait for its text with the server's
wait tool and look again. Where a task starts a request, cdpseq's act carries a wait_for step
(one more step, not one more call). Every call's arguments are checked against the tool's
input schema as the server listed it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mcp import ClientSession


class TaskFailed(Exception):
    """A task did not reach its outcome: a call failed, or no answer showed it."""


# ---------------------------------------------------------------------------------------------
# One server's session: every call counted


class Session:
    """An MCP client session that counts the calls and the bytes of their answers, and checks
    every call's arguments against the tool's listed input schema (names as listed)."""

    def __init__(self, session: ClientSession, tools: list[dict[str, Any]]) -> None:
        self._session = session
        self.schemas = {tool["name"]: tool["inputSchema"] for tool in tools}
        self.calls = 0
        self.bytes = 0
        self.text_bytes = 0

    def takes(self, tool: str, argument: str) -> bool:
        return argument in self.schemas.get(tool, {}).get("properties", {})

    async def call(self, tool: str, arguments: dict[str, Any]) -> str:
        schema = self.schemas.get(tool)
        if schema is None:
            raise TaskFailed(f"the server lists no tool {tool!r}")
        unknown = set(arguments) - set(schema.get("properties", {}))
        missing = set(schema.get("required", [])) - set(arguments)
        if unknown or missing:
            raise TaskFailed(f"{tool}: arguments {sorted(unknown)} not listed, "
                             f"{sorted(missing)} missing")
        result = await self._session.call_tool(tool, arguments)
        wire = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        text = "\n".join(block["text"] for block in wire["content"] if block["type"] == "text")
        self.calls += 1
        self.bytes += len(result.model_dump_json(by_alias=True, exclude_none=True).encode())
        self.text_bytes += len(text.encode())
        if wire.get("isError"):
            raise TaskFailed(f"{tool} answered an error: {text[:400]}")
        return text


# ---------------------------------------------------------------------------------------------
# What a model does, in each server's tools


@dataclass(frozen=True)
class Fill:
    ref: str
    label: str
    value: str


@dataclass(frozen=True)
class Enter:
    """Type ``text`` into a field and press Enter."""

    ref: str
    label: str
    text: str


@dataclass(frozen=True)
class Click:
    ref: str
    label: str
    check: bool = False
    """A checkbox to be checked (cdpseq has a step for it; the peers click)."""


Action = Fill | Enter | Click


class Driver:
    """How a model drives one server: open a page, act, look, wait; refs from its answers."""

    REF: re.Pattern[str]
    """A ref in one line of the server's page text."""
    CHECKED: re.Pattern[str]
    """A checkbox line whose state is checked."""

    def __init__(self, session: Session) -> None:
        self.session = session

    async def setup(self) -> None:
        """What a model's session learns once (unmeasured)."""

    async def open(self, url: str) -> str:
        raise NotImplementedError

    async def turn(self, actions: list[Action], *, expect: str, whole_page: bool = False,
                   request: bool = False) -> str:
        """Do ``actions``, then look; wait for ``expect`` if the answer does not show it yet.
        ``request``: the actions start a request (the model knows to wait); ``whole_page``:
        the model wants the whole page, not only what changed."""
        raise NotImplementedError

    def ref(self, text: str, role: str, name: str | None = None) -> str:
        """The ref of the last line of ``text`` that shows an element of ``role`` (and
        ``name``)."""
        for line in reversed(text.splitlines()):
            found = self.REF.search(line)
            if found is None:
                continue
            if name is not None and f'{role} "{name}"' in line:
                return found.group(1)
            if name is None and re.search(rf"(?<![\w-]){role}(?![\w-])", line):
                return found.group(1)
        raise TaskFailed(f"no {role} {name or ''} with a ref in the answer:\n{text[-1500:]}")

    def checkbox_line(self, text: str, item: str) -> str:
        """The line of the checkbox of the list item that reads ``item``: in a tree, the
        nearest checkbox line above the item's text."""
        lines = text.splitlines()
        for index in range(len(lines) - 1, -1, -1):
            if item in lines[index] and "checkbox" not in lines[index]:
                for line in reversed(lines[:index]):
                    if "checkbox" in line and self.REF.search(line):
                        return line
        raise TaskFailed(f"no checkbox for {item!r} in the answer:\n{text[-1500:]}")

    def checkbox(self, text: str, item: str) -> str:
        found = self.REF.search(self.checkbox_line(text, item))
        assert found is not None
        return found.group(1)

    def checked(self, text: str, item: str) -> bool:
        return self.CHECKED.search(self.checkbox_line(text, item)) is not None


class Cdpseq(Driver):
    """cdpseq: ``act`` with every step the model knows, its answer the delta (and the page
    when a read_page step ends it)."""

    REF = re.compile(r"\[(ref_\d+)\]")
    CHECKED = re.compile(r"\bchecked\b(?! false)")

    async def open(self, url: str) -> str:
        return await self.session.call("act", {"steps": [{"type": "navigate", "url": url},
                                                         {"type": "read_page"}]})

    async def turn(self, actions: list[Action], *, expect: str, whole_page: bool = False,
                   request: bool = False) -> str:
        steps: list[dict[str, Any]] = []
        for action in actions:
            if isinstance(action, Fill):
                steps.append({"type": "fill", "target": action.ref, "value": action.value})
            elif isinstance(action, Enter):
                steps += [{"type": "fill", "target": action.ref, "value": action.text},
                          {"type": "press", "target": action.ref, "key": "Enter"}]
            else:
                steps.append({"type": "check" if action.check else "click",
                              "target": action.ref})
        if request:
            steps.append({"type": "wait_for", "text": expect})
        if whole_page:
            steps.append({"type": "read_page", "filter": "all"})
        text = await self.session.call("act", {"steps": steps})
        if expect not in text:
            text = await self.session.call("act", {"steps": [
                {"type": "wait_for", "text": expect}, {"type": "read_page", "filter": "all"}]})
        return text

    def checkbox_line(self, text: str, item: str) -> str:
        for line in reversed(text.splitlines()):
            if "checkbox" in line and f'(item: "{item}")' in line:
                return line
        raise TaskFailed(f"no checkbox for {item!r} in the answer:\n{text[-1500:]}")


class Playwright(Driver):
    """Playwright MCP: one tool per action (``browser_fill_form`` takes several fields); its
    actions write their snapshot to a file and link it, so ``browser_snapshot`` shows the
    page."""

    REF = re.compile(r"\[ref=(\w+)\]")
    CHECKED = re.compile(r"\[checked\]")

    async def open(self, url: str) -> str:
        await self.session.call("browser_navigate", {"url": url})
        return await self.session.call("browser_snapshot", {})

    async def turn(self, actions: list[Action], *, expect: str, whole_page: bool = False,
                   request: bool = False) -> str:
        index = 0
        while index < len(actions):
            action = actions[index]
            if isinstance(action, Fill):
                fills = _run_of(actions, index, Fill)
                await self.session.call("browser_fill_form", {"fields": [
                    {"target": fill.ref, "element": fill.label, "name": fill.label,
                     "type": "textbox", "value": fill.value} for fill in fills]})
                index += len(fills)
                continue
            if isinstance(action, Enter):
                await self.session.call("browser_type", {
                    "target": action.ref, "element": action.label, "text": action.text,
                    "submit": True})
            else:
                await self.session.call("browser_click", {"target": action.ref,
                                                          "element": action.label})
            index += 1
        text = await self.session.call("browser_snapshot", {})
        if expect not in text:
            await self.session.call("browser_wait_for", {"text": expect})
            text = await self.session.call("browser_snapshot", {})
        return text


class DevTools(Driver):
    """Chrome DevTools MCP: one tool per action (``fill_form`` takes several fields,
    ``type_text`` types into the focused field); an action's ``includeSnapshot`` shows the
    page, and ``wait_for`` answers with it."""

    REF = re.compile(r"uid=(\S+)")
    CHECKED = re.compile(r"(?<![\w-])checked(?![\w-])(?!=\"false\")")

    page_id: int | None = None
    focused: str | None = None

    async def setup(self) -> None:
        if self.session.takes("navigate_page", "pageId"):
            pages = await self.session.call("list_pages", {})
            found = re.search(r"^(\d+): .*\[selected\]", pages, re.MULTILINE)
            if found is None:
                raise TaskFailed(f"no selected page in:\n{pages}")
            self.page_id = int(found.group(1))

    def _args(self, tool: str, **arguments: Any) -> dict[str, Any]:
        if self.page_id is not None and self.session.takes(tool, "pageId"):
            arguments["pageId"] = self.page_id
        return arguments

    async def open(self, url: str) -> str:
        self.focused = None
        await self.session.call("navigate_page", self._args("navigate_page", type="url",
                                                            url=url))
        return self._saw(await self.session.call("take_snapshot", self._args("take_snapshot")))

    def _saw(self, text: str) -> str:
        for line in text.splitlines():
            if re.search(r"\bfocused\b", line) and (found := self.REF.search(line)):
                self.focused = found.group(1)
        return text

    async def turn(self, actions: list[Action], *, expect: str, whole_page: bool = False,
                   request: bool = False) -> str:
        calls: list[tuple[str, dict[str, Any]]] = []
        index = 0
        while index < len(actions):
            action = actions[index]
            if isinstance(action, Fill):
                fills = _run_of(actions, index, Fill)
                if len(fills) > 1:
                    calls.append(("fill_form", self._args("fill_form", elements=[
                        {"uid": fill.ref, "value": fill.value} for fill in fills])))
                else:
                    calls.append(("fill", self._args("fill", uid=action.ref,
                                                     value=action.value)))
                self.focused = fills[-1].ref
                index += len(fills)
                continue
            if isinstance(action, Enter):
                if self.focused == action.ref:
                    calls.append(("type_text", self._args("type_text", text=action.text,
                                                          submitKey="Enter")))
                else:
                    calls += [("fill", self._args("fill", uid=action.ref, value=action.text)),
                              ("press_key", self._args("press_key", key="Enter"))]
            else:
                calls.append(("click", self._args("click", uid=action.ref)))
            self.focused = action.ref
            index += 1
        last_tool, last_arguments = calls[-1]
        if self.session.takes(last_tool, "includeSnapshot"):
            last_arguments["includeSnapshot"] = True
        else:
            calls.append(("take_snapshot", self._args("take_snapshot")))
        for tool, arguments in calls:
            text = await self.session.call(tool, arguments)
        if expect not in text:
            text = await self.session.call("wait_for", self._args("wait_for", text=[expect]))
        return self._saw(text)


def _run_of(actions: list[Action], start: int, kind: type) -> list[Any]:
    """The actions of ``kind`` from ``start`` on, up to the first of another kind."""
    run = []
    for action in actions[start:]:
        if not isinstance(action, kind):
            break
        run.append(action)
    return run


DRIVERS: dict[str, type[Driver]] = {
    "cdpseq": Cdpseq, "Playwright MCP": Playwright, "Chrome DevTools MCP": DevTools}
