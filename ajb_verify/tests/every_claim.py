"""Every claim of data/paper/claims.csv checked on one loaded Bench, in one call (a test helper).

The notebooks check each claim where its table is made; `claim_verdicts` runs the same check
functions section by section (datasets, programmatic judge, main results, RQ1-RQ6, anchoring,
validation, self-preference, decision guide, derivation gap) plus the X1 audit of the paper's own
tables, so a test (or a reader) can see that on a given source every claim gets yes / no /
indistinguishable, or n/a with a note naming the missing data (`verify.MISSING_DATA`).
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

import pandas as pd

import ajb_verify as verify
from ajb_utils import annotation, derivation, paper, schema, scoring
from ajb_utils.tables import ablations, validation
from ajb_utils.tables.breakdown import per_metric_long, topology_long
from ajb_utils.tables.main_results import table_T02
from ajb_verify.agreement import f10_checks, jury_checks, t29_checks
from ajb_verify.audit import (
    audit_cross_tables,
    audit_table2,
    audit_text_table,
    guide_weighting_checks,
    scale_checks,
    t23_checks,
    takeaway_checks,
)
from ajb_verify.breakdown import breakdown_checks, weighting_checks
from ajb_verify.dataset import dataset_checks
from ajb_verify.derivation import checks_X3
from ajb_verify.main_results import ci_checks, findings_checks, worked_example_AppI
from notebook_cells import run_cells  # the notebooks' own cells (tests/notebook_cells.py)

__all__ = ["claim_verdicts", "unchecked_claims"]


def _notebook(nn: str, markers: list[str], bench, **names) -> dict:
    """Return the names notebook `nn`'s cells (`markers` pick them) define on `bench` (and `names`), with
    the notebook's default parameters; the files they write go to a throwaway folder."""
    with tempfile.TemporaryDirectory() as out:
        names = dict(bench=bench, paper=paper, scoring=scoring, missing="authors", out=Path(out)) | names
        with contextlib.redirect_stdout(io.StringIO()):  # the cells' printed tables
            return run_cells(nn, markers, **names)


def _dataset_tables(bench) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Return Tables 7, 8 and 9 computed by notebook 01's cells."""
    ns = _notebook("01", ["t07 = pd.DataFrame(", "t08 = pd.DataFrame(", "t09 = (bench.generations"], bench)
    return ns["t07"], ns["t08"], ns["t09"]


def _t15_verdicts(bench) -> list[verify.Verdict]:
    """Return the T15 / Eq. 2 upper-bound verdicts from notebook 02's cells."""
    ns = _notebook("02", ["calls = scoring.call_param_scores(", "t15 = pd.DataFrame("], bench)
    s15, t15 = ns["s15"], ns["t15"]
    return [
        verify.verdict("T15.extra_key_share", s15["extra-key-only share of calls (%)"]),
        verify.verdict("T15.p_param_current", s15["mean p_param, current rule (%)"]),
        verify.verdict("T15.p_param_upper", s15["mean p_param, upper bound (%)"]),
        verify.verdict("CW.eq2_upper_bound_shift", t15["shift"].abs().max()),
        verify.verdict("T15.rank_changes", (t15["rank_current"] != t15["rank_upper_bound"]).tolist()),
    ]


def _ablation_verdicts(bench) -> list[pd.DataFrame]:
    """Return the RQ3-RQ6 checks tables (runs, or n/a where the data has none)."""
    t04, t25, t27 = (
        ablations.table_T04(bench),
        ablations.temperature_table(bench, "T25"),
        ablations.temperature_table(bench, "T27"),
    )
    t05 = ablations.table_T05(ablations.table_T26(bench))
    f05, t31 = ablations.format_table(bench, "F05"), ablations.format_table(bench, "T31")
    return [
        verify.rq3_checks(bench),
        verify.c2_checks(t04),
        verify.temperature_checks(t25, t27),
        verify.thinking_checks(t05),
        verify.format_checks(f05, t31),
        verify.checks_table(verify.lever_checks(t04, t25, t27, t05, f05, t31) + verify.repeat_checks(bench)),
    ]


def _anchoring_verdicts(bench) -> list[verify.Verdict]:
    """Return the T01 (C3 runs) and App. H verdicts from notebook 10's cells."""
    markers = [
        "runs_c3 = bench.judges[",
        "vc3 = bench.verdicts[",
        "d = (t01 if len(t01)",
        'g = v.groupby(["judge", "generator"',
    ]
    ns = _notebook("10", markers, bench, data_source=bench.label, ablations=ablations, verify=verify)
    out = (
        verify.t01_checks(ns["split"])
        if len(ns["t01"])
        else [
            verify.not_reproduced(c, "no C3 (corrupted-GT) runs")
            for c in ("T01.gemini_cgt_vs_gt", "T01.qwq_cgt_vs_nogt")
        ]
    )
    return out + verify.apph_checks(ns["counts"], full_data=not bench.synthetic)


