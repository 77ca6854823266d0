#!/usr/bin/env python
"""The loader's speed targets as a user meets them: whole processes, interpreter start and imports
included, every ratio formed within one run.

    python -m ajb_sample --scale full              # once: data/sample_full/ (1.1 GB, git-ignored)
    pip install -c requirements.lock -e ".[bench]"       # polars, for the one-off it is compared with
    python benchmarks/bench_targets.py [--source data/sample_full] [--repeat 3] [--code DIR ...]

Rows, each the median of `--repeat` fresh processes (min and max beside it), for the code of
every checkout in `--code` (default: this one), so that two versions can be compared in one run:
- parse floor: orjson over every line of every JSON-lines file the load reads;
- build: `build_bench(source)` with an empty cache folder (the first run on a data version);
- load_bench of a built bench, timed inside its process (the read alone), with the call lists and
  without them (`calls=False`, what the notebooks that use no calls read);
- raw -> Table 2 cells, first: an empty cache, `load_bench(calls=False)` + `tables.table_T02` in one
  process (Table 2 reads no call list, as the polars one-off reads none);
- raw -> Table 2 cells, later: the same process once the build exists;
- polars one-off: the Table 2 cells from the judge files in about 25 lines of polars (no
  exclusions, no de-duplication, no re-scoring: the floor of a throw-away script).
- imports: the package modules a notebook kernel imports (`ajb_utils.data`, `tables`, `figures`).
Each row gives wall and CPU seconds and the process's peak resident memory, with the 1-minute
load average before and after; the ratios the targets name are printed at the end, of wall and
of CPU seconds (on a shared machine the CPU ratios are the comparable ones).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

FLOOR = """
import glob, orjson, sys
n = 0
for f in sorted(glob.glob(sys.argv[1] + "/data/*.jsonl") + glob.glob(sys.argv[1] + "/runs/*.jsonl")):
    with open(f, "rb") as fh:
        for line in fh:
            if line.strip():
                orjson.loads(line); n += 1
"""
BUILD = """
import sys, ajb_utils.data as data
data.build_bench(sys.argv[1]) if hasattr(data, "build_bench") else data.load_bench(sys.argv[1])  # older code
"""
LOAD = """
import sys, time; from ajb_utils.data import load_bench
t, c = time.perf_counter(), time.process_time(); load_bench(sys.argv[1])
print(f"inner {time.perf_counter() - t:.4f}"); print(f"inner_cpu {time.process_time() - c:.4f}")
"""
LOAD_SCORES = LOAD.replace("load_bench(sys.argv[1])", "load_bench(sys.argv[1], calls=False)")
IMPORTS = "import ajb_utils.data, ajb_utils.tables, ajb_utils.figures"
TABLE2 = "import sys; from ajb_utils import tables; from ajb_utils.data import load_bench; tables.table_T02(load_bench(sys.argv[1], calls=False))"
POLARS = """
import glob, sys, polars as pl
metrics = ("tool_selection", "parameter_structure", "sequence_accuracy", "query_coverage")
parts = []
for path in sorted(glob.glob(sys.argv[1] + "/data/judge_*.jsonl")):
    lf = pl.scan_ndjson(path, infer_schema_length=None)
    for cond in ("with_gt", "without_gt"):
        cols = [pl.col(cond).struct.field(m).struct.field(f).cast(pl.Float64).alias(f"{f[0]}_{m}")
                for m in metrics for f in ("llm_score", "match_score")]
        mu = pl.mean_horizontal([pl.when(pl.col(f"l_{m}").is_not_null()).then(pl.col(f"m_{m}")) for m in metrics])
        parts.append(lf.select("id", "generator", "difficulty", *cols).with_columns(mu=mu)
                     .filter(pl.col("mu").is_not_null()).group_by("generator", "difficulty")
                     .agg(align=100 * pl.col("mu").mean(), n=pl.len())
                     .with_columns(judge=pl.lit(path), condition=pl.lit(cond)))
