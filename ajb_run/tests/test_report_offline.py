"""The HTML report's equations need no network: they are drawn at build time (pages.offline_equations)."""

from __future__ import annotations

import json
import re
import socket

import nbformat
import pytest

from ajb_run import pages
from ajb_utils.paths import REPO_ROOT
from script_modules import load_script

NETWORK_SCRIPT = re.compile(r"<script\b[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//[^>]*>", re.IGNORECASE)


def network_scripts(page: str) -> list[str]:
    """Return the <script> tags of an HTML page that load from the network."""
    return [m.group(0) for m in NETWORK_SCRIPT.finditer(page)]


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to open a network connection fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("network access while rendering a page")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_every_equation_of_the_notebooks_is_drawn() -> None:
    """Each $...$ / $$...$$ of every committed notebook becomes an SVG (mathtext, with the fixes it needs)."""
    failed = []
    for path in sorted((REPO_ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            for m in pages.MATH_PATTERN.finditer("".join(cell["source"])):
                if pages.equation_svg((m.group("display") or m.group("inline")).strip()) is None:
                    failed.append((path.name, m.group(0)[:80]))
    assert failed == []


def test_equation_svg_is_deterministic() -> None:
    a = pages.equation_svg(r"\mu_r = \frac{1}{4}\sum_m \big(1 - |p - \ell|\big)")  # drawn twice: no memo
    b = pages.equation_svg(r"\mu_r = \frac{1}{4}\sum_m \big(1 - |p - \ell|\big)")
    assert a is not None and a == b and "<svg" in a


def test_offline_math_keeps_the_tex_as_alt_text_and_leaves_prose_alone() -> None:
    md = "Inline $p \\le 1$ and display:\n\n$$\\bar p = \\frac{1}{N}\\sum_r p_r$$"
    out = pages.offline_math(md)
    assert out.startswith('Inline <img class="ajb-math"') and out.count("data:image/svg+xml;base64,") == 2
    assert 'alt="p \\le 1"' in out and 'alt="\\bar p = \\frac{1}{N}\\sum_r p_r"' in out
    assert "$$" not in out
    assert pages.offline_math("no math here") == "no math here"


def test_a_page_renders_offline_with_its_equations_drawn(no_network, tmp_path) -> None:
    """A notebook page made with nbconvert and no network holds its equations as images, not raw TeX."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("### Glass box\n\n$$\\mathrm{align} = \\frac{100}{N} \\sum_{r=1}^{N} \\mu_r$$"),
        nbformat.v4.new_markdown_cell("where $\\mu_r = 1 - |p_r - \\ell_r|$."),
    ]
    before = json.dumps(nb)
    body, _ = pages.html_exporter().from_notebook_node(pages.offline_equations(nb))
    assert json.dumps(nb) == before  # the notebook itself is not changed
    assert body.count('class="ajb-math"') == 2
    assert "\\frac{100}{N}" not in body.replace('alt="\\mathrm{align} = \\frac{100}{N} \\sum_{r=1}^{N} \\mu_r"', "")
    (tmp_path / "page.html").write_text(body, encoding="utf-8")


def test_the_network_script_finder_finds_nbconverts_default_scripts() -> None:
    """The finder is checked on nbconvert's own default page (it names require.js and MathJax on a CDN)."""
    from nbconvert import HTMLExporter

    body, _ = HTMLExporter().from_notebook_node(nbformat.v4.new_notebook())
    found = network_scripts(body)
    assert any("require" in s for s in found) and any("mathjax" in s.lower() for s in found)
    assert network_scripts('<script src="//cdn.example/x.js"></script><script>var a = 1;</script>') == [
        '<script src="//cdn.example/x.js">'
    ]


def test_no_report_page_names_a_network_script(no_network, tmp_path) -> None:
    """Every notebook's page as the main command writes it (render_html) loads no script from the network."""
    rn = load_script("run_notebooks")
    html = tmp_path / "html"
    html.mkdir()
    named = {}
    for path in sorted((REPO_ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        page = rn.render_html(path, html).read_text(encoding="utf-8")
        named[path.stem] = network_scripts(page) + re.findall(r"<link\b[^>]*href=\"https?://[^>]*>", page)
        assert "<script" not in page, path.stem  # nothing to load at all: the package's template has no script
    assert {k: v for k, v in named.items() if v} == {}
