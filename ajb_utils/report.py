"""Notebook plumbing: data banner, output folder, tables on disk, claim checks, environment report.

Every text this module prints is machine-independent (repo-relative paths, no timestamps, no
memory addresses), so committed notebook outputs stay stable under nbval.

Usage in a notebook::

    out = report.output_dir(bench.label, out_dir)
    display(report.banner(bench.label, synthetic=True))
    report.write_table(t02, "T02", "main_alignment", out, caption="Alignment (%)", float_format="%.1f")
    report.show(report.checks_table([("monotone in difficulty", "30/30", "30/30", True)]))
"""

from __future__ import annotations

import json

import importlib.metadata
import os
import platform
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ajb_utils import paths, schema

SYNTHETIC_LINE: str = "SYNTHETIC SAMPLE — numbers are not the paper's"
ENV_PACKAGES: list[str] = [
    "numpy", "pandas", "scipy", "matplotlib", "seaborn", "datasets", "papermill",
]
CHECK_COLUMNS: list[str] = ["claim", "paper value", "reproduced value", "holds"]


class WrittenFiles(list):
    """A list of written Paths whose repr shows repo-relative paths (stable notebook output)."""

    def __repr__(self) -> str:
        """Return one 'wrote <relpath>' line per file."""
        return "\n".join(f"wrote {paths.relpath(p)}" for p in self) or "wrote nothing"

    __str__ = __repr__


# ---- data source -------------------------------------------------------------------------
def data_label(data_source: str) -> str:
    """Return the output-folder label of a data source: 'sample', 'hf', or a local mirror's folder name."""
    if data_source in ("sample", "hf"):
        return data_source
    if data_source == schema.HF_REPO_ID:
        return "hf"
    return Path(data_source).name or "local"


def banner_text(label: str, synthetic: bool, source: str | None = None, revision: str | None = None) -> str:
    """Return the one-line Markdown banner naming the data a notebook ran on."""
    if source and os.path.isabs(str(source)):
        source = paths.relpath(source)  # never print a machine's absolute path
    where = f" · source `{source}`" if source else ""
    rev = f" · revision `{revision}`" if revision else ""
    if synthetic:
        return (f"**⚠️ {SYNTHETIC_LINE}.** Data: `{label}`{where}{rev} — "
                f"run with `data_source=\"hf\"` for the released data.")
    return f"**Data: `{label}`**{where}{rev} — released AgentJudgeBench data."


def banner(label: str, synthetic: bool, source: str | None = None, revision: str | None = None) -> Any:
    """Return an IPython Markdown banner for the top of a notebook (unmistakable when synthetic)."""
    from IPython.display import Markdown

    return Markdown(banner_text(label, synthetic, source, revision))


def is_synthetic(bench: Any) -> bool:
    """Return True when a Bench holds synthetic data (its `synthetic` flag, a synthetic judge, or label 'sample')."""
    flag = getattr(bench, "synthetic", None)
    if flag is not None:
        return bool(flag)
    judges = getattr(bench, "judges", None)
    if isinstance(judges, pd.DataFrame) and "synthetic" in judges and len(judges):
        if judges["synthetic"].fillna(False).astype(bool).any():
            return True
    return getattr(bench, "label", "") == "sample"


def bench_banner(bench: Any) -> Any:
    """Return the banner for a loaded Bench (label, source, revision, synthetic flag read from it)."""
    return banner(bench.label, is_synthetic(bench), getattr(bench, "source", None), getattr(bench, "revision", None))


def output_dir(data_label: str, out_dir: str | Path | None = None, bench: Any = None) -> Path:
    """Return (and create) where outputs go: `out_dir` (relative = to the repo root) or figures/<label>/.

    Given the `bench`, also write PROVENANCE.json there (source, revision, synthetic flag), so
    every table and figure in the folder can be traced to the data that made it.
    """
    if out_dir is None or str(out_dir) == "":
        p = paths.figures_dir(data_label)
    else:
        p = Path(out_dir)
        p = p if p.is_absolute() else paths.REPO_ROOT / p
        p.mkdir(parents=True, exist_ok=True)
    if bench is not None:
        write_provenance(bench, p)
    return p


