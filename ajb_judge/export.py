"""Exports in the released schema (docs/DATA_FORMAT.md section 2), written atomically.

Judge runs: ``<out>/<name>.jsonl`` (judge-config rows) + ``<name>.meta.json``; each row also carries
``judge_status`` (per condition: status, attempts, model, fingerprint, prompt hash, repaired) — an
extra top-level key the loader ignores. Generator runs go to ``<out>/generators/`` and
rewrite meta-judge verdicts to ``<out>/annotations/`` so the loader never mistakes them for
judge configs (it globs ``<out>/*.jsonl``).
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pandas as pd

from ajb_judge.parse import OK
from ajb_judge.static_judge import P_COLS
from ajb_utils.schema import METRICS, OVERALL_SCORE_COLUMN, SCORE_COLUMNS
from ajb_utils.scoring import match

SELECTION_KEYS: tuple[str, ...] = ("source", "limit", "seed", "generators", "difficulties", "conditions")


def export_conflict(old: dict[str, Any], meta: dict[str, Any]) -> str | None:
    """Return why an export with meta `old` belongs to another run than `meta` (None: the same run, may rewrite it).

    Another run = another run hash (model, decoding, response format, ...), another store, or
    another selection of items (source, limit, seed, generators, difficulties, conditions; the seed
    only where it chooses items, see seed_selects).
    Fields an older export lacks are not compared.
    """
    if not isinstance(old, dict) or not old:
        return None
    if old.get("run_hash") != meta.get("run_hash") or (
        "store_id" in old and old.get("store_id") != meta.get("store_id")
    ):
        return (
            f"holds the export of another run (run hash {old.get('run_hash')}, store {old.get('store_id')}; "
            f"this run: {meta.get('run_hash')}, store {meta.get('store_id')})"
        )
    was, now = old.get("selection"), meta.get("selection")
    if isinstance(was, dict) and isinstance(now, dict):
        diff = {k: (was.get(k), now.get(k)) for k in SELECTION_KEYS if was.get(k) != now.get(k)}
        if not (seed_selects(was) or seed_selects(now)):
            diff.pop("seed", None)  # the same items whatever the seed
        if set(diff) == {"limit"} and extends(was.get("limit"), now.get("limit")):
            return None  # a pilot grown: the stratified selections are nested, the stored items are asked again free
        if diff:
            said = ", ".join(f"{k} {a!r} -> {b!r}" for k, (a, b) in diff.items())
            return f"holds this run's export over another selection of items ({said})"
    return None


def seed_selects(selection: dict[str, Any]) -> bool:
    """Return whether a selection's seed chooses items: a limit (the stratified subset) or corrupted_gt (its donors)."""
    return selection.get("limit") is not None or "corrupted_gt" in (selection.get("conditions") or [])


def extends(old_limit: int | None, new_limit: int | None) -> bool:
    """Return whether a selection of `new_limit` records holds every record of `old_limit` (None: all records).

    The stratified selection of n records is the first n of one seeded order
    (conditions.stratified_ids), so a larger limit on the same selection extends a run.
    """
    if new_limit is None:
        return True
    return old_limit is not None and new_limit >= old_limit


def check_export(meta_path: Path, meta: dict[str, Any], replace: bool = False) -> None:
    """Raise ValueError if the export at `meta_path` belongs to another run (see export_conflict); no lock held."""
    meta_path = Path(meta_path)
    if replace or not meta_path.exists():
        return
    try:
        old = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = {}
    why = export_conflict(old, meta)
    if why:
        raise ValueError(
            f"{meta_path.parent / meta_path.name.replace('.meta.json', '.jsonl')} {why}: "
            "use another --name or --out, or --replace-export to replace it (notebook 15: another run_name)"
        )


def claim_path(meta_path: Path) -> Path:
    """Return the run's claim file beside its export's meta: <out>/.<name>.claim.json."""
    meta_path = Path(meta_path)
    return meta_path.with_name("." + meta_path.name.replace(".meta.json", ".claim.json"))


CLAIM_KEYS: tuple[str, ...] = ("name", "run_hash", "store_id", "selection")


