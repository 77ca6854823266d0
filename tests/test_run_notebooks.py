"""scripts/run_notebooks.py on throwaway notebooks: parameter filtering, failures, atomic output."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import yaml
from nbformat.v4 import new_code_cell, new_notebook

from ajb_utils import paths
from script_modules import load_script

SCRIPT = paths.REPO_ROOT / "scripts" / "run_notebooks.py"
PARAMS_CELL = "a: int = 1  # first\nb: str | None = None  # second, PEP 604 annotation\n"


rn = load_script("run_notebooks")


def _write_nb(path: Path, body: str, params: str = PARAMS_CELL) -> Path:
    nb = new_notebook(cells=[new_code_cell(params, metadata={"tags": ["parameters"]}), new_code_cell(body)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def _injected(nb_path: Path) -> str:
    nb = nbformat.read(nb_path, as_version=4)
    cells = [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
    return cells[0].source if cells else ""


def _stdout_text(nb_path: Path) -> str:
    nb = nbformat.read(nb_path, as_version=4)
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))


# ---- pure helpers ---------------------------------------------------------------------------
def test_params_for_merges_top_default_number_and_stem() -> None:
    spec = {"x": 0, "default": {"a": 1, "b": 2}, 3: {"b": 3}, "03_main_results": {"c": 4}, "05_other": {"a": 9}}
    assert rn.params_for(spec, "03_main_results") == {"x": 0, "a": 1, "b": 3, "c": 4}
    assert rn.params_for(spec, "04_rq1") == {"x": 0, "a": 1, "b": 2}


def test_declared_parameters_see_pep604_annotations(tmp_path: Path) -> None:
    nb = _write_nb(tmp_path / "01_x.ipynb", "pass")
    assert rn.declared_parameters(nb) == {"a", "b"}
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


# ---- end to end (starts a python3 kernel per notebook) ----------------------------------------
@pytest.mark.slow
def test_injected_parameters_are_filtered_to_declared(tmp_path: Path) -> None:
    nbdir, out = tmp_path / "nbs", tmp_path / "out"
    nbdir.mkdir()
    _write_nb(nbdir / "01_ok.ipynb", "print(a, b, 'c' in globals())")
    _write_nb(nbdir / "02_defaults.ipynb", "print(a, b)", params=PARAMS_CELL + "c: int = 0  # only here\n")
    params = tmp_path / "p.yaml"
    params.write_text(yaml.safe_dump({"default": {"a": 5, "c": 9}, "01_ok": {"b": "x"}}))
    res = _run(
        "--params",
        str(params),
        "--notebooks-dir",
        str(nbdir),
        "--output-dir",
        str(out),
        "--failed-dir",
        str(tmp_path / "failed"),
    )
    assert res.returncode == 0, res.stdout + res.stderr
    injected = _injected(out / "01_ok.ipynb")
    assert "a = 5" in injected and 'b = "x"' in injected and "c =" not in injected
    assert _stdout_text(out / "01_ok.ipynb").strip() == "5 x False"
    assert "ignored: c" in res.stdout
    assert _stdout_text(out / "02_defaults.ipynb").strip() == "5 None"
    # executed notebooks carry no timestamps or temp paths
    text = (out / "01_ok.ipynb").read_text()
    assert "start_time" not in text and "output_path" not in text and str(tmp_path) not in text


@pytest.mark.slow
def test_failing_notebook_exits_nonzero_and_leaves_no_partial_output(tmp_path: Path) -> None:
    nbdir = tmp_path / "nbs"
    nbdir.mkdir()
    ok = _write_nb(nbdir / "01_ok.ipynb", "print(a)")
    bad = _write_nb(nbdir / "02_bad.ipynb", "raise ValueError('boom')")
    bad_before = bad.read_bytes()
    res = _run(
        "--params",
        str(paths.REPO_ROOT / "papermill_params" / "sample.yaml"),
        "--notebooks-dir",
        str(nbdir),
        "--in-place",
        "--failed-dir",
        str(tmp_path / "failed"),
    )
    assert res.returncode != 0
    assert "FAIL 02_bad" in res.stdout and "failed: 02_bad" in res.stdout
    assert "ValueError: boom" in res.stdout
    assert bad.read_bytes() == bad_before  # the failing notebook is untouched
    assert sorted(p.name for p in nbdir.iterdir()) == ["01_ok.ipynb", "02_bad.ipynb"]  # no temp files left
    assert _stdout_text(ok).strip() == "1"  # the good one ran in place
    assert (tmp_path / "failed" / "02_bad.ipynb").exists()  # kept for debugging, elsewhere


@pytest.mark.slow
def test_parallel_workers_give_the_same_notebooks_in_the_same_report_order(tmp_path: Path) -> None:
    """--jobs 3 and --jobs 1 write byte-identical notebooks; report lines stay in notebook order
    although the first notebook finishes last; kernels running at once never share sockets."""
    nbdir = tmp_path / "nbs"
    nbdir.mkdir()
    _write_nb(nbdir / "01_slow.ipynb", "import time; time.sleep(3); print(a * 2)")
    _write_nb(nbdir / "02_fast.ipynb", "print(a + 1, b)")
    _write_nb(nbdir / "03_fast.ipynb", "print(sorted({'x': 1, 'y': a}.items()))")
    params = tmp_path / "p.yaml"
    params.write_text(yaml.safe_dump({"default": {"a": 5}}))
    outs = {}
    for jobs in ("1", "3"):
        out = tmp_path / f"out{jobs}"
        res = _run(
            "--params",
            str(params),
            "--notebooks-dir",
            str(nbdir),
            "--output-dir",
            str(out),
            "--failed-dir",
            str(tmp_path / "failed"),
            "--jobs",
            jobs,
        )
        assert res.returncode == 0, res.stdout + res.stderr
        lines = [ln.split()[1] for ln in res.stdout.splitlines() if ln.startswith("ok")]
        assert lines == ["01_slow", "02_fast", "03_fast"]
        outs[jobs] = {p.name: p.read_bytes() for p in out.iterdir()}
    assert outs["1"] == outs["3"]
    assert _stdout_text(tmp_path / "out3" / "01_slow.ipynb").strip() == "10"


@pytest.mark.slow
def test_the_scorecard_notebook_starts_after_all_the_others(tmp_path: Path) -> None:
    """18_scorecard reads what the other notebooks write, so with parallel workers it waits for all of
    them, even for a slow notebook that started before it."""
    nbdir = tmp_path / "nbs"
    nbdir.mkdir()
    marker = tmp_path / "written_by_01"
    _write_nb(
        nbdir / "01_slow.ipynb", f"import time, pathlib; time.sleep(3); pathlib.Path({str(marker)!r}).write_text('x')"
    )
    _write_nb(nbdir / "02_fast.ipynb", "print(a)")
    _write_nb(nbdir / "18_scorecard.ipynb", f"import pathlib; print(pathlib.Path({str(marker)!r}).exists())")
    res = _run(
        "--params",
        str(paths.REPO_ROOT / "papermill_params" / "sample.yaml"),
        "--notebooks-dir",
        str(nbdir),
        "--output-dir",
        str(tmp_path / "out"),
        "--failed-dir",
        str(tmp_path / "failed"),
        "--jobs",
        "2",
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert _stdout_text(tmp_path / "out" / "18_scorecard.ipynb").strip() == "True"


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


def test_longest_notebooks_are_submitted_first_the_rest_in_number_order() -> None:
    names = ["00_index", "01_a", "02_b", "03_main", "05_c", "16_d", "18_scorecard"]
    tasks = [rn.Task(Path(f"{n}.ipynb"), Path("x"), {}, "python3", Path("f"), None, None) for n in names]
    order = [names[i] for i in rn.submission_order(tasks)]
    assert order == ["03_main", "05_c", "16_d", "01_a", "00_index", "02_b", "18_scorecard"]
    assert sorted(order) == sorted(names)


def _fake_run(task):
    """Stand-in for run_task: note whether the shared work was done when the notebook started."""
    (task.dest.parent / f"{task.notebook.stem}.saw").write_text(str((task.dest.parent / "shared_done").exists()))
    return rn.Result(task.notebook.stem, True, 0.0)


def _fake_shared(folder: Path):
    """Stand-in for shared_work: slow, then leaves a marker."""
    import time

    time.sleep(1.0)
    (folder / "shared_done").write_text("x")
    return rn.Result("shared work", True, 1.0)


@pytest.mark.parametrize("jobs", [1, 2])
def test_notebooks_that_read_the_shared_work_start_after_it(tmp_path: Path, monkeypatch, capsys, jobs: int) -> None:
    """03, 10 and 16 are handed out only once the shared work is done (the others may run beside it);
    the report lines stay in notebook order, the shared work's line among them."""
    import functools

    monkeypatch.setattr(rn, "run_task", _fake_run)
    names = ["01_a", "03_main", "05_c", "10_d", "16_e", "17_f"]
    tasks = [rn.Task(Path(f"{n}.ipynb"), tmp_path / f"{n}.ipynb", {}, "python3", tmp_path, None, None) for n in names]
    results = rn.run_tasks(tasks, jobs, False, functools.partial(_fake_shared, tmp_path))
    assert [r.name for r in results] == names
    saw = {n: (tmp_path / f"{n}.saw").read_text() for n in names}
    assert saw["03_main"] == saw["10_d"] == saw["16_e"] == "True"
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split()[1] for ln in lines if not ln.startswith("ok   (")] == names
    assert sum("(shared work" in ln for ln in lines) == 1
    assert rn.shared_for([(Path("05_c.ipynb"), {}, [], {})]) is None  # nothing to share without 03, 10, 16
    only16 = rn.shared_for([(Path("16_d.ipynb"), {}, [], {"data_source": "x", "static_conditions": ["deref"]})])
    assert only16.args == ({"data_source": "x", "static_conditions": ["deref"]}, ("deref",), False)
    both = rn.shared_for(
        [(Path(f"{n}.ipynb"), {}, [], {"static_conditions": ["with_gt", "deref"]}) for n in ("03_a", "16_b")]
    )
    assert both.args[1:] == (("with_gt", "without_gt", "deref"), True)


