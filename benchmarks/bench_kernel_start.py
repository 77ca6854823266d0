#!/usr/bin/env python
"""What each notebook's kernel pays before its lesson starts, for one or more checkouts side by side.

    python benchmarks/bench_kernel_start.py [--source sample] [--only 03 17] [--repeat 3] --code . /path/to/other/checkout

Per notebook: its parameters cell and its setup cell up to the data banner (the imports,
`load_bench`, the output folder and PROVENANCE.json, `figures.set_style()`), run in a fresh
process from the checkout's notebooks/ folder (`out_dir` a temporary folder, `data_source` from
`--source`), the checkouts alternating notebook by notebook so that each pair meets the same
load; each checkout reads a build made beforehand in its own cache folder. A line: the median
CPU seconds (user + system) of `--repeat` processes, with the imports alone beside them (the
setup cell's import lines), the 1-minute load average, and the CPU ratio of the first checkout to
the second. A kernel has python and IPython loaded before its first cell: the CPU of a process
that imports `IPython.display` alone (the median of 5) is printed first, and the totals are given
also net of it (each figure less that process), what the notebooks' own lines cost.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BUILD = "import sys; from ajb_utils.data import build_bench; build_bench(sys.argv[1])"
KERNEL = "import IPython.display"  # what a kernel has loaded before its first cell


def setup_code(notebook: Path, source: str, out_dir: str) -> tuple[str, str]:
    """Return (the parameters and setup cells up to the banner, their import lines) of a notebook."""
    code = [c for c in json.loads(notebook.read_text())["cells"] if c["cell_type"] == "code"]
    params = "".join(code[0]["source"]) + f"\ndata_source = {source!r}\nout_dir = {out_dir!r}\n"
    lines = "".join(code[1]["source"]).splitlines()
    cut = next((i for i, line in enumerate(lines) if "bench_banner(" in line), len(lines) - 1)
    setup = "\n".join(lines[: cut + 1])
    tree = ast.parse(setup)
    imports = "\n".join(
        ast.get_source_segment(setup, node) for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)
    )
    return params + setup + "\n", imports + "\n"


def cpu(code: str, checkout: Path, cache: Path) -> float:
    """Return the CPU seconds (user + system) of one fresh process running `code` in notebooks/."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "AJB_CACHE_DIR": str(cache), "MPLBACKEND": "agg"}
    proc = subprocess.Popen(
        [sys.executable, "-c", code], cwd=checkout / "notebooks", env=env, stdout=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"the setup failed in {checkout} (status {status}): {code[:200]}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    """Time every selected notebook's setup for each checkout, alternating, and print the ratios."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", default="sample", help="data_source of every notebook (a path for a mirror)")
    ap.add_argument("--code", type=Path, nargs="+", default=[REPO], help="checkouts to time")
    ap.add_argument("--only", nargs="+", metavar="NN", help="notebook numbers (default: all but 00 and 18)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    codes = [c.resolve() for c in args.code]
    books = sorted(p for p in (codes[0] / "notebooks").glob("[0-9][0-9]_*.ipynb") if p.name[:2] not in ("00", "18"))
    books = [b for b in books if not args.only or b.name[:2] in args.only]
    caches = {c: Path(tempfile.mkdtemp(prefix="ajb_kernel_cache_")) for c in codes}
    out = tempfile.mkdtemp(prefix="ajb_kernel_out_")
    totals = {c: [0.0, 0.0] for c in codes}
    try:
        for c in codes:
            cpu(BUILD.replace("sys.argv[1]", repr(args.source)), c, caches[c])
        base = {c: statistics.median(cpu(KERNEL, c, caches[c]) for _ in range(5)) for c in codes}
        print(
            "a kernel's own start (python + IPython.display), cpu s: "
            + ", ".join(f"[{c.name}] {base[c]:.2f}" for c in codes)
        )
        print(f"source {args.source}; {args.repeat} processes a figure; cpu s: setup (imports alone)")
        for nb in books:
            row = []
            for c in codes:
                setup, imports = setup_code(c / "notebooks" / nb.name, args.source, out)
                la = os.getloadavg()[0]
                s = statistics.median(cpu(setup, c, caches[c]) for _ in range(args.repeat))
                i = statistics.median(cpu(imports, c, caches[c]) for _ in range(args.repeat))
                totals[c][0] += s
                totals[c][1] += i
                row.append(f"[{c.name}] {s:5.2f} ({i:5.2f}) load {la:4.1f}")
            ratio = "" if len(codes) < 2 else f"  ratio {float(row[0].split()[1]) / float(row[1].split()[1]):4.2f}"
            print(f"{nb.stem[:26]:<26} " + "  ".join(row) + ratio, flush=True)
        for c in codes:
            print(f"total [{c.name}]: setup {totals[c][0]:.1f} s cpu, imports alone {totals[c][1]:.1f} s cpu")
        if len(codes) > 1:
            a, b = totals[codes[0]], totals[codes[1]]
            print(f"ratio first / second: setup {a[0] / b[0]:.2f}, imports {a[1] / b[1]:.2f}")
            net = [totals[c][0] - len(books) * base[c] for c in codes[:2]]
            print(
                f"net of a kernel's own start: setup {net[0]:.1f} s vs {net[1]:.1f} s cpu, ratio {net[0] / net[1]:.2f}"
            )
    finally:
        for folder in [out, *caches.values()]:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
