"""Decoding of the release's JSON-lines configs into columns: only the fields the loader reads.

msgspec decodes each line and skips every other field without building Python objects for it:
the judges' justifications (unless asked for) and the tool schemas that every generator row
repeats from `main` (the bytes of skipped fields are not validated; Arrow's reader, used
before, did not validate them either). A judge config is decoded in the released layout, in C;
a file that does not fit it exactly is decoded, line by line, in a loose layout that takes any
JSON value anywhere and normalises it into the same flat columns (`judge_columns`): blocks as
JSON text, other metric spellings, a verdict spelt `accuracy` or `score`, numbers as text. Rows
given as Python values (`datasets`' rows, a static judge's frame) are decoded from their JSON
lines, so every judge config has this one path. A malformed line is counted in `bad` (a cut
last line in `cut`), whatever the config.
"""

from __future__ import annotations

import functools
import io
import itertools
import json
import operator
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import orjson

from ajb_utils import schema

FIELDS: tuple[str, ...] = ("llm_score", "programmatic_score", "match_score")
JUDGE_KEYS: tuple[str, ...] = ("id", "generator", "difficulty", "dag_type")
# the fields the loader reads of `main` and of a generator config
MAIN_FIELDS = (*schema.REQUIRED_MAIN, "available_tools", "query_easy", "query_medium", "query_hard", "system_prompt")
GENERATOR_FIELDS = (*schema.REQUIRED_GENERATOR, "dag_type", "user_query", *schema.SCORE_COLUMNS.values())
_METRIC_KEYS = frozenset(k for m in schema.METRICS for k in (m, schema.PROMPT_KEYS[m], schema.SCORE_COLUMNS[m]))
_UNSET = msgspec.UNSET
Columns = dict[str, Any]


def _is_block(value: Any) -> bool:
    """Return True when a value looks like a condition block (an object with a metric key)."""
    if isinstance(value, str) and value.lstrip().startswith("{"):
        try:
            value = orjson.loads(value)
        except orjson.JSONDecodeError:
            return False
    return isinstance(value, dict) and not _METRIC_KEYS.isdisjoint(value)


def unknown_conditions(values: dict[str, Any]) -> list[str]:
    """Return the names, among `values` (column -> a value of it), of condition-like columns
    that are not known conditions (schema.CONDITIONS), sorted."""
    return sorted(k for k, v in values.items() if k not in schema.CONDITIONS and k not in JUDGE_KEYS and _is_block(v))


_JSON = str | float | bool | list[Any] | dict[str, Any] | None  # any JSON value
_SCALAR = str | float | bool | list[Any]  # a JSON value that is neither an object nor null
# each metric's spellings, in the order the first non-null one wins
_SPELLINGS = {m: list(dict.fromkeys((m, schema.PROMPT_KEYS[m], schema.SCORE_COLUMNS[m]))) for m in schema.METRICS}


@functools.cache
def _judge_types(justifications: bool, loose: bool) -> tuple[msgspec.json.Decoder, Any, Any, Any]:
    """Return the decoder of one judge line, the block type, an empty block and an empty metric
    (what a null or absent one reads as). Strict is the released layout exactly (numbers or
    null, the metrics' own names and no other key in a block; a verdict spelt `accuracy` or
    `score` fails it); loose takes any JSON value anywhere, for `_entries` and `_value`."""
    leaf = _JSON if loose else float | None
    alt = [("accuracy", _JSON | msgspec.UnsetType, _UNSET), ("score", _JSON, None)] if loose else []
    alt = alt or [(k, msgspec.UnsetType, _UNSET) for k in ("accuracy", "score")]
    note = [("justification", _JSON if loose else str | None, None)] if justifications else []
    metric = msgspec.defstruct("Metric", [(f, leaf, None) for f in FIELDS] + alt + note, gc=False)
    entry = metric | _SCALAR | None if loose else metric | None
    spelt = [(k, entry, None) for m in schema.METRICS for k in (_SPELLINGS[m] if loose else [m])]
    total = [] if loose else [("overall_alignment_pct", float | None, None)]  # strict: no other key
    block = msgspec.defstruct("Block", spelt + total, forbid_unknown_fields=not loose, gc=False)
    cell = block | _SCALAR | None if loose else block | None
    keys = [(k, Any, _UNSET) if loose else (k, str) for k in ("id", "generator", "difficulty")]
    row = msgspec.defstruct("JudgeRow", keys + [(c, cell, None) for c in schema.CONDITIONS], gc=False)
    empty = metric()
    return msgspec.json.Decoder(row), block, block(**dict.fromkeys(schema.METRICS, empty)), empty


