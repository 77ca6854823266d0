"""Reading one config's bytes into rows: the JSON-lines files directly (orjson; judge configs by
Arrow's C++ reader against the released schema) or through `datasets.load_dataset`, which falls back
to the files when Arrow type inference fails, saying so. Whatever the engine, the result is a `Raw`
of the same shape; what the rows mean is decided later, once (`ajb_utils.calls`, `build`).

A file that ends inside a line, or a config with fewer rows than its card declares, is an
IncompleteDataError naming the file: a malformed line in the middle is a counted exclusion, but a
cut file silently loses every row after the cut."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from orjson import JSONDecodeError as _JSONError
from orjson import loads as _loads

from ajb_utils import cache as bench_cache
from ajb_utils import schema
from ajb_utils.data.bench import BenchDataError, IncompleteDataError
from ajb_utils.data.source import Card, Source, fetch

log = logging.getLogger("ajb_utils.data")

# Columns the per-generator configs repeat from `main`; dropped on read to save memory.
GENERATOR_DROP: tuple[str, ...] = ("available_tools", "expected_tool_calls")
JUDGE_KEYS: tuple[str, ...] = ("id", "generator", "difficulty", "dag_type")
_METRIC_KEYS = frozenset(k for m in schema.METRICS for k in (m, schema.PROMPT_KEYS[m], schema.SCORE_COLUMNS[m]))
_TAIL = 1 << 16


@dataclass
class Raw:
    """One config as read: `rows` holds nested values (dicts, lists or JSON strings) or, when
    `flat`, a judge config's `cond.metric.field` numbers; `bad` the malformed lines' reasons;
    `unknown` the condition-like columns that are not known conditions; `n` rows in the files."""

    rows: pd.DataFrame
    bad: list[str] = field(default_factory=list)
    flat: bool = False
    unknown: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        """Return the number of lines read (valid and malformed)."""
        return len(self.rows) + len(self.bad)


def _cut(path: Path, what: str) -> IncompleteDataError:
    """Return the error for a file that ends inside a line."""
    return IncompleteDataError(
        f"{path}: the file ends inside a line ({what}), so it is incomplete: download it again "
        "(for the hub, delete it from the hub cache; for a judge run, rerun it: it resumes)"
    )


def check_complete(path: Path) -> None:
    """Raise IncompleteDataError when a JSON-lines file's last line is cut (no newline, no JSON)."""
    with open(path, "rb") as fh:
        fh.seek(max(0, os.path.getsize(path) - _TAIL))
        tail = fh.read()
    last = tail.rsplit(b"\n", 1)[-1]
    if last.strip() and b"\n" in tail:  # (a last line longer than _TAIL is not checked here)
        try:
            _loads(last)
        except _JSONError:
            raise _cut(path, f"its last {len(last)} bytes are not a JSON object") from None


def read_jsonl(path: Path, drop: tuple[str, ...] = ()) -> tuple[list[dict[str, Any]], list[str]]:
    """Return (rows without the `drop` keys, malformed-line reasons) of a JSON-lines file, read a
    line at a time; raise IncompleteDataError when its last line is cut."""
    rows: list[dict[str, Any]] = []
    bad: list[str] = []
    with open(path, "rb") as fh:
        for i, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = _loads(line)
            except _JSONError as exc:
                if not line.endswith(b"\n"):  # no newline after it: the file was cut here
                    raise _cut(path, f"line {i}: {exc}") from None
                bad.append(f"line {i}: {exc}")
                continue
            if not isinstance(row, dict):
                bad.append(f"line {i}: not an object")
                continue
            for key in drop:
                row.pop(key, None)
            rows.append(row)
    return rows, bad


def _is_block(value: Any) -> bool:
    """Return True when a value looks like a condition block (an object with a metric key)."""
    if isinstance(value, str) and value.lstrip().startswith("{"):
        try:
            value = _loads(value)
        except _JSONError:
            return False
    return isinstance(value, dict) and not _METRIC_KEYS.isdisjoint(value)


def unknown_conditions(values: dict[str, Any]) -> list[str]:
    """Return the names, among `values` (column -> a value of it), of condition-like columns
    that are not known conditions (schema.CONDITIONS), sorted."""
    return sorted(k for k, v in values.items() if k not in schema.CONDITIONS and k not in JUDGE_KEYS and _is_block(v))


def _head(frame: pd.DataFrame) -> dict[str, Any]:
    """Return the first row of a frame as a dict ({} when empty)."""
    return frame.iloc[0].to_dict() if len(frame) else {}


