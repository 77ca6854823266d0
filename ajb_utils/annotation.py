"""The human-validation workflow of Appendix G as code: draw, export, read and score an annotation sheet.

One row per record (id, plan, the four programmatic scores, agree_<metric> yes/no, human_<metric> 0-1, note):
`sheet_rows` fills it, `export_sheet` writes it, `read_sheet` reads it back, `agreement_tables` gives Table 12.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from ajb_utils import schema

SHEET_BASE_COLUMNS: list[str] = [
    "id",
    "generator",
    "difficulty",
    "dag_type",
    "query",
    "tools",
    "generated_calls",
    "expected_calls",
]
YES = {"yes", "y", "true", "1", "agree"}
NO = {"no", "n", "false", "0", "disagree"}


class SheetError(ValueError):
    """A filled annotation sheet that cannot be read (missing columns, bad values)."""


def sheet_columns() -> list[str]:
    """Return the sheet's columns in order."""
    return (
        SHEET_BASE_COLUMNS
        + [f"programmatic_{m}" for m in schema.METRICS]
        + [f"agree_{m}" for m in schema.METRICS]
        + [f"human_{m}" for m in schema.METRICS]
        + ["note"]
    )


def _compact_args(args: dict) -> str:
    """Return call arguments as k=v pairs (values JSON-encoded)."""
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in (args or {}).items())


def _compact_calls(calls) -> str:
    """Return a call list as 'name(k=v, ...); name(...)'."""
    if not isinstance(calls, list):
        return ""
    return "; ".join(f"{c['name']}({_compact_args(c.get('arguments'))})" for c in calls)


def _compact_tools(tools) -> str:
    """Return a tool list as 'name(required*, optional)'."""
    if not isinstance(tools, list):
        return ""
    parts = []
    for t in tools:
        req = set(t.get("required") or [])
        keys = [f"{k}*" if k in req else k for k in (t.get("properties") or {})]
        parts.append(f"{t['name']}({', '.join(keys)})")
    return "; ".join(parts)


def sheet_rows(bench, pairs: pd.DataFrame) -> pd.DataFrame:
    """Return empty sheet rows for (id, generator, difficulty) pairs, in the pairs' order."""
    gen = bench.generations.astype({c: str for c in ("id", "generator", "difficulty", "dag_type")})
    rec = bench.records.assign(id=bench.records["id"].astype(str)).set_index("id")
    keys = pairs[["id", "generator", "difficulty"]].astype(str)
    keys["generator"] = keys["generator"].map(schema.canonical_generator)  # gpt_5_4 (judge configs) -> gpt5_4
    g = keys.merge(gen, on=["id", "generator", "difficulty"], how="left", validate="one_to_one")
    if g["user_query"].isna().any():
        missing = g.loc[g["user_query"].isna(), ["id", "generator"]].head(3).to_dict("records")
        raise SheetError(
            f"{int(g['user_query'].isna().sum())} annotated rows have no valid "
            f"generation in this data source, e.g. {missing}"
        )
    out = pd.DataFrame(
        {
            "id": g["id"],
            "generator": g["generator"],
            "difficulty": g["difficulty"],
            "dag_type": g["dag_type"],
            "query": g["user_query"],
            "tools": rec["tools"].reindex(g["id"]).map(_compact_tools).to_numpy(),
            "generated_calls": g["generated_calls"].map(_compact_calls),
            "expected_calls": rec["expected_calls"].reindex(g["id"]).map(_compact_calls).to_numpy(),
        }
    )
    for m in schema.METRICS:
        out[f"programmatic_{m}"] = g[schema.P_COLUMNS[m]].astype(float).round(4).to_numpy()
    for prefix in ("agree_", "human_"):
        for m in schema.METRICS:
            out[f"{prefix}{m}"] = pd.Series([pd.NA] * len(out), dtype="object")
    out["note"] = ""
    return out[sheet_columns()].reset_index(drop=True)


def sheet_from_annotations(bench, annotations: pd.DataFrame) -> pd.DataFrame:
    """Return a filled sheet from long annotation rows (id, generator, metric, human_agrees, ...)."""
    a = annotations.assign(id=annotations["id"].astype(str))
    pairs = a.drop_duplicates(["id", "generator"])[["id", "generator", "difficulty"]]
    sheet = sheet_rows(bench, pairs).set_index(["id", "generator"])
    wide_ok = a.pivot(index=["id", "generator"], columns="metric", values="human_agrees")
    wide_h = a.pivot(index=["id", "generator"], columns="metric", values="human_score")
    for m in schema.METRICS:
        ok = wide_ok[m].reindex(sheet.index)
        sheet[f"agree_{m}"] = ok.map({True: "yes", False: "no"}).astype(object)
        sheet[f"human_{m}"] = wide_h[m].reindex(sheet.index).where(ok == False)  # noqa: E712
    if "note" in a.columns:
        notes = (
            a[~a["human_agrees"].astype(bool)]
            .groupby(["id", "generator"])["note"]
            .agg(lambda s: " | ".join(sorted(set(map(str, s)))))
        )
        sheet["note"] = notes.reindex(sheet.index).fillna("").to_numpy()
    return sheet.reset_index()[sheet_columns()]


