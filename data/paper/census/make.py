"""The census of the v1 text: every number of the arXiv v1 text -> data/paper/census/v1_text_numbers.csv.

    python data/paper/census/make.py <the v1 text as Markdown>

The v1 HTML rendered as Markdown (shared/seeds/000_*.txt, not shipped) is read line by line: each
number of its prose (reference labels, model names, years, footnote markers and the sections of
citations and prompt text left out) with its section, line, unit and the tables its paragraph cites,
then mapped automatically to the claim of data/paper/claims.csv or the printed table cell it rests on
(the ``how`` column says which rule). Deterministic: run on the same text it rewrites the committed
file byte for byte (ajb_verify/tests/test_paper_census.py checks it where the text is available). The
verification reads the committed file (`ajb_verify.paper_census`) and checks each mapped number
(`ajb_verify.text_census`).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pandas as pd

from ajb_utils import paper
from ajb_verify import engine

OUT = Path(__file__).resolve().parent / "v1_text_numbers.csv"


def _norm(num: str) -> str:
    """Return a printed number without sign, thousands separators or a trailing dot ('+1,322' -> '1322')."""
    return str(num).strip().lstrip("+-−").replace(",", "").rstrip(".")


_SKIPPED_SECTIONS = ("References", "Appendix V", "Appendix W", "Appendix X")  # citations, survey, prompt text


_MODEL = re.compile(
    r"(GPT-OSS-\d+B|GPT-\d(?:\.\d)?|Qwen\d?(?:\.\d)?-?\d*\.?\d*B?|QwQ-\d+B|Llama-\d(?:\.\d)?-\d+B|SmolLM\d-\d+B|"
    r"\d\.\d-default|(?<=default to )“?\d\.\d|0,\s*0\.5,\s*1(?:0,\s*0\.5,\s*1)?|"  # prompt names, the verdict scale
    r"Gemini[- ]\d\.\d[- ]Pro|Claude[- ]Sonnet[- ]\d(?:\.\d)?|Prometheus-\d|Phi-\d|\b\d+(?:\.\d)?B\b|\bC\d\b|\bA\d\b|"
    r"\b(?:Table|Figure|Fig|Appendix|Section|Eq|Eqs|Tables|Figures|Finding|Findings|Case|RQ|seed)\.?\s*\d+[a-z]?"
    r"(?:\s*(?:[-–,]|and)\s*\d+[a-z]?)*|§\s*\d*(?:\.\d+)?|(?<![\d.,])(?:(?:19|20)\d\d[a-z]?){1,2}(?![\d.,]\d))"
)


_NUMBER = re.compile(r"[+−-]?\d[\d.,]*")


def _plain(line: str) -> str:
    """Return a line of the HTML-to-Markdown text without link targets, escapes and LaTeX source."""
    line = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line)  # [2](https://...) -> 2
    line = line.replace("\\{,\\}", ",").replace("\\", "\\").replace("\\.", ".").replace("\\-", "-")
    line = re.sub(r"\\[A-Za-z]+", " ", line)  # \\times, \\mathrm, ...
    line = re.sub(r"\\.", "", line)  # remaining escapes (\\%, \\{, \\})
    return line.replace("\u2212", "-")


def _doubled(token: str) -> bool:
    """Return True when a token is one number written twice ('93.993.9', '55')."""
    half = len(token) // 2
    return len(token) % 2 == 0 and token[:half] == token[half:]


def _undouble(token: str, after: str = "") -> str:
    """Return a number token rendered twice (HTML text then its LaTeX source: '93.993.9') once; a
    doubled single digit only when a word or '=' follows ('66judges') or it opens a doubled range
    ('55-88pp' is 5-8), not the 77 of '77-82%'."""
    sign, body = (token[0], token[1:]) if token[:1] in "+-−" else ("", token)
    if sign and _doubled(body):  # '-88pp' closing a doubled range, '-0.8-0.8pp'
        token = body
    elif not _doubled(token):
        return token
    nxt = re.match(r"[–-](\d[\d.]*)", after)
    if len(token) > 2 or after[:1].isalpha() or after[:1] == "=" or (nxt and _doubled(nxt.group(1))):
        return sign + token[: len(token) // 2]
    return sign + token


# footnote markers: '55footnotemark:5', '22footnotetext:', and a digit written three times before the
# footnote's text ('333Spearman's rho ...', '111A Directed Acyclic Graph')
_FOOTNOTE = re.compile(r"\d*footnote(?:mark|text)\s*:?\s*\d*|(\d)\1\1(?=[A-Z])")


# 'A×B=C' then its LaTeX source 'A B=C' (× dropped with the markup): the source copy is removed
_EQUATION = re.compile(r"(\d[\d,.]*)((?:×\s*\d[\d,.]*\s*[A-Za-z]*)+)=(\d[\d,.]*?)\1\s[^=]*=\s*\3")


def _unit(after: str, token: str) -> str:
    """Return the unit a number's next characters give: '×' (a ratio: '1.5×', not the product '3,808×3'),
    'pp', '%' or ''."""
    a = after.lstrip()
    if a.startswith(("×", "x ")):
        rest = a[1:].lstrip()
        return "" if rest[:1].isdigit() and not rest.startswith(token) else "×"
    return "pp" if a.startswith("pp") else "%" if a.startswith("%") else ""


def text_numbers(text: str) -> pd.DataFrame:
    """Return every number of the paper's prose: section, line, number (as printed), context.

    Reference labels (Table 2, Eq. 5b, Appendix F), model names (GPT-5.4, Qwen3-32B), years and
    the sections of citations and prompt text (`_SKIPPED_SECTIONS`) are not numbers of the text."""
    rows, section = [], "Front matter"
    for i, raw in enumerate(text.splitlines(), start=1):
        if raw.startswith("#"):
            head = re.sub(r"^#+\s*", "", raw).replace("\\", "")
            m = re.match(
                r"(Appendix\s*[A-Z])|(\d+(?:\.\d+)?)|(Abstract|Limitations|Ethical|Acknowledgements|References)", head
            )
            if m:
                section = (
                    m.group(1).replace("Appendix", "Appendix ").replace("  ", " ")
                    if m.group(1)
                    else f"§{m.group(2)}"
                    if m.group(2)
                    else m.group(3)
                )
                section = section if not section.startswith("§") or "." in section else section
            continue
        if section.startswith(_SKIPPED_SECTIONS) or not raw.strip() or raw.startswith("Source:"):
            continue
        plain = _EQUATION.sub(r"\1\2=\3 ", _FOOTNOTE.sub(" ", _plain(raw)))
        cites = " ".join(dict.fromkeys(_cited(plain)))
        line = _MODEL.sub(" ", plain)
        prev, prev_end = "", -1
        for m in _NUMBER.finditer(line):
            tok = _undouble(m.group(0).rstrip(".,"), line[m.end() : m.end() + 12])
            if tok[:1] in "+-" and line[m.start() - 1 : m.start()].isdigit():  # '8-19': a range, not -19
                tok = tok[1:]
            if not re.search(r"\d", tok) or tok.count(".") > 1:
                continue
            if len(tok) == 1 and line[m.end() : m.end() + 1] in ("a", "b"):  # an equation label: (5a), (4b)
                continue
            between = line[prev_end : m.start()]
            same = tok.lstrip("+-") == prev.lstrip("+-")  # '-0.8-0.8pp': the text, then its source
            prev, prev_end, again = tok, m.end(), same and not re.search(r"[^\W\d_]", between)
            unit = _unit(line[m.end() : m.end() + 4 + len(tok)], tok)
            if again:  # '82%82\\%', '1.5×1.5\\times': the HTML text then its LaTeX source, one number
                rows[-1]["unit"] = rows[-1]["unit"] or unit
                continue
            ctx = line[max(0, m.start() - 50) : m.end() + 30].replace("\n", " ")
            rows.append(
                {
                    "section": section,
                    "line": i,
                    "number": tok,
                    "unit": unit,
                    "context": " ".join(ctx.split()),
                    "cites": cites,
                }
            )
    return pd.DataFrame(rows, columns=["section", "line", "number", "unit", "context", "cites"])


def _section_tags(section: str) -> tuple[str, ...]:
    """Return how engine.csv sources name a section ('§4.2' -> ('§4.2',), 'Appendix H' -> ('App. H',))."""
    if section.startswith("Appendix "):
        return (f"App. {section[-1]}",)
    if section.startswith("§"):
        return (section, section.split(".")[0]) if "." in section else (section,)
    return (section.lower(), section)


_UNIT_EXCLUDES: dict[str, tuple[str, ...]] = {  # claim units a number followed by '×', 'pp' or '%' cannot be
    "×": ("pp", "%", "count", "kappa", "rho", "score", "rank", "p", "sign"),
    "pp": ("ratio", "count", "kappa", "rho", "rank", "p"),
    "%": ("ratio", "count", "kappa", "rho", "rank", "p"),
}


def _significant(n: str) -> int:
    """Return the significant digits of a normalised number ('0.172' -> 3, '11424' -> 5)."""
    return sum(ch.isdigit() for ch in n.lstrip("0.")) if n.strip("0.") else 0


def map_text_numbers(numbers: pd.DataFrame, paper_dir: Path | str | None = None) -> pd.DataFrame:
    """Return `text_numbers` with ``mapped_to`` and ``how``: the claim of claims.csv sourced to its
    section whose printed value it is (of a unit its text allows: '1.5 pp' is not a ratio), else a
    claim anywhere with that value when the number has three or more significant digits, else a printed
    cell of a table or figure its paragraph cites, else (two or more significant digits) of one its
    section cites, else unmapped (''). Automatic: the ``how`` column says which rule mapped each number."""
    cl = engine.claims(paper_dir)
    by_value: dict[str, list[tuple[str, str, str]]] = {}
    for c in cl[cl["unit"] != "sign"].itertuples():  # a sign claim's 1 / -1 is no printed number
        for v in (c.printed, c.printed_hi):
            if isinstance(v, str) and v.strip():
                by_value.setdefault(_norm(v), []).append((c.claim_id, str(c.source), str(c.unit)))
    files = paper._artifact_files(paper_dir)
    cells: dict[str, set[str]] = {}
    for aid in files:
        r = paper.reported(aid, paper_dir)
        cells[aid] = set(r["printed"].dropna().map(_norm)) if "printed" in r.columns else set()
    section_cites = numbers.groupby("section")["cites"].agg(lambda c: list(dict.fromkeys(" ".join(c).split())))
    out = numbers.copy()
    mapped, how = [], []
    for row in numbers.itertuples():
        n = _norm(row.number)
        bad = _UNIT_EXCLUDES.get(str(getattr(row, "unit", "")), ())
        hits = [(cid, src) for cid, src, unit in by_value.get(n, []) if unit not in bad]
        own = [cid for cid, src in hits if any(t in src for t in _section_tags(row.section))]
        cited = [a for a in str(row.cites).split() if a in cells and n in cells[a]]
        near = [a for a in section_cites.get(row.section, []) if a in cells and n in cells[a]]
        if own:
            mapped.append(own[0]), how.append("claim (its section)")
        elif hits and _significant(n) >= 3:
            mapped.append(hits[0][0]), how.append("claim (value)")
        elif cited:
            mapped.append(cited[0]), how.append("table cell (cited)")
        elif near and _significant(n) >= 2:
            mapped.append(near[0]), how.append("table cell (section cites)")
        else:
            mapped.append(""), how.append("")
    out["mapped_to"], out["how"] = mapped, how
    return out


def _cited(context: str) -> list[str]:
    """Return the artifact IDs a sentence cites ('Table 2' -> T02, 'Figure 10' -> F10)."""
    ids = [f"T{int(x):02d}" for x in re.findall(r"Tables?\s*(\d+)", context)]
    return ids + [f"F{int(x):02d}" for x in re.findall(r"Fig(?:ure|\.)?s?\s*(\d+)", context)]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    text = Path(sys.argv[1]).read_text(encoding="utf-8")
    map_text_numbers(text_numbers(text)).to_csv(OUT, index=False, lineterminator="\n")
    print(f"wrote {OUT}")
