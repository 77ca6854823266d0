"""Derivation-path census (seed 004, DeRef §3.1) of ground-truth argument values.

For every leaf argument value of every expected call, at each difficulty, the census asks how a
judge could derive the value from what it sees (the query of that difficulty and the tool
schemas) and assigns the FIRST matching path, in the DeRef order:

1. ``VISIBLE``  the value's literal text is in the query (numbers as number tokens, e.g. ``1500``
   in "$1500"; strings case-sensitively with word boundaries; booleans as ``<param> true/false``).
2. ``FORMAT``   the value is in the query after one normalisation of the finite table below.
3. ``DEFAULT``  the value equals the parameter's schema ``default`` (and, by 1-2, is not stated).
4. ``HISTORY-ONLY`` the value equals a leaf of an earlier call's output (when outputs are known,
   as in the authors' raw records; this rule is tried right after VISIBLE, before FORMAT and
   DEFAULT, because a known output is evidence and the other rules are guesses), is a reference placeholder (``step2``, ``$tool``,
   ``{{tool.output}}``, ``<result of tool>``), or its parameter is declared as an earlier call's
   output (schema description "Output of / Reference from / Result of the <tool> step") or is
   named after an earlier call's tool (key words match an earlier tool's name words on their
   first five letters, after dropping score/ref/id/result/output). The rule that fired is
   reported in ``rule``; without tool outputs (the released main config has none) only the
   last three can fire.
5. ``NO-SOURCE`` none of these (inferred values: "urgent" for ``critical``, "hold it for
   approval" for ``auto_approve=false`` when false is not the default, omitted values).

FORMAT normalisations (``FORMAT_TABLE`` documents them; nothing else counts):
- thousands separators and currency symbols: "$1,500" ~ 1500;
- magnitude suffixes: "2.5k" ~ 2500, "$1.5k" ~ 1500, "1.2M" ~ 1,200,000, "3bn" ~ 3e9;
- percentages: "15%" ~ 0.15 (15 itself is VISIBLE as a number token);
- number words: one..twenty, thirty..ninety, hundred, thousand, "a dozen" 12, "half a dozen" 6,
  "two dozen" 24;
- durations: "a minute" ~ 60 s, "N minutes" ~ 60N s, "an hour" ~ 3600 s or 60 min, "half an hour"
  ~ 1800 s or 30 min, "N hours" ~ 3600N s or 60N min, "a day" 1 / 86400 s, "a week" 7 days,
  "N weeks" 7N, "a fortnight" 14, "a month" 30, "a quarter" 90, "a year" 365 days;
- unit words: "gigabit"/"gig" ~ 1000 (Mbps), "N gig" ~ 1000N, "N meg" ~ N, "N GW" ~ 1000N (MW),
  "N kW" ~ N/1000 (MW) and 1000N (W);
- currency names and symbols: "dollars"/"$" ~ USD, "euros"/"€" ~ EUR, "pounds"/"£" ~ GBP;
- case and separators of strings: "Next Day" ~ "next_day" ~ "next-day";
- dates: ISO "2024-03-01" ~ "March 1, 2024", "1 March 2024", "March 1st 2024", "the first of
  March 2024", "2024/03/01";
- identifiers: "INC-23440" ~ "#23440" or a standalone 23440 (prefix dropped);
- booleans: "<param words> on/off/yes/no/enabled/disabled" ~ true/false.

The census is per record and query (a value stated anywhere in the query counts as visible, for
any call), like the DeRef census's per-history check. Cost is O(arguments): each query is
digested once (``QueryIndex``, cached per record and difficulty) with precompiled regexes.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ajb_utils.calls import normalize_calls, normalize_tools
from ajb_utils.schema import DIFFICULTIES

PATHS: list[str] = ["VISIBLE", "FORMAT", "DEFAULT", "HISTORY-ONLY", "NO-SOURCE"]

FORMAT_TABLE: pd.DataFrame = pd.DataFrame(
    [
        ("thousands separator / currency", "$1,500", "1500"),
        ("magnitude suffix k/M/bn", "$1.5k; 2.5k; 1.2M", "1500; 2500; 1200000"),
        ("percentage", "15%", "0.15"),
        ("number words", "seven; a dozen; two dozen", "7; 12; 24"),
        ("durations", "an hour; half an hour; 5 minutes", "3600 s or 60 min; 1800 s or 30 min; 300 s"),
        ("calendar spans", "a week; a month; a quarter; a year", "7; 30; 90; 365 days"),
        ("unit words", "gigabit; 10-gig; 100 meg; 1.5 GW", "1000 Mbps; 10000; 100; 1500 MW"),
        ("currency names", "dollars / $; euros / €; pounds / £", "USD; EUR; GBP"),
        ("string case and separators", "Next Day", "next_day"),
        ("dates", "the first of March 2024; March 1, 2024", "2024-03-01"),
        ("identifier prefix dropped", "#23440", "INC-23440"),
        ("boolean words after the parameter", "dry run on; auto approve off", "true; false"),
    ],
    columns=["normalisation", "query text", "argument value"],
)

# ---------------------------------------------------------------- finite tables --------------
_UNITS_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "a hundred": 100,
    "thousand": 1000,
    "a thousand": 1000,
    "a dozen": 12,
    "half a dozen": 6,
    "two dozen": 24,
    "a couple of": 2,
}
_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
    "twenty-first": 21,
    "twenty-second": 22,
    "twenty-third": 23,
    "twenty-fourth": 24,
    "twenty-fifth": 25,
    "twenty-sixth": 26,
    "twenty-seventh": 27,
    "twenty-eighth": 28,
    "twenty-ninth": 29,
    "thirtieth": 30,
    "thirty-first": 31,
}
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ]
    )
}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_MONTHS["sept"] = 9
# phrase -> candidate values (durations in seconds and minutes; spans in days)
_FIXED_PHRASES: dict[str, tuple[float, ...]] = {
    "a minute": (60.0,),
    "one minute": (60.0,),
    "an hour": (3600.0, 60.0),
    "one hour": (3600.0, 60.0),
    "half an hour": (1800.0, 30.0),
    "a day": (1.0, 86400.0),
    "one day": (1.0, 86400.0),
    "a week": (7.0,),
    "one week": (7.0,),
    "a fortnight": (14.0,),
    "a month": (30.0,),
    "one month": (30.0,),
    "a quarter": (90.0,),
    "a year": (365.0,),
    "one year": (365.0,),
    "gigabit": (1000.0,),
    "a gig": (1000.0,),
}
_UNIT_FACTORS: dict[str, tuple[float, ...]] = {  # "<number> <unit>" -> value x factor
    "minute": (60.0,),
    "minutes": (60.0,),
    "min": (60.0,),
    "mins": (60.0,),
    "hour": (3600.0, 60.0),
    "hours": (3600.0, 60.0),
    "hr": (3600.0, 60.0),
    "hrs": (3600.0, 60.0),
    "week": (7.0,),
    "weeks": (7.0,),
    "month": (30.0,),
    "months": (30.0,),
    "year": (365.0,),
    "years": (365.0,),
    "day": (1.0,),
    "days": (1.0,),
    "gig": (1000.0,),
    "gigabit": (1000.0,),
    "gbps": (1000.0,),
    "meg": (1.0,),
    "mbps": (1.0,),
    "gw": (1000.0,),
    "kw": (0.001, 1000.0),
    "mw": (1.0,),
}
_CURRENCY = {
    "usd": ("dollar", "dollars", "$", "us dollars"),
    "eur": ("euro", "euros", "€"),
    "gbp": ("pound", "pounds", "£", "sterling"),
    "jpy": ("yen", "¥"),
}
_BOOL_WORDS = {True: ("on", "yes", "enabled", "enable", "true"), False: ("off", "no", "disabled", "disable", "false")}
_SUFFIX = {"k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6, "mn": 1e6, "bn": 1e9, "b": 1e9, "B": 1e9}
_HISTORY_KEY_DROP = frozenset({"score", "ref", "id", "result", "output", "value", "reference"})

# ---------------------------------------------------------------- precompiled regexes -------
_NUM_TOKEN = re.compile(r"(?<![\w.,])-?\d+(?:\.\d+)?(?![\d,]*\d)(?!\.\d)")
_THOUSANDS = re.compile(r"(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d])")
_SUFFIXED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(k|K|M|mn|bn|B)\b")
_PERCENT = re.compile(r"(-?\d+(?:\.\d+)?)\s?(?:%|percent\b|per cent\b)")
_NUM_UNIT = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?|"
    + "|".join(sorted((re.escape(w) for w in _UNITS_WORDS), key=len, reverse=True))
    + r")[\s-]?("
    + "|".join(sorted(_UNIT_FACTORS, key=len, reverse=True))
    + r")\b",
    re.I,
)
_WORD_NUM = re.compile(
    r"\b(" + "|".join(sorted((re.escape(w) for w in _UNITS_WORDS), key=len, reverse=True)) + r")\b", re.I
)
_PHRASE = re.compile(
    r"\b(" + "|".join(sorted((re.escape(w) for w in _FIXED_PHRASES), key=len, reverse=True)) + r")\b", re.I
)
_MONTH_RX = "|".join(sorted(_MONTHS, key=len, reverse=True))
_ORD_RX = "|".join(sorted((re.escape(o) for o in _ORDINALS), key=len, reverse=True))
_DATE_DMY = re.compile(
    r"\b(?:the\s+)?(\d{1,2}|" + _ORD_RX + r")(?:st|nd|rd|th)?\s+(?:of\s+)?(" + _MONTH_RX + r")\.?,?\s+(\d{4})\b", re.I
)
_DATE_MDY = re.compile(
    r"\b(" + _MONTH_RX + r")\.?\s+(?:the\s+)?(\d{1,2}|" + _ORD_RX + r")(?:st|nd|rd|th)?,?\s+(\d{4})\b", re.I
)
_DATE_ISO = re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b")
_ISO_VALUE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$")
_IDENT_VALUE = re.compile(r"^[A-Za-z]{1,8}[-_#]?(\d{3,})$")
_PLACEHOLDER = re.compile(
    r"^\s*(?:step[_\s\-#]?\d+|call[_\s\-#]?\d+|\$\{?[a-z_][\w.]*\}?|\{\{.*\}\}|<\s*(?:result|output)s?\s+of\s+.+>"
    r"|(?:the\s+)?(?:result|output)\s+of\s+(?:the\s+)?[\w\s]+)\s*$",
    re.I,
)
_HISTORY_DESC = re.compile(
    r"\b(?:output|result|reference|id|identifier|value)s?\s+(?:of|from|returned by)\s+(?:the\s+)?([a-z][\w\s]*?)\s+(?:step|call|tool)\b",
    re.I,
)
_WORDS = re.compile(r"[a-z0-9]+")
_PREFILTER = True  # skip a regex when the literals it needs are absent (tests turn it off to compare)
_FOUR_DIGITS = re.compile(r"\d{4}")
_LETTERS = re.compile(r"[a-z]+")
# per currency: its non-alphabetic names (substring test) and one regex of its alphabetic names
_CURRENCY_FINDERS = {
    code: (
        tuple(n for n in names if not n.isalpha()),
        re.compile("|".join(rf"\b{n}\b" for n in names if n.isalpha())) if any(n.isalpha() for n in names) else None,
    )
    for code, names in _CURRENCY.items()
}
_UNITS_WORD_SETS = [frozenset(w.split()) for w in _UNITS_WORDS]
_FOLD_VALUE = re.compile(r"[\s_\-]+")
_FOLD_QUERY = re.compile(r"[^\w@.#$%]+")


def _close(a: float, b: float) -> bool:
    """Return whether two numbers are equal up to float noise (relative 1e-9)."""
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _num_key(x: float) -> float:
    """Return a hashable rounded key for a number (12 significant digits)."""
    return float(f"{x:.12g}")


def _word_tokens(text: str) -> list[str]:
    """Return lower-case alphanumeric tokens of an identifier or text ("predict_energy" -> 2)."""
    return _WORDS.findall(text.lower().replace("_", " "))


def _iso(y: int, m: int, d: int) -> str | None:
    """Return an ISO date string or None if the triple is not a date."""
    if not (1 <= m <= 12 and 1 <= d <= 31 and 1000 <= y <= 9999):
        return None
    return f"{y:04d}-{m:02d}-{d:02d}"


def _day(s: str) -> int:
    """Return a day number from digits or an ordinal word."""
    return int(s) if s.isdigit() else _ORDINALS[s.lower()]


@dataclass
class QueryIndex:
    """A query digested once: visible numbers, FORMAT numbers, dates, currencies, text forms."""

    text: str
    lower: str = ""
    visible_numbers: set[float] = field(default_factory=set)
    format_numbers: set[float] = field(default_factory=set)
    dates: set[str] = field(default_factory=set)
    currencies: set[str] = field(default_factory=set)
    squashed: str = ""
    folded: str = ""
    plain: str = ""

    def __post_init__(self) -> None:
        """Extract every candidate value of the query with the precompiled regexes."""
        t = self.text.replace("\u202f", " ").replace("\u00a0", " ").replace("\u2011", "-")
        self.lower = t.lower()
        self.squashed = " " + re.sub(r"[\s_\-]+", " ", self.lower) + " "
        self.folded = _FOLD_QUERY.sub(" ", self.squashed)  # what has_text_folded searches
        self.plain = self.text.replace("\u202f", " ")  # what has_text searches
        for m in _NUM_TOKEN.finditer(t):
            self.visible_numbers.add(_num_key(float(m.group())))
        fmt = self.format_numbers
        # The expensive regexes only run when a literal they need is in the text (exact for
        # ASCII text, where IGNORECASE matching equals matching the lower-cased text).
        # Number words and month names only match as whole words (bounded on both sides), so
        # the set of the text's letter runs decides; units may follow a word without a space.
        low, ascii_ = self.lower, _PREFILTER and t.isascii()
        tokens = set(_LETTERS.findall(low)) if ascii_ else set()
        words = not ascii_ or any(ws <= tokens for ws in _UNITS_WORD_SETS)
        phrases = not ascii_ or any(w in low for w in _FIXED_PHRASES)
        units = not ascii_ or any(w in low for w in _UNIT_FACTORS)
        months = not ascii_ or (not tokens.isdisjoint(_MONTHS) and _FOUR_DIGITS.search(t) is not None)
        for m in _THOUSANDS.finditer(t):
            fmt.add(_num_key(float(m.group().replace(",", ""))))
        for m in _SUFFIXED.finditer(t):
            fmt.add(_num_key(float(m.group(1)) * _SUFFIX[m.group(2)]))
        for m in _PERCENT.finditer(t):
            fmt.add(_num_key(float(m.group(1)) / 100.0))
        for m in _WORD_NUM.finditer(t) if words else ():
            fmt.add(float(_UNITS_WORDS[m.group(1).lower()]))
        for m in _PHRASE.finditer(t) if phrases else ():
            fmt.update(_FIXED_PHRASES[m.group(1).lower()])
        for m in _NUM_UNIT.finditer(t) if units else ():
            q = m.group(1).lower()
            base = float(q) if q[0].isdigit() else float(_UNITS_WORDS[q])
            fmt.update(_num_key(base * f) for f in _UNIT_FACTORS[m.group(2).lower()])
        for rx, order in ((_DATE_DMY, "dmy"), (_DATE_MDY, "mdy")):
            for m in rx.finditer(t) if months else ():
                a, b, y = m.groups()
                d, mo = (
                    (_day(a), _MONTHS[b.lower().rstrip(".")])
                    if order == "dmy"
                    else (_day(b), _MONTHS[a.lower().rstrip(".")])
                )
                iso = _iso(int(y), mo, d)
                if iso:
                    self.dates.add(iso)
        for m in _DATE_ISO.finditer(t):
            iso = _iso(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            if iso:
                self.dates.add(iso)
        for code, (symbols, rx) in _CURRENCY_FINDERS.items():
            if any(n in low for n in symbols) or (rx is not None and rx.search(low)):
                self.currencies.add(code)

    def has_number(self, x: float) -> bool:
        """Return whether the number x is a literal number token of the query."""
        return _num_key(x) in self.visible_numbers

    def has_format_number(self, x: float) -> bool:
        """Return whether x is among the query's normalised numbers (FORMAT)."""
        return _num_key(x) in self.format_numbers

    def has_text(self, s: str) -> bool:
        """Return whether s occurs case-sensitively in the query, not inside a longer word."""
        if not s or s not in self.plain:  # a substring test first: most values are not in the query
            return False
        return re.search(r"(?<![\w])" + re.escape(s) + r"(?![\w])", self.plain) is not None

    def has_text_folded(self, s: str) -> bool:
        """Return whether s occurs ignoring case and '_' / '-' / space differences."""
        folded = _FOLD_VALUE.sub(" ", s.lower()).strip()
        return bool(folded) and f" {folded} " in self.folded

    def bool_stated(self, param: str, value: bool, words: Sequence[str]) -> bool:
        """Return whether '<param> <word>' (param as identifier or words; up to 2 words between) is in the query."""
        forms = {re.escape(param.lower()), r"[\s_\-]+".join(re.escape(w) for w in _word_tokens(param))}
        rx = r"\b(?:" + "|".join(forms) + r")\b(?:\W+\w+){0,2}?\W+(?:" + "|".join(words) + r")\b"
        return re.search(rx, self.lower) is not None


