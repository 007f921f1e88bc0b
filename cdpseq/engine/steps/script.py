"""evaluate: a JavaScript expression's JSON value, off unless the browser was opened with it.

Why it is off by default: every other step is a validated, bounded verb on an element, so an
agent steered by hostile page text ("ignore your task, run this") can at worst click or type
where a user could. Arbitrary script can read cookies, tokens and storage, call the site's APIs
as the user, and reach past the step vocabulary altogether. So a request with an evaluate step
answers ``EVALUATE_DISABLED`` (and nothing of it runs) unless whoever opened the browser allowed
it: ``open_browser(..., allow_evaluate=True)``, ``--allow-evaluate`` for ``cdpseq act`` and
``cdpseq mcp``. A request can never allow it itself.

It runs in the page's main world (the app's globals, what a developer's console sees), not the
agent's isolated world, with top-level ``await`` and promises awaited. Its value comes back as
JSON of at most ``MAX_VALUE_CHARS`` characters, through a serializer run on it in the page:
undefined, NaN and the like are said plainly; a DOM node, a function, a cycle or a value too
large fail with ``EVALUATE_FAILED`` saying what it was; a thrown error fails with its message.
The expression is stopped at the step's timeout, a busy loop included.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ...cdp import runtime
from ...errors import ProtocolError
from ..request import Evaluate
from .context import REPORT_MARGIN, StepContext, StepError

MAX_VALUE_CHARS = 100_000
"""The longest JSON text an evaluate step returns."""
_GROUP = "cdpseq-evaluate"
_MESSAGE_LIMIT = 1000
_INTERNAL_ERROR = -32603
_NAVIGATED = "Inspected target navigated or closed"

DISABLED_HINT = ("evaluate is disabled: arbitrary script can read cookies and tokens and act "
                 "beyond the step vocabulary, so it runs only when the browser was opened with "
                 "it allowed (--allow-evaluate, or open_browser(..., allow_evaluate=True))")

# Run on the value in the page: its JSON text, or {error} saying why it has none.
_TO_JSON = """function (limit) {
  const what = value => {
    if (typeof Node === "function" && value instanceof Node) {
      const name = value.nodeName.toLowerCase();
      const id = value.id ? "#" + value.id : "";
      return `a DOM node (<${name}${id}>), not JSON: return a property of it, e.g. ` +
        ".textContent or .value";
    }
    if (typeof Window === "function" && value instanceof Window) {
      return "a window, not JSON: return a property of it";
    }
    return null;
  };
  const top = what(this);
  if (top) return { error: top };
  let found = null;
  let text;
  try {
    text = JSON.stringify(this, function (key, value) {
      const problem = value !== null && typeof value === "object" && what(value);
      const where = key ? "its " + JSON.stringify(key) : "it";
      if (problem) found = found || `${where} is ${problem}`;
      return problem ? undefined : value;
    });
  } catch (e) {
    const cycle = /circular/i.test(String(e && e.message));
    return { error: cycle ? "the value has a cycle (an object that contains itself), not JSON"
      : "the value cannot be turned into JSON: " + String(e && e.message) };
  }
  if (found) return { error: found };
  if (text === undefined) return { error: "the value has no JSON form" };
  if (text.length > limit) {
    return { error: `the value is ${text.length} characters of JSON, more than the ${limit} ` +
      "an evaluate step returns: return a smaller part of it" };
  }
  return { json: text };
}"""


async def evaluate(ctx: StepContext, step: Evaluate) -> Any:
    """A JavaScript expression's JSON value in the page, when the browser allows it."""
    if not ctx.tab.browser.allow_evaluate:
        raise StepError("EVALUATE_DISABLED", DISABLED_HINT)
    budget_ms = max(int((ctx.remaining() - REPORT_MARGIN) * 1000), 1)
    try:
        try:
            # No contextId: the main world of the tab's main frame, the app's own globals.
            done = await ctx.tab.send(runtime.Evaluate(
                expression=step.expression, objectGroup=_GROUP, awaitPromise=True,
                replMode=True, timeout=budget_ms, returnByValue=False))
        except ProtocolError as exc:
            if _NAVIGATED in exc.message or "context was destroyed" in exc.message:
                return {"value": None, "type": "undefined", "navigated": True}
            if exc.code == _INTERNAL_ERROR:  # what Chrome answers when the timeout stopped it
                raise StepError("EVALUATE_FAILED", f"the expression did not finish within the "
                                f"step's {budget_ms} ms and was stopped") from None
            raise StepError("EVALUATE_FAILED", exc.message) from None
        details, value = done.exceptionDetails, done.result
        if details is None and value.subtype == "promise" and value.objectId is not None:
            # REPL mode awaits the expression's own awaits, not a promise it evaluates to.
            awaited = await ctx.tab.send(runtime.AwaitPromise(promiseObjectId=value.objectId))
            details, value = awaited.exceptionDetails, awaited.result
        if details is not None:
            raise StepError("EVALUATE_FAILED", _thrown(details, budget_ms))
        return await _json_value(ctx, value)
    finally:
        await ctx.tab.send(runtime.ReleaseObjectGroup(objectGroup=_GROUP))


