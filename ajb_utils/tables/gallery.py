"""Failure gallery (teaching, beside §4.2 and App. H): records picked by stated rules and shown end to end.

Every case is found by a rule over whatever data is loaded, never by a hand-picked id, and the
rule breaks ties by a stated order (difficulty easy < medium < hard, generators and judges in the
paper's order, then id, then metric), so the same data always gives the same case. The rules:

- ``flawed_hard_passed``: a hard generation with a flaw (some p < 1) that every judge passes
  without GT (l = 1.0 on all four metrics, no null). Among them the lowest mean p (the worst plan
  that nobody flags).
- ``p075_tie``: a metric with p = 0.75 on which, in one condition, some judges say 0.5 and others
  1.0. Both verdicts score the same match (0.75): the {0, 0.5, 1} scale cannot tell them apart.
  The metric with the most evenly split judges (max of min(#0.5, #1.0)), then the most judges.
- ``order_swap``: a generation that calls exactly the expected tools (the same multiset) in
  another order (sequence accuracy p < 1) and whose sequence verdicts differ most between the
  with-GT and the without-GT judges (|mean l with GT - mean l without GT| over the judges).

:func:`case_view` returns one case as frames (record, queries at three tiers, tools, the
reference and generated plan as a diff, p per metric, every judge's verdict and justification
with and without GT); `report.write_case` and `report.show_case_brief` display it. Justifications need a bench loaded with
``justifications=True``; on the synthetic sample they are canned sentences drawn per verdict
(``ajb_sample/judges.py``), not reasoning.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ajb_utils import schema

__all__ = ["GALLERY_RULES", "gallery_cases", "plan_lines", "plan_diff", "case_view"]

GALLERY_RULES: dict[str, str] = {
    "flawed_hard_passed": "a flawed hard plan (some p < 1) that every judge passes without GT (1.0 on all four "
    "metrics); the lowest mean p",
    "p075_tie": "a metric with p = 0.75 where, in one condition, some judges say 0.5 and others 1.0 (same match, "
    "0.75); the most evenly split",
    "order_swap": "a plan with exactly the expected tools in another order (sequence p < 1) whose sequence verdicts "
    "differ most between with-GT and without-GT judges",
}
_ORDER = {
    "difficulty": schema.DIFFICULTIES,
    "generator": schema.GENERATORS,
    "metric": schema.METRICS,
    "judge": schema.JUDGES,
}


def _rank(df: pd.DataFrame, col: str) -> pd.Series:
    """Return the paper-order position of each value of df[col] (unknown values last)."""
    pos = {v: i for i, v in enumerate(_ORDER[col])}
    return df[col].astype(str).map(pos).fillna(len(pos)).astype(int)


def _main(verdicts: pd.DataFrame, judges: Sequence[str]) -> pd.DataFrame:
    """Return the verdict rows of the judges under with/without GT, keys as strings."""
    v = verdicts[verdicts["judge"].isin(list(judges)) & verdicts["condition"].isin(schema.MAIN_CONDITIONS)]
    v = v.copy()
    for c in ("id", "generator", "difficulty", "condition", "metric", "judge"):
        v[c] = v[c].astype(str)
    return v


def _first(df: pd.DataFrame, sort_cols: list[str], ascending: list[bool]) -> pd.Series | None:
    """Return the first row after a stable sort with paper-order tie breaks (None if empty)."""
    if df.empty:
        return None
    d = df.assign(_d=_rank(df, "difficulty"), _g=_rank(df, "generator"))
    d = d.sort_values(sort_cols + ["_d", "_g", "id"], ascending=ascending + [True, True, True], kind="mergesort")
    return d.iloc[0].drop(["_d", "_g"])


def _flawed_hard_passed(bench, v: pd.DataFrame, judges: Sequence[str]) -> dict[str, Any] | None:
    """Return the flawed_hard_passed case (keys and the numbers behind the choice)."""
    w = v[(v["condition"] == "without_gt") & (v["difficulty"] == "hard")]
    w = w.assign(one=(w["llm_score"] == 1.0).astype(np.int64))
    g = w.groupby(["id", "generator", "difficulty"])
    ok = g.agg(n=("llm_score", "size"), n_one=("one", "sum"), n_judges=("judge", "nunique")).reset_index()
    ok = ok[(ok["n_judges"] == len(judges)) & (ok["n_one"] == ok["n"]) & (ok["n"] == len(judges) * len(schema.METRICS))]
    gen = bench.generations.assign(
        id=bench.generations["id"].astype(str),
        generator=bench.generations["generator"].astype(str),
        difficulty=bench.generations["difficulty"].astype(str),
    )
    ok = ok.merge(gen[["id", "generator", "difficulty", "p_mean"]], on=["id", "generator", "difficulty"])
    ok = ok[ok["p_mean"] < 1.0]
    row = _first(ok, ["p_mean"], [True])
    if row is None:
        return None
    return {
        "id": row["id"],
        "generator": row["generator"],
        "difficulty": row["difficulty"],
        "metric": None,
        "why": f"mean p = {row['p_mean']:.3f}; all {len(judges)} judges gave 1.0 on all four metrics without GT "
        f"({len(ok)} such hard plans)",
    }


def _p075_tie(v: pd.DataFrame) -> dict[str, Any] | None:
    """Return the p075_tie case."""
    q = v[np.isclose(v["p"].astype(float), 0.75)]
    q = q.assign(n05=(q["llm_score"] == 0.5).astype(np.int64), n10=(q["llm_score"] == 1.0).astype(np.int64))
    t = q.groupby(["id", "generator", "difficulty", "metric", "condition"])[["n05", "n10"]].sum().reset_index()
    t = t[(t["n05"] > 0) & (t["n10"] > 0)]
    t = t.assign(
        split=np.minimum(t["n05"], t["n10"]),
        total=t["n05"] + t["n10"],
        _m=_rank(t, "metric"),
        _c=t["condition"].map({c: i for i, c in enumerate(schema.MAIN_CONDITIONS)}),
    )
    row = _first(t, ["split", "total", "_m", "_c"], [False, False, True, True])
    if row is None:
        return None
    return {
        "id": row["id"],
        "generator": row["generator"],
        "difficulty": row["difficulty"],
        "metric": row["metric"],
        "why": f"p = 0.75 on {row['metric']}; {schema.CONDITION_DISPLAY[row['condition']]}: {int(row['n05'])} "
        f"judges say 0.5, {int(row['n10'])} say 1.0, every one scores match 0.75 ({len(t)} such cases)",
    }


def _names(calls: Any) -> list[str]:
    """Return the tool names of a call list ([] for a null plan)."""
    return [str(c.get("name")) for c in calls] if isinstance(calls, list) else []


def _order_swap(bench, v: pd.DataFrame) -> dict[str, Any] | None:
    """Return the order_swap case."""
    exp = bench.records.assign(id=bench.records["id"].astype(str)).set_index("id")["expected_calls"].map(_names)
    gen = bench.generations
    gnames = gen["generated_calls"].map(_names)
    enames = exp.reindex(gen["id"].astype(str)).to_numpy()
    swap = np.array(
        [len(a) > 1 and sorted(a) == sorted(b) and list(a) != list(b) for a, b in zip(gnames, enames)], dtype=bool
    )
    swap &= gen["p_seq"].to_numpy(float) < 1.0
    keys = gen.loc[swap, ["id", "generator", "difficulty"]].astype(str)
    if keys.empty:
        return None
    s = v[v["metric"] == "sequence_accuracy"].merge(keys, on=["id", "generator", "difficulty"])
    m = s.groupby(["id", "generator", "difficulty", "condition"])["llm_score"].mean().unstack("condition")
    m = m.reindex(columns=schema.MAIN_CONDITIONS).dropna(subset=list(schema.MAIN_CONDITIONS)).reset_index()
    if m.empty:
        return None
    m["gap"] = (m["with_gt"] - m["without_gt"]).abs()
    row = _first(m, ["gap"], [False])
    return {
        "id": row["id"],
        "generator": row["generator"],
        "difficulty": row["difficulty"],
        "metric": "sequence_accuracy",
        "why": f"same tools, other order; mean sequence verdict with GT {row['with_gt']:.2f} vs without GT "
        f"{row['without_gt']:.2f} ({len(m)} order swaps judged in both conditions)",
    }


def gallery_cases(bench, judges: Sequence[str] = tuple(schema.MAIN_JUDGES)) -> pd.DataFrame:
    """Return one row per gallery rule: case, id, generator, difficulty, metric, why, rule (NaN keys where none qualifies)."""
    v = _main(bench.verdicts, judges)
    found = {
        "flawed_hard_passed": _flawed_hard_passed(bench, v, judges),
        "p075_tie": _p075_tie(v),
        "order_swap": _order_swap(bench, v),
    }
    rows = []
    for case, hit in found.items():
        hit = hit or {
            "id": None,
            "generator": None,
            "difficulty": None,
            "metric": None,
            "why": "no record in this data satisfies the rule",
        }
        rows.append({"case": case, **hit, "rule": GALLERY_RULES[case]})
    return pd.DataFrame(rows)


def plan_lines(calls: Any) -> list[str]:
    """Return one line per call: `tool(key=value, ...)`, arguments sorted by key ('(no parseable plan)' for null)."""
    if not isinstance(calls, list):
        return ["(no parseable plan)"]
    out = []
    for c in calls:
        args = c.get("arguments") or {}
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except ValueError:
                args = {"_raw": args}
        body = (
            ", ".join(f"{k}={json.dumps(args[k], sort_keys=True)}" for k in sorted(args))
            if isinstance(args, dict)
            else str(args)
        )
        out.append(f"{c.get('name')}({body})")
    return out


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


_P_COLUMNS: dict[str, str] = {
    "tool_selection": "p_tool",
    "parameter_structure": "p_param",
    "sequence_accuracy": "p_seq",
    "query_coverage": "p_cov",
}


def _of_generation(frame: pd.DataFrame, id: str, generator: str, difficulty: str) -> pd.DataFrame:
    """Return the rows of one generation (record id, generator, difficulty) of a frame."""
    return frame[(frame["id"] == str(id)) & (frame["generator"] == generator) & (frame["difficulty"] == difficulty)]


def _tools_table(tools: Sequence[dict]) -> pd.DataFrame:
    """Return one row per available tool: its name, parameters and required parameters."""
    rows = [
        {
            "tool": t.get("name"),
            "parameters": ", ".join(t.get("properties") or {}),
            "required": ", ".join(t.get("required") or []),
        }
        for t in tools
    ]
    return pd.DataFrame(rows)


def _verdict_grid(v: pd.DataFrame, present: list[str]) -> pd.DataFrame:
    """Return the verdicts l of one generation: rows judges, columns (condition, metric)."""
    grid = v.pivot_table(index="judge", columns=["condition", "metric"], values="llm_score", aggfunc="first")
    cols = pd.MultiIndex.from_product([schema.MAIN_CONDITIONS, schema.METRICS], names=["condition", "metric"])
    grid = grid.reindex(index=present, columns=cols)
    grid.index.name = "judge"
    return grid


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
    just = just.reindex(index=idx, columns=schema.MAIN_CONDITIONS).fillna("(no verdict)").reset_index()
    just.columns.name = None
    return just


def case_view(
    bench, id: str, generator: str, difficulty: str, judges: Sequence[str] = tuple(schema.JUDGES)
) -> dict[str, Any]:
    """Return one generation end to end: 'record', 'queries', 'tools', 'diff' (text), 'p', 'verdicts', 'justifications'.

    'verdicts': rows judges, columns (condition, metric) verdicts l; 'justifications': one row per
    (judge, metric) with the verdict and justification under each condition (empty text when the
    bench was loaded without justifications).
    """
    rec = bench.records.assign(id=bench.records["id"].astype(str)).set_index("id").loc[str(id)]
    g = _of_generation(bench.generations, id, generator, difficulty).iloc[0]
    record = pd.DataFrame(
        [
            {
                "id": str(id),
                "dag_type": str(rec["dag_type"]),
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
    p = pd.DataFrame({"metric": schema.METRICS, "p": [float(g[_P_COLUMNS[m]]) for m in schema.METRICS]})
    v = _main(_of_generation(bench.verdicts, id, generator, difficulty), judges)
    v = v if "justification" in v.columns else v.assign(justification="")
    present = [j for j in judges if j in set(v["judge"])]
    return {
        "record": record,
        "queries": queries,
        "tools": _tools_table(rec["tools"]),
        "diff": plan_diff(rec["expected_calls"], g["generated_calls"]),
        "p": p,
        "verdicts": _verdict_grid(v, present),
        "justifications": _justifications(v, present),
    }
