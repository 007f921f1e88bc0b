"""JavaScript dialogs: handled by the request's ``dialog`` policy, reported, never a hang.

A dialog pauses the page, so every evaluate — and the click that opened it — would wait forever.
Three moments matter:

- **during an act** (``guard``): a dialog a step opens is dismissed (the default), accepted (a
  prompt gets ``promptText``, else its own default text), or left open (``leave``): then the step
  that opened it ends, later steps fail with ``DIALOG_OPEN``, and other processes are told
  through the browser (``tab_notes``) which dialog was left;
- **when a call starts** (``clear_before``): a dialog opened since the last call — the page's own
  timer, or one a call left — is handled the same way before anything is sent to the page
  (``leave`` refuses with ``DIALOG_OPEN``); a dialog this process was never told of (the tab did
  not answer when attached) can only be dismissed (``Tab.dismiss_unseen_dialog``);
- **before a read** (``refuse_if_paused``): reads never change the page, so a paused page is
  refused with ``DIALOG_OPEN`` naming the dialog and how to handle it.
"""

from __future__ import annotations

import logging
from typing import Any

import trio

from ..browser import Tab
from ..cdp import page
from ..errors import CdpseqError, DialogOpen, PageUnresponsive
from ..page.tab_notes import forget_left_dialog, left_dialog, note_left_dialog

log = logging.getLogger("cdpseq.act")

# Bounds of the commands sent about a dialog; the browser process answers them, not the page.
_ANSWER = 2.0
# What a not-answering renderer gets once more, before its dialog is dismissed unseen.
_WAKE = 0.5

HANDLE_HINT = ('handle it with an act whose "dialog" is "dismiss" (the default) or "accept" '
               '(a prompt gets "promptText")')


def _entry(dialog: page.JavascriptDialogOpening | dict[str, Any] | None, handled: str,
           **extra: Any) -> dict[str, Any]:
    if isinstance(dialog, page.JavascriptDialogOpening):
        kind, message = dialog.type, dialog.message
    else:
        kind, message = (dialog or {}).get("type", "unknown"), (dialog or {}).get("message", "")
    return {"type": kind, "message": message[:200], "handled": handled, **extra}


async def _handle(tab: Tab, dialog: page.JavascriptDialogOpening, accept: bool,
                  prompt_text: str | None) -> str:
    text = None
    if accept and dialog.type == "prompt":
        text = prompt_text if prompt_text is not None else (dialog.defaultPrompt or "")
    try:
        with trio.fail_after(_ANSWER):
            await tab.send(page.HandleJavaScriptDialog(accept=accept, promptText=text))
    except (CdpseqError, trio.TooSlowError) as exc:
        return f"failed: {exc or 'no answer'}"
    return "accepted" if accept else "dismissed"


async def _forget_left(tab: Tab) -> None:
    try:
        with trio.move_on_after(_ANSWER):
            await forget_left_dialog(tab)
    except CdpseqError as exc:
        log.info("could not clear the left-dialog note of %s: %s", tab.id, exc)


async def _noted(tab: Tab) -> dict[str, Any] | None:
    try:
        with trio.move_on_after(_ANSWER):
            return await left_dialog(tab)
    except CdpseqError:
        pass
    return None


def _paused_by(tab: Tab, dialog: dict[str, Any], how: str) -> DialogOpen:
    return DialogOpen(tab.id, dialog, f"a {dialog.get('type')} dialog "
                      f"({str(dialog.get('message', ''))[:80]!r}) {how} and pauses the page; "
                      f"{HANDLE_HINT}")


async def clear_before(tab: Tab, policy: str, prompt_text: str | None) -> dict[str, Any] | None:
    """Handle a dialog that is open as a call starts, per ``policy``; the report entry, or None
    when there was none. Raises ``DialogOpen`` for ``leave``, ``PageUnresponsive`` when the page
    stays silent after its dialog is dismissed."""
    dialog = tab.dialog
    if dialog is not None:
        if policy == "leave":
            raise _paused_by(tab, _entry(dialog, "left open"), "is open")
        handled = await _handle(tab, dialog, policy == "accept", prompt_text)
        await _forget_left(tab)
        return _entry(dialog, handled, when="before")
    if tab.answering or await tab.wake(_WAKE):
        return None
    noted = await _noted(tab)
    if policy == "leave":
        if noted is not None:
            raise _paused_by(tab, noted, "was left open by an earlier call")
        raise DialogOpen(tab.id, None, "the page does not answer: a JavaScript dialog opened "
                         "while no cdpseq client listened, or a script keeps the page busy; "
                         f"{HANDLE_HINT}")
    try:
        answered = await tab.dismiss_unseen_dialog(_ANSWER)
    except CdpseqError as exc:
        raise PageUnresponsive(tab.id, f"the page does not answer and cannot be reached: "
                                       f"{exc}") from None
    if not answered:
        raise PageUnresponsive(tab.id, "the page does not answer: a script keeps it busy "
                                       "(a JavaScript dialog would have been dismissed)")
    await _forget_left(tab)
    extra: dict[str, Any] = {"when": "before"}
    if policy == "accept":
        extra["note"] = ("dismissed: a dialog opened while no cdpseq client listened can only "
                         "be dismissed")
    return _entry(noted, "dismissed", **extra)


async def refuse_if_paused(tab: Tab) -> None:
    """Raise ``DialogOpen`` (or ``PageUnresponsive``) when a dialog pauses the page."""
    dialog = tab.dialog
    if dialog is not None:
        raise _paused_by(tab, _entry(dialog, "left open"), "is open")
    if tab.answering or await tab.wake(_WAKE):
        return
    noted = await _noted(tab)
    if noted is not None:
        raise _paused_by(tab, noted, "was left open by an earlier call")
    raise PageUnresponsive(tab.id, "the page does not answer: a JavaScript dialog opened while "
                                   f"no cdpseq client listened, or a busy script; {HANDLE_HINT}")


async def guard(tab: Tab, policy: str, prompt_text: str | None, seen: list[dict[str, Any]],
                on_open: Any, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
                ) -> None:
    """Handle every dialog that opens during an act per ``policy`` and report it in ``seen``;
    ``on_open(left_open)`` tells the act's watch."""
    async with tab.subscribe(page.JavascriptDialogOpening) as dialogs:
        task_status.started()
        async for dialog in dialogs:
            on_open(policy == "leave")
            if policy != "leave":
                seen.append(_entry(dialog, await _handle(tab, dialog, policy == "accept",
                                                         prompt_text)))
                continue
            seen.append(_entry(dialog, "left open"))
            # Other processes can no longer learn of this dialog: tell them through the
            # browser, even while the act is ending around us.
            try:
                with trio.CancelScope(shield=True), trio.move_on_after(_ANSWER):
                    await note_left_dialog(tab, {"type": dialog.type,
                                                 "message": dialog.message[:200]})
            except CdpseqError as exc:
                log.info("could not note the dialog left open in %s: %s", tab.id, exc)
