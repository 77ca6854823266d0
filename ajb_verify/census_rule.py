"""The census rule: the class of every number of the paper's text, and the kind of check a data number needs.

A number of the text (a row of data/paper/census/v1_text_numbers.csv: section, number, unit and
the text around it) is, by the first rule that applies (`number_class`):
- **year or label**: an ordinal list marker or name part ('1A dataset', 'judge 2', '70B', a date);
- **reference**: another work's number or a pointer into the paper ('Kim et al.', 'study .2', 'page 1');
- **worked example**: a value of one of the records App. H and I walk through (queries, their scores);
- **formula**: a symbol or constant of an equation (the math around it: sums, set operators, '=');
- **constant**: a setting of the protocol (temperatures, the verdict scale, weights, CI level, grid sizes);
- **data**: everything else: a number that states something about the data, which must be checked.

A data number is checked by the kind its phrase asks for (`check_kind`, the first that applies):
**order/extreme** (an ordinal: '1st', '4th', or 'the weakest', 'strongest' beside it) against the
ranking; **N of M** ('9 of 21') against the count; **approximation** ('~93 %', 'roughly 10 pp');
**every member** ('every judge', 'all generators', 'consistently') on each member, never on their
mean; **range/bound** ('at most 0.6', 'over', 'between', '8-19') against the cells it summarises;
else **value**. `check` decides one number against the value its table gives (`check_op` reads the
direction of a bound from the phrase).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from ajb_utils import paper
from ajb_verify import engine

_INDEPENDENT_SOURCE = re.compile(r"draft LaTeX (?:tab|fig):[\w-]+$|draft figure ")


def independent_source(source: str) -> bool:
    """Return True when a transcribed value's ``source`` names a draft table or figure (not only prose:
    v1 text, a caption, the draft's section text)."""
    return any(_INDEPENDENT_SOURCE.search(part.strip()) for part in str(source).split(";"))


__all__ = [
    "CHECK_KINDS",
    "NUMBER_CLASSES",
    "independent_source",
    "check",
    "check_kind",
    "check_op",
    "classify",
    "data_checks",
    "number_class",
    "across_sections",
    "signed_value",
]

NUMBER_CLASSES: tuple[str, ...] = ("data", "formula", "reference", "constant", "worked example", "year or label")
CHECK_KINDS: tuple[str, ...] = ("range/bound", "N of M", "order/extreme", "approximation", "every member", "value")

_ORDINAL = re.compile(r"^(?:st|nd|rd|th)\b")
# a name or a list marker: 'judge 2', 'Figure 9:', 'gpt-5.4', a date '-04-01', 'Cases 1-2', '1A dataset', '70B', '2-judge'
_LABEL_BEFORE = re.compile(
    r"(?:page|Prometheus|Cases?\s*\d*\s*[–-]?|api-ver|Instruct|W\.|Figure|Table|gpt-?|-\d\d-)\s*$", re.I
)
_LABEL_DIGIT_BEFORE = re.compile(r"(?:judge|Prom|id|position)\s*$", re.I)  # 'judge 2', 'Prom2', 'id 2'
_LABEL_AFTER = re.compile(r"^(?:\s*B\b|-\d\d-|-?(?:judge|meta))")  # '70B', '-04-01', '2-judge'
_MARKER_AFTER = re.compile(r"^(?!pp|n=|g,d|x\b|st\b|nd\b|rd\b|th\b)[A-Za-z]")  # a one-digit marker: '1A', '2Ground'

