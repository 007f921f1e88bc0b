"""Every check of a valid request before its step 0: a request that fails one runs nothing.

``refusal`` runs the checks that need no page, in this order: the credentials exist (in the
secrets given, else ``$CDPSEQ_SECRET_<NAME>``), the upload files are readable regular files, the
``tabId`` names the tab acted in (``INVALID_REQUEST`` naming the field), no navigate step goes
where the browser's URL policy refuses (``URL_BLOCKED``), and no evaluate step runs in a browser
that was not opened with evaluation allowed (``EVALUATE_DISABLED``). ``SelectorCheck`` is the one
check that needs the page: its own parser judges the selectors, in the settle watch's first
round trip (or one of its own), before step 0. Each answers the one "nothing ran" result
(``result.nothing_ran``) naming the step.
"""

from __future__ import annotations

import logging
import os
import stat

from ..browser import Tab
from ..errors import CdpseqError, InvalidRequest
from ..page import entries
from ..page.agent import AgentError, PageAgent
from .request import ActRequest, Evaluate, Fill, Navigate, Upload, step_type
from .result import ActResult, StepFailure, invalid_result, nothing_ran
from .secrets import SECRET_ENV_PREFIX, Secrets
from .shown import show_value
from .steps.script import DISABLED_HINT

log = logging.getLogger("cdpseq.act")


def refusal(tab: Tab, request: ActRequest, secrets: Secrets) -> ActResult | None:
    """The result of ``request`` on ``tab`` when a check before step 0 refuses it, else None."""
    try:
        _check_credentials(request, secrets)
        _check_upload_files(request)
        if request.tab_id is not None and request.tab_id != tab.id:
            raise InvalidRequest("tabId", f"names tab {show_value(request.tab_id)}, but act "
                                          f"was given tab {tab.id!r}",
                                 total_steps=len(request.steps))
    except InvalidRequest as exc:
        return invalid_result(exc, request)
    for index, step in enumerate(request.steps):
        if isinstance(step, Navigate) and (reason := tab.browser.policy.check(step.url)):
            return nothing_ran(request, StepFailure(
                index=index, type="navigate", code="URL_BLOCKED", retryable=False,
                error=f"steps[{index}].url: {step.url} is blocked: {reason}; nothing ran"))
    if not tab.browser.allow_evaluate:
        for index, step in enumerate(request.steps):
            if isinstance(step, Evaluate):
                return nothing_ran(request, StepFailure(
                    index=index, type="evaluate", code="EVALUATE_DISABLED", retryable=False,
                    error=f"steps[{index}]: {DISABLED_HINT}; nothing ran"))
    return None


def _check_credentials(request: ActRequest, secrets: Secrets) -> None:
    for index, step in enumerate(request.steps):
        if isinstance(step, Fill) and step.credential_ref is not None:
            if secrets.lookup(step.credential_ref) is None:
                raise InvalidRequest(
                    f"steps[{index}].credentialRef",
                    f"no secret named {step.credential_ref!r}: set "
                    f"{SECRET_ENV_PREFIX}{step.credential_ref.upper()} or pass it in secrets",
                    index=index, step_type="fill", total_steps=len(request.steps))


def _check_upload_files(request: ActRequest) -> None:
    """Raise ``InvalidRequest`` naming the first upload path that is not a readable regular
    file, so that a typo never leaves a sequence half done."""
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


class SelectorCheck:
    """The request's selectors (a step's ``selector``, an ``if``'s ``selector``), judged by the
    page's own parser before step 0: a selector is part of the request, so one the page
    refuses makes the request invalid and nothing runs."""

    def __init__(self, request: ActRequest) -> None:
        self.request = request
        self.given: list[tuple[int, str, str]] = [
            (i, selector, "selector") for i, step in enumerate(request.steps)
            if (selector := getattr(step, "selector", None)) is not None]
        """(step index, selector, field) of every selector of the request."""
        self.given += [(i, step.when.selector, "if.selector")
                       for i, step in enumerate(request.steps)
                       if step.when is not None and step.when.selector is not None]
        self.expression: str | None = None
        """The agent's expression that checks the selectors (None when there are none), for
        the watch to take along in its first round trip."""
        if self.given:
            self.expression = entries.check_selectors([selector for _, selector, _ in self.given])

    def only_of_step(self, index: int) -> bool:
        """Whether every selector of the request (none, maybe) is step ``index``'s own."""
        return all(step == index and field == "selector" for step, _, field in self.given)

    def refusal(self, problems: list[str | None]) -> ActResult | None:
        """The result for the first selector the page's parser refused (``problems``: its
        answer, one per selector), else None."""
        for (index, selector, field), problem in zip(self.given, problems, strict=True):
            if problem is not None:
                return invalid_result(InvalidRequest(
                    f"steps[{index}].{field}", f"invalid selector {selector!r}: {problem}",
                    index=index, step_type=step_type(self.request.steps[index]),
                    total_steps=len(self.request.steps)), self.request)
        return None

    async def ask(self, agent: PageAgent) -> ActResult | None:
        """``refusal`` in a round trip of its own (when no watch took the check along)."""
        if self.expression is None:
            return None
        try:
            # A crashed renderer never answers (the tab's first navigate gives it a new one):
            # asking it would hold the act until the setup's deadline.
            agent.tab.check_alive()
            problems = await agent.check_selectors([selector for _, selector, _ in self.given])
        except (CdpseqError, AgentError) as exc:  # the page is going away: the steps say so
            log.info("selectors not checked before the run: %s", exc)
            return None
        return self.refusal(problems)
