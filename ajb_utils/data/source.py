"""Where the bytes come from: the source ("sample", "hf", a hub repo id, a local mirror), the hub
commit every read is pinned to, and the card (the README's YAML header, read once): which files
each config has, how many rows it declares, and whether the data is synthetic."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ajb_utils import cache as bench_cache
from ajb_utils import schema
from ajb_utils.data.bench import BenchDataError, HubUnavailable
from ajb_utils.paths import REPO_ROOT, SAMPLE_DIR

_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's C parser where installed

log = logging.getLogger("ajb_utils.data")

HUB_TIMEOUT: float = 5.0  # seconds the probe waits for the hub before giving up
OFFLINE_HINT = (
    "Offline, use data_source='sample' (the embedded synthetic sample) or a local mirror folder of the hub repo"
)


@dataclass(frozen=True)
class Source:
    """Where configs come from: a local directory or a hub repo id."""

    location: str
    is_local: bool
    label: str


def resolve_source(source: str | Path) -> Source:
    """Return the Source for "sample", "hf", a hub repo id, or a local directory; BenchDataError
    (one line) for anything else, an empty folder included."""
    if str(source) == "sample":
        return Source(str(SAMPLE_DIR), True, "sample")
    if str(source) == "hf":
        return Source(schema.HF_REPO_ID, False, "hf")
    path = Path(source).expanduser()
    if not path.is_absolute() and not path.is_dir() and (REPO_ROOT / path).is_dir():
        path = REPO_ROOT / path  # e.g. data/sample_full from notebooks/ or any other folder
    if path.is_dir() and next(path.iterdir(), None) is None:
        raise BenchDataError(
            f"data source {str(source)!r} is an empty folder, not a mirror of the "
            "hub repo (README.md and data/); use 'sample', 'hf' or a mirror"
        )
    if path.is_dir():
        return Source(str(path.resolve()), True, path.resolve().name)
    top = Path(str(source)).parts[0] if str(source) else ""
    local = str(source).startswith((".", "/", "~")) or any((base / top).is_dir() for base in (Path.cwd(), REPO_ROOT))
    if str(source).count("/") == 1 and not path.exists() and not local:  # owner/name, not a path under a local folder
        return Source(str(source), False, str(source).replace("/", "__"))
    if local or "/" in str(source):
        make = "; make it with `python -m ajb_sample --scale full`" if path.name == "sample_full" else ""
        raise BenchDataError(
            f"data source {str(source)!r} is a local path that does not exist (relative paths are read from the "
            f"repository root or the working directory){make}; give 'sample', 'hf', a hub repo id (owner/name) "
            "or an existing folder"
        )
    raise BenchDataError(
        f"data source {str(source)!r} is neither 'sample', 'hf', a hub repo id, nor an existing directory"
    )


def first_line(exc: BaseException) -> str:
    """Return `Type: first line of the message`, shortened to 160 characters."""
    lines = str(exc).strip().splitlines()
    text = f"{type(exc).__name__}: {lines[0] if lines else ''}".rstrip(": ")
    return text if len(text) <= 160 else text[:157] + "..."


def hub_commit(repo_id: str, revision: str | None = None, timeout: float = HUB_TIMEOUT) -> str:
    """Return the full commit sha that `revision` (branch, tag, sha; None = main) names on the
    hub, asked once with `timeout`; raise HubUnavailable with a one-line reason otherwise.

    The answer is kept in the local hub cache (refs/<revision>), so with HF_HUB_OFFLINE=1 a
    revision read before resolves to the same commit without the hub."""
    from huggingface_hub import HfApi, constants, errors

    where = f"{repo_id!r} at {constants.ENDPOINT}"
    ref = Path(constants.HF_HUB_CACHE) / ("datasets--" + repo_id.replace("/", "--")) / "refs" / (revision or "main")
    try:
        sha = HfApi().dataset_info(repo_id, revision=revision, timeout=timeout).sha
        if sha and sha != revision:
            with contextlib.suppress(OSError):  # best effort, as huggingface_hub does: a read-only cache is no error
                ref.parent.mkdir(parents=True, exist_ok=True)
                ref.write_text(sha)
        return sha
    except errors.RevisionNotFoundError:
        reason = f"revision {revision!r} does not exist in {where}"
    except errors.GatedRepoError:
        reason = f"{where} needs an access token with access to the repo (set HF_TOKEN)"
    except errors.RepositoryNotFoundError:
        reason = f"dataset repo {where} not found (or not accessible without a token)"
    except errors.OfflineModeIsEnabled:
        snapshot = ref.parent.parent / "snapshots" / (revision or "")
        cached = revision if revision and snapshot.is_dir() else (ref.read_text().strip() if ref.is_file() else None)
        if cached:
            log.warning(
                f"HF_HUB_OFFLINE: revision {revision or 'main'} of {repo_id} is commit {cached} in the local hub cache"
            )
            return cached
        reason = f"HF_HUB_OFFLINE is set and revision {revision or 'main'} of {repo_id!r} is not in the local hub cache"
    except Exception as exc:  # connection refused, DNS, timeout, TLS, HTTP 5xx
        waited = f" after {timeout:g} s" if "timeout" in type(exc).__name__.lower() else ""
        reason = f"cannot reach {where}{waited} ({first_line(exc)})"
        if ref.is_file():
            reason += f"; commit {ref.read_text().strip()[:12]} is cached: set HF_HUB_OFFLINE=1"
    raise HubUnavailable(reason, OFFLINE_HINT) from None


def probe_hub(source: str | Path, revision: str | None = None, timeout: float = HUB_TIMEOUT) -> str | None:
    """Return the commit a hub source's revision resolves to, None for a local source; raise
    HubUnavailable (one line) when the hub cannot answer, BenchDataError for a bad source."""
    src = resolve_source(source)
    return None if src.is_local else hub_commit(src.location, revision, timeout)


def fetch(src: Source, rel: str, revision: str | None) -> Path:
    """Return the local path of one repo file (downloaded at `revision` for a hub source)."""
    if src.is_local:
        return Path(src.location) / rel
    from huggingface_hub import hf_hub_download

    return Path(hf_hub_download(src.location, rel, repo_type="dataset", revision=revision))


@dataclass(frozen=True)
class Card:
    """What a source's README header says: config -> files, config -> declared rows, synthetic,
    and for a synthetic sample what its generator planted (`planted:`, written by ajb_sample)."""

    files: dict[str, list[str]]
    rows: dict[str, int] = field(default_factory=dict)
    synthetic: bool = False
    readme: bytes = b""
    planted: dict[str, Any] = field(default_factory=dict)


def _listed(value: Any) -> list[Any]:
    """Return a YAML value that may be one item or a list of them as a list."""
    return value if isinstance(value, list) else [value]


def parse_card(readme: bytes) -> Card:
    """Return the Card of a README's bytes (its `configs:`, `dataset_info:` and `synthetic:` fields)."""
    text = readme.decode("utf-8")
    end = text.find("\n---", 3) if text.startswith("---") else -1  # the header between two --- lines
    header: dict[str, Any] = (yaml.load(text[3:end], Loader=_YAML_LOADER) or {}) if end > 0 else {}
    files: dict[str, list[str]] = {}
    for cfg in header.get("configs") or []:
        given = [f.get("path") if isinstance(f, dict) else f for f in _listed(cfg.get("data_files", []))]
        files[schema.JUDGE_ALIASES.get(cfg["config_name"], cfg["config_name"])] = [p for g in given for p in _listed(g)]
    rows: dict[str, int] = {}
    for entry in _listed(header.get("dataset_info") or []):
        splits = entry.get("splits") or [] if isinstance(entry, dict) else []
        n = sum(int(s.get("num_examples") or 0) for s in splits if isinstance(s, dict))
        if n:
            name = entry.get("config_name", schema.MAIN_CONFIG)
            rows[schema.JUDGE_ALIASES.get(name, name)] = n
    planted = header.get("planted")
    return Card(files, rows, header.get("synthetic") is True, readme, planted if isinstance(planted, dict) else {})


