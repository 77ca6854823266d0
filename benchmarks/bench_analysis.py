#!/usr/bin/env python
"""Benchmark the analysis layer on the full-scale synthetic sample (paper-sized grid).

    python -m ajb_sample --scale full --out data/sample_full   # once, ~95 s, 1.1 GB, git-ignored
    python benchmarks/bench_analysis.py [--data data/sample_full] [--n-bootstrap 2000]

Times (a) every HF-origin table/figure function of notebooks 01-05, 10-11, 13-14 that exists in
ajb_utils.tables / ajb_utils.figures (discovered from the artifact map: `table_<ID>` /
`figure_<ID>`, plus a few named check functions; missing or incompatible ones are listed, not
fatal), target <= 180 s in all; (b) Table 2 with bootstrap CIs for every cell at 2,000
resamples, target <= 15 s; (c) peak memory (ru_maxrss), target <= 4 GB. Load time is reported
separately and is not part of the analysis budget.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ajb_utils import figures, stats, tables  # noqa: E402
from ajb_utils.data import load_bench  # noqa: E402
from ajb_verify import artifacts  # noqa: E402

NOTEBOOKS = ("01", "02", "03", "04", "05", "10", "11", "13", "14")
TARGETS = {"analysis (a)": 180.0, "T02 + CIs (b)": 15.0, "peak memory GB (c)": 4.0}
# Named functions that compute claim checks / mined cases from the bench (timed if present).
EXTRA_FUNCS = (
    "findings_checks",
    "table_T15",
    "weighting_checks",
    "jury_checks",
    "per_metric_lift",
)


def _call(name: str, fn, bench, cache: dict):
    """Call a table/figure/check function with the bench (and the cells when it needs them)."""
    if name == "findings_checks":
        return fn(bench, cache.setdefault("T02", tables.table_T02(bench)), n_bootstrap=2000, seed=0)
    return fn(bench)  # the figures of notebooks 01-05 are drawn in their notebook's cells (listed as not found)


def time_analysis(bench) -> tuple[float, list[tuple[str, str, float]]]:
    """Return (total seconds, [(function, status, seconds)]) over the discovered functions."""
    amap = artifacts.artifact_table()
    sel = amap[(amap["origin"] == "HF") & amap["notebook"].str[:2].isin(NOTEBOOKS)]
    names = []
    for aid in sel["artifact_id"]:
        key = aid.replace("-", "_")
        names += [f"table_{key}", f"figure_{key}"]
    names += list(EXTRA_FUNCS)
    cache: dict = {}
    rows, total = [], 0.0
    for name in dict.fromkeys(names):
        fn = getattr(tables, name, None) or getattr(figures, name, None)
        if fn is None:
            rows.append((name, "not found", 0.0))
            continue
        t0 = time.perf_counter()
        try:
            _call(name, fn, bench, cache)
            status = "ok"
        except Exception as exc:  # noqa: BLE001 - report, never crash the benchmark
            status = f"error: {type(exc).__name__}: {str(exc)[:60]}"
        dt = time.perf_counter() - t0
        plt.close("all")
        total += dt
        rows.append((name, status, dt))
    return total, rows


def time_t02_ci(bench, n_bootstrap: int) -> float:
    """Return seconds for Table 2 cells plus bootstrap CIs of every cell."""
    t0 = time.perf_counter()
    tables.table_T02(bench)
    recs = stats.record_alignment(tables.main_verdicts(bench))  # Table 10 as notebook 03 computes it
    stats.bootstrap_cells(recs, tables.T02_KEYS, "mu", strata="dag_type", n_resamples=n_bootstrap, seed=0, scale=100.0)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a results table; return 0 if every target passes."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(REPO / "data" / "sample_full"))
    ap.add_argument("--n-bootstrap", type=int, default=2000)
    args = ap.parse_args(argv)
    if not Path(args.data).is_dir():
        print(f"{args.data} missing: python -m ajb_sample --scale full --out data/sample_full")
        return 2
    t0 = time.perf_counter()
    bench = load_bench(args.data)
    load_s = time.perf_counter() - t0
    print(
        f"load: {load_s:.1f} s ({len(bench.records)} records, {len(bench.generations)} generations, "
        f"{len(bench.verdicts)} verdict rows)  [not part of the analysis budget]"
    )
    total, rows = time_analysis(bench)
    print("\n(a) functions timed:")
    for name, status, dt in rows:
        if status != "not found":
            print(f"  {name:28s} {dt:7.2f} s  {status}")
    missing = [n for n, s, _ in rows if s == "not found"]
    print(f"  not present in the package (skipped): {', '.join(missing) or 'none'}")
    t_b = time_t02_ci(bench, args.n_bootstrap)
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2  # KB on Linux
    results = [("analysis (a)", total), ("T02 + CIs (b)", t_b), ("peak memory GB (c)", peak_gb)]
    print(f"\n{'measure':22s} {'value':>9s} {'target':>8s}  result")
    ok = True
    for name, value in results:
        passed = value <= TARGETS[name]
        ok &= passed
        unit = "" if "GB" in name else " s"
        print(f"{name:22s} {value:8.1f}{unit:2s} {TARGETS[name]:6.0f}{unit:2s}  {'PASS' if passed else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
