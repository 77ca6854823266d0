"""The census rule (ajb_verify.census_rule) on planted sentences: one per class and one per kind of
check, each checked right (holds against its table) and wrong (fails), through the census maker's
own reading of the text (data/paper/census/make.py), as the v1 text is read."""

from __future__ import annotations

import importlib.util

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ajb_utils import paper
from ajb_verify import census_rule as rule

_SPEC = importlib.util.spec_from_file_location("make_census", paper.PAPER_DIR / "census" / "make.py")
make = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(make)


def _rows(text: str, section: str = "Appendix S") -> pd.DataFrame:
    """Return the census rows of one planted sentence, classified."""
    head = {"Appendix S": "## Appendix SPer-topology", "Appendix H": "## Appendix HCases", "§3.2": "## 3\\.2Judge"}
    return rule.classify(make.text_numbers(f"{head[section]}\n\n{text}\n"))


CLASSES = [
    ("Appendix S", "Gemini-2.5-Pro reaches 84.6% alignment on fan-in records.", "84.6", "data"),
    ("§3.2", "we score p = 1 - |E \u2216 G| / max(|E|, 1) for every record.", "1", "formula"),
    ("Appendix S", "a three-judge panel of Chen et al. reports 87.1% agreement.", "87.1", "reference"),
    ("Appendix S", "All generators are decoded at temperature 0 with native calls.", "0", "constant"),
    (
        "Appendix H",
        "Query: \u201cCloud bill hit $4,800 over 15 days\u201d, scored seq=0.33.",
        "4,800",
        "worked example",
    ),
    ("Appendix S", "Contributions. 1A dataset of records and a new protocol.", "1", "year or label"),
]


@pytest.mark.parametrize(("section", "text", "number", "cls"), CLASSES)
def test_each_class_on_a_planted_sentence(section: str, text: str, number: str, cls: str) -> None:
    r = _rows(text, section)
    got = r.loc[r["number"] == number, "class"]
    assert len(got) and (got == cls).all(), r[["number", "class", "context"]]


def test_every_class_is_planted() -> None:
    assert {c for *_, c in CLASSES} == set(rule.NUMBER_CLASSES)


# kind, sentence, the number, op, the table's values it speaks of, a wrong number of the same sentence
KINDS = [
    ("range/bound", "alignment varies by at most 0.6 pp across temperatures.", "0.6", "<=", [0.3, 0.6, 0.1], "0.4"),
    ("range/bound", "each record exposes 8-19 available tools.", "19", "hi", [8, 12, 19], "18"),
    ("N of M", "annotators accept 9 of 21 tool-selection disagreements.", "9", "=", [9], "8"),
    ("order/extreme", "the open judge moves from 1st to 4th against human verdicts.", "1", "=", [1], "2"),
    ("approximation", "the easiest topology reaches \u223c93% alignment.", "93", "~", [93.3], "88"),
    ("every member", "every judge stays above 77.0% on hard records.", "77.0", ">=", [77.2, 79.0, 84.6], "78.0"),
    ("value", "QwQ-32B reaches 89.3 on sequence accuracy.", "89.3", "=", [89.3], "89.5"),
]


@pytest.mark.parametrize(("kind", "text", "number", "op", "values", "wrong"), KINDS)
def test_each_kind_of_check_right_and_wrong(kind, text, number, op, values, wrong) -> None:
    r = _rows(text).set_index("number").loc[[number]].iloc[0]
    assert r["class"] == "data" and r["check kind"] == kind and r["op"] == op, r.to_dict()
    assert rule.check(number, op, pd.Series(values, dtype=float)) is True
    w = _rows(text.replace(number, wrong, 1)).set_index("number").loc[[wrong]].iloc[0]
    assert w["check kind"] == kind and rule.check(wrong, w["op"], pd.Series(values, dtype=float)) is False


def test_every_kind_is_planted() -> None:
    assert {k for k, *_ in KINDS} == set(rule.CHECK_KINDS)


def test_every_member_is_checked_on_each_member_not_the_mean() -> None:
    """'every judge above 80': one judge at 79 fails it though the mean of the judges is 84."""
    assert rule.check("80", ">=", pd.Series([79.0, 85.0, 88.0])) is False


@settings(max_examples=200, deadline=None)
@given(
    x=st.decimals(min_value=0, max_value=100, places=1),
    vals=st.lists(st.floats(0, 100, allow_nan=False), min_size=1, max_size=6),
)
def test_a_bound_holds_exactly_when_every_value_is_within_it(x, vals) -> None:
    s = pd.Series(vals)
    assert rule.check(str(x), "<=", s) == bool((s <= float(x) + 0.05 + 1e-9).all())
    assert rule.check(str(x), ">=", s) == bool((s >= float(x) - 0.05 - 1e-9).all())
