"""What the committed notebooks show a reader: no output table over 40 rows (HTML tables, plain-text
DataFrame reprs, Markdown tables), and the anatomy of every section notebook (01-17): at the top the
question, what you will learn, what it reads and writes; at the end "Takeaways" (3-5 bullets, written
or printed by the cell after the heading) and "Try it" (predict-then-run exercises, each answer checked by a
cell that says right or wrong), then "Against the paper" and the environment."""

from __future__ import annotations

import ast
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from ajb_utils import paths, report

NOTEBOOKS = sorted(paths.NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))
SECTION_NOTEBOOKS = [p for p in NOTEBOOKS if 1 <= int(p.name[:2]) <= 17]
MAX_ROWS = report.MAX_SHOWN_ROWS


# ---- counting the rows of what a cell displays ---------------------------------------------------
class _RowCounter(HTMLParser):
    """Count the body rows of every HTML table (rows inside <tbody>, or every <tr> without a <thead>)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[int]] = []  # per table: [rows in head, rows in body]
        self._part = 1

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "table":
            self.tables.append([0, 0])
            self._part = 1
        elif tag == "thead":
            self._part = 0
        elif tag == "tbody":
            self._part = 1
        elif tag == "tr" and self.tables:
            self.tables[-1][self._part] += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "thead":
            self._part = 1


def html_table_rows(html: str) -> list[int]:
    """Return the number of body rows of each HTML table in `html`."""
    p = _RowCounter()
    p.feed(html)
    return [body for _, body in p.tables]


# a DataFrame / Series repr line: a label, then at least two spaces, then a value
_REPR_LINE = re.compile(r"^\s*\S.*?\S?\s{2,}\S")


def text_table_rows(text: str) -> list[int]:
    """Return the data rows (lines after a header) of each run of DataFrame-repr-like lines in `text`."""
    runs, n = [], 0
    for line in text.splitlines() + [""]:
        if line.strip() and _REPR_LINE.match(line):
            n += 1
        else:
            if n > 1:
                runs.append(n - 1)
            n = 0
    return runs


def markdown_table_rows(text: str) -> list[int]:
    """Return the body rows (after the |---| line) of each Markdown pipe table in `text`."""
    runs, n = [], 0
    for line in text.splitlines() + [""]:
        if line.lstrip().startswith("|"):
            n += 1
        else:
            if n > 2:
                runs.append(n - 2)
            n = 0
    return runs


def output_table_rows(output: dict) -> list[int]:
    """Return the row count of every table one notebook output displays (HTML, plain text, Markdown, stream)."""
    data = output.get("data", {})
    if "text/html" in data:
        return html_table_rows("".join(data["text/html"]))  # its text/plain twin is the same table
    rows = markdown_table_rows("".join(data.get("text/markdown", "")))
    rows += text_table_rows("".join(data.get("text/plain", "")))
    if output.get("output_type") == "stream":
        rows += text_table_rows("".join(output.get("text", "")))
    return rows


def long_tables(nb: dict) -> list[tuple[str, int]]:
    """Return (cell id, rows) for every output table with more than MAX_ROWS rows."""
    out = []
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            out += [(str(cell.get("id")), n) for n in output_table_rows(o) if n > MAX_ROWS]
    return out


def _nb(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_row_counter_sees_every_kind_of_long_table() -> None:
    """The check can fail: a 41-row DataFrame shown as HTML, as plain text, printed, or as Markdown."""
    import pandas as pd

    df = pd.DataFrame({"judge": [f"j{i}" for i in range(41)], "align": [80.0 + i / 10 for i in range(41)]})
    short = df.head(40)
    cases = {
        "html": {"output_type": "display_data", "data": {"text/html": df.to_html(), "text/plain": str(df)}},
        "plain": {"output_type": "execute_result", "data": {"text/plain": df.to_string()}},
        "stream": {"output_type": "stream", "name": "stdout", "text": df.to_string() + "\n"},
        "markdown": {
            "output_type": "display_data",
            "data": {
                "text/markdown": "\n".join(
                    ["| judge | align |", "|---|---|"] + [f"| {j} | {a} |" for j, a in zip(df["judge"], df["align"])]
                )
            },
        },
    }
    for kind, o in cases.items():
        assert max(output_table_rows(o)) == 41, kind
        nb = {"cells": [{"id": "x", "outputs": [o]}]}
        assert long_tables(nb) == [("x", 41)], kind
    ok = {"output_type": "display_data", "data": {"text/html": short.to_html(), "text/plain": str(short)}}
    assert long_tables({"cells": [{"id": "y", "outputs": [ok]}]}) == []
    # prose and commands (single spaces) are not tables
    prose = {
        "output_type": "stream",
        "name": "stdout",
        "text": "\n".join(f"wrote figures/sample/T{i:02d}_x.csv" for i in range(60)),
    }
    assert output_table_rows(prose) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_committed_output_table_over_40_rows(path: Path) -> None:
    """A reader never scrolls a wall of numbers: longer tables go to disk (verify.show_comparison)."""
    assert long_tables(_nb(path)) == [], f"{path.name}: tables over {MAX_ROWS} rows (cell id, rows)"


# ---- anatomy ----------------------------------------------------------------------------------------
TOP_PARTS: dict[str, re.Pattern] = {
    "the question": re.compile(r"question", re.I),
    "what you will learn": re.compile(r"you will learn|you'll learn", re.I),
    "what it reads": re.compile(r"\breads?\b|\binputs?\b", re.I),
    "what it writes": re.compile(r"\bwrites?\b|\boutputs?\b", re.I),
}
_HEADING = re.compile(r"^#{1,4}\s+(.*)$", re.M)
_BULLET = re.compile(r"^\s*(?:[-*]|\d+\.)\s+\S", re.M)


def _source(cell: dict) -> str:
    return "".join(cell.get("source", ""))


def anatomy_problems(nb: dict) -> list[str]:
    """Return what a section notebook's anatomy lacks (empty when complete)."""
    cells = nb["cells"]
    first_code = next((i for i, c in enumerate(cells) if c["cell_type"] == "code"), len(cells))
    top = "\n".join(_source(c) for c in cells[:first_code] if c["cell_type"] == "markdown")
    problems = [f"top lacks {name}" for name, rx in TOP_PARTS.items() if not rx.search(top)]

    def heading_index(word: str) -> int | None:
        for i, c in enumerate(cells):
            if c["cell_type"] == "markdown" and any(word in h.lower() for h in _HEADING.findall(_source(c))):
                return i
        return None

    take, try_it = heading_index("takeaways"), heading_index("try it")
    if take is None:
        problems.append("no 'Takeaways' heading")
    else:
        text = _source(cells[take]).lower().split("takeaways", 1)[1]
        text = re.split(r"^#{1,4}\s", text, maxsplit=1, flags=re.M)[0]
        n = len(_BULLET.findall(text))
        nxt = cells[take + 1] if take + 1 < len(cells) else {}
        if n == 0 and nxt.get("cell_type") == "code":  # computed takeaways: the bullets the next cell prints
            printed = "".join(
                "".join(o.get("text", "")) for o in nxt.get("outputs", []) if o.get("output_type") == "stream"
            )
            n = len(_BULLET.findall(printed))
        if not 3 <= n <= 5:
            problems.append(f"'Takeaways' has {n} bullets (3-5 expected)")
    if try_it is None:
        problems.append("no 'Try it' heading")
    else:
        if take is not None and try_it < take:
            problems.append("'Try it' comes before 'Takeaways'")
        # one exercise = one cell that says right or wrong (takeaways.check), or (older notebooks) an assert
        checks = sum(
            len(re.findall(r"^\s*assert\b|\btk\.check\(|\btakeaways\.check\(", _source(c), re.M))
            for c in cells[try_it + 1 :]
            if c["cell_type"] == "code"
        )
        if not 2 <= checks <= 6:
            problems.append(f"'Try it' has {checks} checked exercises (2-3 exercises, each checked by an assert)")
    if take is not None:  # at the end: after it only "Try it" and the environment report (level-2 headings)
        later = [
            h
            for c in cells[take + 1 :]
            if c["cell_type"] == "markdown"
            for h in re.findall(r"^#{1,2}\s+(.*)$", _source(c), re.M)
        ]
        if any(
            not re.match(r"try it|against the paper|producing the runs|environment", h.strip(), re.I) for h in later
        ):
            problems.append("'Takeaways' is not at the end")
    return problems


