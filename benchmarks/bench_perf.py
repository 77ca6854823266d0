#!/usr/bin/env python
"""The speed table of issue 20 in one run: every ratio is measured in the same process, minutes apart.

    python -m ajb_utils.sample --scale full          # once: data/sample_full/ (1.1 GB, git-ignored)
    pip install -e ".[bench]"                        # polars and duckdb, for the one-offs
    python benchmarks/bench_perf.py [--source data/sample_full] [--n-bootstrap 2000] [--skip ...]

Measures, on the source folder:
- parse floor: orjson over every line of every JSON-lines file the load reads (configs and runs);
- our load: cold (``load_bench(..., cache=False)``), first run with an empty tidy-frame cache
  (parse + write the cache), and cached (a later run: the cache read back);
- raw files -> Table 2 cells: first run (empty cache) and cached, each with ``tables.table_T02``;
- the same Table 2 cells as a polars one-off and a DuckDB one-off over the judge files (the
  published match scores of the rows with a verdict, averaged per record then per cell; no
  de-duplication, no exclusions, no re-scoring), and the largest difference to our cells;
- Table 2 with bootstrap CIs for every cell (``table_T02`` + ``table_T10``), bootstrap alone;
- the derivation census (notebook 16) and the simulator sweeps (notebook 17) at their defaults.
The cache goes to a temporary folder ($AJB_CACHE_DIR), so the "first run" is really the first.
Each line carries the 1-minute load average (``os.getloadavg``) before and after it: on a
shared machine compare ratios measured in one run, not seconds across runs. CPU seconds of the
process are given beside the wall clock (the steadier figure under load).
"""

from __future__ import annotations

import argparse
import atexit
import glob
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
_CACHE = tempfile.mkdtemp(prefix="ajb_bench_cache_")
os.environ["AJB_CACHE_DIR"] = _CACHE  # before the package reads it: the first load is a first
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)  # its ~50 MB of parts and entries are not kept

import numpy as np  # noqa: E402
import orjson  # noqa: E402
import pandas as pd  # noqa: E402

from ajb_utils import derivation, simulator, stats, tables  # noqa: E402
from ajb_utils.data import load_bench  # noqa: E402

METRICS = ("tool_selection", "parameter_structure", "sequence_accuracy", "query_coverage")
CONDITIONS = ("with_gt", "without_gt")
ROWS: list[dict] = []


def _cpu() -> float:
    """Return the CPU seconds of this process and its finished children (the loader's judge reader)."""
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + child.ru_utime + child.ru_stime


def timed(what: str, fn, *args, **kwargs):
    """Run fn, record (what, wall s, cpu s of this process and its children, load before/after),
    print the line; return fn's result."""
    la0 = os.getloadavg()[0]
    c0, t0 = _cpu(), time.perf_counter()
    out = fn(*args, **kwargs)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    la1 = os.getloadavg()[0]
    ROWS.append({"what": what, "wall_s": wall, "cpu_s": cpu, "load_before": la0, "load_after": la1})
    print(f"{what:<58} {wall:8.2f} s  (cpu {cpu:7.2f} s)  load {la0:4.1f} -> {la1:4.1f}", flush=True)
    return out


def jsonl_files(source: Path) -> list[Path]:
    """Return the JSON-lines files a load of ``source`` reads: data/*.jsonl and runs/*.jsonl."""
    return sorted(
        Path(p) for p in glob.glob(str(source / "data" / "*.jsonl")) + glob.glob(str(source / "runs" / "*.jsonl"))
    )


def parse_floor(files: list[Path]) -> int:
    """Return the number of lines parsed with orjson over every file (the floor of any loader)."""
    n = 0
    for f in files:
        with open(f, "rb") as fh:
            for line in fh:
                if line.strip():
                    orjson.loads(line)
                    n += 1
    return n


