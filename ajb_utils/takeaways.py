"""Sentences computed from the data: the notebooks' takeaways, readings and exercise feedback.

A sentence that states a number, a direction, an order or a verdict is made here from the numbers a cell computed:
a difference whose CI contains 0 is *indistinguishable*, never *equal*; one without a CI says so.
"""

from __future__ import annotations

import decimal
import math
import numbers
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

import pandas as pd

from ajb_utils.schema import display

Direction = Literal["above", "below", "indistinguishable", "equal"]
NO_CI = "no CI computed"
DIRECTION_VERBS: dict[str, str] = {"above": "exceeds", "below": "trails"}


def _finite(x: float | None) -> bool:
    """Return True for a finite number (None, NaN and pandas' NA are not)."""
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
    """Return above / below 0, indistinguishable (its CI contains 0), or without a CI 'equal' for an exact 0."""
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
    digits: int = 1,
) -> str:
    """Return 'A exceeds B by 1.2 pp [0.5, 1.9]', 'A trails B ...' or 'A and B are indistinguishable: ...'."""
    d = direction(delta, lo, hi)
    if not _finite(delta):
        return f"{a} vs {b}: no difference could be computed"
    if d == "indistinguishable":
        body = f"{a} and {b} are indistinguishable: {num(delta, digits, True)} pp {ci_text(lo, hi, digits)}"
        return body + (zero_width_note(lo, hi, digits) or ", a CI that spans 0")
    if d == "equal":
        return f"{a} and {b} score the same ({num(delta, digits, True)} pp, {NO_CI})"
    body = f"{a} {DIRECTION_VERBS[d]} {b} by {num(abs(float(delta)), digits)} pp {ci_text(lo, hi, digits)}"
    return body + zero_width_note(lo, hi, digits)


def sign_text(name: str, value: float, lo: float | None = None, hi: float | None = None) -> str:
    """Return 'X is positive: +1.3 pp [0.4, 2.1]' / negative / indistinguishable from 0 / could not be computed."""
    if not _finite(value):
        return f"{name} could not be computed on this data"
    words = {"above": "positive", "below": "negative", "indistinguishable": "indistinguishable from 0", "equal": "0"}
    word = words[direction(value, lo, hi)]
    return f"{name} is {word}: {num(value, 1, True)} pp {ci_text(lo, hi)}" + zero_width_note(lo, hi)


def versus(a: str, b: str, va: float, vb: float) -> str:
    """Return 'A (81.2%) is above B (80.0%) by 1.2 pp (no CI computed)', or 'equal at this precision'."""
    if not (_finite(va) and _finite(vb)):
        return f"{a} vs {b}: no difference could be computed"
    pa, pb = float(num(va)), float(num(vb))
    d = direction(pa - pb)
    if d == "equal":
        return f"{a} ({num(va)}%) and {b} ({num(vb)}%) are equal at this precision"
    return f"{a} ({num(va)}%) is {d} {b} ({num(vb)}%) by {num(abs(pa - pb))} pp ({NO_CI})"


def order(values: Mapping[str, float] | pd.Series, unit: str = "%", digits: int = 1, descending: bool = True) -> str:
    """Return the names ordered by value: 'A (81.2%) > B (80.0%) = C (80.0%)' (NaN left out)."""
    s = pd.Series(dict(values) if not isinstance(values, pd.Series) else values, dtype=float).dropna()
    s = s.sort_values(ascending=not descending, kind="stable")
    texts = [num(v, digits) for v in s]
    signs = [" = " if t == prev else (" > " if descending else " < ") for prev, t in zip(texts, texts[1:])]
    return "".join(f"{sign}{name} ({t}{unit})" for sign, name, t in zip(["", *signs], s.index, texts))


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


def _ints(k: int, n: int) -> None:
    """Raise ValueError unless 0 <= k <= n are whole counts (a count sentence never reads '-1 of 6')."""
    if not (0 <= int(k) <= int(n)) or int(k) != k or int(n) != n:
        raise ValueError(f"a count needs 0 <= k <= n in whole numbers, got k={k}, n={n}")


def count_text(k: int, n: int, what: str, upto: int | None = None) -> str:
    """Return 'all 5 generators', 'none of the 5 ...', '3 of 5 ...' or, up to `upto`, '2-4 of the 5 ...'."""
    _ints(k, n)
    if upto is not None and upto != k:
        _ints(upto, n)
        k, upto = min(k, upto), max(k, upto)
        return f"{k}-{upto} of the {n} {what}"
    if n == 0:
        return f"no {what}"
    if k == n:
        return f"all {n} {what}"
    if k == 0:
        return f"none of the {n} {what}"
    return f"{k} of {n} {what}"