def test_anatomy_check_can_fail() -> None:
    def md(text: str) -> dict:
        return {"cell_type": "markdown", "source": text}

    def code(text: str) -> dict:
        return {"cell_type": "code", "source": text, "outputs": []}

    top = md("# T\n\n**Question.** Why?\n\n**You will learn** a, b.\n\n**Reads** x. **Writes** y.")
    good = {
        "cells": [
            top,
            code("x = 1"),
            md("## Takeaways\n\n- a\n- b\n- c"),
            md("## Try it\n\nPredict ..."),
            code("answer = 1\nassert answer == 1"),
            code("assert True"),
            md("## Environment"),
            code("env()"),
        ]
    }
    assert anatomy_problems(good) == []
    bare = {"cells": [md("# T"), code("x = 1"), md("## Environment"), code("env()")]}
    assert len(anatomy_problems(bare)) == 6
    two_bullets = {
        "cells": [
            top,
            code("x = 1"),
            md("## Takeaways\n\n- a\n- b"),
            md("## Try it"),
            code("assert 1"),
            code("assert 2"),
        ]
    }
    assert anatomy_problems(two_bullets) == ["'Takeaways' has 2 bullets (3-5 expected)"]
    unchecked = {
        "cells": [
            top,
            code("x = 1"),
            md("## Takeaways\n\n- a\n- b\n- c"),
            md("## Try it"),
            code("print(1)"),
            code("assert 2"),
        ]
    }
    assert anatomy_problems(unchecked) == [
        "'Try it' has 1 checked exercises (2-3 exercises, each checked by an assert)"
    ]


