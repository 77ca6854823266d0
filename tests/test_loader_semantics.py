"""What loaded rows mean on messy input (issue 14 items 2, 4-7; issue 9 §2): each test guards one bug."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ajb_utils import calls as C
from ajb_utils import schema, scoring, stats
from ajb_utils.data import load_bench
from ajb_utils.data import read as reader
from mini_repo import EXPECTED, write_mini_repo


def _rows(path: Path) -> list[dict]:
    """Return the JSON lines of a file."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _write(path: Path, rows: list[dict]) -> None:
    """Write rows as JSON lines."""
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def _reasons(bench) -> dict[str, int]:
    """Return exclusion counts by reason."""
    return bench.exclusions.groupby("reason").size().to_dict()


# ------------------------------------------------------------------ item 2: duplicate judge rows
def test_duplicate_judge_row_is_an_exclusion_not_a_second_vote(tmp_path):
    # a basename of its own: the datasets cache is keyed by folder basename (issue 14 item 1)
    root = write_mini_repo(tmp_path / "duplicate_judge_row")
    path = root / "data" / "judge_gpt_5_4.jsonl"
    rows = _rows(path)
    copy = json.loads(json.dumps(rows[0]))  # r1 easy, a perfect plan (p = 1 everywhere)
    for m in ("tool_selection", "parameter_structure", "sequence_accuracy", "query_coverage"):
        copy["with_gt"][m]["llm_score"] = 0.0  # the copy disagrees: averaging would give 0.5
    _write(path, rows + [copy])
    bench = load_bench(root, runs=None)
    v = bench.verdicts
    key = ["id", "generator", "difficulty", "judge", "condition", "metric"]
    assert not v.duplicated(key).any()
    assert _reasons(bench)["duplicate judge row"] == 1
    r1 = v[(v["id"] == "r1") & (v["difficulty"] == "easy") & (v["condition"] == "with_gt")]
    assert r1.loc[r1["metric"] == "sequence_accuracy", "llm_score"].item() == 0.5  # first row kept
    mu = stats.record_alignment(v, missing="miss")
    assert (mu["mu"] <= 1.0).all()


def test_stats_refuse_duplicate_rows_instead_of_choosing_one():
    """record_alignment, pairwise_agreement and bootstrap_diff_ci share one row rule: a key twice is an error."""
    rows = [
        ("r1", "g", "easy", j, c, "tool_selection", 1.0, 1.0) for j in ("A", "B") for c in ("with_gt", "without_gt")
    ]
    rows.append(("r1", "g", "easy", "A", "with_gt", "tool_selection", 0.0, 1.0))
    v = pd.DataFrame(rows, columns=["id", "generator", "difficulty", "judge", "condition", "metric", "llm_score", "p"])
    v["match"] = 1 - (v["p"] - v["llm_score"]).abs()
    for fn in (
        lambda: stats.record_alignment(v),
        lambda: stats.pairwise_agreement(v, "with_gt"),
        lambda: stats.bootstrap_diff_ci(v, by="judge", n_resamples=10, seed=0),
    ):
        with pytest.raises(ValueError, match="duplicate"):
            fn()


# ------------------------------------------------------------------ item 4: null topology
def test_null_dag_type_record_stays_in_alignment_and_is_reported(tmp_path):
    root = write_mini_repo(tmp_path / "r")
    path = root / "data" / "main.jsonl"
    rows = _rows(path)
    rows[0]["dag_type"] = None  # r1
    _write(path, rows)
    bench = load_bench(root, runs=None)
    assert "null dag_type" in " ".join(bench.exclusions["reason"])
    rec = stats.record_alignment(bench.verdicts)
    assert "r1" in set(rec["id"].astype(str))
    cells = stats.align(bench.verdicts)
    n_records = (
        bench.verdicts.drop_duplicates(["id", "difficulty", "condition"]).groupby("condition", observed=True).size()
    )
    assert cells.groupby("condition", observed=True)["n"].sum().to_dict() == n_records.to_dict()
    jury = stats.soft_jury(bench.verdicts, ["judge_gpt_5_4"])
    assert "r1" in set(jury["id"].astype(str))


