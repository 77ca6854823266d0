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


def add_messy_cases(configs: dict[str, Rows]) -> dict[str, Any]:
    """Change the public rows of `configs` (name -> rows: main, generators, judges, runs) in place, one
    row per case; return case -> (config, id, difficulty, generator)."""
    done: dict[str, Any] = {}

    def case(name: str, config: str, i: int, generator: str | None = None) -> None:
        row = configs[config][i]
        done[name] = (config, row["id"], row["difficulty"], generator or row["generator"])

    rows = configs[DUPLICATE_JUDGE]  # a duplicated judge row
    i = _pick(rows, lambda r: True)
    rows.insert(i + 1, copy.deepcopy(rows[i]))
    case("duplicate_judge_row", DUPLICATE_JUDGE, i)
    rows = configs[ONE_SIDED_JUDGE]  # a one-sided null
    i = _pick(
        rows,
        lambda r: (
            r["generator"] == ONE_SIDED_GENERATOR and _has_verdicts(r["with_gt"]) and _has_verdicts(r["without_gt"])
        ),
    )
    for m in METRICS:  # the with-GT block as a failed judge call writes it: no verdict, null overall
        rows[i]["with_gt"][m].update(llm_score=None, justification=None, match_score=None)
    rows[i]["with_gt"]["overall_alignment_pct"] = None
    case("one_sided_null", ONE_SIDED_JUDGE, i)
    rows = configs[OUT_OF_RANGE_JUDGE]  # an out-of-range verdict
    i = _pick(rows, lambda r: _has_verdicts(r["with_gt"]))
    rows[i]["with_gt"]["tool_selection"].update(llm_score=4.0, match_score=None)
    case("out_of_range_score", OUT_OF_RANGE_JUDGE, i)
    rows = configs[RETRY_GENERATOR]  # an unparseable generator row followed by a valid retry
    i = _pick(rows, lambda r: bool(r["generated_tool_calls"]))
    bad = {**rows[i], "generated_tool_calls": None}  # the release's spelling of an unparseable output
    bad.update({k: None for k in bad if k.startswith("score_") or k == "overall_programmatic_score"})
    rows.insert(i, bad)
    case("unparseable_then_valid", RETRY_GENERATOR, i, RETRY_GENERATOR)
    rows = configs[THINK_GENERATOR]  # a thinking generator's output with a fenced JSON block
    i = _pick(rows, lambda r: bool(r["generated_tool_calls"]))
    rows[i]["generated_tool_calls"] = (
        "<think>The user wants a plan; I list the calls.</think>\n```json\n"
        + json.dumps(rows[i]["generated_tool_calls"])
        + "\n```"
    )
    case("think_fence_output", THINK_GENERATOR, i, THINK_GENERATOR)
    rid = configs["main"][_pick(configs["main"], lambda r: True)]["id"]  # a record without a topology
    for r in (r for rows in configs.values() for r in rows if r["id"] == rid):
        r["dag_type"] = None
    done["null_topology"] = ("main", rid, None, None)
    return done