def _codes(values: list[Any]) -> tuple[np.ndarray, list[Any]]:
    """Return (codes, uniques) of values, uniques in order of first appearance (None: code -1)."""
    uniques = [v for v in dict.fromkeys(values) if v is not None]
    position = {v: i for i, v in enumerate(uniques)} | {None: -1}
    return np.fromiter(map(position.__getitem__, values), dtype=np.int32, count=len(values)), uniques


def _get(objects: list[Any], name: str, empty: Any = None) -> list[Any]:
    """Return attribute `name` of each object (`empty` where it is None, when given)."""
    values = list(map(operator.attrgetter(name), objects))
    return [empty if v is None else v for v in values] if empty is not None and None in values else values


def _block_table(blocks: list[Any], names: list[str], no_metric: Any) -> np.ndarray:
    """Return the `metric.field` values of blocks (none null) as a (len(names), n) float64 array."""
    try:  # one pass in C; a null metric breaks the chain
        return np.array(list(map(operator.attrgetter(*names), blocks)), dtype=float).reshape(-1, len(names)).T
    except AttributeError:
        entries = {m: _get(blocks, m, no_metric) for m in schema.METRICS}
        return np.array([_get(entries[n.split(".")[0]], n.split(".")[1]) for n in names], dtype=float)


Source = Path | list[bytes]  # a JSON-lines file, or its lines


def _readlines(path: Path) -> list[bytes]:
    """Return the lines of a file (each with its newline, the last one maybe without)."""
    with open(path, "rb") as fh:
        return fh.readlines()


def _decode_lines(sources: list[Source], decoders: tuple[Any, ...]) -> tuple[list[Any], bool, Columns]:
    """Return (the rows of JSON-lines sources, whether a line did not fit the first decoder, what
    else the read found: `bad` the malformed lines' reasons, `cut` (source, reason) of a line the
    file ends inside or None, `head` the first line). Every line is decoded by the first decoder;
    when one does not fit, each line by the last, one it cannot decode counted in `bad`."""
    texts = [s if isinstance(s, list) else _readlines(s) for s in sources]
    found: Columns = {"bad": [], "cut": None, "head": next(filter(bytes.strip, itertools.chain(*texts)), b"{}")}
    try:
        return list(map(decoders[0].decode, filter(bytes.strip, itertools.chain(*texts)))), False, found
    except msgspec.DecodeError:
        rows: list[Any] = []
    for source, lines in zip(sources, texts):
        where = f"{source}: line" if isinstance(source, Path) else "line"
        for i, line in enumerate(lines, 1):
            try:
                if line.strip():
                    rows.append(decoders[-1].decode(line))
            except msgspec.DecodeError:
                try:  # the reasons orjson gives (a line that parses is not an object)
                    orjson.loads(line)
                    why, cut = f"{where} {i}: not an object", False
                except orjson.JSONDecodeError as exc:
                    why, cut = f"{where} {i}: {exc}", not line.endswith(b"\n")
                found["bad"].append(why)
                found["cut"] = found["cut"] or ((str(source), why) if cut else None)
    return rows, True, found


