"""Tables for notebook 05 inter-judge agreement (T03, F10 data, T29, C-J).

Agreement and kappa compare two judges' raw verdicts on the same (id, generator, difficulty,
metric) key; pairs use only keys where both have a non-null verdict in {0, 0.5, 1}.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ajb_utils import paper, schema, stats
from ajb_utils.stats import PAPER_MISSING, Missing
from ajb_utils.tables.breakdown import released_verdicts

__all__ = [
    "pairwise_long",
    "table_T03",
    "extreme_pairs",
    "confusion_pair",
    "table_F10",
    "binary_cells",
    "table_T29",
    "t29_spearman",
    "tier_gap_rho",
    "hard_cell_means",
    "tier_search",
    "tier_note",
    "judge_side_bound",
    "matrix_stats",
]


def _present(names: Sequence[str], have: Sequence[str]) -> list[str]:
    """Return names (given order) that are in have."""
    s = set(map(str, have))
    return [n for n in names if n in s]


def pairwise_long(
    bench,
    judges: Sequence[str] | None = None,
    conditions: Sequence[str] = schema.MAIN_CONDITIONS,
    generators: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Return judge, judge_2, condition, agreement (%), kappa, n (shared verdicts) per pair, over T03's
    population (`paper.population("T03")`, the 12 cells of four generators) unless ``generators`` says otherwise."""
    gens = paper.population("T03").generators if generators is None else generators
    v = released_verdicts(bench, judges, conditions, generators=gens)
    judges = _present(list(schema.JUDGES if judges is None else judges), v["judge"].unique())
    frames = []
    for cond in conditions:
        pw = stats.pairwise_agreement(v, cond, judges=judges)
        frames.append(
            pw.rename(columns={"judge_a": "judge", "judge_b": "judge_2", "agreement_pct": "agreement"}).assign(
                condition=cond
            )
        )
    out = pd.concat(frames, ignore_index=True)
    return out[["judge", "judge_2", "condition", "agreement", "kappa", "n"]]


def table_T03(bench, judges: Sequence[str] | None = None) -> pd.DataFrame:
    """Return T03: per condition a judge x judge block, upper triangle agreement %, lower kappa."""
    pw = pairwise_long(bench, judges)
    order = _present(
        list(schema.JUDGES if judges is None else judges), pd.concat([pw["judge"], pw["judge_2"]]).unique()
    )
    blocks = {}
    for cond in schema.MAIN_CONDITIONS:
        sub = pw[pw["condition"] == cond].rename(
            columns={"judge": "judge_a", "judge_2": "judge_b", "agreement": "agreement_pct"}
        )
        blocks[cond] = stats.agreement_matrix(sub, judges=order)
    return pd.concat(blocks, names=["condition", "judge"])


def extreme_pairs(
    pw: pd.DataFrame, condition: str = "with_gt", judges: Sequence[str] = schema.MAIN_JUDGES
) -> tuple[tuple[str, str], tuple[str, str]]:
    """Return ((judge, judge_2) with highest agreement, (judge, judge_2) with lowest) among judges."""
    sub = pw[(pw["condition"] == condition) & pw["judge"].isin(judges) & pw["judge_2"].isin(judges)]
    sub = sub.sort_values(["agreement", "judge", "judge_2"], ascending=[False, True, True])
    hi, lo = sub.iloc[0], sub.iloc[-1]
    return (hi["judge"], hi["judge_2"]), (lo["judge"], lo["judge_2"])


def confusion_pair(bench, judge: str, judge_2: str, condition: str = "with_gt") -> pd.DataFrame:
    """Return the 3x3 verdict confusion (% of shared verdicts): rows judge, columns judge_2, over
    F10's population (`paper.population("F10")`, four generators)."""
    v = released_verdicts(bench, [judge, judge_2], [condition], generators=paper.population("F10").generators)
    wide = v.groupby(list(stats.PAIR_KEYS) + ["judge"], observed=True)["llm_score"].first().unstack("judge")
    wide.columns = wide.columns.astype(str)
    conf = stats.confusion(wide[judge].to_numpy(float), wide[judge_2].to_numpy(float), normalize=True)
    conf.index.name, conf.columns.name = schema.display(judge), schema.display(judge_2)
    return conf


def table_F10(bench, condition: str = "with_gt") -> pd.DataFrame:
    """Return F10 data: per extreme pair the 9 confusion shares (%), agreement, kappa, off-diag 0.5 share."""
    pw = pairwise_long(bench, schema.MAIN_JUDGES, [condition])
    rows = []
    for label, (a, b) in zip(("highest", "lowest"), extreme_pairs(pw, condition)):
        conf = confusion_pair(bench, a, b, condition)
        rec = pw[(pw["judge"] == a) & (pw["judge_2"] == b)].iloc[0]
        base = {"pair": label, "judge": a, "judge_2": b, "condition": condition}
        for (x, y), share in conf.stack().items():
            rows.append({**base, "stat": "share_of_verdicts", "variant": f"{x:g}|{y:g}", "value": share})
        rows.append({**base, "stat": "agreement", "variant": np.nan, "value": rec["agreement"]})
        rows.append({**base, "stat": "kappa", "variant": np.nan, "value": rec["kappa"]})
        rows.append(
            {
                **base,
                "stat": "offdiag_share_with_a_0.5",
                "variant": np.nan,
                "value": 100.0 * stats.offdiag_half_share(conf),
            }
        )
    return pd.DataFrame(rows)


