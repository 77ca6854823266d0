"""Tool calls and tool schemas, from every encoding the release may use, in one canonical form.

A call, OpenAI-style ``{"function": {"name", "arguments"}}`` or flat, becomes ``{"name": str, "arguments":
dict}``; any object may be JSON text, a list a numpy array (pandas' view of an Arrow list). A null-valued
argument key is not an argument, in every encoding, as Arrow structs cannot tell a null from an absent
field (docs/DATA_FORMAT.md, "Encodings the loader accepts"). A plan stored as text that is not JSON is read
as the authors' scorer reads it (`authors_text`) before it is an exclusion.
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


_FENCE = re.compile(r"^\s*```[\w-]*\s*\n?(.*?)\n?\s*```\s*$", re.S)


def authors_text(text: str) -> str:
    """Return a generator output as the authors' scorer reads it: after the last </think>, fences stripped."""
    text = text.rsplit("</think>", 1)[-1].strip()
    m = _FENCE.match(text)
    return m.group(1).strip() if m else text


def _loads_plan(text: str) -> Any:
    """Return the JSON value of a plan stored as text, read by the authors' rules if plain JSON fails."""
    text = text.strip()
    if not text:
        raise CallParseError("empty string where a JSON list was expected")
    try:
        return json.loads(text)  # the standard library's reading (NaN, integers of any length)
    except json.JSONDecodeError as exc:
        error = exc
    reread = authors_text(text)
    if reread != text and reread:
        try:
            return json.loads(reread)
        except json.JSONDecodeError as exc:
            error = exc
    raise CallParseError(f"malformed JSON: {error.msg} at char {error.pos}")


def _as_list(value: Any) -> list[Any] | None:
    """Return a list, numpy array, single object or plan text (`_loads_plan`) as a list (None if null)."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    for _ in range(2):  # a text plan may be JSON-encoded once more (datasets' Json feature)
        if isinstance(value, str):
            value = _loads_plan(value)
    if isinstance(value, Mapping):
        return [value]
    if isinstance(value, list | tuple | np.ndarray):
        return list(value)
    raise CallParseError(f"expected a list of calls, got {type(value).__name__}")


def _json(text: str | bytes, error: str) -> Any:
    """Return the value of JSON text; CallParseError("<error>: <why>") when it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CallParseError(f"{error}: {exc.msg}") from None


def _fields(value: Any, what: str) -> dict[str, Any]:
    """Return `what` (an object or its JSON text; null or blank text as {}) as a new dict without null-valued keys."""
    if isinstance(value, str | bytes):
        value = _json(value, f"{what} are not valid JSON") if value.strip() else None
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise CallParseError(f"{what} must be an object, got {type(value).__name__}")
    return {k: v for k, v in value.items() if v is not None}


def parse_arguments(args: Any) -> dict[str, Any]:
    """Return a call's arguments (an object, its JSON text, null or blank) as a new dict without null-valued keys."""
    return _fields(args, "arguments")


def normalize_call(call: Any) -> Call:
    """Return one call (OpenAI-style or flat, either as JSON text too) as ``{"name", "arguments"}``."""
    if isinstance(call, str | bytes):
        call = _json(call, "call is not valid JSON")
    if not isinstance(call, Mapping):
        raise CallParseError(f"a call must be an object, got {type(call).__name__}")
    fn = call.get("function")
    if isinstance(fn, str) and fn.strip().startswith("{"):  # the function object as JSON text
        fn = _json(fn, "function field is not valid JSON")
    if isinstance(fn, str):  # {"function": "name", "arguments": {...}}
        name, args = fn, call.get("arguments")
    elif isinstance(fn, Mapping) and fn.get("name") is not None:
        name, args = fn.get("name"), fn.get("arguments")
    else:
        name, args = call.get("name"), call.get("arguments", call.get("parameters"))
    if not isinstance(name, str) or not name:
        raise CallParseError("a call has no tool name")
    return {"name": name, "arguments": parse_arguments(args)}


def normalize_calls(value: Any) -> list[Call] | None:
    """Return a call list in canonical form; None when the value is null; CallParseError for malformed input."""
    items = _as_list(value)
    return None if items is None else [normalize_call(c) for c in items]


def try_normalize_calls(value: Any) -> tuple[list[Call] | None, str | None]:
    """Return (calls, None) on success or (None, reason) when the value cannot be parsed."""
    try:
        calls = normalize_calls(value)
    except CallParseError as exc:
        return None, f"unparseable: {exc}"
    return (calls, None) if calls is not None else (None, "unparseable: null output")


def normalize_tool(tool: Any) -> dict[str, Any]:
    """Return one tool schema (an object or its JSON text) as ``{"name", "description", "properties", "required"}``."""
    if isinstance(tool, str | bytes):
        tool = _json(tool, "a tool is not valid JSON")
    if not isinstance(tool, Mapping):
        raise CallParseError(f"a tool must be an object, got {type(tool).__name__}")
    fn = tool if tool.get("function") is None else _fields(tool["function"], "a tool's function fields")
    params = _fields(fn.get("parameters"), "a tool's parameters")
    required = params.get("required")
    if isinstance(required, np.ndarray):
        required = required.tolist()
    return {
        "name": fn.get("name"),
        "description": fn.get("description") or "",
        "properties": _fields(params.get("properties"), "a tool's properties"),
        "required": [r for r in (required or []) if r is not None],
    }


def normalize_tools(value: Any) -> list[dict[str, Any]]:
    """Return a record's tool list in canonical form (JSON string, array or list in)."""
    return [normalize_tool(t) for t in _as_list(value) or []]
