"""The HTML report leads to everything: the index links the scorecard, every file of the sample's
output folder is linked from some page, no `<placeholder>` of notebook prose is eaten by the
Markdown renderer, and the index has its glossary and reading path."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

import nbformat
import pytest

from ajb_run import pages
from ajb_utils import paths
from ajb_verify import artifacts
from report_pages import broken_links, page_links
from script_modules import load_script

ROOT = paths.REPO_ROOT
NOTEBOOKS = sorted(paths.NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))
SAMPLE = paths.FIGURES_DIR / "sample"


rn = load_script("run_notebooks")


def _linked_files(pages: list[Path]) -> set[Path]:
    """Return the resolved files that the relative links of HTML pages point to."""
    out = set()
    for page in pages:
        for url in page_links(page):
            if rn.is_relative_link(url):
                out.add((page.parent / unquote(url.partition("#")[0])).resolve())
    return out


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> Path:
    """The committed index and scorecard notebooks rendered as the report renders them."""
    html = tmp_path_factory.mktemp("report") / "html"
    for stem in ("00_index", "18_scorecard"):
        rn.render_html(paths.NOTEBOOKS_DIR / f"{stem}.ipynb", html)
    return html


def test_the_index_links_the_scorecard(rendered: Path) -> None:
    links = set(page_links(rendered / "00_index.html"))
    assert "18_scorecard.html" in links
    assert len([u for u in links if rn.is_relative_link(u)]) > 50  # the artifact map links every notebook and file
    linked = _linked_files([rendered / "00_index.html"])
    for suffix in ("md", "png", "pdf", "csv"):
        assert (SAMPLE / f"SCORECARD.{suffix}").resolve() in linked, suffix
    for page in ("00_index.html", "18_scorecard.html"):  # the other pages are not rendered here
        assert [
            u for u in broken_links(rendered / page) if not rn.NOTEBOOK_RE.match(u.replace(".html", ".ipynb"))
        ] == [], page


def test_every_output_file_is_linked_from_the_report(rendered: Path) -> None:
    """The README says every table and figure is linked: every file of figures/sample/ is (the map in
    the index links the artifacts' files, the scorecard page the rest)."""
    marker = paths.INCOMPLETE_FILE  # a stopped run's marker, never an output (artifacts.folder_files skips it too)
    files = {p.resolve() for p in SAMPLE.iterdir() if p.is_file() and not p.name.startswith(".") and p.name != marker}
    assert len(files) > 100
    missing = sorted(p.name for p in files - _linked_files(sorted(rendered.glob("*.html"))))
    assert missing == [], f"{len(missing)} files of figures/sample/ linked from no page: {missing[:10]}"


def test_the_folder_listing_links_each_file_once(tmp_path: Path) -> None:
    (tmp_path / "T02_compare.csv").write_text("x")
    (tmp_path / "T02_main_alignment.csv").write_text("x")
    (tmp_path / "annotation_sheet_blank.csv").write_text("x")
    (tmp_path / "PROVENANCE.json").write_text("{}")
    (tmp_path / ".hidden").write_text("x")
    (tmp_path / "html").mkdir()
    md = artifacts.folder_markdown(tmp_path, "../figures/x")
    rows = md.splitlines()
    assert rows[0] == "| notebook | files |" and len(rows) == 5
    assert rows[2].startswith(
        "| [03_main_results](03_main_results.ipynb) | [T02_compare.csv](../figures/x/T02_compare.csv)"
    )
    assert rows[3].startswith("| [11_human_validation]") and rows[4].startswith(
        "| the folder itself | [PROVENANCE.json]"
    )
    assert ".hidden" not in md and "(../figures/x/html)" not in md
    assert artifacts.folder_markdown(tmp_path / "absent", "r").count("\n") == 1  # header only


def test_the_closing_lines_name_the_index_and_the_scorecard_page(tmp_path: Path) -> None:
    (tmp_path / "00_index.html").write_text("x")
    (tmp_path / "18_scorecard.html").write_text("x")
    end = rn.end_summary(tmp_path, tmp_path)  # a folder outside the repository: printed whole
    assert end[:2] == [f"{w}: {tmp_path / p}" for w, p in pages.REPORT_PAGES]
    assert end[2] == f"tables and figures: {tmp_path}/" and end[3].startswith("scorecard: none")


# ---- placeholders in notebook prose ----------------------------------------------------------
HTML_TAGS = frozenset(
    "a b br code details div em font hr i img kbd li ol p pre s small span strong sub "
    "summary sup table tbody td th thead tr u ul h1 h2 h3 h4 h5 h6 center".split()
)


def placeholders(markdown: str) -> list[str]:
    """Return the `<...>` placeholders of Markdown text that a renderer would take for HTML tags and
    drop (outside code spans, code blocks and math; real HTML tags and autolinks are fine)."""
    text = re.sub(r"```.*?```", "", markdown, flags=re.S)
    text = re.sub(r"(`+)(?:(?!\1).)+?\1", "", text, flags=re.S)
    text = re.sub(r"\$\$.*?\$\$", "", text, flags=re.S)
    text = re.sub(r"\$[^$\n]+\$", "", text)
    found = []
    for m in re.finditer(r"</?([A-Za-z][^<>\n]*)>", text):
        inner = m.group(1)
        if "://" in inner or inner.startswith("mailto:"):
            continue  # an autolink
        if re.split(r"[\s/>]", inner)[0].lower() in HTML_TAGS:
            continue
        found.append(m.group(0))
    return found


def test_the_placeholder_check_can_fail() -> None:
    assert placeholders("outputs go to figures/<data label>/ by default") == ["<data label>"]
    assert placeholders("files `<ID>_compare.csv` and `figures/<label>/`") == []
    assert placeholders("```bash\nrun --out <dir>\n```\n$a<b$ and $c>d$; <br> <sub>x</sub>") == []
    assert placeholders("see <https://arxiv.org/abs/2608.26623> and <ID>.csv") == ["<ID>"]


def _markdown_texts(nb_path: Path) -> list[tuple[str, str]]:
    """Return (cell id, Markdown) for every Markdown cell and every Markdown output of a notebook."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    out = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            out.append((cell.get("id", "?"), "".join(cell["source"])))
        for o in cell.get("outputs", []):
            md = o.get("data", {}).get("text/markdown")
            if md:
                out.append((cell.get("id", "?") + " (output)", "".join(md)))
    return out


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_placeholder_outside_backticks(nb_path: Path) -> None:
    """`figures/<data label>/` outside backticks shows as `figures//` in the HTML report."""
    bad = [(cid, ph) for cid, text in _markdown_texts(nb_path) for ph in placeholders(text)]
    assert bad == [], f"{nb_path.name}: put these in backticks: {bad}"


def test_the_notebook_template_writes_no_placeholder() -> None:
    text = (ROOT / "scripts" / "new_notebook.py").read_text(encoding="utf-8")
    assert "figures/<data label>/ for the default" not in text.replace("`figures/<data label>/`", "")


# ---- the index notebook ----------------------------------------------------------------------
def test_the_index_has_a_glossary_and_core_path_that_starts_with_the_concepts() -> None:
    index = nbformat.read(paths.NOTEBOOKS_DIR / "00_index.ipynb", as_version=4)
    text = "\n".join(c.source for c in index.cells if c.cell_type == "markdown")
    glossary = text[text.index("## Glossary") :]
    for term in (
        "alignment",
        "agreement",
        "kappa",
        "hedge",
        "lift",
        "anchoring",
        "ceiling",
        "reference judges",
        "always-1.0",
        "ternary oracle",
        "C2",
        "C3",
        "A5",
        "W.2",
        "X1-X6",
        "DeRef",
        "seed 004",
        "missing-verdict rules",
        "`exclude`",
        "`miss`",
        "`authors`",
    ):
        assert term in glossary, term
    path = text[text.index("## The core path") : text.index("## Glossary")]
    order = [
        path.index(f"({nb}.ipynb)")
        for nb in ("17_judge_simulator", "02_programmatic_judge", "03_main_results", "18_scorecard")
    ]
    assert order == sorted(order)  # the concepts before the paper's sections, the scorecard last
    for nb in NOTEBOOKS:
        if nb.stem != "00_index":
            assert f"{nb.name})" in path or f"({nb.name}" in path, nb.stem
