"""`plan` (ajb_judge/plan.py): its statistics against hand-computed cases and scipy, the planned records
against a bootstrap at that size on the sample, and its cost against a loopback server that bills by
another rule (words x 1.3) than the estimate's."""

from __future__ import annotations

import dataclasses
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ajb_judge import plan as P
from ajb_judge.conditions import stratified_ids
from ajb_judge.static_judge import static_verdicts
from ajb_judge.tests.fake_openai_server import FakeServer
from ajb_judge.tests.runner_support import CLI_ENV, SECRET
from ajb_judge.tests.runner_support import cfg as server_cfg
from ajb_utils import schema, stats
from ajb_utils.paths import SAMPLE_DIR


def test_stratified_se_is_the_se_of_a_mean_of_stratum_means() -> None:
    a, b = np.array([0.0, 1.0, 1.0, 0.0]), np.array([1.0, 1.0, 0.5])
    expected = math.sqrt(np.var(a, ddof=1) / 4 + np.var(b, ddof=1) / 3) / 2
    mu = np.concatenate([a, b])
    strata = np.array(["x"] * 4 + ["y"] * 3)
    assert P.stratified_se(mu, strata) == pytest.approx(expected)
    one = np.array([0.2, 0.4, 0.9])
    from scipy import stats as sps

    assert P.stratified_se(one, np.zeros(3)) == pytest.approx(sps.sem(one))


def test_records_needed_inverts_the_half_width() -> None:
    # SE 2 pp on 50 records: half-width 3.92; 2 pp needs 50 * (1.96 * 2 / 2)^2 = 192.07 -> 193 records
    assert P.records_needed(2.0, 50, 2.0) == math.ceil(50 * P.Z95**2)
    n = P.records_needed(2.0, 50, 1.5)
    assert P.half_width_at(2.0, 50, n) <= 1.5 < P.half_width_at(2.0, 50, n - 1)
    assert P.records_needed(float("nan"), 50, 1.0) == 0


def test_cell_ses_paired_and_unpaired_hand_computed() -> None:
    rows = []
    for i, (new, ref) in enumerate([(1.0, 0.5), (0.5, 0.5), (0.0, 0.5), (1.0, 1.0)]):
        rows += [("new", f"r{i}", "g", "easy", "with_gt", new), ("ref", f"r{i}", "g", "easy", "with_gt", ref)]
    mu = pd.DataFrame(rows, columns=["judge", "id", "generator", "difficulty", "condition", "mu"])
    s = P.cell_ses(mu, "new", "ref", ["ref"]).iloc[0]
    n, r = np.array([1.0, 0.5, 0.0, 1.0]), np.array([0.5, 0.5, 0.5, 1.0])
    assert s["records"] == 4
    assert s["se_align"] == pytest.approx(100 * np.std(n, ddof=1) / 2)
    assert s["se_paired"] == pytest.approx(100 * np.std(n - r, ddof=1) / 2)
    assert s["se_unpaired"] == pytest.approx(100 * math.sqrt(np.var(n, ddof=1) / 4 + np.var(r, ddof=1) / 4))
    none = P.cell_ses(mu, None, "ref", ["new", "ref"]).iloc[0]  # no pilot: the judges' mean variance
    assert none["se_align"] == pytest.approx(100 * math.sqrt((np.var(n, ddof=1) + np.var(r, ddof=1)) / 2 / 4))
    assert np.isnan(none["se_paired"])


@pytest.fixture(scope="module")
def sample():
    """The sample's bench, the static judge's record alignments and the six judges' (every item)."""
    from ajb_utils.data import load_bench

    bench = load_bench("sample", judges=list(schema.MAIN_JUDGES), runs=None)
    static = static_verdicts(bench, schema.MAIN_CONDITIONS).assign(judge="static")
    six = bench.verdicts[bench.verdicts["condition"].isin(schema.MAIN_CONDITIONS)]
    cols = ["judge", "id", "generator", "difficulty", "condition", "metric", "p", "llm_score", "match"]
    v = pd.concat([static[cols], six[cols]], ignore_index=True).astype({"judge": str, "id": str})
    return bench, stats.record_alignment(v, missing="exclude")


def _bootstrap_half_width(mu: pd.DataFrame, judge: str, seed: int) -> float:
    """Return the largest 95 % bootstrap CI half-width over cells of one judge (records resampled within generators)."""
    widths = []
    for i, (_, g) in enumerate(mu[mu["judge"] == judge].groupby(["condition", "difficulty"], observed=True)):
        r = stats.rank1_probability(g, ["generator"], n_resamples=2000, seed=seed + i)
        widths.append(float((r["hi"] - r["lo"]).iloc[0] / 2))
    return max(widths)


@pytest.mark.parametrize("h", [2.0, 3.0])
def test_planned_records_give_the_target_half_width_on_the_sample(sample, h: float) -> None:
    """An 8-record static pilot plans N for +-h; the static judge on N records then has a CI half-width within 25 % of h."""
    bench, mu = sample
    got = []
    for seed in (1, 2, 3, 4):
        pilot = mu[mu["id"].isin(stratified_ids(bench.records, 8, seed))]
        n, *_ = P.needed(P.cell_ses(pilot, "static", "judge_gpt_5_4", schema.MAIN_JUDGES), "se_align", h)
        assert 1 <= n <= len(bench.records), (h, seed, n)
        run = mu[mu["id"].isin(stratified_ids(bench.records, n, seed))]
        got.append(_bootstrap_half_width(run, "static", seed))
    assert all(abs(w - h) <= 0.25 * h for w in got), (h, got)


