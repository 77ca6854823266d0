#!/usr/bin/env python
"""Time each notebook on its own, whole processes, for one or more checkouts side by side.

    python benchmarks/bench_notebooks.py --params papermill_params/full.yaml --code . /path/to/other/checkout
    python benchmarks/bench_notebooks.py --only 03 15 04

Each checkout gets a fresh cache folder ($AJB_CACHE_DIR) whose bench is built first (the `build`
line); then every notebook runs alone (`scripts/run_notebooks.py --only NN --jobs 1`, into a
temporary folder), the checkouts alternating notebook by notebook so that each pair meets the same
load. A line: wall and CPU seconds (the process and every process it waited for, kernels
included), the peak resident memory of the process tree, the exit status, the 1-minute load
average before and after. The last column is the CPU ratio of the first checkout to the second.
18_scorecard reads what the others wrote, so it runs last and only with every notebook selected.
At full scale each checkout needs `data/sample_full` (a symlink to the full-scale sample will do).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_main_job import BUILD, report  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


def data_source(params: Path) -> str:
    """Return the `data_source` the parameter file gives every notebook."""
    import yaml

    return str((yaml.safe_load(params.read_text()) or {}).get("default", {}).get("data_source", "sample"))


def main() -> None:
    """Build once per checkout, then time every selected notebook in each checkout, alternating."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--params", type=Path, default=Path("papermill_params/full.yaml"))
    ap.add_argument("--code", type=Path, nargs="+", default=[REPO], help="checkouts to time")
    ap.add_argument("--only", nargs="+", metavar="NN", help="notebook numbers (default: all)")
    args = ap.parse_args()
    codes = [c.resolve() for c in args.code]
    books = sorted(p.stem for p in (codes[0] / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if args.only:
        books = [b for b in books if b[:2] in args.only or b in args.only]
    caches = {c: Path(tempfile.mkdtemp(prefix="ajb_nb_cache_")) for c in codes}
    out = Path(tempfile.mkdtemp(prefix="ajb_nb_out_"))
    source = data_source(codes[0] / args.params)
    totals = {c: {"wall": 0.0, "cpu": 0.0, "peak_gib": 0.0} for c in codes}
    try:
        for c in codes:
            report(f"build  [{c.name}]", [sys.executable, "-c", BUILD, source], c, caches[c])
        for nb in books:
            cpu = []
            for c in codes:
                cmd = [sys.executable, "scripts/run_notebooks.py", "--params", str(args.params), "--only", nb[:2]]
                cmd += ["--jobs", "1", "--output-dir", str(out / c.name), "--no-summary"]
                res = report(f"{nb[:28]} [{c.name}]", cmd, c, caches[c])
                cpu.append(res["cpu"])
                for k in ("wall", "cpu"):
                    totals[c][k] += res[k]
                totals[c]["peak_gib"] = max(totals[c]["peak_gib"], res["peak_gib"])
            if len(cpu) > 1:
                print(f"  {nb[:28]} cpu ratio {cpu[0] / cpu[1]:5.2f}x", flush=True)
        for c in codes:
            t = totals[c]
            print(
                f"total [{c.name}]: {t['wall']:.1f} s wall, {t['cpu']:.1f} s cpu, largest peak {t['peak_gib']:.2f} GiB"
            )
    finally:
        for folder in [out, *caches.values()]:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
