"""The tidy frames (docs/DATA_FORMAT.md §4) from the rows of each config: records, scored
generations, long verdicts. Calls are normalised once (`ajb_utils.calls`), rows are left out only
by the named rules of `rules`, and every join is checked (many-to-one: a key twice is an error)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ajb_utils import schema
from ajb_utils.calls import normalize_tools, try_normalize_calls
from ajb_utils.data.bench import BenchDataError
from ajb_utils.data.read import NAMES, Raw, frame_rows, read_files
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
GENERATION_COLUMNS: list[str] = [*NAMES, "dag_type", "user_query", "generated_calls", *schema.SCORE_COLUMNS.values()]
GENERATION_DTYPES = {"id": "str", "user_query": "str", **dict.fromkeys(schema.SCORE_COLUMNS.values(), "float64")}
SCORES: tuple[str, ...] = ("llm_score", "p", "p_published", "match_published", "match")
CANON: dict[str, Callable[[str], str]] = {"id": str, "generator": schema.canonical_generator, "difficulty": str}


def ordered(known: list[str], values: pd.Series) -> list[str]:
    """Return `known` followed by any other observed values (sorted), for categorical order."""
    extra = sorted(set(map(str, pd.Series(values).dropna().unique())) - set(known))
    return list(known) + extra


def build_records(raw: Raw, excl: list[Excluded]) -> pd.DataFrame:
    """Return the records frame (one row per record) from the `main` config: unparseable expected
    calls and an id's later rows are exclusions, a null topology is counted and kept."""
    rows = raw.rows
    require_columns(rows, "main", schema.REQUIRED_MAIN)
    if raw.bad:
        excl.append(malformed("main", raw.bad))
    rows = rows.assign(expected_calls=[try_normalize_calls(v)[0] for v in rows["expected_tool_calls"]])
    bad = rows["expected_calls"].isna()
    if bad.any():
        excl.append(exclusions("main", rows[bad], BAD_RECORD))
        rows = rows[~bad]
    rows = rows.assign(tools=[normalize_tools(v) for v in rows.get("available_tools", [None] * len(rows))])
    dup = rows["id"].astype(str).duplicated()  # `rules.dedup` with every row valid: the first row wins
    if dup.any():
        excl.append(exclusions("main", rows[dup], DUPLICATE))
        rows = rows[~dup]
    for col in ("query_easy", "query_medium", "query_hard", "system_prompt"):
        if col not in rows:
            rows[col] = ""
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


def _generation_reasons(rows: pd.DataFrame, records: pd.DataFrame) -> np.ndarray:
    """Return each generation row's exclusion reason (None = kept): the first Appendix D rule that
    applies, then `dedup` by (id, difficulty)."""
    calls = rows["generated_calls"]
    reason = np.select(
        [
            calls.isna(),
            calls.map(len, na_action="ignore").eq(0),
            ~rows["id"].isin(records["id"]),
            ~rows["difficulty"].isin(schema.DIFFICULTIES),
        ],
        [UNPARSEABLE, EMPTY_PLAN, UNKNOWN_RECORD, UNKNOWN_DIFFICULTY],
        None,
    )
    key = rows.groupby(["id", "difficulty"], sort=False, dropna=False).ngroup()
    again = dedup(key, reason == None, DUPLICATE)  # noqa: E711 (elementwise)
    return np.where(again != None, again, reason)  # noqa: E711


def build_generations(
    raw: Raw, generator: str, records: pd.DataFrame, excl: list[Excluded], messages: list[str]
) -> pd.DataFrame:
    """Return the valid, unscored generations of one generator config (exclusions recorded), saying
    how many text outputs parsed only by the authors' rules (`calls.authors_text`)."""
    rows = raw.rows
    require_columns(rows, generator, schema.REQUIRED_GENERATOR)
    if raw.bad:
        excl.append(malformed(generator, raw.bad))
    rows = rows.assign(generator=generator, id=rows["id"].astype(str))
    rows["generated_calls"] = [try_normalize_calls(v)[0] for v in rows["generated_tool_calls"]]
    marked = rows["generated_tool_calls"].map(lambda v: isinstance(v, str) and ("</think>" in v or "```" in v))
    n = int((marked & rows["generated_calls"].notna()).sum())
    if n:
        messages.append(
            f"{generator}: {n} generator output(s) read by the authors' rules (text after the last "
            "</think>, Markdown fences stripped)"
        )
    reason = _generation_reasons(rows, records)
    bad = reason != None  # noqa: E711 (elementwise)
    if bad.any():
        excl.append(exclusions(generator, rows[bad], reason[bad]))
    gen = rows[~bad]
    if "dag_type" not in gen:
        gen["dag_type"] = gen["id"].map(records.set_index("id")["dag_type"].astype(str))
    if "user_query" not in gen:
        gen["user_query"] = ""
    for col in schema.SCORE_COLUMNS.values():
        gen[col] = pd.to_numeric(gen[col], errors="coerce") if col in gen else np.nan
    return gen[GENERATION_COLUMNS].reset_index(drop=True)


