"""The act tool's compact input schema, and the output schemas of the MCP tools.

Every tool call costs the model the tools' schemas in its context, so act's input schema is
kept small: instead of msgspec's union of one object per step type (each repeating the common
fields, patterns and bounds), steps are ONE object — ``type`` an enum, every field of every step
type given once with a short description — and which fields go with which type is said once,
in a line of the tool description (:func:`fields_by_type`). Both are generated from the step
Structs (``engine.request.STEP_CLASSES``), so a step type or field added there appears here
without an edit. The schema is looser than the request types on purpose: the server validates
every call against the full types (``engine.validate.parse_request``) and answers
INVALID_REQUEST naming the field.

How a field's schema is compacted: ``$ref``s are inlined, ``anyOf`` of plain types becomes one
``type`` list (enums merged), and bounds, patterns, defaults and titles are dropped; a field
that several step types share gets the union of their types and the first sentence of each
distinct description ("value": fill's, then "select: ..." for select's own meaning).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import msgspec

from ..engine.multi import MultiActRequest
from ..engine.request import STEP_CLASSES, ActRequest, object_schema

_KEPT = ("type", "enum", "items", "properties", "required", "description")


_NOTE_LIMIT = 120
"""Characters of a description kept: whole sentences up to this many."""


def _short(text: str) -> str:
    """``text``'s sentences that fit in ``_NOTE_LIMIT`` characters (at least the first)."""
    text = " ".join(text.split())
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z\"])", text)
    kept = sentences[0]
    for sentence in sentences[1:]:
        if len(kept) + 1 + len(sentence) > _NOTE_LIMIT:
            break
        kept += " " + sentence
    return kept


def _compact(node: Any, defs: dict[str, Any], nested: bool = False) -> dict[str, Any]:
    """``node`` with refs inlined and only what tells a model the shape (see the module doc).
    ``nested``: ``node`` is inside an object field (a step's ``if``, the request's
    ``emulate``), whose own description says what it holds; its members keep their names,
    types and enums but no descriptions (a third of the schema otherwise)."""
    if not isinstance(node, dict):
        return {}
    if "$ref" in node:
        target = defs[node["$ref"].rsplit("/", 1)[-1]]
        inlined = _compact(target, defs, nested)
        if "description" in node:
            inlined["description"] = node["description"]
        return inlined
    out: dict[str, Any] = {}
    if "anyOf" in node:
        out = _merge([_compact(option, defs, nested) for option in node["anyOf"]])
    if "const" in node:
        out["enum"] = [node["const"]]
    for key in _KEPT:
        if key not in node:
            continue
        value = node[key]
        if key == "items":
            out[key] = _compact(value, defs, nested)
        elif key == "properties":
            out[key] = {name: _without_description(_compact(field, defs, True))
                        for name, field in value.items()}
        elif key == "description":
            out[key] = _short(value)
        elif key == "required" and not value:
            continue
        else:
            out[key] = value
    return out


def _without_description(schema: dict[str, Any]) -> dict[str, Any]:
    """A member of an object field: its shape only (null is the same as leaving it out)."""
    schema.pop("description", None)
    kinds = schema.get("type")
    if isinstance(kinds, list) and "null" in kinds:
        kinds = [kind for kind in kinds if kind != "null"]
        schema["type"] = kinds[0] if len(kinds) == 1 else kinds
    if isinstance(schema.get("enum"), list) and None in schema["enum"]:
        schema["enum"] = [value for value in schema["enum"] if value is not None]
    return schema