def judge_files(source: Path) -> list[tuple[str, Path]]:
    """Return (judge config name, path) of the judge configs of the source."""
    return [(p.stem, p) for p in sorted((source / "data").glob("judge_*.jsonl"))]


def polars_cells(source: Path) -> pd.DataFrame:
    """Return Table 2 cells (generator, judge, difficulty, condition, align, n) computed with polars."""
    import polars as pl

    parts = []
    for judge, path in judge_files(source):
        lf = pl.scan_ndjson(path, infer_schema_length=None)
        for cond in CONDITIONS:
            block = pl.col(cond)
            cols = [
                block.struct.field(m).struct.field(f).cast(pl.Float64).alias(f"{f[0]}_{m}")
                for m in METRICS
                for f in ("llm_score", "match_score")
            ]
            mu = pl.mean_horizontal([pl.when(pl.col(f"l_{m}").is_not_null()).then(pl.col(f"m_{m}")) for m in METRICS])
            parts.append(
                lf.select("id", "generator", "difficulty", *cols)
                .with_columns(mu=mu)
                .filter(pl.col("mu").is_not_null())
                .group_by("generator", "difficulty")
                .agg(align=100 * pl.col("mu").mean(), n=pl.len())
                .with_columns(judge=pl.lit(judge), condition=pl.lit(cond))
            )
    return pl.concat(pl.collect_all(parts)).to_pandas()


def duckdb_cells(source: Path) -> pd.DataFrame:
    """Return the same Table 2 cells computed with DuckDB's JSON reader."""
    import duckdb

    con = duckdb.connect()
    parts = []
    for judge, path in judge_files(source):
        for cond in CONDITIONS:
            ms = [
                f"CASE WHEN {cond}.{m}.llm_score IS NOT NULL THEN {cond}.{m}.match_score::DOUBLE END" for m in METRICS
            ]
            num = " + ".join(f"coalesce({x}, 0)" for x in ms)
            den = " + ".join(f"({x} IS NOT NULL)::INT" for x in ms)
            q = (
                f"SELECT generator, difficulty, 100 * avg(mu) AS align, count(*) AS n FROM ("
                f"SELECT generator, difficulty, ({num}) / nullif({den}, 0) AS mu "
                f"FROM read_json('{path}', format='newline_delimited', sample_size=-1)) "
                f"WHERE mu IS NOT NULL GROUP BY generator, difficulty"
            )
            parts.append(con.execute(q).df().assign(judge=judge, condition=cond))
    return pd.concat(parts, ignore_index=True)


def max_cell_diff(ours: pd.DataFrame, other: pd.DataFrame) -> tuple[int, float]:
    """Return (cells matched, max |align difference| in pp) between our Table 2 cells and a one-off's."""

    def norm(s: pd.Series) -> pd.Series:
        return s.astype(str).str.replace("_", "", regex=False)

    keys = ["generator", "judge", "difficulty", "condition"]
    a = ours.assign(**{k: norm(ours[k]) for k in keys})
    b = other.assign(**{k: norm(other[k]) for k in keys})
    m = a.merge(b, on=keys, suffixes=("", "_other"))
    return len(m), float((m["align"] - m["align_other"]).abs().max()) if len(m) else float("nan")


