"""upload and clear: files into an <input type=file>, and emptying a field as a user does.

An upload names local files; they are checked before the first step runs
(``check_upload_files``: each must be a readable regular file, else ``INVALID_REQUEST`` naming
``steps[i].files[j]``), so a typo never leaves a sequence half done. The browser reads the files
itself (``DOM.setFileInputFiles``), from its own file system: for a browser on another machine
the paths must exist there too. The agent finds the file input (js/agent/files.js), the browser
sets the files and fires input and change, and the agent checks that the input holds them.
"""

from __future__ import annotations

import os
import stat
from typing import Any

from ...cdp import dom, runtime
from ...errors import InvalidRequest
from ...page.agent import AgentError
from ..request import ActRequest, Clear, Upload
from .context import StepContext, StepError, describe, required_target, until_ready
from .text import put_text


def check_upload_files(request: ActRequest) -> None:
    """Raise ``InvalidRequest`` naming the first upload path that is not a readable regular
    file. Runs before anything of the request does."""
    for index, step in enumerate(request.steps):
        if not isinstance(step, Upload):
            continue
        for number, path in enumerate(step.files):
            problem = _file_problem(path)
            if problem is not None:
                raise InvalidRequest(f"steps[{index}].files[{number}]", f"{path!r}: {problem}",
                                     index=index, step_type="upload",
                                     total_steps=len(request.steps))


def _file_problem(path: str) -> str | None:
    """Why ``path`` cannot be uploaded, or None."""
    if "\0" in path:
        return "a path cannot contain a NUL character"
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"cannot read it ({exc.strerror})"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file (a directory, device or pipe)"
    if not os.access(path, os.R_OK):
        return "not readable (permission denied)"
    return None


def _absolute(paths: list[str]) -> list[str]:
    """The paths made absolute against the working directory, as the browser needs them."""
    return [os.path.abspath(path) for path in paths]


async def upload(ctx: StepContext, step: Upload) -> Any:
    target = required_target(step)
    paths = _absolute(step.files)
    await until_ready(ctx, target, "prepareUpload", {"count": len(paths)})
    context = await ctx.agent.context_id()
    pending = await ctx.tab.send(runtime.Evaluate(
        expression='__cdpseq.call("pendingUpload", {"page": true}, {})', contextId=context))
    object_id = pending.result.objectId
    if object_id is None:
        raise StepError("NAVIGATION_FAILED", f"{describe(target)}: the page changed before "
                        "the files were set", retryable=True)
    try:
        await ctx.tab.send(dom.SetFileInputFiles(files=paths, objectId=object_id))
    finally:
        await ctx.tab.send(runtime.ReleaseObject(objectId=object_id))
    names = [os.path.basename(path) for path in paths]
    try:
        done = await ctx.agent.call("uploadOutcome", {"page": True}, {"names": names})
    except AgentError as exc:
        raise StepError(exc.code, f"{describe(target)}: {exc.reason}") from None
    return {"files": done["files"]}


async def clear(ctx: StepContext, step: Clear) -> Any:
    await put_text(ctx, required_target(step), "", op="clear")
    return None
