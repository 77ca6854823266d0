"""The messy rows the synthetic sample carries on purpose, so every loader rule runs on it.

Each case is one row (or one row change) in a written config, chosen at a fixed position so the
sample stays byte-deterministic. `load_bench` must count each in `bench.exclusions` (or, for the
think/fence output that parses by the authors' rules, in `bench.messages`):

- ``duplicate_judge_row``      an exact copy of a judge row             -> "duplicate judge row"
- ``one_sided_null``           a with-GT block without any verdict while
                               the without-GT block has them            -> "null judge verdict (whole condition)"
- ``null_topology``            a record whose dag_type is null          -> "null dag_type (...)"
- ``unparseable_then_valid``   an unparseable generator row before a
                               valid one for the same (id, difficulty)  -> "invalid row superseded by a valid one"
- ``out_of_range_score``       a judge verdict of 4 (a 1-5 rubric)      -> "judge verdict outside {0, 0.5, 1}"
- ``think_fence_output``       a plan stored as "<think>...</think>" and
                               a fenced JSON block                      -> kept; counted in bench.messages
"""

from __future__ import annotations

import copy
import json
from typing import Any

from ajb_utils.schema import METRICS

Rows = list[dict[str, Any]]

# config -> where each case goes (the generator and judge configs are the sample's own names)
DUPLICATE_JUDGE = "judge_claude_large"
ONE_SIDED_JUDGE = "judge_gpt_5_4"
ONE_SIDED_GENERATOR = "llama_3_1_8b_instruct"
OUT_OF_RANGE_JUDGE = "judge_qwq_32b"
RETRY_GENERATOR = "qwen3_32b"
THINK_GENERATOR = "smollm3_3b"
ROW = 5  # the position (among eligible rows) each case takes; small enough for the tiny scale


def _pick(rows: Rows, eligible: Any) -> int:
    """Return the index of the ROW-th eligible row (the last eligible one if there are fewer)."""
    idx = [i for i, r in enumerate(rows) if eligible(r)]
    if not idx:
        raise ValueError("no eligible row for a messy case")
    return idx[min(ROW, len(idx) - 1)]


def _has_verdicts(block: dict[str, Any] | None) -> bool:
    """Return True if a condition block has every metric's verdict."""
    return block is not None and all(block[m]["llm_score"] is not None for m in METRICS)


def null_block(block: dict[str, Any]) -> dict[str, Any]:
    """Return a condition block as a failed judge call writes it: no verdict, null overall."""
    out = copy.deepcopy(block)
    for m in METRICS:
        out[m].update(llm_score=None, justification=None, match_score=None)
    out["overall_alignment_pct"] = None
    return out


def add_messy_cases(
    main: Rows, gens: dict[str, Rows], judges: dict[str, Rows], runs: dict[str, Rows] | None = None
) -> dict[str, Any]:
    """Change the public rows in place (one row per case); return case -> (config, id, difficulty, generator).

    ``runs`` only take part in the null topology (their rows carry dag_type too).
    """
    done: dict[str, Any] = {}
    # a duplicated judge row
    rows = judges[DUPLICATE_JUDGE]
    i = _pick(rows, lambda r: True)
    rows.insert(i + 1, copy.deepcopy(rows[i]))
    done["duplicate_judge_row"] = (DUPLICATE_JUDGE, rows[i]["id"], rows[i]["difficulty"], rows[i]["generator"])
    # a one-sided null
    rows = judges[ONE_SIDED_JUDGE]
    i = _pick(
        rows,
        lambda r: (
            r["generator"] == ONE_SIDED_GENERATOR and _has_verdicts(r["with_gt"]) and _has_verdicts(r["without_gt"])
        ),
    )
    rows[i]["with_gt"] = null_block(rows[i]["with_gt"])
    done["one_sided_null"] = (ONE_SIDED_JUDGE, rows[i]["id"], rows[i]["difficulty"], rows[i]["generator"])
    # an out-of-range verdict
    rows = judges[OUT_OF_RANGE_JUDGE]
    i = _pick(rows, lambda r: _has_verdicts(r["with_gt"]))
    rows[i]["with_gt"]["tool_selection"].update(llm_score=4.0, match_score=None)
    done["out_of_range_score"] = (OUT_OF_RANGE_JUDGE, rows[i]["id"], rows[i]["difficulty"], rows[i]["generator"])
    # an unparseable generator row followed by a valid retry
    rows = gens[RETRY_GENERATOR]
    i = _pick(rows, lambda r: bool(r["generated_tool_calls"]))
    bad = {**rows[i], "generated_tool_calls": None}  # the release's spelling of an unparseable output
    bad.update({k: None for k in bad if k.startswith("score_") or k == "overall_programmatic_score"})
    rows.insert(i, bad)
    done["unparseable_then_valid"] = (RETRY_GENERATOR, rows[i]["id"], rows[i]["difficulty"], RETRY_GENERATOR)
    # a thinking generator's output with a fenced JSON block
    rows = gens[THINK_GENERATOR]
    i = _pick(rows, lambda r: bool(r["generated_tool_calls"]))
    rows[i]["generated_tool_calls"] = (
        "<think>The user wants a plan; I list the calls.</think>\n```json\n"
        + json.dumps(rows[i]["generated_tool_calls"])
        + "\n```"
    )
    done["think_fence_output"] = (THINK_GENERATOR, rows[i]["id"], rows[i]["difficulty"], THINK_GENERATOR)
    # a record without a topology (in every config that carries it)
    k = _pick(main, lambda r: True)
    rid = main[k]["id"]
    every = [main, *gens.values(), *judges.values(), *(runs or {}).values()]
    for r in (r for rs in every for r in rs):
        if r["id"] == rid:
            r["dag_type"] = None
    done["null_topology"] = ("main", rid, None, None)
    return done
