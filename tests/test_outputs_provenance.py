"""Where outputs go and what made them: folders as a function of the parameters, PROVENANCE.json,
one parameters cell per notebook with each parameter once, HTML links that resolve, and a
non-default parameter run that leaves every committed file untouched."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pandas as pd
import pytest
import yaml

from ajb_utils import parameters, paths, provenance
from report_pages import broken_links
from script_modules import load_script
from test_readme import repo_copy

ROOT = paths.REPO_ROOT
NOTEBOOKS = sorted(paths.NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))


rn = load_script("run_notebooks")


def parameter_cells(nb_path: Path) -> list[str]:
    """Return the sources of the cells tagged `parameters`."""
    nb = nbformat.read(nb_path, as_version=4)
    return [c.source for c in nb.cells if "parameters" in c.metadata.get("tags", [])]


def repeated_parameters(source: str) -> list[str]:
    """Return the names a parameters cell assigns more than once."""
    names = [
        t.id
        for node in ast.parse(source).body
        for t in (node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)])
        if isinstance(t, ast.Name)
    ]
    return sorted({n for n in names if names.count(n) > 1})


# ---- folders ---------------------------------------------------------------------------------
def test_default_parameters_write_the_label_folder() -> None:
    defaults = {"data_source": "sample", "revision": None, "out_dir": None, **provenance.DEFAULT_PARAMETERS}
    assert provenance.output_folder_name("sample", defaults) == "sample"
    assert provenance.output_folder_name("hf", {"data_source": "hf", "seed": 20260826}) == "hf"
    assert provenance.parameter_tag({"concurrency": 2}) == ""  # speed never names a folder


def test_other_parameters_get_their_own_folder(monkeypatch) -> None:
    monkeypatch.delenv(provenance.PARAMS_NAME_ENV, raising=False)
    changed = {"n_bootstrap": 200, "seed": 7}
    expected = "p" + hashlib.sha256(json.dumps(changed, sort_keys=True).encode()).hexdigest()[:8]
    assert provenance.parameter_tag({"seed": 7, "n_bootstrap": 200, "missing": "authors"}) == expected
    assert provenance.output_folder_name("sample", {"n_bootstrap": 200, "seed": 7}) == f"sample-{expected}"
    assert provenance.output_folder_name("sample", {"seed": 7}, "my params") == "sample-my_params"
    assert provenance.parameter_tag({"seed": 7}) != provenance.parameter_tag({"seed": 8})
    assert provenance.parameter_tag({"temperature": 0}) == ""  # 0 == 0.0, the default
    assert provenance.parameter_tag({"limit": 0}) != ""  # 0 is not None


def test_run_parameters_takes_plain_values_only() -> None:
    import ajb_utils.tables.anchoring as module

    ns = {"seed": 3, "anchoring": module, "data_source": "sample", "bench": object(), "n_cases": 2}
    assert provenance.run_parameters(ns) == {"data_source": "sample", "seed": 3, "n_cases": 2}


def test_provenance_records_parameters_and_runs(tmp_path) -> None:
    judges = pd.DataFrame({"judge": ["judge_qwq_32b", "my_run"], "origin": ["release", "run"]})
    bench = SimpleNamespace(
        source=str(ROOT / "data" / "sample"), revision="r1", label="sample", synthetic=True, judges=judges
    )
    out = provenance.output_dir("sample", tmp_path / "o")
    provenance.write_provenance(bench, out, params={"seed": 7, "out_dir": "x"})
    rec = json.loads((out / "PROVENANCE.json").read_text())
    assert rec["parameters"] == {"seed": 7}
    assert rec["runs"] == ["my_run"] and rec["revision"] == "r1" and rec["ajb_utils"]
    assert rec["source"] == "data/sample"  # never a machine's absolute path
    provenance.write_provenance(bench, out, params={"n_bootstrap": 50})
    rec = json.loads((out / "PROVENANCE.json").read_text())
    assert rec["parameters"] == {"n_bootstrap": 50, "seed": 7}  # notebooks of one folder merge
    assert "hub_endpoint" not in rec  # a local folder has no hub


def test_provenance_records_the_hub_endpoint_beside_the_commit(monkeypatch) -> None:
    """A commit names data only together with the hub that has it: HF_ENDPOINT (a mirror), else the public hub."""
    bench = SimpleNamespace(source="ServiceNow-AI/AgentJudgeBench", revision="13ac79a" * 5, label="hf", synthetic=False)
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    assert provenance.provenance_record(bench)["hub_endpoint"] == "https://huggingface.co"
    monkeypatch.setenv("HF_ENDPOINT", "https://hf-mirror.example/")
    rec = provenance.provenance_record(bench)
    assert (rec["hub_endpoint"], rec["revision"]) == ("https://hf-mirror.example", "13ac79a" * 5)
    for local in ("sample", str(ROOT / "data" / "sample")):  # the committed figures/sample/ record has none
        assert "hub_endpoint" not in provenance.provenance_record(SimpleNamespace(**{**vars(bench), "source": local}))


# ---- notebooks' parameters cells -------------------------------------------------------------
def test_repeat_detector_finds_a_repeat() -> None:
    assert repeated_parameters("a: int = 1\nb = 2\na: int = 1\n") == ["a"]
    assert repeated_parameters("a: int = 1\nb = 2\n") == []


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.stem)
def test_one_parameters_cell_each_parameter_once(nb_path: Path) -> None:
    cells = parameter_cells(nb_path)
    assert len(cells) == 1, f"{nb_path.name}: {len(cells)} parameters cells"
    assert repeated_parameters(cells[0]) == []


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_defaults_are_the_registered_defaults(nb_path: Path) -> None:
    """The folder rule (defaults -> figures/<label>/) holds only if both agree."""
    defaults = rn.default_values(parameter_cells(nb_path)[0])
    names = parameters.assigned_names(parameter_cells(nb_path)[0]) - set(provenance.LOCATION_PARAMETERS)
    assert names <= set(provenance.DEFAULT_PARAMETERS), names - set(provenance.DEFAULT_PARAMETERS)
    for name in names:
        assert defaults[name] == provenance.DEFAULT_PARAMETERS[name], (nb_path.name, name)


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.stem)
def test_outputs_folder_follows_the_parameters(nb_path: Path) -> None:
    text = "\n".join(c.source for c in nbformat.read(nb_path, as_version=4).cells if c.cell_type == "code")
    calls = text.count("provenance.output_dir(") if "load_bench(" in text else 0  # 00 loads no data
    assert (
        text.count("provenance.output_dir(bench.label, out_dir, params)")
        + text.count("provenance.output_dir(items.label, out_dir, params)")
        >= calls
    )
    assert text.count("params = provenance.run_parameters(globals())") >= calls  # checked before any file
    assert text.count("provenance.write_provenance(") >= calls
    assert "keep them out of the parameters cell" not in nb_path.read_text(encoding="utf-8")


# ---- HTML ------------------------------------------------------------------------------------
def test_rewrite_link() -> None:
    nbdir, html = paths.NOTEBOOKS_DIR, paths.FIGURES_DIR / "sample" / "html"
    assert rn.rewrite_link("03_main_results.ipynb", nbdir, html) == "03_main_results.html"
    assert rn.rewrite_link("03_main_results.ipynb#table-2", nbdir, html) == "03_main_results.html#table-2"
    assert rn.rewrite_link("../figures/sample/T02_main_alignment.csv", nbdir, html) == "../T02_main_alignment.csv"
    assert rn.rewrite_link("https://arxiv.org/abs/2608.26623", nbdir, html) == "https://arxiv.org/abs/2608.26623"
    assert rn.rewrite_link("#top", nbdir, html) == "#top"


def test_broken_link_is_reported(tmp_path) -> None:
    page = tmp_path / "p.html"
    page.write_text('<a href="missing.csv">x</a><a href="https://example.org">y</a><img src="p.html">')
    assert broken_links(page) == ["missing.csv"]


# ---- a non-default run -----------------------------------------------------------------------
def _file_state(root: Path, allowed: tuple[str, ...]) -> dict[str, str]:
    """Return {path: SHA-256} of every file under `root`, except those under the `allowed` folders."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.relative_to(root).as_posix().startswith(allowed)
    }


