"""Decision guide uncertainty (Table 6): P(rank 1) per judge from a paired bootstrap, and a "best"
judge named only where it is distinguishable.

Table 6 names the judge with the highest mean over generators of the Table 2 cells. A gap of a
tenth of a point between two judges means little when each mean has a CI of a few points, so this
module resamples the records (the same records for every judge: paired) and counts how often each
judge comes first (`stats.rank1_probability`). A judge is named "best" only when its P(rank 1)
reaches ``DISTINGUISHABLE`` (0.95); otherwise the guide says which judges it is indistinguishable
from (those with P(rank 1) >= ``PLAUSIBLE``, 0.05).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ajb_utils import schema, stats
from ajb_utils.stats import PAPER_MISSING, Missing
from ajb_utils.tables.breakdown import released_verdicts

__all__ = ["DISTINGUISHABLE", "PLAUSIBLE", "rank1_table", "decision_verdicts"]

DISTINGUISHABLE: float = 0.95  # P(rank 1) at which a judge is named best
PLAUSIBLE: float = 0.05  # P(rank 1) at which a judge counts as a possible winner


def rank1_table(
    bench,
    generators: Sequence[str] = schema.OPEN_WEIGHT_GENERATORS,
    judges: Sequence[str] = schema.MAIN_JUDGES,
    missing: Missing = PAPER_MISSING,
    n_bootstrap: int = 2000,
    seed: int = 0,
) -> pd.DataFrame:
    """Return per (condition, difficulty, judge): align (%), lo, hi, p_rank1, n_records (paired records).

    Over the given generators (default: the four open-weight ones Table 6's numbers use), on
    the records every judge judged in that cell; one seeded bootstrap per (condition, difficulty).
    """
    v = released_verdicts(bench, judges)
    v = v[v["generator"].isin(list(generators))]
    recs = stats.record_alignment(v, missing=missing)
    parts = []
    for i, (cond, diff) in enumerate((c, d) for c in schema.MAIN_CONDITIONS for d in schema.DIFFICULTIES):
        sub = recs[(recs["condition"] == cond) & (recs["difficulty"] == diff)]
        if not len(sub):
            continue
        r = stats.rank1_probability(sub, ["generator"], n_resamples=n_bootstrap, seed=seed + i)
        parts.append(r.assign(condition=cond, difficulty=diff))
    cols = ["condition", "difficulty", "judge", "align", "lo", "hi", "p_rank1", "n_records"]
    return pd.concat(parts, ignore_index=True)[cols] if parts else pd.DataFrame(columns=cols)


def decision_verdicts(
    rank1: pd.DataFrame, distinguishable: float = DISTINGUISHABLE, plausible: float = PLAUSIBLE
) -> pd.DataFrame:
    """Return per (condition, difficulty): leader, its align and P(rank 1), and the guide's wording.

    Columns: condition, difficulty, leader, leader_align, leader_p_rank1, guide (``best: X`` when
    P(rank 1) >= distinguishable, else ``X, indistinguishable from Y, Z`` naming the other judges
    with P(rank 1) >= plausible), n_plausible.
    """
    rows = []
    for (cond, diff), g in rank1.groupby(["condition", "difficulty"], sort=False):
        g = g.sort_values(["p_rank1", "align"], ascending=False, kind="stable")
        top = g.iloc[0]
        others = [schema.display(j) for j in g["judge"].iloc[1:][g["p_rank1"].iloc[1:] >= plausible]]
        name = schema.display(top["judge"])
        if top["p_rank1"] >= distinguishable:
            guide = f"best: {name}"
        else:
            guide = f"{name}, indistinguishable from {', '.join(others) if others else 'the runner-up'}"
        rows.append(
            {
                "condition": cond,
                "difficulty": diff,
                "leader": top["judge"],
                "leader_align": top["align"],
                "leader_p_rank1": top["p_rank1"],
                "guide": guide,
                "n_plausible": 1 + len(others),
            }
        )
    return pd.DataFrame(rows)