def _validation_verdicts(bench, data_source: str) -> list[verify.Verdict]:
    """Return the human-study (T12, T13) and rewrite-study (T20, T22) verdicts as notebooks 11-12 make them."""
    ann, _ = validation.load_annotations(data_source, "human")
    per_metric, per_topology = annotation.agreement_tables(ann) if len(ann) else (pd.DataFrame(), pd.DataFrame())
    ns = _notebook(
        "11",
        ["t12 = pd.DataFrame(", "t13 = pd.DataFrame("],
        bench,
        ann=ann,
        verify=verify,
        per_metric=per_metric,
        per_topology=per_topology,
    )
    t13 = ns["t13"]
    out = verify.t12_checks(ns["t12"]) + verify.t13_checks(t13)
    out += verify.param_error_mode_checks(bench, ann)
    rw, _ = validation.load_annotations(data_source, "rewrite")
    ns = _notebook("12", ["def unanimity(", "t22 = unanimity(rw"], bench, rw=rw, validation=validation, verify=verify)
    t20, t22 = ns["t20"], ns["t22"]
    u = t20.set_index("criterion")["unanimity"].to_dict() if len(t20) else {}
    out += [
        verify.verdict("P.unanimity_med_hard", u.get("hard_harder_than_medium", float("nan"))),
        verify.verdict("P.unanimity_easy_med", u.get("medium_harder_than_easy", float("nan"))),
    ]
    if not len(t20):
        out = [v for v in out if v.claim_id not in ("P.unanimity_med_hard", "P.unanimity_easy_med")]
        out += [
            verify.not_reproduced(c, "no rewrite meta-judge verdicts (App. N study)")
            for c in ("P.unanimity_med_hard", "P.unanimity_easy_med")
        ]
    out.append(
        verify.verdict("T22.all_positive", (t22["delta_2judge_minus_3judge"] > 0).tolist())
        if len(t22)
        else verify.not_reproduced("T22.all_positive", "no rewrite meta-judge verdicts (App. N study)")
    )
    return out, t13


def claim_verdicts(bench, data_source: str | None = None, n_bootstrap: int = 200, seed: int = 0) -> pd.DataFrame:
    """Return the checks table of every claim on `bench` (verify.CHECK_COLUMNS + ``checked on``:
    '' for verdicts on the data, the paper table for the X1 audit), in claims.csv order per section.

    `data_source` locates the annotation studies (default: the bench's label); `n_bootstrap` and
    `seed` drive the CIs of the sign claims.
    """
    source = data_source if data_source is not None else bench.label
    on_data: list[verify.Verdict] = []
    on_data += dataset_checks(bench, *_dataset_tables(bench))
    mu = worked_example_AppI()["match"].iloc[-1]
    on_data.append(verify.verdict("P.worked_example_alignment", mu))
    on_data += _t15_verdicts(bench)
    cells = table_T02(bench)
    frames = [findings_checks(bench, cells, n_bootstrap=n_bootstrap, seed=seed)]
    on_data += ci_checks(_notebook("03", ["mu_records = "], bench, n_bootstrap=n_bootstrap, seed=seed)["ci"])
    on_data += breakdown_checks(per_metric_long(bench), topology_long(bench, "with_gt"))
    on_data += weighting_checks(bench)
    ns = _notebook("05", ["f10 = pd.DataFrame(rows)", "cells29 = stats.align(v29, by=keys29"], bench)
    on_data += jury_checks(bench) + t29_checks(ns["t29"]) + f10_checks(ns["f10"])
    frames += _ablation_verdicts(bench)
    on_data += _anchoring_verdicts(bench)
    val, _ = _validation_verdicts(bench, source)
    on_data += val + t23_checks(bench)
    t2 = cells[cells["judge"].isin(schema.MAIN_JUDGES)].rename(columns={"align": "value"}).reset_index(drop=True)
    on_data += takeaway_checks(t2, paper.population("T06").generators)  # (4) and (5): t29_checks, t13_checks
    on_data += guide_weighting_checks(t2) + scale_checks(t2)
    on_data += checks_X3(
        _notebook("16", ["census = derivation.derivation_census("], bench, derivation=derivation)["x3"]
    )
    data = pd.concat([verify.checks_table(on_data)] + frames, ignore_index=True).assign(**{"checked on": ""})
    audit = pd.concat(
        [audit_table2(paper.reported("T02"), paper.reported("T06")), audit_cross_tables(), audit_text_table()],
        ignore_index=True,
    )
    return pd.concat([data, audit], ignore_index=True)


def unchecked_claims(checks: pd.DataFrame) -> list[str]:
    """Return the ids of claims.csv that a checks table does not hold (in claims.csv order)."""
    have = set(checks["claim_id"])
    return [c for c in verify.claims()["claim_id"] if c not in have]