def check_claim(meta_path: Path, meta: dict[str, Any], replace: bool = False) -> None:
    """Raise ValueError if the export at `meta_path` belongs to another run, or its claim to another store or selection."""
    check_export(meta_path, meta, replace)
    path = claim_path(meta_path)
    if replace or not path.exists():
        return
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = {}
    why = export_conflict({**old, "run_hash": meta.get("run_hash")}, meta) if isinstance(old, dict) else None
    if why:  # a claim binds the store and the selection; another run hash of the same store is the export's concern
        raise ValueError(
            f"run {meta.get('name')} in {path.parent} is claimed ({path.name}, before its first paid call) by "
            f"store {old.get('store_id')} (the claim {why}); a store (a copy made at any moment "
            "has an id of its own) never pays for a run another store claimed: resume the store that claimed it, or "
            "use another --name or --out (--replace-export takes the run over)"
        )


def claim_run(meta_path: Path, meta: dict[str, Any], replace: bool = False) -> None:
    """Claim the run at `meta_path` for meta's store before its first paid call (see check_claim), under the export lock.

    The claim (name, run hash, store id, selection) is written beside the export: another store
    (a copy made at any moment, the copy has an id of its own) stops before paying for the run.
    """
    with claim_export(meta_path, meta, replace):
        check_claim(meta_path, meta, replace)
        atomic_write_text(claim_path(meta_path), json.dumps({k: meta.get(k) for k in CLAIM_KEYS}, indent=2) + "\n")


@contextmanager
def claim_export(meta_path: Path, meta: dict[str, Any], replace: bool = False) -> Iterator[None]:
    """Hold the export lock of `meta_path` and raise ValueError if another run wrote the export there.

    The runner also calls check_export before its first paid call, so a conflict costs nothing;
    this second check, under the lock, catches an export written meanwhile. `replace` allows the
    overwrite.
    """
    from filelock import FileLock

    meta_path = Path(meta_path)
    meta_path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(meta_path.with_name(f".{meta_path.name}.lock")), timeout=120):
        check_export(meta_path, meta, replace)
        yield


