"""Claims we question, computed (teaching, beside §3.2, §4.2 RQ2 and Apps. H, N): where the paper's reasoning is open to doubt.

- §3.2's "an independent judge attains 50 % in expectation" is computed in notebook 02.
- §4.2 RQ2: the soft jury (mean of six verdicts) is scored on a continuous scale no single judge
  may use; snapping it back to {0, 0.5, 1} shows how much of its edge is the scale (notebook 05).
- §4.2 RQ2: "the higher without-GT [agreement and kappa] reflects prompt-driven verdict compression".
  Compression (more shared 1.0 verdicts) raises raw agreement p_o, but Cohen's kappa subtracts the
  chance agreement p_e of the marginals, which compression raises too; notebook 05 puts p_o, p_e,
  kappa and the 1.0-rate per condition side by side.
- Table 22 (App. N): dropping a meta-judge can only keep or raise unanimity (a record on which
  three raters agree has any two of them agreeing), so "all deltas are positive" cannot fail.
- App. N: "every single triplet" unanimous on hard-harder-than-medium beside the draft's own
  93.9 % unanimity (12 of 198 triplets mixed).
- App. H: the over-anchoring rule (p < 1, l_GT > p, l_noGT <= p + 0.1) flags a with-GT verdict
  that is simply the nearest point of the {0, 0.5, 1} scale to p (p = 0.75 -> 1.0): rounding,
  which any judge restricted to that scale must do, is counted as anchoring (counted in notebook 10).
"""

from __future__ import annotations

from itertools import combinations

import pandas as pd

from ajb_utils import paper, schema
from ajb_utils.tables.validation import table_T20

__all__ = [
    "unanimity_by_subset",
    "triplet_claim",
]


# ---- the validation appendices (notebooks 10, 12) ----------------------------------------


def unanimity_by_subset(rw: pd.DataFrame) -> pd.DataFrame:
    """Return per criterion the unanimity (%) of all meta-judges and of every pair, and the smallest pair minus all.

    Columns: criterion, raters, unanimity, minus_all (pp). A pair's unanimity is never below the
    three-rater one on the same records, so ``minus_all`` >= 0 on any data: the T22 check cannot fail.
    """
    if rw.empty:
        return pd.DataFrame(columns=["criterion", "raters", "unanimity", "minus_all"])
    judges = sorted(rw["meta_judge"].unique())
    rows = []
    for subset in [tuple(judges)] + list(combinations(judges, len(judges) - 1)):
        t = table_T20(rw, list(subset))
        rows.append(t[["criterion", "unanimity"]].assign(raters=" + ".join(schema.display(j) for j in subset)))
    out = pd.concat(rows, ignore_index=True)
    every = out.groupby("criterion", sort=False)["unanimity"].transform("first")
    out["minus_all"] = out["unanimity"] - every
    return out[["criterion", "raters", "unanimity", "minus_all"]]


def triplet_claim(n_triplets: int = 198) -> pd.DataFrame:
    """Return App. N's "every single triplet" unanimous (hard harder than medium) beside the draft's Table 20.

    Columns: criterion, claimed_unanimity (%), reported_unanimity (%), reported_mixed,
    implied_mixed (triplets, from the percentage), source.
    """
    r = paper.reported("T20")
    r = r[r["variant"] == "hard_harder_than_medium"].set_index("stat")
    pct, mixed = float(r.loc["unanimity", "value"]), float(r.loc["mixed", "value"])
    return pd.DataFrame(
        [
            {
                "criterion": "hard_harder_than_medium",
                "claimed_unanimity": 100.0,
                "reported_unanimity": pct,
                "reported_mixed": int(mixed),
                "implied_mixed": int(round((100 - pct) / 100 * n_triplets)),
                "source": str(r.loc["unanimity", "source"]),
            }
        ]
    )
