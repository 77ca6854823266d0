#!/usr/bin/env python
"""The main command: build -> notebooks -> scorecard, each once, in that order.

    python scripts/reproduce.py                                     # embedded synthetic sample, offline
    python scripts/reproduce.py --params papermill_params/hf.yaml   # the released data (network)

First the parameter file is checked against every notebook's `parameters` cell and the data source
is probed (a hub source is asked once which commit its revision names; a local path must exist).
A user error is one line saying what is wrong, exit status 2 (`--debug` shows the traceback). Then:
1. build: read the data once into the tidy frames the notebooks read (`build_bench`), recompute every
   programmatic score and compare with the published ones, report the exclusions (paper Appendix D;
   the loader's messages name a malformed line's file and line) and print a Table 2 summary computed
   by `tables.table2_summary`, on notebook 03's rule;
2. for the sample: check data/sample is byte-identical to what `python -m ajb_sample` makes (the
   generator runs in its own process beside step 1);
3. execute every notebook (scripts/run_notebooks.py), 18_scorecard last: tables and figures go to
   figures/<data label>/, the committed notebooks are refreshed (default parameters only; any other
   parameter set writes to its own folder) and the HTML report is rendered;
then print where the report, the scorecard and the tables and figures are. Exit status 1 if a step failed.
"""

from __future__ import annotations

import contextlib
import filecmp
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "scripts")]

import run_notebooks as rn  # noqa: E402
from ajb_run import options  # noqa: E402
from ajb_run.errors import run_main  # noqa: E402
from ajb_run.options import MainOptions  # noqa: E402
from ajb_run.parameter_files import check_parameter_file  # noqa: E402
from ajb_utils import paths  # noqa: E402

SAMPLE_COMMAND = [sys.executable, "-m", "ajb_sample", "--scale", "small", "--seed", "0"]


def start_sample(out: Path) -> subprocess.Popen:
    """Start SAMPLE_COMMAND writing a sample into `out` (it runs while this process builds the bench)."""
    return subprocess.Popen(
        [*SAMPLE_COMMAND, "--out", str(out)], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def compare_sample(generator: subprocess.Popen, out: Path) -> list[str]:
    """Return how data/sample differs from what `generator` (start_sample) made in `out` ([] when byte-identical)."""
    output, _ = generator.communicate()
    if generator.returncode != 0:
        return [f"the generator failed: {output.strip()}"]
    committed, made = ({p.relative_to(r) for p in r.rglob("*") if p.is_file()} for r in (paths.SAMPLE_DIR, out))
    return [f"only in data/sample: {p}" for p in sorted(committed - made)] + [
        f"{'differs' if p in committed else 'missing from data/sample'}: {p}"
        for p in sorted(made)
        if p not in committed or not filecmp.cmp(paths.SAMPLE_DIR / p, out / p, shallow=False)
    ]


def build(source: str, revision: str | None) -> int:
    """Build the bench of `source` at `revision` once (`build_bench`: the tidy frames written to a folder
    named by the input digests, which the notebooks then read), print what it found (`report_bench`, from
    a read without the call lists) and return that status."""
    from ajb_utils.data import build_bench, load_bench

    print(f"  built: {rn.shown(build_bench(source, revision=revision))}/")
    return report_bench(load_bench(source, revision=revision, calls=False))


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


def check_sample(generator: subprocess.Popen | None, out: Path, source: str) -> int:
    """Print step 2 (the sample against its generator's output); return 1 when they differ."""
    if generator is None:
        print(f"[2/3] data source {source!r}: no sample to check")
        return 0
    differences = compare_sample(generator, out)
    made = "byte-identical" if not differences else "SAMPLE DIFFERS: " + "; ".join(differences)
    print(f"[2/3] data/sample is what `python -m ajb_sample` makes: {made}", flush=True)
    return int(bool(differences))


def main(argv: list[str] | None = None) -> int:
    """Run the steps; return the exit status (1 if a step failed; a user error raises, see run_main)."""
    args = options.parse(MainOptions, argv, __doc__.splitlines()[0])
    spec = rn.load_params(args.params)
    notebooks = rn.list_notebooks(paths.NOTEBOOKS_DIR)
    check_parameter_file(spec, notebooks, notebooks, str(args.params))
    problem = rn.probe_sources(spec, notebooks, "python scripts/reproduce.py")  # one question to a hub, first
    if problem:
        print(problem, file=sys.stderr)
        return 2
    shared = rn.params_for(spec, notebooks[0].stem)  # the default block: the data every notebook reads
    source, start = str(shared.get("data_source", "sample")), time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ajb_sample_") as tmp:
        made = Path(tmp) / "sample"
        with start_sample(made) if source == "sample" else contextlib.nullcontext() as generator:  # waits on an error
            beside = "; `python -m ajb_sample` remakes the sample beside it" * (generator is not None)
            print(f"[1/3] building the bench from {source!r} (read once{beside}) ...", flush=True)
            status = build(source, shared.get("revision"))
            status |= check_sample(generator, made, source)
    if args.skip_notebooks:
        return status
    print("[3/3] executing every notebook (papermill), 18_scorecard last ...", flush=True)
    code = rn.execute(spec, notebooks, args.run_options(in_place=source == "sample"))
    if code == 2:  # a data-source error inside a notebook, said in one line
        return 2
    status |= code
    folder = rn.output_folder_of(rn.plan_runs(spec, notebooks, args.params)[0][0].resolved)
    if code == 0 and (folder / "SCORECARD.md").exists():
        from ajb_verify import scorecard

        scorecard.print_summary(folder, write=False)
    print(f"done in {time.perf_counter() - start:.0f} s; status {'OK' if status == 0 else 'FAILED'}")
    print("\n".join(rn.end_summary(folder, folder / "html" if args.html else None)))
    return status


if __name__ == "__main__":
    raise SystemExit(run_main(main))
