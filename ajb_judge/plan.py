"""Plan a judge study before paying for it: the records a run needs for a CI half-width, and its cost.

The statistics: a cell (condition x difficulty over the selected generators) is scored as the mean
over generators of each generator's mean record alignment, and its CI comes from resampling the
records within each generator (as ``stats.rank1_probability`` and notebook 15 do). Its standard
error is ``sqrt(sum_g s_g^2 / n_g) / G`` (``stratified_se``) and falls as 1 / sqrt(records), so a
pilot of n records with standard error SE gives the records a half-width h needs:
``n * (z * SE / h)^2`` (``records_needed``). The difference to a reference judge has the same form
with per-item differences (paired: needs both judges on the same items, i.e. a pilot) or with the
two variances added (unpaired). Without a pilot, the six judges' mean variance stands in for the
new judge's. The cost: every prompt of the selection rendered by the runner's own renderer
(``Context.messages``), identical requests counted once, tokens by a stated rule (``TokenRule``),
completion tokens from the pilot's billed mean (or a stated default), times the prices.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ajb_judge.conditions import Context, judge_units, request_hash, stratified_ids
from ajb_judge.runner import COMPLETION_GUESS, SELECT_SEED, default_store, usd_of
from ajb_utils import schema, scoring, stats
from ajb_utils.paths import RUNS_DIR

Z95: float = 1.959963984540054  # two-sided 95 % normal quantile
CHARS_PER_TOKEN: float = 4.0  # the default prompt-token rule: characters / 4
DEFAULT_COMPLETION: int = COMPLETION_GUESS["judge"]  # completion tokens a call without a pilot is assumed to take
MESSAGE_OVERHEAD: int = 4  # tokens a chat template adds per message (tokenizer rule only)
CELL_KEYS: list[str] = ["condition", "difficulty"]
MIN_PILOT_PER_STRATUM: int = 2  # pilot records per generator a cell needs for a variance of its own


# ------------------------------------------------------------------------------------ statistics
def stratified_se(mu: np.ndarray, strata: np.ndarray) -> float:
    """Return the standard error of the mean over strata of each stratum's mean of mu (records resampled within strata)."""
    mu, strata = np.asarray(mu, float), np.asarray(strata)
    groups = [mu[strata == s] for s in np.unique(strata)]
    groups = [g for g in groups if len(g)]
    if not groups:
        return float("nan")
    if any(len(g) < 2 for g in groups):  # one record has no variance (not 0): the SE is unknown
        return float("nan")
    var = sum(np.var(g, ddof=1) / len(g) for g in groups)
    return float(math.sqrt(var) / len(groups))


def records_needed(se: float, n_records: int, h: float, z: float = Z95) -> int:
    """Return the records whose standard error brings z * SE to h, from SE measured on n_records (SE ~ 1/sqrt(n))."""
    if not np.isfinite(se) or n_records <= 0:
        return 0
    return max(1, math.ceil(n_records * (z * se / h) ** 2))


def half_width_at(se: float, n_records: int, n: int, z: float = Z95) -> float:
    """Return the half-width at n records from SE measured on n_records."""
    return z * se * math.sqrt(n_records / n) if n else float("inf")


def _se(wide: pd.DataFrame, col: str, keep: np.ndarray) -> float:
    """Return the stratified SE (pp) of one judge's column over the kept items of a cell (strata: generators)."""
    gen = wide.index.get_level_values("generator").to_numpy()
    return stratified_se(100 * wide[col].to_numpy()[keep], gen[keep]) if keep.any() else float("nan")


def pilot_counts(wide: pd.DataFrame, new: str | None) -> tuple[int, int]:
    """Return (the pilot's records in a cell, its fewest records of one generator there; 0 where it has none)."""
    if new is None or new not in wide:
        return 0, 0
    ok = wide[new].notna().to_numpy()
    gen = wide.index.get_level_values("generator").to_numpy()
    per = pd.Series(ok).groupby(gen).sum()
    return int(wide.index.get_level_values("id")[ok].nunique()), int(per.min()) if len(per) else 0