@pytest.mark.parametrize("path", SECTION_NOTEBOOKS, ids=lambda p: p.stem)
def test_section_notebook_has_the_anatomy(path: Path) -> None:
    """Top: question, what you will learn, reads, writes. End: Takeaways (3-5 bullets), Try it (2-3 checks)."""
    assert anatomy_problems(_nb(path)) == [], path.name


def test_anatomy_accepts_computed_takeaways_and_checked_guesses() -> None:
    """Takeaways printed by the cell after the heading; exercises told right or wrong by takeaways.check."""
    top = {
        "cell_type": "markdown",
        "source": "# T\n\n**Question.** Why?\n\n**You will learn** a.\n\n**Reads** x. **Writes** y.",
    }
    printed = {"output_type": "stream", "name": "stdout", "text": "- A.\n- B.\n- C.\n"}
    cells = [
        top,
        {"cell_type": "code", "source": "x = 1", "outputs": []},
        {"cell_type": "markdown", "source": "## Takeaways\n\nComputed."},
        {"cell_type": "code", "source": "print(tk.bullets(s))", "outputs": [printed]},
        {"cell_type": "markdown", "source": "## Try it"},
        {"cell_type": "code", "source": "print(tk.check(guess, answer, why))", "outputs": []},
        {"cell_type": "code", "source": "print(tk.check(guess, answer, why))", "outputs": []},
        {"cell_type": "markdown", "source": "## Against the paper"},
        {"cell_type": "markdown", "source": "## Environment"},
    ]
    assert anatomy_problems({"cells": cells}) == []
    cells[3]["outputs"] = []
    assert anatomy_problems({"cells": cells}) == ["'Takeaways' has 0 bullets (3-5 expected)"]


# ---- typed data sentences (issue 39) --------------------------------------------------------------
# A sentence that states a direction, an order, a band or a count about the data must be computed
# from it. Typed text can carry concepts and the paper's values; a question states no fact about the
# data ("does alignment fall?", not "why does alignment fall?"). The check reads markdown (questions
# and "You will learn" lines included), figure captions and titles in code, and the string literals
# of cells tagged `takeaways` (an f-string with its values as {}; the branches of a computed choice
# `'a' if x else 'b'` and the values of a dict are the data's choice, not typed).
DATA_CLAIM = re.compile(
    r"\b(falls?|fell|rises?|rose|drops? by|steeper|shallower|converges?|converging|narrow band|"
    r"far (?:below|above)|the (?:rise|fall|drop) (?:in|of|from)|drop is|beats?|outperforms?|loses to|wins|exceeds|"
    r"trails|(?:is|are|was|were) (?:the )?(?:best|worst|highest|lowest)|most frequent best|floor|"
    r"\d[\d,]* (?:records|verdicts|generations|items|plans) per \w+|\d[\d,]* records, not|"
    r"(?:negative|positive) lifts? for|in \d+ ?% of (?:cases|verdicts))\b",
    re.IGNORECASE,
)
CITED = re.compile(r"paper|reported|reports|authors|draft|Finding \d|§|App\.|Appendix|arXiv|the release", re.I)
HEDGED = re.compile(r"\b(whether|if|when|where|wherever|unless|would|could|can|cannot|may|might|any)\b", re.I)
COMPUTED_NEXT = re.compile(r"\{\}")  # a claim word followed by a value the cell computed
PRESUPPOSES = re.compile(r"\b(why|how much|how far)\b", re.I)
_SEGMENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z*(])|\n(?=\s*[-*] )|\n\n|;\s|:\s|\s\(|\)")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z*(])|\n(?=\s*[-*] )|\n\n")


def typed_claims(text: str) -> list[str]:
    """Return the segments of a text that state a fact about the data without computing it."""
    out = []
    for sentence in _SENTENCE.split(text):
        plain = re.sub(r"`[^`]*`|\$[^$]*\$", "", sentence)
        for seg in _SEGMENT.split(plain):
            m = DATA_CLAIM.search(seg)
            if not m or not seg.strip():
                continue
            if seg.rstrip().endswith("?") or sentence.rstrip().endswith("?"):
                if PRESUPPOSES.search(seg):
                    out.append(seg.strip())
                continue
            cited = CITED.search(seg if m.group(0)[0].isdigit() else plain)  # a typed count is the sample's
            if cited or HEDGED.search(seg) or COMPUTED_NEXT.search(seg[m.end() : m.end() + 12]):
                continue
            out.append(seg.strip())
    return out


