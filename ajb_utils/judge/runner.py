"""The judge / generator runner: select items, skip stored verdicts, call, parse, store, export.

Python API: ``run_judge(RunConfig(...)) -> RunSummary`` (also ``run_generate``, ``run_rewrite``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from ajb_utils.judge import parse as P
from ajb_utils.judge.backends import (
    FATAL_KINDS, CallError, Decoding, FatalBackendError, OpenAIBackend, RateLimiter, backoff_delay,
)
from ajb_utils.judge.conditions import Context, Unit, config_hash, judge_units, record_units, stratified_ids
from ajb_utils.judge.prompts import messages_hash
from ajb_utils.paths import CACHE_DIR, RUNS_DIR
from ajb_utils.schema import CONDITIONS, DIFFICULTIES, METRICS

log = logging.getLogger("ajb_utils.judge")
PARSERS = {"judge": None, "prometheus": P.parse_prometheus, "deriver": P.parse_deriver,
           "generate": P.parse_generator, "rewrite": P.parse_rewrite}
COMPLETION_GUESS = {"judge": 350, "prometheus": 250, "deriver": 500, "generate": 400, "rewrite": 200}


@dataclass
class RunConfig:
    """Every parameter of a run; the identity-relevant ones define the run hash."""

    name: str = "static_judge"
    backend: str = "static"  # static | openai
    model: str | None = None
    base_urls: list[str] = field(default_factory=lambda: ["http://localhost:8000/v1"])
    api_key_env: str | None = None  # the NAME of an environment variable, never the key
    conditions: list[str] = field(default_factory=lambda: ["with_gt", "without_gt"])
    source: str = "sample"
    bench: Any = None  # a loaded Bench (or anything with .records / .generations); skips loading
    generators: list[str] | None = None
    difficulties: list[str] | None = None
    limit: int | None = None  # records, stratified by topology
    seed: int = 0  # selection and C3 derangement seed
    decoding: Decoding = field(default_factory=Decoding)
    response_format: str = "auto"
    extra_body: dict[str, Any] | None = None
    timeout_s: float = 300.0
    concurrency: int = 8
    rpm: float | None = None
    max_attempts: int = 6
    backoff_base_s: float = 1.0
    backoff_cap_s: float = 60.0
    retry_errors: bool = False
    reparse: bool = False
    dry_run: bool = False
    budget_tokens: int | None = None
    budget_usd: float | None = None
    price_in_per_m: float | None = None
    price_out_per_m: float | None = None
    abort_after: int = 40
    abort_error_rate: float = 0.6
    deriver_model: str | None = None
    deriver_base_urls: list[str] | None = None
    judge: str | None = None  # base model label for the meta (defaults to model)
    display: str | None = None
    study: str = "new_judge"
    out_dir: Path = RUNS_DIR
    store_path: Path | None = None
    export: bool = True
    progress: bool = True
    durable: bool = False
    offline: bool = False  # export what the store holds; make no call (used after batch imports)

    def identity(self) -> dict[str, Any]:
        """Return what defines a verdict's run hash (no URLs, no key names, no secrets)."""
        return {"backend": self.backend, "model": self.model, "decoding": self.decoding.to_dict(),
                "extra_body": self.extra_body, "corrupt_seed": self.seed}

    def deriver_identity(self) -> dict[str, Any]:
        """Return the identity of the DeRef deriver calls."""
        return {"backend": self.backend, "model": self.deriver_model or self.model,
                "decoding": self.decoding.to_dict(), "extra_body": self.extra_body, "role": "deriver"}

    def public(self) -> dict[str, Any]:
        """Return the config as stored/exported: secret-free (the key variable's name only)."""
        d = {k: v for k, v in asdict(self).items() if k not in ("bench",)}
        d["out_dir"] = str(self.out_dir)
        d["store_path"] = str(self.store_path) if self.store_path else None
        return d


