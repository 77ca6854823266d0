"""The sample's two annotation studies: synthetic human verdicts (App. G) and rewrite meta-judge verdicts (App. N)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ajb_sample.streams import Rng, hex_id, judge_generator_name, rng_for, valid_rows
from ajb_utils import schema
from ajb_utils.schema import METRICS, TOPOLOGIES

META_JUDGES: list[str] = ["gpt_5_4", "claude_large", "gemini_2_5_pro"]


def human_annotations(
    records: list[dict[str, Any]], gens: dict[str, list[dict[str, Any]]], seed: int
) -> list[dict[str, Any]]:
    """Return the 480-row synthetic human study: 20 hard records per topology (14 flawed, 6 perfect)."""
    rng = rng_for(seed, 5)
    prefs = ["llama_3_3_70b_instruct", "llama_3_1_8b_instruct", "qwen3_32b", "smollm3_3b", "gpt5_4"]
    hard = {g: {r["id"]: r for r in valid_rows(gens[g]) if r["difficulty"] == "hard"} for g in prefs}
    rows: list[dict[str, Any]] = []
    for topo in TOPOLOGIES:
        ids = [r["id"] for r in records if r["dag_type"] == topo]
        picked = pick_study_rows(ids, hard, prefs, n_flawed=14, n_perfect=6)
        for gen, grow in picked:
            rows.extend(annotate(grow, gen, rng))
    return rows


def is_perfect(row: dict[str, Any]) -> bool:
    """Return True when all four programmatic scores are 1."""
    return all(row[schema.SCORE_COLUMNS[m]] >= 1.0 for m in METRICS)


def pick_study_rows(
    ids: list[str], hard: dict[str, dict[str, dict[str, Any]]], prefs: list[str], n_flawed: int, n_perfect: int
) -> list[tuple[str, dict[str, Any]]]:
    """Return (generator, row) pairs, one per record: the flawed ones, then the perfect ones, each
    from the first generator in `prefs` with a row of that kind (fewer records: fewer of each)."""
    share = min(len(ids) / (n_flawed + n_perfect), 1)
    want = {True: max(1, round(n_perfect * share))}
    want[False] = min(max(1, round(n_flawed * share)), len(ids) - want[True])
    out: dict[str, tuple[str, dict[str, Any]]] = {}  # record id -> (generator, row), in pick order
    for perfect in (False, True):
        picked = 0
        for gen in prefs:
            for i in ids:
                row = hard[gen].get(i)
                if picked < want[perfect] and i not in out and row is not None and is_perfect(row) == perfect:
                    out[i], picked = (gen, row), picked + 1
    for i in ids:  # too few of one kind: fill with any valid hard generation of an unused record
        gen = next((g for g in prefs if i in hard[g]), None)
        if len(out) < want[True] + want[False] and i not in out and gen is not None:
            out[i] = (gen, hard[gen][i])
    return list(out.values())


HUMAN_NOTES = {
    "agree": "Agree with the programmatic score.",
    "extra_key": "Extra keys are valid per the schema; structure is fine.",
    "lenient": "Plan is acceptable; the deviation is harmless.",
    "strict": "A problem the scorer does not see.",
}

# P(the human disagrees with the programmatic score of a flawed metric)
DISAGREE = {"tool_selection": 0.2, "parameter_structure": 0.25, "sequence_accuracy": 0.05, "query_coverage": 0.03}


def annotate(row: dict[str, Any], generator: str, rng: Rng) -> list[dict[str, Any]]:
    """Return the four metric-level human verdicts of one study record."""
    out = []
    for m in METRICS:
        p = row[schema.SCORE_COLUMNS[m]]
        if m == "parameter_structure" and row["_extra_key_only"]:
            rate, corrected, note = 0.8, 1.0, "extra_key"
        elif p < 1.0:
            rate, corrected, note = DISAGREE[m], min(1.0, round(p + 0.5, 4)), "lenient"
        else:
            rate, corrected, note = 0.01, 0.5, "strict"
        if row["dag_type"] == "optional_enrichment":
            rate = min(1.0, rate * 1.8)
        agrees = bool(rng.random() >= rate)
        out.append(
            {
                "id": row["id"],
                "generator": judge_generator_name(generator),
                "difficulty": "hard",
                "dag_type": row["dag_type"],
                "metric": m,
                "programmatic_score": float(p),
                "human_agrees": agrees,
                "human_score": float(p) if agrees else float(corrected),
                "note": HUMAN_NOTES["agree" if agrees else note],
            }
        )
    return out


REWRITE_RATES: dict[str, dict[str, float]] = {  # per criterion: all-yes share, per-judge yes rates
    "medium_preserves": {"all_yes": 0.949, "gpt_5_4": 0.949, "claude_large": 1.0, "gemini_2_5_pro": 1.0},
    "hard_preserves": {"all_yes": 0.768, "gpt_5_4": 0.778, "claude_large": 1.0, "gemini_2_5_pro": 0.975},
    "medium_harder": {"all_yes": 0.576, "gpt_5_4": 0.621, "claude_large": 0.995, "gemini_2_5_pro": 0.848},
    "hard_harder": {"all_yes": 0.939, "gpt_5_4": 0.975, "claude_large": 1.0, "gemini_2_5_pro": 0.955},
}
PAIR: dict[str, str] = {"medium": "easy_medium", "hard": "medium_hard"}  # the rewrite a criterion judges


def rewrite_validation(records: list[dict[str, Any]], seed: int, per_topology: int = 33) -> list[dict[str, Any]]:
    """Return meta-judge verdicts on 33 triplets per topology (extra synthetic ids if needed)."""
    rng = rng_for(seed, 6)
    rows = []
    for topo in TOPOLOGIES:
        ids = [r["id"] for r in records if r["dag_type"] == topo][:per_topology]
        while len(ids) < per_topology:  # the small sample has fewer records than the study
            ids.append(hex_id(rng))
        for i in ids:
            for crit, rates in REWRITE_RATES.items():
                pair = PAIR[crit.split("_")[0]]
                for j, v in zip(META_JUDGES, meta_verdicts(rates, rng)):
                    rows.append(
                        {"id": i, "dag_type": topo, "meta_judge": j, "pair": pair, "criterion": crit, "verdict": v}
                    )
    return rows


def meta_verdicts(rates: dict[str, float], rng: Rng) -> list[bool]:
    """Return three meta-judge verdicts: unanimous yes w.p. all_yes, else each judge's no-rate."""
    if rng.random() < rates["all_yes"]:
        return [True] * len(META_JUDGES)
    no = np.array([(1 - rates[j]) / max(1 - rates["all_yes"], 1e-9) for j in META_JUDGES])
    verdicts = rng.random(len(META_JUDGES)) >= np.clip(no, 0.0, 1.0)
    if verdicts.all():
        verdicts[int(np.argmax(no))] = False
    return [bool(v) for v in verdicts]
