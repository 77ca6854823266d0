"""The programmatic judge (paper §3.2, Eqs. 1-3) and the match score of Eq. 4a.

Notation as in the paper: G = predicted ordered calls, E = expected (ground-truth) ordered calls,
𝒢 and ℰ their tool-name sets.

- p_tool  = max(0, 1 - (|𝒢∖ℰ| + |ℰ∖𝒢|) / max(|ℰ|, 1))                         (Eq. 1a)
- p_seq   = (1 / max(|E|, 1)) Σ_{i ≤ min(|G|,|E|)} [name(g_i) = name(e_i)]      (Eq. 1b)
- p_param = mean over g ∈ G of s(g): 1 if args(g) = A*_g, 0.5 if A*_g ⊂ args(g),
            0 if A*_g ⊄ args(g) or the tool is not in ℰ                         (Eq. 2)
- p_cov   = |𝒢 ∩ ℰ| / |ℰ|, 0 if disjoint                                        (Eq. 3)

The authors' edge cases (A*_g from the LAST expected call of a tool, empty plans, 4 decimals) are DESIGN.md's;
`programmatic_scores` (one plan, the readable reference) and `score_frame` (vectorised) must agree.
"""

from __future__ import annotations

import operator
from itertools import chain
from typing import Any

import numpy as np
import pandas as pd

from ajb_utils.calls import normalize_calls
from ajb_utils.schema import METRICS, P_COLUMNS, SCORE_COLUMNS

DECIMALS = 4
_LE = np.frompyfunc(operator.le, 2, 1)  # element-wise set containment on object arrays
_NAME, _ARGUMENTS = operator.itemgetter("name"), operator.itemgetter("arguments")


def p_tool(pred_names: list[str], exp_names: list[str]) -> float:
    """Return tool-selection accuracy (Eq. 1a) from predicted and expected tool names."""
    g, e = set(pred_names), set(exp_names)
    return max(0.0, 1.0 - (len(g - e) + len(e - g)) / max(len(e), 1))


def p_seq(pred_names: list[str], exp_names: list[str]) -> float:
    """Return sequence accuracy (Eq. 1b): position-wise name matches over max(|E|, 1)."""
    if not exp_names:
        return 1.0
    hits = sum(a == b for a, b in zip(pred_names, exp_names))
    return hits / len(exp_names)


def s_call(pred_keys: set[str], expected_keys: set[str] | None) -> float:
    """Return the per-call structural score s(g) of Eq. 2."""
    if expected_keys is None or not expected_keys <= pred_keys:
        return 0.0
    return 1.0 if pred_keys == expected_keys else 0.5


def p_param(pred: list[dict[str, Any]], exp: list[dict[str, Any]]) -> float:
    """Return parameter-structure accuracy (Eq. 2); the last expected call per tool sets A*."""
    if not pred:
        return 1.0
    last_keys = {c["name"]: set(c["arguments"]) for c in exp}  # later calls overwrite earlier
    scores = [s_call(set(c["arguments"]), last_keys.get(c["name"])) for c in pred]
    return sum(scores) / len(pred)


def p_cov(pred_names: list[str], exp_names: list[str]) -> float:
    """Return query-coverage accuracy (Eq. 3): share of expected tool names predicted."""
    e = set(exp_names)
    if not e:
        return 1.0
    return len(set(pred_names) & e) / len(e)


def programmatic_scores(generated: Any, expected: Any) -> dict[str, float]:
    """Return the four programmatic scores of one plan (call lists or JSON; None is an empty plan), to 4 decimals."""
    pred = normalize_calls(generated) or []
    exp = normalize_calls(expected) or []
    pn, en = [c["name"] for c in pred], [c["name"] for c in exp]
    raw = {
        "tool_selection": p_tool(pn, en),
        "parameter_structure": p_param(pred, exp),
        "sequence_accuracy": p_seq(pn, en),
        "query_coverage": p_cov(pn, en),
    }
    return {m: round(raw[m], DECIMALS) for m in METRICS}


def _floats(x: Any) -> Any:
    """Return a number, sequence, array or Series as floats, a missing value (None, NaN, pd.NA) as NaN."""
    if isinstance(x, (pd.Series, pd.Index, pd.api.extensions.ExtensionArray)):
        return x.to_numpy(dtype=float, na_value=np.nan)
    return np.asarray(x, dtype=float)


def match(p: Any, llm_score: Any) -> Any:
    """Return the per-metric match μ = 1 - |p - ℓ| (Eq. 4a) element-wise, NaN where either is missing."""
    return 1.0 - np.abs(_floats(p) - _floats(llm_score))


# ---- Vectorised path: a whole frame of plans at once. --------------------------------------------


def _call_table(call_lists: list[list[dict[str, Any]]]) -> pd.DataFrame:
    """Return one row per call: plan index `k`, position `pos`, tool `name`, argument key set."""
    lengths = np.fromiter((len(c) for c in call_lists), dtype=np.int64, count=len(call_lists))
    flat = list(chain.from_iterable(call_lists))
    k = np.repeat(np.arange(len(call_lists)), lengths)
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    keys = np.empty(len(flat), dtype=object)
    keys[:] = list(map(frozenset, map(_ARGUMENTS, flat)))
    return pd.DataFrame(
        {
            "k": k,
            "pos": np.arange(len(flat)) - starts,
            "name": list(map(_NAME, flat)),
            "keys": keys,
        }
    )


def _per_plan(series: pd.Series, n: int) -> np.ndarray:
    """Return a per-plan array of length n from a Series indexed by plan index (0 for a plan it lacks)."""
    return series.reindex(range(n), fill_value=0).to_numpy(float)


