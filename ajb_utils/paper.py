"""The paper's reported values (data/paper/*.csv) and each artifact's declared population.

Files are `<ID>[-<ID>...]_<topic>.csv` of tidy rows (dimensions, value, unit, source, note); named claims are
rows of claims.csv. REPORTED values, not reproduced ones (data/paper/README.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ajb_utils import schema
from ajb_utils.paths import PAPER_DIR

# Judges of the paper's ablations that are not released configs (RQ4/RQ6 use Qwen3-32B as judge).
ABLATION_JUDGES: dict[str, str] = {
    "judge_qwen3_32b": "Qwen3-32B (ablation judge, RQ4/RQ6)",
    "judge_qwen3_1_7b": "Qwen3-1.7B (draft-only judge-scale figure)",
}


@dataclass(frozen=True)
class Population:
    """The cells one artifact averages over: generators, difficulties, judges, and the paper's evidence."""

    generators: tuple[str, ...]
    difficulties: tuple[str, ...]
    judges: tuple[str, ...]
    evidence: str


_FIVE: tuple[str, ...] = tuple(schema.GENERATORS)
_FOUR: tuple[str, ...] = tuple(schema.OPEN_WEIGHT_GENERATORS)
_DIFF: tuple[str, ...] = tuple(schema.DIFFICULTIES)
_SIX: tuple[str, ...] = tuple(schema.MAIN_JUDGES)
_T24_EVIDENCE = (
    "T24 text 'averaged across all 12 (g,d) configurations'; each T24 row's mean over its four metrics "
    "is within 0.025 pp of that judge's 4-generator T02 mean weighted by T09's records (records pooled; "
    "+0.08 to +0.20 above the cells' plain mean), +0.33 to +1.26 above the 5-generator mean "
    "(ajb_verify/tests/test_paper_as_reproduced.py)"
)
_T28_EVIDENCE = (
    "T28's record-weighted (T07 counts) topology mean is +0.03 to +0.13 pp above the judge's 4-generator "
    "with-GT T02 mean, +0.27 to +1.25 above the 5-generator mean; its cells pool records (docs/DECISIONS.md)"
)
_CJ_EVIDENCE = (
    "RQ3's best single judge (GPT-5.4, 79.8) is T02's hard without-GT cells with records pooled (T09 counts): "
    "79.83 over five generators, 79.83 over four, against 79.68 / 79.65 for the cells' plain mean; four and "
    "five cannot be told apart, the five (the whole benchmark) are kept for the jury and the ensemble"
)
# One place: the population of every artifact whose number is a mean over Table 2's grid.
POPULATIONS: dict[str, Population] = {
    "T02": Population(_FIVE, _DIFF, tuple(schema.JUDGES), "Table 2 prints all 5 generators x 3 difficulties"),
    "T10": Population(_FIVE, _DIFF, _SIX, "App. E: every Table 2 cell (T10 prints Llama-3.3-70B's block)"),
    "C-F1": Population(_FIVE, _DIFF, _SIX, "Finding 1: '30 pairs' = 5 generators x 6 judges, 'four of five'"),
    "C-F3": Population(_FIVE, _DIFF, _SIX, "Finding 3: '10 of 15 cells' = 5 generators x 3 difficulties"),
    "F08": Population(_FIVE, _DIFF, _SIX, "Figure 8 draws one line per generator, all five"),
    "T29": Population(
        _FIVE, _DIFF, _SIX, "T29's standard column = each judge's 15-cell with-GT T02 mean (5 of 6 within 0.05)"
    ),
    "C-F2": Population(_FOUR, _DIFF, _SIX, "Eq. 5b's 12 (g, d) cells; T02 gives -1.5 / -3.9 only over 4 generators"),
    "T06": Population(_FOUR, _DIFF, _SIX, "every T06 entry is the 4-generator T02 mean within 0.05 (5: up to 1.70)"),
    "T24": Population(_FOUR, _DIFF, _SIX, _T24_EVIDENCE),
    "F03": Population(_FOUR, _DIFF, _SIX, "Figure 3 draws T24's bars (X1.F03_from_T24 = 0)"),
    "T28": Population(_FOUR, _DIFF, _SIX, _T28_EVIDENCE),
    "F09": Population(_FOUR, _DIFF, _SIX, "Figure 9 draws T28's cells"),
    "T14": Population(_FOUR, _DIFF, _SIX, "App. G's T14 re-weights T24's per-metric means"),
    "C-W": Population(_FOUR, _DIFF, _SIX, "§3.2's weightings re-weight T24 / T28 means"),
    "T03": Population(_FOUR, _DIFF, _SIX, "the draft's T03 caption: pairwise agreement over the 12 (g, d) cells"),
    "F10": Population(_FOUR, _DIFF, _SIX, "Figure 10's headers repeat T03's pairs"),
    "C-J": Population(_FIVE, ("hard",), _SIX, _CJ_EVIDENCE),  # the soft jury and the RQ3 ensemble
}


