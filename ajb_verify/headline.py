"""The scorecard's headline: the reproduction apart from the paper's disagreements with itself.

Every compared value and every claim on data falls in one of four classes (`CLASSES`):
reproduced; not reproduced; the paper disagrees with itself (a claim the paper's own tables
contradict, `own_numbers.PAPER_INCONSISTENCIES`, or a value outside its printed tolerance but at
the value another table of the paper gives, `OTHER_TABLES`: each beside its X1 audit row); not
comparable here (n/a). A table compared under two readings (T11's p-bar by records or by topology)
counts once, under the reading that reproduces more of it; the other reading's values are listed,
not counted (`OTHER_READING`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ajb_utils import paper, schema
from ajb_verify.main_results import T11_READINGS
from ajb_verify.own_numbers import PAPER_INCONSISTENCIES

__all__ = [
    "AUDIT_TWIN",
    "CLASSES",
    "OTHER_TABLES",
    "audit_row",
    "claim_classes",
    "headline",
    "read_compare_files",
    "value_classes",
]

REPRODUCED: str = "reproduced"
NOT_REPRODUCED: str = "not reproduced"
DISAGREES: str = "the paper disagrees with itself"
NOT_COMPARABLE: str = "not comparable here"
CLASSES: tuple[str, ...] = (REPRODUCED, NOT_REPRODUCED, DISAGREES, NOT_COMPARABLE)
OTHER_READING: str = "other reading (not counted)"

# a claim's X1 audit row where its id is not the audit row's own
AUDIT_TWIN: dict[str, str] = {"P.success_rate": "X1.T09_success_rate", "T10.ci_half_width": "X1.ci_half_width"}

# a table compared under several readings: the base file holds the first, "<base>-<reading>" the others
READINGS: dict[str, tuple[str, ...]] = {"T11": tuple(f"T11-{r}" for r in T11_READINGS[1:])}


def audit_row(claim_id: str) -> str:
    """Return the id of the X1 audit row that reports a claim's paper inconsistency."""
    return AUDIT_TWIN.get(claim_id, claim_id)


def _half_unit(printed: pd.Series) -> pd.Series:
    """Return half a unit of each printed number's last digit ('89.4' -> 0.05, '0.606' -> 0.0005)."""
    dec = printed.astype(str).map(lambda s: len(s.split(".")[1]) if "." in s else 0)
    return 0.5 * 10.0 ** (-dec.astype(float))


