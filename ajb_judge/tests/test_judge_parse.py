"""Parser: think blocks, fences, prose, repair, aliases, snapping, truncation, refusals."""

from __future__ import annotations

import json

import pytest

from ajb_judge.parse import (
    parse_deriver,
    parse_generator,
    parse_judge,
    parse_prometheus,
    parse_rewrite,
    snap,
    strip_think,
)

GOOD = {
    "tool_selection_accuracy": {"accuracy": 1.0, "justification": "a"},
    "parameter_structure_accuracy": {"accuracy": 0.5, "justification": "b"},
    "sequence_accuracy": {"accuracy": 1, "justification": "c"},
    "query_coverage_accuracy": {"accuracy": 0.0, "justification": "d"},
    "overall_assessment": "x",
}
S = json.dumps(GOOD)
EXPECT = {"tool_selection": 1.0, "parameter_structure": 0.5, "sequence_accuracy": 1.0, "query_coverage": 0.0}


@pytest.mark.parametrize(
    "text",
    [
        S,
        f"```json\n{S}\n```",
        f"Here is my evaluation: {S} Let me know.",
        f'<think>I think {{"a": 1}} maybe</think>{S}',
        f"<thinking>hmm</thinking>\n```\n{S}\n```",
        f"reasoning text without opening tag</think>{S}",
    ],
)
def test_judge_reply_shapes(text: str) -> None:
    v = parse_judge(text)
    assert v.status == "ok" and v.scores == EXPECT and not v.repaired
    assert v.justifications["tool_selection"] == "a"


def test_reasoning_field_and_unclosed_think() -> None:
    assert parse_judge("", reasoning=f"thinking... {S}").scores == EXPECT
    v = parse_judge(f"<think>long thought {S}")  # the answer never left the think block
    assert v.status == "ok" and v.source.startswith("think")


def test_repair_is_flagged() -> None:
    v = parse_judge(S.replace('"b"}', '"b"},').replace('}, "seq', '},, "seq'))
    assert v.status == "ok" and v.repaired
    v = parse_judge(
        "{'tool_selection': 1, 'parameter_structure': 0.5, 'sequence_accuracy': True, 'query_coverage': 0,}"
    )
    assert v.status == "ok" and v.repaired and v.scores["sequence_accuracy"] == 1.0


def test_aliases_and_near_miss_snapping() -> None:
    v = parse_judge(
        json.dumps({"scores": {"Tool Selection": {"score": 0.98}, "param": "0.5", "sequence": 0.52, "coverage": "0,5"}})
    )
    assert v.status == "ok"
    assert v.scores == {
        "tool_selection": 1.0,
        "parameter_structure": 0.5,
        "sequence_accuracy": 0.5,
        "query_coverage": 0.5,
    }
    assert any("snapped 0.98->1" in n for n in v.notes) and any("decimal comma" in n for n in v.notes)
    assert snap("n/a")[0] is None


@pytest.mark.parametrize(
    "raw,expect",
    [
        (0, 0.0),
        (1, 1.0),
        (0.5, 0.5),
        ("1", 1.0),
        (True, 1.0),
        (0.97, 1.0),
        (0.03, 0.0),
        ("1/2", 0.5),
        ("2/2", 1.0),
        ("0/2", 0.0),
        ("0,5", 0.5),
        ("1.0 (fully correct)", 1.0),
        # off-scale: a 1-5 or percentage answer is unreadable, never rescaled into a silent 0
        (5, None),
        (4, None),
        (3, None),
        (2, None),
        (1.5, None),
        (0.8, None),
        (0.25, None),
        (90, None),
        (-1, None),
        ("4/5", None),
        ("3", None),
        ("1/0", None),
        ("high", None),
        (None, None),
        (float("nan"), None),
    ],
)
def test_snap_scale(raw, expect) -> None:
    value, note = snap(raw)
    assert value == expect
    if expect is None or raw not in (0, 1, 0.5, "1"):
        assert note  # every change or refusal is explained


