"""Tests for ajb_utils.tables.ablations on three kinds of bench (the figures: tests/test_figures.py).

The sample's synthetic runs; user runs (a mini repo with non-synthetic runs under <source>/runs);
no runs (`bench.has_runs(study)` False: the tables reproduce nothing, the checks are n/a, and the
commands that make the runs parse with the runner's CLI).
"""

from __future__ import annotations

import dataclasses
import json
import shlex
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")
sys.path.insert(0, str(Path(__file__).parent))

import ajb_verify as verify  # noqa: E402
from ajb_judge.cli import build_parser  # noqa: E402
from ajb_utils import paper, schema, stats  # noqa: E402
from ajb_utils.data import load_bench  # noqa: E402
from ajb_utils.scoring import programmatic_scores  # noqa: E402
from ajb_utils.tables import ablations as A  # noqa: E402
from mini_repo import EXPECTED, GENERATED, write_mini_repo  # noqa: E402


@pytest.fixture(scope="module")
def sample():
    return load_bench("sample")


@pytest.fixture(scope="module")
def no_runs(sample):
    """The sample as load_bench(..., runs=None) returns it (release judges only), without reloading."""
    keep = sample.judges["origin"] == "release"
    v = sample.verdicts
    return dataclasses.replace(
        sample,
        judges=sample.judges[keep].reset_index(drop=True),
        verdicts=v[v["judge"].isin(sample.judges.loc[keep, "judge"])],
    )


def test_no_runs_fixture_matches_loader(no_runs):
    b = load_bench("sample", runs=None, generators=["gpt5_4"], judges=["judge_gpt_5_4"])
    assert set(b.judges["origin"]) == {"release"} and not b.has_runs("c2")


# ---- helpers -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, key",
    [
        ("Qwen/Qwen3-32B", "qwen3_32b"),
        ("judge_qwq_32b", "qwq_32b"),
        ("openai/gpt-oss-120b", "gpt_oss_120b"),
        ("qwen3_32b", "qwen3_32b"),
    ],
)
def test_base_model_key(name, key):
    assert A.base_model_key(name) == key


# ---- the sample's runs ----------------------------------------------------------------------------
def test_sample_has_every_study(sample):
    for study in A.STUDIES:
        assert sample.has_runs(study)
    assert A.runs_line(sample, "temperature").startswith("temperature runs read: synthetic_")
    runs = A.study_runs(sample, "temperature", "Qwen/Qwen3-32B")
    assert sorted(runs["temperature"]) == [0.3, 0.7, 1.0]


def test_sample_T25_matches_stats_align(sample):
    t25 = A.temperature_table(sample, "T25")
    assert len(t25) == 6 and "source" not in t25
    runs = A.study_runs(sample, "temperature", "qwen3_32b")
    judge = runs.loc[runs["temperature"] == 0.7, "judge"].iloc[0]
    v = sample.verdicts
    ref = stats.align(
        v[(v["judge"] == judge) & (v["difficulty"] == "hard") & (v["condition"] == "with_gt")],
        by=["judge"],
        missing=stats.PAPER_MISSING,
    )["align"].iloc[0]
    row = t25[(t25["difficulty"] == "hard") & (t25["condition"] == "with_gt")].iloc[0]
    assert row["T=0.7"] == pytest.approx(ref)
    grid = t25[["T=0.3", "T=0.7", "T=1.0"]]
    np.testing.assert_allclose(t25["max_spread"], grid.max(axis=1) - grid.min(axis=1))


