"""What a model is shown of the MCP tools' arguments, and the tools' slim output schemas.

Theory of operation: every tool call puts the tools' definitions (names, descriptions, input
schemas) in the model's context, so they hold what a model needs to write a call and nothing
more — all three tools together under 8 KB, ``tools/list`` with the output schemas under 12 KB
(``tests/front/test_mcp_schema.py`` holds both). The server does not rely on them: it validates
every call against the full msgspec types (``engine.validate``) and answers INVALID_REQUEST
naming the field, so what is left out here (bounds, patterns, which fields go together) is
still enforced.

- act's steps are ONE object, not msgspec's union of one object per step type: ``type`` an
  enum, then every field of every step type once, as its type or enum only. Which fields go
  with which type is one line of the tool description (:func:`fields_by_type`). Both are
  generated from the step Structs (``engine.request.STEP_CLASSES``), so a step type or field
  added there appears without an edit here.
- Descriptions are :data:`NOTES`, written for a model, and only where a field's name and type
  do not say what to write (``target``: a ref from read_page; ``key``: a chord); the Python
  API's longer field documentation stays in the types and docs/REFERENCE.md.
- ``null`` is left out of every type: leaving a field out says the same.
- Output schemas (:func:`output_schema`) name the top-level fields of the structured content
  and their JSON types, nested objects as plain ``object``/``array``. MCP clients validate
  ``structuredContent`` against them (the official SDKs do) and models are not shown them;
  the full shape is the result types' (``cdpseq schema --result``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from ..engine.request import STEP_CLASSES, ActRequest, object_schema

NOTES: Mapping[str, str] = {
    # act's request
    "tabId": "Tab id from tabs; default: the current tab.",
    "returnMode": "final (default), all (each step's output too) or delta (changes only).",
    "dialog": "JavaScript dialogs: dismiss (default), accept or leave open.",
    "sequences": "Instead of steps: [{tabId, steps, ...options}] run in their tabs at once.",
    # the steps' fields
    "target": "\"ref_N\" from read_page (or node_N).",
    "selector": "Instead of target: CSS, role=button[name=\"Go\"] or \"host >> inner\".",
    "value": "fill: the text; select: the option's value.",
    "label": "Your name for the step; select: the option's text.",
    "credentialRef": "fill: a server-side secret's name, typed instead of value.",
    "text": "type: the text; wait_for: text to appear.",
    "key": "\"Enter\", \"Tab\", \"Control+A\", \"Shift\".",
    "url": "navigate: absolute URL; wait_for: part of the tab's URL.",
    "state": "wait_for: the selector's element reaches it.",
    "onError": "On failure: stop, skip, or retry (retries times).",
    "if": "Run the step only if the element is in this state.",
    "filter": "interactive: controls with refs; all: also headings and text.",
    "compression": "delta: only what changed since this tab's last read.",
}
"""A short note per field a model needs told what to write, by wire name (act's request,
its steps, read_page's and tabs' arguments). A note for a field no type has fails a test."""

BUDGET_NOTE = "Cut the answer to this many characters: page text first; every cut marked."
"""``maxChars`` of the act and read_page tools (the extract step's has its own meaning)."""


def _plain(node: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """``node``'s type or enum (refs inlined, unions merged, null dropped); an object keeps
    its members' plain types, an array its items'."""
    if not isinstance(node, dict):
        return {}
    if "$ref" in node:
        return _plain(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    if "anyOf" in node:
        return _merge(_plain(option, defs) for option in node["anyOf"])
    if "const" in node:
        return {"enum": [node["const"]]} if node["const"] is not None else {}
    out: dict[str, Any] = {}
    if "enum" in node:
        out["enum"] = [value for value in node["enum"] if value is not None]
    elif node.get("type") not in (None, "null"):
        out["type"] = node["type"]
    if "items" in node:
        out["items"] = _plain(node["items"], defs)
    if "properties" in node:
        out["properties"] = {name: _plain(field, defs)
                             for name, field in node["properties"].items()}
    return out


def _merge(options: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """One schema accepting what any of ``options`` accepts: types into one ``type`` list,
    enums into one enum (a free type beside an enum wins); richer ones stay an ``anyOf``."""
    options = [option for option in options if option]
    if not all(set(option) <= {"type", "enum"} for option in options):
        return options[0] if len(options) == 1 else {"anyOf": options}
    types: list[str] = []
    enum: list[Any] = []
    for option in options:
        enum += [value for value in option.get("enum", []) if value not in enum]
        kinds = option.get("type", [])
        types += [kind for kind in (kinds if isinstance(kinds, list) else [kinds])
                  if kind not in types]
    if types:
        return {"type": types[0] if len(types) == 1 else types}
    return {"enum": enum} if enum else {}


def _noted(name: str, schema: dict[str, Any], notes: Mapping[str, str] = NOTES
           ) -> dict[str, Any]:
    return {**schema, "description": notes[name]} if name in notes else schema


def arguments_schema(cls: type[msgspec.Struct], notes: Mapping[str, str] | None = None
                     ) -> dict[str, Any]:
    """A tool's arguments (a Struct) as a model is shown them: plain types, and the notes
    of :data:`NOTES` or, for a field whose meaning is the tool's own, of ``notes``."""
    schema = object_schema(cls)
    defs = schema.get("$defs", {})
    every = {**NOTES, **(notes or {})}
    return {"type": "object",
            "properties": {name: _noted(name, _plain(field, defs), every)
                           for name, field in schema["properties"].items()}}


def step_schema() -> dict[str, Any]:
    """The one step object: ``type`` and every field of every step type, plain and noted."""
    variants: dict[str, list[dict[str, Any]]] = {}
    for cls in STEP_CLASSES.values():
        schema = msgspec.json.schema(cls)
        defs = schema.get("$defs", {})
        root = defs[schema["$ref"].rsplit("/", 1)[-1]]
        for name, field in root["properties"].items():
            if name != "type":
                variants.setdefault(name, []).append(_plain(field, defs))
    properties: dict[str, Any] = {"type": {"enum": list(STEP_CLASSES)}}
    for name, schemas in variants.items():
        same = all(schema == schemas[0] for schema in schemas)
        properties[name] = _noted(name, schemas[0] if same else _merge(schemas))
    return {"type": "object", "properties": properties, "required": ["type"]}


def fields_by_type() -> str:
    """Which fields go with which step type, in one paragraph for the tool description (a
    required field is marked with ``*``; fields most steps have are named once)."""
    # A field is the same one when its Python name is: select's "label" (the option's) is not
    # the step label every other step has.
    having: dict[tuple[str, str], list[str]] = {}
    for tag, cls in STEP_CLASSES.items():
        for field in msgspec.structs.fields(cls):
            having.setdefault((field.name, field.encode_name), []).append(tag)
    # A field is named once, with the types it is missing from, where that is shorter than
    # naming it in each type that has it: a rule of length, not of a share that the next
    # targetless step type (navigate, evaluate, pdf ...) would tip.
    usual = {key: tags for key, tags in having.items()
             if len(tags) > 1 and _once_is_shorter(key[1], tags)}
    common = []
    for (_, wire), tags in usual.items():
        missing = [tag for tag in STEP_CLASSES if tag not in tags]
        common.append(f"{wire} (not {', '.join(missing)})" if missing else wire)
    parts = []
    for tag, cls in STEP_CLASSES.items():
        own = [f.encode_name + ("*" if f.required else "") for f in msgspec.structs.fields(cls)
               if (f.name, f.encode_name) not in usual]
        parts.append(f"{tag}({', '.join(own)})" if own else tag)
    return (f"Fields by step type (* required; most also take {', '.join(common)}): "
            + "; ".join(parts) + ".")


def _once_is_shorter(wire: str, tags: list[str]) -> bool:
    missing = [tag for tag in STEP_CLASSES if tag not in tags]
    once = len(wire) + sum(len(tag) + 2 for tag in missing) + (7 if missing else 0)
    return once < (len(wire) + 2) * len(tags)


def act_tool_input_schema() -> dict[str, Any]:
    """The act tool's input schema: one act request (``steps`` and its options), or
    ``sequences`` of them, one per tab (``engine/multi.py``), every ``steps`` array holding
    the one step object (in ``$defs.step``)."""
    schema = arguments_schema(ActRequest)
    step = {"type": "array", "items": {"$ref": "#/$defs/step"}}
    schema["properties"]["steps"] = _noted("steps", step)
    schema["properties"]["sequences"] = _noted("sequences", {
        "type": "array", "items": {"type": "object", "required": ["tabId", "steps"],
                                   "properties": {"tabId": {"type": "string"}, "steps": step}}})
    schema["properties"]["maxChars"] = {"type": "integer", "description": BUDGET_NOTE}
    return {**schema, "$defs": {"step": step_schema()}}


def output_schema(*classes: type[msgspec.Struct]) -> dict[str, Any]:
    """A tool's ``outputSchema``: the top-level fields of the Struct (or of any of the Structs)
    its structured content is, with their JSON types and which are required, object at the
    top. A page view's ``text`` is not required: the structured content leaves it out (the
    text content carries it)."""
    (*refs,), components = msgspec.json.schema_components(classes,
                                                          ref_template="#/$defs/{name}")
    slim = []
    for ref in refs:
        name = ref["$ref"].rsplit("/", 1)[-1]
        root = components[name]
        properties = {field: _json_type(schema, components)
                      for field, schema in root["properties"].items()}
        required = [field for field in root.get("required", [])
                    if not (name == "PageView" and field == "text")]
        slim.append({"type": "object", "properties": properties, "required": required})
    return slim[0] if len(slim) == 1 else {"type": "object", "anyOf": slim}


def _json_type(node: dict[str, Any], defs: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON type(s) of a field, nested objects and arrays as such."""
    if "$ref" in node:
        target = defs[node["$ref"].rsplit("/", 1)[-1]]
        return {"type": "object"} if "properties" in target else _json_type(target, defs)
    if "anyOf" in node:
        kinds: list[str] = []
        for option in node["anyOf"]:
            kind = _json_type(option, defs)["type"]
            kinds += [k for k in (kind if isinstance(kind, list) else [kind]) if k not in kinds]
        return {"type": kinds[0] if len(kinds) == 1 else kinds}
    if "enum" in node or "const" in node:
        values = node.get("enum", [node.get("const")])
        kinds = []
        for value in values:
            kind = {str: "string", bool: "boolean", int: "integer", float: "number",
                    type(None): "null"}[type(value)]
            if kind not in kinds:
                kinds.append(kind)
        return {"type": kinds[0] if len(kinds) == 1 else kinds}
    kind = node.get("type", ["string", "number", "boolean", "object", "array", "null"])
    return {"type": kind}