def test_forked_kernel_command_replaces_only_an_ipykernel_command() -> None:
    cmd = [sys.executable, "-m", "ipykernel_launcher", "-f", "/tmp/k.json"]
    forked = rn.forked_kernel_cmd(cmd, "/tmp/s.sock")
    assert forked[:5] == [sys.executable, "-I", "-S", str(rn.KERNEL_FORK), "launch"]
    assert forked[5:] == ["/tmp/s.sock", "-f", "/tmp/k.json"]
    assert rn.forked_kernel_cmd(cmd, None) == cmd  # no server: the usual launch
    other = ["/usr/bin/R", "--slave", "-f", "/tmp/k.json"]
    assert rn.forked_kernel_cmd(other, "/tmp/s.sock") == other


@pytest.mark.slow
def test_forked_kernels_write_the_same_notebooks_as_fresh_ones(tmp_path: Path) -> None:
    """Kernels forked from the preloaded server (the default) and kernels started the usual way
    (AJB_KERNEL_FORK=0) give byte-identical notebooks (the same outputs for a failing one): same working
    directory, path, argv shape,
    matplotlib backend (a figure left open is shown after its cell), packages, errors."""
    nbdir = tmp_path / "nbs"
    nbdir.mkdir()
    _write_nb(
        nbdir / "01_env.ipynb",
        "import os, sys, pathlib\n"
        "import matplotlib, pandas as pd\n"
        "import matplotlib.pyplot as plt\n"
        "print(pathlib.Path.cwd().name, sys.path.index(''), pathlib.Path(sys.argv[0]).name, matplotlib.get_backend())\n"
        "print('JPY_PARENT_PID' in os.environ, os.environ['MPLBACKEND'], pd.get_option('display.max_columns'))\n"
        "plt.plot([1, 2, 3]); pd.DataFrame({'a': [a, 2]})",
    )
    _write_nb(nbdir / "02_err.ipynb", "import ajb_utils.tables\nprint(a)\n1 / 0")
    params = tmp_path / "p.yaml"
    params.write_text(yaml.safe_dump({"default": {"a": 5}}))
    outs = {}
    for fork in ("1", "0"):
        out, failed = tmp_path / f"out{fork}", tmp_path / f"failed{fork}"
        res = subprocess.run(
            [sys.executable, str(SCRIPT), "--params", str(params), "--notebooks-dir", str(nbdir)]
            + ["--output-dir", str(out), "--failed-dir", str(failed), "--jobs", "2"],
            capture_output=True,
            text=True,
            timeout=300,
            env={**__import__("os").environ, "AJB_KERNEL_FORK": fork},
        )
        assert res.returncode == 1 and "ZeroDivisionError" in res.stdout, res.stdout + res.stderr
        assert "Ctrl-C will not work" not in res.stdout + res.stderr  # the kernel knows its parent
        err = nbformat.read(failed / "02_err.ipynb", as_version=4)  # a failed copy keeps its timings: outputs only
        outs[fork] = (out / "01_env.ipynb").read_bytes(), [c.get("outputs") for c in err.cells]
    assert outs["1"] == outs["0"]
    text = _stdout_text(tmp_path / "out1" / "01_env.ipynb")
    first = text.splitlines()[0].split()
    assert first[0] == "nbs" and first[2:] == ["ipykernel_launcher.py", "module://matplotlib_inline.backend_inline"]
    nb = nbformat.read(tmp_path / "out1" / "01_env.ipynb", as_version=4)
    assert any("image/png" in o.get("data", {}) for o in nb.cells[-1].outputs)
    assert text.splitlines()[1] == "True module://matplotlib_inline.backend_inline 20"  # pandas as in a kernel


