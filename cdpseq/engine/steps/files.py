"""upload and clear: files into an <input type=file>, and emptying a field as a user does.

An upload names local files; they are checked before the first step runs
(``engine/preflight``: each must be a readable regular file, else ``INVALID_REQUEST`` naming
``steps[i].files[j]``), so a typo never leaves a sequence half done. The browser reads the files
itself (``DOM.setFileInputFiles``), from its own file system: for a browser on another machine
the paths must exist there too. The agent finds the file input (js/agent/files.js), the browser
sets the files and fires input and change, and the agent checks that the input holds them. A
target with no file input of its own (a button whose script opens one that lives elsewhere) is
clicked with the browser's file chooser intercepted, and the files go to the input it opened.
A form field (a text input, a textarea, a select) opens no chooser: it is refused at once
(``NOT_EDITABLE``), neither clicked nor waited on.
"""

from __future__ import annotations

import os
from typing import Any

import trio

from ...cdp import dom, page, runtime
from ...page.agent import AgentError
from ...page.targets import PAGE, Node, Target, describe
from ..request import Clear, Upload
from .context import (
    REPORT_MARGIN,
    StepContext,
    StepError,
    required_target,
    until_ready,
)
from .pointer import click_events, pointer_action
from .text import put_text

# How long turning the file chooser's interception off may take, even when the step was cut.
_RESTORE_WAIT = 2.0


def _absolute(paths: list[str]) -> list[str]:
    """The paths made absolute against the working directory, as the browser needs them."""
    return [os.path.abspath(path) for path in paths]


async def upload(ctx: StepContext, step: Upload) -> Any:
    """Give a file input (or the one its file chooser opens for) the files; verified held."""
    target = required_target(step)
    paths = _absolute(step.files)
    prepared = await until_ready(ctx, target, "prepareUpload", {"count": len(paths)})
    if "chooser" in prepared:  # no file input there: a button whose script opens one elsewhere
        return await _upload_through_chooser(
            ctx, target, paths, f"{describe(target)}: {prepared['chooser']}")
    object_id = await ctx.agent.pending_upload()
    if object_id is None:
        raise StepError("NAVIGATION_FAILED", f"{describe(target)}: the page changed before "
                        "the files were set", retryable=True)
    try:
        await ctx.tab.send(dom.SetFileInputFiles(files=paths, objectId=object_id))
    finally:
        await ctx.tab.send(runtime.ReleaseObject(objectId=object_id))
    return await _outcome(ctx, target, paths)


async def _upload_through_chooser(ctx: StepContext, target: Target, paths: list[str],
                                  refusal: str) -> Any:
    """Click the target with the browser's file chooser intercepted, and give the files to
    the input the chooser opened for (what a user picking in the dialog does)."""
    chooser: page.FileChooserOpened | None = None
    async with ctx.tab.subscribe(page.FileChooserOpened) as opened:
        await ctx.tab.send(page.SetInterceptFileChooserDialog(enabled=True))
        try:
            await pointer_action(ctx, target, "click", click_events)
            with trio.move_on_at(ctx.deadline - REPORT_MARGIN):
                async for event in opened:
                    chooser = event
                    break
        finally:
            with trio.CancelScope(shield=True), trio.move_on_after(_RESTORE_WAIT):
                await ctx.tab.send(page.SetInterceptFileChooserDialog(enabled=False))
    if chooser is None or chooser.backendNodeId is None:
        raise StepError("NOT_EDITABLE", f"{refusal}; clicking it opened no file chooser")
    node = Node(chooser.backendNodeId)
    if "chooser" in await until_ready(ctx, node, "prepareUpload", {"count": len(paths)}):
        raise StepError("NOT_EDITABLE", f"{refusal}; the file chooser it opened is for no "
                        "file input")
    await ctx.tab.send(dom.SetFileInputFiles(files=paths, backendNodeId=chooser.backendNodeId))
    return await _outcome(ctx, target, paths)


async def _outcome(ctx: StepContext, target: Target, paths: list[str]) -> Any:
    """The step's output once the files were set: the input must hold them."""
    names = [os.path.basename(path) for path in paths]
    try:
        done = await ctx.agent.call("uploadOutcome", PAGE, {"names": names})
    except AgentError as exc:
        raise StepError(exc.code, f"{describe(target)}: {exc.message}") from None
    return {"files": done["files"]}


async def clear(ctx: StepContext, step: Clear) -> Any:
    """Empty a field: fill's machinery with the empty value."""
    await put_text(ctx, required_target(step), "", op="clear")
    return None
