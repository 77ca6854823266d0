"""Where outputs go and what made them: the data banner, output folders, PROVENANCE.json, synthetic flags.

Every text here is machine-independent (repo-relative paths, no timestamps), so committed notebook
outputs stay stable under nbval.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pandas as pd

from ajb_utils import paths, schema

SYNTHETIC_LINE: str = "SYNTHETIC SAMPLE — numbers are not the paper's"
SYNTHETIC_NOTE: str = "Synthetic sample data (ajb_utils.sample): numbers are not the paper's."


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
    tmp = path.with_suffix(f".json.{os.getpid()}.tmp")  # notebooks running at once: one each
    tmp.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


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
