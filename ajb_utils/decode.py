"""Typed decoding of the release's JSON-lines configs: only the fields the loader reads.

msgspec decodes each line against the released layout and skips every other field without
building Python objects for it: the judges' justifications (unless asked for) and the tool
schemas that every generator row repeats from `main`. A file that does not fit the layout
exactly (other metric spellings, blocks as JSON text, numbers as text, a malformed line, an
unknown condition column) gives None, and the loader's general path reads it: the same frames,
slower. Kept values are exactly what the general path keeps; the bytes of skipped fields are
not validated (Arrow's reader, used before, did not validate them either).

`python -m ajb_utils.decode` is the reader process the loader starts for judge configs: it takes
"mode path" lines on stdin and writes one pickled `decoded` result per line to stdout, in order,
so the judge files are decoded on the second core while the loader builds the generations.
"""

from __future__ import annotations

import functools
import gc
import operator
import pickle
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import orjson

from ajb_utils import schema

FIELDS: tuple[str, ...] = ("llm_score", "programmatic_score", "match_score")
JUDGE_KEYS: tuple[str, ...] = ("id", "generator", "difficulty", "dag_type")
GENERATOR_FIELDS: tuple[str, ...] = (
    *schema.REQUIRED_GENERATOR,
    "dag_type",
    "user_query",
    *schema.SCORE_COLUMNS.values(),
)
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


@functools.cache
def _judge_types(justifications: bool) -> tuple[msgspec.json.Decoder, Any, Any]:
    """Return the decoder of one judge line in the released layout (strict inside the blocks),
    an empty block and an empty metric (what a null or absent one reads as)."""
    # Unknown fields of a metric are skipped, as the general path ignores them, except the
    # other spellings of its verdict, which the general path reads: a file with one falls back.
    other = [(k, msgspec.UnsetType, _UNSET) for k in ("accuracy", "score")]
    note = [("justification", str | None, None)] if justifications else []
    metric = msgspec.defstruct("Metric", [(f, float | None, None) for f in FIELDS] + other + note, gc=False)
    block = msgspec.defstruct(
        "Block",
        [(m, metric | None, None) for m in schema.METRICS] + [("overall_alignment_pct", float | None, None)],
        forbid_unknown_fields=True,
        gc=False,
    )
    fields = [("id", str), ("generator", str), ("difficulty", str)] + [
        (c, block | None, None) for c in schema.CONDITIONS
    ]
    empty = metric()
    return (
        msgspec.json.Decoder(msgspec.defstruct("JudgeRow", fields, gc=False)),
        block(**dict.fromkeys(schema.METRICS, empty)),
        empty,
    )


def _codes(values: list[str]) -> tuple[np.ndarray, list[str]]:
    """Return (codes, uniques) of strings, uniques in order of first appearance."""
    uniques = list(dict.fromkeys(values))
    position = {v: i for i, v in enumerate(uniques)}
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


def _judge_rows(path: Path, justifications: bool) -> list[Any] | None:
    """Return a judge config's lines decoded in the released layout; None when one does not fit."""
    decoder = _judge_types(justifications)[0]
    try:
        with open(path, "rb") as fh:
            lines = [line for line in fh if line.strip()]
        if lines and unknown_conditions(orjson.loads(lines[0])):
            return None
        return list(map(decoder.decode, lines))
    except (msgspec.DecodeError, orjson.JSONDecodeError, TypeError, AttributeError):
        return None


def _blocks(rows: list[Any], no_block: Any) -> Iterator[tuple[str, list[Any]]]:
    """Yield (condition, its block per row) for every condition with a block in some row."""
    for cond in schema.CONDITIONS:
        blocks = _get(rows, cond)
        if blocks.count(None) == len(blocks):
            continue  # absent, or null in every row: the same to Arrow and to this loader
        yield cond, [no_block if b is None else b for b in blocks] if None in blocks else blocks