def write_provenance(bench: Any, out: Path) -> Path:
    """Return the path of PROVENANCE.json written (atomically, deterministically) for `bench`."""
    from ajb_utils import __version__
    record = {"source": str(bench.source), "revision": bench.revision, "label": bench.label,
              "synthetic": bool(bench.synthetic), "ajb_utils": __version__,
              "note": SYNTHETIC_NOTE if bench.synthetic else "released data"}
    path = Path(out) / "PROVENANCE.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


# ---- tables --------------------------------------------------------------------------------
def _formatter(float_format: str | Callable[[float], str] | None) -> Callable[[Any], str] | None:
    """Return a cell formatter applying '%.1f', '{:.1f}' or a callable to floats only (None: pandas' default)."""
    if float_format is None:
        return None
    if callable(float_format):
        fmt = float_format
    elif "%" in float_format and "{" not in float_format:
        fmt = lambda x: float_format % x  # noqa: E731
    else:
        fmt = float_format.format
    return lambda x: fmt(x) if isinstance(x, (float, np.floating)) else str(x)


def latex_table(
    df: pd.DataFrame,
    caption: str | None = None,
    label: str | None = None,
    float_format: str | Callable[[float], str] | None = "%.1f",
    index: bool | None = None,
) -> str:
    """Return a booktabs LaTeX table (\\toprule/\\midrule/\\bottomrule) for a DataFrame."""
    show_index = index if index is not None else not isinstance(df.index, pd.RangeIndex)
    styler = df.style.format(formatter=_formatter(float_format), na_rep="--", escape="latex")
    styler = styler.format_index(escape="latex", axis=0).format_index(escape="latex", axis=1)
    if not show_index:
        styler = styler.hide(axis="index")
    return styler.to_latex(
        caption=caption,
        label=label,
        hrules=True,
        position_float="centering",
        multicol_align="c",
        multirow_align="t",
        clines=None,
    )


def table_paths(artifact_id: str, name: str, out_dir: Path | str) -> list[Path]:
    """Return the CSV and .tex paths `write_table` writes: <out_dir>/<artifact_id>_<name>.{csv,tex}."""
    stem = f"{artifact_id}_{name}" if name else artifact_id
    return [Path(out_dir) / f"{stem}.csv", Path(out_dir) / f"{stem}.tex"]


SYNTHETIC_NOTE = "Synthetic sample data (ajb_utils.sample): numbers are not the paper's."


def is_synthetic_dir(out_dir: Path | str) -> bool:
    """Return True when `out_dir` holds outputs of synthetic data: its PROVENANCE.json says so
    (written by `output_dir`), or, without one, it is the sample's folder (figures/sample)."""
    prov = Path(out_dir) / "PROVENANCE.json"
    if prov.exists():
        try:
            return bool(json.loads(prov.read_text(encoding="utf-8")).get("synthetic"))
        except (ValueError, OSError):
            pass
    return Path(out_dir).name == "sample"


def write_table(
    df: pd.DataFrame,
    artifact_id: str,
    name: str,
    out_dir: Path | str,
    caption: str | None = None,
    float_format: str | Callable[[float], str] | None = "%.1f",
    index: bool | None = None,
    csv_float_format: str = "%.10g",
) -> WrittenFiles:
    """Return the written [CSV, .tex] paths after writing `df` (CSV full precision, LaTeX booktabs)."""
    csv, tex = table_paths(artifact_id, name, out_dir)
    csv.parent.mkdir(parents=True, exist_ok=True)
    show_index = index if index is not None else not isinstance(df.index, pd.RangeIndex)
    df.to_csv(csv, index=show_index, float_format=csv_float_format, lineterminator="\n")
    synthetic = is_synthetic_dir(out_dir)
    if synthetic and caption:
        caption = f"{caption} [{SYNTHETIC_NOTE}]"
    body = latex_table(df, caption=caption, label=f"tab:{artifact_id}", float_format=float_format,
                       index=show_index)
    note = f"% {SYNTHETIC_NOTE}\n" if synthetic else ""
    tex.write_text(f"% {artifact_id}: generated by ajb_utils.report.write_table\n{note}{body}",
                   encoding="utf-8")
    return WrittenFiles([csv, tex])