@dataclass
class RunSummary:
    """What a run did: counts, tokens, the summary table and the files written."""

    name: str
    run_hash: str
    n_units: int = 0
    cached: int = 0
    new: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    elapsed_s: float = 0.0
    calls_s: float = 0.0  # wall time of the call phase only
    aborted: str | None = None
    dry_run: bool = False
    estimate: dict[str, Any] = field(default_factory=dict)
    table: pd.DataFrame | None = None
    files: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        """Return a human-readable report."""
        lines = [f"run {self.name} [{self.run_hash}]: {self.n_units} units, {self.cached} cached, {self.new} new calls, "
                 f"{self.retries} retries, tokens in/out {self.prompt_tokens}/{self.completion_tokens}, "
                 f"{self.elapsed_s:.1f}s", f"statuses: {dict(self.statuses)}"]
        if self.aborted:
            lines.append(f"ABORTED: {self.aborted}")
        if self.table is not None and len(self.table):
            lines.append(self.table.to_string(index=False))
        lines += [f"wrote {f}" for f in self.files]
        return "\n".join(lines)


# --------------------------------------------------------------------------------- selection

def outside_event_loop(func: Any) -> Any:
    """Return `func` wrapped to run in a worker thread when called inside a running event loop.

    A Jupyter kernel already runs an event loop, where asyncio.run() refuses to start; the whole
    run (store included, since SQLite connections belong to their thread) then moves to a thread.
    """
    import functools

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return func(*args, **kwargs)
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(func, *args, **kwargs).result()
    return wrapper


def load_items(cfg: RunConfig) -> tuple[Any, pd.DataFrame, pd.DataFrame]:
    """Return (bench, selected records, selected generations) for a config."""
    bench = cfg.bench
    if bench is None and str(cfg.source).startswith("toy"):  # tiny built-in fixture for smoke tests
        from ajb_utils.judge.toybench import make_toy_bench

        n = int(str(cfg.source).split(":")[1]) if ":" in str(cfg.source) else 12
        bench = make_toy_bench(n)
    if bench is None:
        from ajb_utils.data import load_bench

        bench = load_bench(cfg.source, generators=cfg.generators, runs=None)
    records = bench.records
    ids = set(stratified_ids(records, cfg.limit, cfg.seed))
    recs = records[records["id"].astype(str).isin(ids)].reset_index(drop=True)
    g = bench.generations
    mask = g["id"].astype(str).isin(ids)
    if cfg.generators:
        mask &= g["generator"].astype(str).isin(cfg.generators)
    if cfg.difficulties:
        mask &= g["difficulty"].astype(str).isin(cfg.difficulties)
    return bench, recs, g[mask].reset_index(drop=True)


def default_store(name: str) -> Path:
    """Return the default store file of a run name."""
    return CACHE_DIR / "judge" / f"{name}.sqlite"


# ---------------------------------------------------------------------------------- engine
@dataclass
class _Stats:
    """Live counters of one execution."""

    statuses: Counter = field(default_factory=Counter)
    new: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    abort: str | None = None

    def failure_rate(self) -> float:
        """Return the share of new calls that did not end ok."""
        return 0.0 if not self.new else 1.0 - self.statuses[P.OK] / self.new


def _parse_unit(kind: str, content: str | None, reasoning: str | None, finish: str | None,
                refusal: str | None = None) -> tuple[str, dict[str, Any]]:
    """Return (status, parsed JSON) for a unit's reply."""
    if kind == "judge":
        v = P.parse_judge(content, reasoning, finish, refusal)
        return v.status, v.to_json()
    res = PARSERS[kind](content, reasoning, finish)
    return res["status"], res


def _cost(cfg: RunConfig, tin: int, tout: int) -> float | None:
    """Return the USD cost of tokens (None without prices)."""
    if cfg.price_in_per_m is None or cfg.price_out_per_m is None:
        return None
    return tin * cfg.price_in_per_m / 1e6 + tout * cfg.price_out_per_m / 1e6


