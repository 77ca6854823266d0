"""Claims and comparisons of the paper's ablations section (the tables: `ajb_utils.tables.ablations`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ajb_utils import paper, schema, stats
from ajb_utils.tables.ablations import (
    STUDIES,
    _cells,
    _main_judges,
    study_runs,
)
from ajb_verify import display, engine

__all__ = [
    "rq3_checks",
    "compare_T04",
    "c2_checks",
    "compare_T25",
    "temperature_checks",
    "compare_T26",
    "thinking_checks",
    "compare_F05",
    "format_checks",
    "lever_checks",
    "repeat_checks",
    "hard_band",
    "ensemble_vs_best",
]


NO_RUNS_NOTE: str = "no runs on this data: the paper's values are shown, nothing is reproduced"
_EFFECT: dict[str, str] = {"c2": "delta", "temperature": "max_spread", "thinking": "max_abs_delta", "format": "delta"}


def _nothing(t: pd.DataFrame, column: str = "delta") -> bool:
    """Return True when an ablation table reproduced nothing (no rows, or `column` all NaN: no runs)."""
    return column not in t or not t[column].notna().any()


def hard_band(bench, lo: float = 77.0, hi: float = 82.0) -> pd.DataFrame:
    """Return per generator the hard without-GT alignment band over the six judges.

    Columns: generator, min, max, mean (over judges of their cell alignment), n_judges,
    n_records (records per judge cell, max), all_in_band (every judge in [lo, hi]).
    """
    v = bench.verdicts
    v = v[(v["difficulty"] == "hard") & (v["condition"] == "without_gt") & v["judge"].isin(_main_judges(bench))]
    cells = _cells(v, ["generator", "judge"])
    g = cells.groupby("generator", sort=False)
    out = pd.DataFrame(
        {
            "min": g["align"].min(),
            "max": g["align"].max(),
            "mean": g["align"].mean(),
            "n_judges": g["judge"].nunique(),
            "n_records": g["n"].max(),
        }
    )
    out["all_in_band"] = (out["min"] >= lo) & (out["max"] <= hi)
    order = [x for x in schema.GENERATORS if x in out.index]
    return out.loc[order].rename_axis("generator").reset_index()


def ensemble_vs_best(bench, difficulty: str = "hard", condition: str = "without_gt") -> pd.DataFrame:
    """Return the six-judge soft jury vs each single judge over its declared population
    (`paper.population("C-J")`: five generators), the records of the generators' cells pooled.

    One row per judge plus "soft_jury (6 judges)": align (%, records pooled, as the paper's 79.8 for
    GPT-5.4), n_cells, n_records (summed), rank; the jury keeps keys judged by all six.
    """
    judges = _main_judges(bench)
    v = bench.verdicts
    gens = list(paper.population("C-J").generators)
    v = v[(v["difficulty"] == difficulty) & (v["condition"] == condition) & v["judge"].isin(judges)]
    v = v[v["generator"].isin(gens)]
    jury = stats.soft_jury(v, judges, name="soft_jury (6 judges)")
    cells = pd.concat([_cells(v, ["judge", "generator"]), _cells(jury, ["judge", "generator"])])
    g = cells.assign(_w=cells["align"] * cells["n"]).groupby("judge", sort=False)
    out = pd.DataFrame({"align": g["_w"].sum() / g["n"].sum(), "n_cells": g.size(), "n_records": g["n"].sum()})
    out = out.loc[judges + ["soft_jury (6 judges)"]].rename_axis("judge").reset_index()
    out["display"] = out["judge"].map(schema.display)
    out["rank"] = out["align"].rank(ascending=False, method="min").astype(int)
    return out[["judge", "display", "align", "n_cells", "n_records", "rank"]]


def rq3_checks(bench) -> pd.DataFrame:
    """Return the RQ3 verdicts (band per generator, ensemble vs best single judge) from the claim engine."""
    band = hard_band(bench)
    ens = ensemble_vs_best(bench)
    jury = float(ens["align"].iloc[-1])
    best = ens.iloc[:-1].sort_values("align", ascending=False).iloc[0]
    n_in = int(band["all_in_band"].sum())
    gap = abs(jury - float(best["align"]))
    return display.checks_table(
        [
            engine.verdict("CF1.band_generators", n_in, population=len(band), shown=f"{n_in}/{len(band)}"),
            engine.verdict("CJ.ensemble_hard_nogt_v1", jury, shown=f"{jury:.2f}"),
            engine.verdict("CJ.ensemble_hard_nogt_draft", jury, shown=f"{jury:.2f}"),
            engine.verdict(
                "CJ.best_single_hard_nogt", float(best["align"]), shown=f"{best['align']:.2f} ({best['display']})"
            ),
            engine.verdict("CJ.ensemble_gap_to_best", gap, shown=f"{gap:.2f}"),
        ]
    )


def compare_T04(t04: pd.DataFrame) -> pd.DataFrame:
    """Return T04 beside the paper's tab:c2-ceiling (generator, column, reproduced, reported, diff)."""
    cols = {
        "default_1_0": ("alignment", "without_gt"),
        "default_0_5": ("alignment", "without_gt_05"),
        "delta": ("delta_vs_without_gt", "without_gt_05"),
    }
    long = t04.melt(id_vars="generator", value_vars=list(cols), var_name="column")
    long["stat"] = long["column"].map(lambda c: cols[c][0])
    long["condition"] = long["column"].map(lambda c: cols[c][1])
    cmp = engine.compare(long, paper.reported("T04"), on=["generator", "condition", "stat"])
    return cmp.round(2)