# ------------------------------------------------------------------ item 5: de-duplication order
def test_unparseable_then_valid_retry_keeps_the_valid_generation(tmp_path):
    root = write_mini_repo(tmp_path / "r")
    path = root / "data" / "gpt5_4.jsonl"
    rows = _rows(path)
    bad = next(r for r in rows if r["id"] == "r2" and r["difficulty"] == "hard")
    assert bad["generated_tool_calls"] is None
    retry = {
        **bad,
        "generated_tool_calls": EXPECTED,
        **{f"score_{m}": 1.0 for m in ("tool_selection", "parameter_structure", "sequence_accuracy", "query_coverage")},
    }
    _write(path, rows + [retry])
    bench = load_bench(root, runs=None)
    g = bench.generations
    assert ((g["id"] == "r2") & (g["difficulty"] == "hard")).sum() == 1
    reasons = _reasons(bench)
    assert reasons.get("unparseable generator output", 0) == 0  # not an Appendix D exclusion
    assert reasons["invalid row superseded by a valid one"] == 1


# ------------------------------------------------------------------ item 6: range of llm_score
def test_out_of_range_llm_score_is_an_exclusion(tmp_path):
    root = write_mini_repo(tmp_path / "r")
    path = root / "data" / "judge_gpt_5_4.jsonl"
    rows = _rows(path)
    rows[0]["with_gt"]["tool_selection"]["llm_score"] = 4  # a 1-5 rubric's 4
    rows[0]["with_gt"]["query_coverage"]["llm_score"] = 0.4999999  # float noise snaps to 0.5
    _write(path, rows)
    bench = load_bench(root, runs=None)
    v = bench.verdicts
    assert (v["match"].dropna() >= 0).all() and (v["match"].dropna() <= 1).all()
    assert _reasons(bench)["judge verdict outside {0, 0.5, 1}"] == 1
    assert set(v["llm_score"].dropna().unique()) <= {0.0, 0.5, 1.0}


# ------------------------------------------------------------------ item 7: calls
def test_arguments_null_string_is_no_arguments_like_none():
    a = C.normalize_call({"function": {"name": "f", "arguments": "null"}})
    b = C.normalize_call({"function": {"name": "f", "arguments": None}})
    assert a == b == {"name": "f", "arguments": {}}


def test_json_string_function_field_is_decoded():
    call = {"type": "function", "function": json.dumps({"name": "f", "arguments": {"x": 1}})}
    assert C.normalize_call(call) == {"name": "f", "arguments": {"x": 1}}
    assert C.normalize_call({"function": "f", "arguments": {"x": 1}}) == {"name": "f", "arguments": {"x": 1}}


def test_bootstrap_cells_with_nan_in_by_keeps_that_cell():
    df = pd.DataFrame({"g": ["a", "a", None, None], "v": [1.0, 0.0, 1.0, 1.0]})
    out = stats.bootstrap_cells(df, by=["g"], value="v", n_resamples=50, seed=0)
    assert len(out) == 2 and out["n"].sum() == 4
    assert out.loc[out["g"].isna(), "mean"].item() == 1.0


# ------------------------------------------------------------------ issue 9: the authors' parse rules
def test_think_and_fence_output_is_read_as_the_authors_scorer_does():
    plan = [{"name": "get_load", "arguments": {"site": 1}}]
    text = "<think>maybe [not json]</think>\n```json\n" + json.dumps(plan) + "\n```"
    assert C.normalize_calls(text) == plan
    assert C.normalize_calls("<think>a</think><think>b</think> " + json.dumps(plan)) == plan
    assert C.try_normalize_calls("<think>only thoughts")[0] is None
    assert C.normalize_calls(json.dumps(text)) == plan  # JSON-encoded once more, as datasets stores it


def test_think_fence_generation_loads_as_valid(tmp_path):
    root = write_mini_repo(tmp_path / "think_fence")
    path = root / "data" / "gpt5_4.jsonl"
    rows = _rows(path)
    bad = next(r for r in rows if r["id"] == "r2" and r["difficulty"] == "hard")
    bad["generated_tool_calls"] = "<think>plan</think>\n```json\n" + json.dumps(EXPECTED) + "\n```"
    for m in ("tool_selection", "parameter_structure", "sequence_accuracy", "query_coverage"):
        bad[f"score_{m}"] = 1.0
    _write(path, rows)
    bench = load_bench(root, runs=None)
    assert ((bench.generations["id"] == "r2") & (bench.generations["difficulty"] == "hard")).sum() == 1
    assert any("</think>" in m for m in bench.messages)
    assert scoring.check_published_scores(bench).empty


