"""Tables for notebook 03, main results (T02, T10, T11, C-F); notebook 02's worked examples and T15 are its cells.

Conventions: alignment cells come from `stats.align` on the released judges' verdicts under the
two main conditions (missing-value rule `stats.PAPER_MISSING`, the authors' rule, for every
table compared with the paper: a condition without any verdict is dropped, a null metric inside
a verdict counts as a miss, the library's one default; `missing="exclude"` and `"miss"` stay available). "Six-judge" statistics use schema.MAIN_JUDGES
(Prometheus-2 is a reported baseline row, never part of them). `n_generators=4` restricts to the
four open-weight generators, the 12-cell averages the paper's headline numbers correspond to
(data/paper/README.md item 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ajb_utils import schema, stats
from ajb_utils.tables.anchoring import paired_lift

__all__ = [
    "T02_KEYS",
    "main_verdicts",
    "main_records",
    "table_T02",
    "table2_summary",
    "table_T10",
    "table_T11",
    "T11_READINGS",
    "degradation_table",
    "finding1",
    "finding1_band",
    "finding2_lift",
    "finding3_best_judge",
    "band_four_of_five",
    "slope_ratios",
    "REFERENCE_KINDS",
    "table_T02_references",
    "degradation_ci",
]

T02_KEYS: list[str] = ["generator", "judge", "difficulty", "condition"]


def _generators(n_generators: int) -> list[str]:
    """Return the 5 generators, or the 4 open-weight ones for n_generators=4."""
    if n_generators not in (4, 5):
        raise ValueError("n_generators must be 4 or 5")
    return list(schema.GENERATORS) if n_generators == 5 else schema.OPEN_WEIGHT_GENERATORS


# ---------------------------------------------------------------------------------------------
# Table 2 and Table 10
# ---------------------------------------------------------------------------------------------
def main_verdicts(
    bench, judges: Sequence[str] = tuple(schema.JUDGES), columns: Sequence[str] | None = None
) -> pd.DataFrame:
    """Return the verdict rows of the given released judges under with_gt / without_gt (only
    ``columns`` of them, those present, when given)."""
    v = bench.verdicts
    keep = v["judge"].isin(list(judges)) & v["condition"].isin(schema.MAIN_CONDITIONS)
    if columns is None:
        return v[keep]
    return v.loc[keep, [c for c in v.columns if c in set(columns)]]


# The columns a record frame is computed from (stats.record_alignment), besides the match inputs.
_RECORD_COLUMNS = (*stats.RECORD_KEYS, *stats.RECORD_EXTRAS, "metric")


def main_records(
    bench, judges: Sequence[str] = tuple(schema.JUDGES), missing: stats.Missing = stats.PAPER_MISSING
) -> pd.DataFrame:
    """Return the record frame (`stats.record_alignment`) of `main_verdicts(bench, judges)` under `missing`.

    A new frame on every call (no memo: a caller may change it); to build Table 2 and Table 10 on one
    record frame, pass it to both as ``records=``."""
    match = ["match"] if "match" in bench.verdicts.columns else ["p", "llm_score"]
    v = main_verdicts(bench, judges, columns=[*_RECORD_COLUMNS, *match])
    return stats.record_alignment(v, missing=missing)


def table_T02(bench, missing: stats.Missing = stats.PAPER_MISSING, records: pd.DataFrame | None = None) -> pd.DataFrame:
    """Return Table 2 long: generator, judge, difficulty, condition, align (%), n (records); ``records``
    is `main_records(bench, missing=missing)` when the caller has it (shared with table_T10)."""
    cells = stats.align(main_records(bench, missing=missing) if records is None else records, by=T02_KEYS)
    return cells.astype({c: str for c in T02_KEYS})


def table2_summary(bench, missing: stats.Missing = stats.PAPER_MISSING) -> tuple[pd.DataFrame, str]:
    """Return (Table 2's judge x (condition, difficulty) means over its generators, rounded to 0.1, the
    missing-verdict rule's name): the main command's summary, on the committed Table 2's rule."""
    cells = table_T02(bench, missing=missing)
    wide = (
        cells.groupby(["judge", "condition", "difficulty"], observed=True)["align"]
        .mean()
        .unstack(["condition", "difficulty"])
    )
    order = [j for j in schema.JUDGES if j in wide.index]
    cols = [(c, d) for c in schema.MAIN_CONDITIONS for d in schema.DIFFICULTIES if (c, d) in wide.columns]
    wide = wide.reindex(index=order, columns=pd.MultiIndex.from_tuples(cols, names=["condition", "difficulty"]))
    wide.index = pd.Index([schema.display(j) for j in wide.index], name="judge")
    return wide.round(1), stats.rule_name(missing)


def table_T10(
    bench,
    n_bootstrap: int = 2000,
    seed: stats.SeedLike = 0,
    missing: stats.Missing = stats.PAPER_MISSING,
    records: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Return bootstrap 95% CIs for every Table 2 cell: keys, mean, lo, hi, half_width (pp), n.

    Records are resampled with replacement within each cell, stratified by dag_type (topology
    counts kept in every resample); the statistic is the cell's mean record alignment x 100.
    ``records``: `main_records(bench, missing=missing)` when the caller has it (shared with table_T02).
    """
    recs = main_records(bench, schema.JUDGES, missing) if records is None else records
    out = stats.bootstrap_cells(
        recs, by=T02_KEYS, value="mu", strata="dag_type", n_resamples=n_bootstrap, seed=seed, scale=100.0
    )
    for c in T02_KEYS:
        out[c] = out[c].astype(str)
    out["half_width"] = (out["hi"] - out["lo"]) / 2.0
    return out


# ---------------------------------------------------------------------------------------------
# Reference judges beside Table 2 (always-1.0 = p-bar, always-0.5, uniform, oracle, static)
# ---------------------------------------------------------------------------------------------
REFERENCE_KINDS: tuple[str, ...] = ("always_1", "always_0.5", "uniform", "uniform_expected", "oracle")


def table_T02_references(cells: pd.DataFrame, refs: pd.DataFrame) -> pd.DataFrame:
    """Return, per generator, the six judges' mean / best / worst and each reference judge, wide like Table 2.

    Rows (generator, row), columns (difficulty, condition), alignment in %. ``cells`` is
    table_T02's long frame, ``refs`` the reference judges' cells in the same layout (notebook 03). The rows "six judges: ..." summarise the
    six main judges (Prometheus-2 left out); the "ref: ..." rows are the reference judges.
    """
    six = cells[cells["judge"].isin(schema.MAIN_JUDGES)]
    keys = ["generator", "difficulty", "condition"]
    g = six.groupby(keys)["align"]
    summ = pd.concat(
        [g.mean().rename("six judges: mean"), g.max().rename("six judges: best"), g.min().rename("six judges: worst")],
        axis=1,
    ).reset_index()
    summ = summ.melt(id_vars=keys, var_name="row", value_name="align")
    long = pd.concat([summ, refs.rename(columns={"judge": "row"})[keys + ["row", "align"]]], ignore_index=True)
    rows_order = list(
        dict.fromkeys(
            list(summ["row"])
            + [
                stats.REFERENCE_JUDGES[k]
                for k in stats.REFERENCE_JUDGES
                if stats.REFERENCE_JUDGES[k] in set(refs["judge"])
            ]
        )
    )
    wide = long.pivot_table(
        index=["generator", "row"], columns=["difficulty", "condition"], values="align", aggfunc="first"
    )
    gens = [x for x in schema.GENERATORS if x in set(long["generator"])]
    idx = pd.MultiIndex.from_product([gens, rows_order], names=["generator", "row"])
    cols = pd.MultiIndex.from_product([schema.DIFFICULTIES, schema.MAIN_CONDITIONS], names=["difficulty", "condition"])
    return wide.reindex(index=idx, columns=cols)


def degradation_ci(
    bench,
    n_bootstrap: int = 2000,
    seed: stats.SeedLike = 0,
    n_generators: int = 5,
    missing: stats.Missing = stats.PAPER_MISSING,
) -> pd.DataFrame:
    """Return bootstrap 95% CIs of Figure 8's points: generator ('all' too), condition, difficulty, mean, lo, hi, half_width.

    The statistic is the mean over records of the six main judges' mean record alignment mu (%):
    records are resampled within each (generator, condition, difficulty), stratified by dag_type
    ('all': by generator). Where every judge has a verdict for every record this mean equals the
    figure's point; otherwise it differs by the few records a judge lacks, so the figure draws the
    half-width around its own point.
    """
    v = main_verdicts(bench, schema.MAIN_JUDGES)
    v = v[v["generator"].isin(_generators(n_generators))]
    rec = stats.record_alignment(v, missing=missing)
    for c in ("id", "generator", "difficulty", "condition", "dag_type"):
        if c in rec:
            rec[c] = rec[c].astype(str)
    keys = ["id", "generator", "difficulty", "condition"]
    per = rec.groupby(keys, observed=True).agg(mu=("mu", "mean"), dag_type=("dag_type", "first")).reset_index()
    one = stats.bootstrap_cells(
        per,
        by=["generator", "condition", "difficulty"],
        value="mu",
        strata="dag_type",
        n_resamples=n_bootstrap,
        seed=seed,
        scale=100.0,
    )
    allg = stats.bootstrap_cells(
        per,
        by=["condition", "difficulty"],
        value="mu",
        strata="generator",
        n_resamples=n_bootstrap,
        seed=seed,
        scale=100.0,
    )
    allg.insert(0, "generator", "all")
    out = pd.concat([allg, one], ignore_index=True)
    out["half_width"] = (out["hi"] - out["lo"]) / 2.0
    return out


# ---------------------------------------------------------------------------------------------
# Table 11 and Figure 8 data
# ---------------------------------------------------------------------------------------------
def table_T11(bench, weighting: str = "records") -> pd.DataFrame:
    """Return generator programmatic accuracy p-bar (%) per generator x difficulty (wide).

    p-bar is the record mean of the four-metric mean p_mean; ``weighting="topology"`` first
    averages within each dag_type and then takes the unweighted mean over topologies.
    """
    gen = bench.generations
    keys = ["generator", "difficulty"] + (["dag_type"] if weighting == "topology" else [])
    m = gen.groupby(keys, observed=True)["p_mean"].mean()
    if weighting == "topology":
        m = m.groupby(level=["generator", "difficulty"], observed=True).mean()
    wide = (100.0 * m).unstack("difficulty")
    wide.columns = wide.columns.astype(str)
    wide = wide.reindex(index=[g for g in schema.GENERATORS if g in wide.index], columns=schema.DIFFICULTIES)
    wide.index = wide.index.astype(str)
    wide.index.name = "generator"
    return wide.reset_index()


T11_READINGS: tuple[str, ...] = ("records", "topology")  # App. F does not say how p-bar weighs records


def degradation_table(
    cells: pd.DataFrame, judges: Sequence[str] = tuple(schema.MAIN_JUDGES), n_generators: int = 5
) -> pd.DataFrame:
    """Return mean alignment (%) by generator ('all' = mean over generators) x condition x difficulty."""
    sub = cells[cells["judge"].isin(list(judges)) & cells["generator"].isin(_generators(n_generators))]
    per = sub.groupby(["generator", "condition", "difficulty"])["align"].mean().reset_index()
    tot = sub.groupby(["condition", "difficulty"])["align"].mean().reset_index()
    tot.insert(0, "generator", "all")
    out = pd.concat([tot, per], ignore_index=True)
    wide = out.pivot_table(index=["generator", "condition"], columns="difficulty", values="align", sort=False)
    wide = wide.reindex(columns=schema.DIFFICULTIES)
    wide.columns.name = None
    order = ["all"] + _generators(n_generators)
    wide = wide.reset_index()
    wide["_g"] = wide["generator"].map({g: i for i, g in enumerate(order)})
    wide["_c"] = wide["condition"].map({c: i for i, c in enumerate(schema.MAIN_CONDITIONS)})
    wide = wide.sort_values(["_g", "_c"]).drop(columns=["_g", "_c"]).reset_index(drop=True)
    wide["hard_minus_easy"] = wide["hard"] - wide["easy"]
    return wide


# ---------------------------------------------------------------------------------------------
# Findings 1-3
# ---------------------------------------------------------------------------------------------
def _six(cells: pd.DataFrame, n_generators: int) -> pd.DataFrame:
    """Return the six main judges' cells of the chosen generators."""
    return cells[cells["judge"].isin(schema.MAIN_JUDGES) & cells["generator"].isin(_generators(n_generators))]


def finding1(cells: pd.DataFrame, n_generators: int = 5) -> dict[str, Any]:
    """Return Finding 1 numbers: monotone (gen, judge) pairs (both conditions), slopes, ratio."""
    six = _six(cells, n_generators)
    mono = stats.monotone_pairs(six, keys=("generator", "judge", "condition"))
    both = mono.groupby(["generator", "judge"])["monotone"].all()
    slopes = stats.degradation_slopes(six, by="generator")
    allrow = slopes[slopes["generator"] == "all"].iloc[0]
    mh = six[six["condition"] == "with_gt"].groupby("difficulty")["align"].mean()
    return {
        "monotone_pairs": int(both.sum()),
        "n_pairs": int(both.size),
        "monotone_by_condition": mono.groupby("condition")["monotone"].sum().to_dict(),
        "slopes": slopes,
        "slope_ratio": float(allrow["ratio"]),
        "medium_hard_drop_gt": float(mh["medium"] - mh["hard"]),
    }


def finding1_band(cells: pd.DataFrame, lo: float = 77.0, hi: float = 82.0, n_generators: int = 5) -> pd.DataFrame:
    """Return per generator the hard without-GT min/max/mean over six judges and band flags."""
    sub = _six(cells, n_generators)
    sub = sub[(sub["difficulty"] == "hard") & (sub["condition"] == "without_gt")]
    g = sub.groupby("generator")["align"].agg(["min", "max", "mean"])
    g = g.reindex([x for x in _generators(n_generators) if x in g.index])
    g["all_six_in_band"] = (g["min"] >= lo) & (g["max"] <= hi)
    g["mean_in_band"] = g["mean"].between(lo, hi)
    g.index.name = "generator"
    return g.reset_index()


def finding2_lift(
    bench, cells: pd.DataFrame, n_generators: int = 5, n_bootstrap: int = 2000, seed: stats.SeedLike = 0
) -> pd.DataFrame:
    """Return GT lift (pp) per six-judge judge as anchoring.paired_lift gives it: the paired lift with its
    paired-bootstrap 95% CI and sign, and the paper's unpaired Eq. 5b (`lift_unpaired`) beside it.

    `cells` only names the generator set's judges; the lifts are computed from the verdicts on every
    call (no memo: the caller owns the frame)."""
    gens = _generators(n_generators)
    v = main_verdicts(bench, schema.MAIN_JUDGES)
    return _finding2_order(paired_lift(v[v["generator"].isin(gens)], n_bootstrap, seed), cells)


def _finding2_order(out: pd.DataFrame, cells: pd.DataFrame) -> pd.DataFrame:
    """Return the lifts of the judges `cells` names, in the paper's judge order."""
    out = out[out["judge"].isin(set(cells["judge"].astype(str)))]
    out["_o"] = out["judge"].map({j: i for i, j in enumerate(schema.JUDGES)})
    return out.sort_values("_o").drop(columns="_o").reset_index(drop=True)


def finding3_best_judge(cells: pd.DataFrame, n_generators: int = 5) -> pd.DataFrame:
    """Return per (generator, difficulty, condition) the best six-judge judge(s), ties joined by '='."""
    six = _six(cells, n_generators).copy()
    six["r"] = six["align"].round(1)  # ties as printed in the paper (one decimal)
    best = six[six["r"] == six.groupby(["generator", "difficulty", "condition"])["r"].transform("max")]
    best = best.assign(name=best["judge"].map(schema.display))
    out = (
        best.groupby(["generator", "difficulty", "condition"])
        .agg(
            best=("name", " = ".join),
            align=("r", "first"),
            n_tied=("name", "size"),
            qwq=("judge", lambda s: "judge_qwq_32b" in set(s)),
        )
        .reset_index()
    )
    out["_g"] = out["generator"].map({g: i for i, g in enumerate(schema.GENERATORS)})
    out["_d"] = out["difficulty"].map({d: i for i, d in enumerate(schema.DIFFICULTIES)})
    return out.sort_values(["condition", "_g", "_d"]).drop(columns=["_g", "_d"]).reset_index(drop=True)


def band_four_of_five(cells: pd.DataFrame, lo: float = 77.0, hi: float = 82.0) -> tuple[pd.Series, str]:
    """Return (the hard without-GT cells of the six judges on the four generators nearest the band,
    the generator left out): Finding 1's "across four of five generators", read literally.

    A generator's distance is how far its farthest cell lies outside [lo, hi] (0 when all are in);
    the one farthest out is left out (ties: the later in paper order)."""
    sub = _six(cells, 5)
    sub = sub[(sub["difficulty"] == "hard") & (sub["condition"] == "without_gt")]
    dist = sub.assign(d=np.maximum(lo - sub["align"], sub["align"] - hi).clip(lower=0)).groupby("generator")["d"].max()
    order = [g for g in schema.GENERATORS if g in dist.index]
    out = max(order, key=lambda g: (dist[g], order.index(g)))
    return sub.loc[sub["generator"] != out, "align"], out


def slope_ratios(cells: pd.DataFrame) -> pd.Series:
    """Return the per-generator slope ratio (easy-hard drop without GT / with GT, six judges)."""
    s = finding1(cells, 5)["slopes"]
    s = s[s["generator"] != "all"]
    return s.set_index("generator")["ratio"].astype(float)
