"""Simulated generators for the synthetic sample: error injection into the reference trace.

A generation starts from the record's expected calls and applies a Poisson number of error
modes whose rates depend on the generator and the difficulty (``sample_judges.yaml``,
``generators:``). Every function takes an explicit ``numpy.random.Generator``. `build_generations`
makes a generator config's rows, their published scores exactly what
``ajb_utils.scoring.programmatic_scores`` gives.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from ajb_sample.records import VOCAB, draw_value, openai_calls
from ajb_sample.streams import Rng, rng_for
from ajb_utils import schema
from ajb_utils.schema import DIFFICULTIES, GENERATORS, METRICS
from ajb_utils.scoring import programmatic_scores

ERROR_MODES: list[str] = [
    "dropped_call",
    "swapped_order",
    "distractor_tool",
    "hallucinated_tool",
    "missing_required_key",
    "extra_key",
    "duplicated_call",
    "extra_call",
    "wrong_value",
]
HALLUCINATED_SUFFIX = ["details", "info", "v2", "lookup"]


def tool_keys(record: dict[str, Any]) -> dict[str, list[str]]:
    """Return tool name -> property names for every available tool of a record."""
    return {t["function"]["name"]: list(t["function"]["parameters"]["properties"]) for t in record["available_tools"]}


def plausible_value(key: str, rng: Rng) -> Any:
    """Return a value for an argument key the generator adds (typed as the vocabulary says)."""
    spec = VOCAB["params"].get(key)
    if spec is None:
        return round(float(rng.uniform(1, 999)), 2) if key.endswith("_score") else "TBD"
    return draw_value(key, spec, rng)


def apply_error(calls: list[dict[str, Any]], mode: str, record: dict[str, Any], rng: Rng) -> bool:
    """Apply one error mode in place; return False when it does not apply to this plan."""
    keys = tool_keys(record)
    gt_names = {c["name"] for c in record["_calls"]}
    distractors = [n for n in record["_distractors"] if n not in gt_names]
    if mode == "dropped_call" and len(calls) >= 2:
        del calls[int(rng.integers(len(calls)))]
    elif mode == "swapped_order":
        pairs = [i for i in range(len(calls) - 1) if calls[i]["name"] != calls[i + 1]["name"]]
        if not pairs:
            return False
        i = int(rng.choice(pairs))
        calls[i], calls[i + 1] = calls[i + 1], calls[i]
    elif mode in ("distractor_tool", "extra_call") and distractors and calls:
        name = str(rng.choice(distractors))
        new = {"name": name, "arguments": {k: plausible_value(k, rng) for k in keys[name][:3]}}
        if mode == "distractor_tool":
            calls[int(rng.integers(len(calls)))] = new
        else:
            calls.insert(int(rng.integers(len(calls) + 1)), new)
    elif mode == "hallucinated_tool" and calls:
        i = int(rng.integers(len(calls)))
        noun = calls[i]["name"].split("_", 1)[1]
        calls[i] = {"name": f"get_{noun}_{rng.choice(HALLUCINATED_SUFFIX)}", "arguments": dict(calls[i]["arguments"])}
    elif mode == "missing_required_key":
        cands = [i for i, c in enumerate(calls) if c["arguments"]]
        if not cands:
            return False
        c = calls[int(rng.choice(cands))]
        del c["arguments"][str(rng.choice(list(c["arguments"])))]
    elif mode == "extra_key" and calls:
        c = calls[int(rng.integers(len(calls)))]
        spare = [k for k in keys.get(c["name"], []) if k not in c["arguments"]]
        key = str(rng.choice(spare if spare and rng.random() < 0.7 else ["notes", "limit", "region", "dry_run"]))
        if key in c["arguments"]:
            return False
        c["arguments"][key] = plausible_value(key, rng)
    elif mode == "duplicated_call" and calls:
        i = int(rng.integers(len(calls)))
        calls.insert(i + 1, copy.deepcopy(calls[i]))
    elif mode == "wrong_value":
        cands = [
            (i, k)
            for i, c in enumerate(calls)
            for k, v in c["arguments"].items()
            if isinstance(v, int | float) and not isinstance(v, bool)
        ]
        if not cands:
            return False
        i, k = cands[int(rng.integers(len(cands)))]
        calls[i]["arguments"][k] = round(calls[i]["arguments"][k] * float(rng.uniform(1.2, 3)), 2)
    else:
        return False
    return True


def realise_values(
    calls: list[dict[str, Any]], record: dict[str, Any], difficulty: str, placeholder: float, rng: Rng
) -> bool:
    """Rewrite argument values as a generator would write them; return True if any differ."""
    differ = False
    for i, call in enumerate(calls):
        prov = record["_provenance"][i]
        for k in list(call["arguments"]):
            if prov.get(k) == "history" and rng.random() < placeholder:
                call["arguments"][k] = f"{{output of step {max(1, i)}}}"
                differ = True
            elif difficulty == "hard" and record["_hard_how"].get(f"{i}:{k}") == "omitted":
                call["arguments"][k] = plausible_value(k, rng)
                differ = True
    return differ


def simulate_generation(
    record: dict[str, Any], difficulty: str, profile: dict[str, Any], rng: Rng
) -> tuple[list[dict[str, Any]] | None, list[str], bool]:
    """Return (calls or None if unparseable, error modes applied, values-differ flag)."""
    if rng.random() < profile["unparseable"][difficulty]:
        return None, ["unparseable"], False
    if rng.random() < profile["empty"][difficulty]:
        return [], ["empty_plan"], False
    calls = copy.deepcopy(record["_calls"])
    differ = realise_values(calls, record, difficulty, profile["placeholder"], rng)
    weights = np.array([profile["modes"].get(m, 0.0) for m in ERROR_MODES], dtype=float)
    applied: list[str] = []
    for _ in range(int(rng.poisson(profile["errors"][difficulty]))):
        mode = ERROR_MODES[int(rng.choice(len(ERROR_MODES), p=weights / weights.sum()))]
        if apply_error(calls, mode, record, rng):
            applied.append(mode)
            differ = differ or mode == "wrong_value"
    if not calls:
        return [], applied + ["empty_plan"], False
    return calls, applied, differ


def tool_overlap(calls: list[dict[str, Any]] | None, expected: list[dict[str, Any]]) -> float:
    """Return the Jaccard overlap of predicted and expected tool-name sets."""
    g = {c["name"] for c in calls or []}
    e = {c["name"] for c in expected}
    return len(g & e) / max(len(g | e), 1)


def build_generations(
    records: list[dict[str, Any]], generator: str, prof: dict[str, Any], seed: int
) -> list[dict[str, Any]]:
    """Return one generation per (record, difficulty) of a generator with profile `prof`: config row plus
    private fields."""
    rng = rng_for(seed, 2, GENERATORS.index(generator))
    rows = []
    for rec in records:
        for d in DIFFICULTIES:
            calls, modes, vdev = simulate_generation(rec, d, prof, rng)
            gen = openai_calls(calls, "call_")
            scores = None if gen is None else programmatic_scores(gen, rec["expected_tool_calls"])
            row = {
                "id": rec["id"],
                "dag_type": rec["dag_type"],
                "difficulty": d,
                "user_query": rec[f"query_{d}"],
                "available_tools": rec["available_tools"],
                "generated_tool_calls": gen,
                "expected_tool_calls": rec["expected_tool_calls"],
            }
            for m in METRICS:
                row[schema.SCORE_COLUMNS[m]] = None if scores is None else scores[m]
            row[schema.OVERALL_SCORE_COLUMN] = None if scores is None else round(sum(scores.values()) / len(METRICS), 4)
            row["_modes"], row["_vdev"] = modes, vdev
            row["_overlap"] = tool_overlap(calls, rec["_calls"])
            row["_extra_key_only"] = extra_key_only(calls, rec["_calls"])
            rows.append(row)
    return rows


def extra_key_only(calls: list[dict[str, Any]] | None, expected: list[dict[str, Any]]) -> bool:
    """Return True if some predicted call has all expected keys plus extras (Eq. 2's 0.5 case)."""
    last = {c["name"]: set(c["arguments"]) for c in expected}
    return any(c["name"] in last and last[c["name"]] < set(c["arguments"]) for c in calls or [])
