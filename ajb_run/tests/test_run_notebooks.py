"""scripts/run_notebooks.py and scripts/reproduce.py on throwaway notebooks: parameter filtering,
failures, atomic output, worker order, the scorecard last, what the main command reports."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
import yaml
from nbformat.v4 import new_code_cell, new_notebook

from ajb_run import parameter_files
from ajb_utils import paths
from script_modules import load_script

SCRIPT = paths.REPO_ROOT / "scripts" / "run_notebooks.py"
PARAMS_CELL = "a: int = 1  # first\nb: str | None = None  # second, PEP 604 annotation\n"


rn = load_script("run_notebooks")
reproduce = load_script("reproduce")


def _write_nb(path: Path, body: str, params: str = PARAMS_CELL) -> Path:
    """Write a two-cell notebook. It declares out_dir (default: figures/ beside its folder, under the
    test's tmp_path), so a run marks that folder incomplete, never the repository's figures/sample/."""
    if "out_dir" not in params:
        params += f"out_dir: str | None = {str(path.parent.parent / 'figures')!r}  # where outputs go\n"
    nb = new_notebook(cells=[new_code_cell(params, metadata={"tags": ["parameters"]}), new_code_cell(body)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


def _run(nbdir: Path, tmp_path: Path, *args: str, params: Path | None = None) -> subprocess.CompletedProcess:
    """Run run_notebooks.py on throwaway notebooks; without `params`, a file that keeps every default
    (sample.yaml's `out_dir: null` would send the notebooks' outputs to the repository's figures/sample/)."""
    if params is None:
        params = tmp_path / "defaults.yaml"
        params.write_text(yaml.safe_dump({"default": {"a": 1}}))
    base = ["--params", str(params), "--notebooks-dir", str(nbdir), "--failed-dir", str(tmp_path / "failed")]
    return subprocess.run(
        [sys.executable, str(SCRIPT), *base, *args], capture_output=True, text=True, timeout=300, cwd=paths.REPO_ROOT
    )


def _injected(nb_path: Path) -> str:
    nb = nbformat.read(nb_path, as_version=4)
    cells = [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
    return cells[0].source if cells else ""


def _stdout_text(nb_path: Path) -> str:
    nb = nbformat.read(nb_path, as_version=4)
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))


def _task(nb: Path, dest: Path, tmp_path: Path, params: dict | None = None) -> object:
    return rn.Task(nb, dest, params or {}, tmp_path / "failed", timeout=60)


@pytest.mark.slow
def test_two_kernels_at_once_each_run_in_their_notebook_folder(tmp_path: Path) -> None:
    """run_tasks runs the notebooks in threads of this process: each kernel starts in its notebook's
    folder (notebooks read paths relative to it), and this process's own folder does not move."""
    before = Path.cwd()
    tasks = []
    for name in ("a", "b"):
        nbdir = tmp_path / name
        nbdir.mkdir()
        body = "import os, time\ntime.sleep(1)\nprint(os.getcwd())"
        tasks.append(
            _task(_write_nb(nbdir / f"0{len(tasks) + 1}_{name}.ipynb", body), tmp_path / "out" / name, tmp_path)
        )
    results = rn.run_tasks(tasks, jobs=2)
    assert [r.ok for r in results] == [True, True], results
    assert [_stdout_text(t.dest).strip() for t in tasks] == [str(tmp_path / "a"), str(tmp_path / "b")]
    assert Path.cwd() == before


@pytest.mark.slow
def test_ctrl_c_stops_the_run_and_the_notebooks_not_started_never_start(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the runner's process group; jupyter_client starts each kernel in a session
    of its own) ends the run once the notebook running has ended: the ones queued behind it never start.
    The first notebook runs until the runner has said it took the interrupt (no race on a loaded machine)."""
    nbdir, marks, release = tmp_path / "nbs", tmp_path / "marks", tmp_path / "release"
    nbdir.mkdir()
    marks.mkdir()
    write = "import pathlib\npathlib.Path({!r}).write_text('x')\n"
    wait = f"import time\nend = time.monotonic() + 60\nwhile not pathlib.Path({str(release)!r}).exists() and time.monotonic() < end:\n    time.sleep(0.05)"
    _write_nb(nbdir / "01_long.ipynb", write.format(str(marks / "01")) + wait)
    for nb in ("02_next", "03_last"):
        _write_nb(nbdir / f"{nb}.ipynb", write.format(str(marks / nb[:2])))
    params = tmp_path / "defaults.yaml"
    params.write_text(yaml.safe_dump({"default": {"a": 1}}))
    cmd = [sys.executable, str(SCRIPT), "--params", str(params), "--notebooks-dir", str(nbdir), "--jobs", "1"]
    cmd += ["--failed-dir", str(tmp_path / "failed"), "--output-dir", str(tmp_path / "out")]
    proc = subprocess.Popen(  # its own process group, SIGINT handled as in a terminal
        cmd,
        cwd=paths.REPO_ROOT,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while not (marks / "01").exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert (marks / "01").exists(), "the first notebook never started"
    os.killpg(proc.pid, signal.SIGINT)
    said = []
    for line in proc.stdout:  # the runner says it has taken the interrupt (the queued ones cancelled)...
        said.append(line)
        if b"interrupted" in line:
            break
    release.write_text("x")  # ...and only then may the first notebook end
    out = b"".join(said) + proc.communicate(timeout=120)[0]
    assert proc.returncode != 0
    assert not (marks / "02").exists() and not (marks / "03").exists(), out.decode()
    assert b"interrupted" in out


@pytest.mark.slow
def test_a_kernels_own_log_at_shutdown_does_not_reach_the_runners_stderr(tmp_path: Path) -> None:
    """ipykernel 7.4 can race at shutdown and log "ERROR:tornado.general:Uncaught exception in
    ZMQStream callback" on the stderr it shares with the runner, after the notebook has ended well
    (ipython/ipykernel#1518 quiets one such path). The runner's stderr is its own lines only."""
    nbdir = tmp_path / "nbs"
    nbdir.mkdir()
    shutdown_log = "logging.getLogger('tornado.general').error('Uncaught exception in ZMQStream callback')"
    _write_nb(nbdir / "01_exit.ipynb", f"import atexit, logging\natexit.register(lambda: {shutdown_log})")
    proc = _run(nbdir, tmp_path, "--output-dir", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr == ""


# ---- pure helpers ---------------------------------------------------------------------------
def test_params_for_merges_top_default_number_and_stem() -> None:
    spec = {"x": 0, "default": {"a": 1, "b": 2}, 3: {"b": 3}, "03_main_results": {"c": 4}, "05_other": {"a": 9}}
    assert rn.params_for(spec, "03_main_results") == {"x": 0, "a": 1, "b": 3, "c": 4}
    assert rn.params_for(spec, "04_rq1") == {"x": 0, "a": 1, "b": 2}


def test_declared_parameters_see_pep604_annotations(tmp_path: Path) -> None:
    nb = _write_nb(tmp_path / "01_x.ipynb", "pass")
    assert parameter_files.declared_parameters(nb) == {"a", "b", "out_dir"}
    assert rn.default_values(PARAMS_CELL) == {"a": 1, "b": None}


def test_filter_and_drop_defaults() -> None:
    kept, dropped = rn.filter_params({"a": 5, "b": None, "c": 9}, {"a", "b"})
    assert kept == {"a": 5, "b": None} and dropped == ["c"]
    assert rn.drop_defaults(kept, {"a": 1, "b": None}) == {"a": 5}
    assert rn.drop_defaults({"a": True}, {"a": 1}) == {"a": True}  # 1 == True but not the same literal


def test_list_notebooks_order_and_only(tmp_path: Path) -> None:
    for name in ("10_b.ipynb", "02_a.ipynb", "notes.ipynb", "03_c.ipynb"):
        _write_nb(tmp_path / name, "pass")
    assert [p.name for p in rn.list_notebooks(tmp_path)] == ["02_a.ipynb", "03_c.ipynb", "10_b.ipynb"]
    assert [p.name for p in rn.list_notebooks(tmp_path, ["10", "02_a"])] == ["02_a.ipynb", "10_b.ipynb"]


def test_a_path_outside_the_repository_is_printed_whole(tmp_path: Path) -> None:
    assert rn.shown(paths.FIGURES_DIR / "sample") == "figures/sample"
    assert rn.shown(tmp_path / "out") == str(tmp_path / "out")


def test_split_stream_messages_are_joined_so_the_file_does_not_depend_on_flush_timing() -> None:
    """One print may arrive as two stream messages ('text' then a newline); the saved notebook is the same."""
    from nbformat.v4 import new_output

    split = [
        new_output("stream", name="stdout", text="T06: 12 values compared"),
        new_output("stream", name="stdout", text="\n"),
        new_output("stream", name="stderr", text="warn\n"),
        new_output("stream", name="stdout", text="next\n"),
    ]
    joined = rn.coalesce_streams(split)
    assert [(o["name"], o["text"]) for o in joined] == [
        ("stdout", "T06: 12 values compared\n"),
        ("stderr", "warn\n"),
        ("stdout", "next\n"),
    ]


def test_a_page_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch) -> None:
    """render_html writes the page beside its place and renames it: a rendering that fails leaves the
    previous page and no partial file."""
    nb = _write_nb(tmp_path / "01_page.ipynb", "print(1)")
    html = tmp_path / "html"
    page = rn.render_html(nb, html)
    before = page.read_bytes()
    assert b"print" in before
    monkeypatch.setattr(rn, "rewrite_links", lambda *a: "<p>new</p>" * 10_000 + "\ud800")  # fails mid-write
    with pytest.raises(UnicodeEncodeError):
        rn.render_html(nb, html)
    assert page.read_bytes() == before and sorted(p.name for p in html.iterdir()) == ["01_page.html"]


def _fake_run(task):
    """Stand-in for run_task: 01 fails on the data source, the others leave a mark that they ran."""
    import time

    (task.failed_dir / f"{task.notebook.stem}.ran").write_text("x")
    if task.notebook.stem.startswith("01"):
        return rn.Result(task.notebook.stem, False, 0.0, "BenchDataError: no such source")
    time.sleep(0.5)  # the run has stopped before the waiting ones could start
    return rn.Result(task.notebook.stem, True, 0.0)


def test_a_data_source_error_stops_the_run_and_the_scorecard_never_starts(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(rn, "run_task", _fake_run)
    names = ["01_a", "02_b", "03_c", "04_d", "05_e", "18_scorecard"]
    tasks = [rn.Task(Path(f"{n}.ipynb"), tmp_path / f"{n}.ipynb", {}, tmp_path) for n in names]
    results = rn.run_tasks(tasks, 1)
    assert [r.name for r in results] == ["01_a"]
    assert not (tmp_path / "18_scorecard.ran").exists() and not (tmp_path / "05_e.ran").exists()


# ---- end to end (starts a python3 kernel per notebook) ----------------------------------------
# Each folder of throwaway notebooks below is run by the script once or twice per test session (a
# module fixture), and the tests assert on those runs: a kernel per notebook is the cost.
@pytest.fixture(scope="module")
def pool_runs(tmp_path_factory) -> dict:
    """Four notebooks run with --jobs 2, then all but 18 with --jobs 1. 01_slow finishes after 02 and 03 (it
    sleeps), then writes the file 18_scorecard looks for; its parameters name an undeclared `c` (02
    declares it) and a `b` for 01 alone. Return {"tmp", "marker", "2": (process, out), "1": ...}."""
    tmp = tmp_path_factory.mktemp("pool")
    nbdir, marker = tmp / "nbs", tmp / "written_by_01"
    nbdir.mkdir()
    slow = f"import pathlib, time\ntime.sleep(3)\npathlib.Path({str(marker)!r}).write_text('x')\n"
    _write_nb(nbdir / "01_slow.ipynb", slow + "print(a * 2, b, 'c' in globals())")
    pep604 = "d: int | None = None  # papermill's own parameter check misses this annotation\n"
    _write_nb(nbdir / "02_defaults.ipynb", "print(a, b, c)", params=PARAMS_CELL + "c: int = 0  # only here\n" + pep604)
    _write_nb(nbdir / "03_streams.ipynb", "import sys\nfor i in range(50): print(i); print('e', file=sys.stderr)")
    _write_nb(nbdir / "18_scorecard.ipynb", f"import pathlib; print(pathlib.Path({str(marker)!r}).exists())")
    params = tmp / "p.yaml"
    params.write_text(yaml.safe_dump({"default": {"a": 5, "c": 9}, "01_slow": {"b": "x"}, "02_defaults": {"d": 1}}))
    runs: dict = {"tmp": tmp, "nbdir": nbdir}
    for jobs, only in (("2", []), ("1", ["--only", "01", "02", "03"])):  # --jobs 2 first: no marker yet
        out = tmp / f"out{jobs}"
        runs[jobs] = _run(nbdir, tmp, "--output-dir", str(out), "--jobs", jobs, *only, params=params), out
    return runs


@pytest.mark.slow
def test_injected_parameters_are_filtered_to_declared(pool_runs) -> None:
    res, out = pool_runs["2"]
    assert res.returncode == 0, res.stdout + res.stderr
    injected = _injected(out / "01_slow.ipynb")
    assert "a = 5" in injected and 'b = "x"' in injected and "c =" not in injected
    assert _stdout_text(out / "01_slow.ipynb").strip() == "10 x False"
    assert "ignored: c" in next(line for line in res.stdout.splitlines() if "01_slow" in line)
    assert _stdout_text(out / "02_defaults.ipynb").strip() == "5 None 9"
    # executed notebooks carry no timestamps or temp paths, and the kernels no warning
    text = (out / "01_slow.ipynb").read_text()
    assert "start_time" not in text and "output_path" not in text
    assert str(pool_runs["nbdir"]) not in text and str(out) not in text  # its input and output paths
    assert "WARNING" not in res.stderr and "KeyboardInterrupt" not in res.stderr, res.stderr
    assert "d = 1" in _injected(out / "02_defaults.ipynb")  # declared, so passed
    assert "Passed unknown parameter" not in res.stdout + res.stderr  # nor called unknown, in any worker


@pytest.mark.slow
def test_parallel_workers_give_the_same_notebooks_in_the_same_report_order(pool_runs) -> None:
    """--jobs 2 and --jobs 1 write byte-identical notebooks (no timestamps, 03's split streams joined);
    report lines stay in notebook order although the first notebook finishes after the next two."""
    outs = {}
    for jobs in ("2", "1"):
        res, out = pool_runs[jobs]
        assert res.returncode == 0, res.stdout + res.stderr
        lines = [ln.split()[1] for ln in res.stdout.splitlines() if ln.startswith("ok")]
        assert lines == ["01_slow", "02_defaults", "03_streams", "18_scorecard"][: 4 if jobs == "2" else 3]
        outs[jobs] = {p.name: p.read_bytes() for p in out.iterdir() if not p.name.startswith("18")}
    assert outs["1"] == outs["2"] and len(outs["1"]) == 3


@pytest.mark.slow
def test_the_scorecard_notebook_starts_after_all_the_others(pool_runs) -> None:
    """18_scorecard reads what the other notebooks write, so with parallel workers it waits for all of
    them, even for a slow notebook that started before it (the --jobs 2 run is the first one)."""
    res, out = pool_runs["2"]
    assert res.returncode == 0, res.stdout + res.stderr
    assert _stdout_text(out / "18_scorecard.ipynb").strip() == "True"


@pytest.fixture(scope="module")
def in_place_runs(tmp_path_factory) -> dict:
    """A notebook that prints to both streams and one that fails, run --in-place twice with the
    default parameters (the second time 01 alone). Return {"nbdir", "tmp", "bad_before", "runs": [(process,
    01's bytes after it)]}."""
    tmp = tmp_path_factory.mktemp("in_place")
    nbdir = tmp / "nbs"
    nbdir.mkdir()
    ok = _write_nb(
        nbdir / "01_ok.ipynb", "import sys\nfor i in range(50): print(i); print('e', file=sys.stderr)\nprint('a is', a)"
    )
    bad = _write_nb(nbdir / "02_bad.ipynb", "raise ValueError('boom')")
    state = {"nbdir": nbdir, "tmp": tmp, "bad_before": bad.read_bytes(), "runs": []}
    for only in ([], ["--only", "01"]):  # the second run refreshes 01 alone
        state["runs"].append((_run(nbdir, tmp, "--in-place", *only), ok.read_bytes()))
    return state


@pytest.mark.slow
def test_failing_notebook_exits_nonzero_and_leaves_no_partial_output(in_place_runs) -> None:
    nbdir, tmp = in_place_runs["nbdir"], in_place_runs["tmp"]
    res, _ = in_place_runs["runs"][0]
    assert res.returncode == 1, res.stdout + res.stderr
    assert "FAIL 02_bad" in res.stdout and "failed: 02_bad" in res.stdout
    assert "ValueError: boom" in res.stdout
    assert (nbdir / "02_bad.ipynb").read_bytes() == in_place_runs["bad_before"]  # the failing notebook is untouched
    assert sorted(p.name for p in nbdir.iterdir()) == ["01_ok.ipynb", "02_bad.ipynb"]  # no temp files left
    assert "a is 1" in _stdout_text(nbdir / "01_ok.ipynb")  # the good one ran in place
    assert (tmp / "failed" / "02_bad.ipynb").exists()  # kept for debugging, elsewhere


@pytest.mark.slow
def test_in_place_refresh_is_byte_identical(in_place_runs) -> None:
    """Executing a notebook in place twice gives the same bytes: no timestamps, no split streams."""
    (_, first), (res, second) = in_place_runs["runs"]
    assert res.returncode == 0 and "ok   01_ok" in res.stdout, res.stdout + res.stderr
    assert second == first and b"injected-parameters" not in first


@pytest.mark.slow
def test_a_notebook_whose_kernel_dies_fails_and_keeps_what_ran(tmp_path: Path) -> None:
    """A kernel that dies mid-notebook fails the notebook (its destination untouched), and the copy kept
    for debugging holds the outputs of the cells before it."""
    nb = _write_nb(tmp_path / "01_dies.ipynb", "print('before', a)")
    doc = nbformat.read(nb, as_version=4)
    doc.cells += [new_code_cell("import os; os._exit(3)"), new_code_cell("print('never')")]
    nbformat.write(doc, nb)
    res = rn.run_task(_task(nb, tmp_path / "out" / nb.name, tmp_path))
    assert not res.ok and "Dead" in res.error, res
    assert not (tmp_path / "out").exists()
    kept = _stdout_text(tmp_path / "failed" / nb.name)
    assert "before 1" in kept and "never" not in kept


@pytest.fixture(scope="module")
def failed_runs(tmp_path_factory) -> dict:
    """Three notebooks, each with its own out_dir: 01 writes a table into a/, 02 only PROVENANCE.json
    into b/, 03 makes c/ and writes nothing; 02 and 03 fail while `fail` is true. Run twice: failing,
    then 01 alone with fail: false. Return {"tmp", "a", "b", "c", "runs": [process, process]}."""
    tmp = tmp_path_factory.mktemp("failed")
    nbdir = tmp / "nbs"
    nbdir.mkdir()
    cell = "out_dir: str | None = None  # where outputs go\nfail: bool = True  # fail after writing\n"
    body = "import os\nos.makedirs(out_dir, exist_ok=True)\nopen(os.path.join(out_dir, '{name}'), 'w').write('x')\n"
    _write_nb(nbdir / "01_table.ipynb", body.format(name="T01_table.csv"), params=cell)
    _write_nb(nbdir / "02_prov.ipynb", body.format(name="PROVENANCE.json") + "assert not fail", params=cell)
    _write_nb(nbdir / "03_empty.ipynb", "import os\nos.makedirs(out_dir, exist_ok=True)\nif fail: 1 / 0", params=cell)
    state = {k: tmp / "figures" / k for k in "abc"}
    spec = {"default": {"out_dir": str(state["a"])}, "02_prov": {"out_dir": str(state["b"])}}
    spec["03_empty"] = {"out_dir": str(state["c"])}
    params = tmp / "p.yaml"
    state["runs"] = []
    for fail, only in ((True, []), (False, ["--only", "01"])):  # then 01 alone, which writes a/
        spec["default"]["fail"] = fail
        params.write_text(yaml.safe_dump(spec))
        state["runs"].append(_run(nbdir, tmp, "--output-dir", str(tmp / "executed"), *only, params=params))
        if fail:  # what the failed run left, before the next run writes again
            state["left"] = sorted(p.relative_to(tmp).as_posix() for p in tmp.rglob("*") if p.is_file())
            state["mark"] = (
                (state["a"] / paths.INCOMPLETE_FILE).read_text()
                if (state["a"] / paths.INCOMPLETE_FILE).exists()
                else ""
            )
    state["tmp"] = tmp
    return state


@pytest.mark.slow
def test_a_failed_run_leaves_no_empty_output_folder(failed_runs) -> None:
    """A notebook that makes its output folder and then fails: the run leaves no empty folder behind
    (and no executed copy of a notebook that failed)."""
    res = failed_runs["runs"][0]
    assert res.returncode == 1 and "ZeroDivisionError" in res.stdout, res.stdout + res.stderr
    left = failed_runs["left"]
    assert not any(p.startswith("figures/c/") for p in left), left
    assert [p for p in left if p.startswith("executed/")] == ["executed/01_table.ipynb"]
    assert "failed/03_empty.ipynb" in left and "failed/02_prov.ipynb" in left


@pytest.mark.slow
def test_a_failed_run_marks_what_it_wrote_and_drops_a_folder_of_provenance_only(failed_runs) -> None:
    """One notebook writes a table, another only PROVENANCE.json, then fails: the first folder is
    marked incomplete (naming the failure), the second removed; a run that ends OK takes the mark away."""
    res, left = failed_runs["runs"][0], failed_runs["left"]
    assert not any(p.startswith("figures/b/") for p in left), left
    assert f"figures/a/{paths.INCOMPLETE_FILE}" in left and "figures/a/T01_table.csv" in left
    assert "02_prov" in failed_runs["mark"]
    assert paths.INCOMPLETE_FILE in res.stdout  # the run says so, in one line
    res = failed_runs["runs"][1]
    assert res.returncode == 0 and not (failed_runs["a"] / paths.INCOMPLETE_FILE).exists(), res.stdout + res.stderr


def test_a_run_stopped_before_its_end_leaves_its_folders_marked(tmp_path: Path) -> None:
    """The mark is written before the first notebook starts, so a killed run leaves it behind."""
    folder = tmp_path / "out"
    rn.mark_incomplete([folder], rn.STOPPED)
    assert "stopped before its end" in (folder / paths.INCOMPLETE_FILE).read_text()
    from ajb_verify import artifacts

    assert paths.INCOMPLETE_FILE not in set(artifacts.folder_files(folder)["file"])  # never linked as an output


# ---- the main command's own steps --------------------------------------------------------------
@pytest.mark.slow
def test_the_sample_is_what_its_generator_makes(tmp_path: Path) -> None:
    out = tmp_path / "sample"
    assert reproduce.compare_sample(reproduce.start_sample(out), out) == []


def test_a_malformed_line_is_reported_with_its_file_and_line(tmp_path: Path, capsys) -> None:
    """The main command's build step names a malformed generator line by its file and line."""
    from ajb_utils.data import load_bench
    from mini_repo import write_mini_repo

    root = write_mini_repo(tmp_path / "mirror")
    path = root / "data" / "gpt5_4.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([lines[0], b'{"id": broken\n', *lines[1:]]))
    reproduce.report_bench(load_bench(str(root)))
    out = capsys.readouterr().out
    assert f"{path}: line 2:" in out and "malformed JSON line" in out, out


def test_the_printed_table_2_summary_is_the_committed_table_2(capsys) -> None:
    """The main command's Table 2 is notebook 03's T02 (its CSV under figures/sample/), on its rule, named."""
    import pandas as pd

    from ajb_utils import paths, schema, stats
    from ajb_utils.data import load_bench

    reproduce.report_bench(load_bench("sample"))
    out = capsys.readouterr().out
    assert f"missing verdicts: {stats.rule_name(stats.PAPER_MISSING)}" in out
    committed = pd.read_csv(paths.FIGURES_DIR / "sample" / "T02_main_alignment.csv")
    judge = schema.JUDGES[0]
    mine = committed[(committed["judge"] == judge)]
    mean = mine.groupby(["condition", "difficulty"])["align"].mean()
    shown = next(line for line in out.splitlines() if line.strip().startswith(schema.display(judge)))
    assert f"{mean.loc[('with_gt', 'easy')]:.1f}" in shown.split()


# ---- where a parameter file's outputs go ------------------------------------------------------
def _folders(spec: dict, name: str) -> set[str]:
    runs, _ = rn.plan_runs(spec, rn.list_notebooks(paths.NOTEBOOKS_DIR), Path(f"{name}.yaml"))
    return {rn.output_folder_of(r.resolved).name for r in runs}


def test_hf_yaml_writes_figures_hf_with_notebook_15_own_run_name() -> None:
    """hf.yaml's block for notebook 15 (its run name) sends no notebook to figures/hf-hf/."""
    spec = rn.load_params(paths.REPO_ROOT / "papermill_params" / "hf.yaml")
    assert rn.params_for(spec, "15_new_judge")["run_name"] != "static_schema_judge"  # the block under test
    assert _folders(spec, "hf") == {"hf"}


def test_a_block_for_one_notebook_keeps_the_committed_sample_folder_untouched() -> None:
    spec = {"default": {"data_source": "sample"}, "15_new_judge": {"run_name": "mine"}}
    assert _folders(spec, "mine") == {"sample-mine"}
    assert _folders({"default": {"data_source": "sample", "seed": 7}}, "s7") == {"sample-s7"}
    assert _folders({"default": {"data_source": "hf", "seed": 7}}, "s7") == {"hf-s7"}