def _to_number(v: Any) -> float | None:
    """Return v as a float when it is a number or a numeric string (bools are not numbers)."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, int | float | np.integer | np.floating):
        f = float(v)
        return f if math.isfinite(f) else None
    if isinstance(v, str):
        try:
            f = float(v.strip().replace(",", ""))
        except ValueError:
            return None
        return f if math.isfinite(f) else None
    return None


def leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Yield (path, leaf) for every leaf of a nested argument value (empty containers are leaves)."""
    if isinstance(value, Mapping) and value:
        for k, v in value.items():
            yield from leaves(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list | tuple) and value:
        for i, v in enumerate(value):
            yield from leaves(v, f"{path}[{i}]")
    else:
        yield path, value


def _same(a: Any, b: Any) -> bool:
    """Return whether two leaf values are equal (numbers up to float noise, strings exactly)."""
    na, nb = _to_number(a), _to_number(b)
    if na is not None and nb is not None and not isinstance(a, str | bool) and not isinstance(b, bool):
        return _close(na, nb)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or (isinstance(a, bool) and isinstance(b, bool) and a == b)
    return a == b


def is_visible(value: Any, param: str, q: QueryIndex) -> bool:
    """Return whether the value's literal text appears in the query (VISIBLE)."""
    if isinstance(value, bool):
        return q.bool_stated(param, value, ("true",) if value else ("false",))
    num = _to_number(value)
    if num is not None and q.has_number(num):
        return True
    if isinstance(value, str):
        return q.has_text(value.strip())
    return False


