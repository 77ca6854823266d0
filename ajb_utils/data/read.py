"""Reading one config's JSON-lines files into columns; what the rows mean is decided later, once
(`ajb_utils.calls`, `build`).

A judge or generator config in the released layout is read by Arrow's JSON reader (in C) with the
layout as its explicit schema, straight into columns. Anything else is decoded line by line by the
standard library's `json`: the `main` config (its tool schemas have no fixed Arrow type), a file
Arrow rejects or that is not the released layout exactly (a malformed line, loose spellings, blocks
as JSON text, flat calls, NaN), and rows given as Python values (a static judge's frame); judge
rows are then put in the released layout and read into the same columns, and the load says why a
file was converted (`converted`). A malformed line (or one that is not an object; NaN and Infinity
are not JSON) is counted in `bad` with its file and line. A file that ends inside a line, or a
config with fewer rows than its card declares, is an IncompleteDataError naming the file: a
malformed line in the middle is a counted exclusion, but a cut file silently loses every row after
the cut. Every file is read once (`cache.read_input`, which keeps its content digest).
(`datasets.load_dataset` is the way to look at one config interactively; the loader does not go
through it.)"""

from __future__ import annotations

import io
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ajb_utils import cache, schema
from ajb_utils.data.bench import BenchDataError, IncompleteDataError
from ajb_utils.data.source import Card, Source, fetch

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
Rows = Path | list[dict[str, Any]]  # a JSON-lines file, or its rows as Python values


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


def _line_rows(source: Path, data: bytes, rows: list[Any], found: Columns, fields: tuple[str, ...] | None) -> None:
    """Append the JSON objects of a file's lines (`data`) to `rows` (only their `fields` when
    given), its bad lines to `found`."""
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
        _append(row, f"{source}: line {i}", rows, found, fields)


def _append(row: Any, where: str, rows: list[Any], found: Columns, fields: tuple[str, ...] | None) -> None:
    """Append a decoded row (only its `fields` when given) to `rows` when an object, else say so
    in `found`."""
    if found["head"] is None:
        found["head"] = row if isinstance(row, dict) else {}
    if isinstance(row, dict):
        rows.append(row if fields is None else {f: row[f] for f in fields if f in row})
    else:
        found["bad"].append(f"{where}: not an object")


def decode_rows(
    sources: list[Rows], read: dict[Path, bytes] | None = None, fields: tuple[str, ...] | None = None
) -> tuple[list[dict[str, Any]], Columns]:
    """Return (the rows of JSON-lines files or of Python rows, only their `fields` when given (the
    rest let go line by line), what else the read found: `bad` the malformed lines' reasons, `cut`
    (file, reason) of a line the file ends inside or None, `head` the first row); a file's bytes
    from `read` when there."""
    rows: list[Any] = []
    found: Columns = {"bad": [], "cut": None, "head": None}
    for source in sources:
        if isinstance(source, Path):
            data = read[source] if read and source in read else cache.read_input(source)
            _line_rows(source, data, rows, found, fields)
        else:
            for i, row in enumerate(source, 1):
                _append(row, f"line {i}", rows, found, fields)
    found["head"] = found["head"] or {}
    return rows, found


def _number(value: Any) -> float | None:
    """Return a loose value as a number (`pandas.to_numeric(errors="coerce")` of text); None if not one."""
    if isinstance(value, bool | int | float):
        return float(value)
    if isinstance(value, str):
        import pandas as pd  # only for numbers given as text

        return float(pd.to_numeric(value, errors="coerce"))
    return None