@pytest.mark.slow
def test_a_launcher_without_its_server_becomes_a_usual_kernel(tmp_path: Path) -> None:
    """With the kernel server gone, the launcher jupyter_client started is a kernel of its own (the
    usual `python -m ipykernel_launcher`), so a notebook still runs."""
    import os

    from jupyter_client import BlockingKernelClient
    from jupyter_client.connect import write_connection_file

    conn, _ = write_connection_file(str(tmp_path / "k.json"), transport="ipc", ip=str(tmp_path / "kernel"))
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    env = {**os.environ, "AJB_KERNEL_SERVER_PID": dead.stdout.strip()}
    cmd = rn.forked_kernel_cmd([sys.executable, "-m", "ipykernel_launcher", "-f", conn], str(tmp_path / "none.sock"))
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        client = BlockingKernelClient(connection_file=conn)
        client.load_connection_file()
        client.start_channels()
        client.wait_for_ready(timeout=60)
        reply = client.execute_interactive("import sys; x = 6 * 7", timeout=60)
        assert reply["content"]["status"] == "ok"
        assert open(f"/proc/{proc.pid}/cmdline").read().split("\0")[1:3] == ["-m", "ipykernel_launcher"]
        client.shutdown()
        proc.wait(timeout=30)
        client.stop_channels()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "starting the kernel the usual way" in proc.stderr.read()


