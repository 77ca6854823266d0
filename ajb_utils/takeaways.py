"""Sentences computed from the data: the notebooks' takeaways, readings and exercise feedback.

A notebook runs on the synthetic sample, on the released data and on a user's runs, so a sentence
that states a number, a direction, an order or a verdict about the data is made here from the
numbers a cell computed, never typed from one run's output. Static prose keeps concepts, the
paper's reported values (cited as the paper's) and what the sample planted.

    >>> compare("the jury", "GPT-5.4", 1.2, 0.5, 1.9)
    'the jury exceeds GPT-5.4 by 1.2 pp [0.5, 1.9]'
    >>> compare("the jury", "GPT-5.4", 0.3, -0.4, 1.0)
    'the jury and GPT-5.4 are indistinguishable: +0.3 pp [-0.4, 1.0], a CI that spans 0'
    >>> order({"A": 81.2, "B": 80.0})
    'A (81.2%) > B (80.0%)'

Rules the helpers keep: a difference whose CI contains 0 is *indistinguishable*, never *equal*;
a difference without a CI says so; a zero-width CI says why it can be zero wide.
"""

from __future__ import annotations

import decimal
import math
import numbers
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

import pandas as pd

Direction = Literal["above", "below", "indistinguishable", "equal"]
NO_CI = "no CI computed"
DIRECTION_VERBS: dict[str, str] = {"above": "exceeds", "below": "trails"}

__all__ = [
    "DIRECTION_VERBS",
    "NO_CI",
    "Direction",
    "bullets",
    "check",
    "ci_text",
    "compare",
    "count_text",
    "direction",
    "num",
    "order",
    "planted_text",
    "rank_of",
    "rank_text",
    "same_answer",
    "sign_text",
    "versus",
    "zero_width_note",
]


def _finite(x: float | None) -> bool:
    """Return True for a finite number (None, NaN and pandas' NA, e.g. the median of an empty
    nullable series, are not)."""
    return x is not None and x is not pd.NA and math.isfinite(float(x))


def num(x: float | None, digits: int = 1, signed: bool = False) -> str:
    """Return a number as text ('n/a' for None/NaN), without the sign of a rounded negative zero."""
    if not _finite(x):
        return "n/a"
    text = f"{float(x):+.{digits}f}" if signed else f"{float(x):.{digits}f}"
    if float(text) == 0.0:
        text = f"{0.0:.{digits}f}"
    return text


def ci_text(lo: float | None, hi: float | None, digits: int = 1) -> str:
    """Return '[lo, hi]' or the words for a missing CI."""
    if not (_finite(lo) and _finite(hi)):
        return f"({NO_CI})"
    return f"[{num(lo, digits)}, {num(hi, digits)}]"


def direction(delta: float, lo: float | None = None, hi: float | None = None) -> Direction:
    """Return whether `delta` is above or below 0, or indistinguishable from 0 (its CI contains 0).

    Without a CI the point estimate decides ('equal' only for an exact 0): the sentence then says
    no CI was computed (`compare`).
    """
    if _finite(lo) and _finite(hi):
        if float(lo) <= 0.0 <= float(hi):
            return "indistinguishable"
        return "above" if float(lo) > 0 else "below"
    if not _finite(delta) or float(delta) == 0.0:
        return "equal"
    return "above" if float(delta) > 0 else "below"


def zero_width_note(lo: float | None, hi: float | None, digits: int = 1) -> str:
    """Return a note for a CI that rounds to zero width ('' otherwise)."""
    if _finite(lo) and _finite(hi) and num(lo, digits) == num(hi, digits):
        return (
            " (a zero-width CI: every resample gave the same value, e.g. no paired record differs,"
            " so the bootstrap has no variation to show; it is not certainty about the population)"
        )
    return ""


