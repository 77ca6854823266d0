"""The package's page template leaves out nbconvert's second cleaning of a code cell's highlighted
source; a page is the same byte for byte as with the lab template's own code block, code that
looks like HTML included."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from ajb_run import pages

HOSTILE = [
    "x = '<script>alert(1)</script>'  # a tag in a string",
    'print("a & b < c > d", "\\"quoted\\"", \'it\\\'s\')',
    "html = '<img src=x onerror=alert(1)>'\n# <b>bold</b> &amp; &lt;\nif 1 < 2 and 3 > 2: pass",
    "%%time\ndf.style.to_html()",
]


def _lab_code_block_exporter(tmp: Path):
    """Return an exporter whose template is the package's without its `input` block (the lab one's)."""
    text = pages.OFFLINE_TEMPLATE.read_text(encoding="utf-8")
    lab = re.sub(r"\{#- A code cell.*?\{%- endblock input %\}\n", "", text, flags=re.S)
    assert lab != text and "block input" not in lab
    (tmp / "lab_input.html.j2").write_text(lab, encoding="utf-8")
    from nbconvert import HTMLExporter

    return HTMLExporter(
        extra_template_paths=[str(tmp), str(pages.OFFLINE_TEMPLATE.parent)], template_file="lab_input.html.j2"
    )


def test_pages_are_the_lab_template_s_byte_for_byte(tmp_path: Path) -> None:
    cells = [new_markdown_cell("# Title with <em>markup</em> and $x^2$")]
    for code in HOSTILE:
        cells.append(new_code_cell(code, outputs=[new_output("stream", name="stdout", text="<b>out</b>\n")]))
    nb = new_notebook(cells=cells, metadata={"language_info": {"name": "python", "pygments_lexer": "ipython3"}})
    ours, _ = pages.html_exporter().from_notebook_node(nbformat.from_dict(nb))
    theirs, _ = _lab_code_block_exporter(tmp_path).from_notebook_node(nbformat.from_dict(nb))
    assert ours == theirs
    assert "<script>alert" not in ours and "&lt;script&gt;" in ours


def test_a_committed_notebook_s_page_is_the_lab_template_s(tmp_path: Path) -> None:
    from ajb_utils import paths

    nb = nbformat.read(paths.NOTEBOOKS_DIR / "03_main_results.ipynb", as_version=4)
    ours, _ = pages.html_exporter().from_notebook_node(nb)
    theirs, _ = _lab_code_block_exporter(tmp_path).from_notebook_node(nb)
    assert ours == theirs
