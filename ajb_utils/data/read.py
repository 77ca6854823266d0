"""Reading one config's JSON-lines files into columns (a `Raw`); what the rows mean is decided
later, once (`ajb_utils.calls`, `build`).

A judge or generator config in the released layout is read by Arrow's JSON reader (in C) with the
layout as its explicit schema, straight into columns. Anything else is read line by line by the
standard library's `json`: the `main` config (its tool schemas have no fixed Arrow type), a file
Arrow rejects or that is not the released layout exactly, and rows given as Python values (a
static judge's frame); judge rows are then put in the released layout and taken into the same
columns, and the load says why a file was converted. A malformed line (or one that is not an
object; NaN and Infinity are not JSON) is counted with its file and line; a file that ends inside
a line, or a config with fewer rows than its card declares, is an IncompleteDataError naming the
file. Every file is read once (`cache.read_input`, which keeps its content digest).
`datasets.load_dataset` is the way to look at one config interactively; the loader does not use it.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pj

from ajb_utils import cache, schema
from ajb_utils.data.bench import BenchDataError, IncompleteDataError
from ajb_utils.data.source import Card, Source, fetch, first_line

log = logging.getLogger("ajb_utils.data")

FIELDS: tuple[str, ...] = ("llm_score", "programmatic_score", "match_score")
NAMES: tuple[str, ...] = ("id", "generator", "difficulty")
MAIN_FIELDS = (*schema.REQUIRED_MAIN, "available_tools", "query_easy", "query_medium", "query_hard", "system_prompt")
GENERATOR_FIELDS = (*schema.REQUIRED_GENERATOR, "dag_type", "user_query", *schema.SCORE_COLUMNS.values())
_SPELLINGS = {m: list(dict.fromkeys((m, schema.PROMPT_KEYS[m], schema.SCORE_COLUMNS[m]))) for m in schema.METRICS}
_METRIC_KEYS = frozenset(k for spellings in _SPELLINGS.values() for k in spellings)
Rows = Path | list[dict[str, Any]]  # a JSON-lines file, or its rows as Python values


@dataclass
class Raw:
    """One config as read: `rows` the fields the loader reads (a judge config's as flat
    `cond.metric.field` number columns), `notes` a judge's rationales when asked (Arrow strings by
    `cond.metric.justification`), `bad` the malformed lines, `unknown` condition-like columns that
    are not known conditions, `converted` why the files were not read as the released layout."""

    rows: pd.DataFrame
    bad: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)
    converted: str | None = None

    @property
    def n(self) -> int:
        """Return the number of lines read (valid and malformed)."""
        return len(self.rows) + len(self.bad)


def read_config(
    src: Source,
    card: Card,
    config: str,
    revision: str | None,
    messages: list[str],
    kind: str = "main",
    justifications: bool = False,
) -> Raw:
    """Return one config of `kind` ("main", "generator", "judge") read from its files (downloaded
    at `revision` for the hub), its row count checked against the card's."""
    files = card.files.get(config)
    if not files:
        raise BenchDataError(f"config {config!r} has no data files in the README header")
    raw = read_files([fetch(src, rel, revision) for rel in files], kind, justifications)
    declared = card.rows.get(config)
    if declared is not None and raw.n < declared:
        raise IncompleteDataError(
            f"config {config!r} ({', '.join(files)}) has {raw.n} rows but its card declares "
            f"{declared}: the download is incomplete; download it again"
        )
    return noted(config, raw, messages)


def read_files(sources: list[Rows], kind: str = "main", justifications: bool = False) -> Raw:
    """Return the config in JSON-lines files (or Python rows) of `kind`, each file read once."""
    read = {s: cache.read_input(s) for s in sources if isinstance(s, Path)}
    arrow = len(read) == len(sources) and (kind == "judge" or (kind == "generator" and len(sources) == 1))
    data = b"".join(read.values()) if arrow else None  # the bytes Arrow reads (one file: no copy)
    if kind == "judge":
        return _judge_raw(sources, read, data, justifications)
    return _row_raw(sources, read, data, kind)


def noted(config: str, raw: Raw, messages: list[str]) -> Raw:
    """Return `raw`, saying in `messages` where its malformed lines are (the first three), why it
    was converted, and which condition-like columns are not known conditions (not read)."""
    if raw.bad:
        more = f" and {len(raw.bad) - 3} more" if len(raw.bad) > 3 else ""
        messages.append(
            f"config {config!r}: {len(raw.bad)} malformed JSON line(s) left out: {'; '.join(raw.bad[:3])}{more}"
        )
        log.warning(messages[-1])
    if raw.converted:
        messages.append(f"config {config!r}: not the released layout ({raw.converted}); converted line by line")
        log.info(messages[-1])
    if raw.unknown:
        messages.append(
            f"judge config {config!r}: column(s) {raw.unknown} are not known "
            f"conditions ({', '.join(schema.CONDITIONS)}); not read"
        )
        log.warning(messages[-1])
    return raw


