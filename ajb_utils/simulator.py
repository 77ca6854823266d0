"""A judge behaviour simulator for teaching (notebook 17, artifact X5).

A simulated judge turns the real programmatic scores p into verdicts in {0, 0.5, 1} in the verdicts format: it
hedges, anchors on the reference (with GT), detects a flaw (with or without GT) unless lenient, and false-alarms
on a clean row, in that order (`simulate_verdicts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from ajb_utils import stats
from ajb_utils.schema import METRICS, P_COLUMNS
from ajb_utils.scoring import match

SIM_CONDITIONS: tuple[str, str] = ("with_gt", "without_gt")


@dataclass(frozen=True)
class JudgeParams:
    """Behaviour of a simulated judge (probabilities in [0, 1])."""

    name: str = "simulated"
    sensitivity: float = 0.85  # P(detect an error the scorer sees) with GT
    blind_sensitivity: float = 0.30  # P(detect it) without GT
    leniency: float = 0.15  # P(credit a detected flaw with 1.0 anyway)
    hedge_rate: float = 0.10  # P(answer 0.5 regardless)
    anchoring: float = 0.10  # with GT: P(copy the reference's surface verdict, 1.0, when tools overlap)
    false_alarm: float = 0.03  # P(flag a clean row: 0 or 0.5)

    def __post_init__(self) -> None:
        """Refuse probabilities outside [0, 1]."""
        for k, v in asdict(self).items():
            if k != "name" and not 0.0 <= float(v) <= 1.0:
                raise ValueError(f"{k} must be in [0, 1], got {v}")


def p_long(generations: pd.DataFrame) -> pd.DataFrame:
    """Return one row per (id, generator, difficulty, metric): dag_type, p and p_tool (tool overlap proxy)."""
    keys = ["id", "generator", "difficulty", "dag_type"]
    base = generations[keys + list(P_COLUMNS.values())]
    parts = [
        base[keys].assign(metric=m, p=base[c].to_numpy(float), p_tool=base["p_tool"].to_numpy(float))
        for m, c in P_COLUMNS.items()
    ]
    out = pd.concat(parts, ignore_index=True)
    out["metric"] = pd.Categorical(out["metric"], categories=METRICS)
    out["id"] = out["id"].astype("category")  # a name, as in the bench's verdicts
    return out.dropna(subset=["p"]).reset_index(drop=True)


def simulate_verdicts(
    p: pd.DataFrame, params: JudgeParams, rng: np.random.Generator, conditions: Sequence[str] = SIM_CONDITIONS
) -> pd.DataFrame:
    """Return simulated verdicts (long format: keys, judge, condition, metric, llm_score, p, match) for `p` from :func:`p_long`."""
    pv = p["p"].to_numpy(float)
    flawed, snapped, overlap = pv < 1.0 - 1e-9, stats.ternary_oracle(pv), p["p_tool"].to_numpy(float) > 0
    scores = []
    for cond in conditions:
        u = rng.random((5, pv.size))  # hedge, anchor, detect, lenient, false alarm (+ its severity)
        sens = params.sensitivity if cond == "with_gt" else params.blind_sensitivity
        detected = u[2] < sens
        flawed_verdict = np.where(detected & (u[3] >= params.leniency), snapped, 1.0)
        alarm = u[4] < params.false_alarm
        clean_verdict = np.where(alarm, np.where(u[4] < params.false_alarm / 2, 0.0, 0.5), 1.0)
        v = np.where(flawed, flawed_verdict, clean_verdict)
        if cond == "with_gt":
            v = np.where((u[1] < params.anchoring) & overlap, 1.0, v)
        scores.append(np.where(u[0] < params.hedge_rate, 0.5, v))
    out = pd.concat([p[["id", "generator", "difficulty", "dag_type", "metric"]]] * len(conditions), ignore_index=True)
    out["judge"] = pd.Categorical.from_codes(np.zeros(len(out), dtype=np.int8), categories=[params.name])
    out["condition"] = pd.Categorical.from_codes(
        np.repeat(np.arange(len(conditions), dtype=np.int8), len(p)), categories=list(conditions)
    )
    out["llm_score"], out["p"] = np.concatenate(scores), np.tile(pv, len(conditions))
    out["match"] = match(out["p"], out["llm_score"])
    return out


def simulation_summary(p: pd.DataFrame, params: JudgeParams, seed: int) -> pd.DataFrame:
    """Return per condition align (ternary, binary), 0.5-rate and agreement/kappa with an identical twin judge."""
    rng = np.random.default_rng(seed)
    a, b = simulate_verdicts(p, params, rng), simulate_verdicts(p, params, rng)  # the judge and its twin (next draws)
    align = stats.align(a, by=["condition"], missing="exclude").set_index("condition")["align"]
    binary = stats.align(stats.binary_verdicts(a), by=["condition"], missing="exclude").set_index("condition")["align"]
    out = []
    for cond in SIM_CONDITIONS:
        la, lb = (x.loc[x["condition"] == cond, "llm_score"].to_numpy() for x in (a, b))
        out.append(
            {
                "condition": cond,
                "align": float(align[cond]),
                "align_binary": float(binary[cond]),
                "half_rate_pct": 100.0 * float((la == 0.5).mean()),
                "share_1_pct": 100.0 * float((la == 1.0).mean()),
                "twin_agreement_pct": 100.0 * stats.exact_agreement(la, lb),
                "twin_kappa": stats.cohen_kappa(la, lb),
            }
        )
    return pd.DataFrame(out)
