"""A tiny deterministic Bench-shaped fixture (records + generations) for tests and benchmarks.

Not the sample (that is ``ajb_sample``); just enough structure to drive the runner offline.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pandas as pd

from ajb_utils.schema import DIFFICULTIES, TOPOLOGIES


@dataclass
class ToyBench:
    """Bench-like container with `.records` and `.generations` (DATA_FORMAT.md section 4 columns)."""

    records: pd.DataFrame
    generations: pd.DataFrame
    source: str = "toy"
    label: str = "toy"
    synthetic: bool = True
    messages: list[str] = field(default_factory=list)


def _tool(name: str, params: list[str], required: list[str]) -> dict:
    """Return one tool schema in the bench's flat shape."""
    return {
        "name": name,
        "description": f"Compute the {name.replace('_', ' ')} for the given inputs.",
        "properties": {p: {"type": "number", "description": p.replace("_", " ")} for p in params},
        "required": required,
    }


def make_toy_bench(
    n_records: int = 12, generators: tuple[str, ...] = ("llama_3_1_8b_instruct", "qwen3_32b"), seed: int = 0
) -> ToyBench:
    """Return a ToyBench with n_records records x generators x 3 difficulties (p_* computed)."""
    from ajb_utils.scoring import score_frame

    rng = random.Random(seed)
    recs, gens = [], []
    for i in range(n_records):
        dag = TOPOLOGIES[i % len(TOPOLOGIES)]
        k = 2 + i % 3
        tools = [
            _tool(f"calc_metric_{j}_{i}", [f"amount_{j}", f"rate_{j}", "note"], [f"amount_{j}", f"rate_{j}"])
            for j in range(k)
        ]
        tools.append(_tool(f"unrelated_lookup_{i}", ["zone"], ["zone"]))
        vals = [(round(rng.uniform(10, 900), 2), rng.randint(2, 30)) for _ in range(k)]
        exp = [
            {"name": f"calc_metric_{j}_{i}", "arguments": {f"amount_{j}": a, f"rate_{j}": r}}
            for j, (a, r) in enumerate(vals)
        ]
        easy = " then ".join(
            f"calc metric {j} {i} with amount_{j}={a} and rate_{j}={r}" for j, (a, r) in enumerate(vals)
        )
        medium = " and after that ".join(f"work out metric {j} {i} for {a} at {r}" for j, (a, r) in enumerate(vals))
        hard = ", ".join(f"{a} at {r}" for a, r in vals) + f" - sort out the numbers for case {i}"
        rid = f"rec{i:05d}"
        recs.append(
            {
                "id": rid,
                "dag_type": dag,
                "query_easy": easy,
                "query_medium": medium,
                "query_hard": hard,
                "system_prompt": "Use the tools.",
                "tools": tools,
                "expected_calls": exp,
                "n_tools": len(tools),
                "n_expected_calls": len(exp),
            }
        )
        for g in generators:
            for d, q in zip(DIFFICULTIES, (easy, medium, hard), strict=True):
                calls = [dict(c, arguments=dict(c["arguments"])) for c in exp]
                r = rng.random()
                if r < 0.2 and len(calls) > 1:
                    calls = calls[:-1]  # missing call
                elif r < 0.35:
                    calls[0]["arguments"].pop(next(iter(calls[0]["arguments"])))  # missing param
                elif r < 0.45:
                    calls = list(reversed(calls))
                elif r < 0.5:
                    calls.append({"name": f"unrelated_lookup_{i}", "arguments": {"zone": "A"}})
                gens.append(
                    {
                        "id": rid,
                        "generator": g,
                        "difficulty": d,
                        "dag_type": dag,
                        "user_query": q,
                        "generated_calls": calls,
                    }
                )
    records = pd.DataFrame(recs)
    generations = score_frame(pd.DataFrame(gens), records.set_index("id")["expected_calls"])
    return ToyBench(records=records, generations=generations)