def compare(
    a: str,
    b: str,
    delta: float,
    lo: float | None = None,
    hi: float | None = None,
    unit: str = "pp",
    digits: int = 1,
) -> str:
    """Return a sentence comparing a and b from the difference a - b and its CI.

    'A exceeds B by 1.2 pp [0.5, 1.9]', 'A trails B by 0.8 pp [-1.4, -0.2]', or
    'A and B are indistinguishable: +0.3 pp [-0.4, 1.0], a CI that spans 0'. Without a CI the
    direction of the point estimate is given with '(no CI computed)'.
    """
    d = direction(delta, lo, hi)
    u = f" {unit}" if unit else ""
    if not _finite(delta):
        return f"{a} vs {b}: no difference could be computed"
    if d == "indistinguishable":
        body = f"{a} and {b} are indistinguishable: {num(delta, digits, True)}{u} {ci_text(lo, hi, digits)}"
        return body + (zero_width_note(lo, hi, digits) or ", a CI that spans 0")
    if d == "equal":
        return f"{a} and {b} score the same ({num(delta, digits, True)}{u}, {NO_CI})"
    body = f"{a} {DIRECTION_VERBS[d]} {b} by {num(abs(float(delta)), digits)}{u} {ci_text(lo, hi, digits)}"
    return body + zero_width_note(lo, hi, digits)


def sign_text(
    name: str, value: float, lo: float | None = None, hi: float | None = None, digits: int = 1, unit: str = "pp"
) -> str:
    """Return 'X is positive: +1.3 pp [0.4, 2.1]' / negative / indistinguishable from 0 / could not be computed."""
    if not _finite(value):
        return f"{name} could not be computed on this data"
    d = direction(value, lo, hi)
    u = f" {unit}" if unit else ""
    word = {"above": "positive", "below": "negative", "indistinguishable": "indistinguishable from 0", "equal": "0"}[d]
    ci = ci_text(lo, hi, digits)
    return f"{name} is {word}: {num(value, digits, True)}{u} {ci}" + zero_width_note(lo, hi, digits)


def versus(a: str, b: str, va: float, vb: float, unit: str = "%", digits: int = 1) -> str:
    """Return 'A (81.2%) is above B (80.0%) by 1.2 pp (no CI computed)' for two point values."""
    pts = "pp" if unit == "%" else unit
    d = direction(float(va) - float(vb))
    if d == "equal":
        return f"{a} ({num(va, digits)}{unit}) and {b} ({num(vb, digits)}{unit}) are equal at this precision"
    return (
        f"{a} ({num(va, digits)}{unit}) is {d} {b} ({num(vb, digits)}{unit}) by "
        f"{num(abs(float(va) - float(vb)), digits)} {pts} ({NO_CI})"
    )


def order(values: Mapping[str, float] | pd.Series, unit: str = "%", digits: int = 1, descending: bool = True) -> str:
    """Return the names ordered by value: 'A (81.2%) > B (80.0%) = C (80.0%)' (NaN left out)."""
    s = pd.Series(dict(values) if not isinstance(values, pd.Series) else values, dtype=float).dropna()
    s = s.sort_values(ascending=not descending, kind="stable")
    sym = " > " if descending else " < "
    parts: list[str] = []
    prev: str | None = None
    for name, v in s.items():
        text = num(v, digits)
        if parts:
            parts.append(" = " if text == prev else sym)
        parts.append(f"{name} ({text}{unit})")
        prev = text
    return "".join(parts)


def rank_of(name: str, values: Mapping[str, float] | pd.Series, descending: bool = True) -> tuple[int, int]:
    """Return (rank, n): the 1-based 'min' rank of `name` among the non-missing values."""
    s = pd.Series(dict(values) if not isinstance(values, pd.Series) else values, dtype=float).dropna()
    r = s.rank(ascending=not descending, method="min")
    return int(r[name]), len(s)


def rank_text(name: str, values: Mapping[str, float] | pd.Series, descending: bool = True) -> str:
    """Return 'X ranks 2 of 7' (or 'first of 7' / 'last of 7')."""
    rank, n = rank_of(name, values, descending)
    where = "first" if rank == 1 else ("last" if rank == n else str(rank))
    return f"{name} ranks {where} of {n}"


def count_text(k: int, n: int, what: str) -> str:
    """Return 'all 5 generators', 'none of the 5 generators' or '3 of 5 generators'."""
    if n == 0:
        return f"no {what}"
    if k == n:
        return f"all {n} {what}"
    if k == 0:
        return f"none of the {n} {what}"
    return f"{k} of {n} {what}"


