"""Tables for notebook 01 dataset statistics (T07, T08, T09) and the identifiers of T18 and T21.

All functions are pure: a `Bench` (or nothing, for the TEXT tables) in, a DataFrame out, in the
paper's row order (schema.TOPOLOGIES, schema.GENERATORS, schema.DIFFICULTIES).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ajb_utils import schema

__all__ = [
    "GENERATOR_IDENTIFIERS",
    "JUDGE_IDENTIFIERS",
    "structural_counts",
    "table_T07",
    "table_T08",
    "table_T09",
    "null_tuples",
]


# Identifiers transcribed from the draft LaTeX (tab:generators, tab:judges); v1 adds Prometheus-2.
GENERATOR_IDENTIFIERS: dict[str, tuple[str, str]] = {
    "llama_3_3_70b_instruct": ("meta-llama/Llama-3.3-70B-Instruct", "70B"),
    "llama_3_1_8b_instruct": ("meta-llama/Llama-3.1-8B-Instruct", "8B"),
    "qwen3_32b": ("Qwen/Qwen3-32B", "32B"),
    "smollm3_3b": ("HuggingFaceTB/SmolLM3-3B", "3B"),
    "gpt5_4": ("Azure OpenAI / gpt-5.4, api-ver 2025-04-01-preview, accessed Apr 2026", "-"),
}
JUDGE_IDENTIFIERS: dict[str, tuple[str, str]] = {
    "judge_gpt_5_4": ("Azure OpenAI / gpt-5.4, api-ver 2025-04-01-preview, accessed Apr 2026", "-"),
    "judge_claude_large": ("Anthropic proxy / claude-sonnet-4-5-20250929-v1:0, accessed Apr 2026", "-"),
    "judge_gemini_2_5_pro": ("Vertex AI proxy / gemini-2.5-pro-preview-05-06, accessed Apr 2026", "-"),
    "judge_qwq_32b": ("vLLM / Qwen/QwQ-32B, enable_thinking=true", "32B"),
    "judge_gpt_oss_20b": ("vLLM / openai/gpt-oss-20b", "20B"),
    "judge_gpt_oss_120b": ("vLLM / openai/gpt-oss-120b", "120B"),
    "judge_prometheus2_7b": ("prometheus-eval/prometheus-7b-v2.0 (baseline, arXiv v1 only)", "7B"),
}


def table_T07(bench) -> pd.DataFrame:
    """Return records per DAG topology: dag_type, records, share (%), plus a 'total' row.

    Records with a null dag_type are a row of their own (schema.NO_TOPOLOGY) before the total.
    """
    labels = schema.topology_labels(bench.records["dag_type"])
    extra = sorted(set(labels) - set(schema.TOPOLOGIES))
    counts = labels.value_counts().reindex(list(schema.TOPOLOGIES) + extra, fill_value=0)
    out = pd.DataFrame({"dag_type": counts.index, "records": counts.to_numpy(np.int64)})
    total = int(out["records"].sum())
    out["share"] = 100.0 * out["records"] / max(total, 1)
    out.loc[len(out)] = ["total", total, 100.0]
    out["records"] = out["records"].astype(np.int64)
    return out


def structural_counts(bench) -> dict[str, np.ndarray]:
    """Return the three per-unit count arrays of Table 8 / Figure 7 (records, tools, records)."""
    rec = bench.records
    params = [len(t.get("properties") or {}) for tools in rec["tools"] for t in tools]
    return {
        "available_tools_per_record": rec["n_tools"].to_numpy(np.int64),
        "parameters_per_tool": np.asarray(params, dtype=np.int64),
        "expected_tool_calls_per_record": rec["n_expected_calls"].to_numpy(np.int64),
    }


def table_T08(bench) -> pd.DataFrame:
    """Return min/max/mean/median (and n units) of tools per record, params per tool, calls per record."""
    rows = []
    for variant, x in structural_counts(bench).items():
        rows.append(
            {
                "variant": variant,
                "n": int(x.size),
                "min": int(x.min()),
                "max": int(x.max()),
                "mean": float(x.mean()),
                "median": float(np.median(x)),
            }
        )
    return pd.DataFrame(rows)


def table_T09(bench) -> pd.DataFrame:
    """Return valid generations per generator x difficulty, total, theoretical max, success rate (%).

    Theoretical max = records x 3 difficulties per generator; a 'total' row sums generators.
    """
    gen = bench.generations
    n_rec = len(bench.records)
    wide = (
        gen.groupby(["generator", "difficulty"], observed=False)
        .size()
        .unstack("difficulty")
        .reindex(index=schema.GENERATORS, columns=schema.DIFFICULTIES, fill_value=0)
    )
    wide.columns = [str(c) for c in wide.columns]
    wide.loc["total"] = wide.sum()
    out = wide.astype(np.int64)
    out["valid"] = out[schema.DIFFICULTIES].sum(axis=1)
    n_gen = len(schema.GENERATORS)
    out["theoretical_max"] = np.r_[np.full(n_gen, 3 * n_rec), 3 * n_rec * n_gen].astype(np.int64)
    out["success_rate"] = 100.0 * out["valid"] / out["theoretical_max"]
    out.index.name = "generator"
    return out.reset_index()


def null_tuples(bench) -> pd.DataFrame:
    """Return one row per (generator, judge, difficulty, id) of the six judges under the two main
    conditions, with ``n_conditions`` judged and ``null`` (a condition without any verdict)."""
    v = bench.verdicts
    v = v[v["judge"].isin(schema.MAIN_JUDGES) & v["condition"].isin(schema.MAIN_CONDITIONS)]
    keys = ["generator", "judge", "difficulty", "id", "condition"]
    rec = (
        v.assign(has=v["llm_score"].notna())
        .groupby(keys, observed=True)
        .agg(has=("has", "any"), dag_type=("dag_type", "first"))
        .reset_index()
    )
    tup = (
        rec.groupby(keys[:-1], observed=True)
        .agg(
            n_conditions=("condition", "size"),
            null=("has", "all"),  # negated below: a tuple is null unless every condition has a verdict
            dag_type=("dag_type", "first"),
        )
        .reset_index()
    )
    tup["null"] = ~tup["null"].to_numpy(bool)
    return tup