# ---- claim checks ----------------------------------------------------------------------------
def _yes_no(holds: Any) -> str:
    """Return 'yes' / 'no' for a truthy / falsy verdict and 'n/a' for None or NaN."""
    if holds is None or (isinstance(holds, float) and holds != holds):
        return "n/a"
    if isinstance(holds, str):
        return holds
    return "yes" if bool(holds) else "no"


def checks_table(rows: Iterable[Mapping[str, Any] | Sequence[Any]]) -> pd.DataFrame:
    """Return a claim-check table (claim, paper value, reproduced value, holds yes/no[, note]).

    Each row is a tuple `(claim, paper, reproduced, holds[, note])` or a mapping with those keys
    (`paper`/`paper value`, `reproduced`/`reproduced value`).
    """
    out = []
    for r in rows:
        if isinstance(r, Mapping):
            rec = {
                "claim": r["claim"],
                "paper value": r.get("paper", r.get("paper value")),
                "reproduced value": r.get("reproduced", r.get("reproduced value")),
                "holds": r.get("holds"),
                "note": r.get("note", ""),
            }
        else:
            vals = list(r) + [""] * (5 - len(r))
            rec = dict(zip([*CHECK_COLUMNS, "note"], vals[:5]))
        rec["holds"] = _yes_no(rec["holds"])
        out.append(rec)
    df = pd.DataFrame(out, columns=[*CHECK_COLUMNS, "note"])
    if (df["note"].fillna("") == "").all():
        df = df.drop(columns="note")
    return df


# ---- display -------------------------------------------------------------------------------
def rounded(df: pd.DataFrame, digits: int = 3) -> pd.DataFrame:
    """Return a copy of `df` with float columns rounded to `digits` (other columns untouched)."""
    return df.round(digits)


def show(df: pd.DataFrame, digits: int = 3, max_rows: int = 60) -> None:
    """Display `df` rounded for reading (at most `max_rows` rows); returns None."""
    from IPython.display import display

    with pd.option_context("display.max_rows", max_rows, "display.max_columns", 50,
                           "display.width", 160):
        display(rounded(df, digits))


# ---- environment -----------------------------------------------------------------------------
def package_version(name: str) -> str:
    """Return the installed version of a distribution, or 'not installed'."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def environment_report(packages: Sequence[str] = ENV_PACKAGES) -> pd.DataFrame:
    """Return python, platform and package versions as a two-column frame (no paths, hosts or times)."""
    from ajb_utils import __version__

    rows = [
        ("python", platform.python_version()),
        ("platform", f"{platform.system()} {platform.machine()}"),
        ("ajb_utils", __version__),
        *((p, package_version(p)) for p in packages),
    ]
    return pd.DataFrame(rows, columns=["component", "version"])


def kernel_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return an environment for notebook kernels: repo on PYTHONPATH, progress bars and debugger noise off."""
    env = dict(os.environ if base is None else base)
    root = str(paths.REPO_ROOT)
    parts = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join([root, *[p for p in parts if p != root]])
    env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # ipykernel's frozen-modules warning
    env.setdefault("TQDM_DISABLE", "1")
    env.setdefault("HF_DATASETS_DISABLE_PROGRESS_BARS", "1")
    # tqdm.auto (imported by `datasets`) warns on stderr when ipywidgets is missing; matched by message
    # so that interpreter start-up need not import tqdm.
    warn = "ignore:IProgress not found"
    if warn not in env.get("PYTHONWARNINGS", ""):
        env["PYTHONWARNINGS"] = ",".join(w for w in (env.get("PYTHONWARNINGS", ""), warn) if w)
    env.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    return env