_ENUMERATION = re.compile(r"(?:[:;]|\band)\s*$")  # '...explanations: 1 the prompt ...; 2 generator error ...'
_REFERENCE = re.compile(r"et al|\b(?:in|study|ablation|described in|appear in|Appendix[A-Z]?)\s*\.$|page\s*$")
_EXAMPLE_SECTIONS = ("Appendix H", "Appendix I")
_EXAMPLE = re.compile(
    r"Query|score|tool=|seq=|cov=|param=|\$|calls?\b|distractor|Excerpt|order|hours|°C|kW|\bh\b|position|"
    r"alignment rather|“|With GT|Without GT|Fan-In|three tools"
)
_SELECTION_RULE = re.compile(r"records where|at least one metric|Cases?\s*$|document the")
_MATH = re.compile(r"[∑∖∩∅⊆⊈∈μ¯^]|&if|pt &|max[ℰEG0(]|min[GE]|\bM=|=1M|=\s*cases|cases\d|\|")
_CONSTANT_BEFORE = re.compile(  # a setting named right before its value: 'temperature=0', 'default to 1.0'
    r"(?:temperatures?\s*(?:=|of|at)?|decoded at|remapped to|default(?:s)?(?: to|-to-)?|keys as|threshold|"
    r"current|is =|[×x]|judges\s*[×x]|“fair,”|“moderate,”|=chance,|=perfect;)"
    r"[\W\d]{0,3}$",
    re.I,
)
_CONSTANT_AFTER = re.compile(
    r"^\s*[×x]\s*\d\s*[×x]|^\W{0,3}(?:g,d)*\W*(?:-?verdicts?|rates?\b|partial|per topology|configurations|transactions|indicates|judges|conditions|otherwise|"
    r"rather than|difficulty variants|“|=chance|=perfect|confidence|bootstrap|is the number)",
    re.I,
)
_SCALE = {"0", "0.0", "0.5", "1", "1.0", "0,1"}  # the verdict scale and its interval
_APPROX = re.compile(r"(?:~|∼|≈|roughly|approximately|about|around|nearly)\s*$", re.I)
_EVERY = re.compile(
    r"\bevery\b|\beach\b|\ball (?:six|five|four|\d+ )?\s*\w*(?:judges|generators|metrics|pairs|lift|difficult|"
    r"criteri|\(?generator)|consistently|uniformly|across all",
    re.I,
)
_UPPER = re.compile(r"(?:at most|≤|<=|≪|<|under|below|sub-|up to|within|no more than|less than|only)\s*$", re.I)
_LOWER = re.compile(r"(?:at least|≥|>=|>|over|above|more than|exceeds?|beyond)\s*$", re.I)
_RANGE_DASH = "–-"
_EXTREME = re.compile(r"weakest|strongest|best|worst|highest|lowest|largest|smallest|\btop\b|ranks?\b", re.I)


def _range_end(before: str, after: str) -> str:
    """Return 'lo' or 'hi' when a number opens or closes a range ('8-19', '77.8%-100%', '0.050 to 0.097'), else ''."""
    if (after[:1] in _RANGE_DASH and after[1:2].isdigit()) or re.match(r"^%?\s*(?:to|–)\s*\d", after):
        return "lo"
    if (before[-1:] in _RANGE_DASH and (before[-2:-1].isdigit() or before[-2:-1] == "%")) or re.search(
        r"\d%?\s*to\s*$", before
    ):
        return "hi"
    return ""


def _locate(number: str, context: str, nth: int = 0) -> tuple[str, str, str]:
    """Return the text before and after a number in its census context (after: without the LaTeX
    source copy the HTML rendering repeats; raw: with it). The census cut the context
    50 characters before the number (or at the line's start) and 30 after it (or at the line's end);
    where several occurrences fit, `nth` (the row's rank among the line's rows of that number) picks."""
    tok = number.lstrip("+-−")
    starts = [m.start() for m in re.finditer(re.escape(tok), context)]
    if not starts:
        return context, "", ""
    fits = [s for s in starts if (s == 50 or s < 50) and s + len(tok) + 30 >= len(context) - 1] or starts
    fits = [s for s in fits if s == 50] or fits
    at = fits[min(nth, len(fits) - 1)]
    after = raw = context[at + len(tok) :]
    for copy in (number, tok):  # '0.50.5partial', '-0.8-0.8pp': the HTML text, then its LaTeX source
        if after.startswith(copy):
            after = after[len(copy) :]
            break
    return context[:at], after, raw


def number_class(section: str, number: str, unit: str, context: str, nth: int = 0) -> str:
    """Return the class of one number of the text (`NUMBER_CLASSES`), by the first rule that applies."""
    before, after, raw = _locate(number, context, nth)
    near = before[-8:] + number + after[:6]
    one_digit = re.fullmatch(r"\d", number) is not None
    if (
        _LABEL_AFTER.match(raw)
        or (one_digit and not _MATH.search(near) and (_MARKER_AFTER.match(raw) or _LABEL_DIGIT_BEFORE.search(before)))
        or _LABEL_BEFORE.search(before)
        or (one_digit and _ENUMERATION.search(before[-6:]) and re.match(r"^\s+[a-z]", after))
    ):
        return "year or label"
    if _REFERENCE.search(before[-25:]) or section.startswith("§2") or "et al" in before[-60:]:
        return "reference"
    if section in _EXAMPLE_SECTIONS and _EXAMPLE.search(context) and not _SELECTION_RULE.search(before[-60:]):
        return "worked example"
    if _ORDINAL.match(after):
        return "data"  # '1st -> 4th': a rank the data gives
    if (
        _MATH.search(near)
        or raw.startswith("pt")
        or re.fullmatch(r"\d,\d", number)
        or (section == "§3.2" and "=" in context)
    ):
        return "constant" if _CONSTANT_BEFORE.search(before[-22:]) or _CONSTANT_AFTER.match(after) else "formula"
    arithmetic = re.search(r"\d\s*[×x]\s*\d[\d,]*\s*=\s*$", before)  # '3,808×3=11,424': a result
    if not arithmetic and (_CONSTANT_BEFORE.search(before[-22:]) or _CONSTANT_AFTER.match(after)):
        return "constant"
    if number in _SCALE and re.search(r"(?:=|below)\s*$", before):
        return "constant"
    return "data"