def test_sample_T26_and_T05(sample):
    t26 = A.table_T26(sample)
    assert len(t26) == 24
    # one cell from the run's verdicts directly (not from the table's own columns)
    v = sample.verdicts
    for run, col in (
        ("synthetic_qwq_32b_thinking_on", "thinking_on"),
        ("synthetic_qwq_32b_thinking_off", "thinking_off"),
    ):
        sub = v[
            (v["judge"] == run)
            & (v["generator"] == "qwen3_32b")
            & (v["difficulty"] == "hard")
            & (v["condition"] == "without_gt")
        ]
        mu = sub.groupby("id", observed=True)["match"].mean()  # missing="exclude"
        cell = t26[
            (t26["generator"] == "qwen3_32b") & (t26["difficulty"] == "hard") & (t26["condition"] == "without_gt")
        ].iloc[0]
        assert cell[col] == pytest.approx(100 * mu.mean(), abs=1e-4)
    np.testing.assert_allclose(t26["delta"], t26["thinking_on"] - t26["thinking_off"])
    t05 = A.table_T05(t26).set_index("condition")
    assert t05.loc["all", "n_cells"] == 24
    assert t05.loc["with_gt", "mean_delta"] == pytest.approx(t26.loc[t26["condition"] == "with_gt", "delta"].mean())


def test_sample_T04_and_rq3(sample):
    t04 = A.table_T04(sample)
    assert list(t04["generator"])[0] == "llama_3_3_70b_instruct" and len(t04) == 5
    np.testing.assert_allclose(t04["delta"], t04["default_0_5"] - t04["default_1_0"])
    band = verify.hard_band(sample)
    # the 1.0-default column is the six-judge mean of the band
    np.testing.assert_allclose(t04["default_1_0"], band["mean"])
    ens = verify.ensemble_vs_best(sample)
    assert ens["judge"].iloc[-1].startswith("soft_jury") and len(ens) == 7


def test_sample_format(sample):
    f05 = A.format_table(sample, "F05")
    np.testing.assert_allclose(f05["delta"], f05["structured"] - f05["freeform"])


# ---- no runs: nothing reproduced, and the commands ---------------------------------------------------
def test_no_runs_reproduces_nothing(no_runs):
    """Without runs a table function returns reproduced numbers only: none (no rows, or NaN columns)."""
    for study in A.STUDIES:
        assert not no_runs.has_runs(study)
        assert "this source holds none" in A.runs_line(no_runs, study)
    t25, t27, t26 = A.temperature_table(no_runs, "T25"), A.temperature_table(no_runs, "T27"), A.table_T26(no_runs)
    f05, t31 = A.format_table(no_runs, "F05"), A.format_table(no_runs, "T31")
    for t in (t25, t27, t26, A.table_T05(t26), f05, t31):
        assert t.empty and "source" not in t
    assert {"T=0.3", "T=0.7", "T=1.0", "max_spread", "delta_lo"} <= set(t25.columns)
    t04 = A.table_T04(no_runs)
    assert t04["default_1_0"].notna().all() and t04[["default_0_5", "delta", "delta_lo"]].isna().all().all()
    cmp = verify.compare_T25(t25)  # the paper's values beside an empty reproduction
    assert cmp["reported"].notna().all() and cmp["reproduced"].isna().all()
    assert (verify.format_checks(f05, t31)["holds"] == "n/a").all()
    for checks in (
        verify.temperature_checks(t25, t27),
        verify.thinking_checks(A.table_T05(t26)),
        verify.c2_checks(t04),
    ):
        assert (checks["holds"] == "n/a").all(), checks
        assert (checks["reproduced value"] == "not reproduced").all()
    assert [v.holds for v in verify.lever_checks(t04, t25, t27, A.table_T05(t26), f05, t31)] == [None]  # n/a


def test_table_T05_of_the_papers_own_T26_cells():
    """The paper's +0.11 pp mean GT gap and 0.3 pp max, recomputed from its own 24 printed cells."""
    keys = ["generator", "difficulty", "condition"]
    rep = paper.reported("T26")
    wide = rep[rep["stat"] == "alignment"].pivot_table(index=keys, columns="variant", values="value").reset_index()
    t05 = A.table_T05(wide.assign(delta=wide["thinking_on"] - wide["thinking_off"])).set_index("condition")
    assert round(t05.loc["with_gt", "mean_delta"], 2) == 0.11
    assert t05.loc["all", "max_abs_delta"] == pytest.approx(0.3)