@pytest.mark.slow
def test_non_default_run_changes_no_committed_file(tmp_path) -> None:
    """The README's rerun with other settings (here through a parameter file, --in-place and all)
    writes to figures/sample-<file>/ (and its executed copies to figures/_scratch/) and leaves every
    other file as it was; in a copy of the repository, so the checkout's figures/ stay untouched."""
    root = repo_copy(tmp_path / "repo")
    params = tmp_path / "fewer_resamples.yaml"
    params.write_text(yaml.safe_dump({"default": {"data_source": "sample", "seed": 7, "n_bootstrap": 50}}))
    folder, scratch = root / "figures" / "sample-fewer_resamples", root / "figures" / "_scratch"
    allowed = (f"{folder.relative_to(root).as_posix()}/", f"{scratch.relative_to(root).as_posix()}/")
    before = _file_state(root, allowed)
    proc = subprocess.run(
        [
            sys.executable,
            "scripts/run_notebooks.py",
            "--params",
            str(params),
            "--only",
            "00",
            "13",
            "--in-place",
            "--html",
        ],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _file_state(root, allowed) == before
    rec = json.loads((folder / "PROVENANCE.json").read_text())
    assert rec["parameters"]["seed"] == 7 and rec["source"] == "sample"
    assert "sample-fewer_resamples/html/00_index.html" in proc.stdout  # the end summary says where
    assert "KeyboardInterrupt" not in proc.stderr
    copies = sorted((scratch / "notebooks" / "sample-fewer_resamples").glob("*.ipynb"))
    assert [nb.name[:2] for nb in copies] == ["00", "13"]
    for nb in copies:
        assert nb.stat().st_mode & 0o044 == 0o044  # readable by group and others, like any file


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")
def test_index_renders_in_headless_chromium(tmp_path) -> None:
    """The rendered index opens in a real browser from the file system and shows a page (not blank)."""
    from PIL import Image

    html = tmp_path / "html"
    rn.render_html(paths.NOTEBOOKS_DIR / "00_index.ipynb", html)
    shot = tmp_path / "index.png"
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--window-size=1200,900",
        f"--screenshot={shot}",
    ]
    subprocess.run(["chromium", *flags, (html / "00_index.html").as_uri()], capture_output=True, timeout=120)
    assert shot.exists()
    img = Image.open(shot).convert("L")
    lo, hi = img.getextrema()
    assert hi - lo > 100  # text on a page, not a blank or an error colour


def test_license_citation_and_changelog() -> None:
    """LICENSE is the Apache-2.0 text pyproject names; CITATION.cff cites the paper with the README's authors."""
    import tomllib

    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"] == "Apache-2.0"
    assert "Apache License" in license_text and "Version 2.0, January 2004" in license_text
    assert "END OF TERMS AND CONDITIONS" in license_text
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0" and cff["license"] == "Apache-2.0"
    paper = cff["preferred-citation"]
    assert "2608.26623" in paper["url"] and paper["title"].startswith("AgentJudgeBench")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for a in paper["authors"]:
        assert f"{a['family-names']}, {a['given-names']}" in readme  # the README's BibTeX
    assert (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").startswith("# Changelog")


def test_provenance_imports_without_fcntl() -> None:
    """provenance locks PROVENANCE.json with filelock, so the package imports on Windows (no fcntl)."""
    code = "import sys; sys.modules['fcntl'] = None; import ajb_utils.provenance, ajb_utils.data; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "ok", out.stderr
