"""The HTML pages are rendered by the runner's own process, one exporter for all, a page for each
notebook that ran OK and none for one that failed; the main command's sample check compares what
its generator made (it runs beside the build)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from ajb_utils import paths
from script_modules import load_script

rn = load_script("run_notebooks")
reproduce = load_script("reproduce")


def _fake_run(task):
    """Stand-in for run_task: writes an executed notebook to task.dest, except for a name with 'fail'."""
    if "fail" in task.notebook.stem:
        return rn.Result(task.notebook.stem, False, 0.0, "ValueError: boom")
    nb = new_notebook(cells=[new_markdown_cell(f"# {task.notebook.stem}"), new_code_cell("1 + 1")])
    task.dest.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, task.dest)
    return rn.Result(task.notebook.stem, True, 0.0)


def test_a_page_for_every_notebook_that_ran_ok_none_for_a_failure(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(rn, "run_task", _fake_run)
    html = tmp_path / "html"
    names = ["01_a", "02_fail", "03_c", "18_scorecard"]
    tasks = [rn.Task(Path(f"{n}.ipynb"), tmp_path / "nbs" / f"{n}.ipynb", {}, tmp_path, html) for n in names]
    results = rn.run_tasks(tasks, 2)
    assert [(r.name, r.ok) for r in results] == [
        ("01_a", True),
        ("02_fail", False),
        ("03_c", True),
        ("18_scorecard", True),
    ]
    assert sorted(p.name for p in html.iterdir()) == ["01_a.html", "03_c.html", "18_scorecard.html"]
    assert "18_scorecard" in (html / "18_scorecard.html").read_text(encoding="utf-8")


def test_no_page_without_an_html_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(rn, "run_task", _fake_run)
    tasks = [rn.Task(Path("01_a.ipynb"), tmp_path / "nbs" / "01_a.ipynb", {}, tmp_path)]
    assert [r.ok for r in rn.run_tasks(tasks, 1)] == [True]
    assert sorted(p.name for p in tmp_path.rglob("*.html")) == []


def _made(tmp_path: Path) -> Path:
    """Return a copy of data/sample as if the generator had written it."""
    import shutil

    out = tmp_path / "made"
    shutil.copytree(paths.SAMPLE_DIR, out)
    return out


def test_the_sample_comparison_names_what_differs(tmp_path: Path) -> None:
    done = subprocess.Popen([sys.executable, "-c", "pass"], stdout=subprocess.PIPE, text=True)
    out = _made(tmp_path)
    assert reproduce.compare_sample(done, out) == []
    changed = next(p for p in sorted(out.rglob("*.jsonl")))
    changed.write_bytes(changed.read_bytes() + b"\n")
    (out / "extra.txt").write_text("x")
    done = subprocess.Popen([sys.executable, "-c", "pass"], stdout=subprocess.PIPE, text=True)
    rel = changed.relative_to(out)
    assert reproduce.compare_sample(done, out) == [f"differs: {rel}", "missing from data/sample: extra.txt"]


def test_a_failing_generator_is_a_difference(tmp_path: Path) -> None:
    failed = subprocess.Popen(
        [sys.executable, "-c", "import sys; print('no disk'); sys.exit(1)"], stdout=subprocess.PIPE, text=True
    )
    assert reproduce.compare_sample(failed, tmp_path) == ["the generator failed: no disk"]
