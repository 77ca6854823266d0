#!/usr/bin/env python
"""The build and the largest notebook at 1x, 2x and 4x the full-scale sample, and one read of the
build out of core (DuckDB), measured, not extrapolated.

    python -m ajb_sample --scale full                                   # 1x: data/sample_full/
    python -m ajb_sample --scale full --times 2 --out data/sample_full_2x
    python -m ajb_sample --scale full --times 4 --out data/sample_full_4x
    python benchmarks/bench_scale.py [--sources data/sample_full data/sample_full_2x ...] [--notebook 03]

Per source, each in a fresh process with an empty cache folder: the build (`build_bench`), then
the notebook (papermill, its default parameters but `data_source`, writing to a temporary
folder; it reads the build just made), then Table 2's cells computed from the build's
`verdicts.parquet` by DuckDB (`ajb_utils.outofcore.table2_cells`, a scan that streams the
file: the Parquet build read out of core) beside the same cells by `load_bench` +
`tables.table_T02`. Wall and CPU seconds and the peak resident memory summed over the process
tree (`bench_main_job.timed`), with the 1-minute load average.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_main_job import timed  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
BUILD = "import sys; from ajb_utils.data import build_bench; print(build_bench(sys.argv[1]))"
NOTEBOOK = """
import sys, tempfile, papermill
out = tempfile.mkdtemp()
papermill.execute_notebook(sys.argv[2], out + "/nb.ipynb", cwd=sys.argv[3], progress_bar=False,
                           parameters={"data_source": sys.argv[1], "out_dir": out + "/figures"})
"""
# Table 2's cells (Eq. 5a per judge, generator, difficulty, condition; the authors' rule) by the
# route the README documents for data larger than memory: DuckDB streams the build's
# verdicts.parquet (ajb_utils.outofcore); beside it the same cells by load_bench + pandas
DUCKDB = """
import sys
from ajb_utils import outofcore
from ajb_utils.data import build_bench
print(len(outofcore.table2_cells(build_bench(sys.argv[1]))))
"""
PANDAS = """
import sys
from ajb_utils import tables
from ajb_utils.data import load_bench
print(len(tables.table_T02(load_bench(sys.argv[1], calls=False))))
"""


def line(what: str, cmd: list[str], cache: Path) -> None:
    """Time one command with this checkout's code and `cache` as the cache folder; print the line."""
    env = {**os.environ, "AJB_CACHE_DIR": str(cache), "PYTHONPATH": str(REPO)}
    la0 = os.getloadavg()[0]
    res = timed(cmd, env, REPO)
    print(
        f"{what:<40} {res['wall']:7.1f} s  cpu {res['cpu']:7.1f} s  peak {res['peak_gib']:5.2f} GiB  "
        f"status {res['status']}  load {la0:4.1f} -> {os.getloadavg()[0]:4.1f}",
        flush=True,
    )


def main() -> None:
    """Measure every source: build, notebook, and the out-of-core read beside load_bench."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = [REPO / "data" / f"sample_full{s}" for s in ("", "_2x", "_4x")]
    ap.add_argument("--sources", type=Path, nargs="+", default=default)
    ap.add_argument("--notebook", default="03", help="the notebook to run at every scale (default 03, the largest)")
    ap.add_argument("--no-notebook", action="store_true")
    args = ap.parse_args()
    notebook = next((REPO / "notebooks").glob(f"{args.notebook}_*.ipynb"))
    for source in args.sources:
        if not source.is_dir():
            raise SystemExit(f"{source} does not exist: make it with python -m ajb_sample (see --help)")
        size = sum(p.stat().st_size for p in source.rglob("*.jsonl")) / 1e9
        print(f"\n== {source} ({size:.2f} GB of JSON lines)", flush=True)
        cache = Path(tempfile.mkdtemp(prefix="ajb_scale_"))
        try:
            line("build (empty cache)", [sys.executable, "-c", BUILD, str(source.resolve())], cache)
            if not args.no_notebook:
                cmd = [sys.executable, "-c", NOTEBOOK, str(source.resolve()), str(notebook), str(REPO / "notebooks")]
                line(f"notebook {notebook.stem} (a built bench)", cmd, cache)
            line("Table 2 cells, DuckDB over the Parquet", [sys.executable, "-c", DUCKDB, str(source.resolve())], cache)
            line("Table 2 cells, load_bench + pandas", [sys.executable, "-c", PANDAS, str(source.resolve())], cache)
        finally:
            shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
