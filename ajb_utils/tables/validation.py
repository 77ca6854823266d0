"""The annotation studies that notebooks 11 (human validation) and 12 (rewrite validation) read.

Annotations come from `<source>/annotations/`, data/runs/annotations/ or a filled sheet; without any the tables
are empty and the notebooks show the paper's values.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ajb_utils import annotation, schema
from ajb_utils.data import resolve_source
from ajb_utils.paths import RUNS_DIR

__all__ = [
    "CRITERIA",
    "load_annotations",
    "normalise_rewrite",
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


# ---- loading -------------------------------------------------------------------------------------
def load_annotations(
    data_source: str, kind: str, sheet: str | Path | None = None, runs_dir: Path = RUNS_DIR, runs: str = "shipped"
) -> tuple[pd.DataFrame, str]:
    """Return (annotations, what they were read from) of kind 'human' or 'rewrite' ('' and an empty frame without)."""
    if kind not in PATTERNS:
        raise ValueError(f"kind must be one of {sorted(PATTERNS)}, got {kind!r}")
    if sheet is not None and kind == "human":
        return _canonical(annotation.sheet_to_long(annotation.read_sheet(sheet))), f"the sheet {Path(sheet).name}"
    if runs not in ("shipped", "auto"):
        raise ValueError(f"runs must be 'shipped' or 'auto', got {runs!r}")
    user = sorted((Path(runs_dir) / "annotations").glob(PATTERNS[kind])) if runs == "auto" else []
    src = resolve_source(data_source)
    files = user or (sorted((Path(src.location) / "annotations").glob(PATTERNS[kind])) if src.is_local else [])
    if not files:
        return pd.DataFrame(), ""
    df = pd.concat([pd.read_json(f, lines=True, dtype={"id": str}) for f in files], ignore_index=True)
    where = ("your runs: " if user else "the source: ") + ", ".join(f.name for f in files)
    return (normalise_rewrite(df) if kind == "rewrite" else _canonical(df)), where


def _canonical(df: pd.DataFrame) -> pd.DataFrame:
    """Return annotations with generators named as the bench names them (gpt_5_4 -> gpt5_4)."""
    return df.assign(generator=df["generator"].astype(str).map(schema.canonical_generator)) if "generator" in df else df


def normalise_rewrite(df: pd.DataFrame) -> pd.DataFrame:
    """Return rewrite verdicts with canonical `criterion` (CRITERIA) and `meta_judge` (judge_* names)."""
    out = df.copy()
    by_pair = [PAIR_CRITERIA.get((p, c)) for p, c in zip(out.get("pair", [None] * len(out)), out["criterion"])]
    crit = out["criterion"].map(lambda c: CRITERION_ALIASES.get(c, c))
    out["criterion"] = [b or c for b, c in zip(by_pair, crit)]
    judge = out["meta_judge"].astype(str)
    out["meta_judge"] = judge.where(
        judge.str.startswith("judge_") | ~("judge_" + judge).isin(schema.JUDGES), "judge_" + judge
    )
    out["verdict"] = out["verdict"].astype(bool)
    unknown = sorted(set(out["criterion"]) - set(CRITERIA))
    if unknown:
        raise ValueError(f"unknown rewrite criteria {unknown}; expected {CRITERIA}")
    return out
