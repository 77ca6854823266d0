"""Property tests of the sentence vocabulary (ajb_utils.takeaways), issue 49.

Each sentence family has a reader here: a small parser that takes the printed words back to the
numbers they state and reports where the words contradict the numbers, the signs, the CIs or the
counts (`*_faults`). Hypothesis feeds the vocabulary random numbers and the reader must find no
fault; the issue's listed sentences, which the notebooks printed, are fed to the same readers and
must be caught (so the readers are not empty checks).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ajb_utils import takeaways as tk

NUM = r"[-+]?\d+(?:\.\d+)?"
NO_DEADLINE = settings(deadline=None)  # no wall-clock bound in a test: a loaded machine must not fail one
BAD_WORDS = re.compile(r"\b(nan|None|NaN|inf|Empty DataFrame)\b")

finite = st.floats(min_value=-200, max_value=200, allow_nan=False, allow_infinity=False)
maybe = st.one_of(finite, st.just(math.nan), st.none())


def printed(x: float, digits: int = 1) -> float:
    """Return x as the sentence prints it."""
    return float(f"{x:.{digits}f}")


def clean(text: str) -> bool:
    """Return True when a sentence has no 'nan', 'None' or 'Empty DataFrame' in it."""
    return not BAD_WORDS.search(text)


# ---- readers --------------------------------------------------------------------------------------


def compare_faults(text: str, lo: float | None, hi: float | None) -> list[str]:
    """Return what a comparison sentence gets wrong against its CI: a direction word outside its CI."""
    spans = lo is not None and hi is not None and not (math.isnan(lo) or math.isnan(hi)) and lo <= 0 <= hi
    out = []
    if spans and re.search(r"\b(exceeds|trails|higher|lower|more often|less often)\b", text):
        out.append("a direction where the CI spans 0")
    if lo is not None and not math.isnan(lo) and lo > 0 and "trails" in text:
        out.append("trails with a CI above 0")
    if hi is not None and not math.isnan(hi) and hi < 0 and "exceeds" in text:
        out.append("exceeds with a CI below 0")
    return out


def change_faults(text: str) -> list[str]:
    """Return what a change sentence gets wrong: a signed amount beside a direction word ('-4.2 pp more
    often' reads as more when it is less), or 'more'/'less' on an amount that prints as 0."""
    out = []
    for m in re.finditer(rf"({NUM}) pp(?: \[[^\]]*\])? (more|less)\b", text):
        if m.group(1).startswith(("-", "+")):
            out.append(f"a signed amount before a direction word: {m.group(0)!r}")
        if float(m.group(1)) == 0:
            out.append(f"a direction on a zero amount: {m.group(0)!r}")
    return out


def trend_faults(text: str) -> list[str]:
    """Return what a trend sentence gets wrong against the values it prints: rises/falls/flat against
    their order, and grows/shrinks against their size ('the excess grows' for a shrinking deficit)."""
    m = re.search(r"\(((?:" + NUM + r", )+" + NUM + r") pp", text)
    if not m:
        return ["no values printed"]
    v = [float(x) for x in m.group(1).split(", ")]
    steps = [b - a for a, b in zip(v, v[1:])]
    size = [abs(b) - abs(a) for a, b in zip(v, v[1:])]
    out = []
    if re.search(r"\brises\b", text) and not (all(s >= 0 for s in steps) and any(s > 0 for s in steps)):
        out.append("rises, but the values do not")
    if re.search(r"\bfalls\b", text) and not (all(s <= 0 for s in steps) and any(s < 0 for s in steps)):
        out.append("falls, but the values do not")
    if re.search(r"\bis flat\b", text) and any(steps):
        out.append("flat, but the values move")
    if re.search(r"\bnot monotone\b", text) and (all(s >= 0 for s in steps) or all(s <= 0 for s in steps)):
        out.append("not monotone, but they are")
    if re.search(r"\bgrows\b", text) and not (
        (all(x > 0 for x in v) or all(x < 0 for x in v)) and all(s >= 0 for s in size) and any(size)
    ):
        out.append("grows, but the size does not")
    if re.search(r"\bshrinks\b", text) and not (
        (all(x > 0 for x in v) or all(x < 0 for x in v)) and all(s <= 0 for s in size) and any(size)
    ):
        out.append("shrinks, but the size does not")
    if re.search(r"\bexcess\b", text) and all(x < 0 for x in v) and re.search(r"\bgrows\b", text):
        out.append("an excess that is a deficit")
    return out


def band_faults(text: str) -> list[str]:
    """Return what a band sentence gets wrong against the ranges it prints ('partly inside' for a row
    wholly inside)."""
    m = re.search(rf"\(({NUM})(?:-({NUM}))?%\) is (inside|partly inside|above|below) .*\(({NUM})(?:-({NUM}))?%\)", text)
    if not m:
        return ["no ranges printed"]
    lo, hi = float(m.group(1)), float(m.group(2) or m.group(1))
    blo, bhi = float(m.group(4)), float(m.group(5) or m.group(4))
    truth = (
        "inside" if blo <= lo and hi <= bhi else ("above" if lo > bhi else ("below" if hi < blo else "partly inside"))
    )
    return [] if m.group(3) == truth else [f"{m.group(3)} where the ranges say {truth}"]


def count_faults(text: str) -> list[str]:
    """Return what a count sentence gets wrong: 'k-k of n' (a range of one value), 'k of n' with k > n,
    '0 of n' (say none)."""
    out = []
    for m in re.finditer(r"\b(\d+)-(\d+) of (?:the )?(\d+)\b", text):
        a, b, n = map(int, m.groups())
        if a == b or a > b or b > n:
            out.append(f"a range of counts that is not one: {m.group(0)!r}")
    for m in re.finditer(r"(?<![-\d.])(\d+) of (?:the )?(\d+)\b", text):
        k, n = map(int, m.groups())
        if k > n or k == 0:
            out.append(f"an impossible or unspoken count: {m.group(0)!r}")
    return out


def ratio_faults(text: str, denom: float, lo: float | None, hi: float | None, expect: str) -> list[str]:
    """Return what a ratio sentence gets wrong: a number where the denominator is not the change it is
    called (a 'drop' that is a rise), prints as 0, or has a CI spanning 0."""
    undefined = (
        (lo is not None and hi is not None and lo <= 0 <= hi)
        or printed(denom) == 0
        or ((denom < 0) != (expect == "fall"))
    )
    if undefined and re.search(rf"{NUM}x", text):
        return ["a ratio over a denominator that does not have the direction it is named for"]
    if not undefined and not re.search(rf"{NUM}x", text):
        return ["no ratio where one is defined"]
    return []


def factor_faults(text: str) -> list[str]:
    """Return what a factor sentence gets wrong against 1: 'saves nothing (1.07x)' where it costs more."""
    m = re.search(rf"({NUM})x", text)
    if not m:
        return ["no factor printed"]
    g = float(m.group(1))
    if re.search(r"\b(saves nothing|no change|the same)\b", text) and g != 1.0:
        return [f"'no change' for {g}x"]
    if re.search(r"\b(cuts|saves|fewer)\b", text) and "saves nothing" not in text and g >= 1:
        return [f"a saving for {g}x"]
    if re.search(r"\b(costs|raises|more)\b", text) and g <= 1:
        return [f"a cost for {g}x"]
    return []


# ---- the issue's sentences are caught ------------------------------------------------------------


def test_the_readers_catch_the_issues_sentences() -> None:
    """Each listed false sentence (issue 49, 'Computed branches that miss cases') is a fault to its reader."""
    assert change_faults("judges say 1.0 on hard records -4.2 pp more often than the scorer gives p = 1")
    assert trend_faults("without GT: the excess grows from easy to hard (-8.0, -7.1, -4.1 pp)")
    assert band_faults("Prometheus-2 (84.0-90.0%) is partly inside the six judges' colour scale (82.5-94.5%)")
    assert factor_faults("run x: rho = -0.20, so pairing saves nothing (1.07x): its errors do not fall there")
    assert count_faults("the static judge beats 0-0 of the 6 LLM judges over the difficulties")
    assert ratio_faults("the without-GT change is 0.39x to 27.84x the with-GT change", 0.07, None, None, "fall")
    assert compare_faults("corrupted GT exceeds no GT by 0.1 pp [-0.4, 0.5]", -0.4, 0.5)
    # 10: 'corrupted GT tracks without GT' with both CIs spanning 0 (test_nearer_... below is its property)
    assert tk.nearer("with GT", "without GT", -0.3, -0.9, 0.4, 0.1, -0.5, 0.6).startswith("cannot be told")


def test_the_readers_pass_right_sentences() -> None:
    assert trend_faults("rises from easy to hard (-8.0, -7.1, -4.1 pp; below 0 throughout, so its size shrinks)") == []
    assert band_faults("X (84.0-90.0%) is inside the scale (82.5-94.5%)") == []
    assert count_faults("beats none of the 6 LLM judges; 2-4 of the 6 elsewhere; 3 of 5") == []


# ---- properties ----------------------------------------------------------------------------------


@st.composite
def ci(draw: st.DrawFn) -> tuple[float, float, float]:
    """Return (estimate, lo, hi) with lo <= estimate <= hi."""
    a, b, c = sorted(draw(st.lists(finite, min_size=3, max_size=3)))
    return b, a, c


@NO_DEADLINE
@given(ci())
def test_compare_words_follow_the_ci(est: tuple[float, float, float]) -> None:
    d, lo, hi = est
    text = tk.compare("A", "B", d, lo, hi)
    assert clean(text) and compare_faults(text, lo, hi) == []
    if printed(lo) > 0:
        assert "exceeds" in text
    if printed(hi) < 0:
        assert "trails" in text


@NO_DEADLINE
@given(maybe, maybe, maybe)
def test_compare_and_sign_never_print_nan(d, lo, hi) -> None:
    for text in (tk.compare("A", "B", d, lo, hi), tk.sign_text("the lift", d, lo, hi), tk.change(d, lo, hi)):
        assert clean(text), text


@NO_DEADLINE
@given(finite, st.booleans())
def test_change_words_follow_the_sign(v: float, with_ci: bool) -> None:
    lo, hi = (v - 1.0, v + 1.0) if with_ci else (None, None)
    text = tk.change(v, lo, hi, up="more often than", down="less often than", same="as often as")
    assert clean(text) and change_faults(text) == []
    spans = with_ci and lo <= 0 <= hi
    if printed(v) > 0 and not spans:
        assert text.endswith("more often than") and text.startswith(f"{abs(v):.1f} pp")
    elif printed(v) < 0 and not spans:
        assert text.endswith("less often than") and text.startswith(f"{abs(v):.1f} pp")
    else:
        assert text.startswith("as often as") and "more" not in text and "less" not in text


@NO_DEADLINE
@given(st.lists(finite, min_size=2, max_size=6))
def test_trend_words_follow_the_values(values: list[float]) -> None:
    text = tk.trend(values, "easy", "hard")
    assert clean(text) and trend_faults(text) == []
    p = [printed(v) for v in values]
    assert f"({', '.join(f'{x:+.1f}'.replace('+0.0', '0.0').replace('-0.0', '0.0') for x in p)} pp" in text


@NO_DEADLINE
@given(st.lists(st.floats(min_value=-50, max_value=-0.1), min_size=2, max_size=5).map(sorted))
def test_a_deficit_that_shrinks_never_grows(values: list[float]) -> None:
    text = tk.trend(values, "easy", "hard")
    assert "grows" not in text and trend_faults(text) == []


@NO_DEADLINE
@given(st.lists(finite, min_size=4, max_size=4))
def test_band_words_follow_the_ranges(x: list[float]) -> None:
    lo, hi, blo, bhi = x
    assume(lo <= hi and blo <= bhi)
    text = tk.band_text("X", lo, hi, blo, bhi, "the scale")
    assert clean(text) and band_faults(text) == []


@NO_DEADLINE
@given(st.integers(0, 30), st.integers(0, 30), st.integers(0, 30))
def test_counts_read_as_counts(a: int, b: int, n: int) -> None:
    assume(a <= n and b <= n)
    for text in (tk.count_text(a, n, "judges"), tk.count_text(a, n, "judges", upto=b)):
        assert clean(text) and count_faults(text) == [], text
    if a == b == 0 and n > 0:
        assert tk.count_text(a, n, "judges", upto=b) == f"none of the {n} judges"


def test_an_impossible_count_is_refused() -> None:
    with pytest.raises(ValueError):
        tk.count_text(7, 6, "judges")
    with pytest.raises(ValueError):
        tk.count_text(2, 6, "judges", upto=-1)


@NO_DEADLINE
@given(finite, finite, st.one_of(st.none(), st.tuples(finite, finite).map(sorted)), st.sampled_from(["fall", "rise"]))
def test_a_ratio_is_defined_only_over_the_change_it_is_named_for(numer, denom, den_ci, expect) -> None:
    lo, hi = den_ci if den_ci else (None, None)
    text = tk.ratio_text(numer, denom, lo, hi, expect=expect, what="the with-GT change")
    assert clean(text) and ratio_faults(text, denom, lo, hi, expect) == []


@NO_DEADLINE
@given(st.floats(min_value=0, max_value=20, allow_nan=False))
def test_a_factor_reads_against_1(g: float) -> None:
    text = tk.factor_text(g, "cuts the records to", "costs more records:", "saves nothing")
    assert clean(text) and factor_faults(text) == []


@NO_DEADLINE
@given(st.text(min_size=1, max_size=30), st.text(min_size=1, max_size=40))
def test_what_cannot_be_computed_is_one_line(what: str, needs: str) -> None:
    assume("\n" not in what + needs and clean(what) and clean(needs))
    text = tk.missing(what, needs, "python -m ajb_judge --help")
    assert "\n" not in text and clean(text) and "cannot be computed on this data" in text


# ---- the checker ---------------------------------------------------------------------------------


@NO_DEADLINE
@given(st.integers(-5, 120), st.floats(min_value=-0.49, max_value=0.49, allow_nan=False))
def test_an_integer_answer_is_exact(k: int, off: float) -> None:
    """A guess of 0.6 or 0.95 is not 1 (any guess within 0.5 of an integer answer was 'Right')."""
    g = round(k + off, 2)
    assume(g != k)
    for answer in (k, float(k)):
        assert tk.check(g, answer, "").startswith("Not this time"), (g, answer)


@NO_DEADLINE
@given(st.integers(1, 99), st.integers(2, 99), st.integers(2, 6))
def test_a_fraction_guessed_to_some_decimals_is_right(p: int, q: int, d: int) -> None:
    """0.333 is 1/3: an unrounded answer is matched at the guess's own decimals."""
    a = p / q
    assume(decimal_places_needed(Fraction(p, q)) > tk.EXACT_DECIMALS and abs(a) >= 0.05)
    guess = round(a, d)
    assume(abs(guess - a) <= 0.02 * a and guess != 0)
    assert tk.check(guess, a, "").startswith("Right"), (guess, a)
    assert tk.check(f"{guess:.{d}f}", a, "").startswith("Right")


def decimal_places_needed(f: Fraction) -> int:
    """Return how many decimals a fraction needs when printed as a float (a large number when it repeats)."""
    return tk.decimals(float(f))


@NO_DEADLINE
@given(st.integers(0, 200))
def test_a_percent_is_its_share(k: int) -> None:
    """'100%' is 1.0; '37%' is 0.37 (and 37 when the answer is in percent: '1%' may be 1.0 pp)."""
    assert tk.check(f"{k}%", k / 100, "").startswith("Right")
    assert tk.check(f"{k}%", k, "").startswith("Right")
    assume(k not in (1, 100))
    assert tk.check(f"{k}%", 1.0, "").startswith("Not")


@NO_DEADLINE
@given(st.one_of(st.floats(allow_nan=False), st.text(max_size=8)), st.sampled_from([math.nan, None, float("inf")]))
def test_an_answer_the_data_cannot_give_is_said_so(guess, answer) -> None:
    text = tk.check(guess, answer, "why")
    assert text.startswith("Cannot be checked on this data") and not re.search(r"\b(nan|None|inf)\b", text)


@pytest.mark.parametrize(
    ("guess", "answer", "right"),
    [
        (0.6, 1.0, False),
        (0.95, 1.0, False),
        (0.6, 1, False),
        (1, 1.0, True),
        ("1", 1, True),
        (0.333, 1 / 3, True),
        ("0.333", 1 / 3, True),
        (0.3, 1 / 3, False),
        (0, 1 / 3, False),
        ("100%", 1.0, True),
        ("100 %", 1.0, True),
        ("50%", 1.0, False),
        (86.14, 86.1, True),
        (86.2, 86.1, False),
        (0.3334, 0.3333, False),
    ],
)
def test_the_checker_table(guess, answer, right: bool) -> None:
    assert tk.same_answer(guess, answer) is right


@NO_DEADLINE
@given(ci(), ci())
def test_nearer_names_a_reference_only_when_its_ci_allows(a: tuple[float, float, float], b) -> None:
    """10's 'corrupted GT tracks without GT' was chosen with both CIs spanning 0."""
    (da, la, ha), (db, lb, hb) = a, b
    text = tk.nearer("with GT", "without GT", da, la, ha, db, lb, hb)
    assert clean(text)
    spans_a, spans_b = la <= 0 <= ha, lb <= 0 <= hb
    if text.startswith("tracks with GT"):
        assert spans_a and not spans_b
    elif text.startswith("tracks without GT"):
        assert spans_b and not spans_a
    elif text.startswith("cannot be told"):
        assert spans_a and spans_b
    else:
        assert text.startswith("differs from both") and not spans_a and not spans_b


@NO_DEADLINE
@given(st.lists(st.sampled_from(["above", "below", "indistinguishable", "inside", "partly inside"]), max_size=12))
def test_tally_counts_every_item_once(words: list[str]) -> None:
    text = tk.tally(words, "cells")
    assert clean(text) and count_faults(text) == []
    n = len(words)
    if n:
        counts = [int(x) for x in re.findall(r"(?:for |, \w[\w ]* for )(\d+)(?= of| cells|,|$)", text)]
        whole = re.search(rf"for all {n} cells", text)
        assert whole or sum(counts) == n, (text, words)


@NO_DEADLINE
@given(finite, st.one_of(st.none(), st.tuples(finite, finite).map(sorted)))
def test_pick_follows_the_sign_and_the_ci(v: float, bounds) -> None:
    lo, hi = bounds if bounds else (None, None)
    word = tk.pick(v, "up", "down", "same", digits=1, lo=lo, hi=hi)
    if bounds and lo <= 0 <= hi or printed(v) == 0:
        assert word == "same"
    elif bounds and lo > 0 or not bounds and v > 0:
        assert word == "up"
    elif bounds and hi < 0 or not bounds and v < 0:
        assert word == "down"


@NO_DEADLINE
@given(finite, finite)
def test_versus_agrees_with_the_values_it_prints(va: float, vb: float) -> None:
    """05 printed 'the soft jury (85.3%) is above the best judge (85.3%) by 0.1 pp'."""
    text = tk.versus("A", "B", va, vb)
    m = re.match(rf"A \(({NUM})%\) (?:is (above|below)|and) B \(({NUM})%\)(?: by ({NUM}) pp)?", text)
    assert m and clean(text), text
    pa, word, pb, by = float(m.group(1)), m.group(2), float(m.group(3)), m.group(4)
    if word is None:
        assert pa == pb and "equal" in text
    else:
        assert (pa > pb) == (word == "above") and pa != pb
        assert math.isclose(float(by), abs(pa - pb), abs_tol=0.051)
