"""Computed sentences (ajb_utils.takeaways) on hand-made numbers and frames."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from ajb_utils import takeaways as tk


def test_compare_states_the_direction_with_its_ci() -> None:
    assert tk.compare("A", "B", 1.2, 0.5, 1.9) == "A exceeds B by 1.2 pp [0.5, 1.9]"
    assert tk.compare("A", "B", -0.8, -1.4, -0.2) == "A trails B by 0.8 pp [-1.4, -0.2]"


def test_a_ci_that_spans_zero_is_indistinguishable_not_equal() -> None:
    s = tk.compare("A", "B", 0.3, -0.4, 1.0)
    assert s == "A and B are indistinguishable: +0.3 pp [-0.4, 1.0], a CI that spans 0"
    assert "equal" not in s and "same" not in s
    assert tk.direction(0.3, -0.4, 1.0) == "indistinguishable"
    assert tk.direction(0.0, 0.0, 0.0) == "indistinguishable"  # a CI touching 0 is not a finding


def test_a_comparison_without_ci_says_so() -> None:
    assert tk.compare("A", "B", 2.0) == "A exceeds B by 2.0 pp (no CI computed)"
    assert tk.compare("A", "B", 0.0) == "A and B score the same (0.0 pp, no CI computed)"
    assert tk.compare("A", "B", math.nan).endswith("no difference could be computed")


def test_zero_width_ci_is_explained() -> None:
    s = tk.compare("A", "B", 2.0, 2.0, 2.0)
    assert s.startswith("A exceeds B by 2.0 pp [2.0, 2.0]") and "zero-width CI" in s
    assert "zero-width" not in tk.compare("A", "B", 2.0, 1.0, 3.0)


def test_sign_text_and_negative_zero() -> None:
    assert tk.sign_text("the lift", -1.26, -2.0, -0.5) == "the lift is negative: -1.3 pp [-2.0, -0.5]"
    assert tk.sign_text("the lift", 0.2, -0.1, 0.6).startswith("the lift is indistinguishable from 0: +0.2 pp")
    assert tk.num(-0.04) == "0.0" and tk.num(-0.04, signed=True) == "0.0"
    assert tk.num(None) == "n/a" and tk.num(float("nan")) == "n/a"


def test_order_and_rank_from_a_frame_column() -> None:
    t = pd.DataFrame({"judge": ["A", "B", "C", "D"], "align": [80.04, 81.2, 80.0, float("nan")]})
    s = t.set_index("judge")["align"]
    assert tk.order(s) == "B (81.2%) > A (80.0%) = C (80.0%)"
    assert tk.order(s, descending=False) == "C (80.0%) = A (80.0%) < B (81.2%)"
    assert tk.rank_of("C", s) == (3, 3)
    assert tk.rank_text("B", s) == "B ranks first of 3" and tk.rank_text("C", s) == "C ranks last of 3"
    assert tk.rank_text("A", {"A": 2.0, "B": 3.0, "C": 1.0}) == "A ranks 2 of 3"


def test_versus_counts_and_bullets() -> None:
    assert tk.versus("A", "B", 81.25, 80.0) == "A (81.2%) is above B (80.0%) by 1.2 pp (no CI computed)"
    assert tk.count_text(5, 5, "generators") == "all 5 generators"
    assert tk.count_text(0, 5, "generators") == "none of the 5 generators"
    assert tk.count_text(1, 5, "generators") == "1 of 5 generators"
    assert tk.bullets(["a first point", "", "b (ends in a bracket)"]) == "- A first point.\n- B (ends in a bracket)."


def test_check_says_right_or_wrong_and_why() -> None:
    assert tk.check("below", "below", "p-bar is the floor.") == "Right: the answer is below. p-bar is the floor."
    wrong = tk.check("above", "below", "p-bar is the floor.")
    assert wrong.startswith("Not this time: you predicted above, the data give below.") and wrong.endswith("floor.")


@pytest.mark.parametrize("dtype", ["Float64", "Int64", "float64", "object"])
def test_an_empty_series_of_any_dtype_reads_n_a(dtype: str) -> None:
    """A condition a run lacks leaves an empty series; its median is pd.NA for nullable dtypes."""
    empty = pd.Series([], dtype=dtype)
    assert tk.num(empty.median()) == "n/a" and tk.num(pd.NA, 2, True) == "n/a"
    assert tk.ci_text(pd.NA, empty.max()) == f"({tk.NO_CI})"
    assert (
        tk.compare("the run", "GPT-5.4", empty.mean(), pd.NA, pd.NA)
        == "the run vs GPT-5.4: no difference could be computed"
    )
    assert tk.direction(pd.NA) == "equal"


def test_a_lift_a_run_cannot_have_is_said_so_never_zero() -> None:
    assert tk.sign_text("its GT lift", float("nan")) == "its GT lift could not be computed on this data"
    assert tk.sign_text("its GT lift", pd.NA, pd.NA, pd.NA).endswith("could not be computed on this data")
    assert tk.check("yes", None, "No lift.") == "Cannot be checked on this data. No lift."


def test_check_accepts_a_number_within_the_printed_precision() -> None:
    """'you predicted 0.3333333333333333, the data give 0.3333' was a right answer called wrong."""
    assert tk.check(1 / 3, 0.3333, "").startswith("Right: the answer is 0.3333.")
    assert tk.check("0.33334", 0.3333, "").startswith("Right")  # within half a unit of the 4th decimal
    assert tk.check(0.3334, 0.3333, "").startswith("Not this time")  # one unit off the printed answer
    assert tk.check(86.14, 86.1, "").startswith("Right") and tk.check(86.2, 86.1, "").startswith("Not")
    assert tk.check(1.2, 1, "").startswith("Not")  # an integer answer is exact: 1.2 is not 1
    assert tk.check(2, 1, "").startswith("Not") and tk.check(1.6, 1, "").startswith("Not")
    assert tk.check("1", "1.0", "").startswith("Right")  # a number given as text
    assert tk.check(0.3333, 1 / 3, "").startswith("Right")  # an unrounded answer: the guess's own decimals
    assert tk.check(0.33, 1 / 3, "", digits=2).startswith("Right")  # unless the notebook says its precision
    assert tk.check(float("nan"), 0.5, "").startswith("Not")  # NaN is never a right number
    assert tk.check(0.26, float("nan"), "").startswith("Cannot be checked")  # nor an answer ('the data give nan')
    assert tk.check(True, 1, "").startswith("Not")  # a bool is not the number 1


def test_check_accepts_case_spaces_and_the_glossarys_spellings() -> None:
    assert tk.check("Tie", "tie", "").startswith("Right") and tk.check(" YES ", "yes", "").startswith("Right")
    assert tk.check("1 - p-bar", "1 - p\u0304", "").startswith("Right")  # the glossary's own symbol
    assert tk.check("1 \u2212 p\u0304", "1 - p-bar", "").startswith("Right")  # the other way, Unicode minus
    assert tk.check("1-pbar", "1 - p-bar", "").startswith("Right")
    assert tk.check("Kappa", "\u03ba", "").startswith("Right")
    assert tk.check("p-bar", "1 - p-bar", "").startswith("Not")  # a different answer stays wrong
    assert tk.check("ties", "tie", "").startswith("Not") and tk.check("below", "above", "").startswith("Not")
    assert tk.same_answer("mean p", "Mean  P") and not tk.same_answer("mean p", "share of p = 1")


def test_a_zero_width_ci_at_zero_is_explained_too() -> None:
    """10's Exercise 2 printed 'indistinguishable: 0.00 pp [0.00, 0.00]' without the note on a zero-width CI."""
    s = tk.compare("corrupted GT", "no GT", 0.0, 0.0, 0.0, digits=2)
    assert s.startswith("corrupted GT and no GT are indistinguishable: 0.00 pp [0.00, 0.00]") and "zero-width CI" in s
    assert "zero-width" not in tk.compare("A", "B", -0.04, -0.11, 0.0, digits=2)


def test_planted_text_reads_the_card_not_the_yaml() -> None:
    """What the sample planted is said from the loaded card's numbers; no card, nothing planted."""
    p = {
        "variant": "x",
        "knobs": "k.yaml",
        "leniency": {"with_gt": {"a": 0.6, "b": 0.6}, "without_gt": {"a": 0.4, "b": 0.92}, "without_gt_05": {"a": 0.5}},
        "anchoring": {"judge_gpt_5_4": 0.45, "judge_qwq_32b": 0.0},
        "errors_drawn": "independently",
    }
    text = tk.planted_text(p, ["compression", "anchoring", "errors"])
    assert "P = 40-92% without GT and 60% with GT" in text and "set it to 50%" in text
    assert "GPT-5.4 (45%) credit" in text and "QwQ" not in text
    assert "no judge anchors" in tk.planted_text({**p, "anchoring": {"judge_qwq_32b": 0.0}}, ["anchoring"])
    assert tk.planted_text({}, ["compression"]).startswith("Nothing planted")