# The glossary's symbols (notebook 00) and the ASCII a reader types for them: both are right answers.
SPELLINGS: dict[str, str] = {
    "p\u0304": "pbar",
    "p-bar": "pbar",
    "p bar": "pbar",
    "\u03ba": "kappa",
    "\u03c1": "rho",
    "\u2212": "-",
    "\u00d7": "x",
    "\u2113": "l",
}


def spelling(text: str) -> str:
    """Return text in the form answers are compared in: the glossary's symbols spelled out, case and spaces dropped."""
    out = unicodedata.normalize("NFC", str(text)).casefold()
    for symbol, ascii_form in SPELLINGS.items():
        out = out.replace(unicodedata.normalize("NFC", symbol), ascii_form)
    return "".join(out.split())


def decimals(x: float) -> int:
    """Return the decimals a number is printed with (str(0.3333) -> 4, an integer -> 0)."""
    if isinstance(x, numbers.Integral) or not math.isfinite(float(x)):
        return 0
    return max(0, -int(decimal.Decimal(str(float(x))).as_tuple().exponent))


def _number(x: object) -> float | None:
    """Return x as a float when it is a number or a text that reads as one (None otherwise)."""
    if isinstance(x, bool):
        return None
    if isinstance(x, numbers.Real):
        return float(x)
    try:
        return float(spelling(str(x)))
    except ValueError:
        return None


def same_answer(guess: object, answer: object, digits: int | None = None) -> bool:
    """Return True when a guess is the answer: a number within the answer's printed precision
    (half a unit of its last decimal, or of `digits`), or the same text up to case, spaces and the
    glossary's spellings (1 - p\u0304 = 1 - p-bar)."""
    g, a = _number(guess), _number(answer)
    if g is not None and a is not None:
        d = decimals(answer if isinstance(answer, numbers.Real) else a) if digits is None else digits
        return math.isfinite(g) and math.isfinite(a) and abs(g - a) <= 0.5 * 10.0**-d + 1e-12
    return spelling(str(guess)) == spelling(str(answer))


def check(guess: object, answer: object, why: str, digits: int | None = None) -> str:
    """Return the feedback of an exercise: right or wrong, the answer and why.

    A number within the answer's printed precision, another case or the glossary's other spelling
    is right (`same_answer`). The notebook prints it; nothing is asserted about the reader's guess.
    """
    if answer is None:
        return f"Cannot be checked on this data. {why}"
    if same_answer(guess, answer, digits):
        return f"Right: the answer is {answer}. {why}"
    return f"Not this time: you predicted {guess}, the data give {answer}. {why}"


def bullets(sentences: Iterable[str]) -> str:
    """Return sentences as one '- ...' line each (a notebook prints it under 'Takeaways')."""
    out = []
    for s in sentences:
        s = s.strip()
        if not s:
            continue
        s = s[0].upper() + s[1:]
        out.append(f"- {s}" if s.endswith((".", "?", "!")) else f"- {s}.")
    return "\n".join(out)


def _span(values: Mapping[str, float], pct: bool = True) -> str:
    """Return '92%' when every judge has the same value, else '40-92%' (the range over judges)."""
    v = [float(x) for x in values.values()]
    lo, hi = (100 * min(v), 100 * max(v)) if pct else (min(v), max(v))
    unit = "%" if pct else ""
    return f"{lo:.0f}{unit}" if round(lo) == round(hi) else f"{lo:.0f}-{hi:.0f}{unit}"


def _named(values: Mapping[str, float]) -> str:
    """Return 'GPT-5.4 (45%), Gemini-2.5-Pro (75%)' for the judges with a nonzero value."""
    from ajb_utils.schema import display

    return ", ".join(f"{display(j)} ({100 * float(v):.0f}%)" for j, v in values.items() if float(v) > 0)


def _pct(x: float) -> str:
    """Return a share as a percentage with at most one decimal: 0.015 -> '1.5%', 0.01 -> '1%'."""
    return f"{100 * float(x):.1f}".removesuffix(".0") + "%"


def _on_card(p: Mapping[str, Any], key: str, say: Callable[[Any], str]) -> str:
    """Return `say(p[key])`, or a line that this card does not record `key` (a card written before it)."""
    return say(p[key]) if key in p else f"this card does not record `{key}` (rebuild the sample to see it)"


