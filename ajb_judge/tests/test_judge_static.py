"""Static judge: speed, never peeks at the GT without a reference, C3 derangement, export shape."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ajb_judge import RunConfig, run_judge, static_verdicts
from ajb_judge.static_judge import P_COLS, corrupted_donors, static_rewrite_verdicts
from ajb_judge.toybench import make_toy_bench
from ajb_utils.schema import CONDITIONS, METRICS


@pytest.fixture(scope="module")
def bench():
    return make_toy_bench(60)


def test_every_condition_gives_ternary_verdicts_with_a_reason(bench) -> None:
    v = static_verdicts(bench, CONDITIONS)  # 360 items x 7 conditions (its speed: benchmarks/, not a timed test)
    assert set(v["condition"]) == set(CONDITIONS)
    assert set(v["llm_score"].unique()) <= {0.0, 0.5, 1.0}
    assert v["justification"].map(bool).all()
    w = v[v.condition == "with_gt"]
    assert w["match"].mean() > 0.9  # rubric applied literally to the true reference
    assert v[v.condition == "corrupted_gt"]["match"].mean() < w["match"].mean()


def test_each_row_names_its_generation_condition_and_metric(bench) -> None:
    """One row per (generation, condition, metric), its p that generation's score of that metric;
    names and texts are categories (a full-scale frame holds 0.64 M rows)."""
    conds = ["without_gt", "with_gt", "deref"]
    v = static_verdicts(bench, conds)
    gens = bench.generations.reset_index(drop=True)
    assert len(v) == len(gens) * len(conds) * len(METRICS)
    assert not v.duplicated(["id", "generator", "difficulty", "condition", "metric"]).any()
    for col in ("id", "generator", "difficulty", "dag_type", "condition", "metric", "justification", "judge"):
        assert v[col].dtype == "category", col
    keyed = gens.astype({"id": str, "generator": str, "difficulty": str}).set_index(["id", "generator", "difficulty"])
    for m, col in P_COLS.items():
        rows = v[v["metric"] == m]
        want = keyed[col].reindex(
            list(zip(rows["id"].astype(str), rows["generator"].astype(str), rows["difficulty"].astype(str)))
        )
        assert np.allclose(rows["p"].to_numpy(), want.to_numpy(), equal_nan=True), m
    assert set(v["condition"].astype(str)) == set(conds) and set(v["judge"]) == {"static"}


def test_without_gt_never_reads_the_reference(bench) -> None:
    a = static_verdicts(bench, ["without_gt", "without_gt_05"])
    scrambled = type(bench)(
        records=bench.records.assign(expected_calls=[[]] * len(bench.records)), generations=bench.generations
    )
    b = static_verdicts(scrambled, ["without_gt", "without_gt_05"])
    assert np.array_equal(a["llm_score"].to_numpy(), b["llm_score"].to_numpy())
    assert (a["justification"] == b["justification"]).all()


def test_derangement(bench) -> None:
    d = corrupted_donors(bench.records, seed=3)
    dag = bench.records.set_index("id")["dag_type"]
    assert set(d) == set(bench.records["id"])
    assert all(k != v and dag[k] == dag[v] for k, v in d.items())
    assert d == corrupted_donors(bench.records, seed=3) and d != corrupted_donors(bench.records, seed=4)


def test_a_record_without_a_topology_still_gets_a_donor() -> None:
    recs = make_toy_bench(12).records
    recs["dag_type"] = recs["dag_type"].astype("category")
    recs.loc[0, "dag_type"] = None  # the sample plants such a row (its loader keeps it, with a note)
    d = corrupted_donors(recs, seed=0)
    assert set(d) == set(recs["id"].astype(str)) and all(k != v for k, v in d.items())


def test_static_run_exports_loader_schema(bench, tmp_path) -> None:
    s = run_judge(
        RunConfig(
            name="static_t",
            bench=bench,
            conditions=["with_gt", "without_gt"],
            out_dir=tmp_path,
            limit=12,
            progress=False,
        )
    )
    rows = [json.loads(x) for x in (tmp_path / "static_t.jsonl").read_text().splitlines()]
    assert len(rows) == 12 * 2 * 3 and s.statuses == {"ok": len(rows) * 2}
    blk = rows[0]["with_gt"]
    assert set(METRICS) <= set(blk) and blk["overall_alignment_pct"] is not None
    assert set(blk["tool_selection"]) == {"llm_score", "justification", "programmatic_score", "match_score"}
    meta = json.loads((tmp_path / "static_t.meta.json").read_text())
    for k in ("study", "judge", "display", "conditions", "generators", "decoding", "backend", "model", "source"):
        assert k in meta
    assert meta["synthetic"] is bench.synthetic is True  # a run over the synthetic sample says so
    assert meta["backend"] == "static" and meta["study"] == "static"
    # the loader's own verdict builder accepts it
    import pandas as pd

    from ajb_utils.data import build_verdicts

    gi = bench.generations.set_index(["id", "generator", "difficulty"])[["p_tool", "p_param", "p_seq", "p_cov"]]
    v = build_verdicts(pd.DataFrame(rows), "static_t", gi, [], False)
    assert len(v) == len(rows) * 2 * 4 and v["llm_score"].notna().all()


def test_static_rewrite_rows(bench) -> None:
    df = static_rewrite_verdicts(bench.records.head(5))
    assert list(df.columns) == ["id", "dag_type", "meta_judge", "pair", "criterion", "verdict"]
    assert len(df) == 5 * 4 and set(df["pair"]) == {"easy_medium", "medium_hard"}


def test_load_bench_picks_up_a_static_run(tmp_path) -> None:
    import shutil

    from ajb_utils.data import load_bench
    from ajb_utils.paths import SAMPLE_DIR

    if not (SAMPLE_DIR / "README.md").exists():
        pytest.skip("data/sample not generated")
    src = tmp_path / "src"
    shutil.copytree(SAMPLE_DIR, src)
    bench = load_bench(src, runs=None, judges=[])
    run_judge(RunConfig(name="static_judge", bench=bench, out_dir=src / "runs", limit=10, progress=False))
    b2 = load_bench(src, runs=["static_judge"], judges=[])
    v = b2.verdicts[b2.verdicts["judge"] == "static_judge"]
    assert len(v) > 0 and set(v["condition"].astype(str)) == {"with_gt", "without_gt"}
    row = b2.judges.set_index("judge").loc["static_judge"]
    assert row["study"] == "static" and row["synthetic"]  # judged on a copy of the synthetic sample