# --------------------------------------------------------------------------------------------
# Judge configs through Arrow: flat numeric columns
# --------------------------------------------------------------------------------------------


def _verdict_arrow_schema() -> Any:
    """Return the explicit Arrow schema of a judge config's numbers (every known condition
    column; justifications are not read on this path)."""
    import pyarrow as pa

    metric = pa.struct(
        [("llm_score", pa.float64()), ("programmatic_score", pa.float64()), ("match_score", pa.float64())]
    )
    block = pa.struct([(m, metric) for m in schema.METRICS] + [("overall_alignment_pct", pa.float64())])
    return pa.schema(
        [("id", pa.string()), ("generator", pa.string()), ("difficulty", pa.string()), ("dag_type", pa.string())]
        + [(c, block) for c in schema.CONDITIONS]
    )


def read_judge_arrow(path: Path) -> pd.DataFrame | None:
    """Return a judge config as flat `cond.metric.field` columns, read by Arrow's C++ JSON reader
    against the released schema; None when the file does not fit it (JSON-string blocks, other
    metric spellings, unknown condition columns, malformed lines): the general path reads it."""
    import pyarrow as pa
    import pyarrow.json as paj

    with open(path, "rb") as fh:
        first = next((line for line in fh if line.strip()), b"")
    try:
        head = _loads(first) if first else {}
    except _JSONError:
        return None
    if not isinstance(head, dict) or unknown_conditions(head):
        return None
    for cond in schema.CONDITIONS:  # other spellings or JSON-string blocks: general path
        block = head.get(cond)
        if block is not None and not (isinstance(block, dict) and all(m in block for m in schema.METRICS)):
            return None
    try:
        table = paj.read_json(
            path,
            read_options=paj.ReadOptions(block_size=1 << 24),
            parse_options=paj.ParseOptions(explicit_schema=_verdict_arrow_schema(), unexpected_field_behavior="ignore"),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError, OSError):
        return None
    return flatten_judge_table(table)


def _categorical(column: Any) -> pd.Categorical:
    """Return a string column of an Arrow table as a pandas categorical (dictionary-encoded by
    Arrow: only the distinct values become Python strings)."""
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(column).combine_chunks()
    codes = encoded.indices.to_numpy(zero_copy_only=False)
    codes = np.where(np.isnan(codes), -1, codes).astype(np.int64) if codes.dtype.kind == "f" else codes
    return pd.Categorical.from_codes(codes, categories=pd.Index(encoded.dictionary.to_pylist(), dtype=object))


def flatten_judge_table(table: Any) -> pd.DataFrame | None:
    """Return a judge config's Arrow table as flat `cond.metric.field` numeric columns; None when
    a condition block is not a struct with every metric's `llm_score` (JSON-string blocks, other
    metric spellings): the general per-row path must read such a config."""
    import pyarrow as pa

    flat = table
    while any(pa.types.is_struct(f.type) for f in flat.schema):
        flat = flat.flatten()
    names = set(flat.column_names)
    if not {"id", "generator", "difficulty"} <= names:
        return None
    numeric = ("llm_score", "programmatic_score", "match_score")
    cols: dict[str, Any] = {c: _categorical(flat.column(c)) for c in ("id", "generator", "difficulty")}
    for cond in schema.CONDITIONS:
        if not any(n.startswith(cond + ".") for n in names):
            if cond in names:  # a condition column that is not a struct
                return None
            continue
        block: dict[str, np.ndarray] = {}
        for m in schema.METRICS:
            for f in numeric:
                name = f"{cond}.{m}.{f}"
                if name in names:
                    col = flat.column(name)
                    if not (
                        pa.types.is_floating(col.type) or pa.types.is_integer(col.type) or pa.types.is_null(col.type)
                    ):
                        return None
                    block[name] = col.to_numpy(zero_copy_only=False).astype(float)
                elif f == "llm_score":
                    return None  # the block spells its metrics differently
                else:
                    block[name] = np.full(flat.num_rows, np.nan)
        overall = f"{cond}.overall_alignment_pct"
        block[overall] = (
            flat.column(overall).to_numpy(zero_copy_only=False).astype(float)
            if overall in names
            else np.full(flat.num_rows, np.nan)
        )
        scores = np.column_stack(
            [block[f"{cond}.{m}.{f}"] for m in schema.METRICS for f in ("llm_score", "programmatic_score")]
        )
        if np.isnan(scores).all() and np.isnan(block[overall]).all():
            continue  # absent from this file (explicit schemas fill absent columns with nulls)
        if (~np.isnan(block[overall]) & np.isnan(scores).all(axis=1)).any():
            return None  # blocks whose metric keys the schema did not catch
        cols.update(block)
    frame = pd.DataFrame(cols)
    return None if len(frame) and frame[["id", "generator", "difficulty"]].isna().any().any() else frame


