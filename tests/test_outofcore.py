"""The out-of-core route (DuckDB over the build's Parquet) against the in-memory Table 2 of stats."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ajb_utils import outofcore, schema, stats, tables
from ajb_utils.cache import write_build
from ajb_utils.scoring import match

JUDGES = ["judge_qwq_32b", "judge_gpt_5_4", "run_temperature_07"]  # the last one is not a Table 2 judge
CONDITIONS = ["with_gt", "without_gt", "freeform"]  # freeform is not a Table 2 condition


def planted_verdicts(seed: int, n_ids: int, absent: float, null: float, silent: float) -> pd.DataFrame:
    """Return a verdicts frame as the loader makes it (names as categoricals, scores as float32) over
    every (id, generator, judge, difficulty, condition, metric), with a share `absent` of metric rows
    left out, a share `null` of null verdicts and a share `silent` of records with no verdict at all."""
    rng = np.random.default_rng(seed)
    keys = ["id", "generator", "judge", "difficulty", "condition", "metric"]
    values = [[f"r{i}" for i in range(n_ids)], schema.GENERATORS[:2], JUDGES, schema.DIFFICULTIES, CONDITIONS]
    grid = pd.MultiIndex.from_product([*values, schema.METRICS], names=keys).to_frame(index=False)
    grid = grid[rng.random(len(grid)) >= absent].reset_index(drop=True)
    p = rng.choice([0.0, 0.25, 0.3333, 0.5, 0.6667, 1.0], size=len(grid))
    llm = rng.choice([0.0, 0.5, 1.0], size=len(grid))
    record = grid.groupby(keys[:-1], sort=False).ngroup().to_numpy()
    silent_record = rng.random(record.max() + 1 if len(grid) else 0) < silent
    llm[(rng.random(len(grid)) < null) | silent_record[record]] = np.nan
    v = pd.DataFrame({k: pd.Categorical(grid[k], categories=sorted(set(grid[k]))) for k in keys})
    for k, order in (("generator", schema.GENERATORS), ("difficulty", schema.DIFFICULTIES), ("metric", schema.METRICS)):
        v[k] = v[k].cat.set_categories(order)  # the paper's order, as the loader keeps it
    v["llm_score"], v["p"] = llm.astype(np.float32), p.astype(np.float32)
    v["match"] = match(v["p"], v["llm_score"]).astype(np.float32)
    return v


def in_memory_table2(v: pd.DataFrame) -> pd.DataFrame:
    """Return Table 2's cells of a verdicts frame by stats (what tables.table_T02 does with a bench)."""
    main = v[v["judge"].isin(schema.JUDGES) & v["condition"].isin(schema.MAIN_CONDITIONS)]
    cells = stats.align(main, by=tables.T02_KEYS, missing=stats.PAPER_MISSING)
    return cells.astype({c: str for c in tables.T02_KEYS}).reset_index(drop=True)


@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 6),
    st.sampled_from([0.0, 0.3]),
    st.sampled_from([0.0, 0.2, 0.9]),
    st.sampled_from([0.0, 0.3]),
)
@settings(max_examples=25, deadline=None)
def test_duckdb_table2_equals_the_in_memory_one(
    seed: int, n_ids: int, absent: float, null: float, silent: float
) -> None:
    """Over random verdict frames (absent metric rows, null verdicts, records with no verdict), the
    cells DuckDB computes from the written build equal stats' cells of the same frame."""
    v = planted_verdicts(seed, n_ids, absent, null, silent)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench" / "build"
        write_build(folder, {"verdicts": v}, {"location": "planted", "args": {}})
        got = outofcore.table2_cells(folder)
    want = in_memory_table2(v)
    assert len(want) > 0 or len(got) == 0
    pd.testing.assert_frame_equal(got, want, check_exact=False, rtol=1e-12, atol=1e-9)


def test_the_generator_plants_the_cases_the_rule_names() -> None:
    """The planted frames hold a null metric inside a verdict, a record with no verdict and an absent row."""
    v = planted_verdicts(1, 4, 0.3, 0.2, 0.3)
    per_record = v.groupby(["id", "generator", "judge", "difficulty", "condition"], observed=True)["llm_score"]
    n = per_record.count()
    assert (n == 0).any() and ((n > 0) & (per_record.size() > n)).any() and (per_record.size() < 4).any()


def test_a_folder_without_a_build_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="not a frame of a complete build"):
        outofcore.table2_cells(tmp_path)
