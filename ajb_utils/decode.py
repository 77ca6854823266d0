"""Decoding of the release's JSON-lines configs into columns: only the fields the loader reads.

A judge config in the released layout is read by Arrow's JSON reader (in C) with an explicit
schema, straight into columns. Anything else is decoded line by line by the standard library's
`json`: a judge file Arrow rejects or that is not the released layout exactly, the `main` and
generator configs, and rows given as Python values (`datasets`' rows, a static judge's frame).
That pass takes any JSON value anywhere and normalises it into the same flat columns
(`judge_columns`): blocks as JSON text, other metric spellings, a verdict spelt `accuracy` or
`score`, numbers as text. A malformed line (or one that is not an object; NaN and Infinity are
not JSON) is counted in `bad` with its file and line, a cut last line in `cut`, whatever the
config. Every file is read once (`ajb_utils.cache.read_input`, which keeps its content digest).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np

from ajb_utils import cache, schema

FIELDS: tuple[str, ...] = ("llm_score", "programmatic_score", "match_score")
JUDGE_KEYS: tuple[str, ...] = ("id", "generator", "difficulty", "dag_type")
NAMES: tuple[str, ...] = ("id", "generator", "difficulty")
# the fields the loader reads of `main` and of a generator config
MAIN_FIELDS = (*schema.REQUIRED_MAIN, "available_tools", "query_easy", "query_medium", "query_hard", "system_prompt")
GENERATOR_FIELDS = (*schema.REQUIRED_GENERATOR, "dag_type", "user_query", *schema.SCORE_COLUMNS.values())
_METRIC_KEYS = frozenset(k for m in schema.METRICS for k in (m, schema.PROMPT_KEYS[m], schema.SCORE_COLUMNS[m]))
# each metric's spellings, in the order the first non-null one wins
_SPELLINGS = {m: list(dict.fromkeys((m, schema.PROMPT_KEYS[m], schema.SCORE_COLUMNS[m]))) for m in schema.METRICS}
_ABSENT = object()  # a field a row does not have
Columns = dict[str, Any]
Source = Path | list[dict[str, Any]]  # a JSON-lines file, or its rows as Python values


def _not_json(name: str) -> Any:
    """Refuse NaN and Infinity, which are not JSON (the standard library reads them)."""
    raise ValueError(f"{name} is not a JSON value")


_LINE = json.JSONDecoder(parse_constant=_not_json)


def _is_block(value: Any) -> bool:
    """Return True when a value looks like a condition block (an object with a metric key)."""
    return isinstance(value := _as_block(value), dict) and not _METRIC_KEYS.isdisjoint(value)


def unknown_conditions(values: dict[str, Any]) -> list[str]:
    """Return the names, among `values` (column -> a value of it), of condition-like columns
    that are not known conditions (schema.CONDITIONS), sorted."""
    return sorted(k for k, v in values.items() if k not in schema.CONDITIONS and k not in JUDGE_KEYS and _is_block(v))


def _line_rows(source: Path, data: bytes, rows: list[Any], found: Columns) -> None:
    """Append the JSON objects of a file's lines (`data`) to `rows`, its bad lines to `found`."""
    lines = data.split(b"\n")
    last = len(lines)
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = _LINE.decode(line.decode("utf-8"))
        except ValueError as exc:  # (UnicodeDecodeError and JSONDecodeError are ValueErrors)
            why = f"{source}: line {i}: {exc}"
            found["head"] = {} if found["head"] is None else found["head"]
            found["bad"].append(why)
            found["cut"] = found["cut"] or ((str(source), why) if i == last else None)
            continue
        _append(row, f"{source}: line {i}", rows, found)


def _append(row: Any, where: str, rows: list[Any], found: Columns) -> None:
    """Append a decoded row to `rows` when an object, else say so in `found`."""
    if found["head"] is None:
        found["head"] = row if isinstance(row, dict) else {}
    if isinstance(row, dict):
        rows.append(row)
    else:
        found["bad"].append(f"{where}: not an object")