def _kernel_fork_module():
    spec = importlib.util.spec_from_file_location("kernel_fork", paths.REPO_ROOT / "scripts" / "kernel_fork.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_preloaded_entry_is_the_disk_entry_taken_once(tmp_path: Path, monkeypatch) -> None:
    """The server's preloaded cache entry gives a kernel's first load the frames a disk read gives;
    the next load reads the disk again; without an entry nothing is preloaded (and nothing parsed)."""
    import pandas as pd

    from ajb_utils import cache
    from ajb_utils.data import load_bench

    kf = _kernel_fork_module()
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "empty"))
    original = cache.read_entry
    kf._preload_bench({"source": "sample", "revision": None})  # no entry there: nothing kept, no parse
    assert cache.read_entry is original and not (tmp_path / "empty" / cache.BENCH_DIR).exists()
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "filled"))
    disk = load_bench("sample")  # fills the entry
    monkeypatch.setattr(cache, "read_entry", original)  # restored after the test
    kf._preload_bench({"source": "sample", "revision": None})
    reads = []
    monkeypatch.setattr(cache, "read_frame", lambda *a, _f=cache.read_frame: reads.append(a[1]) or _f(*a))
    first = load_bench("sample")
    assert reads == []  # taken from the preloaded entry
    second = load_bench("sample")
    assert "verdicts" in reads  # read from the disk
    for name in cache.FRAMES:
        pd.testing.assert_frame_equal(getattr(first, name), getattr(disk, name))
        pd.testing.assert_frame_equal(getattr(second, name), getattr(disk, name))
    assert (
        rn.preload_spec([(Path("01.ipynb"), {}, [], {"data_source": "sample"})])
        == '{"source": "sample", "revision": null}'
    )
    assert rn.preload_spec([(Path(f"{n}.ipynb"), {}, [], {"data_source": n}) for n in ("a", "b")]) == ""