def _text(value: Any) -> str | None:
    """Return a loose rationale as text (a value that is not text as its JSON text)."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _as_block(cell: Any) -> dict[str, Any] | None:
    """Return a condition cell as a block (an object, or JSON text of one); None otherwise."""
    if isinstance(cell, str):
        try:  # the text read as the JSON module reads it
            cell = json.loads(cell)
        except ValueError:
            return None
    return cell if isinstance(cell, dict) else None


def _metric(block: dict[str, Any] | None, metric: str) -> dict[str, Any] | None:
    """Return a metric's entry of a loose block in the released layout: its first non-null
    spelling (when an object), its verdict `llm_score` or else `accuracy` or `score`, its numbers
    coerced (`_number`), its rationale as text."""
    entry = next((v for k in _SPELLINGS[metric] if (v := (block or {}).get(k)) is not None), None)
    if not isinstance(entry, dict):
        return None
    out = {f: _number(entry.get(f)) for f in FIELDS} | {"justification": _text(entry.get("justification"))}
    if entry.get("llm_score") is None:
        out["llm_score"] = _number(entry["accuracy"] if "accuracy" in entry else entry.get("score"))
    return out


def _loose_table(rows: list[dict[str, Any]]) -> Any:
    """Return judge rows of any encoding as an Arrow table in the released layout: names as
    text, blocks as objects (`_as_block`) of metrics (`_metric`); a name no row has, or a
    condition null in every row, left out (a cell that is not a block: every metric null)."""
    import pyarrow as pa

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


def _arrow_schema(conditions: tuple[str, ...]) -> Any:
    """Return the Arrow schema of a judge config in the released layout with these conditions
    (the row's other fields are inferred, so that a block's or metric's unexpected key shows in
    the table's type)."""
    import pyarrow as pa

    note = [pa.field("justification", pa.string())]
    metric = pa.struct([pa.field(f, pa.float64()) for f in FIELDS] + note)
    block = pa.struct([pa.field(m, metric) for m in schema.METRICS] + [pa.field("overall_alignment_pct", pa.float64())])
    return pa.schema([pa.field(k, pa.string()) for k in NAMES] + [pa.field(c, block) for c in conditions])


def _not_released(table: Any, lines: int) -> str | None:
    """Return why an Arrow-read judge table is not the released layout exactly (None if it is):
    not one row a line, a row without its names, a block key beyond the metrics and the overall
    score, or a metric's verdict spelt `accuracy` or `score`."""
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
    return None


def _arrow_table(data: bytes, conditions: tuple[str, ...]) -> tuple[Any, str | None]:
    """Return (a judge config's bytes read by Arrow's JSON reader (in C) with the schema of these
    conditions, or None with what Arrow said); read again with every known condition when another
    one turns up (each condition absent from the schema costs nothing per row)."""
    import pyarrow as pa
    import pyarrow.json as pj

    options = pj.ParseOptions(explicit_schema=_arrow_schema(conditions), unexpected_field_behavior="infer")
    try:
        table = pj.read_json(pa.BufferReader(data), parse_options=options)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
        return None, _arrow_said(exc)
    if set(schema.CONDITIONS) & set(table.column_names) - set(conditions):
        return _arrow_table(data, tuple(schema.CONDITIONS))
    return table, None


def _arrow_said(exc: BaseException) -> str:
    """Return the first line of what Arrow's JSON reader said when it rejected a file."""
    return "Arrow's JSON reader: " + (str(exc).strip().splitlines() or [type(exc).__name__])[0][:160]


def _columns(table: Any, justifications: bool) -> Columns:
    """Return a judge table in the released layout as `judge_columns` gives its columns."""
    import pyarrow.compute as pc

    out: Columns = {}
    for k in (k for k in NAMES if k in table.column_names):
        codes = table.column(k).combine_chunks().dictionary_encode()
        out[k] = (pc.fill_null(codes.indices, -1).to_numpy().astype(np.int32), codes.dictionary.to_pylist())
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


def judge_columns(sources: list[Rows], justifications: bool = False) -> Columns:
    """Return a judge config (its JSON-lines files, or rows) as flat columns: id / generator /
    difficulty as (codes, uniques), `cond.metric.field` arrays (llm_score float64, to be snapped;
    the published scores float32, as the tidy frames keep them) and
    `cond.metric.justification` Arrow strings when asked, for every condition with a block in
    some row; with `bad`, `cut` (`decode_rows`) and `unknown`, the first row's condition-like
    columns that are not known conditions. Files in the released layout are read by Arrow's
    JSON reader (`_arrow_table`); any other rows are put in that layout line by line
    (`_loose_table`), and both give their columns one way (`_columns`)."""
    read = {s: cache.read_input(s) for s in sources if isinstance(s, Path)}
    why = None
    if len(read) == len(sources):
        data = b"".join(read.values())
        head = _head(data)
        table, why = _arrow_table(data, tuple(c for c in schema.CONDITIONS if c in head))
        lines = data.count(b"\n") + (not data.endswith(b"\n") and bool(data))
        del data
        # not the released layout exactly (a malformed or cut line, another encoding or spelling,
        # NaN or Infinity, which Arrow reads and JSON has not): the line-by-line pass decides
        why = why or _not_released(table, lines)
        if why is None and any(map(_not_finite, table.columns)):
            why = "NaN or Infinity, which are not JSON"
        if why is None:
            return {**_columns(table, justifications), "bad": [], "cut": None, "unknown": unknown_conditions(head)}
    rows, found = decode_rows(sources, read)
    found["unknown"] = unknown_conditions(found.pop("head"))
    found["converted"] = why
    return {**_columns(_loose_table(rows), justifications), **found}


def _arrow_generator_columns(data: bytes) -> tuple[Columns | None, str | None]:
    """Return (a generator config's bytes as `row_columns` gives them, read by Arrow's JSON reader
    with the released layout as its schema (the fields it does not read skipped in C), None with
    why when they are not that layout: every field in some row, every call OpenAI-style with its
    arguments as text, a row a line). (A null and an absent field are one to Arrow, and to the
    frames: both missing.)"""
    import pyarrow as pa
    import pyarrow.json as pj

    function = pa.struct([pa.field("name", pa.string()), pa.field("arguments", pa.string())])
    texts = [pa.field(f, pa.string()) for f in ("id", "difficulty", "dag_type", "user_query")]
    scores = [pa.field(f, pa.float64()) for f in schema.SCORE_COLUMNS.values()]
    calls = pa.field("generated_tool_calls", pa.list_(pa.struct([pa.field("function", function)])))
    layout = pa.schema([*texts, calls, *scores])
    options = pj.ParseOptions(explicit_schema=layout, unexpected_field_behavior="ignore")
    if b"NaN" in data or b"Infinity" in data:
        return None, "NaN or Infinity, which are not JSON"
    try:
        table = pj.read_json(pa.BufferReader(data), parse_options=options)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
        return None, _arrow_said(exc)
    items = table.column("generated_tool_calls").combine_chunks().flatten().flatten()[0].flatten()
    if any(c.null_count == len(c) for c in table.columns):
        return None, f"no row has {[n for n, c in zip(table.column_names, table.columns) if c.null_count == len(c)]}"
    if any(c.null_count for c in items):
        return None, "a call without a name or arguments as text (a flat call, or arguments as an object)"
    lines = data.count(b"\n") + (not data.endswith(b"\n") and bool(data))
    if table.num_rows != lines:
        return None, f"{table.num_rows} rows for {lines} lines"
    return {f: table.column(f).to_pylist() for f in GENERATOR_FIELDS} | {"bad": [], "cut": None}, None


def row_columns(sources: list[Rows], fields: tuple[str, ...]) -> Columns:
    """Return the `fields` of a `main` or generator config's rows as columns of Python values
    (NaN where a row lacks the field; a field no row has is left out), with `bad` and `cut`
    (`decode_rows`). A generator file in the released layout is read by Arrow
    (`_arrow_generator_columns`)."""
    read = {s: cache.read_input(s) for s in sources if isinstance(s, Path)}
    why = None  # the `main` config is always read line by line
    if fields == GENERATOR_FIELDS and len(read) == len(sources) == 1:
        columns, why = _arrow_generator_columns(next(iter(read.values())))
        if columns is not None:
            return columns
    rows, out = decode_rows(sources, read, fields)
    del out["head"]
    out["converted"] = why
    for f in fields:
        values = [r.get(f, _ABSENT) for r in rows]
        if values.count(_ABSENT) < len(values):
            out[f] = [np.nan if v is _ABSENT else v for v in values]
    return out


log = logging.getLogger("ajb_utils.data")


@dataclass
class Raw:
    """One config as read: `rows` holds nested values (dicts, lists or JSON strings) or, for a
    judge config, its flat columns (`judge_columns`: `cond.metric.field` numbers); `notes`
    its rationales when read (`cond.metric.justification` -> an Arrow string array); `bad` the
    malformed lines' reasons; `unknown` the condition-like columns that are not known
    conditions; `converted` why a file was not read as the released layout but converted to it
    line by line (None when it was, or for rows given as Python values); `n` rows in the files."""

    rows: pd.DataFrame
    bad: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)
    converted: str | None = None

    @property
    def n(self) -> int:
        """Return the number of lines read (valid and malformed)."""
        return len(self.rows) + len(self.bad)


