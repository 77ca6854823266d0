"""Claims we question, computed in notebooks 02, 05, 10 and 12: hand cases for the soft jury's scale, kappa and chance."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import ajb_verify as verify
from ajb_utils import paper, schema, stats, tables
from ajb_utils.data import load_bench


@pytest.fixture(scope="module")
def bench():
    """Return the embedded sample, loaded once."""
    return load_bench("sample")


def _toy_bench() -> SimpleNamespace:
    """Return a bench-like object: two judges at p = 0.75 saying 0.5 and 1.0 on every metric of 3 hard records."""
    rows = []
    for j, l in (("judge_gpt_5_4", 0.5), ("judge_qwq_32b", 1.0)):
        for cond in schema.MAIN_CONDITIONS:
            for r in range(3):
                for m in schema.METRICS:
                    rows.append(
                        {
                            "id": f"r{r}",
                            "generator": "qwen3_32b",
                            "difficulty": "hard",
                            "condition": cond,
                            "metric": m,
                            "judge": j,
                            "llm_score": l,
                            "p": 0.75,
                            "match": 1 - abs(0.75 - l),
                            "dag_type": "linear",
                        }
                    )
    return SimpleNamespace(verdicts=pd.DataFrame(rows))


def test_soft_jury_wins_only_by_its_scale() -> None:
    """Judges saying 0.5 and 1.0 at p = 0.75 each score 75 %; their mean 0.75 scores 100 %, snapped back to
    the scale 75 % (the statistics notebook 05's jury cell reads, on a hand case)."""
    v = _toy_bench().verdicts.query("condition == 'with_gt'")
    judges = ["judge_gpt_5_4", "judge_qwq_32b"]
    single = stats.align(v, by=["judge"]).set_index("judge")["align"]
    soft = stats.soft_jury(v, judges)
    snapped = soft.assign(llm_score=stats.ternary_oracle(soft["llm_score"]))
    snapped["match"] = 1 - (snapped["p"] - snapped["llm_score"]).abs()
    assert single.tolist() == pytest.approx([75.0, 75.0])
    assert stats.align(soft, by=["generator"])["align"].item() == pytest.approx(100.0)
    assert stats.align(snapped, by=["generator"])["align"].item() == pytest.approx(75.0)
    assert not np.isin(soft["llm_score"], stats.LABELS).any()  # every soft verdict off the scale


def test_recovered_chance_agreement_is_the_marginals(bench) -> None:
    """p_e recovered from kappa (as notebook 05 does) equals the chance agreement of one pair's confusion marginals."""
    pw = tables.pairwise_long(bench, schema.MAIN_JUDGES)
    a, b = "judge_qwq_32b", "judge_gpt_oss_120b"
    v = bench.verdicts[(bench.verdicts["condition"] == "with_gt") & bench.verdicts["judge"].isin([a, b])]
    v = v[v["generator"].isin(paper.population("T03").generators)]  # T03's 12 cells
    w = v.pivot_table(
        index=["id", "generator", "difficulty", "metric"], columns="judge", values="llm_score", observed=True
    ).dropna()
    pe = sum((w[a] == k).mean() * (w[b] == k).mean() for k in stats.LABELS)
    row = pw[(pw["judge"] == a) & (pw["judge_2"] == b) & (pw["condition"] == "with_gt")].iloc[0]
    assert (row["agreement"] / 100 - row["kappa"]) / (1 - row["kappa"]) == pytest.approx(pe, abs=1e-9)


def test_prometheus_gap_lists_only_observed_conditions(bench) -> None:
    """A categorical condition with unobserved categories (ablation conditions) adds no 'nan' condition
    (pandas 2.x, which pyproject allows, groups categoricals with observed=False by default)."""
    from dataclasses import replace

    v = bench.verdicts.copy()
    v["condition"] = v["condition"].cat.add_categories(["corrupted_gt_unseen"])
    gap = [x for x in verify.jury_checks(replace(bench, verdicts=v)) if x.claim_id == "CJ.prometheus_gap"][0]
    assert "nan" not in gap.reproduced and "unseen" not in gap.reproduced, gap.reproduced
    assert gap.reproduced.count(",") == 1  # with_gt and without_gt
