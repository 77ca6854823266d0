#!/usr/bin/env python
"""The main job: verify the data, print the headline table, execute every notebook.

    python scripts/reproduce.py                         # embedded synthetic sample, offline
    python scripts/reproduce.py --params papermill_params/hf.yaml   # the released data (network)

Before anything runs, the parameter file is checked against every notebook's `parameters` cell
(an unknown name or judge/generator value is an error listing the valid ones) and a hub source is
probed (one request, a few seconds at most). Every user error (a missing or bad parameter file, an
unknown parameter, a missing or empty data folder, a truncated data file, the hub offline) is one
line saying what is wrong and what to do, exit status 2; `--debug` shows the traceback too.

Steps, each printed as it goes:
1. for the sample: rebuild it from its seed into a temporary folder and check it is
   byte-identical to data/sample (the sample is exactly what `ajb_utils.sample` makes); the
   rebuild runs in its own process beside steps 2 and 3, and its verdict is printed after them;
2. load the data, recompute every programmatic score and compare with the published ones,
   report exclusions (paper Appendix D) and print a Table 2-style alignment summary;
3. execute every notebook with papermill (scripts/run_notebooks.py, started before step 1 so that its
   kernel server and imports overlap steps 1 and 2; it starts the notebooks when told to here), writing all tables and
   figures under figures/<data label>/ and refreshing the notebooks' committed outputs (default
   parameters only: any other parameter set writes to its own folder and leaves them untouched);
then print where the report (HTML), the scorecard and the tables and figures are.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from ajb_utils import paths  # noqa: E402
from ajb_utils.paths import SAMPLE_DIR  # noqa: E402
from ajb_utils.script_errors import DEBUG_HELP, run_main  # noqa: E402
from run_notebooks import check_spec, list_notebooks, load_params, output_folder_of, plan_runs, report_locations  # noqa: E402

SAMPLE_SEED = 0


SAMPLE_CHECK_NICENESS = 10  # the check's verdict is printed last: steps 2 and 3 get the cores first


def _lower_priority() -> None:
    """Lower this (child) process's scheduling priority by SAMPLE_CHECK_NICENESS; returns None."""
    os.nice(SAMPLE_CHECK_NICENESS)


def start_verify_sample(tmp: Path) -> subprocess.Popen:
    """Return the running process that regenerates the sample from its seed into `tmp`/sample (its
    output captured) at a lower priority, so that the next steps run beside it and before it where the
    two cores are busy; `finish_verify_sample` checks the result."""
    cmd = [sys.executable, "-m", "ajb_utils.sample", "--scale", "small", "--seed", str(SAMPLE_SEED)]
    return subprocess.Popen(
        cmd + ["--out", str(tmp / "sample")],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=_lower_priority if hasattr(os, "nice") else None,  # POSIX only
    )


def finish_verify_sample(proc: subprocess.Popen, tmp: Path) -> bool:
    """Return True when the regeneration `proc` ended well and gave files byte-identical to data/sample."""
    output, _ = proc.communicate()
    if proc.returncode != 0:
        print("  " + output.strip().replace("\n", "\n  "))
        return False
    out = tmp / "sample"
    committed = sorted(p.relative_to(SAMPLE_DIR) for p in SAMPLE_DIR.rglob("*") if p.is_file())
    rebuilt = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    if committed != rebuilt:
        print(f"  file lists differ: {set(committed) ^ set(rebuilt)}")
        return False
    differing = [str(p) for p in committed if not filecmp.cmp(SAMPLE_DIR / p, out / p, shallow=False)]
    for name in differing:
        print(f"  differs: data/sample/{name}")
    return not differing


def verify_sample() -> bool:
    """Return True when regenerating the sample from its seed gives byte-identical files."""
    with tempfile.TemporaryDirectory() as tmp:
        return finish_verify_sample(start_verify_sample(Path(tmp)), Path(tmp))


def summary_table(bench) -> str:
    """Return the Table 2-style summary (judge x condition x difficulty, mean over generators)."""
    from ajb_utils import schema, stats

    released = bench.verdicts[
        bench.verdicts["judge"].isin(schema.JUDGES) & bench.verdicts["condition"].isin(schema.MAIN_CONDITIONS)
    ]
    cells = stats.align(released, by=("judge", "generator", "difficulty", "condition"))
    wide = (
        cells.groupby(["judge", "condition", "difficulty"], observed=True)["align"]
        .mean()
        .unstack(["condition", "difficulty"])
    )
    wide.index = [schema.display(j) for j in wide.index]
    return wide.round(1).to_string()


def scorecard_written(runs: list, out: Path) -> bool:
    """Return True when the run's 18_scorecard wrote the scorecard of `out` under the label the summary
    uses (the folder's name), so the summary need not write the same files again."""
    from ajb_utils import provenance

    card = next((r for r in runs if r[0].stem == "18_scorecard"), None)
    if card is None:
        return False
    params = card[3]
    return output_folder_of(params) == out and provenance.data_label(params.get("data_source", "sample")) == out.name


