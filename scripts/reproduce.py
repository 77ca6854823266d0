#!/usr/bin/env python
"""The main command: build -> notebooks -> scorecard, each once, in that order.

    python scripts/reproduce.py                                     # embedded synthetic sample, offline
    python scripts/reproduce.py --params papermill_params/hf.yaml   # the released data (network)

First the parameter file is checked against every notebook's `parameters` cell and the data source
is probed (a hub source is asked once which commit its revision names; a local path must exist).
A user error is one line saying what is wrong, exit status 2 (`--debug` shows the traceback). Then:
1. for the sample: check data/sample is byte-identical to what `python -m ajb_sample` makes;
2. build: read the data once into the tidy frames the notebooks read (`build_bench`), recompute every
   programmatic score and compare with the published ones, report the exclusions (paper Appendix D;
   the loader's messages name a malformed line's file and line) and print a Table 2 summary computed
   by `tables.table_T02`, the function notebook 03 uses;
3. execute every notebook (scripts/run_notebooks.py), 18_scorecard last: tables and figures go to
   figures/<data label>/, the committed notebooks are refreshed (default parameters only; any other
   parameter set writes to its own folder) and the HTML report is rendered;
then print where the report, the scorecard and the tables and figures are. Exit status 1 if a step failed.
"""

from __future__ import annotations

import argparse
import filecmp
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "scripts")]

import run_notebooks as rn  # noqa: E402
from ajb_run.errors import DEBUG_HELP, run_main  # noqa: E402
from ajb_run.parameter_files import check_parameter_file  # noqa: E402
from ajb_utils import paths  # noqa: E402

SAMPLE_COMMAND = [sys.executable, "-m", "ajb_sample", "--scale", "small", "--seed", "0"]


def sample_differences() -> list[str]:
    """Return how data/sample differs from what SAMPLE_COMMAND makes ([] when byte-identical)."""
    with tempfile.TemporaryDirectory(prefix="ajb_sample_") as tmp:
        out = Path(tmp) / "sample"
        proc = subprocess.run([*SAMPLE_COMMAND, "--out", str(out)], cwd=REPO, capture_output=True, text=True)
        if proc.returncode != 0:
            return [f"the generator failed: {(proc.stdout + proc.stderr).strip()}"]
        committed, made = ({p.relative_to(r) for p in r.rglob("*") if p.is_file()} for r in (paths.SAMPLE_DIR, out))
        return [f"only in data/sample: {p}" for p in sorted(committed - made)] + [
            f"{'differs' if p in committed else 'missing from data/sample'}: {p}"
            for p in sorted(made)
            if p not in committed or not filecmp.cmp(paths.SAMPLE_DIR / p, out / p, shallow=False)
        ]


def build(source: str, revision: str | None):
    """Return the Bench of `source` at `revision` after building it once (`build_bench`: the tidy frames
    written to a folder named by the input digests, which the notebooks then read)."""
    from ajb_utils.data import build_bench, load_bench

    print(f"  built: {rn.shown(build_bench(source, revision=revision))}/")
    return load_bench(source, revision=revision)


def report_bench(bench) -> int:
    """Print what the build found (scores, exclusions, Table 2); return 1 when a published score is not reproduced."""
    from ajb_utils.data import check_published_scores

    if bench.synthetic:
        print("  SYNTHETIC SAMPLE - numbers are not the paper's")
    print(f"  {len(bench.records):,} records, {len(bench.generations):,} valid generations, ", end="")
    print(f"{len(bench.verdicts):,} verdict rows; {bench.provenance()}")
    for message in bench.messages:  # a malformed line with its file and line, among others
        print(f"  loader: {message}")
    mismatches = check_published_scores(bench)
    print(
        f"  published programmatic scores reproduced: {'all' if mismatches.empty else f'{len(mismatches)} MISMATCHES'}"
    )
    summary = bench.exclusion_summary()
    print("  exclusions (paper Appendix D):")
    by_reason = summary.groupby("reason")["n"].sum().to_string() if len(summary) else "none"
    print("    " + by_reason.replace("\n", "\n    "))
    from ajb_utils import tables

    table, rule = tables.table2_summary(bench)  # notebook 03's table_T02, on its default rule
    print(f"  Table 2: alignment (%), mean over generators (missing verdicts: {rule}):")
    print("    " + table.to_string().replace("\n", "\n    "))
    return 0 if mismatches.empty else 1


def main(argv: list[str] | None = None) -> int:
    """Run the steps; return the exit status (1 if a step failed; a user error raises, see run_main)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--params", type=Path, default=REPO / "papermill_params" / "sample.yaml")
    ap.add_argument("--skip-notebooks", action="store_true", help="steps 1 and 2 only")
    ap.add_argument("--no-html", action="store_true", help="no HTML report (figures/<label>/html/)")
    ap.add_argument("--jobs", type=int, default=rn.DEFAULT_JOBS, help="notebooks executed at once")
    ap.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    args = ap.parse_args(argv)
    spec = rn.load_params(args.params)
    notebooks = rn.list_notebooks(paths.NOTEBOOKS_DIR)
    check_parameter_file(spec, notebooks, notebooks, str(args.params))
    problem = rn.probe_sources(spec, notebooks, "python scripts/reproduce.py")  # one question to a hub, first
    if problem:
        print(problem, file=sys.stderr)
        return 2
    shared = rn.params_for(spec, notebooks[0].stem)  # the default block: the data every notebook reads
    source, start = str(shared.get("data_source", "sample")), time.perf_counter()
    status = 0
    if source == "sample":
        print("[1/3] checking data/sample is what `python -m ajb_sample` makes ...", flush=True)
        differences = sample_differences()
        print("  byte-identical" if not differences else "  SAMPLE DIFFERS: " + "; ".join(differences))
        status |= bool(differences)
    else:
        print(f"[1/3] data source {source!r}: no sample to check")
    print(f"[2/3] building the bench from {source!r} (read once) ...", flush=True)
    status |= report_bench(build(source, shared.get("revision")))
    if args.skip_notebooks:
        return status
    print("[3/3] executing every notebook (papermill), 18_scorecard last ...", flush=True)
    options = ["--params", str(args.params), "--jobs", str(args.jobs), "--no-summary"]
    options += ["--in-place"] * (source == "sample") + ["--html"] * (not args.no_html)
    code = rn.execute(spec, notebooks, rn.parse_args(options))
    if code == 2:  # a data-source error inside a notebook, said in one line
        return 2
    status |= code
    folder = rn.output_folder_of(rn.plan_runs(spec, notebooks, args.params)[0][0].resolved)
    if code == 0 and (folder / "SCORECARD.md").exists():
        from ajb_verify import scorecard

        scorecard.print_summary(folder, write=False)
    print(f"done in {time.perf_counter() - start:.0f} s; status {'OK' if status == 0 else 'FAILED'}")
    print("\n".join(rn.end_summary(folder, None if args.no_html else folder / "html")))
    return status


if __name__ == "__main__":
    raise SystemExit(run_main(main))