def is_format(value: Any, param: str, q: QueryIndex) -> bool:
    """Return whether the value appears in the query after one documented normalisation (FORMAT)."""
    if isinstance(value, bool):
        return q.bool_stated(param, value, _BOOL_WORDS[value])
    num = _to_number(value)
    if num is not None and not isinstance(value, str) and q.has_format_number(num):
        return True
    if not isinstance(value, str):
        return False
    s = value.strip()
    if not s:
        return False
    m = _ISO_VALUE.match(s)
    if m and s[:10] in q.dates:
        return True
    if s.lower() in _CURRENCY and s.lower() in q.currencies:
        return True
    m = _IDENT_VALUE.match(s)
    if m and q.has_number(float(m.group(1))):
        return True
    if num is not None and q.has_format_number(num):
        return True
    return q.has_text_folded(s)


@dataclass
class CallContext:
    """What the census needs about one expected call: tool schema and earlier calls/outputs."""

    tool: str
    schema: Mapping[str, Any]
    earlier_tools: list[str]
    earlier_outputs: list[Any]


def from_earlier_output(value: Any, ctx: CallContext) -> bool:
    """Return True if the value equals a leaf of an earlier call's known output."""
    return any(out is not None and any(_same(value, leaf) for _, leaf in leaves(out)) for out in ctx.earlier_outputs)