def tally(words: Iterable[str], what: str) -> str:
    """Return how many items each computed word describes, commonest first: 'above for 3 of 5 generators, ...'."""
    counts = pd.Series(list(words), dtype=object).value_counts(sort=False).sort_values(ascending=False, kind="stable")
    if counts.empty:
        return f"no {what}"
    head = f"{counts.index[0]} for {count_text(int(counts.iloc[0]), int(counts.sum()), what)}"
    return head + "".join(f", {w} for {int(k)}" for w, k in counts.iloc[1:].items())


def change(
    value: float | None,
    lo: float | None = None,
    hi: float | None = None,
    up: str = "more",
    down: str = "less",
    same: str = "no different",
    unit: str = "pp",
    digits: int = 1,
) -> str:
    """Return a signed change in words from its sign and CI: '4.2 pp less', '1.0 pp more [0.3, 1.7]' or `same`."""
    u = f" {unit}" if unit else ""
    if not _finite(value):
        return f"{same} as far as this data shows (the change could not be computed)"
    d = direction(value, lo, hi)
    shown = num(value, digits)
    if d == "indistinguishable":
        return f"{same} within the CI ({num(value, digits, True)}{u} {ci_text(lo, hi, digits)}, a CI that spans 0)"
    if d == "equal" or float(shown) == 0.0:
        return f"{same} at this precision ({num(0.0, digits)}{u})"
    ci = f" {ci_text(lo, hi, digits)}" if _finite(lo) and _finite(hi) else ""
    return f"{num(abs(float(value)), digits)}{u}{ci} {up if d == 'above' else down}"


def trend(values: Iterable[float], start: str, end: str) -> str:
    """Return how pp values printed to 0.1 move from `start` to `end` (rises, falls, flat, not monotone), side of 0."""
    raw = [float(v) for v in values]
    if len(raw) < 2 or not all(_finite(v) for v in raw):
        return f"has no trend from {start} to {end} that this data can show (a value is missing)"
    p = [float(num(v)) for v in raw]
    steps = [b - a for a, b in zip(p, p[1:])]
    if all(s == 0 for s in steps):
        word = "is flat"
    elif all(s >= 0 for s in steps):
        word = "rises"
    elif all(s <= 0 for s in steps):
        word = "falls"
    else:
        word = "is not monotone"
    shown = ", ".join(num(v, 1, True) for v in p)
    if all(v > 0 for v in p) or all(v < 0 for v in p):
        side = "above 0 throughout" if p[0] > 0 else "below 0 throughout"
        if word in ("rises", "falls"):  # on one side of 0 a rise away from 0 grows, towards it shrinks
            side += ", so its size " + ("grows" if (p[0] > 0) == (word == "rises") else "shrinks")
    elif all(v == 0 for v in p):
        side = "0 throughout"
    else:
        side = "crossing or touching 0"
    return f"{word} from {start} to {end} ({shown} pp; {side})"


Band = Literal["inside", "partly inside", "above", "below"]


def band(lo: float, hi: float, band_lo: float, band_hi: float, digits: int = 1) -> Band:
    """Return where [lo, hi] lies against a band at the printed precision: inside, above, below or partly inside."""
    a, b, c, d = (
        float(num(x, digits)) for x in (min(lo, hi), max(lo, hi), min(band_lo, band_hi), max(band_lo, band_hi))
    )
    if c <= a and b <= d:
        return "inside"
    if a > d:
        return "above"
    if b < c:
        return "below"
    return "partly inside"


def band_text(
    name: str, lo: float, hi: float, band_lo: float, band_hi: float, what: str, unit: str = "%", digits: int = 1
) -> str:
    """Return 'X (67.6-70.9%) is below <what> (82.5-94.5%)' (from `band`), or that a value is missing."""
    if not all(_finite(x) for x in (lo, hi, band_lo, band_hi)):
        return f"where {name} lies against {what} cannot be computed on this data (a value is missing)"

    def rng(x: float, y: float) -> str:
        a, b = num(min(x, y), digits), num(max(x, y), digits)
        return f"{a}{unit}" if a == b else f"{a}-{b}{unit}"

    return f"{name} ({rng(lo, hi)}) is {band(lo, hi, band_lo, band_hi, digits)} {what} ({rng(band_lo, band_hi)})"