@pytest.mark.slow
def test_the_end_save_engine_writes_once_and_the_same_notebook(tmp_path: Path, monkeypatch) -> None:
    """The runner's papermill engine writes no notebook at cells' starts and ends (papermill's engine
    writes two per cell) and the executed notebook is byte-identical to papermill's own engine's."""
    import papermill.engines

    nb = _write_nb(tmp_path / "01_cells.ipynb", "print(a)")
    doc = nbformat.read(nb, as_version=4)
    doc.cells += [new_code_cell("import sys; print('err', file=sys.stderr); a * 2"), new_code_cell("print(b)")]
    nbformat.write(doc, nb)
    writes = []
    monkeypatch.setattr(
        papermill.engines, "write_ipynb", lambda n, p, _w=papermill.engines.write_ipynb: writes.append(p) or _w(n, p)
    )
    ours = rn.execute_one(nb, tmp_path / "ours" / nb.name, {"a": 4}, "python3", tmp_path / "failed", 60)
    assert ours.ok and writes == []
    monkeypatch.setattr(rn, "papermill_engine", lambda: None)  # papermill's default engine
    theirs = rn.execute_one(nb, tmp_path / "theirs" / nb.name, {"a": 4}, "python3", tmp_path / "failed", 60)
    assert theirs.ok and len(writes) >= 2 * len(doc.cells)
    assert (tmp_path / "ours" / nb.name).read_bytes() == (tmp_path / "theirs" / nb.name).read_bytes()
    assert _stdout_text(tmp_path / "ours" / nb.name).split() == ["4", "err", "None"]


@pytest.mark.slow
def test_a_notebook_whose_kernel_dies_fails_and_keeps_what_ran(tmp_path: Path) -> None:
    """A kernel that dies mid-notebook fails the notebook (its destination untouched), and the copy kept
    for debugging holds the outputs of the cells before it (written when the run ended, not per cell)."""
    nb = _write_nb(tmp_path / "01_dies.ipynb", "print('before', a)")
    doc = nbformat.read(nb, as_version=4)
    doc.cells += [new_code_cell("import os; os._exit(3)"), new_code_cell("print('never')")]
    nbformat.write(doc, nb)
    res = rn.execute_one(nb, tmp_path / "out" / nb.name, {}, "python3", tmp_path / "failed", 60)
    assert not res.ok and "Dead" in res.error, res
    assert not (tmp_path / "out").exists()
    kept = _stdout_text(tmp_path / "failed" / nb.name)
    assert "before 1" in kept and "never" not in kept


