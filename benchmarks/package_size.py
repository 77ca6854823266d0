"""Print the sizes issues 35 and 51 set targets for: lines per package, the data layer's lines
(ajb_utils/data/, cache.py, calls.py), notebook code lines, their ratio, and the functions of
ajb_utils over 60 lines.

    python benchmarks/package_size.py

Lines are physical lines of the .py files (tests folders left out); notebook code lines are the
non-blank source lines of the code cells of notebooks/*.ipynb.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ajb_utils", "ajb_run", "ajb_verify", "ajb_judge", "ajb_sample", "scripts")
LONG = 60
DATA_LAYER = ("ajb_utils/data", "ajb_utils/cache.py", "ajb_utils/calls.py")


def py_files(folder: Path) -> list[Path]:
    """Return the .py files under `folder`, tests folders left out."""
    return sorted(p for p in folder.rglob("*.py") if "tests" not in p.relative_to(ROOT).parts)


def lines(folder: Path) -> int:
    """Return the physical lines of the package's .py files."""
    return sum(len(p.read_text().splitlines()) for p in py_files(folder))


def notebook_code_lines(folder: Path) -> int:
    """Return the non-blank source lines of every code cell of the notebooks in `folder`."""
    total = 0
    for nb in sorted(folder.glob("*.ipynb")):
        for cell in json.loads(nb.read_text())["cells"]:
            if cell["cell_type"] == "code":
                total += sum(1 for line in "".join(cell["source"]).splitlines() if line.strip())
    return total


def long_functions(folder: Path, limit: int = LONG) -> list[tuple[str, int]]:
    """Return (file:function, lines) of every function over `limit` lines."""
    out = []
    for p in py_files(folder):
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > limit:
                    out.append((f"{p.relative_to(ROOT)}:{node.name}", n))
    return out


def main() -> None:
    """Print the table."""
    sizes = {name: lines(ROOT / name) for name in PACKAGES if (ROOT / name).is_dir()}
    code = notebook_code_lines(ROOT / "notebooks")
    for name, n in sizes.items():
        print(f"{name:<12} {n:>7,} lines")
    print(f"{'all':<12} {sum(sizes.values()):>7,} lines")
    layer = [f for part in DATA_LAYER for f in ([ROOT / part] if part.endswith(".py") else py_files(ROOT / part))]
    print(f"data layer ({', '.join(DATA_LAYER)}): {sum(len(f.read_text().splitlines()) for f in layer):,} lines")
    print(f"notebook code lines: {code:,}; ajb_utils : notebook code = {sizes['ajb_utils'] / code:.1f}x")
    long = long_functions(ROOT / "ajb_utils")
    print(f"functions over {LONG} lines in ajb_utils: {len(long)}")
    for where, n in long:
        print(f"  {where} {n}")


if __name__ == "__main__":
    main()
