"""A tiny hub-shaped repository written by tests: 3 records, 1 generator, 1 judge.

`encoding="nested"` writes nested columns as JSON objects (Arrow structs after `datasets`),
`encoding="string"` writes every nested column as a JSON string; the content is identical.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ajb_utils.scoring import programmatic_scores

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": n,
            "description": n.replace("_", " "),
            "parameters": {
                "type": "dict",
                "properties": {k: {"type": "number", "description": k} for k in keys},
                "required": list(keys),
            },
        },
    }
    for n, keys in [
        ("get_load", ["site"]),
        ("predict", ["load", "hours"]),
        ("adjust", ["predicted", "cap"]),
        ("noise", ["x"]),
    ]
]


def _call(name: str, args: dict[str, Any], openai: bool = True) -> dict[str, Any]:
    """Return a call in OpenAI style (arguments as JSON string) or flat style (dict)."""
    if openai:
        return {"type": "function", "id": name, "function": {"name": name, "arguments": json.dumps(args)}}
    return {"name": name, "arguments": args}


EXPECTED = [
    _call("get_load", {"site": 1}),
    _call("predict", {"load": 2, "hours": 3}),
    _call("adjust", {"predicted": 4, "cap": 5}),
]
RECORDS = ["r1", "r2", "r3"]
# (id, difficulty) -> generated calls (None = unparseable, [] = empty plan)
GENERATED: dict[tuple[str, str], Any] = {
    ("r1", "easy"): EXPECTED,
    ("r1", "hard"): [
        _call("predict", {"load": 2, "hours": 3}, openai=False),
        _call("get_load", {"site": 1, "extra": 0}, openai=False),
    ],
    ("r2", "easy"): [_call("get_load", {"site": 1}), _call("noise", {"x": 1})],
    ("r2", "hard"): None,
    ("r3", "easy"): [],
    ("r3", "hard"): [_call("adjust", {"cap": 5})],
}


def _enc(value: Any, encoding: str) -> Any:
    """Return value JSON-encoded when encoding == 'string'."""
    return json.dumps(value) if encoding == "string" and value is not None else value


def _verdict(gen: Any, llm: dict[str, float | None]) -> dict[str, Any]:
    """Return a judge condition block for a generation with the given llm scores."""
    p = programmatic_scores(gen, EXPECTED)
    block: dict[str, Any] = {}
    for m, s in p.items():
        l = llm.get(m, 1.0)
        block[m] = {
            "llm_score": l,
            "justification": f"{m} ok",
            "programmatic_score": s,
            "match_score": None if l is None else round(1 - abs(s - l), 4),
        }
    block["overall_alignment_pct"] = 50.0
    return block


def write_mini_repo(root: Path, encoding: str = "nested") -> Path:
    """Write the mini repo under `root` and return it."""
    (root / "data").mkdir(parents=True, exist_ok=True)
    main = [
        {
            "id": r,
            "dag_type": "linear",
            "query_easy": "e",
            "query_medium": "m",
            "query_hard": "h",
            "system_prompt": "s",
            "available_tools": _enc(TOOLS, encoding),
            "expected_tool_calls": _enc(EXPECTED, encoding),
        }
        for r in RECORDS
    ]
    gens, judge = [], []
    for (rid, diff), gen in GENERATED.items():
        scores = programmatic_scores(gen, EXPECTED) if gen else None
        gens.append(
            {
                "id": rid,
                "dag_type": "linear",
                "difficulty": diff,
                "user_query": "q",
                "available_tools": _enc(TOOLS, encoding),
                "generated_tool_calls": _enc(gen, encoding),
                "expected_tool_calls": _enc(EXPECTED, encoding),
                **{
                    f"score_{m}": (scores or {}).get(m)
                    for m in ("tool_selection", "parameter_structure", "sequence_accuracy", "query_coverage")
                },
                "overall_programmatic_score": (sum(scores.values()) / 4 if scores else None),
            }
        )
        if gen:
            judge.append(
                {
                    "id": rid,
                    "generator": "gpt_5_4",
                    "difficulty": diff,
                    "dag_type": "linear",
                    "with_gt": _enc(_verdict(gen, {"sequence_accuracy": 0.5}), encoding),
                    "without_gt": _enc(_verdict(gen, {"tool_selection": None}), encoding),
                }
            )
    files = {"main": main, "gpt5_4": gens, "judge_gpt_5_4": judge}
    header = ["---", "configs:"]
    for name, rows in files.items():
        with open(root / "data" / f"{name}.jsonl", "w") as fh:
            for row in rows:
                fh.write(json.dumps(row) + "\n")
        header += [f"- config_name: {name}", "  data_files:", "  - split: train", f"    path: data/{name}.jsonl"]
    (root / "README.md").write_text("\n".join(header + ["---", "", "# mini test repo", ""]))
    return root