def export_sheet(df: pd.DataFrame, path: str | Path) -> Path:
    """Write the sheet as CSV (scores to 4 significant digits); return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False, lineterminator="\n", float_format="%.4g")
    return path


def read_sheet(path: str | Path) -> pd.DataFrame:
    """Return a filled sheet from CSV (agree_* booleans, human_* floats); SheetError names what is wrong."""
    df = pd.read_csv(path, dtype={"id": str}, keep_default_na=True)
    missing = [c for c in sheet_columns() if c not in df.columns]
    if missing:
        raise SheetError(f"{Path(path).name}: missing column(s) {missing}; expected {sheet_columns()}")
    for m in schema.METRICS:
        agree = df[f"agree_{m}"].astype("string").str.strip().str.lower()
        bad = agree.notna() & (agree != "") & ~agree.isin(YES | NO)
        if bad.any():
            rows = (np.flatnonzero(bad.to_numpy()) + 2)[:5].tolist()
            raise SheetError(
                f"column 'agree_{m}': values must be yes/no (or empty), got {sorted(set(agree[bad]))[:5]} "
                f"on CSV line(s) {rows}"
            )
        df[f"agree_{m}"] = agree.map(lambda v: True if v in YES else (False if v in NO else pd.NA)).astype("boolean")
        h = pd.to_numeric(df[f"human_{m}"], errors="coerce")
        bad = (h.isna() & df[f"human_{m}"].notna()) | (h < 0) | (h > 1)
        if bad.any():
            rows = (np.flatnonzero(bad.to_numpy()) + 2)[:5].tolist()
            raise SheetError(
                f"column 'human_{m}': scores must be numbers in [0, 1]; bad value(s) on CSV line(s) {rows}"
            )
        need = (df[f"agree_{m}"] == False).fillna(False) & h.isna()  # noqa: E712
        if need.any():
            rows = (np.flatnonzero(need.to_numpy()) + 2)[:5].tolist()
            raise SheetError(f"'agree_{m}' is 'no' but 'human_{m}' is empty on CSV line(s) {rows}")
        df[f"human_{m}"] = h
    df["note"] = df["note"].astype(object).where(df["note"].notna(), "").astype(str)
    return df


def sheet_to_long(sheet: pd.DataFrame) -> pd.DataFrame:
    """Return long annotation rows (DATA_FORMAT section 3) for the annotated cells of a sheet."""
    parts = []
    for m in schema.METRICS:
        ok = sheet[f"agree_{m}"].astype("boolean")
        p = sheet[f"programmatic_{m}"].astype(float)
        part = sheet[["id", "generator", "difficulty", "dag_type"]].assign(
            metric=m,
            programmatic_score=p,
            human_agrees=ok,
            human_score=pd.to_numeric(sheet[f"human_{m}"], errors="coerce").where(ok == False, p),  # noqa: E712
            note=sheet["note"],
        )
        parts.append(part[ok.notna().to_numpy()])
    out = pd.concat(parts, ignore_index=True)
    out["human_agrees"] = out["human_agrees"].astype(bool)
    return out


def _agreement(counts: pd.DataFrame, name: str) -> pd.DataFrame:
    """Return per row of (sum, size) counts, named `name`: agree, total, agreement %."""
    out = counts.astype(int).rename(columns={"sum": "agree", "size": "total"})
    return out.assign(agreement=100.0 * out["agree"] / out["total"]).rename_axis(name).reset_index()


def agreement_tables(long: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Return (per metric + overall: agree, disagree, agreement %; per topology: agree, total, agreement %)."""
    ok = long["human_agrees"].astype(bool)
    by_m = ok.groupby(long["metric"].astype(str)).agg(["sum", "size"])
    by_m = by_m.reindex([m for m in schema.METRICS if m in by_m.index])
    by_m.loc["overall"] = [int(ok.sum()), int(ok.size)]
    per_metric = _agreement(by_m, "metric")
    per_metric.insert(2, "disagree", per_metric.pop("total") - per_metric["agree"])
    by_t = ok.groupby(schema.topology_labels(long["dag_type"])).agg(["sum", "size"])
    order = list(schema.TOPOLOGIES) + sorted(set(by_t.index) - set(schema.TOPOLOGIES))
    by_t = by_t.reindex([t for t in order if t in by_t.index])  # a null topology is counted last
    return per_metric, _agreement(by_t, "dag_type")
