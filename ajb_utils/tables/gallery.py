"""Failure gallery (teaching, beside §4.2 and App. H): one generation shown end to end.

Notebooks 03 and 10 pick the cases by stated rules; on the sample the justifications are canned sentences.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

import pandas as pd

from ajb_utils import schema
from ajb_utils.tables.main_results import main_verdicts

__all__ = ["plan_lines", "plan_diff", "case_view"]


def plan_lines(calls: Any) -> list[str]:
    """Return one line per call of a canonical plan: `tool(key=value, ...)`, arguments sorted by key (null: no plan)."""
    if not isinstance(calls, list):
        return ["(no parseable plan)"]
    lines = []
    for c in calls:
        args = ", ".join(f"{k}={json.dumps(v, sort_keys=True)}" for k, v in sorted(c["arguments"].items()))
        lines.append(f"{c['name']}({args})")
    return lines


def plan_diff(expected: Any, generated: Any) -> str:
    """Return a unified diff (text) of the reference plan (---) and the generated plan (+++), one call per line."""
    lines = difflib.unified_diff(
        plan_lines(expected),
        plan_lines(generated),
        fromfile="reference (GT)",
        tofile="generated",
        lineterm="",
        n=len(plan_lines(expected)) + 1,
    )
    text = "\n".join(lines)
    return text or "(identical plans)"


def _of_generation(frame: pd.DataFrame, id: str, generator: str, difficulty: str) -> pd.DataFrame:
    """Return the rows of one generation (record id, generator, difficulty) of a frame."""
    return frame[(frame["id"] == str(id)) & (frame["generator"] == generator) & (frame["difficulty"] == difficulty)]


def _verdict_grid(v: pd.DataFrame, present: list[str]) -> pd.DataFrame:
    """Return the verdicts l of one generation: rows judges, columns (condition, metric)."""
    grid = v.pivot_table(index="judge", columns=["condition", "metric"], values="llm_score", aggfunc="first")
    cols = pd.MultiIndex.from_product([schema.MAIN_CONDITIONS, schema.METRICS], names=["condition", "metric"])
    return grid.reindex(index=pd.Index(present, name="judge"), columns=cols)


def _justifications(v: pd.DataFrame, present: list[str]) -> pd.DataFrame:
    """Return one row per (judge, metric): 'verdict: justification' under each condition."""
    lab = v.assign(
        text=[
            ("null" if pd.isna(s) else f"{s:g}") + (f": {t}" if isinstance(t, str) and t else "")
            for s, t in zip(v["llm_score"], v["justification"])
        ]
    )
    just = lab.pivot_table(index=["judge", "metric"], columns="condition", values="text", aggfunc="first")
    idx = pd.MultiIndex.from_product([present, schema.METRICS], names=["judge", "metric"])
    just = just.reindex(index=idx, columns=schema.MAIN_CONDITIONS).fillna("(no verdict)")
    return just.reset_index().rename_axis(columns=None)


def case_view(bench, id: str, generator: str, difficulty: str) -> dict[str, Any]:
    """Return one generation end to end: record, queries, tools, diff (text), p, verdicts, justifications."""
    rec = bench.records.assign(id=bench.records["id"].astype(str)).set_index("id").loc[str(id)]
    g = _of_generation(bench.generations, id, generator, difficulty).iloc[0]
    record = pd.DataFrame(
        [
            {
                "id": str(id),
                "dag_type": schema.NO_TOPOLOGY if pd.isna(rec["dag_type"]) else str(rec["dag_type"]),
                "generator": generator,
                "difficulty": difficulty,
                "n_tools": int(rec["n_tools"]),
                "n_expected_calls": int(rec["n_expected_calls"]),
                "n_generated_calls": int(g["n_generated_calls"]),
            }
        ]
    )
    queries = pd.DataFrame(
        {"difficulty": schema.DIFFICULTIES, "query": [str(rec[f"query_{d}"]) for d in schema.DIFFICULTIES]}
    )
    p = pd.DataFrame({"metric": schema.METRICS, "p": [float(g[schema.P_COLUMNS[m]]) for m in schema.METRICS]})
    v = _of_generation(main_verdicts(bench), id, generator, difficulty)
    v = v.astype({c: str for c in ("id", "generator", "difficulty", "condition", "metric", "judge")})
    v = v if "justification" in v.columns else v.assign(justification="")
    present = [j for j in schema.JUDGES if j in set(v["judge"])]
    return {
        "record": record,
        "queries": queries,
        "tools": pd.DataFrame(
            {
                "tool": [t.get("name") for t in rec["tools"]],
                "parameters": [", ".join(t.get("properties") or {}) for t in rec["tools"]],
                "required": [", ".join(t.get("required") or []) for t in rec["tools"]],
            }
        ),
        "diff": plan_diff(rec["expected_calls"], g["generated_calls"]),
        "p": p,
        "verdicts": _verdict_grid(v, present),
        "justifications": _justifications(v, present),
    }