@pytest.mark.parametrize("study, nn", [("c2", "06"), ("temperature", "07"), ("thinking", "08"), ("format", "09")])
def test_commands_parse_with_the_cli(study, nn):
    """The commands each notebook prints on the released data (its last cell) parse with the runner's CLI."""
    import contextlib
    import io
    from types import SimpleNamespace

    sys.path.insert(0, str(Path(__file__).parent))
    from notebook_cells import run_cells

    with contextlib.redirect_stdout(io.StringIO()) as printed:
        run_cells(nn, ["the commands: printed here"], bench=SimpleNamespace(synthetic=False), ablations=A)
    lines = printed.getvalue().splitlines()
    cmds = [ln for ln in lines if ln.startswith("python -m ajb_judge")]
    assert len(cmds) >= 2
    parser = build_parser()
    for cmd in cmds:
        argv = shlex.split(cmd)
        assert argv[:4] == ["python", "-m", "ajb_judge", "run"]
        ns = parser.parse_args(argv[3:])
        assert ns.study == study and ns.source == "hf"
        assert A.base_model_key(ns.judge_label) in A.JUDGE_ENDPOINTS
    assert lines[-1].endswith("--only " + nn)
    if study == "temperature":
        temps = sorted(build_parser().parse_args(shlex.split(c)[3:]).temperature for c in cmds)
        assert temps == [0.3, 0.3, 0.7, 0.7, 1.0, 1.0]


# ---- user runs on a real (non-synthetic) source ----------------------------------------------------
def _block(gen, llm: float) -> dict:
    """Return a condition block giving every metric the verdict `llm`."""
    p = programmatic_scores(gen, EXPECTED)
    return {
        m: {"llm_score": llm, "justification": "x", "programmatic_score": s, "match_score": round(1 - abs(s - llm), 4)}
        for m, s in p.items()
    }