def _umask() -> int:
    """Return the process umask without changing it (Linux /proc; else the os.umask round trip)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except OSError:
        pass
    m = os.umask(0o022)
    os.umask(m)
    return m


def _atomic_write(path: Path, chunks: Iterable[str]) -> None:
    """Write text chunks to `path` atomically.

    The new content is streamed to an unnamed file in the target folder (Linux ``O_TMPFILE``),
    fsynced, given a name and renamed over `path`: a kill at any moment leaves either the old file
    or the new one, and no orphan temporary file. Elsewhere a named ``.<name>.<pid>.*.tmp`` is used,
    removed on errors, and removed by the next export if its writer was killed.
    The file gets the user's normal mode (0666 minus the umask), not mkstemp's 0600.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = 0o666 & ~_umask()
    fd, tmp = None, None
    if hasattr(os, "O_TMPFILE"):
        try:
            fd = os.open(path.parent, os.O_TMPFILE | os.O_WRONLY, mode)
        except OSError:  # file systems without O_TMPFILE support
            fd = None
    if fd is None:
        _remove_orphans(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
        os.fchmod(fd, mode)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", closefd=False) as fh:
            for chunk in chunks:
                fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
        if tmp is None:  # name the unnamed file, then rename it over the target
            tmp = str(path.parent / f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
            dfd = os.open(path.parent, os.O_RDONLY)
            try:  # a dir fd makes CPython call linkat(..., AT_SYMLINK_FOLLOW) instead of link()
                os.link(
                    f"/proc/self/fd/{fd}", os.path.basename(tmp), src_dir_fd=dfd, dst_dir_fd=dfd, follow_symlinks=True
                )
            finally:
                os.close(dfd)
        os.replace(tmp, path)
        tmp = None
    finally:
        os.close(fd)
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def _remove_orphans(path: Path) -> None:
    """Remove temporary files of `path` left by killed writers (named .<name>.<pid>.*.tmp, pid gone)."""
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        pid = tmp.name[len(path.name) + 2 :].split(".", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            tmp.unlink(missing_ok=True)
        except PermissionError:  # alive, another user's process
            pass


def atomic_write_text(path: Path, text: str) -> None:
    """Write `text` to `path` atomically (see _atomic_write)."""
    _atomic_write(path, [text])


def write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> int:
    """Write rows as JSON lines atomically (streamed, not held in memory as text); return the row count."""
    n = 0

    def lines() -> Iterator[str]:
        """Yield each row as a JSON line, counting."""
        nonlocal n
        for r in rows:
            n += 1
            yield json.dumps(r, ensure_ascii=False, default=_json_default) + "\n"

    _atomic_write(path, lines())
    return n


def _json_default(o: Any) -> Any:
    """Return a JSON-able stand-in for numpy scalars and arrays."""
    if hasattr(o, "tolist"):
        return o.tolist()
    if hasattr(o, "item"):
        return o.item()
    return str(o)


def _num(x: Any) -> float | None:
    """Return x as a float, None for missing / NaN."""
    if x is None:
        return None
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(f) else f


def condition_block(
    scores: dict[str, float | None] | None, justs: dict[str, str] | None, p: dict[str, float | None]
) -> dict[str, Any]:
    """Return one condition block: four metrics + overall_alignment_pct (null unless all four)."""
    block: dict[str, Any] = {}
    matches = []
    for m in METRICS:
        llm = _num((scores or {}).get(m))
        pm = _num(p.get(m))
        mu = None if llm is None or pm is None else round(float(match(pm, llm)), 4)
        matches.append(mu)
        block[m] = {
            "llm_score": llm,
            "justification": (justs or {}).get(m) if llm is not None else None,
            "programmatic_score": pm,
            "match_score": mu,
        }
    block["overall_alignment_pct"] = (
        round(100.0 * sum(matches) / len(matches), 2) if all(x is not None for x in matches) else None
    )
    return block


def judge_rows(
    items: pd.DataFrame, outcomes: dict[tuple[str, str, str, str], dict[str, Any]], conditions: list[str]
) -> list[dict[str, Any]]:
    """Return judge-config rows for `items` (generation rows) from per-(item, condition) outcomes.

    outcome = {"status", "scores", "justifications", "provenance"}; items without any outcome are
    skipped.
    """
    rows = []
    for g in items.itertuples(index=False):
        rid, gen, d = str(g.id), str(g.generator), str(g.difficulty)
        got = {c: outcomes.get((rid, gen, d, c)) for c in conditions}
        if not any(got.values()):
            continue
        p = {m: getattr(g, P_COLS[m], None) for m in METRICS}
        row: dict[str, Any] = {"id": rid, "generator": gen, "difficulty": d, "dag_type": str(g.dag_type)}
        status: dict[str, Any] = {}
        for c in conditions:
            o = got[c]
            if o is None:
                continue
            ok = o["status"] == OK
            row[c] = condition_block(o.get("scores") if ok else None, o.get("justifications") if ok else None, p)
            status[c] = {"status": o["status"], **o.get("provenance", {})}
        row["judge_status"] = status
        rows.append(row)
    return rows


def write_meta(path: Path, meta: dict[str, Any]) -> None:
    """Write a run's .meta.json atomically."""
    atomic_write_text(path, json.dumps(meta, indent=2, sort_keys=False, default=_json_default) + "\n")


def generator_rows(records: pd.DataFrame, outcomes: dict[tuple[str, str], dict[str, Any]]) -> list[dict[str, Any]]:
    """Return per-generator rows (DATA_FORMAT.md section 1) scored by the programmatic judge."""
    from ajb_judge.prompts import calls_json, tools_json
    from ajb_utils.scoring import programmatic_scores

    recs = records.assign(id=records["id"].astype(str)).set_index("id", drop=False)
    rows = []
    for (rid, d), o in sorted(outcomes.items()):
        r = recs.loc[rid]
        calls = o.get("calls")
        tools = json.loads(tools_json(list(r["tools"])))  # OpenAI-style, as the release's available_tools
        row = {
            "id": rid,
            "dag_type": str(r["dag_type"]),
            "difficulty": d,
            "user_query": str(r[f"query_{d}"]),
            "available_tools": tools,
            "generated_tool_calls": None if calls is None else json.loads(calls_json(calls)),
            "expected_tool_calls": json.loads(calls_json(list(r["expected_calls"]))),
        }
        s = dict.fromkeys(METRICS) if calls is None else programmatic_scores(calls, list(r["expected_calls"]))
        row.update({SCORE_COLUMNS[m]: s[m] for m in METRICS})
        row[OVERALL_SCORE_COLUMN] = None if calls is None else round(sum(s.values()) / len(s), 4)
        row["generation_status"] = {"status": o["status"], **o.get("provenance", {})}
        rows.append(row)
    return rows