def _cell_row(wide: pd.DataFrame, new: str | None, reference: str, six: Sequence[str]) -> dict[str, Any]:
    """Return records and SEs (alignment, paired and unpaired difference to the reference) of one cell's (item x judge) table.

    The pilot's own variance is used where it has MIN_PILOT_PER_STRATUM records of every
    generator; elsewhere the six judges' mean variance stands in (``variance``) and the paired SE
    is unknown (NaN).
    """
    ref_ok = wide[reference].notna().to_numpy() if reference in wide else np.zeros(len(wide), bool)
    ids = wide.index.get_level_values("id")
    n_pilot, fewest = pilot_counts(wide, new)
    pilot = {"pilot_records": n_pilot, "pilot_min_per_generator": fewest}
    if new is not None and fewest >= MIN_PILOT_PER_STRATUM:
        ok = wide[new].notna().to_numpy()
        both = ok & ref_ok
        gen = wide.index.get_level_values("generator").to_numpy()
        d = 100 * (wide[new] - wide[reference]).to_numpy() if reference in wide else np.full(len(wide), np.nan)
        s_new, n = _se(wide, new, ok), int(ids[ok].nunique())
        s_pair = stratified_se(d[both], gen[both]) if both.any() else float("nan")
        s_ref = _se(wide, reference, both)
        source = "pilot"
    else:
        vars_ = [_se(wide, j, wide[j].notna().to_numpy()) ** 2 for j in six if j in wide]
        s_new = math.sqrt(float(np.mean(vars_))) if vars_ else float("nan")
        n, s_pair, s_ref = int(ids.nunique()), float("nan"), _se(wide, reference, ref_ok)
        source = "six judges"
    se_unpaired = math.sqrt(s_new**2 + s_ref**2)
    return {
        "records": n,
        "se_align": s_new,
        "se_paired": s_pair,
        "se_unpaired": se_unpaired,
        **pilot,
        "variance": source,
    }


def cell_ses(mu: pd.DataFrame, new: str | None, reference: str, six: Sequence[str]) -> pd.DataFrame:
    """Return per (condition, difficulty) cell: records, se_align, se_paired, se_unpaired (pp).

    ``mu``: record alignments (judge, id, generator, difficulty, condition, mu). With ``new`` (a
    pilot) the new judge's items are used and the reference is paired with it on them; without,
    or in a cell where the pilot has fewer than MIN_PILOT_PER_STRATUM records of a generator, the
    new judge's variance is the six judges' mean variance on every item, and se_paired is NaN.
    Also: pilot_records, pilot_min_per_generator and variance ("pilot" or "six judges") per cell.
    """
    mu = mu.assign(**{k: mu[k].astype(str) for k in ("judge", "generator", "condition", "difficulty")})
    rows = []
    for (cond, diff), g in mu.groupby(CELL_KEYS, sort=False):
        wide = g.pivot_table(index=["generator", "id"], columns="judge", values="mu", aggfunc="first", observed=True)
        rows.append({"condition": cond, "difficulty": diff, **_cell_row(wide, new, reference, six)})
    out = pd.DataFrame(rows)
    rank = {c: i for i, c in enumerate(schema.CONDITIONS)}, {d: i for i, d in enumerate(schema.DIFFICULTIES)}
    order = np.lexsort((out["difficulty"].map(rank[1]).to_numpy(), out["condition"].map(rank[0]).to_numpy()))
    return out.iloc[order].reset_index(drop=True)


def needed(ses: pd.DataFrame, column: str, h: float, z: float = Z95) -> tuple[int, str, float, int]:
    """Return (records, binding cell, its SE, its records) so that every cell's half-width of `column` is at most h."""
    n = [records_needed(s, r, h, z) for s, r in zip(ses[column], ses["records"], strict=True)]
    if not n or not any(n):
        return 0, "", float("nan"), 0
    i = int(np.argmax(n))
    cell = f"{ses['condition'].iloc[i]}/{ses['difficulty'].iloc[i]}"
    return n[i], cell, float(ses[column].iloc[i]), int(ses["records"].iloc[i])