def _as_block(cell: Any, block: Any) -> Any:
    """Return a loose condition cell as a block (a block, or JSON text of an object); None otherwise."""
    if isinstance(cell, str):
        try:  # the text read as the JSON module reads it
            cell = msgspec.convert(json.loads(cell), block)
        except (json.JSONDecodeError, msgspec.ValidationError):
            return None
    return cell if isinstance(cell, block) else None


def _entries(blocks: list[Any], metric: str, no_metric: Any) -> list[Any]:
    """Return a metric's entry in each loose block: its first non-null spelling, when an object."""
    kind = type(no_metric)
    spelt = zip(*(_get(blocks, k) for k in _SPELLINGS[metric]))
    firsts = (next((e for e in es if e is not None), None) for es in spelt)
    return [e if isinstance(e, kind) else no_metric for e in firsts]


def _value(entry: Any, name: str) -> Any:
    """Return one field of a loose metric entry (a null verdict read from `accuracy`, or `score`)."""
    v = getattr(entry, name)
    if v is None and name == "llm_score":
        return entry.score if entry.accuracy is _UNSET else entry.accuracy
    return v


def _to_float(values: list[Any]) -> np.ndarray:
    """Return values as float64, non-numbers as NaN (`pandas.to_numeric(errors="coerce")`)."""
    import pandas as pd  # only for loose files

    return np.array(pd.to_numeric(pd.Series(values, dtype=object), errors="coerce"), dtype=float)


def _arrow_schema(conditions: tuple[str, ...]) -> Any:
    """Return the Arrow schema of a judge config in the released layout with these conditions
    (the row's other fields are inferred, so that a block's or metric's unexpected key shows in
    the table's type)."""
    import pyarrow as pa

    note = [pa.field("justification", pa.string())]
    metric = pa.struct([pa.field(f, pa.float64()) for f in FIELDS] + note)
    block = pa.struct([pa.field(m, metric) for m in schema.METRICS] + [pa.field("overall_alignment_pct", pa.float64())])
    keys = [pa.field(k, pa.string()) for k in ("id", "generator", "difficulty")]
    return pa.schema(keys + [pa.field(c, block) for c in conditions])