def c2_checks(t04: pd.DataFrame) -> pd.DataFrame:
    """Return the C2 verdicts: delta <= +1.0 pp for the three strongest generators, 4.1-5.6 for the two weakest."""
    d = t04.set_index("generator")["delta"]
    strong = d.reindex(["llama_3_3_70b_instruct", "qwen3_32b", "gpt5_4"])
    weak = d.reindex(["llama_3_1_8b_instruct", "smollm3_3b"])
    fmt = lambda s: ", ".join(f"{schema.display(k)} {v:+.2f}" for k, v in s.items())  # noqa: E731
    if _nothing(t04):  # no C2 runs
        return display.checks_table([engine.not_reproduced(c, NO_RUNS_NOTE) for c in ("P.c2_strong", "P.c2_weak")])
    return display.checks_table(
        [engine.verdict("P.c2_strong", strong, shown=fmt(strong)), engine.verdict("P.c2_weak", weak, shown=fmt(weak))]
    )


def compare_T25(t25: pd.DataFrame) -> pd.DataFrame:
    """Return T25 (long: difficulty, condition, variant) beside the paper's tab:app-abl-temp."""
    value_cols = [c for c in t25.columns if c.startswith("T=") or c == "max_spread"]
    long = t25.melt(id_vars=["difficulty", "condition"], value_vars=value_cols, var_name="variant")
    rep = paper.reported("T25")
    rep = rep[(rep["judge"] == "judge_qwen3_32b") & rep["difficulty"].notna()]
    return engine.compare(long, rep, on=["difficulty", "condition", "variant"]).round(2)


def temperature_checks(t25: pd.DataFrame, t27: pd.DataFrame) -> pd.DataFrame:
    """Return the RQ4 verdicts (max spread <= 0.6 pp and <= 0.25 pp); n/a without runs."""
    out = []
    for claim_id, t in (("P.temperature_spread", t25), ("P.temperature_spread_2", t27)):
        if claim_id.endswith("_2") and "condition" in t:  # the paper's T27 states the with-GT spread
            t = t[t["condition"].isin(["with_gt", "all"])]
        if _nothing(t, "max_spread"):
            out.append(engine.not_reproduced(claim_id, NO_RUNS_NOTE))
            continue
        spread = float(t["max_spread"].max())
        out.append(engine.verdict(claim_id, spread, shown=f"{spread:.2f}"))
    return display.checks_table(out)


def compare_T26(t26: pd.DataFrame) -> pd.DataFrame:
    """Return T26 (long) beside the paper's values (alignment on/off and the printed delta)."""
    keys = ["generator", "difficulty", "condition"]
    long = t26.melt(id_vars=keys, value_vars=["thinking_on", "thinking_off", "delta"], var_name="variant")
    long["variant"] = long["variant"].replace({"delta": "on_minus_off"})
    rep = paper.reported("T26")
    rep = rep[rep["generator"].notna()]
    return engine.compare(long, rep, on=keys + ["variant"]).round(2)


def thinking_checks(t05: pd.DataFrame) -> pd.DataFrame:
    """Return the RQ5 verdicts (mean GT gap +0.11 pp, max |delta| 0.3 pp, 24 paired cells)."""
    if t05.empty:  # no thinking runs
        return display.checks_table(
            [engine.not_reproduced(c, NO_RUNS_NOTE) for c in ("P.cot_mean_gt", "P.cot_max", "T05.paired_cells")]
        )
    s = t05.set_index("condition")
    gt, allc = s.loc["with_gt"], s.loc["all"]
    return display.checks_table(
        [
            engine.verdict("P.cot_mean_gt", float(gt["mean_delta"]), shown=f"{gt['mean_delta']:+.3f}"),
            engine.verdict("P.cot_max", float(allc["max_abs_delta"]), shown=f"{allc['max_abs_delta']:.3f}"),
            engine.verdict("T05.paired_cells", int(allc["n_cells"]), population=24),
        ]
    )