# ------------------------------------------------------------------------------------ tokens
@dataclass(frozen=True)
class TokenRule:
    """How prompt tokens are counted: per character (point, low, high) or by a tokenizer's count."""

    name: str
    per_char: float = 1 / CHARS_PER_TOKEN
    low: float | None = None  # per-character bounds the plan states (None: no bound known)
    high: float | None = None
    count: Callable[[str], int] | None = None  # a tokenizer: tokens of one message's text

    def apply(self, requests: pd.DataFrame) -> pd.DataFrame:
        """Return requests with tokens, tokens_lo, tokens_hi (NaN where no bound is stated) from chars or counted."""
        if self.count is not None:
            n = requests["counted"].astype(float)
            return requests.assign(tokens=n, tokens_lo=n, tokens_hi=n)
        c = requests["chars"].astype(float)
        return requests.assign(
            tokens=c * self.per_char,
            tokens_lo=c * self.low if self.low is not None else np.nan,
            tokens_hi=c * self.high if self.high is not None else np.nan,
        )


def chars_rule(chars_per_token: float = CHARS_PER_TOKEN) -> TokenRule:
    """Return the rule of thumb characters / chars_per_token (no bound: a provider's tokenizer may differ by 2x)."""
    return TokenRule(f"characters / {chars_per_token:g} (a rule of thumb, no stated bound)", 1 / chars_per_token)


def pilot_rule(chars: np.ndarray, billed: np.ndarray) -> TokenRule:
    """Return tokens per character calibrated on the pilot's billed calls: the ratio of sums, bounded by the per-call min and max."""
    chars, billed = np.asarray(chars, float), np.asarray(billed, float)
    ratio = billed / chars
    return TokenRule(
        f"the pilot's billed prompt tokens per character ({len(chars)} calls: {ratio.min():.4f}-{ratio.max():.4f}, "
        f"pooled {billed.sum() / chars.sum():.4f}); stated range: the per-call min and max",
        float(billed.sum() / chars.sum()),
        float(ratio.min()),
        float(ratio.max()),
    )


def tokenizer_rule(spec: str) -> TokenRule:
    """Return a rule counting with an installed tokenizer: 'tiktoken:<encoding>' or 'hf:<model name or path>'."""
    kind, _, name = spec.partition(":")
    try:
        if kind == "tiktoken":
            import tiktoken

            enc = tiktoken.get_encoding(name)
            return TokenRule(
                f"tokenizer tiktoken:{name} (+{MESSAGE_OVERHEAD} per message)", count=lambda t: len(enc.encode(t))
            )
        if kind == "hf":
            from transformers import AutoTokenizer

            tok = AutoTokenizer.from_pretrained(name)
            return TokenRule(
                f"tokenizer hf:{name} (+{MESSAGE_OVERHEAD} per message)", count=lambda t: len(tok.encode(t))
            )
    except ImportError as exc:
        raise ValueError(
            f"--tokenizer {spec}: {exc.name} is not installed; leave --tokenizer out for characters / 4"
        ) from None
    raise ValueError(f"--tokenizer {spec!r}: give tiktoken:<encoding> or hf:<model name or path>")


@dataclass(frozen=True)
class CompletionRule:
    """Completion tokens per call: a point estimate and the range the plan states."""

    name: str
    mean: float
    low: float | None = None
    high: float | None = None


def completion_rule(billed: np.ndarray | None, default: int = DEFAULT_COMPLETION) -> CompletionRule:
    """Return the pilot's billed completion tokens per call (mean, min, max), or the stated default without a pilot."""
    if billed is None or not len(billed):
        return CompletionRule(f"{default} per call (a stated default; a pilot measures it)", float(default))
    b = np.asarray(billed, float)
    return CompletionRule(
        f"the pilot's billed mean {b.mean():.0f} per call ({len(b)} calls, range {b.min():.0f}-{b.max():.0f})",
        float(b.mean()),
        float(b.min()),
        float(b.max()),
    )


