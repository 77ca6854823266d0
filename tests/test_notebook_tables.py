"""The tables the notebooks compute in their own cells (issue 35: single-caller table functions inlined
as visible cells), checked in the files the notebooks write to figures/sample/ (the committed outputs
of the main command) against an independent computation from the sample, one section per notebook."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ajb_utils import paths, schema
from ajb_utils.data import load_bench

SAMPLE_OUT = paths.REPO_ROOT / "figures" / "sample"


@pytest.fixture(scope="module")
def bench():
    """Return the embedded sample, loaded once."""
    return load_bench("sample")


def _csv(name: str) -> pd.DataFrame:
    """Return a file the notebooks wrote for the sample."""
    path = SAMPLE_OUT / name
    assert path.exists(), f"{name} missing: run python scripts/reproduce.py (or the notebook) first"
    return pd.read_csv(path)


# ---- 02: the judges independent of the plan (§3.2's "50 % in expectation") ---------------------
def test_02_independent_judges_from_the_generations(bench) -> None:
    """Per difficulty and overall, from the four p columns by hand: a uniform {0, 0.5, 1} verdict's
    expected match 1 - (|p| + |p - 0.5| + |p - 1|) / 3, always-1.0 = mean p, always-0.5 = 1 - |p - 0.5|."""
    got = _csv("EQ1-5_independent_judges.csv").set_index("difficulty")
    g = bench.generations
    cols = ["p_tool", "p_param", "p_seq", "p_cov"]
    for d in [*schema.DIFFICULTIES, "all"]:
        p = (g if d == "all" else g[g["difficulty"] == d])[cols].to_numpy(float).ravel()
        uniform = 1 - (np.abs(p) + np.abs(p - 0.5) + np.abs(p - 1)) / 3
        want = [
            100 * ((p > 0) & (p < 1)).mean(),
            100 * uniform.mean(),
            100 * p.mean(),
            100 * (1 - np.abs(p - 0.5)).mean(),
        ]
        assert got.loc[d].to_numpy(float) == pytest.approx(want, abs=1e-6), d
    assert got.loc["all", "always_1"] == pytest.approx(100 * g["p_mean"].mean(), abs=1e-6)  # always-1.0 = p-bar
    assert (got["uniform_expected"] > 50).all()  # 50 % is the minimum, reached only when every p is 0 or 1