# ------------------------------------------------------------------ issue 20.1: null-valued argument keys
def test_a_null_valued_key_is_not_an_argument_in_any_encoding():
    want = [{"name": "f", "arguments": {"x": 1}}]
    assert C.normalize_calls('[{"name": "f", "arguments": {"x": 1, "y": null}}]') == want
    assert C.normalize_calls([{"name": "f", "arguments": {"x": 1, "y": None}}]) == want
    assert C.normalize_calls([{"name": "f", "arguments": '{"x": 1, "y": null}'}]) == want
    assert (
        C.normalize_calls(
            [{"function": {"name": "f", "arguments": {"x": 1, "y": None}}, "name": None, "arguments": None}]
        )
        == want
    )  # an Arrow struct


def test_check_published_scores_groups_mismatches_by_cause(tmp_path):
    root = write_mini_repo(tmp_path / "r")
    path = root / "data" / "gpt5_4.jsonl"
    rows = _rows(path)
    r1 = next(r for r in rows if r["id"] == "r1" and r["difficulty"] == "easy")
    plan = json.loads(json.dumps(EXPECTED))
    plan[0]["function"]["arguments"] = json.dumps({"site": 1, "note": None})  # extra null key
    r1["generated_tool_calls"] = plan  # published scores stay those of a null-dropping scorer
    other = next(r for r in rows if r["id"] == "r3" and r["difficulty"] == "hard")
    other["score_tool_selection"] = 0.123
    rounded = next(r for r in rows if r["id"] == "r2" and r["difficulty"] == "easy")
    rounded["score_query_coverage"] = float(rounded["score_query_coverage"]) - 5e-4
    _write(path, rows)
    bad = scoring.check_published_scores(load_bench(root, runs=None))
    causes = bad.groupby("cause", observed=True).size().to_dict()
    assert causes == {"other": 1, "rounding": 1}  # a null-valued key is not an argument (issue 20 §1): no mismatch
    assert sorted(bad["metric"]) == ["query_coverage", "tool_selection"]
    assert list(bad["cause"].cat.categories) == list(scoring.MISMATCH_CAUSES)  # every cause reachable


# ------------------------------------------------------------------ issue 20.2: one dedup policy
def test_a_null_judge_row_then_its_valid_retry_keeps_the_retry(tmp_path):
    root = write_mini_repo(tmp_path / "null_then_retry")
    path = root / "data" / "judge_gpt_5_4.jsonl"
    rows = _rows(path)
    failed = json.loads(json.dumps(rows[0]))  # r1 easy, a failed call: no verdict at all
    for cond in ("with_gt", "without_gt"):
        for m in ("tool_selection", "parameter_structure", "sequence_accuracy", "query_coverage"):
            failed[cond][m]["llm_score"] = None
        failed[cond]["overall_alignment_pct"] = None
    _write(path, [failed] + rows)  # the failed row first, then its valid retry
    bench = load_bench(root, runs=None, cache=False)
    v = bench.verdicts
    r1 = v[(v["id"] == "r1") & (v["difficulty"] == "easy") & (v["condition"] == "with_gt")]
    assert r1["llm_score"].notna().all() and len(r1) == 4
    assert r1.loc[r1["metric"] == "sequence_accuracy", "llm_score"].item() == 0.5
    reasons = _reasons(bench)
    assert reasons.get("duplicate judge row", 0) == 0
    assert reasons["invalid row superseded by a valid one"] == 1
    assert reasons.get("null judge verdict (whole condition)", 0) == 0


def _openai(name, args):
    """Return one call in the released encoding (arguments as given)."""
    return {"type": "function", "id": "c", "function": {"name": name, "arguments": args}}


def _calls(*pairs) -> list[dict]:
    """Return canonical calls from (name, arguments) pairs."""
    return [{"name": n, "arguments": a} for n, a in pairs]


# a call list in every encoding the loader meets -> what `try_normalize_calls` makes of it
CALL_CASES = [
    ([_openai("f", '{"x": 1, "y": null}'), _openai("g", "{}")], (_calls(("f", {"x": 1}), ("g", {})), None)),
    ([_openai("f", '{"big": 12345678901234567890123}')], (_calls(("f", {"big": 12345678901234567890123})), None)),
    ([_openai("f", "  ")], (_calls(("f", {})), None)),  # empty arguments text: no arguments
    ([_openai("f", "null")], (_calls(("f", {})), None)),  # JSON null: no arguments
    ([_openai("f", '{"x": 1')], (None, "unparseable: arguments are not valid JSON: Expecting ',' delimiter")),
    ([_openai("f", "[1, 2]")], (None, "unparseable: arguments must be an object, got list")),
    ([_openai("", "{}")], (None, "unparseable: a call has no tool name")),
    ([_openai("f", {"x": 1, "y": None})], (_calls(("f", {"x": 1})), None)),  # arguments as an object (structs)
    ([{"name": "f", "arguments": '{"x": 2}'}], (_calls(("f", {"x": 2})), None)),  # flat call
    ('[{"name": "f", "arguments": {"x": 3}}]', (_calls(("f", {"x": 3})), None)),  # a plan stored as text
    ("<think>t</think>```json\n[]\n```", ([], None)),  # text read by the authors' rules: an empty plan
    ([], ([], None)),
    (None, (None, "unparseable: null output")),
    (float("nan"), (None, "unparseable: null output")),
    ("not json", (None, "unparseable: malformed JSON: Expecting value at char 0")),
]