def frame_rows(rows: pd.DataFrame) -> list[dict[str, Any]]:
    """Return a frame of Python values (a static judge's rows) as JSON objects (a missing value null)."""
    return rows.astype(object).where(rows.notna(), None).to_dict("records")


def _not_json(name: str) -> Any:
    """Refuse NaN and Infinity, which are not JSON (the standard library reads them)."""
    raise ValueError(f"{name} is not a JSON value")


_LINE = json.JSONDecoder(parse_constant=_not_json)


def _decode(line: bytes) -> Any:
    """Return the value of one JSON line, or the ValueError that says why it is not JSON."""
    try:
        return _LINE.decode(line.decode("utf-8"))
    except ValueError as exc:  # (UnicodeDecodeError and JSONDecodeError are ValueErrors)
        return exc


def decode_rows(
    sources: list[Rows], read: dict[Path, bytes], fields: tuple[str, ...] | None = None
) -> tuple[list[dict[str, Any]], list[str], dict[str, Any]]:
    """Return (the JSON objects of the files' non-blank lines (`read`: their bytes) or of Python
    rows, only their `fields` when given; the malformed lines by file and line; the first line as
    an object, {} if it is not one); IncompleteDataError for a file that ends inside a line."""
    rows: list[dict[str, Any]] = []
    bad: list[str] = []
    head: dict[str, Any] | None = None
    for source in sources:
        file = f"{source}: " if isinstance(source, Path) else ""
        if isinstance(source, Path):
            lines = read[source].split(b"\n")
            numbered = ((i, _decode(x)) for i, x in enumerate(lines, 1) if x.strip())
        else:
            lines, numbered = [], enumerate(source, 1)
        for i, row in numbered:
            head = (row if isinstance(row, dict) else {}) if head is None else head
            if isinstance(row, ValueError):
                if i == len(lines):
                    raise IncompleteDataError(
                        f"{source}: the file ends inside a line (line {i}: {row}), so it is incomplete: download "
                        "it again (for the hub, delete it from the hub cache; for a judge run, rerun it: it resumes)"
                    )
                bad.append(f"{file}line {i}: {row}")
            elif not isinstance(row, dict):
                bad.append(f"{file}line {i}: not an object")
            else:
                rows.append(row if fields is None else {f: row[f] for f in fields if f in row})
    return rows, bad, head or {}


def _row_raw(sources: list[Rows], read: dict[Path, bytes], data: bytes | None, kind: str) -> Raw:
    """Return a `main` or generator config's fields as columns of Python values (NaN where a row
    lacks a field; a field no row has left out); a generator file in the released layout read by
    Arrow (`_arrow_generator_columns`)."""
    why = None
    if data is not None:
        columns, why = _arrow_generator_columns(data)
        if columns is not None:
            return Raw(pd.DataFrame(columns))
    fields = MAIN_FIELDS if kind == "main" else GENERATOR_FIELDS
    rows, bad, _ = decode_rows(sources, read, fields)
    present = [f for f in fields if any(f in r for r in rows)]
    return Raw(pd.DataFrame({f: [r.get(f, np.nan) for r in rows] for f in present}), bad, converted=why)


def _arrow_generator_columns(data: bytes) -> tuple[dict[str, list[Any]] | None, str | None]:
    """Return (a generator config's fields as lists, read by Arrow with the released layout as its
    schema, or None with why the bytes are not that layout: every field in some row, every call
    OpenAI-style with its arguments as text, a row a line, no NaN)."""
    function = pa.struct([pa.field("name", pa.string()), pa.field("arguments", pa.string())])
    texts = [pa.field(f, pa.string()) for f in ("id", "difficulty", "dag_type", "user_query")]
    scores = [pa.field(f, pa.float64()) for f in schema.SCORE_COLUMNS.values()]
    calls = pa.field("generated_tool_calls", pa.list_(pa.struct([pa.field("function", function)])))
    options = pj.ParseOptions(explicit_schema=pa.schema([*texts, calls, *scores]), unexpected_field_behavior="ignore")
    if b"NaN" in data or b"Infinity" in data:
        return None, "NaN or Infinity, which are not JSON"
    try:
        table = pj.read_json(pa.BufferReader(data), parse_options=options)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
        return None, f"Arrow's JSON reader: {first_line(exc)}"
    items = table.column("generated_tool_calls").combine_chunks().flatten().flatten()[0].flatten()
    if any(c.null_count == len(c) for c in table.columns):
        return None, f"no row has {[n for n, c in zip(table.column_names, table.columns) if c.null_count == len(c)]}"
    if any(c.null_count for c in items):
        return None, "a call without a name or arguments as text (a flat call, or arguments as an object)"
    if table.num_rows != _count_lines(data):
        return None, f"{table.num_rows} rows for {_count_lines(data)} lines"
    return {f: table.column(f).to_pylist() for f in GENERATOR_FIELDS}, None