# ------------------------------------------------------------------------------------ cost
def selection_requests(
    bench: Any,
    conditions: Sequence[str],
    generators: Sequence[str] | None,
    difficulties: Sequence[str] | None,
    seed: int,
    run_hash: str,
    count: Callable[[str], int] | None = None,
) -> pd.DataFrame:
    """Return one row per judge unit of the whole selection (every record): ids, key, request hash, chars (and counted).

    Rendered by the runner's own renderer (``Context.messages``), so the texts are what a run sends.
    """
    g = bench.generations
    mask = np.ones(len(g), bool)
    if generators:
        mask &= g["generator"].isin(list(generators))
    if difficulties:
        mask &= g["difficulty"].isin(list(difficulties))
    ctx = Context(bench.records, g[mask].reset_index(drop=True), seed)
    derivers, units = judge_units(ctx, list(conditions), run_hash, None)
    if derivers:
        raise ValueError("plan does not cost the deref condition (its prompts need the deriver's answers first)")
    rows = []
    for u in units:
        texts = [str(m["content"]) for m in ctx.messages(u)]
        counted = sum(count(t) + MESSAGE_OVERHEAD for t in texts) if count else 0
        rows.append(
            (u.item_id, u.generator, u.difficulty, u.condition, u.key, request_hash(u), sum(map(len, texts)), counted)
        )
    cols = ["id", "generator", "difficulty", "condition", "key", "request", "chars", "counted"]
    return pd.DataFrame(rows, columns=cols)


def cost_at(
    requests: pd.DataFrame,
    ids: Sequence[str],
    stored: set[str],
    completion: CompletionRule,
    price_in: float | None,
    price_out: float | None,
) -> dict[str, Any]:
    """Return items per cell, calls (identical requests once, stored ones not again), tokens and USD of a selection of ids."""
    sel = requests[requests["id"].isin(set(ids))]
    per_cell = sel.groupby(CELL_KEYS).size()
    new = sel[~sel["key"].isin(stored)]
    stored_requests = set(sel.loc[sel["key"].isin(stored), "request"])
    calls = new.drop_duplicates("request")
    calls = calls[~calls["request"].isin(stored_requests)]
    n = len(calls)

    def total(col: str) -> float | None:
        """Return the column's sum over the calls (None when any call has no bound)."""
        return None if calls[col].isna().any() else float(calls[col].sum())

    out: dict[str, Any] = {
        "items_min": int(per_cell.min()) if len(per_cell) else 0,
        "items_max": int(per_cell.max()) if len(per_cell) else 0,
        "calls": n,
        "stored": int(len(sel) - len(new)),
        "chars": int(calls["chars"].sum()),
        "prompt": float(calls["tokens"].sum()),
        "prompt_lo": total("tokens_lo"),
        "prompt_hi": total("tokens_hi"),
        "completion": n * completion.mean,
        "completion_lo": n * completion.low if completion.low is not None else None,
        "completion_hi": n * completion.high if completion.high is not None else None,
    }
    out["usd"] = usd_of(out["prompt"], out["completion"], price_in, price_out)
    out["usd_lo"] = usd_of(out["prompt_lo"], out["completion_lo"], price_in, price_out)
    out["usd_hi"] = usd_of(out["prompt_hi"], out["completion_hi"], price_in, price_out)
    return out


# ------------------------------------------------------------------------------------ the plan
@dataclass
class PlanConfig:
    """What to plan: the selection, the pilot (or none), the reference judge, the targets and the prices."""

    source: str = "sample"
    bench: Any = None  # a loaded Bench with the six (and the pilot's run) instead of loading source
    pilot: str | None = None
    out_dir: Path = RUNS_DIR  # where the pilot's export lives (its store under <out_dir>/.store/)
    store_path: Path | None = None
    reference: str = "judge_gpt_5_4"
    targets: Sequence[float] = (1.0, 2.0, 3.0)
    conditions: Sequence[str] | None = None  # None: the pilot's, else with_gt, without_gt
    generators: Sequence[str] | None = None
    difficulties: Sequence[str] | None = None
    seed: int = SELECT_SEED
    price_in: float | None = None
    price_out: float | None = None
    completion_tokens: int = DEFAULT_COMPLETION
    chars_per_token: float = CHARS_PER_TOKEN
    tokenizer: str | None = None
    z: float = Z95