def judge_columns(path: Path, justifications: bool = False) -> Columns | None:
    """Return a judge config as flat columns: id / generator / difficulty as (codes, uniques),
    `cond.metric.field` arrays (llm_score float64, to be snapped; the published scores float32,
    as the tidy frames keep them) and `cond.metric.justification` lists when asked, for every
    condition with a block in some row; None when the file does not fit the released layout."""
    rows = _judge_rows(path, justifications)
    if rows is None:
        return None
    _, no_block, no_metric = _judge_types(justifications)
    out: Columns = {k: _codes(_get(rows, k)) for k in ("id", "generator", "difficulty")}
    names = [f"{m}.{f}" for m in schema.METRICS for f in FIELDS]
    for cond, blocks in _blocks(rows, no_block):
        table = _block_table(blocks, names, no_metric)
        for n, values in zip(names, table):  # the published scores are kept as float32 (as the frames keep them)
            out[f"{cond}.{n}"] = values.copy() if n.endswith(".llm_score") else values.astype(np.float32)
        if justifications:
            out.update(_notes(cond, blocks, no_metric))
    return out


def _notes(cond: str, blocks: list[Any], no_metric: Any) -> Columns:
    """Return {cond.metric.justification: one per row} of a condition's blocks."""
    return {f"{cond}.{m}.justification": _get(_get(blocks, m, no_metric), "justification") for m in schema.METRICS}


def judge_notes(path: Path) -> Columns | None:
    """Return only the `cond.metric.justification` lists of `judge_columns(path, True)` (no scores
    gathered), a missing one spelt as in the flat frame made of those lists (NaN in a list with
    text, None in one without); None when the file does not fit the released layout."""
    rows = _judge_rows(path, True)
    if rows is None:
        return None
    _, no_block, no_metric = _judge_types(True)
    out = {k: v for cond, blocks in _blocks(rows, no_block) for k, v in _notes(cond, blocks, no_metric).items()}
    for k, v in out.items():
        if None in v and v.count(None) < len(v):
            out[k] = [np.nan if x is None else x for x in v]
    return out


def decoded(path: Path, mode: str) -> Columns | None:
    """Return `judge_columns` of a file (mode "scores", or "all" with the justifications) or its
    `judge_notes` (mode "notes")."""
    return judge_notes(path) if mode == "notes" else judge_columns(path, mode == "all")


_GENERATOR_DECODER = msgspec.json.Decoder(
    msgspec.defstruct("GeneratorRow", [(f, msgspec.Raw, _UNSET) for f in GENERATOR_FIELDS], gc=False)
)


def generator_columns(path: Path) -> Columns | None:
    """Return a generator config's GENERATOR_FIELDS as columns of Python values (NaN where a row
    lacks the field; a field no row has is left out), each value parsed by orjson as the general
    path parses it; None when a line is malformed or not an object (the general path reads it)."""
    try:
        with open(path, "rb") as fh:
            rows = [_GENERATOR_DECODER.decode(line) for line in fh if line.strip()]
        out: Columns = {}
        for f in GENERATOR_FIELDS:
            raw = [getattr(r, f) for r in rows]
            if all(v is _UNSET for v in raw):
                continue
            out[f] = [np.nan if v is _UNSET else orjson.loads(memoryview(v)) for v in raw]
    except (msgspec.DecodeError, orjson.JSONDecodeError):
        return None
    return out


def serve(jobs: Any, out: Any) -> None:
    """Write one pickled (path, `decoded(path, mode)`) pair to `out` per "mode path" line of `jobs`."""
    gc.disable()  # no reference cycles are made here; the collector would walk every row again
    for line in jobs:
        mode, _, path = line.rstrip("\n").partition(" ")
        if path:
            pickle.dump((path, decoded(Path(path), mode)), out, protocol=pickle.HIGHEST_PROTOCOL)
            out.flush()


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout.buffer)
