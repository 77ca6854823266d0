"""The scorecard (ajb_verify.scorecard) on hand-made output folders, and the committed notebooks'
verdict cells: every `holds` comes from the claim engine, one claim has one verdict, no table is cut."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import matplotlib

import ajb_verify as verify

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from ajb_utils import paths  # noqa: E402
from ajb_verify import scorecard  # noqa: E402

NOTEBOOKS = sorted(paths.NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))


def _folder(tmp_path: Path, synthetic: bool = True) -> Path:
    out = tmp_path / ("sample" if synthetic else "hf")
    out.mkdir()
    (out / "PROVENANCE.json").write_text(json.dumps({"synthetic": synthetic}), encoding="utf-8")
    return out


def _cmp(rep: list[float], mine: list[float]) -> pd.DataFrame:
    keys = [f"k{i}" for i in range(len(rep))]
    return verify.compare(
        pd.DataFrame({"judge": keys, "value": mine}),
        pd.DataFrame({"judge": keys, "value": rep, "source": "s"}),
        on=["judge"],
    )


def test_side_by_side_tolerance_is_the_printed_precision() -> None:
    sbs = verify.side_by_side(_cmp([92.7, 80.0, 0.5], [92.74, 80.2, 0.56]))
    assert list(sbs.columns[-5:]) == ["reported", "reproduced", "difference", "tolerance", "within"]
    # one decimal printed in the table -> +-0.05 for every row
    assert sbs["tolerance"].tolist() == pytest.approx([0.05, 0.05, 0.05])
    assert sbs["within"].tolist() == ["yes", "no", "no"]
    assert verify.side_by_side(_cmp([92.7], [92.9]), tolerance=0.2)["within"].iloc[0] == "yes"
    one_sided = verify.side_by_side(
        verify.compare(
            pd.DataFrame({"judge": ["a"], "value": [1.0]}),
            pd.DataFrame({"judge": ["b"], "value": [1.0], "source": "s"}),
            on=["judge"],
        )
    )
    assert set(one_sided["within"]) == {"n/a"}


def test_scorecard_counts_artifacts_and_claims(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = _folder(tmp_path, synthetic=True)
    verify.show_comparison(_cmp([92.7, 80.0, 50.0], [92.7, 81.0, 50.04]), "T02", out)
    verify.show_checks(
        verify.checks_table([verify.verdict("CF1.monotone_pairs", (24, 24)), verify.verdict("CF2.lift_gemini", -3.0)]),
        "C-F_findings",
        out,
    )
    verify.show_checks(verify.checks_table([verify.verdict("CF1.monotone_pairs", (23, 24))]), "T04", out)
    verify.show_checks(
        verify.checks_table([verify.verdict("P.records", 120, full_data=False)]).assign(
            **{"checked on": "paper tables"}
        ),
        "X1-cross",
        out,
    )
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
    assert len(text.splitlines()) <= 28
    md = (out / "SCORECARD.md").read_text(encoding="utf-8")
    assert "Synthetic sample" in md and "notebooks/03_main_results.ipynb" in md


def test_scorecard_counts_indistinguishable_and_lists_unchecked_claims(tmp_path: Path) -> None:
    out = _folder(tmp_path, synthetic=False)
    verify.show_comparison(_cmp([1.0], [1.0]), "T11", out)
    verify.show_checks(
        verify.checks_table(
            [
                verify.verdict("CF2.sign_gemini", -0.5, ci=(-1.0, 0.2)),
                verify.verdict("CF2.sign_qwq", 1.0, ci=(0.5, 1.5)),
            ]
        ),
        "C-F_findings",
        out,
    )
    card = scorecard.write_scorecard(out, "hf")
    cl = card[card["row"] == "claim"].set_index("id")
    assert cl.loc["CF2.sign_gemini", "holds"] == verify.INDISTINGUISHABLE and cl.loc["CF2.sign_qwq", "holds"] == "yes"
    # every other claim of claims.csv is listed once, n/a, with the missing data named
    assert set(cl.index) | set(card.loc[card["row"] == "audit", "id"]) >= set(verify.claims()["claim_id"])
    rest = cl.drop(["CF2.sign_gemini", "CF2.sign_qwq"])
    assert (rest["holds"] == "n/a").all() and rest["note"].str.startswith(verify.MISSING_DATA).all()
    text = scorecard.summary(card, "hf", False)
    assert "1 indistinguishable (CI spans 0)" in text and f"{len(cl)} claims on data: 1 hold" in text


def test_scorecard_on_released_data_says_so(tmp_path: Path) -> None:
    out = _folder(tmp_path, synthetic=False)
    verify.show_comparison(_cmp([1.0], [1.0]), "T11", out)
    card = scorecard.write_scorecard(out, "hf")
    text = scorecard.summary(card, "hf", False)
    assert "reproduction verdict of the paper" in text and "SYNTHETIC" not in text


def test_print_summary_writes_the_scorecard_and_prints_one_screen(tmp_path: Path, capsys) -> None:
    """What scripts/reproduce.py calls at its end: the files exist afterwards and the text fits a screen."""
    out = _folder(tmp_path)
    verify.show_comparison(_cmp([92.7, 80.0], [92.7, 81.0]), "T02", out)
    capsys.readouterr()
    text = scorecard.print_summary(out)
    printed = capsys.readouterr().out
    assert text in printed and "1/2 reported values" in printed
    assert (out / "SCORECARD.md").exists() and (out / "SCORECARD.csv").exists()
    assert len(printed.splitlines()) <= 28  # the headline (issue 48) took three lines


def test_print_summary_without_writing_reads_the_same_card(tmp_path: Path, capsys) -> None:
    """After 18_scorecard wrote the files, the main command's summary (write=False) prints the same text
    and leaves the files as they were."""
    out = _folder(tmp_path)
    verify.show_comparison(_cmp([92.7, 80.0], [92.7, 81.0]), "T02", out)
    written = scorecard.print_summary(out)
    files = {p.name: p.read_bytes() for p in out.glob("SCORECARD*")}
    (out / "SCORECARD.png").unlink()
    capsys.readouterr()
    assert scorecard.print_summary(out, write=False) == written
    assert "written by 18_scorecard" in capsys.readouterr().out
    assert not (out / "SCORECARD.png").exists()  # nothing written
    assert {p.name: p.read_bytes() for p in out.glob("SCORECARD*")} == {
        k: v for k, v in files.items() if k != "SCORECARD.png"
    }


def test_comparison_from_the_paper_itself_is_not_counted(tmp_path: Path) -> None:
    out = _folder(tmp_path)
    verify.show_comparison(_cmp([1.0, 2.0], [1.0, 2.0]), "T25", out, from_paper=True)
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
                rows = [r[-len(cols) :] for r in body if len(r) >= len(cols)]
                frames.append(pd.DataFrame(rows, columns=cols))
    return frames


def _verdict_tables() -> list[tuple[str, pd.DataFrame]]:
    """Return (notebook, table) for every committed output table with a `holds` column."""
    return [(p.stem, t) for p in NOTEBOOKS for t in _html_tables(p) if "holds" in t.columns]


def test_every_holds_cell_comes_from_the_engine() -> None:
    """Every claims table a committed notebook shows, and every one it writes for the scorecard (on the
    sample most are one line in the notebook, whole on disk), has engine verdicts of known claims."""
    shown = _verdict_tables()
    written = [
        (p.name, pd.read_csv(p, dtype=str, keep_default_na=False))
        for p in sorted((paths.FIGURES_DIR / "sample").glob("*checks.csv"))
    ]
    tables = shown + [(name, t) for name, t in written if set(verify.CHECK_COLUMNS) <= set(t.columns)]
    # shown whole: 02's claims and 18's failing X1 checks (the scorecard links the rest, on disk)
    assert len(shown) >= 2 and len(written) >= 25
    known = verify.claims().set_index("claim_id")
    for nb, t in tables:
        id_col = "claim_id" if "claim_id" in t.columns else "id"
        assert {id_col, "kind", "tolerance"} <= set(t.columns), (nb, list(t.columns))
        for r in t.itertuples(index=False):
            row = dict(zip(t.columns, r))
            assert row[id_col] in known.index, (nb, row[id_col])
            assert row["kind"] == known.loc[row[id_col], "kind"], (nb, row[id_col])
            assert row["holds"] in ("yes", "no", verify.INDISTINGUISHABLE, "n/a"), (nb, row[id_col], row["holds"])


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
    from ajb_verify import scorecard

    assert scorecard.missing_rule_line(tmp_path) == ""  # not computed: nothing said
    pd.DataFrame(
        {
            "missing": ["exclude", "miss", "authors"],
            "n_cells": [84, 84, 84],
            "mean_abs_diff": [0.31, 0.52, 0.08],
            "max_abs_diff": [1.2, 2.0, 0.4],
        }
    ).to_csv(tmp_path / scorecard.RULE_FIT_FILE, index=False)
    line = scorecard.missing_rule_line(tmp_path)
    assert line.startswith("missing-verdict rule closest to Table 2: authors (mean |diff| 0.08 pp over 84 cells")
    assert "exclude 0.31" in line and "miss 0.52" in line


# ---- deterministic files, Markdown that renders, a figure that reads -------------------------
def _tied_folder(tmp_path: Path) -> Path:
    """Return a synthetic output folder whose comparisons have tied |differences| (the unstable-sort case)."""
    out = _folder(tmp_path)
    rep = [90.0, 80.0, 70.0, 60.0, 50.0, 40.0, 30.0, 20.0] * 4
    mine = [r + (-1.0 if i % 2 else 1.0) for i, r in enumerate(rep)]  # every |difference| is 1.0
    verify.show_comparison(_cmp(rep, mine), "T02", out)
    verify.show_comparison(_cmp([3808.0, 812.0, 12345.0], [120.0, 19.0, 12344.0]), "T07", out)
    verify.show_comparison(_cmp([0.61, 0.2, 0.0], [0.3, 0.2, 0.0]), "T03", out)
    verify.show_checks(verify.checks_table([verify.verdict("CF2.lift_gemini", -3.0)]), "C-F_findings", out)
    return out


_WRITE = """
import sys, matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
if sys.argv[2] == "kernel-like":  # what an inline backend does to rcParams
    plt.rcParams.update({"font.size": 10, "figure.facecolor": (1, 1, 1, 0), "figure.dpi": 72})