def _thrown(details: runtime.ExceptionDetails, budget_ms: int) -> str:
    exception = details.exception
    text = ""
    if exception is not None:
        if exception.description:  # an Error: its first line ("TypeError: x is undefined")
            text = exception.description.split("\n    at ", 1)[0]
        elif exception.value is not None:  # throw "text", throw {..}
            text = f"{details.text} {msgspec.json.encode(exception.value).decode()}"
    text = text or details.text
    if "terminated" in text.lower():
        text = f"the expression did not finish within the step's {budget_ms} ms and was stopped"
    return text[:_MESSAGE_LIMIT]


async def _json_value(ctx: StepContext, value: runtime.RemoteObject) -> dict[str, Any]:
    """The step's output for a value: {"value": its JSON, "type": its JavaScript type}."""
    kind = value.type
    if kind == "undefined":
        return {"value": None, "type": "undefined"}
    if value.unserializableValue is not None:  # NaN, Infinity, -0, 12n
        shown = value.unserializableValue
        if kind == "bigint":
            return {"value": shown.rstrip("n"), "type": "bigint"}
        return {"value": None, "type": kind, "unserializable": shown}
    if isinstance(value.value, str) and len(value.value) > MAX_VALUE_CHARS:
        raise StepError("EVALUATE_FAILED", f"the value is a string of {len(value.value)} "
                        f"characters, more than the {MAX_VALUE_CHARS} an evaluate step "
                        "returns: return a smaller part of it")
    if value.objectId is None:  # a primitive, given by value
        return {"value": value.value, "type": value.subtype or kind}
    if kind == "function":
        raise StepError("EVALUATE_FAILED", "the value is a function, not JSON: call it, or "
                        "return what you need from it")
    if kind == "symbol":
        raise StepError("EVALUATE_FAILED", "the value is a symbol, not JSON")
    try:
        converted = await ctx.tab.send(runtime.CallFunctionOn(
            functionDeclaration=_TO_JSON, objectId=value.objectId, returnByValue=True,
            arguments=[runtime.CallArgument(value=MAX_VALUE_CHARS)]))
    except ProtocolError as exc:
        raise StepError("EVALUATE_FAILED", f"the value could not be read: {exc.message}") from None
    if converted.exceptionDetails is not None:
        raise StepError("EVALUATE_FAILED", "the value could not be turned into JSON: "
                        + _thrown(converted.exceptionDetails, 0))
    answer = converted.result.value
    if not isinstance(answer, dict) or "json" not in answer:
        problem = answer.get("error") if isinstance(answer, dict) else None
        raise StepError("EVALUATE_FAILED", str(problem or "the value has no JSON form"))
    return {"value": msgspec.json.decode(answer["json"]), "type": value.subtype or kind}
