"""The tidy frames (docs/DATA_FORMAT.md §4) from the rows of each config: records, scored
generations, long verdicts. Calls are normalised once (`ajb_utils.calls`), rows are left out only
by the named rules of `rules`, and every join is checked (a many-to-one `merge(validate=...)`)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ajb_utils import schema
from ajb_utils.calls import normalize_tools, try_normalize_calls
from ajb_utils.data.bench import BenchDataError
from ajb_utils.data.read import FIELDS, Raw, frame_rows, read_files
from ajb_utils.data.rules import (
    BAD_RECORD,
    DUPLICATE,
    DUPLICATE_JUDGE,
    EMPTY_PLAN,
    NO_GENERATION,
    NULL_BLOCK,
    NULL_METRIC,
    NULL_TOPOLOGY,
    OUT_OF_RANGE,
    UNKNOWN_DIFFICULTY,
    UNKNOWN_RECORD,
    UNPARSEABLE,
    Excluded,
    dedup,
    exclusions,
    malformed,
    require_columns,
    snap_verdicts,
)
from ajb_utils.scoring import P_COLUMNS, match, score_frame

VERDICT_COLUMNS: list[str] = [
    "id",
    "generator",
    "difficulty",
    "condition",
    "metric",
    "llm_score",
    "p",
    "p_published",
    "match_published",
    "judge",
    "match",
]
GENERATION_COLUMNS: list[str] = [
    "id",
    "generator",
    "difficulty",
    "dag_type",
    "user_query",
    "generated_calls",
    *schema.SCORE_COLUMNS.values(),
]
MAX_GENERATORS = 1024  # key arithmetic room for the five released generators plus runs


def lookup(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Return for each `left` key the position of the equal `right` key (-1 if none): a left
    many-to-one join, checked (`right` keys must be unique)."""
    joined = pd.merge(
        pd.DataFrame({"k": left}),
        pd.DataFrame({"k": right, "row": np.arange(len(right))}),
        on="k",
        how="left",
        validate="many_to_one",
        sort=False,
    )
    return joined["row"].fillna(-1).to_numpy(np.int64)


def ordered(known: list[str], values: pd.Series) -> list[str]:
    """Return `known` followed by any other observed values, for categorical order."""
    extra = sorted(set(map(str, pd.Series(values).dropna().unique())) - set(known))
    return list(known) + extra


# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------


def build_records(raw: Raw, excl: list[Excluded]) -> pd.DataFrame:
    """Return the records frame (one row per record) from the `main` config."""
    rows = raw.rows
    require_columns(rows, "main", schema.REQUIRED_MAIN)
    if raw.bad:
        excl.append(malformed("main", raw.bad))
    parsed = [try_normalize_calls(v) for v in rows["expected_tool_calls"]]
    ok = np.array([p[0] is not None for p in parsed], dtype=bool)
    if (~ok).any():
        excl.append(exclusions("main", rows[~ok], BAD_RECORD))
    rows = rows[ok].copy()
    rows["expected_calls"] = [p[0] for p, k in zip(parsed, ok) if k]
    rows["tools"] = (
        [normalize_tools(v) for v in rows["available_tools"]]
        if "available_tools" in rows
        else [[] for _ in range(len(rows))]
    )
    for col in ("query_easy", "query_medium", "query_hard", "system_prompt"):
        if col not in rows:
            rows[col] = ""
    reason = dedup(rows["id"].astype(str), np.ones(len(rows), dtype=bool), DUPLICATE)
    dup = reason != None  # noqa: E711 (elementwise)
    if dup.any():
        excl.append(exclusions("main", rows[dup], reason[dup]))
        rows = rows[~dup]
    rec = rows[
        ["id", "dag_type", "query_easy", "query_medium", "query_hard", "system_prompt", "tools", "expected_calls"]
    ].reset_index(drop=True)
    rec["id"] = rec["id"].astype(str)
    rec["n_tools"] = rec["tools"].map(len)
    rec["n_expected_calls"] = rec["expected_calls"].map(len)
    rec["dag_type"] = pd.Categorical(rec["dag_type"], categories=ordered(schema.TOPOLOGIES, rec["dag_type"]))
    no_topology = rec["dag_type"].isna()
    if no_topology.any():
        excl.append(exclusions("main", rec[no_topology], NULL_TOPOLOGY))
    return rec


# --------------------------------------------------------------------------------------------
# Generations
# --------------------------------------------------------------------------------------------