def decode_rows(sources: list[Source], read: dict[Path, bytes] | None = None) -> tuple[list[dict[str, Any]], Columns]:
    """Return (the rows of JSON-lines files or of Python rows, what else the read found: `bad`
    the malformed lines' reasons, `cut` (file, reason) of a line the file ends inside or None,
    `head` the first row); a file's bytes from `read` when there."""
    rows: list[Any] = []
    found: Columns = {"bad": [], "cut": None, "head": None}
    for source in sources:
        if isinstance(source, Path):
            data = read[source] if read and source in read else cache.read_input(source)
            _line_rows(source, data, rows, found)
        else:
            for i, row in enumerate(source, 1):
                _append(row, f"line {i}", rows, found)
    found["head"] = found["head"] or {}
    return rows, found


def _codes(values: list[Any]) -> tuple[np.ndarray, list[Any]]:
    """Return (codes, uniques) of values, uniques in order of first appearance (None: code -1)."""
    uniques = [v for v in dict.fromkeys(values) if v is not None]
    position = {v: i for i, v in enumerate(uniques)} | {None: -1}
    return np.fromiter(map(position.__getitem__, values), dtype=np.int32, count=len(values)), uniques


def _to_float(values: list[Any]) -> np.ndarray:
    """Return values as float64, non-numbers as NaN (`pandas.to_numeric(errors="coerce")`)."""
    try:  # numbers, null and numeric text: at once
        out = np.array(values, dtype=float)
    except (TypeError, ValueError):
        out = None
    if out is not None and out.shape == (len(values),):
        return out
    import pandas as pd  # only for values that are not all numbers or null

    return np.array(pd.to_numeric(pd.Series(values, dtype=object), errors="coerce"), dtype=float)


def _as_block(cell: Any) -> dict[str, Any] | None:
    """Return a condition cell as a block (an object, or JSON text of one); None otherwise."""
    if isinstance(cell, str):
        try:  # the text read as the JSON module reads it
            cell = json.loads(cell)
        except ValueError:
            return None
    return cell if isinstance(cell, dict) else None


def _entry(block: dict[str, Any] | None, metric: str) -> dict[str, Any] | None:
    """Return a metric's entry in a block: its first non-null spelling, when an object."""
    if block is None:
        return None
    first = next((v for k in _SPELLINGS[metric] if (v := block.get(k)) is not None), None)
    return first if isinstance(first, dict) else None


def _field(entry: dict[str, Any] | None, name: str) -> Any:
    """Return one field of a metric entry (a null verdict read from `accuracy`, or `score`)."""
    if entry is None:
        return None
    v = entry.get(name)
    if v is None and name == "llm_score":
        return entry["accuracy"] if "accuracy" in entry else entry.get("score")
    return v


def _row_judge_columns(rows: list[dict[str, Any]], justifications: bool) -> Columns:
    """Return the flat columns (`judge_columns`) of judge rows as Python values, each value
    normalised by the loose rules."""
    out: Columns = {}
    for k in NAMES:
        values = [r.get(k, _ABSENT) for r in rows]
        if values.count(_ABSENT) < len(values):  # (a field no row has is left out)
            out[k] = _codes([None if v is _ABSENT else v for v in values])
    for cond in schema.CONDITIONS:
        cells = [r.get(cond) for r in rows]
        if cells.count(None) == len(cells):
            continue  # absent, or null in every row: the same to Arrow and to this loader
        blocks = list(map(_as_block, cells))
        for m in schema.METRICS:
            entries = [_entry(b, m) for b in blocks]
            for f in FIELDS:
                values = _to_float([_field(e, f) for e in entries])
                out[f"{cond}.{m}.{f}"] = values if f == "llm_score" else values.astype(np.float32)
            if justifications:
                out[f"{cond}.{m}.justification"] = [_field(e, "justification") for e in entries]
    return out