def _released_layout(table: Any, lines: int) -> bool:
    """Return True when an Arrow-read judge table holds what the strict layout takes: one row a
    line, names given in every row, no block key beyond the metrics and the overall score, and
    no metric spelt with `accuracy` or `score`."""
    if table.num_rows != lines or any(table.column(k).null_count for k in ("id", "generator", "difficulty")):
        return False
    allowed = {*schema.METRICS, "overall_alignment_pct"}
    for cond in schema.CONDITIONS:
        if cond not in table.column_names:
            continue
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
    spelling, NaN: the line-by-line decoders decide)."""
    if b"NaN" in data or b"Infinity" in data:  # Arrow reads these; the strict decoder does not
        return None
    table = _arrow_table(data, conditions)
    if table is None:
        return None
    if not _released_layout(table, data.count(b"\n") + (not data.endswith(b"\n") and bool(data))):
        return None
    out: Columns = {"bad": [], "cut": None}
    for k in ("id", "generator", "difficulty"):
        codes = table.column(k).combine_chunks().dictionary_encode()
        out[k] = (codes.indices.to_numpy(zero_copy_only=False).astype(np.int32), codes.dictionary.to_pylist())
    for cond in [c for c in schema.CONDITIONS if c in table.column_names]:
        block = table.column(cond).combine_chunks()
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


def _conditions(line: bytes) -> tuple[str, ...]:
    """Return the known conditions a JSON line names (none if it is not an object)."""
    try:
        head = orjson.loads(line)
    except orjson.JSONDecodeError:
        return ()
    return tuple(c for c in schema.CONDITIONS if isinstance(head, dict) and c in head)


def _unknown(line: bytes) -> list[str]:
    """Return the condition-like columns of a JSON line that are not known conditions."""
    try:
        head = orjson.loads(line)
    except orjson.JSONDecodeError:
        return []
    return unknown_conditions(head) if isinstance(head, dict) else []


def _source_bytes(sources: list[Source]) -> bytes:
    """Return the bytes of JSON-lines sources, one after the other (a file not ending in a
    newline is kept as it is: a cut line stays cut)."""
    parts = [s.read_bytes() if isinstance(s, Path) else b"".join(s) for s in sources]
    return parts[0] if len(parts) == 1 else b"".join(parts)


def judge_columns(sources: list[Source], justifications: bool = False) -> Columns:
    """Return a judge config (its JSON-lines files, or lines) as flat columns: id / generator /
    difficulty as (codes, uniques), `cond.metric.field` arrays (llm_score float64, to be snapped;
    the published scores float32, as the tidy frames keep them) and
    `cond.metric.justification` lists when asked, for every condition with a block in some row;
    with `bad`, `cut` (`_decode_lines`) and `unknown`, the first row's condition-like columns
    that are not known conditions. A loose row's metric is its first non-null spelling (when an
    object), its verdict `llm_score` or else `accuracy` (when present) or `score`, its numbers
    coerced (`_to_float`); a block neither an object nor JSON text of one is null."""
    data = _source_bytes(sources)
    first = next(filter(bytes.strip, io.BytesIO(data)), b"{}")
    fast = _arrow_judge_columns(data, justifications, _conditions(first))
    del data
    if fast is not None:
        return {**fast, "unknown": _unknown(first)}
    decoders = (_judge_types(justifications, False)[0], _judge_types(justifications, True)[0])
    rows, loose, out = _decode_lines(sources, decoders)
    out["unknown"] = _unknown(out.pop("head"))
    _, block, no_block, no_metric = _judge_types(justifications, loose)
    for k in ("id", "generator", "difficulty"):
        values = _get(rows, k)
        if not loose or values.count(_UNSET) < len(values):  # (a field no row has is left out)
            out[k] = _codes([None if v is _UNSET else v for v in values] if loose else values)
    names = [f"{m}.{f}" for m in schema.METRICS for f in FIELDS]
    for cond in schema.CONDITIONS:
        cells = _get(rows, cond)
        if cells.count(None) == len(cells):
            continue  # absent, or null in every row: the same to Arrow and to this loader
        blocks = [_as_block(c, block) or no_block for c in cells] if loose else cells
        blocks = [no_block if b is None else b for b in blocks] if None in blocks else blocks
        if loose or justifications:
            entries = {m: (_entries if loose else _get)(blocks, m, no_metric) for m in schema.METRICS}
        split = [n.split(".") for n in names]
        table = [_to_float([_value(e, f) for e in entries[m]]) for m, f in split] if loose else None
        for n, values in zip(names, _block_table(blocks, names, no_metric) if table is None else table):
            out[f"{cond}.{n}"] = values.copy() if n.endswith(".llm_score") else values.astype(np.float32)
        if justifications:
            out.update({f"{cond}.{m}.justification": _get(entries[m], "justification") for m in schema.METRICS})
    return out


@functools.cache
def _row_decoder(fields: tuple[str, ...]) -> msgspec.json.Decoder:
    """Return the decoder of a line's `fields` (as raw JSON; every other field skipped)."""
    return msgspec.json.Decoder(msgspec.defstruct("Row", [(f, msgspec.Raw, _UNSET) for f in fields], gc=False))


def row_columns(sources: list[Path], fields: tuple[str, ...]) -> Columns:
    """Return the `fields` of a `main` or generator config's rows as columns of Python values
    (NaN where a row lacks the field; a field no row has is left out), each value parsed by
    orjson, with `bad` and `cut` (`_decode_lines`)."""
    rows, _, out = _decode_lines(list(sources), (_row_decoder(fields),))
    del out["head"]
    for f in fields:
        raw = _get(rows, f)
        if raw.count(_UNSET) < len(raw):
            out[f] = [np.nan if v is _UNSET else orjson.loads(memoryview(v)) for v in raw]
    return out