def check_kind(number: str, context: str, nth: int = 0) -> str:
    """Return the kind of check a data number's phrase asks for (`CHECK_KINDS`), the first that applies."""
    before, after, _ = _locate(number, context, nth)
    tok = re.escape(number.lstrip("+-−"))
    if _ORDINAL.match(after) or _EXTREME.search(before[-30:]):
        return "order/extreme"
    if re.search(rf"{tok}\s*(?:of|out of)\s*\d", number.lstrip("+-−") + after[:12]) or re.search(
        rf"\d\s*(?:of|out of)\s*{tok}$", before[-12:] + number.lstrip("+-−")
    ):
        return "N of M"
    if _APPROX.search(before[-12:]):
        return "approximation"
    if _range_end(before, after):
        return "range/bound"  # 'A-B': its ends against the smallest and largest value
    if _EVERY.search(before[-60:] + after[:25]):
        return "every member"
    if _UPPER.search(before[-14:]) or _LOWER.search(before[-14:]) or "between" in before[-20:]:
        return "range/bound"
    return "value"


def check_op(number: str, context: str, nth: int = 0) -> str:
    """Return how a number bounds its table's value: '<=' (at most, under, within), '>=' (at least,
    over), 'lo' / 'hi' (an end of a range 'A-B'), '~' (an approximation) or '=' (a value)."""
    before, after, _ = _locate(number, context, nth)
    if _range_end(before, after):
        return _range_end(before, after)
    if _APPROX.search(before[-12:]):
        return "~"
    if _UPPER.search(before[-14:]):
        return "<="
    if _LOWER.search(before[-14:]):
        return ">="
    return "="


def _half_unit(number: str) -> float:
    """Return half a unit of a printed number's last digit ('0.6' -> 0.05, '21' -> 0.5)."""
    body = number.lstrip("+-−").replace(",", "")
    return 0.5 * 10.0 ** -(len(body.split(".")[1]) if "." in body else 0)


def check(number: str, op: str, values: pd.Series | float) -> bool:
    """Return whether a printed number holds against the values its table gives, at the printed precision:
    '<=' every value at most it, '>=' every value at least it, 'lo' / 'hi' the smallest / largest value
    it, '~' one value within 5 % of it (or one printed unit), '=' one value (or each) it."""
    x = float(number.replace("−", "-").replace(",", ""))
    v = np.atleast_1d(np.asarray(values, dtype=float))
    h = _half_unit(number) + 1e-9
    if not len(v) or np.isnan(v).any():
        return False
    if op == "<=":
        return bool(v.max() <= x + h)
    if op == ">=":
        return bool(v.min() >= x - h)
    if op == "lo":
        return bool(abs(v.min() - x) <= h)
    if op == "hi":
        return bool(abs(v.max() - x) <= h)
    if op == "~":
        return bool((np.abs(v - x) <= max(2 * h, 0.05 * abs(x))).all())
    return bool((np.abs(v - x) <= h).all())


def classify(census: pd.DataFrame) -> pd.DataFrame:
    """Return a census with ``class`` (`NUMBER_CLASSES`) and, for data numbers, ``check kind`` and ``op``."""
    out = census.copy()
    for col in ("line", "unit", "context"):  # a planted census may carry only section, number, mapping
        if col not in out.columns:
            out[col] = ""
    nth = out.groupby(["section", "line", "number"], sort=False).cumcount()
    rows = list(zip(out["section"], out["number"], out["unit"], out["context"], nth))
    out["class"] = [number_class(s, n, u, c, k) for s, n, u, c, k in rows]
    data = (out["class"] == "data").tolist()
    out["check kind"] = [check_kind(n, c, k) if d else "" for (_, n, _, c, k), d in zip(rows, data)]
    out["op"] = [check_op(n, c, k) if d else "" for (_, n, _, c, k), d in zip(rows, data)]
    return out


def signed_value(number: str, context: str, nth: int = 0) -> str:
    """Return a number without a hyphen read as its sign ('sub-0.1' -> '0.1', '77.8%-100%' -> '100')."""
    before, _, _ = _locate(number, context, nth)
    return number.lstrip("-") if number.startswith("-") and re.search(r"[A-Za-z%\d]-?$", before) else number


