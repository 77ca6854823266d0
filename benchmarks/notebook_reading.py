"""Reading length of the notebooks, the core path's reading time, and the share of their output lines
that are audit (issues 30, 49).

    python benchmarks/notebook_reading.py [notebooks/*.ipynb ...] [--ref GIT_REF]

Per notebook: the words a reader reads (markdown cells, and the words of the text outputs), the
minutes they take, the output lines, and how many of them come from audit cells: comparisons with
the paper, claim tables, CLI command blocks and environment reports (a code cell is audit when its
source calls one of AUDIT_CALLS). Then the core path's hours: the notebooks 00_index links under its
"The core path" heading (00 itself included), against CORE_PATH_HOURS. With --ref the committed
notebooks of that git revision are measured too, so a before/after table comes out of one call.

Reading-rate rule: a learner reads prose and printed output at WORDS_PER_MINUTE = 100 words a minute,
about half an adult's rate on ordinary text (200-250), for text dense with equations, numbers and
tables; the code cells and figures are read within that rate, not timed apart.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
AUDIT_CALLS = (
    "show_comparison",
    "show_checks",
    "audit_comparison",
    "audit_checks",
    "checks_table",
    "claim_verdicts",
    "verify.verdict",
    "_checks(",
    "compare_",
    "environment_report",
    "run_command(",
    "python -m ajb_judge",
    "command_text",
    "audit.",
)
WORD = re.compile(r"[A-Za-z0-9][\w'.-]*")
WORDS_PER_MINUTE = 100  # the reading-rate rule (module docstring)
CORE_PATH_HOURS = 3.0  # a learner's afternoon
CORE_HEADING = "## The core path"
LINK = re.compile(r"\]\((\d\d_[\w]+)\.ipynb\)")


def _text(output: dict) -> str:
    """Return the text a reader sees in one output (stream, or plain text of a result)."""
    if output.get("output_type") == "stream":
        return "".join(output.get("text", ""))
    data = output.get("data", {})
    for kind in ("text/markdown", "text/plain"):
        if kind in data:
            return "".join(data[kind])
    return ""


def measure(nb: dict) -> dict[str, int]:
    """Return markdown words, output words, output lines and audit output lines of one notebook."""
    md_words = out_words = lines = audit = 0
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            md_words += len(WORD.findall(src))
            continue
        if cell["cell_type"] != "code":
            continue
        text = "\n".join(_text(o) for o in cell.get("outputs", []))
        n = len([ln for ln in text.splitlines() if ln.strip()])
        lines += n
        out_words += len(WORD.findall(text))
        if any(call in src for call in AUDIT_CALLS):
            audit += n
    return {"md_words": md_words, "output_words": out_words, "output_lines": lines, "audit_lines": audit}


def reading_minutes(m: dict[str, int]) -> float:
    """Return the minutes a learner reads a notebook: its prose and output words at WORDS_PER_MINUTE."""
    return (m["md_words"] + m["output_words"]) / WORDS_PER_MINUTE


def core_path(index: dict) -> list[str]:
    """Return the notebook stems 00_index links in its core-path section (up to the next heading), 00 first."""
    text = "\n".join("".join(c["source"]) for c in index["cells"] if c["cell_type"] == "markdown")
    if CORE_HEADING not in text:
        return []
    section = text.split(CORE_HEADING, 1)[1]
    section = section.split("\n#", 1)[0]
    stems = ["00_index"]
    stems += [s for s in LINK.findall(section) if s not in stems]
    return stems


def at_ref(ref: str, path: Path) -> dict | None:
    """Return the notebook as committed at a git revision (None if absent)."""
    rel = path.resolve().relative_to(REPO).as_posix()
    res = subprocess.run(["git", "show", f"{ref}:{rel}"], cwd=REPO, capture_output=True, text=True)
    return json.loads(res.stdout) if res.returncode == 0 else None


def main(argv: list[str] | None = None) -> None:
    """Print one row per notebook (and the totals)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", type=Path)
    ap.add_argument("--ref", default=None, help="also measure the notebooks committed at this git revision")
    args = ap.parse_args(argv)
    paths = args.paths or sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    cols = ("md_words", "output_words", "output_lines", "audit_lines")
    head = f"{'notebook':28s}" + "".join(f"{c:>13s}" for c in cols) + f"{'audit %':>9s}{'minutes':>9s}"
    runs = [("now", None)] + ([(args.ref, args.ref)] if args.ref else [])
    for label, ref in runs:
        print(f"== {label}")
        print(head)
        total, minutes, core = dict.fromkeys(cols, 0), {}, []
        for p in paths:
            nb = json.loads(p.read_text(encoding="utf-8")) if ref is None else at_ref(ref, p)
            if nb is None:
                continue
            m = measure(nb)
            for c in cols:
                total[c] += m[c]
            minutes[p.stem] = reading_minutes(m)
            core = core_path(nb) if p.stem == "00_index" else core
            share = 100 * m["audit_lines"] / max(m["output_lines"], 1)
            print(f"{p.stem:28s}" + "".join(f"{m[c]:13d}" for c in cols) + f"{share:9.1f}{minutes[p.stem]:9.1f}")
        share = 100 * total["audit_lines"] / max(total["output_lines"], 1)
        print(f"{'total':28s}" + "".join(f"{total[c]:13d}" for c in cols) + f"{share:9.1f}{sum(minutes.values()):9.1f}")
        print(f"every notebook: {sum(minutes.values()) / 60:.1f} h at {WORDS_PER_MINUTE} words a minute")
        if core:
            hours = sum(minutes.get(s, 0.0) for s in core) / 60
            verdict = "within" if hours <= CORE_PATH_HOURS else "over"
            print(f"core path ({', '.join(s[:2] for s in core)}): {hours:.1f} h, {verdict} {CORE_PATH_HOURS:g} h")
        else:
            print(f"core path: 00_index has no '{CORE_HEADING}' section (every notebook is on its path)")


if __name__ == "__main__":
    main()