def score_generations(frames: list[pd.DataFrame], records: pd.DataFrame) -> pd.DataFrame:
    """Return the generations of every generator, scored by the programmatic judge (Eqs. 1-3)."""
    none = pd.DataFrame(columns=GENERATION_COLUMNS).astype(GENERATION_DTYPES)  # typed as a read config's
    gens = score_frame(
        pd.concat(frames, ignore_index=True) if frames else none, records.set_index("id")["expected_calls"]
    )
    gens["n_generated_calls"] = gens["generated_calls"].map(len).astype(np.int64)
    return gens


def _codes(values: pd.Series, categories: pd.Index, canon: Callable[[str], str] = str) -> np.ndarray:
    """Return each value's position in `categories` (-1 if absent), `canon` applied to the distinct
    values as text."""
    codes, uniques = pd.factorize(values)
    found = categories.get_indexer([canon(str(u)) for u in uniques])
    return np.append(found, -1)[codes]  # (a null value, code -1: the appended -1)


def generation_table(
    generations: pd.DataFrame, record_ids: list[str] | None = None, generators: list[str] | None = None
) -> pd.DataFrame:
    """Return what verdicts join to: each generation's id, generator and difficulty (`CANON`) as
    categoricals over `record_ids` (default: theirs, sorted), `generators` (default: the paper's,
    then others) and the difficulties, with its p_*; a generation with a name outside them has no
    verdicts and is left out. `generations`' names may be columns or index levels."""
    if not set(NAMES) <= set(generations.columns):
        generations = generations.reset_index()
    categories = {
        "id": record_ids or sorted(generations["id"].astype(str).unique()),
        "generator": generators or ordered(schema.GENERATORS, generations["generator"]),
        "difficulty": schema.DIFFICULTIES,
    }
    table = pd.DataFrame({p: generations[p].to_numpy(float) for p in P_COLUMNS.values()})
    for n, c in categories.items():
        table[n] = pd.Categorical.from_codes(_codes(generations[n], pd.Index(c), CANON[n]), c)
    return table.dropna(subset=list(NAMES)).reset_index(drop=True)


def generation_rows(rows: pd.DataFrame, table: pd.DataFrame) -> np.ndarray:
    """Return for each judge row the position in `table` of its generation (-1 if none): a checked
    many-to-one join on (id, generator, difficulty) (a generation twice is an error)."""
    codes = pd.DataFrame({n: _codes(rows[n], table[n].cat.categories, CANON[n]) for n in NAMES})
    known = pd.DataFrame({**{n: table[n].cat.codes for n in NAMES}, "row": np.arange(len(table))})
    joined = codes.merge(known, how="left", on=list(NAMES), validate="many_to_one", sort=False)
    return joined["row"].fillna(-1).to_numpy(np.int64)


def present_conditions(rows: pd.DataFrame) -> list[str]:
    """Return the conditions a judge config's flat columns carry (scores, or rationales alone), in schema order."""
    first = schema.METRICS[0]
    return [
        c for c in schema.CONDITIONS if {f"{c}.{first}.llm_score", f"{c}.{first}.justification"} & set(rows.columns)
    ]


def null_block(rows: pd.DataFrame, cond: str) -> np.ndarray:
    """Return where a condition is missing or none of its metrics has a verdict (a failed judge call):
    the same rule for every encoding, since Arrow cannot tell absent from null."""
    return rows[[f"{cond}.{m}.llm_score" for m in schema.METRICS]].isna().all(axis=1).to_numpy()


def build_verdicts(
    raw: Raw | pd.DataFrame, judge: str, generations: pd.DataFrame, excl: list[Excluded], justifications: bool = False
) -> pd.DataFrame:
    """Return the long verdict frame of one judge config (rows as read, or as a frame of Python
    values) over `generations` (the valid ones, with p_*; `generation_table`), exclusions recorded."""
    raw = raw if isinstance(raw, Raw) else read_files([frame_rows(raw)], "judge", justifications)
    frame, at, _ = judge_verdicts(raw, judge, generation_table(generations), excl)
    if justifications:  # before `judge`
        frame.insert(frame.columns.get_loc("judge"), "justification", notes_column([kept_notes(raw, at)]))
    return frame