@pytest.mark.parametrize(("value", "want"), CALL_CASES)
def test_every_call_encoding_normalises_to_its_canonical_calls(value, want):
    """Each encoding of a call list gives the canonical calls written out here, or its reason."""
    assert C.try_normalize_calls(value) == want


def test_arguments_keep_what_the_standard_library_reads():
    """An integer of any length stays exact, and NaN (which orjson rejects) is read."""
    calls, _ = C.try_normalize_calls([_openai("f", '{"x": NaN, "n": 12345678901234567890123}')])
    assert np.isnan(calls[0]["arguments"]["x"]) and calls[0]["arguments"]["n"] == 12345678901234567890123


def test_a_tool_in_the_released_encoding_normalises_as_its_json_text():
    """A tool as an object (the released encoding) and as JSON text give one canonical schema."""
    tool = {
        "type": "function",
        "function": {
            "name": "f",
            "description": None,
            "parameters": {"type": "dict", "properties": {"a": {"type": "string"}, "b": None}, "required": ["a", None]},
        },
    }
    assert (
        C.normalize_tool(tool)
        == C.normalize_tool(json.dumps(tool))
        == {
            "name": "f",
            "description": "",
            "properties": {"a": {"type": "string"}},
            "required": ["a"],
        }
    )


def _encoded(part: dict | None, how: int) -> object:
    """Return one part of a tool schema in one encoding: an object as itself or as its JSON text (padded or
    not); an absent part as None, the JSON text null, or blank text."""
    if part is None:
        return [None, "null", "", "  "][how % 4]
    return [part, json.dumps(part), f" {json.dumps(part)} "][how % 3]


PROPERTY = st.none() | st.fixed_dictionaries({"type": st.sampled_from(["string", "integer"])})


@given(
    name=st.sampled_from(["f", "get_load"]),
    description=st.none() | st.text(max_size=5),
    properties=st.none() | st.dictionaries(st.sampled_from("abc"), PROPERTY, max_size=3),
    required=st.none() | st.lists(st.none() | st.sampled_from("abc"), max_size=3),
    how=st.lists(st.integers(0, 11), min_size=3, max_size=3),
)
def test_a_tool_normalises_alike_in_every_encoding_of_its_parts(name, description, properties, required, how):
    """A tool whose function, parameters and properties are each an object, its JSON text, or (absent) null,
    the text null or blank text normalises to one schema: its name, its description ("" when null), its
    properties without null-valued ones and its required names without nulls."""
    params = None if properties is None and required is None else {"type": "dict"}
    if params is not None:
        params |= {"properties": _encoded(properties, how[0]), "required": required}
    fn = {"name": name, "description": description, "parameters": _encoded(params, how[1])}
    tool = {"type": "function", "function": _encoded(fn, how[2])}
    want = {
        "name": name,
        "description": description or "",
        "properties": {k: v for k, v in (properties or {}).items() if v is not None},
        "required": [r for r in required or [] if r is not None],
    }
    assert C.normalize_tool(tool) == C.normalize_tool(json.dumps(tool)) == want
    assert C.normalize_tools([tool]) == C.normalize_tools(json.dumps([tool])) == [want]


def _judge_line(i: int, **blocks) -> dict:
    """Return one judge row for record r<i> (generator g, easy) with the given condition blocks."""
    return {"id": f"r{i}", "generator": "gpt5_4", "difficulty": "easy", "dag_type": "linear", **blocks}


def _block(score=1.0, **override) -> dict:
    """Return a condition block in the released encoding (every metric scored `score`)."""
    entry = {"llm_score": score, "justification": "j", "programmatic_score": 1.0, "match_score": score}
    return {
        **{m: dict(entry) for m in ("tool_selection", "parameter_structure", "sequence_accuracy", "query_coverage")},
        "overall_alignment_pct": 100 * score,
        **override,
    }