def history_rule(value: Any, param: str, ctx: CallContext) -> str | None:
    """Return which HISTORY-ONLY rule fires for a value (output / placeholder / schema / name) or None."""
    if not ctx.earlier_tools:
        return None
    if from_earlier_output(value, ctx):
        return "output"
    if isinstance(value, str) and _PLACEHOLDER.match(value):
        return "placeholder"
    desc = str((ctx.schema.get("properties") or {}).get(param, {}).get("description", "")) if ctx.schema else ""
    m = _HISTORY_DESC.search(desc)
    if m:
        want = set(_word_tokens(m.group(1)))
        if any(want and want <= set(_word_tokens(t)) for t in ctx.earlier_tools):
            return "schema"
    key = [w[:5] for w in _word_tokens(param) if w not in _HISTORY_KEY_DROP]
    if key and any(set(key) <= {w[:5] for w in _word_tokens(t)} for t in ctx.earlier_tools):
        return "name"
    return None


def classify_value(value: Any, param: str, q: QueryIndex, ctx: CallContext) -> tuple[str, str]:
    """Return (path, rule) for one argument value: the first of VISIBLE, FORMAT, DEFAULT, HISTORY-ONLY, NO-SOURCE.

    Where the record carries tool outputs, a value equal to an earlier output is HISTORY-ONLY
    ("output") as soon as it is not literally in the query: the outputs decide before the
    FORMAT, DEFAULT and other HISTORY-ONLY rules, which only guess at a source.
    """
    if is_visible(value, param, q):
        return "VISIBLE", "literal"
    if ctx.earlier_tools and from_earlier_output(value, ctx):
        return "HISTORY-ONLY", "output"
    if is_format(value, param, q):
        return "FORMAT", "normalised"
    props = (ctx.schema.get("properties") or {}) if ctx.schema else {}
    spec = props.get(param.split(".")[0].split("[")[0], {})
    if (
        isinstance(spec, Mapping)
        and "default" in spec
        and spec["default"] is not None
        and _same(value, spec["default"])
    ):
        return "DEFAULT", "schema default"
    rule = history_rule(value, param.split(".")[0].split("[")[0], ctx)
    if rule:
        return "HISTORY-ONLY", rule
    return "NO-SOURCE", "none"