def _t09_rates(rows: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """Return each success rate as T09's own counts give it (valid / theoretical max), tolerance 0.05."""
    t = paper.reported("T09").query("stat == 'valid_records'")
    valid = {
        (g if g == g else None, d if d == d else None): v
        for g, d, v in zip(t["generator"], t["difficulty"], t["value"])
    }
    n_gen = len(schema.GENERATORS)
    per_cell = float(paper.reported("T09").query("stat == 'theoretical_max' and generator.isna()")["value"].iloc[0])
    per_cell /= n_gen * len(schema.DIFFICULTIES)

    def rate(g, d) -> float:
        g, d = (g if isinstance(g, str) and g else None), (d if isinstance(d, str) and d else None)
        n = per_cell * (1 if d else len(schema.DIFFICULTIES)) * (1 if g else n_gen)
        return 100.0 * valid.get((g, d), np.nan) / n

    alt = pd.Series([rate(g, d) for g, d in zip(rows["generator"], rows["difficulty"])], index=rows.index)
    return alt, pd.Series(0.05, index=rows.index)


def _t03_pairs(rows: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """Return each F10 header's agreement or kappa as T03 prints it for the same pair (either order)."""
    t03 = paper.reported("T03").dropna(subset=["judge_2"])
    look = {}
    for r in t03.itertuples():
        for a, b in ((r.judge, r.judge_2), (r.judge_2, r.judge)):
            look[(a, b, r.condition, r.stat)] = (r.value, r.printed)
    hit = [
        look.get((j, j2, c, s), (np.nan, ""))
        for j, j2, c, s in zip(rows["judge"], rows["judge_2"], rows["condition"], rows["stat"])
    ]
    alt = pd.Series([h[0] for h in hit], index=rows.index, dtype=float)
    return alt, _half_unit(pd.Series([h[1] for h in hit], index=rows.index))


def _t02_judge_mean(judges: pd.Series) -> pd.Series:
    """Return each judge's mean of Table 2's fifteen with-GT cells (T29's population, five generators)."""
    t2 = paper.reported("T02").query("stat == 'alignment' and condition == 'with_gt'")
    return judges.map(t2.groupby("judge")["value"].mean())


def _t29_standard(rows: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """Return T29's standard alignment (and binary minus standard) as Table 2's fifteen with-GT cells give it."""
    mean = _t02_judge_mean(rows["judge"])
    binary = paper.reported("T29").query("variant == 'binary' and stat == 'alignment'").set_index("judge")["value"]
    alt = mean.where(rows["variant"] == "standard", rows["judge"].map(binary) - mean)
    return alt, pd.Series(np.where(rows["variant"] == "standard", 0.05, 0.1), index=rows.index)


def _t01_from_t02(rows: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """Return T01's with-GT and without-GT alignment as Table 2's Llama-3.3-70B cells give it."""
    t2 = paper.reported("T02").query("stat == 'alignment' and generator == 'llama_3_3_70b_instruct'")
    t2 = t2.set_index(["judge", "difficulty", "condition"])["value"]
    keys = list(zip(rows["judge"], rows["difficulty"], rows["condition"]))
    return pd.Series([t2.get(k, np.nan) for k in keys], index=rows.index, dtype=float), pd.Series(
        0.05, index=rows.index
    )


@dataclass(frozen=True)
class OtherTable:
    """Compared values a faithful reproduction cannot match because another table of the paper gives
    them otherwise: `where` selects them in the artifact's compare file, `values` returns (the other
    table's value, its tolerance) per selected row, `audit` names the X1 row that reports it."""

    artifact: str
    where: str
    audit: str
    values: Callable[[pd.DataFrame], tuple[pd.Series, pd.Series]]


OTHER_TABLES: tuple[OtherTable, ...] = (
    OtherTable("T09", "stat == 'success_rate'", "X1.T09_success_rate", _t09_rates),
    OtherTable("F10", "stat in ['agreement', 'kappa'] and condition == 'with_gt'", "X1.F10_from_T03", _t03_pairs),
    OtherTable("T29", "variant in ['standard', 'delta']", "X1.T29_from_T02", _t29_standard),
    OtherTable(
        "T01", "stat == 'alignment' and condition in ['with_gt', 'without_gt']", "X1.T01_from_T02", _t01_from_t02
    ),
)


_VALUE_COLUMNS = ("reported", "reproduced", "difference", "tolerance", "within")


def read_compare_files(out_dir: Path | str) -> dict[str, pd.DataFrame]:
    """Return {artifact: its ``<ID>_compare.csv``} of an output folder, in file order."""
    files = sorted(Path(out_dir).glob("*_compare.csv"))
    return {p.stem.split("_", 1)[0]: pd.read_csv(p, keep_default_na=False, na_values=[""]) for p in files}


def _key(df: pd.DataFrame) -> pd.Series:
    """Return each compared row's key ('judge=judge_qwq_32b;variant=standard'), empty keys left out."""
    cols = [c for c in df.columns if c not in _VALUE_COLUMNS and not c.startswith("judge_side")]
    return df[cols].apply(lambda r: ";".join(f"{c}={v}" for c, v in r.items() if pd.notna(v) and v != ""), axis=1)


def value_classes(comparisons: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Return one row per compared value: artifact, key, reported, reproduced, within, class (`CLASSES`
    or `OTHER_READING`), audit row and the other table's value (for the paper's disagreements)."""
    frames = []
    for art, df in comparisons.items():
        within = df["within"].astype(str)
        out = pd.DataFrame(
            {
                "artifact": art,
                "key": _key(df) if len(df) else pd.Series(dtype=str),
                "reported": df["reported"],
                "reproduced": df["reproduced"],
                "within": within,
                "class": np.select([within == "yes", within == "n/a"], [REPRODUCED, NOT_COMPARABLE], NOT_REPRODUCED),
                "audit row": "",
                "other table's value": np.nan,
            }
        )
        for o in (o for o in OTHER_TABLES if o.artifact == art):
            sel = df.query(o.where) if len(df) else df
            sel = sel[within.loc[sel.index] == "no"]
            if sel.empty:
                continue
            alt, tol = o.values(sel)
            at = (sel["reproduced"] - alt).abs() <= tol + 1e-9
            idx = sel.index[at.to_numpy()]
            out.loc[idx, ["class", "audit row"]] = [DISAGREES, o.audit]
            out.loc[idx, "other table's value"] = alt[at]
        frames.append(out)
    vals = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["artifact", "class"])
    for base, others in READINGS.items():  # one table, several readings: counted once, under its best
        names = [n for n in (base, *others) if n in comparisons]
        if len(names) < 2:
            continue
        n_in = {n: int((vals.loc[vals["artifact"] == n, "within"] == "yes").sum()) for n in names}
        best = max(names, key=lambda n: n_in[n])  # the first on a tie
        vals.loc[vals["artifact"].isin([n for n in names if n != best]), "class"] = OTHER_READING
    return vals


def claim_classes(card: pd.DataFrame) -> pd.DataFrame:
    """Return the class (`CLASSES`) and audit row of each claim row of a scorecard: a claim that does
    not hold and that the paper's own tables contradict is the paper's disagreement with itself."""
    h = card["holds"].astype(str)
    own = card["id"].isin(list(PAPER_INCONSISTENCIES))
    cls = np.select(
        [h == "yes", h == "n/a", (h == "no") & own],
        [REPRODUCED, NOT_COMPARABLE, DISAGREES],
        NOT_REPRODUCED,  # no, indistinguishable (the CI spans 0), CONFLICT
    )
    audit = np.where(cls == DISAGREES, card["id"].map(audit_row), "")
    return pd.DataFrame({"class": cls, "audit row": audit}, index=card.index)


def headline(card: pd.DataFrame) -> pd.DataFrame:
    """Return the headline of a scorecard: rows values, claims; columns the four `CLASSES` (counts)."""
    vals = card.attrs.get("values", pd.DataFrame(columns=["class"]))
    claims = card.loc[card["row"] == "claim", "class"]
    rows = {"values": vals["class"], "claims": claims}
    return pd.DataFrame({k: [int((v == c).sum()) for c in CLASSES] for k, v in rows.items()}, index=list(CLASSES)).T


def why(audit_id: str, claim_id: str = "") -> str:
    """Return the reason the paper disagrees with itself (`PAPER_INCONSISTENCIES`) for an audit row."""
    return PAPER_INCONSISTENCIES.get(audit_id) or PAPER_INCONSISTENCIES.get(claim_id, "")


def disagreements(card: pd.DataFrame) -> pd.DataFrame:
    """Return every row of a scorecard in which the paper disagrees with itself, beside its audit row:
    row (a claim id, or an artifact and the values' count), paper value, reproduced value, audit row,
    its verdict on the paper's tables (from the folder's X1 audit; '' if not written) and why."""
    audit = card[card["row"] == "audit"]
    verdict = audit.groupby("id", sort=False)["holds"].agg(lambda h: "no" if (h == "no").any() else h.iloc[0])
    rows = []
    for _, r in card[(card["row"] == "claim") & (card["class"] == DISAGREES)].iterrows():
        rows.append((r["id"], r["paper value"], r["reproduced value"], r["audit row"], r["id"]))
    vals = card.attrs.get("values", pd.DataFrame(columns=["class"]))
    for (art, aud), g in vals[vals["class"] == DISAGREES].groupby(["artifact", "audit row"], sort=False):
        keys = "; ".join(g["key"].str.replace(";", ", "))
        rows.append(
            (
                f"{art} ({len(g)} value{'s' if len(g) > 1 else ''}: {keys})",
                ", ".join(f"{v:g}" for v in g["reported"]),
                ", ".join(f"{v:.4g}" for v in g["reproduced"]),
                aud,
                "",
            )
        )
    out = pd.DataFrame(rows, columns=["row", "paper value", "reproduced value", "audit row", "_claim"])
    out["audit verdict"] = out["audit row"].map(verdict).fillna("")
    out["why"] = [why(a, c) for a, c in zip(out["audit row"], out["_claim"])]
    return out.drop(columns="_claim")