JUDGE_FILES = {
    "released": [_judge_line(i, with_gt=_block(0.5 * (i % 3)), without_gt=_block()) for i in range(6)],
    "null and missing blocks": [
        _judge_line(0, with_gt=None, without_gt=_block()),
        _judge_line(1, without_gt=_block(0.5)),
        _judge_line(2, with_gt=_block(), without_gt=None),
    ],
    "a missing metric": [_judge_line(0, with_gt={"tool_selection": {"llm_score": 1.0}}, without_gt=_block())],
    "a null metric": [_judge_line(0, with_gt=_block(tool_selection=None)), _judge_line(1, with_gt=_block(0.0))],
    "a null verdict and integers": [
        _judge_line(
            0,
            with_gt=_block(tool_selection={"llm_score": None}),
            without_gt=_block(1, query_coverage={"llm_score": 0, "match_score": 1}),
        )
    ],
    "other spellings": [
        _judge_line(0, with_gt={"tool_selection_accuracy": {"score": 1}, "sequence_accuracy": {"accuracy": 0.5}})
    ],
    "a verdict spelt accuracy": [_judge_line(0, with_gt=_block(tool_selection={"llm_score": None, "accuracy": 0.5}))],
    "an extra field in a metric": [_judge_line(0, with_gt=_block(tool_selection={"llm_score": 0.5, "reasoning": "r"}))],
    "numbers as text": [_judge_line(0, with_gt=_block(tool_selection={"llm_score": "0.5"}))],
    "a block as JSON text": [_judge_line(0, with_gt=json.dumps(_block()), without_gt=_block())],
    "a condition present but always null": [_judge_line(0, with_gt=_block(), without_gt=None)],
    "an unknown condition": [_judge_line(0, with_gt=_block(), with_gt_cot=_block())],
    "a duplicate row": [_judge_line(0, with_gt=_block(0.0)), _judge_line(0, with_gt=_block(1.0))],
    "booleans": [_judge_line(0, with_gt=_block(tool_selection={"llm_score": True}))],
    "an id as a number": [{**_judge_line(0, with_gt=_block()), "id": 7}],
    "rationales missing in some rows, text only in a dropped row": [
        _judge_line(0, with_gt=_block(tool_selection={"llm_score": 1, "justification": None})),
        _judge_line(1, with_gt=_block(tool_selection={"llm_score": 0})),
        _judge_line(9, with_gt=_block(sequence_accuracy={"llm_score": 1, "justification": "only here"})),
        _judge_line(2, with_gt=_block(sequence_accuracy={"llm_score": 0.5})),
    ],
    "a justification that is not text": [
        _judge_line(0, with_gt=_block(tool_selection={"llm_score": 1, "justification": 3}))
    ],
}


def _judge_index():
    """Return the generations of records r0..r5 (generator gpt5_4, easy; every p 1)."""
    return pd.DataFrame(
        {
            "id": [f"r{i}" for i in range(6)],
            "generator": "gpt5_4",
            "difficulty": "easy",
            **{p: 1.0 for p in scoring.P_COLUMNS.values()},
        }
    )


@pytest.mark.parametrize("justifications", [False, True], ids=["numbers", "justifications"])
@pytest.mark.parametrize("case", sorted(JUDGE_FILES))
def test_judge_file_and_judge_rows_give_the_same_verdicts(tmp_path, case, justifications):
    """A judge file (the loader's read) and the same rows as Python values (`datasets`' rows, a
    static judge's frame: `build_verdicts(DataFrame)`) give the same verdicts, justifications,
    exclusions and unknown columns: one decoding (`read.read_files`) for both."""
    from ajb_utils.data.build import build_verdicts
    from ajb_utils.data.read import frame_rows, read_files
    from ajb_utils.data.rules import EXCLUSION_COLUMNS, exclusion_frame

    path = tmp_path / "judge.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in JUDGE_FILES[case]))
    index = _judge_index()
    from_file, from_rows = (
        read_files([path], "judge", justifications),
        read_files([frame_rows(pd.DataFrame(JUDGE_FILES[case]))], "judge"),
    )
    out = []
    for raw in (from_file, pd.DataFrame(JUDGE_FILES[case])):
        excl: list = []
        v = build_verdicts(raw, "judge_x", index, excl, justifications)
        out.append((v, exclusion_frame(excl).sort_values(list(EXCLUSION_COLUMNS)).reset_index(drop=True)))
    pd.testing.assert_frame_equal(out[0][0], out[1][0], check_exact=True)
    pd.testing.assert_frame_equal(out[0][1], out[1][1], check_exact=True)
    assert from_file.unknown == from_rows.unknown == (["with_gt_cot"] if case == "an unknown condition" else [])