def _by_judge(values: Mapping[str, float]) -> str:
    """Return 'QwQ-32B 92%, GPT-OSS-120B 89%, ...': every judge's value, highest first."""
    from ajb_utils.schema import display

    ranked = sorted(values.items(), key=lambda kv: (-float(kv[1]), kv[0]))
    return ", ".join(f"{display(j)} {100 * float(v):.0f}%" for j, v in ranked)


def _freeform(f: Mapping[str, Any]) -> str:
    """Return the free-form runs' planted noise per difficulty and sensitivity factor, per judge."""
    from ajb_utils.schema import display

    per_judge = (
        f"{display(j)} "
        + ", ".join(f"{_pct(v)} ({d})" for d, v in ff["noise"].items())
        + f", its sensitivity times {ff['sensitivity_mult']:g}"
        + (f" ({ff['sensitivity_mult_hard']:g} on hard)" if "sensitivity_mult_hard" in ff else "")
        for j, ff in f.items()
    )
    return "the free-form runs replace a verdict by a random one with P = " + "; ".join(per_judge)


PLANTED_TOPICS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "compression": lambda p: (
        f"a missed flaw is credited with 1.0 with P = {_span(p['leniency']['without_gt'])} without GT and "
        f"{_span(p['leniency']['with_gt'])} with GT (over the judges); the C2 runs set it to "
        f"{_span(p['leniency']['without_gt_05'])}"
    ),
    "sensitivity": lambda p: (
        f"a flaw is detected with P = {_span(p['sensitivity']['with_gt'])} with GT and "
        f"{_span(p['sensitivity']['without_gt'])} without GT (mean over the metrics), times "
        + ", ".join(f"{v:g} ({d})" for d, v in p["sensitivity_by_difficulty"].items())
        + " by difficulty"
    ),
    "noise": lambda p: (
        "with GT a random verdict replaces the judge's with P = "
        + (_named(p["noise"]["with_gt"]) or "0 for every judge")
    ),
    "anchoring": lambda p: (
        "with the reference shown, "
        + (
            f"{_named(p['anchoring'])} credit{'s' if sum(float(v) > 0 for v in p['anchoring'].values()) == 1 else ''}"
            " a flawed metric with 1.0 whenever the plan's tools overlap the reference"
            if _named(p["anchoring"])
            else "no judge anchors on it (credits a flawed metric because the reference overlaps the plan)"
        )
    ),
    "follow_reference": lambda p: (
        f"a corrupted reference (C3) is followed as if correct with P = {_span(p['follow_reference'])} over the judges"
    ),
    "errors": lambda p: f"each judge's errors are drawn {p['errors_drawn']}",
    "sensitivity_by_judge": lambda p: (
        f"a flaw is detected with GT with P = {_by_judge(p['sensitivity']['with_gt'])}; without GT "
        f"{_by_judge(p['sensitivity']['without_gt'])} (mean over the metrics)"
    ),
    "temperature": lambda p: _on_card(
        p,
        "resample",
        lambda r: (
            "the temperature runs are the reference decoding with "
            + ", ".join(f"{_pct(v)} at T = {t}" for t, v in r["temperature"].items())
            + " of the verdicts redrawn (common random numbers keep each run paired with it)"
        ),
    ),
    "thinking": lambda p: _on_card(
        p,
        "resample",
        lambda r: f"the thinking-off run is the thinking-on run with {_pct(r['thinking_off'])} of the verdicts redrawn",
    ),
    "freeform": lambda p: _on_card(p, "freeform", _freeform),
}


def planted_text(planted: Mapping[str, Any], topics: Iterable[str]) -> str:
    """Return what the loaded sample planted, one bullet per topic (from its card's `planted:`
    header, `data.planted_effects`), or a line saying that nothing was planted in this data."""
    if not planted:
        return "Nothing planted: this data is not a synthetic sample with a `planted:` card header."
    head = f"The loaded sample's card (variant {planted.get('variant', '?')}, knobs in `{planted.get('knobs', '?')}`):"
    return head + "\n" + bullets(PLANTED_TOPICS[t](planted) for t in topics)