def _generation_reasons(
    rows: pd.DataFrame, calls: list[Any], errors: list[str | None], records: pd.DataFrame
) -> np.ndarray:
    """Return each generation row's exclusion reason (None = kept): validity, then `dedup`."""
    reason = np.full(len(rows), None, dtype=object)
    ids = rows["id"].to_numpy(dtype=object)
    difficulty = rows["difficulty"].to_numpy(dtype=object)
    for bad, why in (
        (np.array([e is not None for e in errors], dtype=bool), UNPARSEABLE),
        (np.array([c is not None and len(c) == 0 for c in calls], dtype=bool), EMPTY_PLAN),
        (pd.Index(records["id"].to_numpy(dtype=object)).get_indexer(ids) < 0, UNKNOWN_RECORD),
        (pd.Index(schema.DIFFICULTIES).get_indexer(difficulty) < 0, UNKNOWN_DIFFICULTY),
    ):
        reason[bad & (reason == None)] = why  # noqa: E711 (elementwise): the first rule that applies
    valid = reason == None  # noqa: E711
    i, d = (pd.factorize(v, use_na_sentinel=False)[0].astype(np.int64) for v in (ids, difficulty))
    again = dedup(i * (int(d.max(initial=0)) + 1) + d, valid, DUPLICATE)  # key: (id, difficulty)
    return np.where(again != None, again, reason)  # noqa: E711


def authors_rule_note(rows: pd.DataFrame, calls: list[Any], generator: str) -> str | None:
    """Return a message counting text outputs that parsed only by the authors' rules (</think>, fences)."""
    col = rows["generated_tool_calls"]
    text = col.map(lambda x: isinstance(x, str)).to_numpy(bool)
    if not text.any():
        return None
    marked = col[text].str.contains(r"</think>|```", regex=True).to_numpy(bool)
    ok = np.array([c is not None for c in calls], dtype=bool)[text]
    n = int((marked & ok).sum())
    return (
        (
            f"{generator}: {n} generator output(s) read by the authors' rules (text after the last "
            "</think>, Markdown fences stripped)"
        )
        if n
        else None
    )


def build_generations(
    raw: Raw, generator: str, records: pd.DataFrame, excl: list[Excluded], messages: list[str]
) -> pd.DataFrame:
    """Return the valid, unscored generations of one generator config (exclusions recorded)."""
    rows = raw.rows
    require_columns(rows, generator, schema.REQUIRED_GENERATOR)
    if raw.bad:
        excl.append(malformed(generator, raw.bad))
    rows = rows.copy()
    rows["generator"] = generator
    rows["id"] = rows["id"].astype(str)
    parsed = [try_normalize_calls(v) for v in rows["generated_tool_calls"]]
    calls = [p[0] for p in parsed]
    reason = _generation_reasons(rows, calls, [p[1] for p in parsed], records)
    note = authors_rule_note(rows, calls, generator)
    if note:
        messages.append(note)
    bad = pd.notna(pd.Series(reason, dtype=object)).to_numpy()
    if bad.any():
        excl.append(exclusions(generator, rows[bad], reason[bad]))
    rows["generated_calls"] = calls
    gen = rows[~bad].copy()
    if "dag_type" not in gen:
        topo = records["dag_type"].astype(str).to_numpy()
        pos = lookup(gen["id"].to_numpy(), records["id"].to_numpy())
        gen["dag_type"] = topo[pos]
    if "user_query" not in gen:
        gen["user_query"] = ""
    for col in schema.SCORE_COLUMNS.values():
        gen[col] = pd.to_numeric(gen[col], errors="coerce") if col in gen else np.nan
    return gen[GENERATION_COLUMNS].reset_index(drop=True)


def score_generations(frames: list[pd.DataFrame], records: pd.DataFrame) -> pd.DataFrame:
    """Return the generations of every generator, scored by the programmatic judge (Eqs. 1-3)."""
    gens = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=GENERATION_COLUMNS)
    gens = score_frame(gens, records.set_index("id")["expected_calls"])
    gens["n_generated_calls"] = gens["generated_calls"].map(len)
    return gens


# --------------------------------------------------------------------------------------------
# Verdicts
# --------------------------------------------------------------------------------------------