def _merge(options: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """One schema accepting what any of ``options`` accepts: plain types and enums merge into
    one ``type`` list; anything richer stays an ``anyOf``."""
    options = list(options)
    if not all(set(option) <= {"type", "enum", "description"} for option in options):
        rich = [option for option in options if option != {"type": "null"}]
        return rich[0] if len(rich) == 1 else {"anyOf": rich}
    types: list[str] = []
    enum: list[Any] = []
    for option in options:
        if "enum" in option:
            enum += [value for value in option["enum"] if value not in enum]
            continue
        kinds = option.get("type", [])
        for kind in kinds if isinstance(kinds, list) else [kinds]:
            if kind not in types:
                types.append(kind)
    if enum and types and types != ["null"]:  # an enum beside a free type: the type says it
        enum = []
    if enum:
        return {"enum": enum + ([None] if "null" in types else [])}
    return {"type": types[0] if len(types) == 1 else types} if types else {}


def step_schema() -> dict[str, Any]:
    """The one step object: ``type`` and every field of every step type, compacted."""
    per_field: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for tag, cls in STEP_CLASSES.items():
        schema = msgspec.json.schema(cls)
        defs = schema.get("$defs", {})
        root = defs[schema["$ref"].rsplit("/", 1)[-1]]
        for name, field in root["properties"].items():
            if name != "type":
                per_field.setdefault(name, []).append((tag, _compact(field, defs)))
    properties: dict[str, Any] = {"type": {"enum": list(STEP_CLASSES)}}
    for name, variants in per_field.items():
        merged = _merge([{k: v for k, v in schema.items() if k != "description"}
                         for _, schema in variants])
        if len(variants) == 1 or all(schema == variants[0][1] for _, schema in variants):
            merged = {k: v for k, v in variants[0][1].items() if k != "description"} or merged
        # One note per distinct meaning: the most common unlabelled, the others with the step
        # types they belong to ("select: The option's visible text.").
        # A meaning is a description's first sentence: a required target and an optional one
        # are the same field (which steps need one is said once, in fields_by_type).
        meanings: dict[str, list[str]] = {}
        texts: dict[str, set[str]] = {}
        for tag, schema in variants:
            if schema.get("description"):
                first = re.split(r"(?<=[.!?])\s", schema["description"], maxsplit=1)[0]
                meanings.setdefault(first, []).append(tag)
                texts.setdefault(first, set()).add(schema["description"])
        ranked = sorted(meanings.items(), key=lambda item: -len(item[1]))
        notes = [(next(iter(texts[first])) if len(texts[first]) == 1 else first) if i == 0
                 else f"{', '.join(tags)}: {first}" for i, (first, tags) in enumerate(ranked)]
        if notes:
            merged["description"] = " ".join(notes)
        properties[name] = merged
    return {"type": "object", "properties": properties, "required": ["type"]}


def fields_by_type() -> str:
    """Which fields go with which step type, in one paragraph for the tool description (a
    required field is marked with ``*``; fields every step has are named once)."""
    # A field is the same one when its Python name is: select's "label" (the option's) is not
    # the step label every other step has.
    having: dict[tuple[str, str], list[str]] = {}
    for tag, cls in STEP_CLASSES.items():
        for field in msgspec.structs.fields(cls):
            having.setdefault((field.name, field.encode_name), []).append(tag)
    usual = {key: tags for key, tags in having.items() if len(tags) * 4 >= len(STEP_CLASSES) * 3}
    common = []
    for (_, wire), tags in usual.items():
        missing = [tag for tag in STEP_CLASSES if tag not in tags]
        common.append(f"{wire} (not {', '.join(missing)})" if missing else wire)
    parts = []
    for tag, cls in STEP_CLASSES.items():
        own = [f.encode_name + ("*" if f.required else "") for f in msgspec.structs.fields(cls)
               if (f.name, f.encode_name) not in usual]
        parts.append(f"{tag}({', '.join(own)})" if own else tag)
    optional = [tag for tag, cls in STEP_CLASSES.items() if cls.TARGETING == "optional"]
    return (f"Fields by step type (* required; every step also takes {', '.join(common)}): "
            + "; ".join(parts) + ". A step with target and selector takes exactly one of them, "
            f"or at most one in {', '.join(optional)}.")


def act_input_schema(request_properties: dict[str, Any]) -> dict[str, Any]:
    """The act tool's input schema: the request's own fields compacted from
    ``request_properties`` (an object schema of the request, as msgspec writes it, with its
    ``$defs``), with every ``steps`` array holding the one step object (in ``$defs.step``)."""
    defs = request_properties.get("$defs", {})
    properties: dict[str, Any] = {}
    for name, field in request_properties["properties"].items():
        properties[name] = _with_step_ref(_compact(field, defs), name)
    return {"type": "object", "properties": properties, "$defs": {"step": step_schema()}}


def _with_step_ref(schema: dict[str, Any], name: str) -> dict[str, Any]:
    """``schema`` with the steps arrays (its own, or its items') pointing at the step object."""
    if name == "steps":
        return {**schema, "items": {"$ref": "#/$defs/step"}}
    items = schema.get("items", {})
    if isinstance(items, dict) and "steps" in items.get("properties", {}):
        inner = {key: _with_step_ref(value, key) for key, value in items["properties"].items()}
        return {**schema, "items": {**items, "properties": inner}}
    return schema


def act_tool_input_schema() -> dict[str, Any]:
    """The act tool's input schema: one act request (``steps`` and its options), or
    ``sequences`` of them, one per tab (``engine/multi.py``)."""
    schema = act_input_schema(object_schema(ActRequest))
    multi = object_schema(MultiActRequest)["properties"]["sequences"]
    schema["properties"]["sequences"] = {
        "type": "array", "description": _short(multi["description"]) + (
            " Instead of steps; each is {tabId, steps, any option above}."),
        "items": {"type": "object",
                  "properties": {"tabId": {"type": "string"},
                                 "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}}},
                  "required": ["tabId", "steps"]}}
    return schema


def output_schema(*classes: type[msgspec.Struct]) -> dict[str, Any]:
    """A tool's ``outputSchema``: the full JSON Schema of the Struct (or any of the Structs)
    its structured content is — no compaction, only programs read it — object at the top.

    A page view's ``text`` is not required: the structured content leaves it out, since the
    text content carries it."""
    (*refs,), components = msgspec.json.schema_components(classes,
                                                          ref_template="#/$defs/{name}")
    defs = dict(components)
    if "PageView" in defs:
        defs["PageView"] = {**defs["PageView"], "required": [
            name for name in defs["PageView"].get("required", []) if name != "text"]}
    if len(refs) == 1:
        name = refs[0]["$ref"].rsplit("/", 1)[-1]
        root = defs.pop(name)
        return {**root, "$defs": defs} if defs else root
    return {"type": "object", "anyOf": refs, "$defs": defs}