def main(argv: list[str] | None = None) -> int:
    """Run the three steps; return the exit status (1 if a step failed; a user error raises, see run_main)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--params", type=Path, default=REPO / "papermill_params" / "sample.yaml")
    ap.add_argument("--skip-notebooks", action="store_true")
    ap.add_argument(
        "--no-html", action="store_true", help="skip the HTML rendering of executed notebooks (figures/<label>/html/)"
    )
    ap.add_argument("--jobs", type=int, default=None, help="notebooks executed at once (default: one per core)")
    ap.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    args = ap.parse_args(argv)
    spec = load_params(args.params)
    check_spec(spec, paths.NOTEBOOKS_DIR, list_notebooks(paths.NOTEBOOKS_DIR), args.params)
    # imported after the checks, so that a typo is reported before pandas, matplotlib and datasets load
    from ajb_utils.data import HubUnavailable, probe_hub

    source = (spec.get("default") or {}).get("data_source", spec.get("data_source", "sample"))
    revision = (spec.get("default") or {}).get("revision")
    t_start = time.perf_counter()
    try:  # one short question to the hub before anything else: offline, one line and exit
        commit = probe_hub(source, revision)
    except HubUnavailable as exc:
        print(
            f"error: {exc.reason}. Offline, this works: python scripts/reproduce.py (the embedded synthetic sample)",
            file=sys.stderr,
        )
        return 2
    if commit:
        print(f"[0/3] hub {source!r}: revision {revision or 'main'} is commit {commit}")

    runner = None
    if not args.skip_notebooks:  # its kernel server and imports overlap steps 1 and 2; the notebooks wait for "go"
        cmd = [sys.executable, str(REPO / "scripts" / "run_notebooks.py"), "--params", str(args.params), "--no-summary"]
        if source == "sample":
            cmd.append("--in-place")
        if not args.no_html:
            cmd.append("--html")
        if args.jobs is not None:
            cmd += ["--jobs", str(args.jobs)]
        runner = subprocess.Popen([*cmd, "--start-on-stdin"], cwd=REPO, stdin=subprocess.PIPE, text=True)
    try:
        return _steps(args, spec, source, revision, commit, runner, t_start)
    finally:
        if runner is not None and runner.poll() is None:  # steps 1-2 failed before the go: no notebook runs
            try:
                runner.stdin.close()
            except OSError:
                pass
            runner.wait()


def _steps(
    args: argparse.Namespace,
    spec: dict,
    source: str,
    revision: str | None,
    commit: str | None,
    runner: subprocess.Popen | None,
    t_start: float,
) -> int:
    """Return the exit status of steps 1-3, the notebook runner `runner` (started, waiting) told to go at step 3."""
    from ajb_utils import scorecard
    from ajb_utils.data import check_published_scores, load_bench

    status = 0
    verify_tmp = tempfile.TemporaryDirectory(prefix="ajb_verify_")
    verifier = None
    if source == "sample":
        print(
            "[1/3] verifying the embedded sample is what `python -m ajb_utils.sample` makes (beside the next steps) ..."
        )
        verifier = start_verify_sample(Path(verify_tmp.name))
    else:
        print(f"[1/3] data source {source!r}: nothing to verify locally")

    print(f"[2/3] loading {source!r} and re-scoring every generation ...")
    bench = load_bench(source, revision=commit or revision)  # the commit the probe saw
    if bench.synthetic:
        print("  SYNTHETIC SAMPLE - numbers are not the paper's")
    mismatches = check_published_scores(bench)
    print(
        f"  {len(bench.records):,} records, {len(bench.generations):,} valid generations, "
        f"{len(bench.verdicts):,} verdict rows; provenance: {bench.provenance()}"
    )
    print(
        f"  published programmatic scores reproduced: {'all' if mismatches.empty else f'{len(mismatches)} MISMATCHES'}"
    )
    status |= 0 if mismatches.empty else 1
    print("  exclusions (paper Appendix D):")
    summary = bench.exclusion_summary()
    grouped = summary.groupby("reason")["n"].sum() if len(summary) else summary
    print("    " + grouped.to_string().replace("\n", "\n    "))
    print("  alignment (%), mean over generators, six judges + Prometheus-2:")
    print("    " + summary_table(bench).replace("\n", "\n    "))

    notebooks_ok = False
    if not args.skip_notebooks:
        print("[3/3] executing every notebook (papermill) ...", flush=True)
        try:
            runner.stdin.write("go\n")
            runner.stdin.close()
        except OSError:  # it has already ended (and said why)
            pass
        code = runner.wait()
        if code == 2:  # run_notebooks.py said what is wrong, in one line
            if verifier is not None:
                verifier.kill()
                verifier.wait()
            verify_tmp.cleanup()
            return 2
        status |= code
        notebooks_ok = code == 0
    if verifier is not None:
        ok = finish_verify_sample(verifier, Path(verify_tmp.name))
        print("[1/3] sample verified: byte-identical" if ok else "[1/3] SAMPLE DIFFERS from its generator")
        status |= 0 if ok else 1
    verify_tmp.cleanup()
    runs, _ = plan_runs(load_params(args.params), list_notebooks(paths.NOTEBOOKS_DIR), args.params)
    out = output_folder_of(runs[0][3]) if runs else None
    if out is not None and any(out.glob("*_compare.csv")):  # what the notebooks compared and checked
        scorecard.print_summary(out, write=not (notebooks_ok and scorecard_written(runs, out)))
    print(f"done in {time.perf_counter() - t_start:.0f} s; status {'OK' if status == 0 else 'FAILED'}")
    if not args.skip_notebooks:
        print("\n".join(report_locations(args.params)))
    return status


if __name__ == "__main__":
    raise SystemExit(run_main(main))