NAN = float("nan")
# encoding -> (judge rows, the with_gt columns they give: metric.field -> one value per row)
ENCODINGS = {
    "nested (the released layout)": (
        [_judge_line(0, with_gt=_block(0.5)), _judge_line(1, with_gt=None)],
        {"tool_selection.llm_score": [0.5, NAN], "tool_selection.match_score": [0.5, NAN]},
    ),
    "a block as JSON text": (
        [
            _judge_line(0, with_gt=json.dumps(_block(0.5))),
            _judge_line(1, with_gt="not json"),
            _judge_line(2, with_gt=7),
        ],
        {"tool_selection.llm_score": [0.5, NAN, NAN], "query_coverage.programmatic_score": [1.0, NAN, NAN]},
    ),
    "other spellings": (
        [
            _judge_line(
                0,
                with_gt={
                    "tool_selection_accuracy": {"score": 1},
                    "sequence_accuracy": {"accuracy": 0.5, "score": 1},
                    "score_query_coverage": {"llm_score": 0, "match_score": 1},
                    "parameter_structure": None,
                    "parameter_structure_accuracy": {"llm_score": 1},
                },
            ),
            _judge_line(1, with_gt={"tool_selection": "n/a", "tool_selection_accuracy": {"llm_score": 1}}),
            _judge_line(2, with_gt={"tool_selection": {"llm_score": None, "accuracy": None, "score": 1}}),
        ],
        {
            "tool_selection.llm_score": [1.0, NAN, NAN],  # the first non-null spelling wins, an object or not
            "sequence_accuracy.llm_score": [0.5, NAN, NAN],
            "query_coverage.llm_score": [0.0, NAN, NAN],
            "query_coverage.match_score": [1.0, NAN, NAN],
            "parameter_structure.llm_score": [1.0, NAN, NAN],
        },
    ),
    "numbers as text and booleans": (
        [
            _judge_line(0, with_gt=_block(tool_selection={"llm_score": "0.5", "match_score": "x"})),
            _judge_line(1, with_gt=_block(tool_selection={"llm_score": True, "programmatic_score": "1"})),
        ],
        {
            "tool_selection.llm_score": [0.5, 1.0],
            "tool_selection.match_score": [NAN, NAN],
            "tool_selection.programmatic_score": [NAN, 1.0],
        },
    ),
}


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_judge_columns_of_each_encoding(tmp_path, encoding):
    """Every encoding the loader takes is decoded into the same flat columns (written out here)
    by `read.read_files`, whether from a file or from Python rows (a static judge's rows)."""
    from ajb_utils.data.read import frame_rows, read_files

    rows, want = ENCODINGS[encoding]
    path = tmp_path / "judge.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for raw in (read_files([path], "judge"), read_files([frame_rows(pd.DataFrame(rows))], "judge")):
        got = raw.rows
        assert got["id"].astype(str).tolist() == [r["id"] for r in rows] and raw.bad == []
        for name, values in want.items():
            column = got[f"with_gt.{name}"].to_numpy()
            assert column.dtype == (np.float64 if name.endswith("llm_score") else np.float32)
            np.testing.assert_array_equal(column, np.array(values, dtype=column.dtype))
        assert "without_gt.tool_selection.llm_score" not in got  # a condition no row has