def _cut(path: Path, what: str) -> IncompleteDataError:
    """Return the error for a file that ends inside a line (`what`: the decoder's reason, which may
    already name the file)."""
    what = what.removeprefix(f"{path}: ")
    return IncompleteDataError(
        f"{path}: the file ends inside a line ({what}), so it is incomplete: download it again "
        "(for the hub, delete it from the hub cache; for a judge run, rerun it: it resumes)"
    )


# --------------------------------------------------------------------------------------------
# One config
# --------------------------------------------------------------------------------------------


def noted(config: str, raw: Raw, messages: list[str]) -> Raw:
    """Return `raw`, saying in `messages` where its malformed lines are (file and line, the first
    three; every one is also an exclusion) and which condition-like columns of a judge config
    are not known conditions (not read)."""
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


def _checked(raw: Raw, config: str, card: Card, where: list[str]) -> Raw:
    """Return `raw` after checking its row count against the card's declared count."""
    declared = card.rows.get(config)
    if declared is not None and raw.n < declared:
        raise IncompleteDataError(
            f"config {config!r} ({', '.join(where)}) has {raw.n} rows but its card declares "
            f"{declared}: the download is incomplete; download it again"
        )
    return raw


def read_config(
    src: Source,
    card: Card,
    config: str,
    revision: str | None,
    messages: list[str],
    kind: str = "main",
    justifications: bool = False,
) -> Raw:
    """Return the rows of one config of `kind` ("main", "generator" or "judge"), its files read
    (`read_files`; downloaded at `revision` for the hub)."""
    files = card.files.get(config)
    if not files:
        raise BenchDataError(f"config {config!r} has no data files in the README header")
    paths = [fetch(src, rel, revision) for rel in files]
    return noted(config, _checked(read_files(paths, kind, justifications), config, card, files), messages)