# --------------------------------------------------------------------------------------------
# datasets
# --------------------------------------------------------------------------------------------


def _datasets_cache_dir(src: Source, files: list[str]) -> Path:
    """Return where `datasets` keeps its Arrow copy of a config: for a local folder a directory
    keyed by the folder's path and the content of the config's files (datasets itself keys local
    folders by their basename only, and would serve stale or foreign data)."""
    if not src.is_local:
        return bench_cache.cache_root() / "datasets"  # hub data: datasets keys it by commit
    root = Path(src.location)
    return bench_cache.datasets_cache_dir(src.location, [root / "README.md", *(root / f for f in files)])


def dataset_table(src: Source, config: str, revision: str | None, files: list[str]) -> Any:
    """Return a config's Arrow table through `datasets.load_dataset` (cached by content)."""
    import datasets

    datasets.disable_progress_bars()
    datasets.logging.set_verbosity_error()
    ds = datasets.load_dataset(
        src.location, config, split="train", revision=revision, cache_dir=str(_datasets_cache_dir(src, files))
    )
    return ds.data.table


def _pylist(column: Any) -> list[Any]:
    """Return an Arrow column as Python values, decoding datasets' Json feature (the JSON text
    `datasets` stores for a column whose type changes between rows) back to the values."""
    values = column.to_pylist()
    if getattr(column.type, "extension_name", None) == "arrow.json":
        return [None if v is None else _loads(v) for v in values]
    return values


# --------------------------------------------------------------------------------------------
# One config, whatever the engine
# --------------------------------------------------------------------------------------------


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
    engine: str,
    messages: list[str],
    drop: tuple[str, ...] = (),
    judge: bool = False,
    justifications: bool = False,
) -> Raw:
    """Return one config's rows. engine "datasets" reads through `datasets.load_dataset` and falls
    back to the files on inference errors (saying so); "json" reads the files (a judge config by
    Arrow's C++ reader where it fits, unless `justifications` are wanted)."""
    files = card.files.get(config)
    if not files:
        raise BenchDataError(f"config {config!r} has no data files in the README header")
    if src.is_local:
        for rel in files:
            check_complete(Path(src.location) / rel)
    if engine == "datasets":
        try:
            table = dataset_table(src, config, revision, files)
        except Exception as exc:  # Arrow inference / cast failures, missing optional deps
            msg = (
                f"config {config!r}: datasets could not infer Arrow types "
                f"({type(exc).__name__}); read the JSON-lines file directly instead"
            )
            messages.append(msg)
            log.warning(msg)
        else:
            flat = flatten_judge_table(table) if judge and not justifications else None
            if flat is not None:
                raw = Raw(flat, flat=True, unknown=unknown_conditions((table.slice(0, 1).to_pylist() or [{}])[0]))
            else:
                rows = pd.DataFrame({c: _pylist(table.column(c)) for c in table.column_names if c not in drop})
                raw = Raw(rows, unknown=unknown_conditions(_head(rows)) if judge else [])
            return _checked(raw, config, card, files)
    paths = [fetch(src, rel, revision) for rel in files]
    raw = read_path(paths[0], drop, judge, justifications) if len(paths) == 1 else read_files(paths, drop, judge)
    return _checked(raw, config, card, files)


def read_files(paths: list[Path], drop: tuple[str, ...] = (), judge: bool = False) -> Raw:
    """Return the rows of JSON-lines files read directly (no Arrow inference)."""
    rows: list[dict[str, Any]] = []
    bad: list[str] = []
    for path in paths:
        r, b = read_jsonl(path, drop)
        rows += r
        bad += b
    frame = pd.DataFrame(rows)
    return Raw(frame, bad, unknown=unknown_conditions(_head(frame)) if judge else [])


def read_path(path: Path, drop: tuple[str, ...] = (), judge: bool = False, justifications: bool = False) -> Raw:
    """Return the rows of one JSON-lines file: a judge config by Arrow's C++ reader where it
    fits (unless `justifications` are wanted), else line by line."""
    flat = read_judge_arrow(path) if judge and not justifications else None
    return Raw(flat, flat=True) if flat is not None else read_files([path], drop, judge)