def _arrow_schema(conditions: tuple[str, ...]) -> Any:
    """Return the Arrow schema of a judge config in the released layout with these conditions
    (the row's other fields are inferred, so that a block's or metric's unexpected key shows in
    the table's type)."""
    import pyarrow as pa

    note = [pa.field("justification", pa.string())]
    metric = pa.struct([pa.field(f, pa.float64()) for f in FIELDS] + note)
    block = pa.struct([pa.field(m, metric) for m in schema.METRICS] + [pa.field("overall_alignment_pct", pa.float64())])
    return pa.schema([pa.field(k, pa.string()) for k in NAMES] + [pa.field(c, block) for c in conditions])


def _released_layout(table: Any, lines: int) -> bool:
    """Return True when an Arrow-read judge table holds what the strict layout takes: one row a
    line, names given in every row, no block key beyond the metrics and the overall score, and
    no metric spelt with `accuracy` or `score`."""
    if table.num_rows != lines or any(table.column(k).null_count for k in NAMES):
        return False
    allowed = {*schema.METRICS, "overall_alignment_pct"}
    for cond in (c for c in schema.CONDITIONS if c in table.column_names):
        block = table.schema.field(cond).type
        if {f.name for f in block} - allowed:
            return False
        if any({"accuracy", "score"} & {f.name for f in block.field(m).type} for m in schema.METRICS):
            return False
    return True


def _arrow_table(data: bytes, conditions: tuple[str, ...]) -> Any:
    """Return a judge config's bytes read by Arrow's JSON reader (in C) with the schema of
    these conditions (None if Arrow rejects them); read again with every known condition when
    another one turns up (each condition absent from the schema costs nothing per row)."""
    import pyarrow as pa
    import pyarrow.json as pj

    options = pj.ParseOptions(explicit_schema=_arrow_schema(conditions), unexpected_field_behavior="infer")
    try:
        table = pj.read_json(pa.BufferReader(data), parse_options=options)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if set(schema.CONDITIONS) & set(table.column_names) - set(conditions):
        return _arrow_table(data, tuple(schema.CONDITIONS))
    return table


def _arrow_judge_columns(data: bytes, justifications: bool, conditions: tuple[str, ...]) -> Columns | None:
    """Return a judge config's bytes in the released layout as `judge_columns` gives them,
    read by Arrow's JSON reader (`_arrow_table`, `conditions` those of its first line); None
    when they are not that layout exactly (a malformed or cut line, another encoding or
    spelling, NaN: the line-by-line pass decides)."""
    table = _arrow_table(data, conditions)
    if table is None or not _released_layout(table, data.count(b"\n") + (not data.endswith(b"\n") and bool(data))):
        return None
    if any(map(_not_finite, table.columns)):  # NaN or Infinity: Arrow reads them, JSON has neither
        return None
    out: Columns = {}
    for k in NAMES:
        codes = table.column(k).combine_chunks().dictionary_encode()
        out[k] = (codes.indices.to_numpy(zero_copy_only=False).astype(np.int32), codes.dictionary.to_pylist())
    for cond in [c for c in schema.CONDITIONS if c in table.column_names]:
        block = table.column(cond)
        if block.null_count == len(block):
            continue  # absent, or null in every row
        for m, metric in zip(schema.METRICS, block.flatten()):  # a null block or metric: null fields
            fields = dict(zip([f.name for f in metric.type], metric.flatten()))
            for f in FIELDS:
                values = fields[f].to_numpy(zero_copy_only=False)
                out[f"{cond}.{m}.{f}"] = values if f == "llm_score" else values.astype(np.float32)
            if justifications:
                out[f"{cond}.{m}.justification"] = fields["justification"]
    return out