def _undefined_ratio(
    numer: float, denom: float, denom_lo: float | None, denom_hi: float | None, expect: str, what: str
) -> str | None:
    """Return why numer / denom is undefined (missing, prints as 0, spans 0, not a `expect`), or None."""
    if not (_finite(numer) and _finite(denom)):
        return "undefined (a change is missing on this data)"
    if float(num(denom, 1)) == 0.0:
        return f"undefined: {what} rounds to 0 ({num(denom, 1, True)} pp)"
    if _finite(denom_lo) and _finite(denom_hi) and float(denom_lo) <= 0.0 <= float(denom_hi):
        return f"undefined: {what} is indistinguishable from 0 (its CI {ci_text(denom_lo, denom_hi)} spans 0)"
    if (float(denom) < 0) != (expect == "fall"):
        other = "rise" if expect == "fall" else "fall"
        return f"undefined: {what} is a {other} ({num(denom, 1, True)} pp), not a {expect}"
    return None


def ratio_value(
    numer: float,
    denom: float,
    denom_lo: float | None = None,
    denom_hi: float | None = None,
    expect: Literal["fall", "rise"] = "fall",
) -> float | None:
    """Return numer / denom, or None where the denominator is missing, prints as 0, spans 0 or is not a `expect`."""
    if _undefined_ratio(numer, denom, denom_lo, denom_hi, expect, ""):
        return None
    return float(numer) / float(denom)


def ratio_text(
    numer: float,
    denom: float,
    denom_lo: float | None = None,
    denom_hi: float | None = None,
    expect: Literal["fall", "rise"] = "fall",
    what: str = "the change",
) -> str:
    """Return the ratio of two changes, '1.32x', or why it is undefined."""
    why = _undefined_ratio(numer, denom, denom_lo, denom_hi, expect, what)
    return why or f"{num(float(numer) / float(denom), 2)}x"


def factor_text(g: float, down: str, up: str, same: str, digits: int = 2) -> str:
    """Return a factor against 1 at the printed precision: '{down} 0.15x', '{up} 1.15x' or '{same} (1.00x)'."""
    if not _finite(g):
        return f"{same} as far as this data shows (the factor could not be computed)"
    shown = num(g, digits)
    if float(shown) == 1.0:
        return f"{same} ({shown}x)"
    return f"{down if float(shown) < 1 else up} {shown}x"


def pick(
    value: float | None,
    up: str,
    down: str,
    same: str,
    digits: int = 2,
    lo: float | None = None,
    hi: float | None = None,
) -> str:
    """Return `up` above 0, `down` below, `same` at 0 (printed), when the CI spans 0 or the value is missing."""
    d = direction(value, lo, hi)
    if not _finite(value) or float(num(value, digits)) == 0.0 or d in ("indistinguishable", "equal"):
        return same
    return up if d == "above" else down


def nearer(
    a: str,
    b: str,
    d_a: float,
    lo_a: float | None,
    hi_a: float | None,
    d_b: float,
    lo_b: float | None,
    hi_b: float | None,
) -> str:
    """Return which of two references a value tracks, from its differences to each (value - A, value - B) and CIs."""
    if not (_finite(d_a) and _finite(d_b)):
        return f"cannot be placed against {a} and {b} on this data (a difference is missing)"
    same_a = direction(d_a, lo_a, hi_a) in ("indistinguishable", "equal")
    same_b = direction(d_b, lo_b, hi_b) in ("indistinguishable", "equal")
    da = f"{num(d_a, 1, True)} pp {ci_text(lo_a, hi_a)}"
    db = f"{num(d_b, 1, True)} pp {ci_text(lo_b, hi_b)}"
    if same_a and not same_b:
        return f"tracks {a} ({da}; differs from {b}: {db})"
    if same_b and not same_a:
        return f"tracks {b} ({db}; differs from {a}: {da})"
    if same_a and same_b:
        return f"cannot be told from either {a} ({da}) or {b} ({db}): both CIs span 0"
    return f"differs from both {a} ({da}) and {b} ({db}): neither CI spans 0"


def missing(what: str, needs: str, command: str | None = None) -> str:
    """Return '<what> cannot be computed on this data: it needs <needs>', with the command that would make it."""
    line = f"{what} cannot be computed on this data: it needs {needs}"
    return line + (f"; `{command}` makes it." if command else ".")


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
    if isinstance(x, bool) or x is None or x is pd.NA:
        return None
    if isinstance(x, numbers.Real):
        return float(x)
    try:
        return float(spelling(str(x)))
    except ValueError:
        return None


def _readings(guess: object) -> list[tuple[float, int]]:
    """Return the (value, decimals) a guess can mean: '100%' is 1.0 or 100, '0.333' is 0.333 (3 decimals)."""
    text = spelling(str(guess)) if not isinstance(guess, numbers.Real) else ""
    if text.endswith("%"):
        g = _number(text[:-1])
        if g is None:
            return []
        d = decimals(float(g)) if "." in text else 0
        return [(g / 100, d + 2), (g, d)]
    g = _number(guess)
    if g is None:
        return []
    d = decimals(guess) if isinstance(guess, numbers.Real) else (len(text.split(".")[1]) if "." in text else 0)
    return [(g, d)]


