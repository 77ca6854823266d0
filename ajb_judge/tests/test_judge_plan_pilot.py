"""Issue 50: `plan` questions its pilot. It finds the pilot where runs are written (`--out`), a
stratum of one record has no variance (not 0), cells where the pilot has fewer than two records
per generator fall back to the six judges' variance and are named, a paired figure is not planned
from such cells, and the pilot's records per cell are printed; a pilot stopped by its budget warns."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from ajb_judge import RunConfig, run_judge  # noqa: E402
from ajb_judge import plan as P  # noqa: E402
from ajb_judge.conditions import stratified_ids  # noqa: E402
from ajb_judge.runner import SELECT_SEED  # noqa: E402
from ajb_judge.static_judge import static_verdicts  # noqa: E402
from ajb_utils import schema, stats  # noqa: E402
from runner_support import CLI_ENV  # noqa: E402

REF = "judge_gpt_5_4"


@pytest.fixture(scope="module")
def sample():
    """The sample's bench and the six judges' and the static judge's record alignments (every item)."""
    from ajb_utils.data import load_bench

    bench = load_bench("sample", judges=list(schema.MAIN_JUDGES), runs=None)
    static = static_verdicts(bench, schema.MAIN_CONDITIONS).assign(judge="pil")
    six = bench.verdicts[bench.verdicts["condition"].isin(schema.MAIN_CONDITIONS)]
    cols = ["judge", "id", "generator", "difficulty", "condition", "metric", "p", "llm_score", "match"]
    v = pd.concat([static[cols], six[cols]], ignore_index=True).astype({"judge": str, "id": str})
    return bench, stats.record_alignment(v, missing="exclude")


def static_pilot(out: Path, limit: int, *extra: str) -> None:
    args = [sys.executable, "-m", "ajb_judge", "run", "--name", "pil", "--out", str(out), "--limit", str(limit),
            "--no-progress", *extra]  # fmt: skip
    r = subprocess.run(args, capture_output=True, text=True, env=CLI_ENV, timeout=300)
    assert r.returncode == 0, r.stderr


def plan_cli(out: Path, *extra: str) -> subprocess.CompletedProcess:
    args = [sys.executable, "-m", "ajb_judge", "plan", "--out", str(out), "--pilot", "pil", *extra]
    return subprocess.run(args, capture_output=True, text=True, env=CLI_ENV, timeout=300)


def test_a_stratum_of_one_record_has_no_variance() -> None:
    assert math.isnan(P.stratified_se(np.array([0.5, 1.0, 0.0]), np.array(["a", "a", "b"])))
    assert math.isnan(P.stratified_se(np.array([0.7]), np.array(["a"])))
    two = P.stratified_se(np.array([0.5, 1.0, 0.0, 1.0]), np.array(["a", "a", "b", "b"]))
    assert two == pytest.approx(math.sqrt(np.var([0.5, 1.0], ddof=1) / 2 + np.var([0.0, 1.0], ddof=1) / 2) / 2)


def test_the_pilot_is_found_in_its_out_folder(sample, tmp_path) -> None:
    """A 10-record static pilot in --out: the plan's paired records are those its verdicts give (computed apart)."""
    bench, mu = sample
    static_pilot(tmp_path / "runs", 10)
    plan = P.make_plan(P.PlanConfig(pilot="pil", out_dir=tmp_path / "runs", targets=(3.0,)))
    ids = set(stratified_ids(bench.records, 10, SELECT_SEED))
    expect = P.cell_ses(mu[mu["id"].isin(ids) | (mu["judge"] != "pil")], "pil", REF, schema.MAIN_JUDGES)
    assert (plan.cells["pilot_records"] == 10).all()
    paired = plan.table[plan.table["quantity"].str.contains("paired") & ~plan.table["quantity"].str.contains("unp")]
    n, cell, *_ = P.needed(expect, "se_paired", 3.0)
    assert n > 10 and paired["records"].tolist() == [n] and paired["binding_cell"].tolist() == [cell]
    align = plan.table[plan.table["quantity"] == "alignment"]
    assert align["records"].tolist() == [P.needed(expect, "se_align", 3.0)[0]]
    r = plan_cli(tmp_path / "runs", "--target", "3")
    assert r.returncode == 0, r.stderr
    mine = mu[(mu["judge"] == "pil") & mu["id"].isin(ids)]
    fewest = mine.groupby(["condition", "difficulty", "generator"], observed=True).size().groupby(level=[0, 1]).min()
    got = plan.cells.set_index(["condition", "difficulty"])["pilot_min_per_generator"]
    assert got.to_dict() == {k: int(v) for k, v in fewest.items()}  # some generators left some records out
    assert (
        f"pilot 'pil' records per cell (fewest per generator): with_gt/easy 10 ({fewest['with_gt', 'easy']})"
        in r.stdout
    )
    assert "WARNING" not in r.stdout