def test_planned_paired_difference_gives_the_target_half_width(sample) -> None:
    """The same for the paired difference static - GPT-5.4 at +-3 pp."""
    bench, mu = sample
    for seed in (1, 2, 3):
        pilot = mu[mu["id"].isin(stratified_ids(bench.records, 20, seed))]
        n, *_ = P.needed(P.cell_ses(pilot, "static", "judge_gpt_5_4", schema.MAIN_JUDGES), "se_paired", 3.0)
        run = mu[mu["id"].isin(stratified_ids(bench.records, n, seed)) & mu["judge"].isin(["static", "judge_gpt_5_4"])]
        wide = run.pivot_table(index=["condition", "difficulty", "generator", "id"], columns="judge", values="mu")
        d = (wide["static"] - wide["judge_gpt_5_4"]).rename("mu").reset_index().assign(judge="d")
        assert abs(_bootstrap_half_width(d, "d", seed) - 3.0) <= 0.75, (seed, n)


def test_one_pp_is_out_of_the_samples_reach(tmp_path: Path) -> None:
    """Without a pilot, +-1 pp needs more records than the sample holds, and the plan says so (CLI)."""
    out = subprocess.run(
        [sys.executable, "-m", "ajb_judge", "plan", "--target", "1", "--target", "3"],
        env=CLI_ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("SYNTHETIC SAMPLE")
    one = [ln for ln in lines if ln.startswith("+-1 pp")]
    assert one and all("no: the source holds 120" in ln for ln in one)
    assert any(ln.startswith("+-3 pp") and " yes " in ln for ln in lines)
    assert "a paired figure needs a pilot" in out.stdout and "unpaired" in out.stdout


def test_plan_refuses_an_unknown_pilot_and_reference() -> None:
    with pytest.raises(ValueError, match="no .*nope.meta.json"):
        P.make_plan(P.PlanConfig(pilot="nope"))
    with pytest.raises(ValueError, match="--reference 'judge_x'"):
        P.make_plan(P.PlanConfig(reference="judge_x"))


def words13(text: str) -> int:
    """The fake server's other billing rule: words x 1.3, rounded."""
    return round(1.3 * len(text.split()))


def test_tokenizer_rule_counts_with_the_given_counter(sample) -> None:
    bench, _ = sample
    req = P.selection_requests(bench, ["with_gt"], ["qwen3_32b"], ["easy"], 0, "h", count=words13)
    rule = P.TokenRule("words x 1.3", count=words13).apply(req)
    assert (rule["tokens"] == req["counted"]).all() and (req["counted"] > req["chars"] / 10).all()
    with pytest.raises(ValueError, match="tiktoken:<encoding> or hf:"):
        P.tokenizer_rule("sentencepiece:x")
    import importlib.util

    if importlib.util.find_spec("tiktoken") is None:
        with pytest.raises(ValueError, match="tiktoken is not installed"):
            P.tokenizer_rule("tiktoken:cl100k_base")


def test_cost_estimate_against_a_server_billing_words_x_1_3(tmp_path: Path, monkeypatch) -> None:
    """A 6-record pilot on a server billing words x 1.3 calibrates the plan; the planned run's bill lies in the stated range."""
    from ajb_judge import run_judge
    from ajb_utils.data import load_bench

    monkeypatch.setenv("AJB_TEST_KEY", SECRET)
    src = tmp_path / "sample"
    shutil.copytree(SAMPLE_DIR, src, ignore=shutil.ignore_patterns("runs", "annotations"))
    runs = src / "runs"
    items = load_bench(src, judges=[], runs=None)
    sel = dict(generators=["qwen3_32b", "smollm3_3b"], difficulties=["hard"], out_dir=runs, seed=7)
    with FakeServer() as server:
        server.state.bill = "words13"
        base = server_cfg(server, items, tmp_path, name="pilot", limit=6, concurrency=8, **sel)
        pilot = run_judge(base)
        assert pilot.new > 0 and not pilot.aborted
        billed_pilot = server.state.stats()
        bench = load_bench(src, judges=list(schema.MAIN_JUDGES), runs=["pilot"])
        cfg = P.PlanConfig(
            bench=bench,
            pilot="pilot",
            out_dir=runs,
            store_path=tmp_path / "store.sqlite",
            targets=(4.0,),
            price_in=1.0,
            price_out=4.0,
        )
        plan = P.make_plan(cfg)
        row = plan.table.iloc[0]
        assert "billed prompt tokens per character" in " ".join(plan.assumptions)
        n = int(row["records"])
        assert 6 < n <= len(bench.records)
        run = run_judge(dataclasses.replace(base, limit=n, replace_export=True))  # extends the pilot
        assert not run.aborted
        after = server.state.stats()
    calls = after["billed_calls"] - billed_pilot["billed_calls"]
    prompt = after["billed_prompt"] - billed_pilot["billed_prompt"]
    completion = after["billed_completion"] - billed_pilot["billed_completion"]
    assert calls == row["calls"]  # only the new records were paid, and the plan counted them
    assert row["prompt_lo"] <= prompt <= row["prompt_hi"], (prompt, row["prompt_lo"], row["prompt_hi"])
    assert row["completion_lo"] <= completion <= row["completion_hi"]
    usd = prompt * 1.0 / 1e6 + completion * 4.0 / 1e6
    assert row["usd_lo"] <= usd <= row["usd_hi"]
    # calibrated, the point estimate is close; characters / 4, uncalibrated, would be off by about 2x here
    assert abs(row["prompt"] - prompt) / prompt < 0.1
    assert row["chars"] / P.CHARS_PER_TOKEN / prompt > 1.5