EXACT_DECIMALS = 6  # an answer printed with more decimals than this is an unrounded value (1/3), not a rounded one


def _is_exact(answer: object, a: float) -> bool:
    """Return True for an answer that is an exact value (an integer, 1.0, 1/3), not one rounded for print."""
    return isinstance(answer, numbers.Integral) or a.is_integer() or decimals(a) > EXACT_DECIMALS


def same_answer(guess: object, answer: object, digits: int | None = None) -> bool:
    """Return True when a guess is the answer: within half its last printed unit, '100%' as 1 or 100, text alike."""
    a = _number(answer)
    readings = _readings(guess)
    if a is not None and readings:
        if not math.isfinite(a):
            return False
        for g, dg in readings:  # an infinite or NaN reading is within no tolerance of a finite answer
            if digits is not None:
                ok = abs(g - a) <= 0.5 * 10.0**-digits + 1e-12
            elif _is_exact(answer, a):
                ok = g == a or (abs(g - a) <= 0.5 * 10.0**-dg + 1e-12 and abs(g - a) <= 0.02 * abs(a))
            else:
                ok = abs(g - a) <= 0.5 * 10.0 ** -decimals(answer if isinstance(answer, numbers.Real) else a) + 1e-12
            if ok:
                return True
        return False
    return spelling(str(guess)) == spelling(str(answer))


def check(guess: object, answer: object, why: str, digits: int | None = None) -> str:
    """Return an exercise's feedback: right or wrong, the answer and why (or that this data cannot check it)."""
    a = _number(answer)
    if answer is None or answer is pd.NA or (a is not None and not math.isfinite(a)):
        return f"Cannot be checked on this data. {why}"
    if same_answer(guess, answer, digits):
        return f"Right: the answer is {answer}. {why}"
    return f"Not this time: you predicted {guess}, the data give {answer}. {why}"


def bullets(sentences: Iterable[str]) -> str:
    """Return sentences as one '- ...' line each (a notebook prints it under 'Takeaways')."""
    kept = [s.strip() for s in sentences if s.strip()]
    return "\n".join(f"- {s[0].upper()}{s[1:]}" + ("" if s.endswith((".", "?", "!")) else ".") for s in kept)


def _span(values: Mapping[str, float]) -> str:
    """Return '92%' when every judge has the same value, else '40-92%' (the range over judges)."""
    v = [100 * float(x) for x in values.values()]
    lo, hi = min(v), max(v)
    return f"{lo:.0f}%" if round(lo) == round(hi) else f"{lo:.0f}-{hi:.0f}%"


def _named(values: Mapping[str, float]) -> str:
    """Return 'GPT-5.4 (45%), Gemini-2.5-Pro (75%)' for the judges with a nonzero value."""
    return ", ".join(f"{display(j)} ({100 * float(v):.0f}%)" for j, v in values.items() if float(v) > 0)


def _pct(x: float) -> str:
    """Return a share as a percentage with at most one decimal: 0.015 -> '1.5%', 0.01 -> '1%'."""
    return f"{100 * float(x):.1f}".removesuffix(".0") + "%"


def _on_card(p: Mapping[str, Any], key: str, say: Callable[[Any], str]) -> str:
    """Return `say(p[key])`, or a line that this card does not record `key` (a card written before it)."""
    return say(p[key]) if key in p else f"this card does not record `{key}` (rebuild the sample to see it)"


def _by_judge(values: Mapping[str, float]) -> str:
    """Return 'QwQ-32B 92%, GPT-OSS-120B 89%, ...': every judge's value, highest first."""
    ranked = sorted(values.items(), key=lambda kv: (-float(kv[1]), kv[0]))
    return ", ".join(f"{display(j)} {100 * float(v):.0f}%" for j, v in ranked)


def _freeform(f: Mapping[str, Any]) -> str:
    """Return the free-form runs' planted noise per difficulty and sensitivity factor, per judge."""
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
    """Return what the loaded sample's card planted, one bullet per topic, or that nothing was planted."""
    if not planted:
        return "Nothing planted: this data is not a synthetic sample with a `planted:` card header."
    head = f"The loaded sample's card (variant {planted.get('variant', '?')}, knobs in `{planted.get('knobs', '?')}`):"
    return head + "\n" + bullets(PLANTED_TOPICS[t](planted) for t in topics)