def test_a_malformed_line_is_counted_and_a_cut_last_line_is_an_error(tmp_path):
    """A malformed line or a line that is not an object is a counted `bad` entry (the reasons of
    the standard library's json), the other lines read as they are; a file that ends inside a line is an error."""
    from ajb_utils.data.bench import IncompleteDataError
    from ajb_utils.data.read import read_files

    good = [json.dumps(_judge_line(i, with_gt=_block(0.5 * i))) for i in range(3)]
    path = tmp_path / "judge.jsonl"
    nan = good[0].replace('"llm_score": 0.0', '"llm_score": NaN', 1)  # what Arrow and Python read, not JSON
    path.write_text("\n".join([good[0], "{not json", "", "[1, 2]", good[1], good[2], nan]) + "\n")
    raw = read_files([path], "judge")
    with pytest.raises(json.JSONDecodeError) as exc:
        json.loads("{not json")
    nan_is_bad = f"{path}: line 7: NaN is not a JSON value"
    assert raw.bad == [f"{path}: line 2: {exc.value}", f"{path}: line 4: not an object", nan_is_bad] and raw.n == 6
    assert read_files([path], "generator").bad == raw.bad  # the same rule for every config
    assert raw.rows["with_gt.tool_selection.llm_score"].tolist() == [0.0, 0.5, 1.0]
    path.write_text("\n".join([good[0], "{not json", "", "[1, 2]", good[1], good[2]]) + "\n")
    raw = read_files([path], "judge")
    (tmp_path / "released.jsonl").write_text("\n".join(good) + "\n")
    released = read_files([tmp_path / "released.jsonl"], "judge").rows
    pd.testing.assert_frame_equal(raw.rows, released, check_exact=True)  # the loose read of released rows
    path.write_text("\n".join(good) + '\n{"id": "r3", "gen')
    with pytest.raises(IncompleteDataError, match="ends inside a line"):
        read_files([path], "judge")


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_a_number_that_is_not_json_is_a_malformed_line_in_a_released_file(tmp_path, literal):
    """A released-layout judge file whose one flaw is NaN or an infinity (which Arrow's reader
    takes) has that line counted bad, by file and line, and its other lines read as they are;
    the same literal inside a rationale's text is text."""
    from ajb_utils.data.read import read_files

    good = [json.dumps(_judge_line(i, with_gt=_block(0.5 * i))) for i in range(3)]
    flawed = good[1].replace('"overall_alignment_pct": 50.0', f'"overall_alignment_pct": {literal}', 1)
    assert flawed != good[1]
    path = tmp_path / "judge.jsonl"
    path.write_text("\n".join([good[0], flawed, good[2]]) + "\n")
    raw = read_files([path], "judge")
    assert raw.bad == [f"{path}: line 2: {literal} is not a JSON value"] and raw.n == 3
    assert raw.rows["with_gt.tool_selection.llm_score"].tolist() == [0.0, 1.0]
    path.write_text("\n".join([good[0].replace('"j"', f'"{literal} in words"'), good[2]]) + "\n")
    assert read_files([path], "judge").bad == []


GENERATOR_FILES = {
    "released": [
        {
            "id": "r0",
            "difficulty": "easy",
            "generated_tool_calls": [{"function": {"name": "f", "arguments": "{}"}}],
            "available_tools": [{"type": "function"}],
            "expected_tool_calls": [],
            "score_tool_selection": 1,
        }
    ],
    "text plans, a missing field and extras": [
        {"id": "r0", "difficulty": "easy", "generated_tool_calls": "[]", "user_query": "q", "other": {"x": [1]}},
        {"id": 5, "difficulty": "hard", "generated_tool_calls": None, "score_query_coverage": "0.5"},
    ],
    "a row that is not an object": [{"id": "r0", "difficulty": "easy", "generated_tool_calls": []}, [1, 2]],
    "no plans at all": [{"id": "r0", "difficulty": "easy"}],
}


@pytest.mark.parametrize("case", sorted(GENERATOR_FILES))
def test_generator_reader_gives_the_rows_pandas_reads(tmp_path, case):
    """A generator file gives, for every field the loader reads, the rows as pandas makes them
    of its JSON objects (NaN where a row lacks a field), and its malformed-line count."""
    from ajb_utils.data.read import read_files

    path = tmp_path / "gen.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in GENERATOR_FILES[case]))
    raw = read_files([path], "generator")
    rows = pd.DataFrame([r for r in GENERATOR_FILES[case] if isinstance(r, dict)])
    pd.testing.assert_frame_equal(raw.rows, rows[[c for c in reader.GENERATOR_FIELDS if c in rows]])
    assert len(raw.bad) == len(GENERATOR_FILES[case]) - len(rows)
    assert "available_tools" not in raw.rows


def _released_generation(i, **override):
    """Return one generator row in the released layout, every field given (record r<i>, easy)."""
    row = {
        "id": f"r{i}",
        "dag_type": "linear",
        "difficulty": "easy",
        "user_query": "q",
        "available_tools": [{"type": "function", "function": {"name": "f", "parameters": {"x": {"type": "int"}}}}],
        "generated_tool_calls": [_openai("f", '{"x": 1, "y": null}'), _openai("g", "{}")],
        "expected_tool_calls": [],
        **{c: 1.0 for c in schema.SCORE_COLUMNS.values()},
        "overall_programmatic_score": 1.0,
    }
    return {k: v for k, v in {**row, **override}.items() if v != "absent"}


