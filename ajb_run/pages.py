"""The HTML report's pages: nbconvert with the package's template, equations drawn as SVG, so a page
opened from disk loads no script from the network.

Hand-written, and why: nbconvert's lab template names require.js, MathJax and mermaid on a CDN, so
`ajb_offline.html.j2` extends it without them; nbconvert has no offline equation renderer, so
`offline_equations` draws each `$...$` with matplotlib's mathtext (glyphs as paths) before export.
"""

from __future__ import annotations

import base64
import copy
import html
import io
import re
from pathlib import Path
from typing import Any

# ---- the HTML report -----------------------------------------------------------------------
REPORT_PAGES: tuple[tuple[str, str], ...] = (
    ("report (open in a browser)", "00_index.html"),
    ("scorecard page", "18_scorecard.html"),
)


# ---- equations rendered at build time (the HTML report works offline) ----------------------------
MATH_PATTERN = re.compile(r"\$\$(?P<display>.+?)\$\$|(?<![\\$])\$(?!\$)(?P<inline>[^$\n]+?)(?<!\\)\$", re.S)
_TEX_FIXES: tuple[tuple[str, str], ...] = (  # what mathtext lacks, written with what it has
    (r"\Big(", "("),
    (r"\Big)", ")"),
    (r"\big(", "("),
    (r"\big)", ")"),
    (r"\Big|", "|"),
    (r"\big|", "|"),
    (r"\Big[", "["),
    (r"\Big]", "]"),
    (r"\big[", "["),
    (r"\big]", "]"),
)
_CASES = re.compile(r"\\begin\{cases\}(.+?)\\end\{cases\}", re.S)


def _mathtext_tex(tex: str) -> str:
    """Return TeX rewritten into matplotlib's mathtext subset (\\big, cases as one bracketed line)."""
    for old, new in _TEX_FIXES:
        tex = tex.replace(old, new)
    tex = re.sub(r"\\(le|ge)(?![A-Za-z])", r"\\\1q", tex)  # \le -> \leq, \ge -> \geq

    def cases(m: re.Match) -> str:
        rows = [r.strip() for r in m.group(1).split(r"\\") if r.strip()]
        parts = [r"\ \ ".join(c.strip() for c in row.split("&")) for row in rows]
        return r"\left\{" + r";\ \ ".join(parts) + r"\right."

    return _CASES.sub(cases, " ".join(tex.split()))


def equation_svg(tex: str, fontsize: float = 13.0) -> str | None:
    """Return one TeX equation as a standalone SVG (matplotlib mathtext, glyphs as paths), None if it cannot be drawn.

    Deterministic: no date in the file, a fixed hash salt for the element ids.
    """
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties
    from matplotlib.mathtext import MathTextParser

    text = f"${_mathtext_tex(tex)}$"
    with matplotlib.rc_context({"mathtext.fontset": "cm", "svg.hashsalt": "ajb-equation", "svg.fonttype": "path"}):
        prop = FontProperties(size=fontsize)
        try:
            width, height, depth, _, _ = MathTextParser("path").parse(text, dpi=72, prop=prop)
            fig = Figure(figsize=(width / 72.0, height / 72.0))
            fig.text(0, depth / height, text, fontproperties=prop)
            buf = io.StringIO()
            fig.savefig(buf, format="svg", metadata={"Date": None}, transparent=True)
        except (ValueError, RuntimeError):
            return None
    return buf.getvalue()


def offline_math(markdown: str) -> str:
    """Return markdown with each $...$ and $$...$$ replaced by an inline SVG image of the equation.

    The image's alt text is the TeX, so a reader (and a screen reader) still has the source; an
    equation mathtext cannot draw is left as TeX for MathJax, when a network is there to load it.
    """

    def repl(m: re.Match) -> str:
        tex = (m.group("display") or m.group("inline")).strip()
        svg = equation_svg(tex)
        if svg is None:
            return m.group(0)
        data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
        alt = html.escape(tex, quote=True)
        img = (
            f'<img class="ajb-math" alt="{alt}" src="data:image/svg+xml;base64,{data}" style="vertical-align: middle">'
        )
        return f'<div style="text-align: center">{img}</div>' if m.group("display") else img

    return MATH_PATTERN.sub(repl, markdown)


def offline_equations(nb: Any) -> Any:
    """Return a copy of a notebook (nbformat node or dict) whose markdown equations are SVG images.

    For scripts/run_notebooks.py's `render_html`: the page then needs no MathJax from the network::

        body, _ = pages.html_exporter().from_notebook_node(pages.offline_equations(nbformat.read(path, as_version=4)))
    """
    out = copy.deepcopy(nb)
    for cell in out["cells"]:
        if cell["cell_type"] == "markdown":
            src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            cell["source"] = offline_math(src)
    return out


OFFLINE_TEMPLATE = Path(__file__).parent / "resources" / "html" / "ajb_offline.html.j2"


def html_exporter() -> Any:
    """Return nbconvert's HTML exporter with the package's template: a page that loads no script.

    nbconvert's lab page names require.js, MathJax and mermaid on a CDN; ours leaves them out (the
    equations are SVG, see `offline_equations`), so a page opened offline waits on nothing.
    """
    from nbconvert import HTMLExporter

    return HTMLExporter(extra_template_paths=[str(OFFLINE_TEMPLATE.parent)], template_file=OFFLINE_TEMPLATE.name)