def binary_cells(
    bench, judges: Sequence[str] = schema.MAIN_JUDGES, condition: str = "with_gt", missing: Missing = PAPER_MISSING
) -> pd.DataFrame:
    """Return per (judge, generator, difficulty) cell: standard align (%), binary align under the
    judge-side reading (``binary``) and with the reference collapsed too (``binary_both``)."""
    v = released_verdicts(bench, judges, [condition])
    keys = ["judge", "generator", "difficulty"]
    out = stats.align(v, by=keys, missing=missing).rename(columns={"align": "standard"})
    for reading, col in (("judge", "binary"), ("both", "binary_both")):
        b = stats.align(stats.binary_verdicts(v, reading=reading), by=keys, missing=missing)
        out = out.merge(b[keys + ["align"]].rename(columns={"align": col}), on=keys)
    return out


def table_T29(
    bench, judges: Sequence[str] = schema.MAIN_JUDGES, condition: str = "with_gt", missing: Missing = PAPER_MISSING
) -> pd.DataFrame:
    """Return T29: per judge mean standard / binary align over cells (%) under both readings of the
    collapse (``binary``: judge side only; ``binary_both``: judge and reference), their deltas (pp),
    0.5-rate (%), ranks (standard, judge-side binary)."""
    cells = binary_cells(bench, judges, condition, missing)
    out = cells.groupby("judge", observed=True).agg(
        standard=("standard", "mean"),
        binary=("binary", "mean"),
        binary_both=("binary_both", "mean"),
        n_cells=("standard", "size"),
    )
    out.index = out.index.astype(str)
    out["delta"] = out["binary"] - out["standard"]
    out["delta_both"] = out["binary_both"] - out["standard"]
    v = released_verdicts(bench, judges, [condition])
    hr = stats.half_rate(v, "judge")
    hr.index = hr.index.astype(str)
    out["half_credit_rate"] = 100.0 * hr.reindex(out.index)
    out["rank_standard"] = out["standard"].rank(ascending=False, method="min").astype(int)
    out["rank_binary"] = out["binary"].rank(ascending=False, method="min").astype(int)
    out["rank_binary_both"] = out["binary_both"].rank(ascending=False, method="min").astype(int)
    out = out.sort_values("standard", ascending=False)
    out.index.name = "judge"
    return out[
        [
            "standard",
            "binary",
            "delta",
            "binary_both",
            "delta_both",
            "half_credit_rate",
            "rank_standard",
            "rank_binary",
            "rank_binary_both",
            "n_cells",
        ]
    ]


def judge_side_bound(half_credit_rate_pct: float | pd.Series) -> float | pd.Series:
    """Return the largest delta (pp) the judge-side collapse allows at a 0.5-rate given in %: 0.5 x rate."""
    return 0.5 * half_credit_rate_pct


def t29_spearman(t29: pd.DataFrame, column: str = "binary_both") -> tuple[float, float]:
    """Return (rho, p) of Spearman between the standard and binary judge alignments of T29
    (the both-collapsed reading the paper's values need; ``column="binary"`` for the judge side;
    a frame without ``binary_both``, e.g. the paper's own columns, uses ``binary``)."""
    col = column if column in t29.columns else "binary"
    return stats.spearman(t29["standard"], t29[col])


def tier_gap_rho(pw: pd.DataFrame, condition: str, tiers: dict[str, int] = schema.JUDGE_TIER) -> float:
    """Return Spearman rho of pairwise kappa vs |tier_a - tier_b| over pairs of tiered judges."""
    sub = pw[(pw["condition"] == condition) & pw["judge"].isin(tiers) & pw["judge_2"].isin(tiers)]
    gap = (sub["judge"].map(tiers) - sub["judge_2"].map(tiers)).abs()
    return stats.spearman(gap, sub["kappa"])[0]


def _capacity_ordered(t: Mapping[str, int]) -> bool:
    """Return True when a tiering follows parameter count: GPT-OSS-20B < QwQ-32B < GPT-OSS-120B <= each frontier judge."""
    frontier = min(t["judge_gpt_5_4"], t["judge_claude_large"], t["judge_gemini_2_5_pro"])
    return t["judge_gpt_oss_20b"] < t["judge_qwq_32b"] < t["judge_gpt_oss_120b"] <= frontier


