"""Normalise tool calls and tool schemas from every encoding the release may use.

A call arrives OpenAI-style ``{"function": {"name", "arguments"}}`` or flat ``{"name",
"arguments"}``; ``arguments`` as a dict or a JSON string; a whole call list as a list, a numpy
array (pandas' view of an Arrow list) or a JSON string. Everything becomes a list of
``{"name": str, "arguments": dict}``.

Null-valued argument keys. A key whose value is JSON ``null`` is not an argument: ``{"x": 1,
"y": null}`` has the key set ``{x}``, in every encoding and whatever read the bytes. It is the one
reading every encoding can express: Arrow structs (``datasets``, the hub's Parquet) cannot tell a
null from an absent field, since a struct's fields are the union over rows. The rule is applied
here, once, for every encoding (docs/DATA_FORMAT.md §3).

Generator outputs as text. Before a plan stored as text is declared unparseable it is read as the
authors' scorer reads it: the text after the last ``</think>``, with Markdown code fences
(```` ```json ... ``` ````) stripped (:func:`authors_text`). What still fails is an Appendix D
exclusion.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

Call = dict[str, Any]


class CallParseError(ValueError):
    """A call list that cannot be decoded (malformed JSON, a call without a name)."""


THINK_END = "</think>"
_FENCE = re.compile(r"^\s*```[\w-]*\s*\n?(.*?)\n?\s*```\s*$", re.S)


def _strip_nulls(obj: Mapping[str, Any]) -> dict[str, Any]:
    """Return a mapping as a dict without its None-valued entries (top level only; see module doc)."""
    for v in obj.values():
        if v is None:
            return {k: v for k, v in obj.items() if v is not None}
    return obj if type(obj) is dict else dict(obj)


_json_loads = json.loads  # the standard library's reading (NaN, integers of any length)


def authors_text(text: str) -> str:
    """Return a generator output as the authors' scorer reads it: after the last </think>, fences stripped."""
    text = text.rsplit(THINK_END, 1)[-1].strip()
    m = _FENCE.match(text)
    return m.group(1).strip() if m else text


def _loads_plan(text: str) -> Any:
    """Return the JSON value of a plan stored as text, read by the authors' rules if plain JSON fails."""
    try:
        return _json_loads(text)
    except json.JSONDecodeError as exc:
        first = exc
    reread = authors_text(text)
    if reread != text and reread:
        try:
            return _json_loads(reread)
        except json.JSONDecodeError as exc:
            first = exc
    raise CallParseError(f"malformed JSON: {first.msg} at char {first.pos}")


def _as_list(value: Any) -> list[Any] | None:
    """Return a JSON-string / array / list value as a Python list (None if null)."""
    if value is None:
        return None
    if isinstance(value, float) and np.isnan(value):
        return None
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    if isinstance(value, str):
        text = value.strip()
        if not text:
            raise CallParseError("empty string where a JSON list was expected")
        value = _loads_plan(text)
        if isinstance(value, str):  # a text plan JSON-encoded once more (datasets' Json feature)
            if not value.strip():
                raise CallParseError("empty string where a JSON list was expected")
            value = _loads_plan(value.strip())
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, Mapping):
        return [value]
    if isinstance(value, list | tuple):
        return list(value)
    raise CallParseError(f"expected a list of calls, got {type(value).__name__}")


def parse_arguments(args: Any) -> dict[str, Any]:
    """Return a call's arguments as a dict without null-valued keys (dict or JSON string in; JSON
    null is no arguments)."""
    if isinstance(args, str | bytes):
        text = args.strip()
        try:
            args = _json_loads(text) if text else None
        except json.JSONDecodeError as exc:
            raise CallParseError(f"arguments are not valid JSON: {exc.msg}") from None
    if args is None:  # no arguments, or the text "null"
        return {}
    if type(args) is dict or isinstance(args, Mapping):
        return {k: v for k, v in args.items() if v is not None}  # always a new dict
    raise CallParseError(f"arguments must be an object, got {type(args).__name__}")


def _decoded_function(fn: str) -> Any:
    """Return a `function` field that is a JSON object in a string as a dict, else the string."""
    text = fn.strip()
    if text.startswith("{"):
        try:
            return _json_loads(text)
        except json.JSONDecodeError as exc:
            raise CallParseError(f"function field is not valid JSON: {exc.msg}") from None
    return fn


def normalize_call(call: Any) -> Call:
    """Return one call as ``{"name", "arguments"}`` from an OpenAI-style or flat call."""
    if isinstance(call, str | bytes):
        try:
            call = _json_loads(call)
        except json.JSONDecodeError as exc:
            raise CallParseError(f"call is not valid JSON: {exc.msg}") from None
    if not isinstance(call, Mapping):
        raise CallParseError(f"a call must be an object, got {type(call).__name__}")
    fn = call.get("function")
    if isinstance(fn, str):
        fn = _decoded_function(fn)
    if isinstance(fn, str):  # {"function": "name", "arguments": {...}}
        name, args = fn, call.get("arguments")
    elif isinstance(fn, Mapping) and fn.get("name") is not None:
        name, args = fn.get("name"), fn.get("arguments")
    else:
        name = call.get("name")
        args = call.get("arguments", call.get("parameters"))
    if not isinstance(name, str) or not name:
        raise CallParseError("a call has no tool name")
    return {"name": name, "arguments": parse_arguments(args)}


def normalize_calls(value: Any) -> list[Call] | None:
    """Return a call list in canonical form; None when the value is null (no parseable output).

    Raises CallParseError for malformed input (bad JSON, calls without names).
    """
    items = _as_list(value)
    if items is None:
        return None
    return [normalize_call(c) for c in items]


def try_normalize_calls(value: Any) -> tuple[list[Call] | None, str | None]:
    """Return (calls, None) on success or (None, reason) when the value cannot be parsed."""
    try:
        calls = normalize_calls(value)
    except CallParseError as exc:
        return None, f"unparseable: {exc}"
    if calls is None:
        return None, "unparseable: null output"
    return calls, None


def as_mapping(value: Any) -> dict[str, Any]:
    """Return a dict from a dict or a JSON-object string (datasets' Json feature stores these)."""
    if value is None:
        return {}
    if isinstance(value, str | bytes):
        value = _json_loads(value) if value.strip() else {}
    if not isinstance(value, Mapping):
        raise CallParseError(f"expected an object, got {type(value).__name__}")
    return dict(value)


def normalize_tool(tool: Any) -> dict[str, Any]:
    """Return one tool schema as ``{"name", "description", "properties", "required"}``."""
    if isinstance(tool, str | bytes):
        tool = _json_loads(tool)
    if not isinstance(tool, Mapping):
        raise CallParseError(f"a tool must be an object, got {type(tool).__name__}")
    fn = as_mapping(tool.get("function")) if tool.get("function") is not None else tool
    params = as_mapping(fn.get("parameters"))
    props = _strip_nulls(as_mapping(params.get("properties")))
    required = params.get("required")
    if isinstance(required, np.ndarray):
        required = required.tolist()
    return {
        "name": fn.get("name"),
        "description": fn.get("description") or "",
        "properties": props,
        "required": [r for r in (required or []) if r is not None],
    }


def normalize_tools(value: Any) -> list[dict[str, Any]]:
    """Return a record's tool list in canonical form (JSON string, array or list in)."""
    items = _as_list(value) or []
    return [normalize_tool(t) for t in items]