pl.concat(pl.collect_all(parts))
"""


def run(script: str, source: Path, code: Path, cache: Path) -> dict[str, float]:
    """Return wall s, CPU s, peak MiB (and the inner time it printed) of one fresh process."""
    env = {**os.environ, "PYTHONPATH": str(code), "AJB_CACHE_DIR": str(cache)}
    t0 = time.perf_counter()
    # in the checkout: `python -c` puts the working directory first on the path, before PYTHONPATH
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(source)], cwd=code, env=env, stdout=subprocess.PIPE, text=True
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    out = proc.stdout.read() if proc.stdout else ""
    if status != 0:
        raise SystemExit(f"benchmark process failed (status {status}): {script.strip()[:80]}")
    said = dict(line.split() for line in out.splitlines() if line.startswith("inner"))
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "peak_mib": usage.ru_maxrss / 1024,
        "inner": float(said.get("inner", "nan")),
        "inner_cpu": float(said.get("inner_cpu", "nan")),
    }


def measure(what: str, script: str, source: Path, code: Path, repeat: int, fresh_cache: bool) -> dict[str, float]:
    """Return the median figures of `repeat` runs (each with an empty cache when `fresh_cache`), printed."""
    la0 = os.getloadavg()[0]
    keep = Path(tempfile.mkdtemp(prefix="ajb_bench_"))
    if not fresh_cache:  # a build to read: made once, outside the timing
        run(BUILD, source, code, keep)
    runs = []
    for _ in range(repeat):
        cache = Path(tempfile.mkdtemp(prefix="ajb_bench_")) if fresh_cache else keep
        runs.append(run(script, source, code, cache))
        if fresh_cache:
            shutil.rmtree(cache, ignore_errors=True)
    shutil.rmtree(keep, ignore_errors=True)
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    walls = [r["wall"] for r in runs]
    la1 = os.getloadavg()[0]
    inner = "" if med["inner"] != med["inner"] else f"  (inside: {med['inner']:.2f} s, cpu {med['inner_cpu']:.2f} s)"
    print(
        f"{what:<34} {med['wall']:7.2f} s [{min(walls):.2f}-{max(walls):.2f}]  cpu {med['cpu']:7.2f} s  "
        f"peak {med['peak_mib']:6.0f} MiB  load {la0:4.1f} -> {la1:4.1f}{inner}",
        flush=True,
    )
    return med


def main() -> None:
    """Measure every row for every checkout and print the target ratios."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=REPO / "data" / "sample_full")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--code", type=Path, nargs="+", default=[REPO], help="checkouts whose ajb_utils to time")
    ap.add_argument("--no-polars", action="store_true", help="skip the polars one-off")
    args = ap.parse_args()
    if not args.source.is_dir():
        raise SystemExit(f"{args.source} does not exist: make it with python -m ajb_sample --scale full")
    print(f"source {args.source.resolve()}, {args.repeat} runs a row, {os.cpu_count()} cores")
    for code in args.code:
        print(f"\n== code of {code.resolve()}")
        used = subprocess.run(
            [sys.executable, "-c", "import ajb_utils; print(ajb_utils.__file__)"],
            **{"cwd": code, "env": {**os.environ, "PYTHONPATH": str(code)}, "capture_output": True, "text": True},
        ).stdout.strip()
        if not Path(used).resolve().is_relative_to(code.resolve()):
            raise SystemExit(f"the processes would import {used}, not the code of {code}")
        imports = measure("imports (data, tables, figures)", IMPORTS, args.source, code, args.repeat, True)
        floor = measure("parse floor (orjson, every line)", FLOOR, args.source, code, args.repeat, True)
        build = measure("build (empty cache)", BUILD, args.source, code, args.repeat, True)
        load = measure("load_bench of the build", LOAD, args.source, code, args.repeat, False)
        scores = measure("load_bench(calls=False) of the build", LOAD_SCORES, args.source, code, args.repeat, False)
        first = measure("raw -> Table 2 cells, first", TABLE2, args.source, code, args.repeat, True)
        later = measure("raw -> Table 2 cells, later", TABLE2, args.source, code, args.repeat, False)
        ratios = [
            ("build / parse floor (target <= 2.0x, issue 51)", build, floor),
            (
                "load_bench inside its process, s (target <= 1 s)",
                {"wall": load["inner"], "cpu": load["inner_cpu"]},
                None,
            ),
            ("load_bench(calls=False) inside, s", {"wall": scores["inner"], "cpu": scores["inner_cpu"]}, None),
            ("imports of a notebook kernel's modules, s", imports, None),
        ]
        if not args.no_polars:
            polars = measure("polars one-off (Table 2 cells)", POLARS, args.source, code, args.repeat, True)
            ratios += [
                ("Table 2 first / polars (target <= 1.5x)", first, polars),
                ("Table 2 later / polars (target <= 0.5x)", later, polars),
            ]
        for name, a, b in ratios:
            wall, cpu = (a["wall"], a["cpu"]) if b is None else (a["wall"] / b["wall"], a["cpu"] / b["cpu"])
            print(f"  {name:<52} wall {wall:6.2f}  cpu {cpu:6.2f}")


if __name__ == "__main__":
    main()