def read_files(
    sources: list[Rows],
    kind: str = "main",
    justifications: bool = False,
) -> Raw:
    """Return the rows of JSON-lines files (or Python rows): a judge config's flat
    columns (with its rationales when `justifications`), the fields the loader reads of others."""
    if kind != "judge":
        return _raw(row_columns(sources, MAIN_FIELDS if kind == "main" else GENERATOR_FIELDS))
    return _raw(judge_columns(sources, justifications))


def frame_rows(rows: pd.DataFrame) -> list[dict[str, Any]]:
    """Return a frame of rows of Python values (a static judge's rows) as
    the rows of JSON objects, to be decoded as the files are (a missing value as null)."""
    return rows.astype(object).where(rows.notna(), None).to_dict("records")


def _raw(columns: Columns) -> Raw:
    """Return decoded columns as a Raw (a judge config's id, generator and difficulty, given as
    (codes, uniques), as categoricals); IncompleteDataError when a file ends inside a line."""
    if columns["cut"] is not None:
        raise _cut(Path(columns["cut"][0]), columns["cut"][1])
    rows = {k: v for k, v in columns.items() if k not in ("bad", "cut", "unknown", "converted")}
    notes = {k: rows.pop(k) for k in list(rows) if k.endswith(".justification")}
    rows.update({k: pd.Categorical.from_codes(*v, validate=False) for k, v in rows.items() if isinstance(v, tuple)})
    return Raw(pd.DataFrame(rows), columns["bad"], columns.get("unknown", []), notes, columns.get("converted"))
