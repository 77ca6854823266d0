"""Reference judges (stats.reference): the oracle ceiling and the uniform judge's expectation against
hand-computed cases (always-1.0 = p-bar on the sample: tests/test_notebook_tables.py, from notebook 03's file)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from ajb_utils import stats, tables
from ajb_utils.data import load_bench


@pytest.fixture(scope="module")
def bench():
    """Return the embedded sample, loaded once."""
    return load_bench("sample")


def _gens(p_rows: list[list[float]], generator: str = "g", difficulty: str = "hard") -> pd.DataFrame:
    """Return a generations frame with one generation per row of four p values."""
    p = np.asarray(p_rows, float)
    return pd.DataFrame(
        {
            "id": [f"r{i}" for i in range(len(p))],
            "generator": generator,
            "difficulty": difficulty,
            "dag_type": "linear",
            "p_tool": p[:, 0],
            "p_param": p[:, 1],
            "p_seq": p[:, 2],
            "p_cov": p[:, 3],
        }
    )


def _reference_cells(b) -> pd.DataFrame:
    """Return the reference judges' Table 2 cells as notebook 03 computes them."""
    refv = stats.reference_verdicts(b.generations, tables.REFERENCE_KINDS)
    return stats.align(refv, by=tables.T02_KEYS, missing=stats.PAPER_MISSING).astype({k: str for k in tables.T02_KEYS})


def test_oracle_hand_cases() -> None:
    """The nearest {0, 0.5, 1} verdict and its match on hand-computed p, ties at 0.25 / 0.75 upward."""
    p = [0.0, 0.1, 0.25, 0.4, 0.5, 0.6, 0.6667, 0.75, 0.9, 1.0]
    np.testing.assert_array_equal(stats.ternary_oracle(p), [0, 0, 0.5, 0.5, 0.5, 0.5, 0.5, 1, 1, 1])
    np.testing.assert_allclose(stats.oracle_match(p), [1, 0.9, 0.75, 0.9, 1, 0.9, 0.8333, 0.75, 0.9, 1], atol=1e-12)


def test_oracle_is_the_ceiling_of_every_ternary_judge() -> None:
    """No verdict vector on {0, 0.5, 1} aligns better than the oracle (brute force over all 3^4 verdicts per record)."""
    rng = np.random.default_rng(3)
    p = rng.choice([0.0, 0.25, 0.3333, 0.5, 0.6667, 0.75, 1.0], size=(30, 4))
    best = np.array(
        [max(np.mean(1 - np.abs(row - np.array(v))) for v in itertools.product((0, 0.5, 1), repeat=4)) for row in p]
    )
    np.testing.assert_allclose(stats.oracle_match(p).mean(axis=1), best, atol=1e-12)
    cells = stats.align(stats.reference_verdicts(_gens(p.tolist()), ["oracle"]), by=["judge", "condition"])
    np.testing.assert_allclose(cells["align"], 100 * best.mean(), atol=1e-9)


def test_uniform_expectation_hand_cases() -> None:
    """E[1 - |p - l|] for l uniform on {0, 0.5, 1}: 2/3 at p = 0.5, 1/2 at p = 0 or 1, 7/12 at p = 0.25."""
    np.testing.assert_allclose(
        stats.uniform_expectation([0.5, 0.0, 1.0, 0.25, 0.75]), [2 / 3, 0.5, 0.5, 7 / 12, 7 / 12], atol=1e-12
    )
    cells = stats.align(
        stats.reference_verdicts(_gens([[0.5] * 4] * 3), ["uniform_expected"]), by=["judge", "condition"]
    )
    np.testing.assert_allclose(cells["align"], 200 / 3, atol=1e-9)  # 66.7 %, not the 50 % of §3.2


def test_uniform_draws_are_seeded_and_average_to_the_expectation() -> None:
    """The sampled uniform judge is deterministic per seed, draws only {0, 0.5, 1}, and its mean match is near the expectation."""
    gens = _gens([[0.5, 0.0, 1.0, 0.25]] * 5000)
    a = stats.reference_verdicts(gens, ["uniform"], seed=7)
    b = stats.reference_verdicts(gens, ["uniform"], seed=7)
    pd.testing.assert_frame_equal(a, b)
    assert set(a["llm_score"]) == {0.0, 0.5, 1.0}
    wgt = a[a["condition"] == "with_gt"]
    exp = stats.uniform_expectation(wgt["p"]).mean()
    assert abs(wgt["match"].mean() - exp) < 0.01  # 20,000 draws: standard error about 0.002
    assert (
        a[a["condition"] == "with_gt"]["llm_score"].to_numpy()
        == a[a["condition"] == "without_gt"]["llm_score"].to_numpy()
    ).all()


def test_constant_judges_hand_case() -> None:
    """always-0.5 matches 1 - |p - 0.5|; always-1.0 matches p."""
    v = stats.reference_verdicts(_gens([[1.0, 0.5, 0.0, 0.75]]), ["always_1", "always_0.5"], conditions=["with_gt"])
    got = v.groupby("judge")["match"].apply(list).to_dict()
    assert got[stats.REFERENCE_JUDGES["always_1"]] == [1.0, 0.5, 0.0, 0.75]
    assert got[stats.REFERENCE_JUDGES["always_0.5"]] == [0.5, 1.0, 0.5, 0.75]


def test_static_frame_is_appended_and_unknown_kind_refused() -> None:
    """A static-judge verdict frame joins the reference rows under its own name; an unknown kind is an error."""
    gens = _gens([[1.0, 1.0, 0.5, 1.0]])
    static = stats.reference_verdicts(gens, ["always_0.5"]).drop(columns="judge")
    v = stats.reference_verdicts(gens, ["always_1"], static=static)
    assert set(v["judge"]) == {stats.REFERENCE_JUDGES["always_1"], stats.REFERENCE_JUDGES["static"]}
    with pytest.raises(ValueError, match="unknown reference judge"):
        stats.reference_verdicts(gens, ["always_2"])
