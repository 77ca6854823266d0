"""The tables a notebook computes in its own cells (issue 35: single-caller table functions inlined
as visible cells), checked in the CSVs the main command writes to figures/sample/ against an
independent computation or a hand-checked value. One section per notebook."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ajb_utils import paths

SAMPLE = paths.FIGURES_DIR / "sample"


# ---- 06_rq3_default_score --------------------------------------------------------------------------
def test_06_paper_band_from_T02() -> None:
    """The paper's hard without-GT band, from its Table 2 (data/paper/README.md item 3/6: Llama-3.3-70B
    83.3-84.6, six-judge mean 84.23; two generators with all six judges inside 77-82%)."""
    band = pd.read_csv(SAMPLE / "T04-RQ3_paper_band.csv").set_index("generator")
    assert band.loc["llama_3_3_70b_instruct", "min"] == 83.3
    assert band.loc["llama_3_3_70b_instruct", "max"] == 84.6
    assert band.loc["llama_3_3_70b_instruct", "mean"] == pytest.approx(84.2333, abs=1e-3)
    assert (band["n_judges"] == 6).all() and len(band) == 5
    assert int(band["all_in_band"].sum()) == 2


# ---- 10_anchoring ----------------------------------------------------------------------------------
def _is_rounding(p: np.ndarray, l_with_gt: np.ndarray) -> np.ndarray:
    """Return whether each with-GT verdict is a closest point of {0, 0.5, 1} to p (the distance to the
    closest point is p's distance to the nearer multiple of 0.5)."""
    r = np.mod(p, 0.5)
    return np.abs(l_with_gt - p) <= np.minimum(r, 0.5 - r) + 1e-9


def test_10_rounding_rule_on_the_hand_case() -> None:
    """p = 0.75 -> 1.0 ties 0.5 (rounding); 0.5 -> 1.0 is not; 0.25 -> 0.5 ties 0.0 (rounding); 0.6 -> 0.5 nearest."""
    got = _is_rounding(np.array([0.75, 0.5, 0.25, 0.6]), np.array([1.0, 1.0, 0.5, 0.5]))
    assert got.tolist() == [True, False, True, True]


def test_10_apph_rounding_csv() -> None:
    """AppH_rounding.csv: per judge, App. H's flagged verdicts and how many are rounding, as recounted
    from the sample's mined instances."""
    from ajb_utils import schema
    from ajb_utils.data import load_bench
    from ajb_utils.tables import anchoring

    mined = anchoring.mine_over_anchoring(load_bench("sample", calls=False).verdicts, judges=schema.MAIN_JUDGES)
    want = (
        mined.assign(rounding=_is_rounding(mined["p"].to_numpy(float), mined["l_with_gt"].to_numpy(float)))
        .groupby(mined["judge"].astype(str))["rounding"]
        .agg(["size", "sum"])
    )
    got = pd.read_csv(SAMPLE / "AppH_rounding.csv").set_index("judge")
    assert sorted(got.index) == sorted(want.index) and len(got) == 6
    assert (got["flagged"] == want.loc[got.index, "size"]).all()
    assert (got["rounding"] == want.loc[got.index, "sum"]).all()
    np.testing.assert_allclose(got["rounding_pct"], 100 * got["rounding"] / got["flagged"])


# ---- 05_rq2_agreement ------------------------------------------------------------------------------
def test_05_kappa_compression_csv() -> None:
    """C-J_kappa_compression.csv: per condition the mean over the six judges' 15 pairs of p_o, p_e and kappa
    (T03's cells), each pair counted here from its verdicts (p_e = sum_k f_a(k) f_b(k)), and the shares
    of 1.0 and 0.5 verdicts over every generator."""
    from itertools import combinations

    from ajb_utils import paper, schema
    from ajb_utils.data import load_bench

    v = load_bench("sample", calls=False).verdicts
    v = v[v["judge"].isin(schema.MAIN_JUDGES) & v["llm_score"].notna()]
    got = pd.read_csv(SAMPLE / "C-J_kappa_compression.csv").set_index("condition")
    assert list(got.index) == schema.MAIN_CONDITIONS
    for cond in schema.MAIN_CONDITIONS:
        c = v[(v["condition"] == cond) & v["generator"].isin(paper.population("T03").generators)]
        keys = ["id", "generator", "difficulty", "metric"]
        wide = c.pivot_table(index=keys, columns="judge", values="llm_score", observed=True)
        po, pe = [], []
        for a, b in combinations(schema.MAIN_JUDGES, 2):
            w = wide[[a, b]].dropna()
            po.append((w[a] == w[b]).mean())
            pe.append(sum((w[a] == k).mean() * (w[b] == k).mean() for k in (0.0, 0.5, 1.0)))
        po, pe = np.array(po), np.array(pe)
        row = got.loc[cond]
        assert row["p_o"] == pytest.approx(100 * po.mean(), abs=1e-6)
        assert row["p_e"] == pytest.approx(100 * pe.mean(), abs=1e-6)
        assert row["kappa"] == pytest.approx(((po - pe) / (1 - pe)).mean(), abs=1e-6)
        allc = v[v["condition"] == cond]["llm_score"]
        assert row["verdicts_1_pct"] == pytest.approx(100 * (allc == 1).mean(), abs=1e-6)
        assert row["verdicts_05_pct"] == pytest.approx(100 * (allc == 0.5).mean(), abs=1e-6)