def _call_scores(g: pd.DataFrame, e: pd.DataFrame) -> pd.DataFrame:
    """Return one row per predicted call (k, pos, name, s) with s(g) of Eq. 2 (A* from a tool's last expected call)."""
    last = e.sort_values(["k", "pos"]).drop_duplicates(["k", "name"], keep="last")
    calls = g[["k", "pos", "name", "keys"]].merge(
        last[["k", "name", "keys"]].rename(columns={"keys": "exp_keys"}), on=["k", "name"], how="left"
    )
    defined = calls["exp_keys"].notna().to_numpy()  # s = 0 for a tool not in E
    pred, exp = calls["keys"].to_numpy()[defined], calls["exp_keys"].to_numpy()[defined]
    s = np.zeros(len(calls))
    s[defined] = np.where((pred == exp).astype(bool), 1.0, np.where(_LE(exp, pred).astype(bool), 0.5, 0.0))
    calls["s"] = s
    return calls[["k", "pos", "name", "s"]]


def call_param_scores(generated: list[list[dict[str, Any]]], expected: list[list[dict[str, Any]]]) -> pd.DataFrame:
    """Return one row per generated call: plan index k, pos, name, s (Eq. 2, in {0, 0.5, 1})."""
    return _call_scores(_call_table(generated), _call_table(expected))


def score_plans(generated: list[list[dict[str, Any]]], expected: list[list[dict[str, Any]]]) -> pd.DataFrame:
    """Return p_tool, p_param, p_seq, p_cov of aligned call lists, vectorised (independent of the per-plan code)."""
    if len(generated) != len(expected):
        raise ValueError("generated and expected must have the same length")
    n = len(generated)
    g, e = _call_table(generated), _call_table(expected)
    n_g = _per_plan(g.groupby("k").size(), n)
    n_e = _per_plan(e.groupby("k").size(), n)

    # Tool sets (Eqs. 1a and 3).
    gs = g[["k", "name"]].drop_duplicates()
    es = e[["k", "name"]].drop_duplicates()
    both = gs.merge(es, on=["k", "name"], how="inner").groupby("k").size()
    n_gs, n_es = _per_plan(gs.groupby("k").size(), n), _per_plan(es.groupby("k").size(), n)
    n_both = _per_plan(both, n)
    sym_diff = (n_gs - n_both) + (n_es - n_both)
    tool = np.maximum(0.0, 1.0 - sym_diff / np.maximum(n_es, 1.0))
    cov = np.where(n_es == 0, 1.0, n_both / np.maximum(n_es, 1.0))

    # Positions (Eq. 1b).
    aligned = g[["k", "pos", "name"]].merge(e[["k", "pos", "name"]], on=["k", "pos"])
    hits = _per_plan((aligned["name_x"] == aligned["name_y"]).groupby(aligned["k"]).sum(), n)
    seq = np.where(n_e == 0, 1.0, hits / np.maximum(n_e, 1.0))

    # Key sets (Eq. 2): per-call scores s(g), averaged per plan.
    calls = _call_scores(g, e)
    s_sum = _per_plan(calls["s"].groupby(calls["k"].to_numpy()).sum(), n)
    param = np.where(n_g == 0, 1.0, s_sum / np.maximum(n_g, 1.0))

    out = pd.DataFrame({"p_tool": tool, "p_param": param, "p_seq": seq, "p_cov": cov})
    return out.round(DECIMALS)


def score_frame(generations: pd.DataFrame, expected_by_id: pd.Series) -> pd.DataFrame:
    """Return `generations` with p_tool, p_param, p_seq, p_cov and p_mean (expected calls by record id)."""
    pos = expected_by_id.index.get_indexer(generations["id"].astype(str))
    if (pos < 0).any():
        missing = generations["id"][pos < 0].astype(str).unique()[:5].tolist()
        raise KeyError(f"generations reference unknown record ids, e.g. {missing}")
    expected = expected_by_id.to_numpy()[pos].tolist()
    scores = score_plans(generations["generated_calls"].tolist(), expected)
    out = generations.reset_index(drop=True).assign(**scores)
    out["p_mean"] = out[list(P_COLUMNS.values())].mean(axis=1)
    return out


# ---- Published scores against the recomputed ones, mismatches grouped by cause -------------------
MISMATCH_CAUSES: dict[str, str] = {
    "rounding": "the two differ by at most 1e-3 (rounding of the published value)",
    "other": "more than rounding: the published score read the plan or the metric differently "
    "(here a null-valued argument key is never an argument, calls.py)",
}


def check_published_scores(bench: Any, tol: float = 1e-4) -> pd.DataFrame:
    """Return one row per recomputed score that differs from the published one, with its `cause`."""
    gen = bench.generations
    cols = ["id", "generator", "difficulty", "metric", "recomputed", "published", "cause"]
    parts = []
    for metric, pcol in P_COLUMNS.items():
        pub = gen[SCORE_COLUMNS[metric]].astype(float)
        bad = ((gen[pcol] - pub).abs() > tol).to_numpy()
        if bad.any():
            part = gen.loc[bad, ["id", "generator", "difficulty"]]
            parts.append(
                part.assign(metric=metric, recomputed=gen.loc[bad, pcol].to_numpy(), published=pub[bad].to_numpy())
            )
    if not parts:
        return pd.DataFrame(columns=cols)
    out = pd.concat(parts, ignore_index=True)
    cause = np.where((out["recomputed"] - out["published"]).abs() <= 1e-3, "rounding", "other")
    out["cause"] = pd.Categorical(cause, categories=list(MISMATCH_CAUSES))
    return out[cols]