@dataclass
class Plan:
    """The plan: its table (one row per target and quantity), the per-cell standard errors and the assumptions."""

    table: pd.DataFrame
    cells: pd.DataFrame
    assumptions: list[str] = field(default_factory=list)
    synthetic: bool = False
    warnings: list[str] = field(default_factory=list)  # what makes a row of the table unplanned or less sure


def _pilot_meta(cfg: PlanConfig) -> dict[str, Any]:
    """Return the pilot's .meta.json (the selection it asked, its run hash, source, model)."""
    path = Path(cfg.out_dir) / f"{cfg.pilot}.meta.json"
    if not path.exists():
        raise ValueError(
            f"pilot run {cfg.pilot!r}: no {path}; run it first (python -m ajb_judge run ... --name {cfg.pilot})"
        )
    return json.loads(path.read_text())


def pilot_verdicts(path: Path, name: str) -> pd.DataFrame:
    """Return a judge export's long verdicts (judge, id, generator, difficulty, condition, metric, p, llm_score, match)."""
    if not path.exists():
        raise ValueError(f"pilot run {name!r}: no {path} (its export); run it again to write it, or give --out")
    wide = pd.json_normalize([json.loads(x) for x in path.read_text().splitlines() if x.strip()])
    keys = ["id", "generator", "difficulty"]
    parts = []
    for cond in schema.CONDITIONS:
        for m in schema.METRICS:
            col = f"{cond}.{m}.llm_score"
            if col not in wide:
                continue
            part = wide[keys].astype(str).assign(condition=cond, metric=m)
            part["llm_score"] = pd.to_numeric(wide[col], errors="coerce")
            part["p"] = pd.to_numeric(wide[f"{cond}.{m}.programmatic_score"], errors="coerce")
            parts.append(part[part["llm_score"].notna() | wide[col].isna()])
    cols = [*keys, "condition", "metric", "llm_score", "p"]
    out = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=cols)
    out = out[out["llm_score"].notna()].reset_index(drop=True)  # a null verdict is no verdict (as load_bench)
    return out.assign(judge=name, match=scoring.match(out["p"], out["llm_score"]))


def _pilot_usage(cfg: PlanConfig, meta: dict[str, Any]) -> pd.DataFrame:
    """Return the pilot's stored judge rows (key, ids, status, billed tokens); empty for a static pilot or no store."""
    from ajb_judge.store import Store

    cols = ["key", "status", "prompt_tokens", "completion_tokens", "reused_from"]
    if not cfg.pilot:
        return pd.DataFrame(columns=cols)
    path = Path(cfg.store_path or default_store(str(cfg.pilot), cfg.out_dir))
    if meta.get("backend") == "static" or not path.exists():
        return pd.DataFrame(columns=cols)
    with Store(path, lock=False) as store:
        rows = list(store.rows([meta["run_hash"]], kind="judge"))
    return pd.DataFrame(rows)[cols] if rows else pd.DataFrame(columns=cols)


def _load(cfg: PlanConfig) -> Any:
    """Return the bench with the six judges (and the pilot's run)."""
    if cfg.bench is not None:
        return cfg.bench
    from ajb_utils.data import load_bench

    return load_bench(cfg.source, judges=list(schema.MAIN_JUDGES), runs=None)  # the pilot: from --out (pilot_verdicts)