from ajb_verify import scorecard
scorecard.write_scorecard(sys.argv[1], "sample")
"""


def test_the_scorecard_is_the_same_bytes_on_every_run(tmp_path: Path) -> None:
    """Two runs, here and in a fresh process (another hash seed, other rcParams): PNG, PDF, MD and CSV identical."""
    import os
    import subprocess
    import sys

    out = _tied_folder(tmp_path)
    names = ("SCORECARD.png", "SCORECARD.pdf", "SCORECARD.md", "SCORECARD.csv")
    import matplotlib.pyplot as plt

    with plt.rc_context({"font.size": 13, "lines.markersize": 9}):  # this process: other rcParams
        scorecard.write_scorecard(out, "sample")
    got = [{n: (out / n).read_bytes() for n in names}]
    env = {**os.environ, "PYTHONHASHSEED": "7", "PYTHONPATH": str(paths.REPO_ROOT)}
    subprocess.run(
        [sys.executable, "-c", _WRITE, str(out), "kernel-like"],
        check=True,
        env=env,
        cwd=tmp_path,
        capture_output=True,
        timeout=300,
    )
    got.append({n: (out / n).read_bytes() for n in names})
    for n in names:
        assert got[0][n] == got[1][n], n
    pdf = got[0]["SCORECARD.pdf"]
    assert b"CreationDate" not in pdf and b"ModDate" not in pdf and b"Producer" not in pdf
    assert b"Software" not in got[0]["SCORECARD.png"][:2000]  # no version text in the PNG header


def _md_tables(md: str) -> list[dict]:
    """Return every table mistune (nbconvert's Markdown renderer, GFM tables) finds: header and row cell counts."""
    import mistune

    def text(node: dict) -> str:
        return node.get("raw", "") + "".join(text(c) for c in node.get("children", []))

    tables = []
    for tok in mistune.create_markdown(renderer=None, plugins=["table"])(md):
        if tok["type"] == "table":
            head, body = tok["children"]
            tables.append(
                {"header": [text(c) for c in head["children"]], "rows": [len(r["children"]) for r in body["children"]]}
            )
    return tables


def test_every_table_of_scorecard_md_renders(tmp_path: Path) -> None:
    """SCORECARD.md's tables render as tables (a `max |difference|` header once broke all of them)."""
    out = _tied_folder(tmp_path)
    pd.DataFrame(
        {
            "claim_id": ["CF1.monotone_pairs"],
            "claim": ["a | b"],
            "paper value": ["1"],
            "reproduced value": ["1"],
            "kind": ["share"],
            "tolerance": ["exact"],
            "holds": ["yes"],
            "note": ["x|y"],
        }
    ).reindex(columns=verify.CHECK_COLUMNS, fill_value="").to_csv(out / "T04_checks.csv", index=False)
    scorecard.write_scorecard(out, "sample")
    for md in (
        (out / "SCORECARD.md").read_text(encoding="utf-8"),
        (paths.FIGURES_DIR / "sample" / "SCORECARD.md").read_text(encoding="utf-8"),
    ):
        n_source = len(re.findall(r"^\|(---\|)+$", md, flags=re.M))
        tables = _md_tables(md)
        assert n_source >= 3 and len(tables) == n_source
        for t in tables:
            assert set(t["rows"]) == {len(t["header"])}, t["header"]
            assert t["header"][0] in ("id", "section", "row", "rule", "file")  # census by section or rule; sources
        art = [t for t in tables if "values compared" in t["header"]]
        assert art and all("max |difference|" in t["header"] for t in art)


def test_scorecard_md_prints_counts_as_integers_and_numbers_plainly(tmp_path: Path) -> None:
    out = _tied_folder(tmp_path)
    card = scorecard.write_scorecard(out, "sample")
    arts = card[card["row"] == "artifact"].set_index("id")
    assert str(arts["values compared"].dtype) == "Int64" and int(arts.loc["T02", "values compared"]) == 32
    md = (out / "SCORECARD.md").read_text(encoding="utf-8")
    assert "| 32 |" in md and "32.0" not in md
    assert not re.search(r"\d[eE][+-]\d", md)  # 3688, not 3.688e+03
    assert scorecard.plain_number(55320.0) == "55,320" and scorecard.plain_number(0.2041) == "0.204"
    assert scorecard.plain_number(-12.54) == "-12.5" and scorecard.signed(-0.4) == "0"


def _boxes_overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def test_scorecard_figure_reads_well(tmp_path: Path) -> None:
    """Distinct markers in and out of tolerance, labels that never overlap, no scientific notation,
    the synthetic warning once, a paper's text width; ties labelled by file order."""
    import matplotlib.pyplot as plt

    from ajb_utils import figures, provenance

    out = _tied_folder(tmp_path)
    fig, axes = scorecard.figure_scorecard(scorecard.read_comparisons(out), synthetic=True)
    figures.save_fig(fig, "SCORECARD", "", out)
    ax = axes[0]
    assert fig.get_figwidth() == pytest.approx(figures.TEXT_WIDTH)
    markers = {scorecard.WITHIN_STYLE["marker"], scorecard.OUTSIDE_STYLE["marker"], scorecard.CLIPPED_STYLE["marker"]}
    assert len(markers) == 3 and scorecard.WITHIN_STYLE["color"] != scorecard.OUTSIDE_STYLE["color"]
    notes = [t for t in fig.texts if t.get_text() == provenance.SYNTHETIC_FIGURE_NOTE]
    assert len(notes) == 1 and "SYNTHETIC" not in " ".join(t.get_text() for t in fig.texts if t not in notes)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    labels = [t for t in ax.texts if t.get_text()] + [t for t in ax.get_yticklabels() if t.get_text()]
    boxes = [t.get_window_extent(r) for t in labels]
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            assert not _boxes_overlap(boxes[i], boxes[j]), (labels[i].get_text(), labels[j].get_text())
    assert len(fig.legends) == 1 and not _boxes_overlap(fig.legends[0].get_window_extent(r), ax.bbox)
    shown = [t.get_text() for t in ax.get_xticklabels() + ax.texts]
    assert not any(re.search(r"\d[eE][+-]?\d", s) for s in shown), shown
    rows = {t.get_text().split()[0]: t for t in ax.get_yticklabels() if t.get_text()}
    assert {"T02", "T03", "T07"} <= set(rows)
    assert not any("…" in t.get_text() for t in ax.get_yticklabels())  # a long name wraps, never cut
    notes_by_row = [t.get_text() for t in ax.texts if t.get_text()[:1].isdigit()]
    # T02: 32 values, every |difference| 1.0 and |relative| 1.1 %: the first in file order is named
    assert "0/32   +1 %: 90 \u2192 91" in notes_by_row, notes_by_row
    assert any(s.startswith("0/3 ") and "3,808 \u2192 120" in s for s in notes_by_row), notes_by_row
    plt.close(fig)


def test_a_rerun_on_other_data_does_not_mix_the_old_comparisons_into_the_scorecard(tmp_path: Path) -> None:
    """A folder holds the comparisons of one data version: when a notebook writes there on other
    data (a new revision), the comparisons and claim checks written on the old one are removed, so
    a partial rerun's scorecard shows only what was computed on the data it names."""
    from types import SimpleNamespace

    from ajb_utils import provenance

    out = tmp_path / "hf"
    out.mkdir()

    def bench(revision: str) -> SimpleNamespace:
        """Return a stand-in Bench of one revision."""
        return SimpleNamespace(source="hf", revision=revision, label="hf", synthetic=False, judges=None)

    provenance.write_provenance(bench("aaa"), out)
    verify.show_comparison(_cmp([92.7, 80.0], [92.7, 80.0]), "T02", out)
    verify.show_checks(verify.checks_table([verify.verdict("CF2.lift_gemini", -3.0)]), "C-F_findings", out)
    provenance.write_provenance(bench("aaa"), out)  # another notebook, the same data: both kept
    assert len(scorecard.read_comparisons(out)) == 2 and len(scorecard.read_checks(out)) == 1
    provenance.write_provenance(bench("bbb"), out)  # a rerun of one notebook on a new revision
    verify.show_comparison(_cmp([50.0], [50.5]), "T24", out)
    got = scorecard.read_comparisons(out)
    assert got["artifact"].tolist() == ["T24"] and scorecard.read_checks(out).empty


# ---- a scorecard describes the tables beside it (issue 48) --------------------------------------
def _load_run_notebooks():
    """Return scripts/run_notebooks.py as a module (the runner that writes output folders), loaded once."""
    import sys

    sys.path.insert(0, str(paths.REPO_ROOT / "tests"))
    from script_modules import load_script

    return load_script("run_notebooks")


def test_a_scorecard_names_the_revision_and_the_tables_it_was_made_from(tmp_path: Path) -> None:
    out = _folder(tmp_path, synthetic=False)
    prov = json.loads((out / "PROVENANCE.json").read_text()) | {"source": "hf", "revision": "13ac79a"}
    (out / "PROVENANCE.json").write_text(json.dumps(prov), encoding="utf-8")
    verify.show_comparison(_cmp([92.7, 80.0], [92.7, 81.0]), "T02", out)
    scorecard.write_scorecard(out, "hf")
    made = scorecard.made_from(out).set_index("file")
    assert {"T02_compare.csv", "PROVENANCE.json"} <= set(made.index)
    import hashlib

    assert made.loc["T02_compare.csv", "sha256"] == hashlib.sha256((out / "T02_compare.csv").read_bytes()).hexdigest()
    md = (out / "SCORECARD.md").read_text(encoding="utf-8")
    assert "13ac79a" in md and made.loc["T02_compare.csv", "sha256"][:16] in md
    assert not scorecard.is_stale(out)
    (out / "T02_compare.csv").write_text((out / "T02_compare.csv").read_text().replace("92.7", "92.6"))
    assert scorecard.is_stale(out)  # a table changed after the scorecard was written


def test_a_rerun_stopped_after_notebook_01_leaves_the_folder_incomplete_and_the_scorecard_stale(tmp_path) -> None:
    """A rerun into a folder with a scorecard: the runner marks the folder incomplete and the old
    scorecard stale before the first notebook starts; notebook 01 writes new tables, then the run
    stops (killed: nothing more runs), or ends OK without 18_scorecard: either way the folder stays
    marked and SCORECARD.md says it is stale. With 18_scorecard the mark goes."""
    rn = _load_run_notebooks()
    out = _folder(tmp_path, synthetic=False)
    verify.show_comparison(_cmp([92.7, 80.0], [92.7, 81.0]), "T02", out)
    scorecard.write_scorecard(out, "hf")
    rn.start_outputs([out])  # what the runner does before the first notebook starts
    verify.show_comparison(_cmp([3808.0], [3800.0]), "T07", out)  # notebook 01 writes its tables
    # stopped here (Ctrl-C, a kill): the folder is marked and the scorecard says it is stale
    assert (out / paths.INCOMPLETE_FILE).exists()
    assert (out / "SCORECARD.md").read_text(encoding="utf-8").startswith(scorecard.STALE_BANNER)
    assert scorecard.is_stale(out)
    rn.finish_outputs([out])  # the run ended OK, but without 18_scorecard
    assert (out / paths.INCOMPLETE_FILE).exists() and "scorecard" in (out / paths.INCOMPLETE_FILE).read_text()
    scorecard.write_scorecard(out, "hf")  # 18_scorecard
    rn.finish_outputs([out])
    assert not (out / paths.INCOMPLETE_FILE).exists() and not scorecard.is_stale(out)
    assert not (out / "SCORECARD.md").read_text(encoding="utf-8").startswith(scorecard.STALE_BANNER)


def test_a_folder_without_a_scorecard_is_unmarked_by_a_run_that_ends_ok(tmp_path) -> None:
    rn = _load_run_notebooks()
    out = tmp_path / "a"
    rn.start_outputs([out])
    (out / "T01_table.csv").write_text("x")
    rn.finish_outputs([out])
    assert not (out / paths.INCOMPLETE_FILE).exists()