def test_one_to_five_answer_is_parse_error_not_zero() -> None:
    obj = {k: {"accuracy": s, "justification": "j"} for k, s in zip(list(GOOD)[:4], [5, 4, 3, 5], strict=True)}
    v = parse_judge(json.dumps(obj))
    assert v.status == "parse_error" and set(v.scores.values()) == {None}
    assert sum("off-scale" in n for n in v.notes) == 4
    for raw in (2, 1.5, 3, "4/5"):
        bad = json.loads(S)
        bad["sequence_accuracy"]["accuracy"] = raw
        v = parse_judge(json.dumps(bad))
        assert v.status == "parse_error" and v.scores["sequence_accuracy"] is None and v.scores["tool_selection"] == 1.0
    for raw, want in (("1/2", 0.5), ("2/2", 1.0), ("0,5", 0.5)):
        fixed = json.loads(S)
        fixed["sequence_accuracy"]["accuracy"] = raw
        v = parse_judge(json.dumps(fixed))
        assert (
            v.status == "ok"
            and v.scores["sequence_accuracy"] == want
            and any("sequence_accuracy:" in n for n in v.notes)
        )


def test_two_objects_and_unflagged_truncation() -> None:
    other = json.loads(S)
    other["tool_selection_accuracy"]["accuracy"] = 0.0
    v = parse_judge(f"First pass: {S}\nOn reflection: {json.dumps(other)}")
    assert v.status == "ambiguous" and set(v.scores.values()) == {None} and "2 complete JSON verdicts" in v.notes[0]
    same = parse_judge(f"```json\n{S}\n```\nAgain: {S}")  # the same verdict twice is not ambiguous
    assert same.status == "ok" and same.scores == EXPECT and not same.notes  # fence and prose: one object
    second = S.replace('"a"', '"a, on reflection"')
    rephrased = parse_judge(f"{S}\nFinal: {second}")
    assert rephrased.status == "ok" and any("2 JSON verdicts with the same scores" in n for n in rephrased.notes)
    cut = S[: S.index('"overall_assessment"') + 25]  # all four metrics, then cut mid-string
    v = parse_judge(cut, finish_reason="stop")
    assert v.status == "incomplete" and v.repaired and any("cut short" in n for n in v.notes)
    assert parse_judge(cut, finish_reason="length").status == "truncated"
    assert parse_judge(S, finish_reason="content_filter").status == "content_filter"


def test_prometheus_scale_is_flagged() -> None:
    r = parse_prometheus("Feedback: ok [RESULT] 4")
    assert r["status"] == "ok" and r["score"] == 0.5 and r["notes"] == ["prometheus 1-5 mapped 4->0.5"]
    for bad in ("Feedback: x [RESULT] 7", "Feedback: x [RESULT] 4.5", "Feedback: x [RESULT] 0"):
        r = parse_prometheus(bad)
        assert r["status"] == "parse_error" and r["score"] is None and "off-scale" in r["notes"][0]


def test_failure_statuses() -> None:
    assert parse_judge(S[: len(S) // 2], finish_reason="length").status == "truncated"
    assert parse_judge("The plan looks fine.").status == "parse_error"
    assert parse_judge("I'm sorry, I can't help with that.").status == "refused"
    partial = dict(GOOD)
    partial.pop("query_coverage_accuracy")
    v = parse_judge(json.dumps(partial))
    assert v.status == "parse_error" and v.scores["tool_selection"] == 1.0 and v.scores["query_coverage"] is None


def test_strip_think() -> None:
    assert strip_think("<think>a</think>b") == ("b", "<think>a</think>")
    assert strip_think("x<think>never closed")[0] == "x"


def test_other_parsers() -> None:
    assert parse_prometheus("Feedback: fine [RESULT] 5")["score"] == 1.0
    assert parse_prometheus("Feedback: meh. Score: 3")["score"] == 0.5
    assert parse_prometheus("no score")["status"] == "parse_error"
    g = parse_generator('<think>x</think>```json\n[{"function": {"name": "f", "arguments": "{\\"a\\": 1}"}}]\n```')
    assert g["status"] == "ok" and g["calls"] == [{"name": "f", "arguments": {"a": 1}}]
    assert parse_generator("[]")["calls"] == [] and parse_generator("oops")["calls"] is None
    assert parse_deriver('{"expected_calls": [{"name": "f", "arguments": {}}]}')["status"] == "ok"
    r = parse_rewrite(
        '{"medium_preserves_gt": "yes", "hard_preserves_gt": true, "medium_harder_than_easy": false, '
        '"hard_harder_than_medium": 1}'
    )
    assert r["status"] == "ok" and r["verdicts"]["medium_preserves_gt"] is True