def peak_gb() -> float:
    """Return this process's peak resident memory in GB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2


def main(argv: list[str] | None = None) -> int:
    """Run every measurement and print the table with its ratios; return 0."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", default=str(REPO / "data" / "sample_full"))
    ap.add_argument("--n-bootstrap", type=int, default=2000)
    ap.add_argument(
        "--skip",
        nargs="*",
        default=[],
        choices=["cold", "oneoffs", "census", "simulator"],
        help="leave out measurements (cold: the cache=False load)",
    )
    args = ap.parse_args(argv)
    src = Path(args.source)
    if not (src / "README.md").exists():
        print(f"{src} missing: python -m ajb_utils.sample --scale full")
        return 2
    print(
        f"source {src}; cache {_CACHE}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"cores {os.cpu_count()}; uptime load {os.getloadavg()}",
        flush=True,
    )
    files = jsonl_files(src)
    size = sum(f.stat().st_size for f in files) / 1e9
    n_lines = timed(f"parse floor: orjson over {len(files)} files ({size:.2f} GB)", parse_floor, files)
    print(f"  {n_lines} lines", flush=True)
    r = {}
    if "cold" not in args.skip:
        timed("our load, cold (cache=False)", load_bench, str(src), cache=False)
    bench = timed("raw -> Bench, first run (empty cache: parse + write)", load_bench, str(src))
    cells = timed("  + Table 2 cells (table_T02)", tables.table_T02, bench)
    del bench
    bench = timed("raw -> Bench, cached (a later run)", load_bench, str(src))
    cells = timed("  + Table 2 cells (table_T02), cached", tables.table_T02, bench)
    if "oneoffs" not in args.skip:
        for name, fn in (("polars", polars_cells), ("duckdb", duckdb_cells)):
            try:
                other = timed(f"{name} one-off: judge files -> Table 2 cells", fn, src)
                n, d = max_cell_diff(cells, other)
                print(f"  {n} cells matched ours; max |difference| {d:.4f} pp", flush=True)
            except ImportError:
                print(f"  {name} not installed (pip install -e '.[bench]')")
    recs = timed("Table 2 + CIs: record alignment", stats.record_alignment, tables.main_results.main_verdicts(bench))
    timed(
        f"Table 2 + CIs: bootstrap alone ({args.n_bootstrap} resamples, every cell)",
        stats.bootstrap_cells,
        recs,
        by=tables.main_results.T02_KEYS,
        value="mu",
        strata="dag_type",
        n_resamples=args.n_bootstrap,
        seed=0,
        scale=100.0,
    )
    tables.main_results._RECORDS_MEMO.clear()  # the row below computes its record frame (once, shared by both)
    timed(
        "Table 2 + CIs (table_T02 + table_T10)",
        lambda: (tables.table_T02(bench), tables.table_T10(bench, n_bootstrap=args.n_bootstrap, seed=0)),
    )
    if "census" not in args.skip:
        timed("derivation census (notebook 16)", derivation.derivation_census, bench.records)
    if "simulator" not in args.skip:
        p = simulator.p_long(bench.generations)
        grid = np.round(np.linspace(0.0, 1.0, 11), 3)
        timed(
            "simulator: the four teaching sweeps (notebook 17)",
            simulator.teaching_sweeps,
            p,
            simulator.JudgeParams(),
            grid,
            20260826,
        )
    print(f"peak memory of this process {peak_gb():.2f} GB", flush=True)

    t = {row["what"]: row["wall_s"] for row in ROWS}
    c = {row["what"]: row["cpu_s"] for row in ROWS}
    floor = next(v for k, v in t.items() if k.startswith("parse floor"))
    floor_cpu = next(v for k, v in c.items() if k.startswith("parse floor"))
    first = t["raw -> Bench, first run (empty cache: parse + write)"] + t["  + Table 2 cells (table_T02)"]
    cached = t["raw -> Bench, cached (a later run)"] + t["  + Table 2 cells (table_T02), cached"]
    r["raw -> T02 first / floor"] = first / floor
    if "our load, cold (cache=False)" in t:
        r["cold load / floor (wall)"] = t["our load, cold (cache=False)"] / floor
        r["cold load / floor (cpu)"] = c["our load, cold (cache=False)"] / floor_cpu
    for name in ("polars", "duckdb"):
        k = f"{name} one-off: judge files -> Table 2 cells"
        if k in t:
            r[f"raw -> T02 first / {name}"] = first / t[k]
            r[f"raw -> T02 cached / {name}"] = cached / t[k]
    print("\nratios (same run):")
    for k, v in r.items():
        print(f"  {k:<36} {v:6.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