def _write_run(runs: Path, name: str, study: str, decoding: dict, conditions: dict[str, float]) -> None:
    """Write a tiny run (jsonl + meta) judging the mini repo's valid generations."""
    rows = [
        {
            "id": rid,
            "generator": "gpt_5_4",
            "difficulty": diff,
            "dag_type": "linear",
            **{c: _block(gen, llm) for c, llm in conditions.items()},
        }
        for (rid, diff), gen in GENERATED.items()
        if gen
    ]
    (runs / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    meta = {
        "name": name,
        "judge": "Qwen/Qwen3-32B",
        "study": study,
        "conditions": list(conditions),
        "generators": ["gpt5_4"],
        "decoding": decoding,
        "synthetic": False,
        "source": "hf",
    }
    (runs / f"{name}.meta.json").write_text(json.dumps(meta))


@pytest.fixture(scope="module")
def user_bench(tmp_path_factory):
    root = write_mini_repo(tmp_path_factory.mktemp("mini") / "repo")
    runs = root / "runs"
    runs.mkdir()
    for t, llm in ((0.3, 1.0), (0.7, 0.5), (1.0, 1.0)):
        _write_run(
            runs,
            f"my_qwen_t{t}",
            "temperature",
            {"temperature": t, "thinking": None},
            {"with_gt": llm, "without_gt": 1.0},
        )
    _write_run(runs, "whatever_name", "format", {"temperature": 0.15}, {"with_gt": 1.0, "freeform": 0.5})
    return load_bench(str(root))


def test_user_runs_are_the_benchs(user_bench, monkeypatch):
    assert not user_bench.synthetic
    assert user_bench.has_runs("temperature") and user_bench.has_runs("format")
    assert not user_bench.has_runs("thinking")
    assert set(user_bench.judges.loc[user_bench.judges["study"] == "temperature", "origin"]) == {"run"}


def test_user_runs_temperature_by_hand(user_bench, monkeypatch):
    # the mini repo's generator is GPT-5.4: point the T25 pairing at it
    monkeypatch.setitem(A.PAIRINGS, "T25", ("qwen3_32b", "gpt5_4"))
    t25 = A.temperature_table(user_bench, "T25").set_index(["difficulty", "condition"])
    # hand reference: with_gt at T=0.7 says 0.5 everywhere; mu per record = mean_m 1 - |p - 0.5|
    for diff in ("easy", "hard"):
        mus = [
            np.mean([1 - abs(s - 0.5) for s in programmatic_scores(gen, EXPECTED).values()])
            for (rid, d), gen in GENERATED.items()
            if gen and d == diff
        ]
        mus1 = [
            np.mean([1 - abs(s - 1.0) for s in programmatic_scores(gen, EXPECTED).values()])
            for (rid, d), gen in GENERATED.items()
            if gen and d == diff
        ]
        row = t25.loc[(diff, "with_gt")]
        assert row["T=0.7"] == pytest.approx(100 * np.mean(mus))
        assert row["T=0.3"] == pytest.approx(100 * np.mean(mus1))
        assert row["max_spread"] == pytest.approx(abs(100 * np.mean(mus1) - 100 * np.mean(mus)))
        assert t25.loc[(diff, "without_gt"), "max_spread"] == pytest.approx(0)


def test_user_runs_format(user_bench, monkeypatch):
    monkeypatch.setitem(A.PAIRINGS, "F05", ("qwen3_32b", "gpt5_4"))
    f05 = A.format_table(user_bench, "F05").set_index("difficulty")
    np.testing.assert_allclose(f05["delta"], f05["structured"] - f05["freeform"])
    assert A.format_table(user_bench, "T31").empty  # no format run of QwQ-32B


def test_compare_F05_both_conditions(sample):
    f05 = A.format_table(sample, "F05")
    nogt = pd.DataFrame({"difficulty": ["easy", "medium", "hard"], "structured": [90.0, 85.0, 80.0], "n": 3})
    cmp = verify.compare_F05(f05, nogt)
    rep = paper.reported("F05").dropna(subset=["difficulty"])
    assert len(cmp) == len(rep) and cmp["reported"].notna().all()
    got = cmp.dropna(subset=["reproduced"])
    assert set(got["condition"]) <= {"with_gt", "without_gt"}
    # with GT every printed value (structured, free-form, gap) has a reproduced partner
    assert got[got["condition"] == "with_gt"].shape[0] == 9
    without = got[(got["condition"] == "without_gt") & (got["variant"] == "structured")].set_index("difficulty")
    assert without["reproduced"].to_dict() == {"easy": 90.0, "medium": 85.0, "hard": 80.0}  # the frame given
    assert verify.compare_F05(f05, nogt.iloc[0:0]).query("condition == 'without_gt'")["reproduced"].isna().all()


def test_compare_T04_uses_paper_rows(sample):
    cmp = verify.compare_T04(A.table_T04(sample))
    assert len(cmp) == len(paper.reported("T04")) and cmp["reported"].notna().all()


# ---- paired CIs on every ablation delta ------------------------------------------------------------
def _two_variant_verdicts(shift: np.ndarray, n: int = 40, seed: int = 3):
    """Return a verdict frame of n records x 2 variants x 4 metrics; variant "a" = variant "b" + shift per record."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    rows = []
    base = rng.choice([0.0, 0.5, 1.0], size=(n, 4))
    for i in range(n):
        for m, metric in enumerate(schema.METRICS):
            for var, llm in (("b", base[i, m]), ("a", base[i, m] + shift[i])):
                rows.append(
                    {
                        "id": f"r{i}",
                        "generator": "g",
                        "difficulty": "hard",
                        "condition": "with_gt",
                        "metric": metric,
                        "p": 1.0,
                        "llm_score": llm,
                        "judge": f"run_{var}",
                        "var": var,
                    }
                )
    return pd.DataFrame(rows)


def test_paired_delta_ci_is_exact_on_a_constant_shift() -> None:
    """Every record moves by the same amount: the paired CI collapses onto it (an unpaired one would not)."""
    v = _two_variant_verdicts(np.zeros(40))
    v["p"] = 1.0
    v["llm_score"] = np.where(v["var"] == "a", 1.0, 0.9)  # a: match 1.0 on every metric; b: 0.9
    ci = A.paired_delta_ci(v, v["var"], "a", "b", ["difficulty"], n_bootstrap=500, seed=1)
    assert ci["paired_delta"].iloc[0] == pytest.approx(10.0, abs=1e-4)
    assert ci["delta_lo"].iloc[0] == pytest.approx(10.0, abs=1e-4) and ci["delta_hi"].iloc[0] == pytest.approx(
        10.0, abs=1e-4
    )
    assert ci["n_pairs"].iloc[0] == 40


def test_paired_delta_ci_matches_a_naive_paired_bootstrap() -> None:
    """The library's paired CI against a hand-written loop resampling the per-record differences."""
    rng = np.random.default_rng(0)
    shift = rng.choice([-0.5, 0.0, 0.0, 0.5], size=60)
    v = _two_variant_verdicts(shift, n=60)
    v["p"] = 1.0
    v["llm_score"] = v["llm_score"].clip(0, 1)
    ci = A.paired_delta_ci(v, v["var"], "a", "b", ["difficulty"], n_bootstrap=4000, seed=2).iloc[0]
    mu = (1 - (v["p"] - v["llm_score"]).abs()).groupby([v["var"], v["id"]]).mean().unstack("var")
    d = 100 * (mu["a"] - mu["b"]).to_numpy()
    boot = np.array([d[rng.integers(0, d.size, d.size)].mean() for _ in range(4000)])
    assert ci["paired_delta"] == pytest.approx(d.mean(), abs=1e-6)
    assert ci["delta_lo"] == pytest.approx(np.quantile(boot, 0.025), abs=0.6)
    assert ci["delta_hi"] == pytest.approx(np.quantile(boot, 0.975), abs=0.6)


def test_every_ablation_delta_carries_a_seeded_paired_ci(sample) -> None:
    t04, t25, t26 = A.table_T04(sample, seed=5), A.temperature_table(sample, "T25", seed=5), A.table_T26(sample, seed=5)
    f05, t31 = A.format_table(sample, seed=5), A.format_table(sample, "T31", seed=5)
    for name, t in (("T04", t04), ("T25", t25), ("T26", t26), ("F05", f05), ("T31", t31)):
        assert {"delta", "delta_lo", "delta_hi", "n_pairs"} <= set(t.columns), name
        ok = t.dropna(subset=["delta_lo"])
        assert len(ok) == len(t), name
        # the paired point estimate may differ from the unpaired delta only through unpaired records
        assert (ok["delta_lo"] <= ok["delta"] + 0.5).all() and (ok["delta_hi"] >= ok["delta"] - 0.5).all(), name
    assert A.table_T04(sample, seed=5)[["delta_lo", "delta_hi"]].equals(t04[["delta_lo", "delta_hi"]])  # seeded
    assert not A.table_T04(sample, seed=6)[["delta_lo"]].equals(t04[["delta_lo"]])


def test_no_runs_tables_have_empty_cis(no_runs) -> None:
    for t in (A.table_T04(no_runs), A.table_T26(no_runs), A.format_table(no_runs)):
        assert "delta_lo" in t.columns and t["delta_lo"].isna().all()
    sys.path.insert(0, str(Path(__file__).parent))
    from notebook_cells import run_cells

    ns = run_cells("07", ["runs_t = ablations.study_runs("], bench=no_runs, ablations=A, seed=0)
    assert ns["ci"]["T25"].empty and ns["ci"]["T27"].empty  # notebook 07's CI cell
