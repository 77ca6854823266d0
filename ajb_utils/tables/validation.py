"""Tables for notebook 11 human validation (T12, T13, T14) and 12 rewrite validation (T19, T20, T22).

Annotation files (docs/DATA_FORMAT.md section 3) are read from ``<source>/annotations/`` for local
sources and from data/runs/annotations/ (the judge runner's ``rewrite`` output) -- or from a
filled annotation sheet the user gives. Without any (the hub release has none) the tables are empty
and the notebooks show the paper's reported values beside them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from ajb_utils import annotation, schema, stats
from ajb_utils.data import resolve_source
from ajb_utils.paths import RUNS_DIR

__all__ = [
    "CRITERIA",
    "load_annotations",
    "normalise_rewrite",
    "table_T12",
    "table_T13",
    "table_T20",
    "table_T22",
    "schema_extra_keys",
]

PATTERNS: dict[str, str] = {"human": "*human_annotations*.jsonl", "rewrite": "*rewrite_validation*.jsonl"}
# Appendix N criteria (paper spelling = the judge runner's answer keys), in Table 19 order.
CRITERIA: list[str] = ["medium_preserves_gt", "hard_preserves_gt", "medium_harder_than_easy", "hard_harder_than_medium"]
# Spellings: the sample's criterion names, and the runner's (pair, criterion) export.
CRITERION_ALIASES: dict[str, str] = {
    "medium_preserves": "medium_preserves_gt",
    "hard_preserves": "hard_preserves_gt",
    "medium_harder": "medium_harder_than_easy",
    "hard_harder": "hard_harder_than_medium",
}
PAIR_CRITERIA: dict[tuple[str, str], str] = {
    ("easy_medium", "preserves_gt"): "medium_preserves_gt",
    ("medium_hard", "preserves_gt"): "hard_preserves_gt",
    ("easy_medium", "strictly_harder"): "medium_harder_than_easy",
    ("medium_hard", "strictly_harder"): "hard_harder_than_medium",
}
META_JUDGES: list[str] = ["judge_claude_large", "judge_gpt_5_4", "judge_gemini_2_5_pro"]
NON_REPRODUCIBLE_META_JUDGE: str = "judge_gpt_5_4"


# ---------------------------------------------------------------------------------------------
# loading
# ---------------------------------------------------------------------------------------------
def _read_files(files: Sequence[Path]) -> pd.DataFrame:
    """Return the concatenated JSON-lines files (empty frame if none)."""
    frames = [pd.read_json(f, lines=True, dtype={"id": str}) for f in files]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def load_annotations(
    data_source: str, kind: str, sheet: str | Path | None = None, runs_dir: Path = RUNS_DIR, runs: str = "shipped"
) -> tuple[pd.DataFrame, str]:
    """Return (annotations, what they were read from) for kind "human" or "rewrite"; ("" when none: empty frame).

    A filled sheet (human study, CSV from `annotation.export_sheet`) or, with ``runs="auto"``,
    files under ``runs_dir/annotations`` are the user's; else ``<source>/annotations`` of a local
    source (the sample's, or a mirror's). ``runs="shipped"`` (the default, as for `load_bench`)
    never reads the user's runs, so a study of one's own does not change the default outputs.
    """
    if kind not in PATTERNS:
        raise ValueError(f"kind must be one of {sorted(PATTERNS)}, got {kind!r}")
    if sheet is not None and kind == "human":
        return annotation.sheet_to_long(annotation.read_sheet(sheet)), f"the sheet {Path(sheet).name}"
    if runs not in ("shipped", "auto"):
        raise ValueError(f"runs must be 'shipped' or 'auto', got {runs!r}")
    user = sorted((Path(runs_dir) / "annotations").glob(PATTERNS[kind])) if runs == "auto" else []
    src = resolve_source(data_source)
    files = user or (sorted((Path(src.location) / "annotations").glob(PATTERNS[kind])) if src.is_local else [])
    if not files:
        return pd.DataFrame(), ""
    df = _read_files(files)
    where = ("your runs: " if user else "the source: ") + ", ".join(f.name for f in files)
    return (normalise_rewrite(df) if kind == "rewrite" else df), where


def normalise_rewrite(df: pd.DataFrame) -> pd.DataFrame:
    """Return rewrite verdicts with canonical `criterion` (CRITERIA) and `meta_judge` (judge_* names)."""
    out = df.copy()
    by_pair = [PAIR_CRITERIA.get((p, c)) for p, c in zip(out.get("pair", [None] * len(out)), out["criterion"])]
    crit = out["criterion"].map(lambda c: CRITERION_ALIASES.get(c, c))
    out["criterion"] = [b or c for b, c in zip(by_pair, crit)]
    out["meta_judge"] = (
        out["meta_judge"]
        .astype(str)
        .map(lambda j: j if j.startswith("judge_") or f"judge_{j}" not in schema.JUDGES else f"judge_{j}")
    )
    out["verdict"] = out["verdict"].astype(bool)
    unknown = sorted(set(out["criterion"]) - set(CRITERIA))
    if unknown:
        raise ValueError(f"unknown rewrite criteria {unknown}; expected {CRITERIA}")
    return out


# ---------------------------------------------------------------------------------------------
# Table 12 and 13: human study (Appendix G)
# ---------------------------------------------------------------------------------------------
def table_T12(ann: pd.DataFrame) -> pd.DataFrame:
    """Return T12 long: metric | dag_type | variant ('overall'), stat (agree, disagree, agree_of_80, agreement), value."""
    if ann.empty:
        return pd.DataFrame(columns=["metric", "dag_type", "variant", "stat", "value"])
    per_metric, per_topo = annotation.agreement_tables(ann)
    m = per_metric.melt(id_vars="metric", var_name="stat", value_name="value")
    m["variant"] = m["metric"].where(m["metric"] == "overall")
    m["metric"] = m["metric"].where(m["metric"] != "overall")
    t = (
        per_topo.rename(columns={"agree": "agree_of_80"})
        .drop(columns="total")
        .melt(id_vars="dag_type", var_name="stat", value_name="value")
    )
    out = pd.concat([m, t], ignore_index=True)
    return out[["metric", "dag_type", "variant", "stat", "value"]]


def _human_reference(verdicts: pd.DataFrame, ann: pd.DataFrame) -> pd.DataFrame:
    """Return the annotated verdict rows with `match_human` = 1 - |human reference - l|."""
    a = ann.assign(id=ann["id"].astype(str), generator=ann["generator"].astype(str), metric=ann["metric"].astype(str))
    a["ref"] = np.where(a["human_agrees"].astype(bool), a["programmatic_score"], a["human_score"])
    v = verdicts.assign(**{c: verdicts[c].astype(str) for c in ("id", "generator", "metric")})
    v = v.merge(a[["id", "generator", "metric", "ref"]], on=["id", "generator", "metric"])
    v["match_human"] = 1.0 - np.abs(v["ref"].to_numpy(float) - v["llm_score"].to_numpy(float))
    return v


def table_T13(
    bench, ann: pd.DataFrame, judges: Sequence[str] | None = None, condition: str = "with_gt", difficulty: str = "hard"
) -> pd.DataFrame:
    """Return T13: per judge with-GT alignment (%) vs programmatic and vs human references, delta, ranks.

    Annotated records only (id, generator at ``difficulty``); the human reference is the human
    score where the annotator disagreed, else the programmatic score. attrs['rho']: Spearman
    of the two rankings; attrs['n_records'].
    """
    judges = list(judges) if judges is not None else schema.MAIN_JUDGES
    cols = ["judge", "vs_programmatic", "vs_human", "delta", "rank_programmatic", "rank_human", "n"]
    if ann.empty:
        out = pd.DataFrame(columns=cols)
        out.attrs.update(rho=np.nan, n_records=0)
        return out
    v = bench.verdicts
    v = v[v["judge"].isin(judges) & (v["condition"] == condition) & (v["difficulty"] == difficulty)]
    v = _human_reference(v, ann[ann["difficulty"] == difficulty])
    prog = stats.align(v, by=["judge"])
    human = stats.align(v.drop(columns="match").rename(columns={"match_human": "match"}), by=["judge"])
    out = prog.rename(columns={"align": "vs_programmatic"}).merge(
        human[["judge", "align"]].rename(columns={"align": "vs_human"}), on="judge"
    )
    out["judge"] = out["judge"].astype(str)
    out = out.set_index("judge").reindex([j for j in judges if j in set(out["judge"])])
    out["delta"] = out["vs_human"] - out["vs_programmatic"]
    out["rank_programmatic"] = out["vs_programmatic"].rank(ascending=False, method="min").astype(int)
    out["rank_human"] = out["vs_human"].rank(ascending=False, method="min").astype(int)
    out = out[["vs_programmatic", "vs_human", "delta", "rank_programmatic", "rank_human", "n"]]
    out.attrs["rho"] = stats.spearman(out["vs_programmatic"], out["vs_human"])[0] if len(out) > 2 else np.nan
    out.attrs["n_records"] = int(out["n"].max()) if len(out) else 0
    return out.reset_index()


# ---------------------------------------------------------------------------------------------
# Tables 19, 20, 22: rewrite-preservation meta-judge study (Appendix N)
# ---------------------------------------------------------------------------------------------
def table_T20(rw: pd.DataFrame, meta_judges: Sequence[str] | None = None) -> pd.DataFrame:
    """Return unanimity per criterion: all_yes, all_no, mixed (records), unanimity (%), n_judges.

    Only records judged by every listed meta-judge count (default: all meta-judges present).
    """
    if rw.empty:
        return pd.DataFrame(columns=["criterion", "all_yes", "all_no", "mixed", "n_records", "unanimity", "n_judges"])
    judges = list(meta_judges) if meta_judges is not None else sorted(rw["meta_judge"].unique())
    sub = rw[rw["meta_judge"].isin(judges)]
    g = sub.groupby(["criterion", "id"])["verdict"].agg(["sum", "size"])
    g = g[g["size"] == len(judges)]
    per = pd.DataFrame({"all_yes": g["sum"] == g["size"], "all_no": g["sum"] == 0})
    per["mixed"] = ~(per["all_yes"] | per["all_no"])
    out = per.groupby(level="criterion").sum().astype(int)
    out = out.reindex([c for c in CRITERIA if c in out.index])
    out["n_records"] = out[["all_yes", "all_no", "mixed"]].sum(axis=1)
    out["unanimity"] = 100.0 * (out["all_yes"] + out["all_no"]) / out["n_records"]
    out["n_judges"] = len(judges)
    out.index.name = "criterion"
    return out.reset_index()


def table_T22(rw: pd.DataFrame, drop: str = NON_REPRODUCIBLE_META_JUDGE) -> pd.DataFrame:
    """Return unanimity with `drop` removed (two judges) beside three-judge unanimity and the delta (pp)."""
    if rw.empty:
        return pd.DataFrame(
            columns=[
                "criterion",
                "all_yes",
                "all_no",
                "mixed",
                "unanimity_2_judges",
                "unanimity_3_judges",
                "delta_2judge_minus_3judge",
            ]
        )
    three = table_T20(rw)
    two = table_T20(rw, [j for j in sorted(rw["meta_judge"].unique()) if j != drop])
    out = two[["criterion", "all_yes", "all_no", "mixed", "unanimity"]].merge(
        three[["criterion", "unanimity"]].rename(columns={"unanimity": "unanimity_3_judges"}), on="criterion"
    )
    out = out.rename(columns={"unanimity": "unanimity_2_judges"})
    out["delta_2judge_minus_3judge"] = out["unanimity_2_judges"] - out["unanimity_3_judges"]
    return out


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