def tier_search(
    pw: pd.DataFrame, condition: str = "with_gt", judges: Sequence[str] = schema.MAIN_JUDGES
) -> pd.DataFrame:
    """Return every ordinal tiering of the judges (each weak ordering, tiers 0..k-1) with the
    Spearman rho of pairwise kappa vs tier gap it gives: columns tiering (judge=tier, paper
    order), capacity_ordered (follows parameter count), rho. 4,683 rows for six judges."""
    sub = pw[pw["condition"] == condition]
    a, b = sub["judge"].astype(str).to_numpy(), sub["judge_2"].astype(str).to_numpy()
    kappa = sub["kappa"].to_numpy(float)
    judges = list(judges)
    tierings = [
        labels
        for labels in itertools.product(range(len(judges)), repeat=len(judges))
        if sorted(set(labels)) == list(range(len(set(labels))))
    ]
    pos = {j: i for i, j in enumerate(judges)}
    labels = np.array(tierings, dtype=np.int64).reshape(len(tierings), len(judges))
    gaps = np.abs(labels[:, [pos[x] for x in a]] - labels[:, [pos[y] for y in b]])  # (tierings, pairs)
    rho = _row_spearman(gaps, kappa)
    rows = []
    for labels_k, rho_k in zip(tierings, rho):
        t = dict(zip(judges, labels_k))
        rows.append(
            {
                "tiering": ", ".join(f"{schema.display(j)}={k}" for j, k in t.items()),
                "capacity_ordered": _capacity_ordered(t),
                "rho": float(rho_k),
            }
        )
    return pd.DataFrame(rows)


def _average_ranks(x: np.ndarray) -> np.ndarray:
    """Return the 1-based ranks of each row of x (n, m), ties given their average rank (scipy's rankdata)."""
    less = (x[:, None, :] < x[:, :, None]).sum(axis=2)
    equal = (x[:, None, :] == x[:, :, None]).sum(axis=2)
    return less + (equal + 1) / 2.0


def _row_spearman(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Return Spearman's rho of each row of x (n, m) with y (m,) (Pearson on average ranks); NaN for a constant row."""
    rx = _average_ranks(x)
    ry = _average_ranks(y[None, :])[0]
    dx = rx - rx.mean(axis=1, keepdims=True)
    dy = ry - ry.mean()
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = (dx @ dy) / np.sqrt((dx * dx).sum(axis=1) * (dy @ dy))
    constant = (x == x[:, :1]).all(axis=1)
    return np.where(constant, np.nan, np.clip(rho, -1.0, 1.0))


def tier_note(n_hits: int, n_capacity_hits: int) -> str:
    """Return the note a tier-gap rho verdict carries: its definition is unknown when no capacity tiering gives the paper's rho."""
    if n_capacity_hits:
        return "tiers: schema.JUDGE_TIER"
    return (
        "rests on an unknown definition: no capacity-ordered tiering gives the paper's with-GT "
        f"-0.171 from Table 3 ({n_hits} of 4683 ordinal tierings do, none by parameter count; "
        "X1.tier_rho_with_gt) and Table 3 has no without-GT block; computed with schema.JUDGE_TIER"
    )


def hard_cell_means(
    bench, judges: Sequence[str], condition: str, difficulty: str = "hard", missing: Missing = PAPER_MISSING
) -> pd.Series:
    """Return per judge (and 'soft_jury' of the judges) mean align (%) over generators at one difficulty."""
    v = released_verdicts(bench, judges, [condition])
    v = v[v["difficulty"] == difficulty]
    jury = stats.soft_jury(v, judges)
    both = pd.concat([v, jury], ignore_index=True)
    both["judge"] = both["judge"].astype(str)
    cells = stats.align(both, by=["judge", "generator"], missing=missing)
    res = cells.groupby("judge", observed=True)["align"].mean()
    return res.reindex([j for j in list(judges) + ["soft_jury"] if j in res.index])


# The tier definition behind the paper's kappa-vs-tier rho is unknown: with Table 3's kappas no
# capacity-ordered tiering gives -0.171 (X1.tier_rho_with_gt; two of the 4,683 ordinal tierings
# do, with QwQ-32B above the frontier judges), and Table 3 has no without-GT block for -0.825.
TIER_NOTE: str = tier_note(2, 0)


def matrix_stats(f10: pd.DataFrame) -> pd.DataFrame:
    """Return per (judge, judge_2, condition) of a Figure-10-shaped frame the agreement (%) and kappa
    implied by its 3 x 3 matrix of verdict shares (``share_of_verdicts`` rows, variant 'a|b')."""
    cells = f10[f10["stat"] == "share_of_verdicts"]
    rows = []
    for (a, b, c), g in cells.groupby(["judge", "judge_2", "condition"], sort=False):
        m = np.zeros((3, 3))
        for var, x in zip(g["variant"], g["value"]):
            i, j = (stats.LABELS.index(float(t)) for t in str(var).split("|"))
            m[i, j] = float(x)
        n = m.sum()
        po, pe = np.trace(m) / n, float(m.sum(axis=1) @ m.sum(axis=0)) / n**2
        rows.append(
            {"judge": a, "judge_2": b, "condition": c, "agreement": 100 * po, "kappa": (po - pe) / (1 - pe), "total": n}
        )
    return pd.DataFrame(rows)
