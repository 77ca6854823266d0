"""Derivation-path census (seed 004, DeRef §3.1) of ground-truth argument values.

For every leaf argument value of every expected call, at each difficulty, the census asks how a
judge could derive the value from what it sees (the query of that difficulty and the tool
schemas) and assigns the FIRST matching path, in the DeRef order:

1. ``VISIBLE``  the value's literal text is in the query (numbers as number tokens, e.g. ``1500``
   in "$1500"; strings case-sensitively with word boundaries; booleans as ``<param> true/false``).
2. ``FORMAT``   the value is in the query after one normalisation of ``FORMAT_TABLE`` (nothing else counts).
3. ``DEFAULT``  the value equals the parameter's schema ``default`` (and, by 1-2, is not stated).
4. ``HISTORY-ONLY`` the value is a reference placeholder (``step2``, ``$tool``, ``{{tool.output}}``), or its
   parameter is declared as, or named after, an earlier call's output (``rule`` says which); the release
   carries no tool outputs, so a value is never matched against one.
5. ``NO-SOURCE`` none of these (inferred values, omitted values).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

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
_NUMBER_WORDS = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
_NUMBER_WORDS += " seventeen eighteen nineteen twenty"
_UNITS_WORDS = {w: i + 1 for i, w in enumerate(_NUMBER_WORDS.split())}
_UNITS_WORDS |= {w: 10 * (i + 3) for i, w in enumerate("thirty forty fifty sixty seventy eighty ninety".split())}
_UNITS_WORDS |= {"hundred": 100, "a hundred": 100, "thousand": 1000, "a thousand": 1000}
_UNITS_WORDS |= {"a dozen": 12, "half a dozen": 6, "two dozen": 24, "a couple of": 2}
_ORDINAL_WORDS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth"
_ORDINAL_WORDS += " fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
_ORDINALS = {w: i + 1 for i, w in enumerate(_ORDINAL_WORDS.split())}
_ORDINALS |= {f"twenty-{w}": 21 + i for i, w in enumerate(_ORDINAL_WORDS.split()[:9])}
_ORDINALS |= {"thirtieth": 30, "thirty-first": 31}
_MONTH_NAMES = "january february march april may june july august september october november december"
_MONTHS = {m: i + 1 for i, m in enumerate(_MONTH_NAMES.split())}
_MONTHS |= {m[:3]: i for m, i in list(_MONTHS.items())} | {"sept": 9}
# phrase -> candidate values (durations in seconds and minutes; spans in days)
_FIXED_PHRASES: dict[str, tuple[float, ...]] = {
    **dict.fromkeys(("a minute", "one minute"), (60.0,)),
    **dict.fromkeys(("an hour", "one hour"), (3600.0, 60.0)),
    "half an hour": (1800.0, 30.0),
    **dict.fromkeys(("a day", "one day"), (1.0, 86400.0)),
    **dict.fromkeys(("a week", "one week"), (7.0,)),
    "a fortnight": (14.0,),
    **dict.fromkeys(("a month", "one month"), (30.0,)),
    "a quarter": (90.0,),
    **dict.fromkeys(("a year", "one year"), (365.0,)),
    **dict.fromkeys(("gigabit", "a gig"), (1000.0,)),
}
_UNIT_FACTORS: dict[str, tuple[float, ...]] = {  # "<number> <unit>" -> value x factor
    **dict.fromkeys(("minute", "minutes", "min", "mins"), (60.0,)),
    **dict.fromkeys(("hour", "hours", "hr", "hrs"), (3600.0, 60.0)),
    **dict.fromkeys(("week", "weeks"), (7.0,)),
    **dict.fromkeys(("month", "months"), (30.0,)),
    **dict.fromkeys(("year", "years"), (365.0,)),
    **dict.fromkeys(("day", "days"), (1.0,)),
    **dict.fromkeys(("gig", "gigabit", "gbps"), (1000.0,)),
    **dict.fromkeys(("meg", "mbps", "mw"), (1.0,)),
    "gw": (1000.0,),
    "kw": (0.001, 1000.0),
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


def _longest_first(words: Iterable[str]) -> str:
    """Return a regex alternation of `words`, the longest first (so 'half a dozen' wins over 'a dozen')."""
    return "|".join(sorted(map(re.escape, words), key=len, reverse=True))


# ---------------------------------------------------------------- precompiled regexes -------
_NUM_TOKEN = re.compile(r"(?<![\w.,])-?\d+(?:\.\d+)?(?![\d,]*\d)(?!\.\d)")
_THOUSANDS = re.compile(r"(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d])")
_SUFFIXED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(k|K|M|mn|bn|B)\b")
_PERCENT = re.compile(r"(-?\d+(?:\.\d+)?)\s?(?:%|percent\b|per cent\b)")
_NUM_UNIT = re.compile(
    rf"(?<![\w.])(\d+(?:\.\d+)?|{_longest_first(_UNITS_WORDS)})[\s-]?({_longest_first(_UNIT_FACTORS)})\b", re.I
)
_WORD_NUM = re.compile(rf"\b({_longest_first(_UNITS_WORDS)})\b", re.I)
_PHRASE = re.compile(rf"\b({_longest_first(_FIXED_PHRASES)})\b", re.I)
_MONTH_RX = _longest_first(_MONTHS)
_ORD_RX = _longest_first(_ORDINALS)
_DAY_RX = r"(?P<d>\d{1,2}|" + _ORD_RX + r")(?:st|nd|rd|th)?"
_DATE_DMY = re.compile(
    r"\b(?:the\s+)?" + _DAY_RX + r"\s+(?:of\s+)?(?P<m>" + _MONTH_RX + r")\.?,?\s+(?P<y>\d{4})\b", re.I
)
_DATE_MDY = re.compile(r"\b(?P<m>" + _MONTH_RX + r")\.?\s+(?:the\s+)?" + _DAY_RX + r",?\s+(?P<y>\d{4})\b", re.I)
_DATE_ISO = re.compile(r"\b(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})\b")
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
# per currency: one regex of its names, an alphabetic one as a whole word, a symbol anywhere
_CURRENCY_FINDERS = {
    code: re.compile("|".join(rf"\b{n}\b" if n.isalpha() else re.escape(n) for n in names))
    for code, names in _CURRENCY.items()
}
_FOLD_VALUE = re.compile(r"[\s_\-]+")
_FOLD_QUERY = re.compile(r"[^\w@.#$%]+")


def _num_key(x: float) -> float:
    """Return a hashable rounded key for a number (12 significant digits)."""
    return float(f"{x:.12g}")


def _word_tokens(text: str) -> list[str]:
    """Return lower-case alphanumeric tokens of an identifier or text ("predict_energy" -> 2)."""
    return _WORDS.findall(text.lower().replace("_", " "))


def _day(s: str) -> int:
    """Return a day number from digits or an ordinal word."""
    return int(s) if s.isdigit() else _ORDINALS[s.lower()]


class QueryIndex:
    """A query digested once: visible numbers, FORMAT numbers, dates, currencies, text forms."""

    def __init__(self, text: str) -> None:
        """Extract every candidate value of the query with the precompiled regexes."""
        self.text = text
        t = text.replace("\u202f", " ").replace("\u00a0", " ").replace("\u2011", "-")
        self.lower = t.lower()
        self.squashed = " " + re.sub(r"[\s_\-]+", " ", self.lower) + " "
        self.folded = _FOLD_QUERY.sub(" ", self.squashed)  # what has_text_folded searches
        self.plain = text.replace("\u202f", " ")  # what has_text searches
        self.visible_numbers = {_num_key(float(m.group())) for m in _NUM_TOKEN.finditer(t)}
        fmt = {_num_key(float(m.group().replace(",", ""))) for m in _THOUSANDS.finditer(t)}
        fmt |= {_num_key(float(m.group(1)) * _SUFFIX[m.group(2)]) for m in _SUFFIXED.finditer(t)}
        fmt |= {_num_key(float(m.group(1)) / 100.0) for m in _PERCENT.finditer(t)}
        fmt |= {float(_UNITS_WORDS[m.group(1).lower()]) for m in _WORD_NUM.finditer(t)}
        fmt.update(v for m in _PHRASE.finditer(t) for v in _FIXED_PHRASES[m.group(1).lower()])
        for m in _NUM_UNIT.finditer(t):
            q = m.group(1).lower()
            base = float(q) if q[0].isdigit() else float(_UNITS_WORDS[q])
            fmt.update(_num_key(base * f) for f in _UNIT_FACTORS[m.group(2).lower()])
        self.format_numbers = fmt
        ymd = [(m["y"], _MONTHS[m["m"].lower()], _day(m["d"])) for rx in (_DATE_DMY, _DATE_MDY) for m in rx.finditer(t)]
        ymd += [(m["y"], m["m"], m["d"]) for m in _DATE_ISO.finditer(t)]
        ymd = [(int(y), int(mo), int(d)) for y, mo, d in ymd]
        self.dates = {f"{y:04d}-{mo:02d}-{d:02d}" for y, mo, d in ymd if 1 <= mo <= 12 and 1 <= d <= 31 and y >= 1000}
        self.currencies = {code for code, rx in _CURRENCY_FINDERS.items() if rx.search(self.lower)}

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
    if isinstance(v, bool) or not isinstance(v, int | float | np.integer | np.floating | str):
        return None
    try:
        f = float(v.strip().replace(",", "") if isinstance(v, str) else v)
    except ValueError:
        return None
    return f if math.isfinite(f) else None


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
        return math.isclose(na, nb, rel_tol=1e-9, abs_tol=1e-9)  # equal up to float noise
    return a is b if isinstance(a, bool) or isinstance(b, bool) else a == b


def is_visible(value: Any, param: str, q: QueryIndex) -> bool:
    """Return whether the value's literal text appears in the query (VISIBLE)."""
    if isinstance(value, bool):
        return q.bool_stated(param, value, ("true",) if value else ("false",))
    num = _to_number(value)
    return (num is not None and q.has_number(num)) or (isinstance(value, str) and q.has_text(value.strip()))