CENSUS_COLUMNS: list[str] = ["step", "tool", "param", "arg_path", "value", "path", "rule"]


def _call_contexts(
    calls: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]], outputs: Sequence[Any] | None
) -> list[tuple[int, CallContext, list[tuple[str, str, Any, str]]]]:
    """Return per expected call (step, its CallContext, [(param, arg_path, leaf, leaf as JSON)]).

    What the census needs of a record that does not depend on the query: built once per record
    and reused for each difficulty.
    """
    by_name = {str(t.get("name")): t for t in tools or []}
    out = []
    for i, c in enumerate(calls):
        ctx = CallContext(
            str(c["name"]),
            by_name.get(str(c["name"]), {}),
            [str(x["name"]) for x in calls[:i]],
            list(outputs[:i]) if outputs is not None else [],
        )
        args = [
            (str(key), path, leaf, json.dumps(leaf, default=str))
            for key, v in (c.get("arguments") or {}).items()
            for path, leaf in leaves(v, str(key))
        ]
        out.append((i + 1, ctx, args))
    return out


def _census_rows(
    contexts: list[tuple[int, CallContext, list[tuple[str, str, Any, str]]]], q: QueryIndex
) -> Iterator[tuple]:
    """Yield one census row (CENSUS_COLUMNS) per leaf argument value of the calls, against query q."""
    for step, ctx, args in contexts:
        for key, path, leaf, text in args:
            p, rule = classify_value(leaf, key, q, ctx)  # nested leaves: anchored on the key
            yield (step, ctx.tool, key, path, text, p, rule)


