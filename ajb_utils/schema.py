"""The one place for names, in the paper's order: configs, metric spellings, conditions, difficulties, topologies."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

HF_REPO_ID: str = "ServiceNow-AI/AgentJudgeBench"

# --- generators (config name -> value used in judge configs' `generator` column) -------------
GENERATORS: list[str] = [
    "llama_3_3_70b_instruct",
    "llama_3_1_8b_instruct",
    "qwen3_32b",
    "smollm3_3b",
    "gpt5_4",
]
# The judge configs spell GPT-5.4 as a generator `gpt_5_4`; the generator config is `gpt5_4`.
# The four open-weight generators: the paper's "12 (g, d) configurations" (data/paper/README.md item 1).
OPEN_WEIGHT_GENERATORS: list[str] = [g for g in GENERATORS if g != "gpt5_4"]
GENERATOR_ALIASES: dict[str, str] = {"gpt_5_4": "gpt5_4", "gpt-5.4": "gpt5_4"}

# --- judges --------------------------------------------------------------------------------
MAIN_JUDGES: list[str] = [
    "judge_gpt_5_4",
    "judge_claude_large",
    "judge_gemini_2_5_pro",
    "judge_qwq_32b",
    "judge_gpt_oss_20b",
    "judge_gpt_oss_120b",
]
BASELINE_JUDGES: list[str] = ["judge_prometheus2_7b"]
JUDGES: list[str] = MAIN_JUDGES + BASELINE_JUDGES
# Earlier hub file names of judge configs (the hub renamed them; see DESIGN.md).
JUDGE_ALIASES: dict[str, str] = {"judge_reranker_gemini": "judge_gemini_2_5_pro"}

MAIN_CONFIG: str = "main"

# --- metrics: canonical name and its three spellings -----------------------------------------
METRICS: list[str] = [
    "tool_selection",
    "parameter_structure",
    "sequence_accuracy",
    "query_coverage",
]
P_COLUMNS: dict[str, str] = {  # the generations frame's programmatic score columns
    "tool_selection": "p_tool",
    "parameter_structure": "p_param",
    "sequence_accuracy": "p_seq",
    "query_coverage": "p_cov",
}
SCORE_COLUMNS: dict[str, str] = {m: f"score_{m}" for m in METRICS}  # the published scores' columns
PROMPT_KEYS: dict[str, str] = {
    "tool_selection": "tool_selection_accuracy",
    "parameter_structure": "parameter_structure_accuracy",
    "sequence_accuracy": "sequence_accuracy",
    "query_coverage": "query_coverage_accuracy",
}
METRIC_DISPLAY: dict[str, str] = {
    "tool_selection": "Tool selection",
    "parameter_structure": "Parameter structure",
    "sequence_accuracy": "Sequence accuracy",
    "query_coverage": "Query coverage",
}
OVERALL_SCORE_COLUMN: str = "overall_programmatic_score"


# --- conditions ----------------------------------------------------------------------------
MAIN_CONDITIONS: list[str] = ["with_gt", "without_gt"]
# Conditions the judge runner can produce beyond the released two (see DESIGN.md / issue 4).
EXTRA_CONDITIONS: list[str] = [
    "without_gt_05",  # C2: without-GT prompt with a 0.5 default
    "corrupted_gt",  # C3: reference swapped for another record's of the same topology
    "freeform",  # A5: minimal free-form prompt (shows the reference)
    "prometheus",  # W.4: Prometheus-style absolute grading, one call per metric
    "deref",  # seed 004: derived reference in the reference slot
]
CONDITIONS: list[str] = MAIN_CONDITIONS + EXTRA_CONDITIONS
CONDITION_DISPLAY: dict[str, str] = {
    "with_gt": "With GT",
    "without_gt": "Without GT",
    "without_gt_05": "Without GT (0.5-default)",
    "corrupted_gt": "Corrupted GT",
    "freeform": "Free-form",
    "prometheus": "Prometheus-style",
    "deref": "Derived reference",
}

# --- difficulties and topologies -------------------------------------------------------------
DIFFICULTIES: list[str] = ["easy", "medium", "hard"]
TOPOLOGIES: list[str] = [
    "linear",
    "fan_out",
    "fan_in",
    "diamond",
    "optional_enrichment",
    "loop_like",
]
# The label a record with a null dag_type gets in per-topology counts (it is in no topology, but
# it is counted, never dropped silently).
NO_TOPOLOGY: str = "(no topology)"


def topology_labels(values: Any) -> Any:
    """Return a dag_type Series as strings, nulls (and their string spellings) as NO_TOPOLOGY."""
    out = values.astype(object).where(values.notna(), NO_TOPOLOGY).astype(str)
    return out.where(~out.isin(["nan", "None", ""]), NO_TOPOLOGY)


TOPOLOGY_DISPLAY: dict[str, str] = {
    "linear": "Linear",
    "fan_out": "Fan-Out",
    "fan_in": "Fan-In",
    "diamond": "Diamond",
    "optional_enrichment": "Optional Enrichment",
    "loop_like": "Loop-Like",
}

# --- display names (paper spelling) ----------------------------------------------------------
DISPLAY: dict[str, str] = {
    "llama_3_3_70b_instruct": "Llama-3.3-70B",
    "llama_3_1_8b_instruct": "Llama-3.1-8B",
    "qwen3_32b": "Qwen3-32B",
    "smollm3_3b": "SmolLM3-3B",
    "gpt5_4": "GPT-5.4",
    "judge_gpt_5_4": "GPT-5.4",
    "judge_claude_large": "Claude Sonnet 4.5",
    "judge_gemini_2_5_pro": "Gemini-2.5-Pro",
    "judge_qwq_32b": "QwQ-32B",
    "judge_gpt_oss_20b": "GPT-OSS-20B",
    "judge_gpt_oss_120b": "GPT-OSS-120B",
    "judge_prometheus2_7b": "Prometheus-2",
}
# Parameter counts (billions) used for the judge tier gap of RQ2; frontier models have no public
# count, so they share the top tier (rank order is what Spearman uses).
JUDGE_TIER: dict[str, int] = {
    "judge_gpt_oss_20b": 1,
    "judge_qwq_32b": 2,
    "judge_gpt_oss_120b": 3,
    "judge_gpt_5_4": 4,
    "judge_claude_large": 4,
    "judge_gemini_2_5_pro": 4,
}

# Column contracts of the released configs (dataset card, seeds/003).
MAIN_COLUMNS: list[str] = [
    "id",
    "dag_type",
    "query_easy",
    "query_medium",
    "query_hard",
    "system_prompt",
    "available_tools",
    "expected_tool_calls",
]
GENERATOR_COLUMNS: list[str] = [
    "id",
    "dag_type",
    "difficulty",
    "user_query",
    "available_tools",
    "generated_tool_calls",
    "expected_tool_calls",
    *SCORE_COLUMNS.values(),
    OVERALL_SCORE_COLUMN,
]
JUDGE_COLUMNS: list[str] = ["id", "generator", "difficulty", "dag_type", *MAIN_CONDITIONS]
# What the loader cannot do without (the rest is optional and filled if missing).
REQUIRED_MAIN: list[str] = ["id", "dag_type", "expected_tool_calls"]
REQUIRED_GENERATOR: list[str] = ["id", "difficulty", "generated_tool_calls"]
REQUIRED_JUDGE: list[str] = ["id", "generator", "difficulty"]


def display(name: str) -> str:
    """Return the paper's display name for a config name (the name itself if unknown)."""
    return DISPLAY.get(name, name)


def canonical_generator(name: str) -> str:
    """Return the generator config name for any spelling used in the release."""
    return GENERATOR_ALIASES.get(name, name)


def paper_sorted(df: Any, keys: Sequence[str]) -> Any:
    """Return a frame's rows stably sorted by `keys` in paper order ('all' after the generators, unknowns last)."""
    orders = {"generator": [*GENERATORS, "all"], "difficulty": DIFFICULTIES, "condition": CONDITIONS, "metric": METRICS}
    ranks = [df[k].astype(str).map({v: i for i, v in enumerate(orders[k])}).fillna(len(orders[k])) for k in keys]
    order = np.lexsort([r.to_numpy() for r in reversed(ranks)]) if ranks else np.arange(len(df))
    return df.iloc[order].reset_index(drop=True)