def _rules(
    cfg: PlanConfig, requests: pd.DataFrame, usage: pd.DataFrame, tokenizer: TokenRule | None
) -> tuple[TokenRule, CompletionRule]:
    """Return the token rules: a tokenizer if asked; else calibrated on the pilot's bill when it has one; else characters / 4."""
    paid = usage[(usage["prompt_tokens"].fillna(0) > 0) & usage["reused_from"].isna()] if len(usage) else usage
    if tokenizer is not None:
        rule = tokenizer
    else:
        chars = requests.set_index("key")["chars"].reindex(paid["key"]).to_numpy(float) if len(paid) else np.zeros(0)
        ok = np.isfinite(chars)  # the pilot's calls inside this selection
        rule = (
            pilot_rule(chars[ok], paid["prompt_tokens"].to_numpy(float)[ok])
            if ok.any()
            else chars_rule(cfg.chars_per_token)
        )
    done = paid[paid["status"] == "ok"] if len(paid) else paid
    comp = completion_rule(done["completion_tokens"].to_numpy(float) if len(done) else None, cfg.completion_tokens)
    return rule, comp


def make_plan(cfg: PlanConfig) -> Plan:
    """Return the plan: records needed per target for alignment and for the difference to the reference, and each run's cost."""
    meta = _pilot_meta(cfg) if cfg.pilot else {}
    sel = meta.get("selection") or {}
    gens = cfg.generators or sel.get("generators")
    diffs = cfg.difficulties or sel.get("difficulties")
    conds = list(cfg.conditions or sel.get("conditions") or schema.MAIN_CONDITIONS)
    seed = int(sel.get("seed", cfg.seed)) if cfg.pilot else cfg.seed
    bench = _load(cfg)
    if cfg.reference not in set(bench.judges["judge"]):
        raise ValueError(
            f"--reference {cfg.reference!r} is not a judge of this source; choose from: {', '.join(schema.MAIN_JUDGES)}"
        )
    v = bench.verdicts
    keep = v["condition"].isin(conds)
    if gens:
        keep &= v["generator"].isin(list(gens))
    if diffs:
        keep &= v["difficulty"].isin(list(diffs))
    mu = stats.record_alignment(v[keep & v["judge"].isin(schema.MAIN_JUDGES)], missing="exclude")
    if cfg.pilot:  # read where the run was written (--out), whatever the bench holds under that name
        pv = pilot_verdicts(Path(cfg.out_dir) / f"{cfg.pilot}.jsonl", cfg.pilot)
        pv = pv[pv["condition"].isin(conds) & pv["id"].isin(set(bench.records["id"].astype(str)))]
        pv = pv[pv["generator"].isin(list(gens))] if gens else pv
        pv = pv[pv["difficulty"].isin(list(diffs))] if diffs else pv
        mu = pd.concat([mu, stats.record_alignment(pv, missing="exclude")], ignore_index=True)
    ses = cell_ses(mu, cfg.pilot, cfg.reference, schema.MAIN_JUDGES)
    usage = _pilot_usage(cfg, meta)
    rule_tok = tokenizer_rule(cfg.tokenizer) if cfg.tokenizer else None
    requests = selection_requests(
        bench, conds, gens, diffs, seed, meta.get("run_hash", "plan"), rule_tok and rule_tok.count
    )
    rule, comp = _rules(cfg, requests, usage, rule_tok)
    requests = rule.apply(requests)
    stored = set(usage.loc[usage["status"] == "ok", "key"]) if len(usage) else set()
    table = _plan_rows(cfg, bench, ses, requests, stored, comp, seed)
    n_total = len(bench.records)
    quantities = "alignment and the paired difference" if cfg.pilot else "alignment and the unpaired difference"
    thin = _cell_names(ses[ses["variance"] != "pilot"])
    source = (
        f"the pilot {cfg.pilot!r} on its items"
        + (
            f" in {len(ses) - len(thin)} cells, the six judges' mean variance in {len(thin)} cells: {', '.join(thin)} "
            f"(the pilot has fewer than {MIN_PILOT_PER_STRATUM} records per generator there)"
            if thin
            else ""
        )
        if cfg.pilot
        else "no pilot: the six judges' mean variance per cell stands in for the new judge"
    )
    assumptions = [
        f"variance: {source}; {quantities} to {schema.display(cfg.reference)}"
        + ("" if cfg.pilot else " (a paired figure needs a pilot: run one with a small --limit)"),
        f"CI: {100 * (1 - 2 * (1 - _phi(cfg.z))):.0f} % normal interval of the cell score (mean over generators, records resampled "
        f"within generators); SE falls as 1/sqrt(records); records = --limit (stratified over topologies), the source holds {n_total}",
        f"selection: source {getattr(bench, 'label', cfg.source)}, conditions {', '.join(conds)}, generators "
        f"{', '.join(gens) if gens else 'all'}, difficulties {', '.join(diffs) if diffs else 'all'}, --select-seed {seed}",
        f"prompt tokens: {rule.name}; prompts rendered by the runner (identical requests once"
        + (", the pilot's stored calls not again)" if cfg.pilot else ")"),
        f"completion tokens: {comp.name}",
        "prices: "
        + (
            f"USD {cfg.price_in:g} / {cfg.price_out:g} per 1M prompt / completion tokens"
            if cfg.price_in is not None and cfg.price_out is not None
            else "none given (--price-in, --price-out)"
        ),
    ]
    warnings = []
    if cfg.pilot:
        per_cell = ", ".join(
            f"{n} {r} ({f})"
            for n, r, f in zip(_cell_names(ses), ses["pilot_records"], ses["pilot_min_per_generator"], strict=True)
        )
        assumptions.append(f"pilot {cfg.pilot!r} records per cell (fewest per generator): {per_cell}")
        if thin:
            warnings.append(
                f"the pilot {cfg.pilot!r} has fewer than {MIN_PILOT_PER_STRATUM} records per generator in "
                f"{len(thin)} of {len(ses)} cells ({', '.join(thin)}): their variance is the six judges' and no "
                "paired figure is planned; a pilot stopped by its budget or with null verdicts looks like this: "
                "extend it (a larger --limit, --retry-errors) and plan again"
            )
    return Plan(table, ses, assumptions, bool(getattr(bench, "synthetic", False)), warnings)