async def _call_unit(u: Unit, ctx: Context, backend: OpenAIBackend, limiter: RateLimiter, cfg: RunConfig,
                     stats: _Stats) -> dict[str, Any]:
    """Return the store row of one unit after up to max_attempts attempts."""
    messages = ctx.messages(u)
    row: dict[str, Any] = {
        "key": u.key, "run_hash": u.run_hash, "kind": u.kind, "condition": u.condition, "item_id": u.item_id,
        "generator": u.generator, "difficulty": u.difficulty, "unit": u.unit, "prompt_hash": u.prompt_hash,
        "request_hash": messages_hash(messages), "decoding": backend.decoding.to_dict(), "seed": backend.decoding.seed,
    }
    json_reply = u.kind in ("judge",)
    attempt = 0
    while True:
        attempt += 1
        await limiter.wait()
        try:
            res = await backend.chat(messages, json_reply=json_reply)
        except CallError as err:
            if err.kind in FATAL_KINDS:
                raise FatalBackendError(str(err)) from None
            if err.retryable and attempt < cfg.max_attempts:
                stats.retries += 1
                await asyncio.sleep(backoff_delay(attempt, err.retry_after, cfg.backoff_base_s, cfg.backoff_cap_s))
                continue
            row.update(status=P.API_ERROR, attempts=attempt, error=str(err)[:500])
            return row
        status, parsed = _parse_unit(u.kind, res.content, res.reasoning, res.finish_reason, res.refusal)
        parsed["response_format"] = res.response_format
        row.update(status=status, attempts=attempt, raw=res.content, reasoning=res.reasoning,
                   finish_reason=res.finish_reason, parsed=parsed, model=res.model, fingerprint=res.fingerprint, prompt_tokens=res.prompt_tokens,
                   completion_tokens=res.completion_tokens, latency_s=round(res.latency_s, 4))
        return row


async def _execute(units: list[Unit], ctx: Context, backend: OpenAIBackend, store: Any, cfg: RunConfig,
                   stats: _Stats, label: str) -> None:
    """Run units with bounded concurrency, committing each result as soon as it is parsed."""
    if not units:
        return
    limiter = RateLimiter(cfg.rpm)
    it = iter(units)
    pbar = None
    if cfg.progress:
        from tqdm.auto import tqdm

        pbar = tqdm(total=len(units), desc=label, unit="call", file=sys.stderr, dynamic_ncols=True)
    fatal: list[BaseException] = []

    def budget_left(u: Unit) -> bool:
        """Return False (and set abort) when the next call would exceed a budget."""
        guess = COMPLETION_GUESS.get(u.kind, 300)
        used = stats.prompt_tokens + stats.completion_tokens
        if cfg.budget_tokens is not None and used + guess > cfg.budget_tokens:
            stats.abort = f"token budget {cfg.budget_tokens} reached ({used} used)"
            return False
        cost = _cost(cfg, stats.prompt_tokens, stats.completion_tokens)
        if cfg.budget_usd is not None and cost is not None and cost >= cfg.budget_usd:
            stats.abort = f"budget ${cfg.budget_usd} reached (${cost:.4f} spent)"
            return False
        return True

    async def worker() -> None:
        """Pull units until none are left or the run aborts."""
        for u in it:
            if stats.abort or fatal or not budget_left(u):
                return
            try:
                row = await _call_unit(u, ctx, backend, limiter, cfg, stats)
            except FatalBackendError as exc:
                fatal.append(exc)
                stats.abort = f"fatal backend error: {exc}"
                return
            store.put(row)
            stats.new += 1
            stats.statuses[row["status"]] += 1
            stats.prompt_tokens += row.get("prompt_tokens") or 0
            stats.completion_tokens += row.get("completion_tokens") or 0
            if stats.new >= cfg.abort_after and stats.failure_rate() >= cfg.abort_error_rate and not stats.abort:
                stats.abort = (f"{stats.failure_rate():.0%} of the first {stats.new} calls failed "
                               f"({dict(stats.statuses)}): the judge looks misconfigured")
            if pbar is not None:
                pbar.update(1)
                pbar.set_postfix(ok=stats.statuses[P.OK], fail=stats.new - stats.statuses[P.OK], retries=stats.retries,
                                 tok=stats.prompt_tokens + stats.completion_tokens,
                                 fail_rate=f"{stats.failure_rate():.1%}", refresh=False)

    try:
        await asyncio.gather(*(worker() for _ in range(max(1, cfg.concurrency))))
    finally:
        if pbar is not None:
            pbar.close()