CHECKS_FILE: Path = Path(__file__).resolve().parent / "resources" / "census_checks.csv"

_STOP = {"with", "from", "that", "this", "over", "than", "under", "every", "each", "which", "their", "judge", "judges"}


def _words(text: str) -> set[str]:
    """Return a text's content words (four letters or more, lower case, common words left out)."""
    return {w for w in re.findall(r"[a-z]{4,}", text.lower()) if w not in _STOP}


def across_sections(
    census: pd.DataFrame, claims: pd.DataFrame | None = None, skip: pd.Series | None = None
) -> pd.Series:
    """Return, per unmapped data number, the claim of any section that prints its value (of a unit its
    text allows) and shares a content word with its sentence ('' where none): a number maps to a claim of
    another section ('<= 0.008' in Limitations to App. O's T23.seq_other_max); a small integer needs two
    words in common; `skip` marks the numbers a check of `CHECKS_FILE` already holds."""
    cl = engine.claims() if claims is None else claims
    cl = cl[cl["unit"] != "sign"]
    out = pd.Series("", index=census.index)
    todo = census[(census["class"] == "data") & (census["mapped_to"] == "") & ~(False if skip is None else skip)]
    for i, r in todo.iterrows():
        x = signed_value(r["number"], r["context"]).replace(",", "")
        same = cl[(cl["printed"].astype(str).str.replace(",", "") == x) | (cl["printed_hi"].astype(str) == x)]
        unit_ok = {"pp": ("pp", "score"), "%": ("%", "pp"), "×": ("ratio",)}.get(r["unit"])
        if unit_ok:
            same = same[same["unit"].isin(unit_ok)]
        need = 1 if "." in x or len(x.strip("0")) >= 2 else 2  # a small integer needs two words in common
        hit = [
            c for c, d in zip(same["claim_id"], same["description"]) if len(_words(d) & _words(r["context"])) >= need
        ]
        out[i] = hit[0] if hit else ""
    return out


def _table_values(artifact: str, query: str, agg: str) -> pd.Series:
    """Return the values of a paper table a data number speaks of: its rows selected by `query`, then
    `agg`: each (every row), abs, min, max, mean, spread:<keys> (max - min per group) or rank:<member>
    (the member's rank, 1 = highest)."""
    r = paper.reported(artifact).query(query)
    v = r["value"].astype(float)
    if agg == "abs":
        return v.abs()
    if agg in ("min", "max", "mean"):
        return pd.Series([getattr(v, agg)()])
    if agg.startswith("spread:"):
        return r.groupby(agg.split(":", 1)[1].split(","))["value"].agg(lambda s: s.max() - s.min())
    if agg.startswith("rank:"):
        member = agg.split(":", 1)[1]
        ranks = v.rank(ascending=False, method="min")
        return pd.Series([float(ranks[r["judge"] == member].iloc[0])])
    return v


def data_checks(census: pd.DataFrame, checks: pd.DataFrame | None = None) -> pd.DataFrame:
    """Return the checks of the data numbers no claim or cell of their own section holds (`CHECKS_FILE`:
    section, line, number -> the table and rows they speak of), each decided by `check` with the op its
    phrase gives, indexed by the census row: target (the table, or a claim where no table prints it),
    table value(s), holds, independent (every row read has a draft table or figure as source), note."""

    ch = pd.read_csv(CHECKS_FILE, dtype=str, keep_default_na=False) if checks is None else checks
    rows = []
    keys = ["section", "line", "number"]
    nth_of = census.groupby(keys, sort=False).cumcount()
    kth = ch.groupby(keys, sort=False).cumcount()  # the k-th check of a (section, line, number): its k-th number
    for k, c in zip(kth, ch.itertuples(index=False)):
        hit = census[(census["section"] == c.section) & (census["line"] == c.line) & (census["number"] == c.number)]
        if len(hit) <= k:
            raise ValueError(f"census_checks.csv: no number {c.number} at {c.section} line {c.line} in the census")
        i = hit.index[k]
        r, nth = census.loc[i], int(nth_of[i])
        if c.agg == "claim":
            rows.append((i, c.query, "", None, False, c.note))
            continue
        values = _table_values(c.artifact, c.query, c.agg)
        op = check_op(r["number"], r["context"], nth)
        ok = check(signed_value(r["number"], r["context"], nth), op, values)
        src = paper.reported(c.artifact).query(c.query)["source"]
        shown = ", ".join(f"{x:g}" for x in values)
        rows.append((i, c.artifact, f"{op} {shown}", ok, bool(src.map(independent_source).all()), c.note))
    cols = ["row", "target", "table value", "holds", "independent", "note"]
    return pd.DataFrame(rows, columns=cols).set_index("row")
