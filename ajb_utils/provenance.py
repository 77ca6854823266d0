"""Where outputs go and what made them: the data banner, output folders, PROVENANCE.json, synthetic flags."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pandas as pd
from filelock import FileLock

from ajb_utils import environment, parameters, paths, schema
from ajb_utils.parameters import DEFAULT_PARAMETERS, LOCATION_PARAMETERS  # noqa: F401 (provenance's names too)

SYNTHETIC_LINE: str = "SYNTHETIC SAMPLE — numbers are not the paper's"
SYNTHETIC_NOTE: str = "Synthetic sample data (ajb_sample): numbers are not the paper's."
SYNTHETIC_FIGURE_NOTE: str = "Synthetic sample: not the paper's numbers"  # fits a 3.3 in column at 6 pt


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
        return (
            f'**⚠️ {SYNTHETIC_LINE}.** Data: `{label}`{where}{rev} — run with `data_source="hf"` for the released data.'
        )
    return f"**Data: `{label}`**{where}{rev} — released AgentJudgeBench data."


def bench_banner(bench: Any) -> Any:
    """Return the IPython Markdown banner of a loaded Bench for the top of a notebook (`banner_text` of its data)."""
    from IPython.display import Markdown

    source, revision = getattr(bench, "source", None), getattr(bench, "revision", None)
    return Markdown(banner_text(bench.label, bench.synthetic, source, revision))


# run_notebooks.py sets this to the parameter file's stem, so its outputs go to figures/<label>-<stem>/.
PARAMS_NAME_ENV: str = "AJB_PARAMS_NAME"
DEFAULT_HUB_ENDPOINT: str = "https://huggingface.co"
_PLAIN = (str, int, float, bool, type(None), list, tuple, dict)


def run_parameters(namespace: dict[str, Any]) -> dict[str, Any]:
    """Return a notebook's parameters from its globals(), after `parameters.check_namespace` (nothing written first)."""
    parameters.check_namespace(namespace)
    names = [*LOCATION_PARAMETERS, *DEFAULT_PARAMETERS]
    return {k: namespace[k] for k in names if k in namespace and isinstance(namespace[k], _PLAIN)}


def nondefault_parameters(params: dict[str, Any]) -> dict[str, Any]:
    """Return the parameters that differ from DEFAULT_PARAMETERS (location parameters left out)."""

    def same(k: str, v: Any) -> bool:
        d = DEFAULT_PARAMETERS[k]
        return d == v and (d is None) == (v is None) and isinstance(v, bool) == isinstance(d, bool)

    return {
        k: v for k, v in params.items() if k not in LOCATION_PARAMETERS and not (k in DEFAULT_PARAMETERS and same(k, v))
    }


def parameter_tag(params: dict[str, Any]) -> str:
    """Return the short folder tag of a parameter set: '' for the defaults, else 'p' + 8 hex digits of their hash."""
    changed = nondefault_parameters(params)
    if not changed:
        return ""
    blob = json.dumps(changed, sort_keys=True, default=str)
    return "p" + hashlib.sha256(blob.encode("utf-8")).hexdigest()[:8]


def output_folder_name(data_label: str, params: dict[str, Any] | None = None, params_name: str | None = None) -> str:
    """Return the folder name under figures/: the label for default parameters, else '<label>-<name or hash>'."""
    tag = parameter_tag(params or {})
    if not tag:
        return data_label
    name = params_name if params_name is not None else os.environ.get(PARAMS_NAME_ENV, "")
    safe = "".join(ch if ch.isalnum() or ch in "._" else "_" for ch in (name or ""))
    return f"{data_label}-{safe or tag}"


def output_dir(data_label: str, out_dir: str | Path | None = None, params: dict[str, Any] | None = None) -> Path:
    """Return (and create) `out_dir` (relative to the repo), else figures/<label>[-<parameter file or hash>]/."""
    p = Path(out_dir) if out_dir else paths.FIGURES_DIR / output_folder_name(data_label, params)
    p = p if p.is_absolute() else paths.REPO_ROOT / p
    p.mkdir(parents=True, exist_ok=True)
    return p


def runs_read(bench: Any) -> list[str]:
    """Return the names of the judge runs (beyond the release) a Bench holds, sorted."""
    judges = getattr(bench, "judges", None)
    if not isinstance(judges, pd.DataFrame) or "origin" not in judges:
        return []
    return sorted(judges.loc[judges["origin"] != "release", "judge"].astype(str).tolist())


def hub_endpoint() -> str:
    """Return the hub endpoint the loader asks (HF_ENDPOINT, as huggingface_hub reads it; default the public hub)."""
    return (os.environ.get("HF_ENDPOINT") or DEFAULT_HUB_ENDPOINT).rstrip("/")


def provenance_record(bench: Any, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """Return one notebook's PROVENANCE.json record (no times, no absolute paths; a hub's endpoint beside it)."""
    from ajb_utils import __version__
    from ajb_utils.data.bench import BenchDataError
    from ajb_utils.data.source import resolve_source

    source = str(bench.source)
    try:  # a hub commit names data only together with its endpoint
        hub = not resolve_source(source).is_local
    except BenchDataError:  # a folder that has since gone (or a stand-in): no hub to name
        hub = False
    if os.path.isabs(source):
        source = paths.relpath(source)
    shown = {k: v for k, v in (params or {}).items() if k != "out_dir"}
    return {
        "source": source,
        **({"hub_endpoint": hub_endpoint()} if hub else {}),
        "revision": bench.revision,
        "label": bench.label,
        "synthetic": bool(bench.synthetic),
        "ajb_utils": __version__,
        "note": SYNTHETIC_NOTE if bench.synthetic else "released data",
        "parameters": dict(sorted(shown.items())),
        "runs": runs_read(bench),
        "environment": environment.provenance_environment(),
    }


# What the scorecard gathers from a folder: comparisons and claim checks, valid for one data version.
SCORECARD_INPUTS: tuple[str, ...] = ("*_compare.csv", "*checks.csv")


def write_provenance(bench: Any, out: Path, params: dict[str, Any] | None = None) -> Path:
    """Return PROVENANCE.json's path after merging this notebook's record in (locked; other data's checks cleared)."""
    path = Path(out) / "PROVENANCE.json"
    record = provenance_record(bench, params)
    with FileLock(Path(out) / ".PROVENANCE.lock"):  # any OS (fcntl would not import on Windows)
        try:
            old = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        except ValueError:
            old = {}
        if old.get("source") == record["source"] and old.get("revision") == record["revision"]:
            record["parameters"] = dict(sorted({**old.get("parameters", {}), **record["parameters"]}.items()))
            record["runs"] = sorted(set(old.get("runs", [])) | set(record["runs"]))
        elif "source" in old:  # written from other data: its comparisons and claim checks are removed
            for p in {p for pattern in SCORECARD_INPUTS for p in Path(out).glob(pattern)}:
                p.unlink(missing_ok=True)
        tmp = path.with_suffix(f".json.{os.getpid()}.tmp")  # notebooks running at once: one each
        tmp.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(path)
    return path


def is_synthetic_dir(out_dir: Path | str) -> bool:
    """Return True when `out_dir`'s PROVENANCE.json says synthetic or, without one, it is figures/sample."""
    prov = Path(out_dir) / "PROVENANCE.json"
    if prov.exists():
        try:
            return bool(json.loads(prov.read_text(encoding="utf-8")).get("synthetic"))
        except (ValueError, OSError):
            pass
    return Path(out_dir).name == "sample"