def planted_effects(source: str | Path) -> dict[str, Any]:
    """Return what a local synthetic source planted, from its card's `planted:` header ({} for the
    hub, a folder without one, or data that is not synthetic)."""
    src = resolve_source(source)
    readme = Path(src.location) / "README.md"
    if not src.is_local or not readme.is_file():
        return {}
    card = parse_card(readme.read_bytes())
    return card.planted if card.synthetic else {}


def read_card(src: Source, revision: str | None) -> Card:
    """Return the source's Card; a hub failure or a source without `main` is a one-line
    BenchDataError that says what to do."""
    try:
        path = fetch(src, "README.md", revision)
        readme = bench_cache.read_input(path) if path.exists() else b""
    except Exception as exc:  # network, authentication, unknown repo or revision
        if src.is_local:
            raise
        raise BenchDataError(
            f"cannot read {src.location!r} (revision {revision or 'main'}) from the hub: "
            f"{first_line(exc)}. The hub needs network access; offline, use "
            "source='sample' or a local mirror directory of the hub repo."
        ) from exc
    card = parse_card(readme)
    if schema.MAIN_CONFIG not in card.files and src.is_local:
        raise BenchDataError(f"{src.location} has no 'main' config in its README.md header")
    return card


def missing_file(root: Path, card: Card, wanted: str | list[str] | None) -> str | None:
    """Return one line naming a file the card names that the mirror lacks and the load would read
    (a released config's data file, or a run `wanted` selects), and what to do; None if none."""
    released = {schema.MAIN_CONFIG, *schema.GENERATORS, *schema.JUDGES}
    for config, rels in card.files.items():
        for rel in (r for r in rels if not (root / r).is_file()):
            if config in released and not rel.startswith("runs/"):
                return f"{root}: README.md names {rel} (config {config!r}) but the file is missing: download it again"
            if rel.startswith("runs/") and (
                wanted in ("shipped", "auto") or (isinstance(wanted, list) and config in wanted)
            ):
                return (
                    f"{root}: README.md lists the run {config!r} ({rel}) but runs/ lacks it: copy the run "
                    "into runs/ (or download the source again)"
                )
    return None
