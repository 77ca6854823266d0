"""pyproject.toml and environment.yml declare the same dependencies."""

from __future__ import annotations

import re
import tomllib

import yaml

from ajb_utils.paths import REPO_ROOT

CONDA_NAMES = {"python-xxhash": "xxhash", "python-duckdb": "duckdb"}  # conda-forge name -> the pip name it installs


def _name(spec: str) -> str:
    """Return the normalised package name of a requirement string."""
    name = re.split(r"[<>=!~ \[]", spec.strip(), maxsplit=1)[0].lower().replace("_", "-")
    return CONDA_NAMES.get(name, name)


def test_environment_yml_matches_pyproject() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    py = {_name(s) for s in project["dependencies"]}  # ajb_utils[judge] in dev names the extra below
    for group in ("judge", "dev", "bench"):
        py |= {_name(s) for s in project["optional-dependencies"][group]}
    py.discard("ajb-utils")  # dev = ajb_utils[judge]: the project itself, with the runner extra
    env = yaml.safe_load((REPO_ROOT / "environment.yml").read_text())
    conda = {_name(s) for s in env["dependencies"] if isinstance(s, str)} - {"python", "pip"}
    assert py == conda, f"only in pyproject: {py - conda}; only in environment.yml: {conda - py}"


def test_python_version_pinned_alike() -> None:
    env = yaml.safe_load((REPO_ROOT / "environment.yml").read_text())
    assert "python=3.11" in env["dependencies"]
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.11"