def _count_lines(data: bytes) -> int:
    """Return the number of lines of JSON-lines bytes (a last line without its newline counted)."""
    return data.count(b"\n") + (not data.endswith(b"\n") and bool(data))


def _judge_raw(sources: list[Rows], read: dict[Path, bytes], data: bytes | None, justifications: bool) -> Raw:
    """Return a judge config as flat columns (`_columns`): its files by Arrow's JSON reader when in
    the released layout (`_arrow_table`), any other rows put in that layout line by line first
    (`_loose_table`)."""
    why = None
    if data is not None:
        head = _head(data)
        table, why = _arrow_table(data, tuple(c for c in schema.CONDITIONS if c in head))
        if why is None:
            return _columns(table, justifications, unknown_conditions(head))
    rows, bad, head = decode_rows(sources, read)
    raw = _columns(_loose_table(rows), justifications, unknown_conditions(head))
    raw.bad, raw.converted = bad, why
    return raw


def _columns(table: pa.Table, justifications: bool, unknown: list[str]) -> Raw:
    """Return a judge table in the released layout as a Raw: id / generator / difficulty as
    categoricals, `cond.metric.field` arrays (llm_score float64, to be snapped; the published scores
    float32) and, when asked, `cond.metric.justification` notes, for every condition some row has."""
    rows: dict[str, Any] = {}
    notes: dict[str, Any] = {}
    for k in (k for k in NAMES if k in table.column_names):
        rows[k] = table.column(k).combine_chunks().dictionary_encode().to_pandas()
    for cond in [c for c in schema.CONDITIONS if c in table.column_names]:
        block = table.column(cond)
        if block.null_count == len(block):
            continue  # absent, or null in every row
        for m, metric in zip(schema.METRICS, block.flatten()):  # a null block or metric: null fields
            fields = dict(zip([f.name for f in metric.type], metric.flatten()))
            for f in FIELDS:
                values = fields[f].to_numpy(zero_copy_only=False)
                rows[f"{cond}.{m}.{f}"] = values if f == "llm_score" else values.astype(np.float32)
            if justifications:
                notes[f"{cond}.{m}.justification"] = fields["justification"]
    return Raw(pd.DataFrame(rows), unknown=unknown, notes=notes)


def _arrow_schema(conditions: tuple[str, ...]) -> pa.Schema:
    """Return the Arrow schema of a judge config in the released layout with these conditions
    (other fields inferred, so that an unexpected key shows in the table's type)."""
    note = [pa.field("justification", pa.string())]
    metric = pa.struct([pa.field(f, pa.float64()) for f in FIELDS] + note)
    block = pa.struct([pa.field(m, metric) for m in schema.METRICS] + [pa.field("overall_alignment_pct", pa.float64())])
    return pa.schema([pa.field(k, pa.string()) for k in NAMES] + [pa.field(c, block) for c in conditions])


def _arrow_table(data: bytes, conditions: tuple[str, ...]) -> tuple[pa.Table | None, str | None]:
    """Return (a judge config's bytes read by Arrow's JSON reader with the schema of these
    conditions, and why it is not the released layout exactly: None if it is, else what Arrow said
    or `_not_released`); read again with every known condition when another one turns up."""
    options = pj.ParseOptions(explicit_schema=_arrow_schema(conditions), unexpected_field_behavior="infer")
    try:
        table = pj.read_json(pa.BufferReader(data), parse_options=options)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
        return None, f"Arrow's JSON reader: {first_line(exc)}"
    if set(schema.CONDITIONS) & set(table.column_names) - set(conditions):
        return _arrow_table(data, tuple(schema.CONDITIONS))
    return table, _not_released(table, _count_lines(data))


