"""A judge behaviour simulator for teaching (notebook 17, artifact X5).

A simulated judge turns the benchmark's real programmatic scores p (``bench.generations``
p_tool, p_param, p_seq, p_cov) into verdicts in {0, 0.5, 1}, in the verdicts long format, so
``stats.align``, ``stats.cohen_kappa`` and ``stats.binary_verdicts`` apply unchanged. For each
(row, condition), in this order:

1. hedge: with probability ``hedge_rate`` the verdict is 0.5;
2. anchoring (with GT only): with probability ``anchoring``, if the plan's tool set overlaps the
   reference (p_tool > 0), the judge copies the reference's surface verdict and gives 1.0;
3. a flawed row (p < 1, an error the scorer sees) is detected with probability ``sensitivity``
   with GT and ``blind_sensitivity`` without GT (no reference to check against); a detected
   flaw gets p snapped to {0, 0.5, 1}, except that with probability ``leniency`` the judge
   credits it anyway (1.0); an undetected flaw gets 1.0;
4. a clean row (p = 1) is flagged by mistake with probability ``false_alarm`` (verdict 0 or 0.5,
   equally likely), else 1.0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace

import numpy as np
import pandas as pd

from ajb_utils import stats
from ajb_utils.schema import METRICS

P_COLUMNS: dict[str, str] = {"tool_selection": "p_tool", "parameter_structure": "p_param",
                             "sequence_accuracy": "p_seq", "query_coverage": "p_cov"}
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
    parts = [base[keys].assign(metric=m, p=base[c].to_numpy(float), p_tool=base["p_tool"].to_numpy(float))
             for m, c in P_COLUMNS.items()]
    out = pd.concat(parts, ignore_index=True)
    out["metric"] = pd.Categorical(out["metric"], categories=METRICS)
    return out.dropna(subset=["p"]).reset_index(drop=True)


def _snap(p: np.ndarray) -> np.ndarray:
    """Return p (n,) snapped to the nearest of {0, 0.5, 1} (ties upward)."""
    return np.select([p < 0.25, p < 0.75], [0.0, 0.5], 1.0)


def simulate_verdicts(p: pd.DataFrame, params: JudgeParams, rng: np.random.Generator,
                      conditions: Sequence[str] = SIM_CONDITIONS) -> pd.DataFrame:
    """Return simulated verdicts (long format: keys, judge, condition, metric, llm_score, p, match) for `p` from :func:`p_long`."""
    n = len(p)
    pv = p["p"].to_numpy(float)
    overlap = p["p_tool"].to_numpy(float) > 0
    flawed = pv < 1.0 - 1e-9
    parts = []
    for cond in conditions:
        u = rng.random((5, n))  # hedge, anchor, detect, lenient, false alarm (+ its severity)
        sens = params.sensitivity if cond == "with_gt" else params.blind_sensitivity
        detected = u[2] < sens
        flawed_verdict = np.where(detected & (u[3] >= params.leniency), _snap(pv), 1.0)
        alarm = u[4] < params.false_alarm
        clean_verdict = np.where(alarm, np.where(u[4] < params.false_alarm / 2, 0.0, 0.5), 1.0)
        v = np.where(flawed, flawed_verdict, clean_verdict)
        if cond == "with_gt":
            v = np.where((u[1] < params.anchoring) & overlap, 1.0, v)
        v = np.where(u[0] < params.hedge_rate, 0.5, v)
        parts.append(p[["id", "generator", "difficulty", "dag_type", "metric"]].assign(
            judge=params.name, condition=cond, llm_score=v, p=pv, match=1.0 - np.abs(pv - v)))
    return pd.concat(parts, ignore_index=True)


def simulation_summary(p: pd.DataFrame, params: JudgeParams, seed: int) -> pd.DataFrame:
    """Return per condition: align (ternary, binary-collapsed), 0.5-rate, and agreement/kappa with an identically-behaved twin judge."""
    rng = np.random.default_rng(seed)
    a = simulate_verdicts(p, params, rng)
    b = simulate_verdicts(p, replace(params, name="twin"), rng)
    rows = []
    for cond in SIM_CONDITIONS:
        va, vb = a[a["condition"] == cond], b[b["condition"] == cond]
        la, lb = va["llm_score"].to_numpy(), vb["llm_score"].to_numpy()
        rows.append({"condition": cond,
                     "align": float(stats.align(va, by=["condition"])["align"].iloc[0]),
                     "align_binary": float(stats.align(stats.binary_verdicts(va), by=["condition"])["align"].iloc[0]),
                     "half_rate_pct": 100.0 * float(np.isclose(la, 0.5).mean()),
                     "share_1_pct": 100.0 * float(np.isclose(la, 1.0).mean()),
                     "twin_agreement_pct": 100.0 * stats.exact_agreement(la, lb),
                     "twin_kappa": stats.cohen_kappa(la, lb)})
    return pd.DataFrame(rows)


def sweep(p: pd.DataFrame, base: JudgeParams, param: str, values: Sequence[float], seed: int) -> pd.DataFrame:
    """Return :func:`simulation_summary` for each value of one parameter (column `value`), same seed per value."""
    parts = [simulation_summary(p, replace(base, **{param: float(x)}), seed).assign(param=param, value=float(x))
             for x in values]
    out = pd.concat(parts, ignore_index=True)
    return out[["param", "value", *[c for c in out.columns if c not in ("param", "value")]]]


TEACHING_PARAMS: tuple[str, ...] = ("hedge_rate", "leniency", "anchoring", "blind_sensitivity")


def teaching_sweeps(p: pd.DataFrame, base: JudgeParams, grid: Sequence[float], seed: int) -> dict[str, pd.DataFrame]:
    """Return the four X5 sweeps {param: sweep frame}; the blind-sensitivity sweep turns hedging and false alarms off to isolate compression."""
    out = {k: sweep(p, base, k, grid, seed) for k in TEACHING_PARAMS[:3]}
    out["blind_sensitivity"] = sweep(p, replace(base, hedge_rate=0.0, false_alarm=0.0), "blind_sensitivity", grid, seed)
    return out
