"""The environment report at the end of every notebook and the resolved versions PROVENANCE.json records."""

from __future__ import annotations

import importlib.metadata
import platform
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from ajb_utils import paths

# The packages whose versions can change an output, in the report's order (the runtime dependencies).
ENV_PACKAGES: list[str] = [
    "numpy",
    "pandas",
    "scipy",
    "matplotlib",
    "seaborn",
    "datasets",
    "papermill",
    "pyarrow",
    "orjson",
    "huggingface_hub",
    "pyyaml",
    "jupyterlab",
    "ipykernel",
    "nbconvert",
    "jinja2",
    "aiohttp",
    "tenacity",
    "filelock",
    "duckdb",
    "tqdm",
]
LOCK_FILE: Path = paths.REPO_ROOT / "requirements.lock"
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;#]+)")


def canonical_name(name: str) -> str:
    """Return a distribution name normalised as PEP 503 does (lower case, runs of -_. as one -)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def locked_versions(path: Path | str = LOCK_FILE) -> dict[str, str]:
    """Return {canonical name: pinned version} of a lock file (`name==version` lines; {} without one)."""
    p = Path(path)
    if not p.is_file():
        return {}
    pins = (_PIN.match(line) for line in p.read_text(encoding="utf-8").splitlines())
    return {canonical_name(m[1]): m[2] for m in pins if m}


def installed_versions() -> dict[str, str]:
    """Return {canonical name: version} of the installed distributions (the first on sys.path wins)."""
    out: dict[str, str] = {}
    for dist in importlib.metadata.distributions():
        meta = dist.metadata  # parsed once: dist.name and dist.version would each parse it again
        out.setdefault(canonical_name(meta["Name"]), meta["Version"])
    return out


def lock_differences(locked: Mapping[str, str], installed: Mapping[str, str]) -> dict[str, tuple[str, str]]:
    """Return {name: (installed version or 'not installed', locked version)} for every pin not installed as locked."""
    return {n: (installed.get(n, "not installed"), v) for n, v in sorted(locked.items()) if installed.get(n) != v}


def lock_status(locked: Mapping[str, str] | None = None, installed: Mapping[str, str] | None = None) -> str:
    """Return one line saying whether the installed packages are the ones requirements.lock pins."""
    locked = locked_versions() if locked is None else locked
    installed = installed_versions() if installed is None else installed
    if not locked:
        return "no requirements.lock"
    diff = lock_differences(locked, installed)
    if not diff:
        return f"all {len(locked)} pins installed"
    shown = ", ".join(f"{n} {a} (lock {b})" for n, (a, b) in list(diff.items())[:5])
    more = f" and {len(diff) - 5} more" if len(diff) > 5 else ""
    return f"{len(diff)} of {len(locked)} pins differ: {shown}{more}"


def provenance_environment() -> dict[str, object]:
    """Return python (major.minor), every runtime dependency's version and whether they are the lock's."""
    installed = installed_versions()
    return {
        "python": ".".join(platform.python_version_tuple()[:2]),
        "packages": {p: installed.get(canonical_name(p), "not installed") for p in ENV_PACKAGES},
        "lock": lock_status(installed=installed),
    }


def environment_report(packages: Sequence[str] = ENV_PACKAGES) -> pd.DataFrame:
    """Return python, platform and package versions beside requirements.lock's pins, and whether all match."""
    from ajb_utils import __version__

    locked, installed = locked_versions(), installed_versions()

    def shown(p: str) -> str:
        version, pin = installed.get(canonical_name(p), "not installed"), locked.get(canonical_name(p))
        return version if pin is None or pin == version else f"{version} (lock {pin})"

    rows = [
        ("python", platform.python_version()),
        ("platform", f"{platform.system()} {platform.machine()}"),
        ("ajb_utils", __version__),
        *((p, shown(p)) for p in packages),
        ("requirements.lock", lock_status(locked, installed)),
    ]
    return pd.DataFrame(rows, columns=["component", "version"])
