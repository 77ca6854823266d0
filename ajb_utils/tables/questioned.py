"""Claims we question, computed: where the paper's own reasoning is open to doubt (notebooks 10, 12).

- Table 22 (App. N): dropping a meta-judge can only keep or raise unanimity (a record on which
  three raters agree has any two of them agreeing), so "all deltas are positive" cannot fail.
- App. N: "every single triplet" unanimous on hard-harder-than-medium beside the draft's own
  93.9 % unanimity (12 of 198 triplets mixed).
- App. H: the over-anchoring rule (p < 1, l_GT > p, l_noGT <= p + 0.1) flags a with-GT verdict
  that is simply the nearest point of the {0, 0.5, 1} scale to p (p = 0.75 -> 1.0): rounding,
  which any judge restricted to that scale must do, is counted as anchoring.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from ajb_utils import paper, schema
from ajb_utils.tables.validation import table_T20

__all__ = ["SCALE", "unanimity_by_subset", "triplet_claim", "apph_rounding"]

SCALE: tuple[float, ...] = (0.0, 0.5, 1.0)


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
    return pd.DataFrame([{"criterion": "hard_harder_than_medium", "claimed_unanimity": 100.0,
                          "reported_unanimity": pct, "reported_mixed": int(mixed),
                          "implied_mixed": int(round((100 - pct) / 100 * n_triplets)),
                          "source": str(r.loc["unanimity", "source"])}])


def apph_rounding(mined: pd.DataFrame) -> pd.DataFrame:
    """Return per judge: App. H instances, and how many are rounding (l_GT a nearest {0, 0.5, 1} point to p).

    ``mined``: `anchoring.mine_over_anchoring` rows (p, l_with_gt). Columns: judge, flagged,
    rounding, rounding_pct. A verdict counts as rounding when |l_GT - p| equals the smallest
    distance from p to the scale (so 1.0 for p = 0.75 is rounding; 1.0 for p = 0.5 is not).
    """
    if mined.empty:
        return pd.DataFrame(columns=["judge", "flagged", "rounding", "rounding_pct"])
    p = mined["p"].to_numpy(float)
    nearest = np.min(np.abs(p[:, None] - np.asarray(SCALE)[None, :]), axis=1)
    rounding = np.abs(mined["l_with_gt"].to_numpy(float) - p) <= nearest + 1e-9
    g = mined.assign(rounding=rounding).groupby("judge", sort=True)["rounding"]
    out = pd.DataFrame({"flagged": g.size(), "rounding": g.sum().astype(int)})
    out["rounding_pct"] = 100 * out["rounding"] / out["flagged"]
    return out.rename_axis("judge").reset_index()
