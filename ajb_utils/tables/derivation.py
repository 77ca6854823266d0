"""Derivation gap (seed 004, DeRef): the census of argument derivation paths by topology and difficulty (X3)."""

from __future__ import annotations

import pandas as pd

from ajb_utils import derivation
from ajb_utils.schema import DIFFICULTIES, TOPOLOGIES

__all__ = ["table_X3"]


def table_X3(census: pd.DataFrame) -> pd.DataFrame:
    """Return derivation-path shares (%) by difficulty, overall ("all") and per topology (paper order)."""
    overall = derivation.path_shares(census, ["difficulty"]).assign(dag_type="all")
    per = derivation.path_shares(census, ["dag_type", "difficulty"])
    out = pd.concat([overall, per], ignore_index=True)
    known = ["all", *TOPOLOGIES]
    # a topology the paper does not name keeps its label; a record without one (the census spells
    # it "nan") stays a missing topology, as the loader reports it
    extra = sorted(set(out["dag_type"].dropna().astype(str)) - set(known) - {"nan", "None", ""})
    topology = out["dag_type"].astype(object).where(out["dag_type"].isin(known + extra))
    out["dag_type"] = pd.Categorical(topology, categories=known + extra)
    out["difficulty"] = pd.Categorical(out["difficulty"].astype(str), categories=list(DIFFICULTIES))
    out = out.sort_values(["dag_type", "difficulty"]).reset_index(drop=True)
    return out[["dag_type", "difficulty", "n_args", *derivation.PATHS]]