def _not_finite(column: Any) -> bool:
    """Return True when an Arrow column holds a NaN or an infinity at any depth (every field of
    a judge line is typed, so a number that is not JSON shows here)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_floating(column.type):
        return bool(pc.any(pc.invert(pc.is_finite(column))).as_py())
    if pa.types.is_struct(column.type):
        return any(map(_not_finite, column.flatten()))
    if pa.types.is_list(column.type) or pa.types.is_large_list(column.type):
        return _not_finite(pc.list_flatten(column))
    return False


def _head(data: bytes) -> dict[str, Any]:
    """Return the first non-blank line of JSON lines as an object ({} if it is not one)."""
    line = next((x for x in io.BytesIO(data) if x.strip()), b"{}")  # (no copy of `data`)
    try:
        head = _LINE.decode(line.decode("utf-8"))
    except ValueError:
        return {}
    return head if isinstance(head, dict) else {}


def judge_columns(sources: list[Source], justifications: bool = False) -> Columns:
    """Return a judge config (its JSON-lines files, or rows) as flat columns: id / generator /
    difficulty as (codes, uniques), `cond.metric.field` arrays (llm_score float64, to be snapped;
    the published scores float32, as the tidy frames keep them) and
    `cond.metric.justification` values when asked, for every condition with a block in some row;
    with `bad`, `cut` (`decode_rows`) and `unknown`, the first row's condition-like columns
    that are not known conditions. A loose row's metric is its first non-null spelling (when an
    object), its verdict `llm_score` or else `accuracy` (when present) or `score`, its numbers
    coerced (`_to_float`); a block neither an object nor JSON text of one is null."""
    read = {s: cache.read_input(s) for s in sources if isinstance(s, Path)}
    if len(read) == len(sources):
        data = b"".join(read.values())
        head = _head(data)
        fast = _arrow_judge_columns(data, justifications, tuple(c for c in schema.CONDITIONS if c in head))
        del data
        if fast is not None:
            return {**fast, "bad": [], "cut": None, "unknown": unknown_conditions(head)}
    rows, found = decode_rows(sources, read)
    found["unknown"] = unknown_conditions(found.pop("head"))
    return {**_row_judge_columns(rows, justifications), **found}


def _arrow_generator_columns(data: bytes) -> Columns | None:
    """Return a generator config's bytes as `row_columns` gives them, read by Arrow's JSON
    reader with the released layout as its schema (the fields it does not read skipped in C);
    None unless every field is in some row and every call is OpenAI-style with its arguments as
    text. (A null and an absent field are one to Arrow, and to the frames: both missing.)"""
    import pyarrow as pa
    import pyarrow.json as pj

    function = pa.struct([pa.field("name", pa.string()), pa.field("arguments", pa.string())])
    texts = [pa.field(f, pa.string()) for f in ("id", "difficulty", "dag_type", "user_query")]
    scores = [pa.field(f, pa.float64()) for f in schema.SCORE_COLUMNS.values()]
    calls = pa.field("generated_tool_calls", pa.list_(pa.struct([pa.field("function", function)])))
    layout = pa.schema([*texts, calls, *scores])
    options = pj.ParseOptions(explicit_schema=layout, unexpected_field_behavior="ignore")
    if b"NaN" in data or b"Infinity" in data or set(layout.names) != set(GENERATOR_FIELDS):
        return None
    try:
        table = pj.read_json(pa.BufferReader(data), parse_options=options)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    items = table.column("generated_tool_calls").combine_chunks().flatten().flatten()[0].flatten()
    if any(c.null_count == len(c) for c in table.columns) or any(c.null_count for c in items):
        return None
    if table.num_rows != data.count(b"\n") + (not data.endswith(b"\n") and bool(data)):
        return None
    return {f: table.column(f).to_pylist() for f in GENERATOR_FIELDS} | {"bad": [], "cut": None}


def row_columns(sources: list[Source], fields: tuple[str, ...]) -> Columns:
    """Return the `fields` of a `main` or generator config's rows as columns of Python values
    (NaN where a row lacks the field; a field no row has is left out), with `bad` and `cut`
    (`decode_rows`). A generator file in the released layout is read by Arrow
    (`_arrow_generator_columns`)."""
    read = {s: cache.read_input(s) for s in sources if isinstance(s, Path)}
    if fields == GENERATOR_FIELDS and len(read) == len(sources) == 1:
        fast = _arrow_generator_columns(next(iter(read.values())))
        if fast is not None:
            return fast
    rows, out = decode_rows(sources, read)
    del out["head"]
    for f in fields:
        values = [r.get(f, _ABSENT) for r in rows]
        if values.count(_ABSENT) < len(values):
            out[f] = [np.nan if v is _ABSENT else v for v in values]
    return out