def _typed_literals(tree: ast.AST) -> list[str]:
    """Return the texts a code cell types: string constants and f-strings (values as {}), without
    the branches of a conditional expression, the values of dict literals and the words given to a
    vocabulary call (`tk.pick(x, "rises", "falls", ...)`): the data's choices."""
    chosen: set[int] = set()
    for node in ast.walk(tree):
        branches = [node.body, node.orelse] if isinstance(node, ast.IfExp) else []
        branches += [v for v in node.values if v is not None] if isinstance(node, ast.Dict) else []
        vocabulary = isinstance(node, ast.Call) and getattr(getattr(node.func, "value", None), "id", "") == "tk"
        branches += (
            [a for a in [*node.args, *(k.value for k in node.keywords)] if isinstance(a, ast.Constant)]
            if vocabulary
            else []
        )
        chosen.update(id(n) for b in branches for n in ast.walk(b))
    texts, parts = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and id(node) not in chosen:
            parts.update(id(v) for v in node.values)
            texts.append("".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in chosen | parts:
            texts.append(node.value)
    return texts


def _captions(tree: ast.AST) -> list[str]:
    """Return the typed texts of figure captions and titles (title=/caption= arguments, set_title, suptitle)."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        args = [kw.value for kw in node.keywords if kw.arg in ("title", "caption", "xlabel", "ylabel")]
        if getattr(node.func, "attr", "") in ("set_title", "suptitle", "set_xlabel", "set_ylabel"):
            args += node.args
        out += [t for a in args for t in _typed_literals(a)]
    return out


def typed_data_sentences(nb: dict) -> list[str]:
    """Return 'cell N: segment' for every typed data sentence of a notebook."""
    found = []
    for i, cell in enumerate(nb["cells"]):
        src = _source(cell)
        texts = [src] if cell["cell_type"] == "markdown" else []
        if cell["cell_type"] == "code":
            try:
                tree = ast.parse(src)
            except SyntaxError:  # a cell with IPython magics: nothing typed to read
                continue
            texts = _captions(tree)
            if "takeaways" in cell.get("metadata", {}).get("tags", []):
                texts += _typed_literals(tree)
        found += [f"cell {i}: {seg}" for t in texts for seg in typed_claims(t)]
    return found


def test_the_typed_sentence_check_finds_the_course_reads_examples() -> None:
    """The sentences issue 39 found typed are caught; their computed or conceptual rewrites are not."""
    typed = [
        "**The question.** Without the reference trace, every judge lands in a narrow band of alignment on hard queries.",
        "# RQ3: why does without-GT alignment converge on hard queries?",
        "The corpus is balanced by construction (20 records per topology), unlike the paper's.",
        "Prometheus-2, far below them, is drawn light grey.",
        "The anchoring knobs plant negative lifts for the frontier judges.",
        "Compression explains the rise in *agreement*.",
        "It credits a missed flaw with 1.0 in 92% of cases.",
    ]
    for text in typed:
        assert typed_claims(text), text
    fine = [
        "**The question.** Does alignment fall with difficulty without the reference trace?",
        "The paper reports that alignment falls on hard queries (Finding 1).",
        "Where the without-GT curve falls like p-bar, the drop is the generators'.",
        "The oracle is computed below.",
        "A judge on the {0, 0.5, 1} scale cannot beat the oracle.",
    ]
    assert [t for t in fine if typed_claims(t)] == []
    code = (
        "print(tk.bullets([f\"the mean changes by {a} pp ({'a steeper' if x else 'a shallower'} fall without GT)\","
        " f\"{'rises' if d > 0 else 'falls'} by {d}\", f\"the static judge beats {k} of 6\"]))"
    )
    cell = {"cell_type": "code", "source": code, "metadata": {"tags": ["takeaways"]}, "outputs": []}
    assert typed_data_sentences({"cells": [cell]}) == ["cell 0: {} fall without GT"]
    fig = {"cell_type": "code", "source": "ax.set_title('Prometheus-2 far below the six')", "outputs": []}
    assert typed_data_sentences({"cells": [fig]}) == ["cell 0: Prometheus-2 far below the six"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_typed_data_sentence(path: Path) -> None:
    """Markdown, questions, captions and takeaway literals state no typed fact about the data (issue 39)."""
    assert typed_data_sentences(_nb(path)) == []