def _fake_run_slow(task):
    """Stand-in for run_task: mark the start, take a while for 01, fail 02, mark the end."""
    import time

    folder = task.failed_dir
    (folder / f"{task.notebook.stem}.started").write_text("x")
    assert task.html_dir is None  # pages are rendered by jobs of their own
    time.sleep(1.5 if task.notebook.stem.startswith("01") else 0.2)
    (folder / f"{task.notebook.stem}.ended").write_text("x")
    return rn.Result(task.notebook.stem, not task.notebook.stem.startswith("02"), 0.0)


def _fake_render(task):
    """Stand-in for render_task: note which notebooks had started and ended when the page was rendered."""
    folder = task.failed_dir
    seen = sorted(p.name for p in folder.iterdir() if p.suffix in (".started", ".ended"))
    (folder / f"{task.notebook.stem}.page").write_text(" ".join(seen))


def test_pages_are_rendered_once_for_each_notebook_that_ran_and_never_before_a_ready_notebook(
    tmp_path: Path, monkeypatch
) -> None:
    """With workers, every executed notebook gets one page (a failed one none), a page job is handed out
    only when no notebook is ready to start, and the RUN_LAST notebook starts after all the others."""
    monkeypatch.setattr(rn, "run_task", _fake_run_slow)
    monkeypatch.setattr(rn, "render_task", _fake_render)
    names = ["01_slow", "02_bad", "04_a", "05_b", "18_scorecard"]
    tasks = [
        rn.Task(Path(f"{n}.ipynb"), tmp_path / f"{n}.x", {}, "k", tmp_path, None, tmp_path / "html") for n in names
    ]
    results = rn.run_tasks(tasks, 2, False)
    assert [r.name for r in results] == names
    pages = {p.stem: p.read_text().split() for p in tmp_path.glob("*.page")}
    assert sorted(pages) == ["01_slow", "04_a", "05_b", "18_scorecard"]
    for n in ("04_a", "05_b"):  # rendered while 01 runs: every other notebook handed out first
        assert {f"{m}.started" for m in names[:4]} <= set(pages[n])
    assert {f"{m}.ended" for m in names[:4]} <= set(pages["18_scorecard"])


def test_a_page_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch) -> None:
    """render_html writes the page beside its place and renames it: a rendering that fails leaves the
    previous page and no partial file."""
    nb = _write_nb(tmp_path / "01_page.ipynb", "print(1)")
    html = tmp_path / "html"
    page = rn.render_html(nb, html)
    before = page.read_bytes()
    assert b"print" in before
    monkeypatch.setattr(rn, "rewrite_links", lambda *a: "<p>new</p>" * 10_000 + "\ud800")  # fails mid-write
    _write_nb(nb, "print(2)")  # another notebook: its page is rendered again
    with pytest.raises(UnicodeEncodeError):
        rn.render_html(nb, html)
    assert page.read_bytes() == before and sorted(p.name for p in html.iterdir()) == ["01_page.html"]


