"""Parser: think blocks, fences, prose, repair, aliases, snapping, truncation, refusals."""

from __future__ import annotations

import json

import pytest

from ajb_utils.judge.parse import (
    parse_deriver, parse_generator, parse_judge, parse_prometheus, parse_rewrite, snap, strip_think,
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


@pytest.mark.parametrize("text", [
    S,
    f"```json\n{S}\n```",
    f"Here is my evaluation: {S} Let me know.",
    f"<think>I think {{\"a\": 1}} maybe</think>{S}",
    f"<thinking>hmm</thinking>\n```\n{S}\n```",
    f"reasoning text without opening tag</think>{S}",
])
def test_judge_reply_shapes(text: str) -> None:
    v = parse_judge(text)
    assert v.status == "ok" and v.scores == EXPECT and not v.repaired
    assert v.justifications["tool_selection"] == "a"


def test_reasoning_field_and_unclosed_think() -> None:
    assert parse_judge("", reasoning=f"thinking... {S}").scores == EXPECT
    v = parse_judge(f"<think>long thought {S}")  # the answer never left the think block
    assert v.status == "ok" and v.source.startswith("think")


def test_repair_is_flagged() -> None:
    v = parse_judge(S.replace('"b"}', '"b"},').replace("}, \"seq", "},, \"seq"))
    assert v.status == "ok" and v.repaired
    v = parse_judge("{'tool_selection': 1, 'parameter_structure': 0.5, 'sequence_accuracy': True, 'query_coverage': 0,}")
    assert v.status == "ok" and v.repaired and v.scores["sequence_accuracy"] == 1.0


def test_aliases_and_snapping() -> None:
    v = parse_judge(json.dumps({"scores": {"Tool Selection": {"score": 0.8}, "param": "0.4", "sequence": 0.26,
                                           "coverage": 90}}))
    assert v.status == "ok"
    assert v.scores == {"tool_selection": 1.0, "parameter_structure": 0.5, "sequence_accuracy": 0.5, "query_coverage": 1.0}
    assert any("snapped" in n for n in v.notes)
    assert snap(0.25) == (0.5, "snapped 0.25->0.5") and snap("n/a")[0] is None


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
    r = parse_rewrite('{"medium_preserves_gt": "yes", "hard_preserves_gt": true, "medium_harder_than_easy": false, '
                      '"hard_harder_than_medium": 1}')
    assert r["status"] == "ok" and r["verdicts"]["medium_preserves_gt"] is True
