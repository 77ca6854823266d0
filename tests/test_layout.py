"""The house's rules, checked from the code: explicit exports without collisions, imports at the top,
no shims for the package's own modules, tables that only read frames, one-way imports."""

from __future__ import annotations

import ast
import collections
from pathlib import Path

import pytest

import ajb_verify as verify
from ajb_utils import figures, stats, tables
from ajb_utils.paths import REPO_ROOT

PKG = REPO_ROOT / "ajb_utils"
MODULES = sorted(p for p in PKG.rglob("*.py"))


def _tree(path: Path) -> ast.Module:
    """Return the parsed module."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _public_defs(path: Path) -> set[str]:
    """Return the public top-level functions and constants a module defines."""
    names = set()
    for n in _tree(path).body:
        if isinstance(n, ast.FunctionDef | ast.ClassDef) and not n.name.startswith("_"):
            names.add(n.name)
        elif isinstance(n, ast.Assign | ast.AnnAssign):
            t = n.targets[0] if isinstance(n, ast.Assign) else n.target
            if isinstance(t, ast.Name) and not t.id.startswith("_") and t.id != "__all__":
                names.add(t.id)
    return names


@pytest.mark.parametrize("pkg", [tables, figures, stats, verify], ids=["tables", "figures", "stats", "verify"])
def test_section_exports_do_not_collide(pkg) -> None:
    """No name is exported by two section modules (a star import would silently shadow one)."""
    count = collections.Counter(n for m in pkg.SECTIONS for n in m.__all__)
    assert [n for n, c in count.items() if c > 1] == []
    assert all(getattr(pkg, n) is getattr(m, n) for m in pkg.SECTIONS for n in m.__all__)


@pytest.mark.parametrize("pkg", [tables, figures, stats, verify], ids=["tables", "figures", "stats", "verify"])
def test_section_definitions_do_not_collide(pkg) -> None:
    """Each module exports only what it defines, and no public name is defined in two section modules."""
    count: collections.Counter = collections.Counter()
    for m in pkg.SECTIONS:
        defined = _public_defs(Path(m.__file__))
        assert set(m.__all__) <= defined, m.__name__
        count.update(defined)
    assert [n for n, c in count.items() if c > 1] == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PKG)))
def test_imports_sit_at_the_top(path: Path) -> None:
    """No module-level import after the first definition (no mid-file imports), no try/except ImportError
    shim around the package's own modules."""
    body = _tree(path).body
    first_def = next((i for i, n in enumerate(body) if isinstance(n, ast.FunctionDef | ast.ClassDef)), len(body))
    late = [n.lineno for n in body[first_def:] if isinstance(n, ast.Import | ast.ImportFrom)]
    assert late == [], f"imports after the first definition at lines {late}"
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Try) and any(
            isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError") for h in node.handlers
        ):
            own = [
                n for n in ast.walk(node) if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("ajb_utils")
            ]
            assert own == [], f"import shim for the package's own module at line {node.lineno}"


def _imports(path: Path) -> set[str]:
    """Return the ajb_utils modules a file imports (anywhere in it)."""
    out = set()
    for n in ast.walk(_tree(path)):
        if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("ajb_utils"):
            out.add(n.module)
            out.update(f"{n.module}.{a.name}" for a in n.names)
        elif isinstance(n, ast.Import):
            out.update(a.name for a in n.names if a.name.startswith("ajb_utils"))
    return out


SIBLINGS = ("ajb_judge", "ajb_sample", "ajb_verify", "ajb_run")


def _sibling_imports(path: Path) -> set[str]:
    """Return the sibling packages (runner, sample, verification) a file imports, anywhere in it."""
    out = set()
    for n in ast.walk(_tree(path)):
        names = [n.module or ""] if isinstance(n, ast.ImportFrom) else [a.name for a in getattr(n, "names", [])]
        if isinstance(n, ast.Import | ast.ImportFrom):
            out.update(x.split(".")[0] for x in names if x.split(".")[0] in SIBLINGS)
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PKG)))
def test_the_analysis_never_imports_its_siblings(path: Path) -> None:
    """ajb_utils (the analysis) imports none of the runner, the sample generator or the verification:
    they stand on it, never the reverse."""
    assert _sibling_imports(path) == set()


def test_the_sibling_check_can_fail(tmp_path: Path) -> None:
    """The check above sees an import of a sibling, top-level or inside a function."""
    f = tmp_path / "m.py"
    f.write_text("import os\n\ndef g():\n    from ajb_verify.engine import verdict\n    import ajb_judge as j\n")
    assert _sibling_imports(f) == {"ajb_verify", "ajb_judge"}


@pytest.mark.parametrize("ground", ["schema", "paths", "calls"])
def test_ground_floor_imports_nothing_above(ground: str) -> None:
    """The ground floor imports only the ground floor."""
    allowed = {"ajb_utils", "ajb_utils.schema", "ajb_utils.paths", "ajb_utils.calls"}
    mods = {m.split(".")[0] + "." + m.split(".")[1] if m.count(".") else m for m in _imports(PKG / f"{ground}.py")}
    assert mods <= allowed | {f"ajb_utils.{x}" for x in ("schema", "paths", "calls")}, mods