def test_a_missing_pilot_export_is_refused(tmp_path) -> None:
    static_pilot(tmp_path / "runs", 4)
    (tmp_path / "runs" / "pil.jsonl").unlink()
    r = plan_cli(tmp_path / "runs")
    assert r.returncode == 2 and "pil.jsonl" in r.stderr, r.stderr


def test_a_one_record_pilot_plans_no_paired_figure(tmp_path) -> None:
    static_pilot(tmp_path / "runs", 1)
    plan = P.make_plan(P.PlanConfig(pilot="pil", out_dir=tmp_path / "runs", targets=(1.0, 3.0)))
    paired = plan.table[plan.table["quantity"].str.endswith("(paired)")]
    assert paired["records"].isna().all()  # not "1 record" from a variance of 0
    assert all(r == "no estimate: < 2 pilot records per generator in 6 of 6 cells" for r in paired["reachable"])
    assert (plan.cells["variance"] == "six judges").all()
    text = P.plan_text(plan)
    assert "WARNING: the pilot 'pil' has fewer than 2 records per generator in 6 of 6 cells" in text
    assert "the six judges' mean variance in 6 cells: with_gt/easy, with_gt/medium" in text
    assert "pilot 'pil' records per cell (fewest per generator): with_gt/easy 1 (1)" in text


def test_a_pilot_stopped_by_its_budget_warns(server, tmp_path, monkeypatch) -> None:
    out = tmp_path / "runs"
    s = run_judge(RunConfig(name="pil", backend="openai", model="good", base_urls=[server.url], api_key_env="AJB_TEST_KEY",
                            out_dir=out, limit=10, budget_tokens=60_000, progress=False, concurrency=4,
                            backoff_base_s=0.01))  # fmt: skip
    assert s.abort_kind == "budget" and s.statuses == {"ok": s.statuses.get("ok", 0)}
    r = plan_cli(out, "--target", "3")
    assert r.returncode == 0, r.stderr
    cells = pd.DataFrame(
        [(row["difficulty"], c) for row in map(json.loads, (out / "pil.jsonl").read_text().splitlines())
         for c in ("with_gt", "without_gt") if (row.get(c) or {}).get("overall_alignment_pct") is not None],
        columns=["difficulty", "condition"],
    )  # fmt: skip
    assert set(cells["condition"]) == {"with_gt"}  # the budget stopped it before any without-GT answer
    assert "WARNING: the pilot 'pil' has fewer than 2 records per generator in 6 of 6 cells" in r.stdout
    assert "without_gt/easy 0 (0)" in r.stdout
    paired = [ln for ln in r.stdout.splitlines() if ln.startswith("+-3 pp") and "(paired)" in ln]
    assert paired and all("no estimate" in ln for ln in paired), r.stdout


@settings(max_examples=150, deadline=None)
@given(
    counts=st.lists(st.lists(st.integers(0, 4), min_size=3, max_size=3), min_size=2, max_size=2),
    seed=st.integers(0, 2**16),
)
def test_thin_cells_are_exactly_those_under_two_pilot_records_per_generator(counts, seed) -> None:
    """Random pilots (0-4 records per generator and cell): a cell uses the pilot's variance iff every generator
    has at least 2 of its records; otherwise the six judges' variance, no paired SE, and the counts said."""
    rng = np.random.default_rng(seed)
    rows = []
    for cond, per_gen in zip(["with_gt", "without_gt"], counts, strict=True):
        for g, k in enumerate(per_gen):
            for i in range(5):  # the reference judges score 5 records per generator
                rid = f"r{g}_{i}"
                for judge in ("ref", "other"):
                    rows.append((judge, rid, f"g{g}", "easy", cond, float(rng.integers(0, 3)) / 2))
                if i < k:
                    rows.append(("pil", rid, f"g{g}", "easy", cond, float(rng.integers(0, 3)) / 2))
    mu = pd.DataFrame(rows, columns=["judge", "id", "generator", "difficulty", "condition", "mu"])
    ses = P.cell_ses(mu, "pil", "ref", ["ref", "other"]).set_index("condition")
    for cond, per_gen in zip(["with_gt", "without_gt"], counts, strict=True):
        row = ses.loc[cond]
        assert row["pilot_min_per_generator"] == min(per_gen) and row["pilot_records"] == sum(per_gen)
        thin = min(per_gen) < P.MIN_PILOT_PER_STRATUM
        assert row["variance"] == ("six judges" if thin else "pilot")
        assert math.isnan(row["se_paired"]) == thin  # no paired figure from a thin cell (a constant pilot: SE 0)
        assert math.isfinite(row["se_align"]) and math.isfinite(row["se_unpaired"])
        if thin:
            six = np.mean(
                [P._se(w, j, w[j].notna().to_numpy()) ** 2 for w in [_wide(mu, cond)] for j in ("ref", "other")]
            )
            assert row["se_align"] == pytest.approx(math.sqrt(six))


def _wide(mu: pd.DataFrame, cond: str) -> pd.DataFrame:
    g = mu[mu["condition"] == cond]
    return g.pivot_table(index=["generator", "id"], columns="judge", values="mu", aggfunc="first")