def _cell_names(ses: pd.DataFrame) -> list[str]:
    """Return the cells of a per-cell table as condition/difficulty."""
    return [f"{c}/{d}" for c, d in zip(ses["condition"], ses["difficulty"], strict=True)]


def _phi(z: float) -> float:
    """Return the standard normal CDF at z."""
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def _plan_rows(
    cfg: PlanConfig,
    bench: Any,
    ses: pd.DataFrame,
    requests: pd.DataFrame,
    stored: set[str],
    comp: CompletionRule,
    seed: int,
) -> pd.DataFrame:
    """Return one row per (target, quantity): records needed, binding cell, reachability, items, calls, tokens, USD."""
    n_total = len(bench.records)
    quantities = [
        ("alignment", "se_align"),
        (
            f"diff to {schema.display(cfg.reference)} ({'paired' if cfg.pilot else 'unpaired'})",
            "se_paired" if cfg.pilot else "se_unpaired",
        ),
    ]
    if cfg.pilot:
        quantities.append((f"diff to {schema.display(cfg.reference)} (unpaired)", "se_unpaired"))
    rows = []
    for h in cfg.targets:
        for label, col in quantities:
            missing = _cell_names(ses[ses[col].isna()])
            if missing:  # a cell without a variance: no number of records is known to reach h there
                rows.append(_no_estimate(h, label, missing, len(ses)))
                continue
            n, cell, se, n0 = needed(ses, col, h, cfg.z)
            c = cost_at(
                requests,
                stratified_ids(bench.records, min(n, n_total), seed),
                stored,
                comp,
                cfg.price_in,
                cfg.price_out,
            )
            reach = (
                "yes"
                if n <= n_total
                else f"no: the source holds {n_total} (+-{half_width_at(se, n0, n_total, cfg.z):.1f} pp with all)"
            )
            rows.append(
                {
                    "target_pp": h,
                    "quantity": label,
                    "records": n,
                    "binding_cell": cell,
                    "reachable": reach,
                    "cells": len(ses),
                    **c,
                }
            )
    return pd.DataFrame(rows)


