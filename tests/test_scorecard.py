"""The scorecard (ajb_utils.scorecard) on hand-made output folders, and the committed notebooks'
verdict cells: every `holds` comes from the claim engine, one claim has one verdict, no table is cut."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from ajb_utils import paper, paths, report, scorecard  # noqa: E402

NOTEBOOKS = sorted(paths.NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))


def _folder(tmp_path: Path, synthetic: bool = True) -> Path:
    out = tmp_path / ("sample" if synthetic else "hf")
    out.mkdir()
    (out / "PROVENANCE.json").write_text(json.dumps({"synthetic": synthetic}), encoding="utf-8")
    return out


def _cmp(rep: list[float], mine: list[float]) -> pd.DataFrame:
    keys = [f"k{i}" for i in range(len(rep))]
    return paper.compare(pd.DataFrame({"judge": keys, "value": mine}),
                         pd.DataFrame({"judge": keys, "value": rep, "source": "s"}), on=["judge"])


def test_side_by_side_tolerance_is_the_printed_precision() -> None:
    sbs = paper.side_by_side(_cmp([92.7, 80.0, 0.5], [92.74, 80.2, 0.56]))
    assert list(sbs.columns[-5:]) == ["reported", "reproduced", "difference", "tolerance", "within"]
    # one decimal printed in the table -> +-0.05 for every row
    assert sbs["tolerance"].tolist() == pytest.approx([0.05, 0.05, 0.05])
    assert sbs["within"].tolist() == ["yes", "no", "no"]
    assert paper.side_by_side(_cmp([92.7], [92.9]), tolerance=0.2)["within"].iloc[0] == "yes"
    one_sided = paper.side_by_side(paper.compare(
        pd.DataFrame({"judge": ["a"], "value": [1.0]}),
        pd.DataFrame({"judge": ["b"], "value": [1.0], "source": "s"}), on=["judge"]))
    assert set(one_sided["within"]) == {"n/a"}


def test_scorecard_counts_artifacts_and_claims(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = _folder(tmp_path, synthetic=True)
    report.show_comparison(_cmp([92.7, 80.0, 50.0], [92.7, 81.0, 50.04]), "T02", out)
    report.show_checks(report.checks_table([paper.verdict("CF1.monotone_pairs", (24, 24)),
                                            paper.verdict("CF2.lift_gemini", -3.0)]), "C-F_findings", out)
    report.show_checks(report.checks_table([paper.verdict("CF1.monotone_pairs", (23, 24))]), "T04", out)
    report.show_checks(report.checks_table([paper.verdict("P.records", 120, full_data=False)])
                       .assign(**{"checked on": "paper tables"}), "X1-cross", out)
    card = scorecard.write_scorecard(out, "sample")
    for name in ("SCORECARD.csv", "SCORECARD.md", "SCORECARD.png", "SCORECARD.pdf"):
        assert (out / name).exists(), name
    art = card[card["row"] == "artifact"].set_index("id")
    assert art.loc["T02", "values compared"] == 3 and art.loc["T02", "within tolerance"] == 2
    assert art.loc["T02", "max |difference|"] == pytest.approx(1.0)
    cl = card[card["row"] == "claim"].set_index("id")
    assert cl.loc["CF2.lift_gemini", "holds"] == "no"
    # one claim, two verdicts in two notebooks: the scorecard says so
    assert cl.loc["CF1.monotone_pairs", "holds"].startswith("CONFLICT")
    assert (card["row"] == "audit").sum() == 1  # verdicts on the paper's own tables kept apart
    text = scorecard.summary(card, "sample", True)
    assert "SYNTHETIC" in text and "2/3" in text
    assert len(text.splitlines()) <= 25
    md = (out / "SCORECARD.md").read_text(encoding="utf-8")
    assert "Synthetic sample" in md and "notebooks/03_main_results.ipynb" in md


def test_scorecard_counts_indistinguishable_and_lists_unchecked_claims(tmp_path: Path) -> None:
    out = _folder(tmp_path, synthetic=False)
    report.show_comparison(_cmp([1.0], [1.0]), "T11", out)
    report.show_checks(report.checks_table([paper.verdict("CF2.sign_gemini", -0.5, ci=(-1.0, 0.2)),
                                            paper.verdict("CF2.sign_qwq", 1.0, ci=(0.5, 1.5))]), "C-F_findings", out)
    card = scorecard.write_scorecard(out, "hf")
    cl = card[card["row"] == "claim"].set_index("id")
    assert cl.loc["CF2.sign_gemini", "holds"] == paper.INDISTINGUISHABLE and cl.loc["CF2.sign_qwq", "holds"] == "yes"
    # every other claim of claims.csv is listed once, n/a, with the missing data named
    assert set(cl.index) | set(card.loc[card["row"] == "audit", "id"]) >= set(paper.claims()["claim_id"])
    rest = cl.drop(["CF2.sign_gemini", "CF2.sign_qwq"])
    assert (rest["holds"] == "n/a").all() and rest["note"].str.startswith(paper.MISSING_DATA).all()
    text = scorecard.summary(card, "hf", False)
    assert "1 indistinguishable (CI spans 0)" in text and f"{len(cl)} claims on data: 1 hold" in text


def test_scorecard_on_released_data_says_so(tmp_path: Path) -> None:
    out = _folder(tmp_path, synthetic=False)
    report.show_comparison(_cmp([1.0], [1.0]), "T11", out)
    card = scorecard.write_scorecard(out, "hf")
    text = scorecard.summary(card, "hf", False)
    assert "reproduction verdict of the paper" in text and "SYNTHETIC" not in text


def test_print_summary_writes_the_scorecard_and_prints_one_screen(tmp_path: Path, capsys) -> None:
    """What scripts/reproduce.py calls at its end: the files exist afterwards and the text fits a screen."""
    out = _folder(tmp_path)
    report.show_comparison(_cmp([92.7, 80.0], [92.7, 81.0]), "T02", out)
    capsys.readouterr()
    text = scorecard.print_summary(out)
    printed = capsys.readouterr().out
    assert text in printed and "1/2 reported values" in printed
    assert (out / "SCORECARD.md").exists() and (out / "SCORECARD.csv").exists()
    assert len(printed.splitlines()) <= 25


def test_comparison_from_the_paper_itself_is_not_counted(tmp_path: Path) -> None:
    out = _folder(tmp_path)
    report.show_comparison(_cmp([1.0, 2.0], [1.0, 2.0]), "T25", out, from_paper=True)
    assert not (out / "T25_compare.csv").exists()


# ---- the committed notebooks ------------------------------------------------------------------
class _Tables(HTMLParser):
    """Collect the header and body cells of every HTML table in a notebook output."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[list[str], list[list[str]]]] = []
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self._in_head = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "table":
            self.tables.append(([], []))
        elif tag == "thead":
            self._in_head = True
        elif tag == "tbody":
            self._in_head = False
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None and self.tables:
            head, body = self.tables[-1]
            if self._in_head:
                if not head:
                    head.extend(self._row)
            else:
                body.append(self._row)
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _html_tables(nb_path: Path) -> list[pd.DataFrame]:
    """Return every HTML table of a notebook's outputs as a frame of strings (index column dropped)."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    frames = []
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            html = o.get("data", {}).get("text/html")
            if not html:
                continue
            p = _Tables()
            p.feed("".join(html))
            for head, body in p.tables:
                if not head or not body:
                    continue
                cols = head[1:] if head[0] == "" else head
                rows = [r[-len(cols):] for r in body if len(r) >= len(cols)]
                frames.append(pd.DataFrame(rows, columns=cols))
    return frames


def _verdict_tables() -> list[tuple[str, pd.DataFrame]]:
    """Return (notebook, table) for every committed output table with a `holds` column."""
    return [(p.stem, t) for p in NOTEBOOKS for t in _html_tables(p) if "holds" in t.columns]


def test_every_holds_cell_comes_from_the_engine() -> None:
    tables = _verdict_tables()
    assert len(tables) >= 15
    known = paper.claims().set_index("claim_id")
    for nb, t in tables:
        id_col = "claim_id" if "claim_id" in t.columns else "id"
        assert {id_col, "kind", "tolerance"} <= set(t.columns), (nb, list(t.columns))
        for r in t.itertuples(index=False):
            row = dict(zip(t.columns, r))
            assert row[id_col] in known.index, (nb, row[id_col])
            assert row["kind"] == known.loc[row[id_col], "kind"], (nb, row[id_col])
            assert row["holds"] in paper.HOLDS_VALUES, (nb, row[id_col], row["holds"])


def test_one_claim_one_verdict_across_notebooks() -> None:
    seen: dict[str, tuple[str, str]] = {}
    for nb, t in _verdict_tables():
        if "checked on" in t.columns or "claim_id" not in t.columns:
            continue  # the X1 audit checks the paper's own tables; the scorecard repeats verdicts
        for cid, holds in zip(t["claim_id"], t["holds"]):
            if cid in seen:
                assert seen[cid][1] == holds, f"{cid}: {seen[cid]} vs ({nb}, {holds})"
            seen[cid] = (nb, holds)
    card = pd.read_csv(paths.FIGURES_DIR / "sample" / "SCORECARD.csv", dtype=str, keep_default_na=False)
    claims = card[card["row"] == "claim"].set_index("id")["holds"]
    assert not claims.str.startswith("CONFLICT").any()
    for cid, (nb, holds) in seen.items():
        assert claims.get(cid) == holds, (cid, nb)


def test_no_committed_table_is_truncated() -> None:
    cut = re.compile(r"\[\d+ rows x \d+ columns\]|^\s*\.\.\.\s*$", re.M)
    for p in NOTEBOOKS:
        nb = json.loads(p.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            for o in cell.get("outputs", []):
                text = "".join(o.get("data", {}).get("text/plain", ""))
                html = "".join(o.get("data", {}).get("text/html", ""))
                assert not cut.search(text), (p.name, text[:200])
                assert "<td>...</td>" not in html and "<th>...</th>" not in html, p.name


def test_the_scorecard_names_the_missing_rule_that_reproduces_table_2_best(tmp_path) -> None:
    """Notebook 03 writes Table 2's fit under each missing-verdict rule; the scorecard names the closest."""
    from ajb_utils import scorecard
    assert scorecard.missing_rule_line(tmp_path) == ""  # not computed: nothing said
    pd.DataFrame({"missing": ["exclude", "miss", "authors"], "n_cells": [84, 84, 84],
                  "mean_abs_diff": [0.31, 0.52, 0.08], "max_abs_diff": [1.2, 2.0, 0.4]}).to_csv(
        tmp_path / scorecard.RULE_FIT_FILE, index=False)
    line = scorecard.missing_rule_line(tmp_path)
    assert line.startswith("missing-verdict rule closest to Table 2: authors (mean |diff| 0.08 pp over 84 cells")
    assert "exclude 0.31" in line and "miss 0.52" in line