def population(artifact: str) -> Population:
    """Return the declared population of one artifact (POPULATIONS; 'T2' -> 'T02')."""
    aid = artifact if artifact in POPULATIONS else _normalise_id(artifact)
    if aid not in POPULATIONS:
        raise KeyError(f"no declared population for {artifact!r}; declared: {', '.join(POPULATIONS)}")
    return POPULATIONS[aid]


CLAIMS_FILE: str = "claims.csv"  # the claims (ajb_verify.claims), beside the reported values
_ID_RE = re.compile(r"^[A-Z][A-Za-z]*[0-9]*$")


def _paper_dir(paper_dir: Path | str | None) -> Path:
    """Return the folder holding the reported-value CSVs."""
    return Path(paper_dir) if paper_dir is not None else PAPER_DIR


def _artifact_files(paper_dir: Path | str | None = None) -> dict[str, Path]:
    """Return {artifact ID: CSV path} for every reported-value file (claims.csv excluded)."""
    files = sorted(p for p in _paper_dir(paper_dir).glob("*.csv") if p.name != CLAIMS_FILE)
    # T25-T27-F04_temperature.csv: T25, T27, F04
    return {aid: p for p in files for aid in p.stem.split("_", 1)[0].split("-") if _ID_RE.match(aid)}


def _normalise_id(artifact: str) -> str:
    """Return an artifact ID in file spelling ('t2' -> 'T02', 'T02_main' -> 'T02')."""
    a = artifact.strip().split("_", 1)[0].upper()
    m = re.fullmatch(r"([TF])(\d{1,2})", a)
    return f"{m.group(1)}{int(m.group(2)):02d}" if m else a


def _read_csv(path: Path) -> pd.DataFrame:
    """Return a reported-value CSV with string dimensions, float values and `printed`, the value's text."""
    df = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""])
    if "value" in df.columns:
        df["printed"] = df["value"]
    for col in ("value", "paper_value", "paper_value_hi", "tolerance"):
        if col in df.columns:
            df[col] = pd.to_numeric(df[col])
    return df


def reported(artifact: str, paper_dir: Path | str | None = None) -> pd.DataFrame:
    """Return the paper's reported values for one artifact ID (e.g. "T02", "F08", "T26")."""
    files = _artifact_files(paper_dir)
    aid = _normalise_id(artifact)
    if aid not in files:
        claim_ids = sorted(set(_read_csv(_paper_dir(paper_dir) / CLAIMS_FILE)["artifact"]) - set(files))
        raise KeyError(
            f"no reported values for artifact {artifact!r}. Available table/figure IDs: "
            f"{', '.join(sorted(files))}. Claim-only artifacts (use claims(artifact=...)): "
            f"{', '.join(claim_ids)}."
        )
    df = _read_csv(files[aid])
    df.attrs["artifact"] = aid
    df.attrs["path"] = files[aid].name
    return df