# ------------------------------------------------------------------------------ entry points
def _make_backend(cfg: RunConfig, deriver: bool = False) -> OpenAIBackend:
    """Return the OpenAI-compatible backend of a config (or of its deriver)."""
    if not cfg.model:
        raise ValueError("--model is required for the openai backend")
    return OpenAIBackend(
        model=(cfg.deriver_model or cfg.model) if deriver else cfg.model,
        base_urls=(cfg.deriver_base_urls or cfg.base_urls) if deriver else cfg.base_urls,
        api_key_env=cfg.api_key_env, decoding=cfg.decoding, response_format=cfg.response_format,
        timeout_s=cfg.timeout_s, extra_body=cfg.extra_body, pool_size=max(8, 2 * cfg.concurrency),
    )


def _pending(units: list[Unit], existing: dict[str, str], retry_errors: bool) -> list[Unit]:
    """Return the units that still need a call (missing, or failed with retry_errors)."""
    return [u for u in units if u.key not in existing or (retry_errors and existing[u.key] != P.OK)]


def _estimate(units: list[Unit], ctx: Context, cfg: RunConfig) -> dict[str, Any]:
    """Return the dry-run estimate: calls and tokens per kind (prompt tokens ~ chars/4)."""
    out: dict[str, Any] = {"calls": {}, "prompt_tokens": 0, "completion_tokens": 0}
    by_kind: dict[str, list[Unit]] = {}
    for u in units:
        by_kind.setdefault(f"{u.kind}:{u.condition}", []).append(u)
    for k, us in by_kind.items():
        sample = us[:: max(1, len(us) // 200)][:200]
        chars = []
        for u in sample:
            try:
                chars.append(sum(len(m["content"]) for m in ctx.messages(u)))
            except KeyError:  # deref judge before its reference exists: use the with-GT size
                chars.append(6000)
        ptok = int(sum(chars) / max(len(chars), 1) / 4 * len(us))
        ctok = min(cfg.decoding.max_tokens or 10**9, COMPLETION_GUESS.get(us[0].kind, 300)) * len(us)
        out["calls"][k] = {"calls": len(us), "prompt_tokens": ptok, "completion_tokens": ctok}
        out["prompt_tokens"] += ptok
        out["completion_tokens"] += ctok
    out["usd"] = _cost(cfg, out["prompt_tokens"], out["completion_tokens"])
    return out


def _reparse(store: Any, hashes: list[str]) -> Counter:
    """Re-parse every stored raw reply of the given run hashes (no calls); return new statuses."""
    c: Counter = Counter()
    for r in list(store.rows(hashes)):
        if r["raw"] is None and r["reasoning"] is None:
            c[r["status"]] += 1
            continue
        status, parsed = _parse_unit(r["kind"], r["raw"], r["reasoning"], r["finish_reason"])
        store.overwrite_parse(r["key"], status, parsed)
        c[status] += 1
    return c


def _outcomes(store: Any, hashes: list[str], kinds: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Return {key: row} of stored rows of the given kinds."""
    return {r["key"]: r for k in kinds for r in store.rows(hashes, k)}


def _provenance(r: dict[str, Any]) -> dict[str, Any]:
    """Return the provenance fields of a stored row kept in exports."""
    parsed = r.get("parsed") or {}
    return {"attempts": r["attempts"], "model": r["model"], "fingerprint": r["fingerprint"],
            "prompt_hash": r["prompt_hash"], "seed": r["seed"], "repaired": bool(parsed.get("repaired")),
            "finish_reason": r["finish_reason"]}


def _merge_judge(units: list[Unit], rows: dict[str, dict[str, Any]]) -> dict[tuple[str, str, str, str], dict[str, Any]]:
    """Return per-(item, condition) outcomes, merging Prometheus' four per-metric calls."""
    acc: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for u in units:
        r = rows.get(u.key)
        if r is None:
            continue
        k = (u.item_id, u.generator, u.difficulty, u.condition)
        if u.kind == "judge":
            p = r["parsed"] or {}
            acc[k] = {"status": r["status"], "scores": p.get("scores"), "justifications": p.get("justifications"),
                      "provenance": _provenance(r)}
        else:
            o = acc.setdefault(k, {"status": P.OK, "scores": {}, "justifications": {}, "provenance": _provenance(r),
                                   "n": 0, "score_1_5": {}})
            p = r["parsed"] or {}
            o["n"] += 1
            o["provenance"]["attempts"] = max(o["provenance"]["attempts"], r["attempts"])
            if r["status"] != P.OK:
                o["status"] = r["status"]
            o["scores"][u.unit] = p.get("score")
            o["justifications"][u.unit] = p.get("feedback", "")
            o["score_1_5"][u.unit] = p.get("score_1_5")
    for o in acc.values():
        if "n" in o:
            if o.pop("n") < len(METRICS) and o["status"] == P.OK:
                o["status"] = P.API_ERROR  # some metric calls never ran
            o["provenance"]["prometheus_1_5"] = o.pop("score_1_5")
    return acc


def _summary_table(units: list[Unit], existing_before: dict[str, str], rows: dict[str, dict[str, Any]]) -> pd.DataFrame:
    """Return ok / null / cached / new counts by generator x difficulty x condition (item level)."""
    items: dict[tuple[str, str, str, str], dict[str, bool]] = {}
    for u in units:
        if u.kind not in ("judge", "prometheus"):
            continue
        k = (u.generator, u.difficulty, u.condition, u.item_id)
        st = rows.get(u.key, {}).get("status")
        d = items.setdefault(k, {"ok": True, "cached": True, "new": False})
        d["ok"] &= st == P.OK
        d["cached"] &= existing_before.get(u.key) == P.OK
        d["new"] |= rows.get(u.key) is not None and existing_before.get(u.key) != P.OK
    if not items:
        return pd.DataFrame(columns=["generator", "difficulty", "condition", "items", "ok", "null", "cached", "new"])
    df = pd.DataFrame([(*k[:3], v["ok"], v["cached"], v["new"]) for k, v in items.items()],
                      columns=["generator", "difficulty", "condition", "ok", "cached", "new"])
    t = df.groupby(["generator", "difficulty", "condition"], sort=False).agg(
        items=("ok", "size"), ok=("ok", "sum"), cached=("cached", "sum"), new=("new", "sum")).reset_index()
    t["null"] = t["items"] - t["ok"]
    t["difficulty"] = pd.Categorical(t["difficulty"], DIFFICULTIES, ordered=True)
    t["condition"] = pd.Categorical(t["condition"], CONDITIONS, ordered=True)
    return t.sort_values(["generator", "difficulty", "condition"])[
        ["generator", "difficulty", "condition", "items", "ok", "null", "cached", "new"]].reset_index(drop=True)


def _meta(cfg: RunConfig, kind: str, generators: list[str], source_label: str, run_hash: str) -> dict[str, Any]:
    """Return a run's .meta.json content (DATA_FORMAT.md section 2)."""
    model = cfg.model if cfg.backend != "static" else "static-v1"
    return {
        "name": cfg.name, "judge": cfg.judge or model, "display": cfg.display or cfg.name,
        "study": cfg.study if cfg.backend != "static" or cfg.study != "new_judge" else "static",
        "conditions": list(cfg.conditions) if kind == "judge" else [],
        "generators": generators, "decoding": cfg.decoding.to_dict() if cfg.backend != "static" else {},
        "prompt_variant": "structured", "backend": cfg.backend, "model": model, "synthetic": False,
        "source": source_label, "kind": kind, "run_hash": run_hash,
        "response_format": cfg.response_format if cfg.backend != "static" else None,
        "created_unix": int(time.time()),
    }


def _check_conditions(conditions: list[str]) -> None:
    """Raise ValueError on an unknown condition name."""
    bad = [c for c in conditions if c not in CONDITIONS]
    if bad:
        raise ValueError(f"unknown conditions {bad}; choose from {CONDITIONS}")


@outside_event_loop
def run_judge(cfg: RunConfig) -> RunSummary:
    """Run (or resume) a judge over the selected items and export data/runs/<name>.jsonl; return the summary."""
    _check_conditions(cfg.conditions)
    t0 = time.time()
    bench, recs, gens = load_items(cfg)
    src_label = getattr(bench, "label", str(cfg.source))
    gen_names = sorted(gens["generator"].astype(str).unique().tolist())
    if cfg.backend == "static":
        return _run_static(cfg, bench, gens, gen_names, src_label, t0)
    run_hash = config_hash(cfg.identity())
    deriver_hash = config_hash(cfg.deriver_identity())
    ctx = Context(bench.records, gens, cfg.seed)
    derivers, units = judge_units(ctx, list(cfg.conditions), run_hash, deriver_hash)
    from ajb_utils.judge.store import Store

    summary = RunSummary(cfg.name, run_hash, n_units=len(units) + len(derivers), dry_run=cfg.dry_run)
    with Store(cfg.store_path or default_store(cfg.name), durable=cfg.durable) as store:
        store.register_run(run_hash, cfg.name, cfg.public())
        hashes = [run_hash, deriver_hash]
        if cfg.reparse:
            summary.statuses = dict(_reparse(store, hashes))
        existing = store.statuses(hashes)
        summary.cached = sum(existing.get(u.key) == P.OK for u in [*derivers, *units])
        pend_d = _pending(derivers, existing, cfg.retry_errors)
        pend_j = [] if cfg.reparse or cfg.offline else _pending(units, existing, cfg.retry_errors)
        pend_d = [] if cfg.reparse or cfg.offline else pend_d
        if cfg.dry_run:
            summary.estimate = _estimate([*pend_d, *pend_j], ctx, cfg)
            summary.elapsed_s = time.time() - t0
            return summary
        stats = _Stats()
        if pend_d or pend_j:
            backend = _make_backend(cfg)
            dbackend = _make_backend(cfg, deriver=True) if pend_d and (cfg.deriver_model or cfg.deriver_base_urls) else backend

            async def go() -> None:
                """Derive references, then judge."""
                try:
                    await _execute(pend_d, ctx, dbackend, store, cfg, stats, "deriver")
                    _load_derived(store, ctx, derivers)
                    ready = [u for u in pend_j if u.needs is None or (ctx.derived.get((u.item_id, u.difficulty)) is not None)]
                    if not stats.abort:
                        await _execute(ready, ctx, backend, store, cfg, stats, f"judge {cfg.name}")
                finally:
                    await backend.aclose()
                    if dbackend is not backend:
                        await dbackend.aclose()

            tc = time.time()
            asyncio.run(go())
            summary.calls_s = time.time() - tc
        summary.new, summary.retries, summary.aborted = stats.new, stats.retries, stats.abort
        summary.prompt_tokens, summary.completion_tokens = stats.prompt_tokens, stats.completion_tokens
        rows = _outcomes(store, [run_hash], ("judge", "prometheus"))
        summary.statuses = dict(Counter(r["status"] for r in rows.values()))
        summary.table = _summary_table(units, existing, rows)
        if cfg.export:
            outcomes = _merge_judge(units, rows)
            from ajb_utils.judge.export import judge_rows, write_jsonl, write_meta

            out = Path(cfg.out_dir)
            n = write_jsonl(out / f"{cfg.name}.jsonl", judge_rows(gens, outcomes, list(cfg.conditions)))
            write_meta(out / f"{cfg.name}.meta.json", _meta(cfg, "judge", gen_names, src_label, run_hash))
            summary.files = [str(out / f"{cfg.name}.jsonl"), str(out / f"{cfg.name}.meta.json")]
            log.info("exported %d rows", n)
    summary.elapsed_s = time.time() - t0
    return summary


def _load_derived(store: Any, ctx: Context, derivers: list[Unit]) -> None:
    """Put every ok derived reference into the context (JSON text for the reference slot)."""
    for u in derivers:
        r = store.get(u.key)
        if r and r["status"] == P.OK and r["parsed"] and r["parsed"].get("reference") is not None:
            ctx.derived[(u.item_id, u.difficulty)] = json.dumps(r["parsed"]["reference"], ensure_ascii=False, indent=2)


def _run_static(cfg: RunConfig, bench: Any, gens: pd.DataFrame, gen_names: list[str], src_label: str,
                t0: float) -> RunSummary:
    """Run the static judge (no model, no store) and export it like any other judge."""
    from ajb_utils.judge.export import judge_rows, write_jsonl, write_meta
    from ajb_utils.judge.static_judge import static_verdicts

    v = static_verdicts(bench, cfg.conditions, generations=gens, seed=cfg.seed)
    summary = RunSummary(cfg.name, "static-v1", n_units=len(gens) * len(cfg.conditions), new=len(gens) * len(cfg.conditions),
                         statuses={P.OK: len(gens) * len(cfg.conditions)}, dry_run=cfg.dry_run)
    if cfg.dry_run:
        summary.estimate = {"calls": {}, "prompt_tokens": 0, "completion_tokens": 0, "usd": 0.0}
        return summary
    outcomes: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    key_cols = ["id", "generator", "difficulty", "condition"]
    wide = v.pivot_table(index=key_cols, columns="metric", values="llm_score", observed=True, aggfunc="first")
    just = v.pivot_table(index=key_cols, columns="metric", values="justification", observed=True, aggfunc="first")
    prov = {"attempts": 1, "model": "static-v1", "fingerprint": None, "prompt_hash": None, "seed": cfg.seed, "repaired": False}
    for k, srow in wide.iterrows():
        outcomes[tuple(map(str, k))] = {"status": P.OK, "scores": {m: float(srow[m]) for m in METRICS},
                                        "justifications": {m: just.at[k, m] for m in METRICS}, "provenance": prov}
    summary.table = (v[v["metric"] == METRICS[0]].groupby(["generator", "difficulty", "condition"], observed=True, sort=False)
                     .size().rename("items").reset_index().assign(ok=lambda d: d["items"], null=0, cached=0, new=lambda d: d["items"]))
    if cfg.export:
        out = Path(cfg.out_dir)
        write_jsonl(out / f"{cfg.name}.jsonl", judge_rows(gens, outcomes, list(cfg.conditions)))
        write_meta(out / f"{cfg.name}.meta.json", _meta(cfg, "judge", gen_names, src_label, "static-v1"))
        summary.files = [str(out / f"{cfg.name}.jsonl"), str(out / f"{cfg.name}.meta.json")]
    summary.elapsed_s = time.time() - t0
    return summary


def _run_records(cfg: RunConfig, kind: str) -> tuple[RunSummary, Any, pd.DataFrame, dict[str, dict[str, Any]], list[Unit]]:
    """Run generator or rewrite units over the selected records; return (summary, bench, recs, rows, units)."""
    t0 = time.time()
    bench, recs, _ = load_items(cfg)
    ids = recs["id"].astype(str).tolist()
    run_hash = config_hash({**cfg.identity(), "role": kind})
    ctx = Context(bench.records, bench.generations.iloc[:0], cfg.seed)
    units = record_units(ctx, kind, run_hash, ids, cfg.difficulties)
    from ajb_utils.judge.store import Store

    summary = RunSummary(cfg.name, run_hash, n_units=len(units), dry_run=cfg.dry_run)
    with Store(cfg.store_path or default_store(cfg.name), durable=cfg.durable) as store:
        store.register_run(run_hash, cfg.name, cfg.public())
        if cfg.reparse:
            _reparse(store, [run_hash])
        existing = store.statuses([run_hash])
        summary.cached = sum(existing.get(u.key) == P.OK for u in units)
        pend = [] if cfg.reparse else _pending(units, existing, cfg.retry_errors)
        if cfg.dry_run:
            summary.estimate = _estimate(pend, ctx, cfg)
            return summary, bench, recs, {}, units
        stats = _Stats()
        if pend:
            backend = _make_backend(cfg)

            async def go() -> None:
                """Run the units."""
                try:
                    await _execute(pend, ctx, backend, store, cfg, stats, f"{kind} {cfg.name}")
                finally:
                    await backend.aclose()

            asyncio.run(go())
        summary.new, summary.retries, summary.aborted = stats.new, stats.retries, stats.abort
        summary.prompt_tokens, summary.completion_tokens = stats.prompt_tokens, stats.completion_tokens
        rows = _outcomes(store, [run_hash], (kind,))
    summary.statuses = dict(Counter(r["status"] for r in rows.values()))
    summary.elapsed_s = time.time() - t0
    return summary, bench, recs, rows, units


@outside_event_loop
def run_generate(cfg: RunConfig) -> RunSummary:
    """Run a new generator (W.1 prompt) and export <out>/generators/<name>.jsonl; return the summary."""
    from ajb_utils.judge.export import generator_rows, write_jsonl, write_meta

    summary, bench, recs, rows, units = _run_records(cfg, "generate")
    if cfg.dry_run or not cfg.export:
        return summary
    outcomes = {}
    for u in units:
        r = rows.get(u.key)
        if r is not None:
            calls = (r["parsed"] or {}).get("calls") if r["status"] == P.OK else None
            outcomes[(u.item_id, u.difficulty)] = {"status": r["status"], "calls": calls, "provenance": _provenance(r)}
    out = Path(cfg.out_dir) / "generators"
    write_jsonl(out / f"{cfg.name}.jsonl", generator_rows(bench.records, outcomes))
    meta = _meta(cfg, "generator", [cfg.name], getattr(bench, "label", cfg.source), summary.run_hash)
    meta["study"] = "new_generator"
    write_meta(out / f"{cfg.name}.meta.json", meta)
    summary.files = [str(out / f"{cfg.name}.jsonl"), str(out / f"{cfg.name}.meta.json")]
    return summary


@outside_event_loop
def run_rewrite(cfg: RunConfig) -> RunSummary:
    """Run the Appendix N rewrite meta-judge; export <out>/annotations/<name>.rewrite_validation.jsonl."""
    from ajb_utils.judge.export import write_jsonl, write_meta
    from ajb_utils.judge.static_judge import static_rewrite_verdicts

    cfg.study = "rewrite_meta_judge"
    out = Path(cfg.out_dir) / "annotations"
    if cfg.backend == "static":
        t0 = time.time()
        bench, recs, _ = load_items(cfg)
        df = static_rewrite_verdicts(recs)
        summary = RunSummary(cfg.name, "static-v1", n_units=len(recs), new=len(recs), statuses={P.OK: len(recs)})
        rows_out = df.to_dict("records")
        run_hash = "static-v1"
        src = getattr(bench, "label", cfg.source)
        summary.elapsed_s = time.time() - t0
    else:
        summary, bench, recs, rows, units = _run_records(cfg, "rewrite")
        if cfg.dry_run:
            return summary
        rec = bench.records.assign(id=bench.records["id"].astype(str)).set_index("id")
        rows_out = []
        meta_judge = cfg.judge or cfg.model
        for u in units:
            r = rows.get(u.key)
            if r is None or r["status"] != P.OK:
                continue
            for k, (pair, crit) in P.REWRITE_CRITERIA.items():
                rows_out.append({"id": u.item_id, "dag_type": str(rec.at[u.item_id, "dag_type"]), "meta_judge": meta_judge,
                                 "pair": pair, "criterion": crit, "verdict": bool(r["parsed"]["verdicts"][k])})
        run_hash, src = summary.run_hash, getattr(bench, "label", cfg.source)
    if cfg.export:
        write_jsonl(out / f"{cfg.name}.rewrite_validation.jsonl", rows_out)
        write_meta(out / f"{cfg.name}.rewrite_validation.meta.json", _meta(cfg, "rewrite_meta_judge", [], src, run_hash))
        summary.files = [str(out / f"{cfg.name}.rewrite_validation.jsonl")]
    return summary