def _no_estimate(h: float, label: str, cells: list[str], n_cells: int) -> dict[str, Any]:
    """Return a plan row that plans nothing: how many cells have no variance for this quantity (the warning names them)."""
    why = f"no estimate: < {MIN_PILOT_PER_STRATUM} pilot records per generator in {len(cells)} of {n_cells} cells"
    empty = dict.fromkeys(["items_min", "items_max", "calls", "stored", "chars", "prompt", "prompt_lo", "prompt_hi",
                           "completion", "completion_lo", "completion_hi", "usd", "usd_lo", "usd_hi"])  # fmt: skip
    return {"target_pp": h, "quantity": label, "records": None, "binding_cell": "", "reachable": why,
            "cells": n_cells, **empty}  # fmt: skip


# ------------------------------------------------------------------------------------ output
def _tok(x: float | None) -> str:
    """Return a token count as text (k / M)."""
    if x is None:
        return "?"
    return f"{x / 1e6:.2f}M" if x >= 1e6 else f"{x / 1e3:.0f}k" if x >= 1e3 else f"{x:.0f}"


def _count(x: Any) -> str:
    """Return a count as text ("?" where the plan has none)."""
    return "?" if x is None or (isinstance(x, float) and math.isnan(x)) else str(int(x))


def _range(p: float | None, lo: float | None, hi: float | None, fmt: Callable[[float | None], str]) -> str:
    """Return 'point [lo, hi]' (or the point alone when no range is stated)."""
    return fmt(p) if lo is None or hi is None else f"{fmt(p)} [{fmt(lo)}, {fmt(hi)}]"


def plan_display(plan: Plan) -> pd.DataFrame:
    """Return the plan table as shown: target, quantity, records (--limit), items per cell, calls, tokens and USD with their stated ranges."""
    t = plan.table
    counts = ["records", "calls", "items_min", "items_max"]
    if t["records"].isna().any():  # a row planned without a number: shown "?" (numbers as text)
        t = t.astype(object).where(t.notna(), None)
        t = t.assign(**{c: [_count(x) for x in t[c]] for c in counts})
    usd = lambda x: "?" if x is None else f"${x:,.2f}"  # noqa: E731
    return pd.DataFrame(
        {
            "target": [f"+-{h:g} pp" for h in t["target_pp"]],
            "quantity": t["quantity"],
            "records (--limit)": t["records"],
            "binding cell": t["binding_cell"],
            "reachable": t["reachable"],
            "cells": t["cells"],
            "items/cell": [
                f"{a}" if a == b else f"{a}-{b}" for a, b in zip(t["items_min"], t["items_max"], strict=True)
            ],
            "calls": t["calls"],
            "prompt tok": [_range(*r, _tok) for r in zip(t["prompt"], t["prompt_lo"], t["prompt_hi"], strict=True)],
            "completion tok": [
                _range(*r, _tok) for r in zip(t["completion"], t["completion_lo"], t["completion_hi"], strict=True)
            ],
            "USD": [_range(*r, usd) for r in zip(t["usd"], t["usd_lo"], t["usd_hi"], strict=True)],
        }
    )


def plan_text(plan: Plan) -> str:
    """Return the plan as the CLI prints it: a banner on synthetic data, the table, the assumptions."""
    lines = []
    if plan.synthetic:
        lines.append("SYNTHETIC SAMPLE: these variances are planted by the simulator, not the paper's judges.")
    lines += [f"WARNING: {w}" for w in plan.warnings]
    with pd.option_context("display.width", 250, "display.max_columns", 20, "display.max_colwidth", 60):
        lines.append(plan_display(plan).to_string(index=False))
    lines.append("assumptions:")
    lines += [f"  - {a}" for a in plan.assumptions]
    calls_note = "items and calls at min(records, the source's records); calls = requests still to pay"
    lines.append(f"  - {calls_note}; tokens and USD: point [stated range] where a range is known")
    return "\n".join(lines)