def is_format(value: Any, param: str, q: QueryIndex) -> bool:
    """Return whether the value appears in the query after one documented normalisation (FORMAT)."""
    if isinstance(value, bool):
        return q.bool_stated(param, value, _BOOL_WORDS[value])
    num = _to_number(value)
    if num is not None and q.has_format_number(num):
        return True
    if not isinstance(value, str):
        return False
    s = value.strip()  # blank text matches none of these
    ident = _IDENT_VALUE.match(s)
    return (
        (_ISO_VALUE.match(s) is not None and s[:10] in q.dates)
        or s.lower() in q.currencies
        or (ident is not None and q.has_number(float(ident.group(1))))
        or q.has_text_folded(s)
    )


@dataclass
class CallContext:
    """What the census needs about one expected call: tool schema and earlier calls/outputs."""

    tool: str
    schema: Mapping[str, Any]
    earlier_tools: list[str]


def history_rule(value: Any, param: str, ctx: CallContext) -> str | None:
    """Return which HISTORY-ONLY rule fires for a value (placeholder / schema / name) or None."""
    if not ctx.earlier_tools:
        return None
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
    """Return (path, rule) for one argument value: the first of VISIBLE, FORMAT, DEFAULT, HISTORY-ONLY, NO-SOURCE."""
    if is_visible(value, param, q):
        return "VISIBLE", "literal"
    if is_format(value, param, q):
        return "FORMAT", "normalised"
    key = param.split(".")[0].split("[")[0]
    spec = ((ctx.schema.get("properties") or {}) if ctx.schema else {}).get(key, {})
    if isinstance(spec, Mapping) and spec.get("default") is not None and _same(value, spec["default"]):
        return "DEFAULT", "schema default"
    rule = history_rule(value, key, ctx)
    if rule:
        return "HISTORY-ONLY", rule
    return "NO-SOURCE", "none"