def test_a_released_generator_file_read_by_arrow_gives_the_generations_of_its_rows(tmp_path):
    """A generator file in the released layout (read by Arrow's JSON reader, the fields the loader
    does not read skipped) gives the generations and exclusions its rows give through the
    line-by-line decoder: null and absent plans, a missing topology and score, an empty plan."""
    from ajb_utils.data.build import build_generations
    from ajb_utils.data.read import frame_rows, read_files
    from ajb_utils.data.rules import exclusion_frame

    rows = [
        _released_generation(0),
        _released_generation(1, generated_tool_calls=None, dag_type="absent"),
        _released_generation(2, generated_tool_calls="absent", score_query_coverage=None),
        _released_generation(3, generated_tool_calls=[], user_query="absent"),
        _released_generation(4, difficulty="hard", score_tool_selection=0),
    ]
    path = tmp_path / "gen.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert reader._arrow_generator_columns(path.read_bytes())[0] is not None  # the Arrow path is the one taken
    records = pd.DataFrame({"id": [f"r{i}" for i in range(5)], "dag_type": pd.Categorical(["linear"] * 5)})
    out = []
    for raw in (read_files([path], "generator"), read_files([frame_rows(pd.DataFrame(rows))], "generator")):
        excl, messages = [], []
        out.append((build_generations(raw, "gpt5_4", records, excl, messages), exclusion_frame(excl), messages))
    pd.testing.assert_frame_equal(out[0][0], out[1][0], check_exact=True)
    pd.testing.assert_frame_equal(out[0][1], out[1][1], check_exact=True)
    assert out[0][2] == out[1][2] and len(out[0][1]) == 3  # null, absent and empty plans left out
    flat = _released_generation(5, generated_tool_calls=[{"name": "g", "arguments": "{}"}])
    path.write_text(path.read_text() + json.dumps(flat) + "\n")
    assert reader._arrow_generator_columns(path.read_bytes())[0] is None  # a flat call: line by line


def test_snap_verdicts_equals_the_nearest_label_rule():
    """Snapping is 'the nearest of 0, 0.5, 1 within SNAP_TOL, else out of range' on edge values."""
    from ajb_utils.data.rules import SNAP_TOL, snap_verdicts

    rng = np.random.default_rng(3)
    edges = [0, 0.5, 1, -1e-7, 1 + 1e-7, 0.5 - 2e-6, 0.25, 0.75, 1.5, -0.5, 2, np.inf, -np.inf, np.nan, -0.0]
    llm = np.concatenate([edges, rng.choice([0, 0.5, 1], 500) + rng.normal(0, 2e-6, 500), rng.uniform(-1, 2, 500)])
    labels = np.array([0.0, 0.5, 1.0])
    dist = np.abs(llm[:, None] - labels[None, :])
    near = np.nan_to_num(dist, nan=np.inf).min(axis=1) <= SNAP_TOL
    want = np.where(near, labels[np.nan_to_num(dist, nan=np.inf).argmin(axis=1)], np.nan)
    got, out_of_range = snap_verdicts(llm)
    np.testing.assert_array_equal(got, want)
    assert not np.signbit(got[~np.isnan(got)]).any()  # -0.0 and -1e-7 are the label 0, not -0
    np.testing.assert_array_equal(out_of_range, ~np.isnan(llm) & ~near)


def test_a_condition_first_met_after_the_first_line_is_read(tmp_path):
    """The Arrow read types the conditions of the first line; one met only later is read too
    (the file read again with every known condition), as the line-by-line decoder reads it."""
    from ajb_utils.data.read import read_files

    rows = [_judge_line(0, with_gt=_block(0.5)), _judge_line(1, with_gt=_block(1.0), deref=_block(0.0))]
    path = tmp_path / "judge.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    got = read_files([path], "judge", True)
    np.testing.assert_array_equal(got.rows["deref.tool_selection.llm_score"], [np.nan, 0.0])
    np.testing.assert_array_equal(got.rows["with_gt.query_coverage.llm_score"], [0.5, 1.0])
    assert got.notes["deref.sequence_accuracy.justification"].to_pylist() == [None, "j"]
    loose = read_files(
        [path.write_text(path.read_text() + "\n\n") and path], "judge", True
    )  # blank lines: line by line
    pd.testing.assert_frame_equal(got.rows, loose.rows, check_exact=True)
