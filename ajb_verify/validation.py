"""Claims and comparisons of the paper's validation section (the tables: notebooks 11 and 12's cells)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ajb_verify import engine

__all__ = [
    "t13_checks",
    "t12_checks",
    "param_error_mode_checks",
]


def t13_checks(t13: pd.DataFrame) -> list[engine.Verdict]:
    """Return T13's verdicts (sign of the mean delta, Spearman rho, GPT-OSS-120B first on both orderings)."""
    if t13.empty:
        return [
            engine.not_reproduced(c, "no human annotations (App. G study)")
            for c in ("T13.mean_delta_sign", "T13.spearman", "T06.oss120b_tops_human", "T06.oss120b_tops_programmatic")
        ]
    s = t13.set_index("judge")
    mean_delta = float(t13["delta"].mean())
    return [
        engine.verdict("T13.mean_delta_sign", mean_delta, shown=f"{mean_delta:+.2f}"),
        engine.verdict("T13.spearman", float(t13.attrs.get("rho", np.nan))),
        engine.verdict("T06.oss120b_tops_human", s["vs_human"]),
        engine.verdict("T06.oss120b_tops_programmatic", s["vs_programmatic"]),
    ]


def t12_checks(t12: pd.DataFrame) -> list[engine.Verdict]:
    """Return the overall-agreement (92.7 %) and parameter-structure agreement (82.5 %) verdicts."""
    get = lambda m, v: t12.loc[(t12["stat"] == "agreement") & (t12[m] == v), "value"]  # noqa: E731
    overall, param = get("variant", "overall"), get("metric", "parameter_structure")
    return [
        engine.verdict("P.human_agreement", overall.head(1).tolist()),
        engine.verdict("T12.param_agreement", param.head(1).tolist()),
    ]


def schema_extra_keys(generated: list[dict], expected: list[dict], tools: list[dict]) -> bool:
    """Return True when a generated call carries an argument key that its tool's schema allows but
    the GT call of that tool (the last one, as Eq. 2's A*) lacks: App. G's schema-vs-GT mismatch."""
    props = {t.get("name"): set((t.get("properties") or {}).keys()) for t in tools or []}
    gt = {c.get("name"): set((c.get("arguments") or {}).keys()) for c in expected or []}
    for c in generated or []:
        name, keys = c.get("name"), set((c.get("arguments") or {}).keys())
        if name in gt and (keys - gt[name]) & props.get(name, set()):
            return True
    return False


def param_error_mode_checks(bench, ann: pd.DataFrame) -> list[engine.Verdict]:
    """Return App. G's error-mode share (T12.param_error_modes): of the parameter-structure records
    where the annotator disagrees with the scorer, those whose generation adds schema-valid keys
    absent from the GT trace."""
    if ann.empty:
        return [engine.not_reproduced("T12.param_error_modes", "no human annotations (App. G study)")]
    dis = ann[(ann["metric"] == "parameter_structure") & ~ann["human_agrees"].astype(bool)]
    if dis.empty:
        return [engine.verdict("T12.param_error_modes", (0, 0))]
    gen = bench.generations.assign(
        id=bench.generations["id"].astype(str),
        generator=bench.generations["generator"].astype(str),
        difficulty=bench.generations["difficulty"].astype(str),
    )
    gen = gen.set_index(["id", "generator", "difficulty"])["generated_calls"]
    rec = bench.records.assign(id=bench.records["id"].astype(str)).set_index("id")
    hits = []
    for r in dis.itertuples():
        key = (str(r.id), str(r.generator), str(r.difficulty))
        if key in gen.index and str(r.id) in rec.index:
            hits.append(schema_extra_keys(gen[key], rec.at[str(r.id), "expected_calls"], rec.at[str(r.id), "tools"]))
    if not hits:
        return [engine.not_reproduced("T12.param_error_modes", "the annotated generations are not in this data")]
    return [engine.verdict("T12.param_error_modes", hits, note=f"{len(dis)} disagreements annotated")]
