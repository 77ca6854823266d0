"""The judge simulator (ajb_utils.simulator): limiting cases with known verdicts, format, determinism."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ajb_utils import stats
from ajb_utils.simulator import JudgeParams, p_long, simulate_verdicts, simulation_summary

P = pd.DataFrame(
    {
        "id": ["a", "b", "c", "d"],
        "generator": "g",
        "difficulty": "hard",
        "dag_type": "linear",
        "metric": "parameter_structure",
        "p": [1.0, 0.0, 0.5, 0.8],
        "p_tool": [1.0, 1.0, 0.0, 1.0],
    }
)
PERFECT = JudgeParams(sensitivity=1, blind_sensitivity=1, leniency=0, hedge_rate=0, anchoring=0, false_alarm=0)


def verdicts(params: JudgeParams, cond: str, seed: int = 0) -> np.ndarray:
    """Return the simulated llm_score vector for one condition."""
    v = simulate_verdicts(P, params, np.random.default_rng(seed))
    return v[v["condition"] == cond]["llm_score"].to_numpy()


def test_perfect_judge_reports_snapped_p() -> None:
    """A perfect judge gives snap(p): 1, 0, 0.5, 1."""
    assert verdicts(PERFECT, "with_gt").tolist() == [1.0, 0.0, 0.5, 1.0]
    assert verdicts(PERFECT, "without_gt").tolist() == [1.0, 0.0, 0.5, 1.0]


def test_blind_or_lenient_judge_gives_all_ones() -> None:
    """No detection without GT, or full leniency, compresses every verdict to 1.0."""
    blind = JudgeParams(sensitivity=1, blind_sensitivity=0, leniency=0, hedge_rate=0, anchoring=0, false_alarm=0)
    assert verdicts(blind, "without_gt").tolist() == [1.0] * 4
    assert verdicts(blind, "with_gt").tolist() == [1.0, 0.0, 0.5, 1.0]
    lenient = JudgeParams(sensitivity=1, blind_sensitivity=1, leniency=1, hedge_rate=0, anchoring=0, false_alarm=0)
    assert verdicts(lenient, "with_gt").tolist() == [1.0] * 4


def test_hedging_and_anchoring() -> None:
    """Full hedging gives 0.5 everywhere; full anchoring gives 1.0 with GT where tools overlap (p_tool > 0)."""
    hedge = JudgeParams(sensitivity=1, blind_sensitivity=1, leniency=0, hedge_rate=1, anchoring=0, false_alarm=0)
    assert verdicts(hedge, "with_gt").tolist() == [0.5] * 4
    anchor = JudgeParams(sensitivity=1, blind_sensitivity=1, leniency=0, hedge_rate=0, anchoring=1, false_alarm=0)
    assert verdicts(anchor, "with_gt").tolist() == [1.0, 1.0, 0.5, 1.0]
    assert verdicts(anchor, "without_gt").tolist() == [1.0, 0.0, 0.5, 1.0]


def test_binary_collapse_rewards_hedging() -> None:
    """Under the binary collapse a full hedger scores the best binary verdict: align = mean(1 - |p - [p >= .5]|)."""
    hedge = JudgeParams(sensitivity=1, blind_sensitivity=1, leniency=0, hedge_rate=1, anchoring=0, false_alarm=0)
    v = simulate_verdicts(P, hedge, np.random.default_rng(0))
    b = stats.binary_verdicts(v[v["condition"] == "with_gt"])
    expected = 100 * np.mean(1 - np.abs(P["p"] - (P["p"] >= 0.5)))
    assert stats.align(b, by=["condition"])["align"].iloc[0] == pytest.approx(expected)


def test_format_and_determinism() -> None:
    """Output is the verdicts long format; same seed, same verdicts; invalid probabilities refused."""
    v = simulate_verdicts(P, JudgeParams(), np.random.default_rng(3))
    assert {"id", "generator", "difficulty", "judge", "condition", "metric", "llm_score", "p", "match"} <= set(
        v.columns
    )
    assert set(np.unique(v["llm_score"])) <= {0.0, 0.5, 1.0}
    assert v.equals(simulate_verdicts(P, JudgeParams(), np.random.default_rng(3)))
    with pytest.raises(ValueError):
        JudgeParams(hedge_rate=1.5)


def test_p_long_and_summary() -> None:
    """p_long melts the four p columns; the summary gives one row per condition."""
    gens = pd.DataFrame(
        {
            "id": ["a"],
            "generator": ["g"],
            "difficulty": ["easy"],
            "dag_type": ["linear"],
            "p_tool": [1.0],
            "p_param": [0.5],
            "p_seq": [0.0],
            "p_cov": [np.nan],
        }
    )
    pl = p_long(gens)
    assert len(pl) == 3 and pl["p"].tolist() == [1.0, 0.5, 0.0]
    summ = simulation_summary(P, PERFECT, seed=1)
    assert len(summ) == 2 and summ["align"].eq(95.0).all()  # snap(0.8) = 1 costs 0.2 on one of 4 rows
    assert summ["twin_agreement_pct"].eq(100.0).all()
