"""The per-metric and per-topology frames of notebook 04 (its T24 and T28 are their pivots), C-W and 11's T14.

Each pools the records of its population's (generator, difficulty) cells (docs/DECISIONS.md, "Records pooled or
cells averaged").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ajb_utils import paper, schema, stats
from ajb_utils.stats import PAPER_MISSING, Missing
from ajb_utils.tables.main_results import main_verdicts

__all__ = [
    "CW_WEIGHTINGS",
    "T14_WEIGHTINGS",
    "per_metric_long",
    "topology_long",
    "weighting_stability",
    "table_T14",
]

# C-W: the five alternative metric weightings of §3.2 (v1 names four; param x0.5 is the fifth,
# the one Appendix G also uses) against equal weights.
CW_WEIGHTINGS: dict[str, dict[str, float]] = {
    k: stats.PAPER_WEIGHTINGS[k] for k in ("equal", "seq_x2", "param_x2", "cov_x0.5", "seq_x2_param_x2", "param_x0.5")
}
# T14 (Appendix G): parameter structure equal, halved, excluded.
T14_WEIGHTINGS: dict[str, dict[str, float]] = {
    k: stats.PAPER_WEIGHTINGS[k] for k in ("equal", "param_x0.5", "param_excluded")
}


def _pooled(cells: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Return per group of ``by`` the records of its cells pooled: align = sum(align * n) / sum(n), n_cells, n."""
    g = cells.assign(_w=cells["align"] * cells["n"]).groupby(by, observed=True, sort=True)
    out = g.agg(_w=("_w", "sum"), n=("n", "sum"), n_cells=("align", "size")).reset_index()
    out["align"] = out.pop("_w") / out["n"]
    return out[[*by, "align", "n_cells", "n"]]


def per_metric_long(
    bench,
    judges: Sequence[str] | None = None,
    missing: Missing = PAPER_MISSING,
    generators: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Return judge, condition, metric, align (%, records of T24's cells pooled), n_cells, n_verdicts."""
    gens = paper.population("T24").generators if generators is None else generators
    v = main_verdicts(bench, judges, generators=gens)
    cells = stats.per_metric_align(v, by=["judge", "condition", "generator", "difficulty"], missing=missing)
    out = _pooled(cells, ["judge", "condition", "metric"]).rename(columns={"n": "n_verdicts"})
    return out.astype({"judge": str, "condition": str, "metric": str})


def topology_long(
    bench,
    condition: str = "with_gt",
    judges: Sequence[str] | None = None,
    missing: Missing = PAPER_MISSING,
) -> pd.DataFrame:
    """Return judge, dag_type, align (%, records of T28's cells pooled), n_cells, n_records."""
    v = main_verdicts(bench, judges, conditions=[condition], generators=paper.population("T28").generators)
    cells = stats.align(v, by=["judge", "dag_type", "generator", "difficulty"], missing=missing)
    out = _pooled(cells, ["judge", "dag_type"]).rename(columns={"n": "n_records"})
    return out.astype({"judge": str, "dag_type": str}).assign(condition=condition)


def weighting_stability(
    bench,
    weightings: Mapping[str, Mapping[str, float]] = CW_WEIGHTINGS,
    condition: str = "with_gt",
    judges: Sequence[str] | None = None,
    missing: Missing = PAPER_MISSING,
) -> pd.DataFrame:
    """Return stats.ranking_stability over the judges' per-metric alignment (`per_metric_long`: records pooled)."""
    judges = list(schema.MAIN_JUDGES if judges is None else judges)
    long = per_metric_long(bench, judges, missing)
    long = long[long["condition"] == condition]
    res = stats.ranking_stability(long, weightings=weightings)
    return res[[j for j in judges if j in set(map(str, res.columns))] + ["rho", "pvalue"]]


def table_T14(
    bench, condition: str = "with_gt", judges: Sequence[str] | None = None, missing: Missing = PAPER_MISSING
) -> pd.DataFrame:
    """Return T14: per judge the alignment (%) and rank under equal / param x0.5 / param excluded."""
    rs = weighting_stability(bench, T14_WEIGHTINGS, condition, judges, missing)
    scores = rs.drop(columns=["rho", "pvalue"]).T
    scores.index.name = "judge"
    ranks = scores.rank(ascending=False, method="min").astype(int).add_prefix("rank_")
    out = pd.concat([scores, ranks], axis=1).rename_axis(columns=None)
    out["shift_excluded_pp"] = out["param_excluded"] - out["equal"]
    out.attrs["rho"] = rs["rho"].to_dict()
    return out