def compare_F05(f05: pd.DataFrame, nogt: pd.DataFrame) -> pd.DataFrame:
    """Return F05 beside the draft figure: per condition x difficulty x variant, reported | reproduced | diff.

    With GT: the format run's structured (with_gt) and free-form alignments. Without GT (``nogt``:
    difficulty, structured, as notebook 09 computes it): the structured prompt is the released
    judge's ``without_gt``; the runner has no free-form without-GT prompt, so that bar is not reproduced.
    """
    long = f05.melt(id_vars="difficulty", value_vars=["structured", "freeform", "delta"], var_name="variant").assign(
        condition="with_gt"
    )
    if len(nogt):
        long = pd.concat(
            [
                long,
                pd.DataFrame(
                    {
                        "difficulty": nogt["difficulty"],
                        "variant": "structured",
                        "condition": "without_gt",
                        "value": nogt["structured"],
                    }
                ),
            ]
        )
    long["variant"] = long["variant"].replace({"delta": "structured_minus_freeform"})
    rep = paper.reported("F05").dropna(subset=["difficulty"])
    return engine.compare(long, rep, on=["condition", "difficulty", "variant"])


def format_checks(f05: pd.DataFrame, t31: pd.DataFrame) -> pd.DataFrame:
    """Return the RQ6 verdicts: F05 every with-GT difficulty in +4.8..+6.5 pp; T31 signs per difficulty."""
    if _nothing(f05):  # no format runs
        out = [engine.not_reproduced("P.format_gain", NO_RUNS_NOTE)]
    else:
        d = f05["delta"].dropna()
        out = [engine.verdict("P.format_gain", d, shown=", ".join(f"{x:+.2f}" for x in d))]
    t = t31.set_index("difficulty")
    ours = "structured" in t and t["structured"].notna().any()
    for diff in schema.DIFFICULTIES:
        if not ours:
            out.append(engine.not_reproduced(f"T31.sign_{diff}", NO_RUNS_NOTE))
            continue
        r = float(t["delta"].get(diff, np.nan))
        ci = (t.at[diff, "lo"], t.at[diff, "hi"]) if {"lo", "hi"} <= set(t.columns) and diff in t.index else None
        out.append(
            engine.verdict(f"T31.sign_{diff}", [r], shown=f"{r:+.2f}", ci=ci)
        )  # a paired CI spanning 0: indistinguishable
    return display.checks_table(out)


# ---------------------------------------------------------------------------------------------
# Across RQ3-RQ6: the largest lever (P.format_largest_lever); repeated runs (P.repeat_spread)
# ---------------------------------------------------------------------------------------------
def lever_checks(
    t04: pd.DataFrame, t25: pd.DataFrame, t27: pd.DataFrame, t05: pd.DataFrame, f05: pd.DataFrame, t31: pd.DataFrame
) -> list[engine.Verdict]:
    """Return P.format_largest_lever: the largest max |effect| (pp) of the four levers, each from
    its own study's table (C2 delta, temperature spread, thinking |on - off|, format gap)."""
    tabs = {"c2": [t04], "temperature": [t25, t27], "thinking": [t05], "format": [f05, t31]}
    missing = [k for k, ts in tabs.items() if all(_nothing(t, _EFFECT[k]) for t in ts)]
    if missing:
        return [engine.not_reproduced("P.format_largest_lever", "no runs of " + ", ".join(missing))]
    effect = pd.Series(
        {
            "c2": t04["delta"].abs().max(),
            "temperature": max(t["max_spread"].abs().max() for t in (t25, t27) if not _nothing(t, "max_spread")),
            "thinking": t05["max_abs_delta"].abs().max(),
            "format": max(t["delta"].abs().max() for t in (f05, t31) if not _nothing(t)),
        },
        dtype=float,
    )
    return [engine.verdict("P.format_largest_lever", effect)]


def repeat_checks(bench) -> list[engine.Verdict]:
    """Return P.repeat_spread: the largest alignment difference (pp) between runs of one configuration
    (same study, base model and decoding) on the cells they share; n/a without such repeats."""
    spreads = []
    for study in STUDIES:
        runs = study_runs(bench, study)
        if runs.empty:
            continue
        runs = runs.assign(dec=runs["decoding"].astype(str))
        for _, grp in runs.groupby(["key", "dec"]):
            if len(grp) < 2:
                continue
            v = bench.verdicts[bench.verdicts["judge"].isin(grp["judge"].tolist())]
            cells = _cells(v, ["judge", "generator", "difficulty", "condition"])
            wide = cells.pivot_table(
                index=["generator", "difficulty", "condition"], columns="judge", values="align"
            ).dropna()
            if len(wide):
                spreads.append(float((wide.max(axis=1) - wide.min(axis=1)).max()))
    if not spreads:
        return [engine.not_reproduced("P.repeat_spread", "no two runs of one judge configuration")]
    return [
        engine.verdict(
            "P.repeat_spread",
            max(spreads),
            shown=f"{max(spreads):.2f}",
            note=f"{len(spreads)} repeated configuration(s)",
        )
    ]