def _not_released(table: pa.Table, lines: int) -> str | None:
    """Return why an Arrow-read judge table is not the released layout exactly (None if it is): not
    a row a line (a malformed or cut line), a row without its names, a block key beyond the metrics
    and the overall score, a verdict spelt `accuracy` or `score`, or NaN or Infinity (Arrow reads them)."""
    if table.num_rows != lines:
        return f"{table.num_rows} rows for {lines} lines"
    if any(table.column(k).null_count for k in NAMES):
        return "a row without id, generator or difficulty"
    allowed = {*schema.METRICS, "overall_alignment_pct"}
    for cond in (c for c in schema.CONDITIONS if c in table.column_names):
        block = table.schema.field(cond).type
        if {f.name for f in block} - allowed:
            return f"{cond} has key(s) {sorted({f.name for f in block} - allowed)}"
        if any({"accuracy", "score"} & {f.name for f in block.field(m).type} for m in schema.METRICS):
            return f"a verdict of {cond} spelt 'accuracy' or 'score'"
    return "NaN or Infinity, which are not JSON" if any(map(_not_finite, table.columns)) else None


def _not_finite(column: Any) -> bool:
    """Return True when an Arrow column holds a NaN or an infinity at any depth."""
    if pa.types.is_floating(column.type):
        return bool(pc.any(pc.invert(pc.is_finite(column))).as_py())
    if pa.types.is_struct(column.type):
        return any(map(_not_finite, column.flatten()))
    if pa.types.is_list(column.type) or pa.types.is_large_list(column.type):
        return _not_finite(pc.list_flatten(column))
    return False


def _head(data: bytes) -> dict[str, Any]:
    """Return the first non-blank line of JSON lines as an object ({} if it is not one)."""
    head = _decode(next((x for x in io.BytesIO(data) if x.strip()), b"{}"))  # (no copy of `data`)
    return head if isinstance(head, dict) else {}


def unknown_conditions(head: dict[str, Any]) -> list[str]:
    """Return the keys of a judge config's first row that hold a condition block (an object with a
    metric key, or its JSON text) but are not known conditions, sorted."""
    known = {*schema.CONDITIONS, *NAMES, "dag_type"}
    return sorted(k for k, v in head.items() if k not in known and not _METRIC_KEYS.isdisjoint(_as_block(v) or {}))


def _loose_table(rows: list[dict[str, Any]]) -> pa.Table:
    """Return judge rows of any encoding as an Arrow table in the released layout: names as text,
    blocks as objects of metrics (`_metric`); a name no row has, or a condition null in every row,
    left out."""
    names = [k for k in NAMES if any(k in r for r in rows)]
    conditions = tuple(c for c in schema.CONDITIONS if any(r.get(c) is not None for r in rows))
    canonical = [
        {k: None if (v := r.get(k)) is None else str(v) for k in names}
        | {
            c: None if (v := r.get(c)) is None else {m: _metric(_as_block(v), m) for m in schema.METRICS}
            for c in conditions
        }
        for r in rows
    ]
    table = pa.Table.from_pylist(canonical, schema=_arrow_schema(conditions))
    return table.drop_columns([k for k in NAMES if k not in names])


def _as_block(cell: Any) -> dict[str, Any] | None:
    """Return a condition cell as a block (an object, or JSON text of one); None otherwise."""
    if isinstance(cell, str):
        with contextlib.suppress(ValueError):  # (text that is not JSON stays text: no block)
            cell = json.loads(cell)
    return cell if isinstance(cell, dict) else None


def _metric(block: dict[str, Any] | None, metric: str) -> dict[str, Any] | None:
    """Return a metric's entry of a loose block in the released layout: its first non-null spelling,
    its verdict `llm_score` (else `accuracy` or `score`), numbers coerced, the rationale as text."""
    entry = next((v for k in _SPELLINGS[metric] if (v := (block or {}).get(k)) is not None), None)
    if not isinstance(entry, dict):
        return None
    out = {f: _number(entry.get(f)) for f in FIELDS} | {"justification": _text(entry.get("justification"))}
    if entry.get("llm_score") is None:
        out["llm_score"] = _number(entry["accuracy"] if "accuracy" in entry else entry.get("score"))
    return out


def _number(value: Any) -> float | None:
    """Return a loose value as a number (text as `pandas.to_numeric(errors="coerce")` reads it); None if not one."""
    if isinstance(value, bool | int | float):
        return float(value)
    return float(pd.to_numeric(value, errors="coerce")) if isinstance(value, str) else None


def _text(value: Any) -> str | None:
    """Return a loose rationale as text (a value that is not text as its JSON text)."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