@pytest.mark.slow
def test_start_on_stdin_runs_the_notebooks_only_after_go(tmp_path: Path) -> None:
    """--start-on-stdin (scripts/reproduce.py) starts the notebooks when 'go' arrives; an end of input
    first (the caller failed) runs nothing, writes nothing and exits 1 without a word."""
    nbdir = tmp_path / "nbs"
    nbdir.mkdir()
    _write_nb(nbdir / "01_ok.ipynb", "print(a)")
    base = [sys.executable, str(SCRIPT), "--params", str(paths.REPO_ROOT / "papermill_params" / "sample.yaml")]
    base += ["--notebooks-dir", str(nbdir), "--failed-dir", str(tmp_path / "failed"), "--jobs", "2"]
    for said, out in (("", tmp_path / "eof"), ("go\n", tmp_path / "go")):
        res = subprocess.run(
            [*base, "--output-dir", str(out), "--start-on-stdin"],
            input=said,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if not said:
            assert res.returncode == 1 and res.stdout == "" and not out.exists(), res.stdout + res.stderr
        else:
            assert res.returncode == 0 and "ok   01_ok" in res.stdout, res.stdout + res.stderr
            assert _stdout_text(out / "01_ok.ipynb").strip() == "1"


def _count_renderings(monkeypatch) -> list[str]:
    """Return the list that every nbconvert HTML rendering from now on appends its notebook's last cell to."""
    from nbconvert import HTMLExporter

    seen: list[str] = []
    real = HTMLExporter.from_notebook_node

    def counted(self, nb, *args, **kwargs):
        seen.append(nb.cells[-1].source)
        return real(self, nb, *args, **kwargs)

    monkeypatch.setattr(HTMLExporter, "from_notebook_node", counted)
    return seen


def test_a_page_made_from_the_same_inputs_is_kept_not_rendered_again(tmp_path: Path, monkeypatch) -> None:
    """render_html keeps a page whose notebook bytes, folders, renderer versions and code are those it was
    made from (the key at its end), and renders it again when any of them changes or the key is missing."""
    nb = _write_nb(tmp_path / "01_page.ipynb", "print(1)")
    html = tmp_path / "html"
    seen = _count_renderings(monkeypatch)
    page = rn.render_html(nb, html)
    first = page.read_bytes()
    assert first.rstrip().endswith(b"-->") and rn.PAGE_KEY_MARK.encode() in first[-300:]
    assert rn.render_html(nb, html) == page and page.read_bytes() == first and seen == ["print(1)"]
    _write_nb(nb, "print(2)")  # the notebook changed
    rn.render_html(nb, html)
    assert seen == ["print(1)", "print(2)"] and b"print" in page.read_bytes() and page.read_bytes() != first
    rn.render_html(nb, tmp_path / "other_html")  # another folder: links are relative to it
    rn.render_html(nb, html, source_dir=tmp_path / "elsewhere")  # links written for another folder
    assert len(seen) == 4
    page.write_bytes(page.read_bytes().rsplit(rn.PAGE_KEY_MARK.encode(), 1)[0])  # a page without its key
    rn.render_html(nb, html)
    assert len(seen) == 5
    import importlib.metadata

    real_version = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version", lambda n: "0.0" if n == "nbconvert" else real_version(n))
    rn.render_html(nb, html)  # another nbconvert
    assert len(seen) == 6
    assert rn.page_key(nb, html, nb.parent) != rn.page_key(nb, html, tmp_path / "elsewhere")


def test_nbconvert_is_preloaded_only_when_some_page_is_to_be_rendered(tmp_path: Path) -> None:
    """pages_to_render: False when every task's page is current for its notebook as it is now, True when
    one is missing or was made from other bytes."""
    html = tmp_path / "html"
    tasks = []
    for n in ("01_a", "02_b"):
        nb = _write_nb(tmp_path / f"{n}.ipynb", f"print({n!r})")
        tasks.append(rn.Task(nb, nb, {}, "k", tmp_path, None, html))
    assert rn.pages_to_render(tasks)
    for t in tasks:
        rn.render_html(t.dest, html, source_dir=t.notebook.parent)
    assert not rn.pages_to_render(tasks)
    assert not rn.pages_to_render([dataclasses.replace(t, html_dir=None) for t in tasks])
    _write_nb(tasks[1].dest, "print(3)")
    assert rn.pages_to_render(tasks)


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="POSIX scheduling priorities")
def test_the_sample_check_runs_at_a_lower_priority(tmp_path: Path) -> None:
    """reproduce.py's sample rebuild (whose verdict is printed last) runs SAMPLE_CHECK_NICENESS below the
    command itself, so the load and the notebooks get the cores first."""
    reproduce = load_script("reproduce")
    proc = reproduce.start_verify_sample(tmp_path)
    try:
        own = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, proc.pid) == min(19, own + reproduce.SAMPLE_CHECK_NICENESS)
    finally:
        proc.kill()
        proc.communicate()