def census_calls(
    query: str,
    calls: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]],
    outputs: Sequence[Any] | None = None,
    q: QueryIndex | None = None,
) -> pd.DataFrame:
    """Return one row per leaf argument value: step, tool, param, path (leaf), value, path, rule.

    ``calls`` are canonical ``{"name", "arguments"}``; ``tools`` canonical schemas
    (``ajb_utils.calls.normalize_tools``); ``outputs[i]`` the output of call i when known.
    """
    q = q if q is not None else QueryIndex(query)
    rows = list(_census_rows(_call_contexts(calls, tools, outputs), q))
    return pd.DataFrame(rows, columns=CENSUS_COLUMNS)


# ---------------------------------------------------------------- raw records ---------------
def raw_record_trace(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Return {query, calls, outputs, tools, dag_type} from one record in the authors' raw format.

    The conversation (``expected_responses``) alternates assistant tool-call turns and tool
    turns whose content maps each call id (``step2``) to its output; calls are flattened in
    order and ``outputs[i]`` is call i's output (None when the trace does not show it).
    """
    calls: list[dict[str, Any]] = []
    ids: list[str | None] = []
    out_by_id: dict[str, Any] = {}
    for turn in raw.get("expected_responses") or []:
        if turn.get("role") == "assistant" and turn.get("tool_calls"):
            tc = turn["tool_calls"]
            items = json.loads(tc) if isinstance(tc, str) else tc
            for item, canon in zip(items, normalize_calls(items) or [], strict=True):
                calls.append(canon)
                ids.append(item.get("id") if isinstance(item, Mapping) else None)
        elif turn.get("role") == "tool" and turn.get("content"):
            content = turn["content"]
            items = json.loads(content) if isinstance(content, str) else content
            for item in items if isinstance(items, list) else [items]:
                o = item.get("output", item) if isinstance(item, Mapping) else None
                if isinstance(o, Mapping) and "function" in o:
                    out_by_id[str(o["function"])] = o.get("output")
    return {
        "query": str(raw.get("user_message", "")),
        "calls": calls,
        "outputs": [out_by_id.get(str(i)) if i is not None else None for i in ids],
        "tools": normalize_tools(raw.get("available_tools") or raw.get("tools")),
        "dag_type": raw.get("dag_type"),
    }


# ---------------------------------------------------------------- the benchmark census ------
def records_from_raw(raws: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Return records in the shape of ``bench.records`` (plus ``expected_outputs``) from raw authors' records.

    The raw format has one user message; it stands for every difficulty's query.
    """
    rows = []
    for raw in raws:
        tr = raw_record_trace(raw)
        rows.append(
            {
                "id": str(raw.get("id")),
                "dag_type": tr["dag_type"],
                **{f"query_{d}": tr["query"] for d in DIFFICULTIES},
                "tools": tr["tools"],
                "expected_calls": tr["calls"],
                "expected_outputs": tr["outputs"],
            }
        )
    return pd.DataFrame(rows)


def derivation_census(records: pd.DataFrame, difficulties: Iterable[str] = DIFFICULTIES) -> pd.DataFrame:
    """Return the census: one row per (id, difficulty, leaf argument) with dag_type and path.

    ``records`` is ``bench.records`` or :func:`records_from_raw`. Where a record carries tool
    outputs (column ``expected_outputs``), HISTORY-ONLY is decided from them first; the release
    has none, so there it fires through placeholders, schema descriptions and parameter names
    only (see module doc). The same rows as :func:`census_calls` per record and difficulty,
    concatenated; built as one list of rows (each record's calls digested once, each query
    once), not a frame per call.
    """
    difficulties = list(difficulties)
    has_outputs = "expected_outputs" in records.columns
    cols = ["id", "dag_type", "tools", "expected_calls", *[f"query_{d}" for d in difficulties]]
    cols += ["expected_outputs"] if has_outputs else []
    rows: list[tuple] = []
    for r in zip(*(records[c].tolist() for c in cols)):
        rid, dag, tools, calls = str(r[0]), str(r[1]), r[2], r[3] or []
        contexts = _call_contexts(calls, tools, r[-1] if has_outputs else None)
        if not any(args for _, _, args in contexts):
            continue
        for j, d in enumerate(difficulties):
            q = QueryIndex(str(r[4 + j]))
            rows.extend((rid, dag, d, *row) for row in _census_rows(contexts, q))
    out = pd.DataFrame(rows, columns=["id", "dag_type", "difficulty", *CENSUS_COLUMNS])
    out["path"] = pd.Categorical(out["path"], categories=PATHS)
    out["difficulty"] = pd.Categorical(out["difficulty"], categories=list(DIFFICULTIES))
    return out


def path_shares(census: pd.DataFrame, by: Sequence[str] = ("difficulty",)) -> pd.DataFrame:
    """Return the share (%) of each derivation path per group: columns by..., n_args, PATHS..."""
    by = list(by)
    counts = census.groupby(by + ["path"], observed=False, sort=True).size().unstack("path", fill_value=0)
    counts = counts.reindex(columns=PATHS, fill_value=0)
    n = counts.sum(axis=1)
    shares = 100.0 * counts.div(n.where(n > 0), axis=0)
    shares.insert(0, "n_args", n.astype(np.int64))
    shares.columns.name = None
    return shares.reset_index()


def record_nonvisible_share(census: pd.DataFrame) -> pd.DataFrame:
    """Return per (id, difficulty): n_args and nonvisible_share (0-1) of non-VISIBLE arguments."""
    work = census[["id", "difficulty"]].copy()
    work["_nv"] = (census["path"].astype(str) != "VISIBLE").to_numpy(float)
    out = work.groupby(["id", "difficulty"], observed=True, sort=True)["_nv"].agg(["mean", "size"])
    return out.rename(columns={"mean": "nonvisible_share", "size": "n_args"}).reset_index()