def judge_verdicts(
    raw: Raw, judge: str, table: pd.DataFrame, excl: list[Excluded], unread: Sequence[str] = ()
) -> tuple[pd.DataFrame, np.ndarray, int]:
    """Return (the long verdict frame of one judge config without rationales, the positions of the
    config's rows it keeps, how many rows are about the generators `unread`, left out uncounted):
    other rows without a valid generation in `table` (`generation_table`), duplicates
    (`rules.dedup`: a row with a null block loses to its valid retry) and null or out-of-range
    verdicts are exclusions."""
    rows = raw.rows.reset_index(drop=True)
    require_columns(rows, judge, schema.REQUIRED_JUDGE)
    if raw.bad:
        excl.append(malformed(judge, raw.bad, judge=judge))
    ident = rows[list(NAMES)]
    row = generation_rows(rows, table)
    not_read = _codes(rows["generator"], pd.Index(unread), CANON["generator"]) >= 0
    missing = (row < 0) & ~not_read
    if missing.any():
        excl.append(exclusions(judge, ident[missing], NO_GENERATION, judge=judge))
    conds = present_conditions(rows)
    if not conds:
        raise BenchDataError(f"judge config {judge!r} has no condition column ({schema.CONDITIONS})")
    at = np.flatnonzero(row >= 0)
    valid = ~np.any([null_block(rows, c)[at] for c in conds], axis=0)
    reason = dedup(row[at], valid, DUPLICATE_JUDGE)  # key (id, generator, difficulty): its generation's row
    dup = reason != None  # noqa: E711 (elementwise)
    if dup.any():
        excl.append(exclusions(judge, ident.iloc[at[dup]], reason[dup], judge=judge))
        at = at[~dup]
    return _long_verdicts(rows.iloc[at], conds, judge, table, row[at], excl), at, int(not_read.sum())


def _long_verdicts(
    kept: pd.DataFrame, conds: list[str], judge: str, table: pd.DataFrame, row: np.ndarray, excl: list[Excluded]
) -> pd.DataFrame:
    """Return the long frame of the kept judge rows (one row per kept row, condition and metric: the
    conditions in turn, the metrics within each; their generations at `row` of `table`), null and
    out-of-range verdicts recorded as exclusions."""
    ident, llm = kept[list(NAMES)], []
    for c in conds:
        null = null_block(kept, c)
        if null.any():
            excl.append(exclusions(judge, ident[null], NULL_BLOCK, judge=judge, condition=c))
        for m in schema.METRICS:
            snapped, out_of_range = snap_verdicts(kept[f"{c}.{m}.llm_score"].to_numpy())
            for bad, why in ((out_of_range, OUT_OF_RANGE), (np.isnan(snapped) & ~null & ~out_of_range, NULL_METRIC)):
                if bad.any():
                    excl.append(exclusions(judge, ident[bad], why, judge=judge, condition=c, metric=m))
            llm.append(snapped)
    blocks = [f"{c}.{m}" for c in conds for m in schema.METRICS]
    n, n_m = len(row), len(schema.METRICS)
    out = pd.DataFrame(
        {
            **{name: table[name].array.take(np.tile(row, len(blocks))) for name in NAMES},
            "condition": pd.Categorical.from_codes(
                np.repeat([schema.CONDITIONS.index(c) for c in conds], n_m * n), schema.CONDITIONS
            ),
            "metric": pd.Categorical.from_codes(np.tile(np.repeat(np.arange(n_m), n), len(conds)), schema.METRICS),
            "llm_score": np.concatenate(llm),
            "p": np.tile(np.concatenate([table[P_COLUMNS[m]].to_numpy()[row] for m in schema.METRICS]), len(conds)),
            "p_published": np.concatenate([kept[f"{b}.programmatic_score"].to_numpy() for b in blocks]),
            "match_published": np.concatenate([kept[f"{b}.match_score"].to_numpy() for b in blocks]),
        }
    )
    out["judge"] = pd.Categorical.from_codes(np.zeros(len(out), np.int8), [judge])
    out["match"] = match(out["p"], out["llm_score"])
    return out


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


def categorize(frame: pd.DataFrame, orders: dict[str, list[str]]) -> pd.DataFrame:
    """Return `frame` with name columns as categoricals, their categories in order (`ordered`)."""
    for col, known in orders.items():
        if col in frame:
            values = frame[col].cat.categories if isinstance(frame[col].dtype, pd.CategoricalDtype) else frame[col]
            frame[col] = frame[col].astype(pd.CategoricalDtype(ordered(known, values)))
    return frame


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
    if not isinstance(verdicts["id"].dtype, pd.CategoricalDtype):  # (no frames)
        verdicts["id"] = pd.Categorical(verdicts["id"].astype(str), categories=records["id"].tolist())
    # the verdicts' id categories are the records' ids
    verdicts["dag_type"] = records["dag_type"].array.take(verdicts["id"].cat.codes.to_numpy())
    return compact(categorize(verdicts, orders))