CENSUS_COLUMNS: list[str] = ["step", "tool", "param", "arg_path", "value", "path", "rule"]


def _call_contexts(
    calls: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]]
) -> list[tuple[int, CallContext, list[tuple[str, str, Any, str]]]]:
    """Return per expected call (step, its CallContext, [(param, arg_path, leaf, leaf as JSON)]), once per record."""
    by_name = {str(t.get("name")): t for t in tools or []}
    out = []
    for i, c in enumerate(calls):
        ctx = CallContext(str(c["name"]), by_name.get(str(c["name"]), {}), [str(x["name"]) for x in calls[:i]])
        args = [
            (str(key), path, leaf, json.dumps(leaf, default=str))
            for key, v in (c.get("arguments") or {}).items()
            for path, leaf in leaves(v, str(key))
        ]
        out.append((i + 1, ctx, args))
    return out


def derivation_census(records: pd.DataFrame, difficulties: Iterable[str] = DIFFICULTIES) -> pd.DataFrame:
    """Return the census: one row per (id, difficulty, leaf argument) with its step, tool, param, path and rule."""
    difficulties = list(difficulties)
    cols = ["id", "dag_type", "tools", "expected_calls", *[f"query_{d}" for d in difficulties]]
    rows: list[tuple] = []
    for r in zip(*(records[c].tolist() for c in cols)):
        contexts = _call_contexts(r[3] or [], r[2])
        for d, query in zip(difficulties, r[4:]):
            q = QueryIndex(str(query))
            for step, ctx, args in contexts:
                for key, path, leaf, text in args:
                    p, rule = classify_value(leaf, key, q, ctx)  # nested leaves: anchored on the key
                    rows.append((str(r[0]), str(r[1]), d, step, ctx.tool, key, path, text, p, rule))
    out = pd.DataFrame(rows, columns=["id", "dag_type", "difficulty", *CENSUS_COLUMNS])
    out["path"] = pd.Categorical(out["path"], categories=PATHS)
    out["difficulty"] = pd.Categorical(out["difficulty"], categories=list(DIFFICULTIES))
    return out