def _positions(values: pd.Series, categories: list[str], canon: Any = None) -> np.ndarray:
    """Return each value's position in `categories` (-1 if absent), hashing unique values only."""
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    names = [str(u) if canon is None else canon(str(u)) for u in uniques]
    found = pd.Index(categories).get_indexer(names)
    return np.where(codes >= 0, found[np.maximum(codes, 0)], -1)


def generation_keys(
    ids: pd.Series,
    generators: pd.Series,
    difficulties: pd.Series,
    record_ids: list[str],
    generator_names: list[str] | None = None,
) -> np.ndarray:
    """Return an int64 key per (record, generator, difficulty) row; -1 where any part is unknown."""
    i = _positions(ids, record_ids)
    g = _positions(generators, generator_names or schema.GENERATORS, schema.canonical_generator)
    d = _positions(difficulties, schema.DIFFICULTIES)
    key = (i.astype(np.int64) * MAX_GENERATORS + g) * len(schema.DIFFICULTIES) + d
    return np.where((i < 0) | (g < 0) | (d < 0), -1, key)


@dataclass(frozen=True)
class GenerationIndex:
    """The valid generations' p_* scores by generation key: what verdicts join to."""

    keys: np.ndarray
    p: dict[str, np.ndarray]
    record_ids: list[str]
    generator_names: list[str]

    @classmethod
    def of(
        cls, generations: pd.DataFrame, record_ids: list[str] | None = None, generator_names: list[str] | None = None
    ) -> GenerationIndex:
        """Return the index of a generations frame (its names as columns or index levels)."""
        if not {"id", "generator", "difficulty"} <= set(generations.columns):
            generations = generations.reset_index()
        ids = record_ids or sorted(generations["id"].astype(str).unique())
        names = generator_names or ordered(schema.GENERATORS, generations["generator"])
        keys = generation_keys(generations["id"], generations["generator"], generations["difficulty"], ids, names)
        return cls(keys, {m: generations[P_COLUMNS[m]].to_numpy(float) for m in schema.METRICS}, list(ids), list(names))

    @functools.cached_property
    def dtypes(self) -> dict[str, pd.CategoricalDtype]:
        """Return the categorical dtypes of id, generator and difficulty (built once)."""
        return {
            "id": pd.CategoricalDtype(self.record_ids),
            "generator": pd.CategoricalDtype(self.generator_names),
            "difficulty": DIFFICULTY_DTYPE,
        }

    def position(self, key: np.ndarray) -> np.ndarray:
        """Return for each generation key the row of its generation (-1 if none): a checked
        many-to-one join (`lookup`: a valid key twice is an error)."""
        valid = np.flatnonzero(self.keys >= 0)
        return np.append(valid, -1)[lookup(key, self.keys[valid])]  # (-1, no match: the appended -1)

    def codes(self, key: np.ndarray) -> dict[str, np.ndarray]:
        """Return the id / generator / difficulty category codes of generation keys."""
        n_d = len(schema.DIFFICULTIES)
        return {
            "id": key // (MAX_GENERATORS * n_d),
            "generator": (key // n_d) % MAX_GENERATORS,
            "difficulty": key % n_d,
        }


def _categorical(codes: np.ndarray, dtype: pd.CategoricalDtype) -> pd.Categorical:
    """Return a categorical from valid codes (not checked again)."""
    return pd.Categorical.from_codes(codes, dtype=dtype, validate=False)


DIFFICULTY_DTYPE = pd.CategoricalDtype(schema.DIFFICULTIES)
CONDITION_DTYPE = pd.CategoricalDtype(schema.CONDITIONS)
METRIC_DTYPE = pd.CategoricalDtype(schema.METRICS)
_NAMES = ("id", "generator", "difficulty")


class _Condition:
    """One condition of a judge config's flat columns, as arrays: fields[(metric, name)] (floats)."""

    def __init__(self, rows: pd.DataFrame, cond: str) -> None:
        self.cond = cond
        self.fields = {(m, f): rows[f"{cond}.{m}.{f}"].to_numpy() for m in schema.METRICS for f in FIELDS}
        # A null block: the condition is missing, or none of its metrics has a verdict (a failed
        # judge call). The same rule for every encoding: Arrow cannot tell absent from null.
        self.null = np.isnan(np.column_stack([self.fields[(m, "llm_score")] for m in schema.METRICS])).all(axis=1)

    def keep(self, at: np.ndarray) -> None:
        """Keep only the rows at positions `at` (returns None)."""
        self.fields = {k: v[at] for k, v in self.fields.items()}
        self.null = self.null[at]


def _constant(value: str, categories: list[str], n: int) -> pd.Categorical:
    """Return `n` copies of `value` as a categorical over `categories`."""
    dtype = pd.CategoricalDtype(categories)
    return _categorical(np.full(n, categories.index(value), dtype=np.int16), dtype)


def present_conditions(rows: pd.DataFrame) -> list[str]:
    """Return the conditions a judge config's flat columns carry (scores, or rationales alone), in schema order."""
    first = schema.METRICS[0]
    return [
        c for c in schema.CONDITIONS if {f"{c}.{first}.llm_score", f"{c}.{first}.justification"} & set(rows.columns)
    ]


def build_verdicts(
    raw: Raw | pd.DataFrame,
    judge: str,
    generations: GenerationIndex | pd.DataFrame,
    excl: list[Excluded],
    justifications: bool = False,
) -> pd.DataFrame:
    """Return the long verdict frame of one judge config (every condition column present).

    `generations`: the valid generations (a GenerationIndex, or a frame with id, generator,
    difficulty and p_* as columns or index levels). Rows without a valid generation, duplicates
    (`rules.dedup`: a failed row loses to its valid retry) and null verdicts are exclusions.
    """
    raw = raw if isinstance(raw, Raw) else read_files([frame_rows(raw)], "judge", justifications)
    index = generations if isinstance(generations, GenerationIndex) else GenerationIndex.of(generations)
    frame, at = judge_verdicts(raw, judge, index, excl)
    if justifications:  # before `judge`
        frame.insert(frame.columns.get_loc("judge"), "justification", notes_column([kept_notes(raw, at)]))
    return frame


def judge_verdicts(
    raw: Raw, judge: str, index: GenerationIndex, excl: list[Excluded]
) -> tuple[pd.DataFrame, np.ndarray]:
    """Return (the long verdict frame of one judge config without justifications, the positions
    of the config's rows it keeps), exclusions recorded (`build_verdicts`)."""
    rows = raw.rows.reset_index(drop=True)
    require_columns(rows, judge, schema.REQUIRED_JUDGE)
    if raw.bad:
        excl.append(malformed(judge, raw.bad, judge=judge))
    ident = rows[list(_NAMES)]
    key = generation_keys(rows["id"], rows["generator"], rows["difficulty"], index.record_ids, index.generator_names)
    row = index.position(key)
    has_gen = row >= 0
    if (~has_gen).any():
        excl.append(exclusions(judge, ident[~has_gen], NO_GENERATION, judge=judge))
    conds = [_Condition(rows, c) for c in present_conditions(rows)]
    if not conds:
        raise BenchDataError(f"judge config {judge!r} has no condition column ({schema.CONDITIONS})")
    at = np.flatnonzero(has_gen)
    valid = ~np.any([c.null[at] for c in conds], axis=0)
    reason = dedup(key[at], valid, DUPLICATE_JUDGE)
    dup = reason != None  # noqa: E711 (elementwise)
    if dup.any():
        excl.append(exclusions(judge, ident.iloc[at[dup]], reason[dup], judge=judge))
        at = at[~dup]
    for c in conds:
        c.keep(at)
    return _long_verdicts(conds, judge, index, key[at], row[at], ident.iloc[at], excl), at


def kept_notes(raw: Raw, at: np.ndarray) -> Any:
    """Return a judge config's rationales of its rows `at` in the order of its verdict frame
    (`judge_verdicts`: the conditions in turn, the metrics within each), as one
    dictionary-encoded Arrow array."""
    import pyarrow as pa

    rows = pa.array(at, pa.int64())
    names = [f"{c}.{m}.justification" for c in present_conditions(raw.rows) for m in schema.METRICS]
    chunks = [chunk for name in names for chunk in raw.notes[name].take(rows).chunks]
    return pa.chunked_array(chunks, pa.string()).dictionary_encode().combine_chunks()


def notes_column(parts: list[Any]) -> pd.Categorical:
    """Return rationales (dictionary-encoded Arrow arrays, `kept_notes`) as one categorical, the
    categories in order of first appearance."""
    import pyarrow as pa

    return pa.chunked_array(parts, pa.dictionary(pa.int32(), pa.string())).to_pandas().array


def _long_verdicts(
    conds: list[_Condition],
    judge: str,
    index: GenerationIndex,
    key: np.ndarray,
    row: np.ndarray,
    ident: pd.DataFrame,
    excl: list[Excluded],
) -> pd.DataFrame:
    """Return the long frame (one row per kept judge row, condition and metric; the conditions in
    turn, the metrics within each), null and out-of-range verdicts recorded as exclusions."""
    n, n_m = len(key), len(schema.METRICS)
    llm, p_published, match_published = [], [], []
    for c in conds:
        if c.null.any():
            excl.append(exclusions(judge, ident[c.null], NULL_BLOCK, judge=judge, condition=c.cond))
        for metric in schema.METRICS:
            snapped, out_of_range = snap_verdicts(c.fields[(metric, "llm_score")])
            if out_of_range.any():
                excl.append(
                    exclusions(judge, ident[out_of_range], OUT_OF_RANGE, judge=judge, condition=c.cond, metric=metric)
                )
            null_metric = np.isnan(snapped) & ~c.null & ~out_of_range
            if null_metric.any():
                excl.append(
                    exclusions(judge, ident[null_metric], NULL_METRIC, judge=judge, condition=c.cond, metric=metric)
                )
            llm.append(snapped)
            p_published.append(c.fields[(metric, "programmatic_score")])
            match_published.append(c.fields[(metric, "match_score")])
    k = len(conds) * n_m
    names = {name: _categorical(np.tile(codes, k), index.dtypes[name]) for name, codes in index.codes(key).items()}
    cond_codes = np.array([schema.CONDITIONS.index(c.cond) for c in conds], dtype=np.int16)
    out = pd.DataFrame(
        {
            **names,
            "condition": _categorical(np.repeat(cond_codes, n_m * n), CONDITION_DTYPE),
            "metric": _categorical(np.tile(np.repeat(np.arange(n_m, dtype=np.int16), n), len(conds)), METRIC_DTYPE),
            "llm_score": np.concatenate(llm) if llm else np.array([], dtype=float),
            "p": np.tile(np.concatenate([index.p[m][row] for m in schema.METRICS]), len(conds)),
            "p_published": np.concatenate(p_published) if p_published else np.array([], dtype=float),
            "match_published": np.concatenate(match_published) if match_published else np.array([], dtype=float),
        }
    )
    out["judge"] = _constant(judge, [judge], len(out))
    out["match"] = match(out["p"], out["llm_score"])
    return out


# --------------------------------------------------------------------------------------------
# Tidy frames
# --------------------------------------------------------------------------------------------


def categorize(frame: pd.DataFrame, orders: dict[str, list[str]]) -> pd.DataFrame:
    """Return `frame` with name columns as ordered categoricals (paper order first)."""
    for col, known in orders.items():
        if col not in frame:
            continue
        if isinstance(frame[col].dtype, pd.CategoricalDtype):
            frame[col] = frame[col].cat.set_categories(ordered(known, pd.Series(frame[col].cat.categories)))
        else:
            frame[col] = pd.Categorical(frame[col], categories=ordered(known, frame[col]))
    return frame


SCORES: tuple[str, ...] = ("llm_score", "p", "p_published", "match_published", "match")


def compact(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Return a verdict frame with its scores as float32 (as the tidy frame keeps them); the same
    frame, not a copy, when they already are."""
    wide = {c: "float32" for c in SCORES if c in verdicts and verdicts[c].dtype != np.float32}
    return verdicts.astype(wide) if wide else verdicts


def tidy_verdicts(frames: list[pd.DataFrame], records: pd.DataFrame, orders: dict[str, list[str]]) -> pd.DataFrame:
    """Return the verdict frames as one frame (`frames` is emptied): dag_type from records,
    ordered categoricals, float32 scores."""
    judges = pd.CategoricalDtype(orders["judge"])
    for f in frames:
        f["judge"] = f["judge"].astype(judges)
    verdicts = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=VERDICT_COLUMNS)
    frames.clear()
    if len(verdicts):
        dag_codes = records["dag_type"].cat.codes.to_numpy()
        verdicts["dag_type"] = pd.Categorical.from_codes(
            dag_codes[verdicts["id"].cat.codes.to_numpy()], categories=records["dag_type"].cat.categories
        )
    verdicts = categorize(verdicts, orders)
    verdicts = compact(verdicts)
    if not isinstance(verdicts["id"].dtype, pd.CategoricalDtype):
        verdicts["id"] = pd.Categorical(verdicts["id"].astype(str), categories=records["id"].tolist())
    return verdicts
