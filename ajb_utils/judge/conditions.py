"""Work units: one model call each (item x condition [x metric]), with a stable store key.

Messages are rendered lazily from a shared context, so a 57k-item x 2-condition run holds only
small unit tuples in memory. ``corrupted_gt`` takes another record's reference of the same
topology (a seeded derangement, ``static_judge.corrupted_donors``); ``deref`` waits for a deriver
unit per (record, difficulty) that reads the query and schemas only.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ajb_utils.judge import prompts
from ajb_utils.judge.static_judge import corrupted_donors
from ajb_utils.schema import DIFFICULTIES, METRICS, TOPOLOGIES


@dataclass(frozen=True, slots=True)
class Unit:
    """One model call to make (or found in the store)."""

    key: str
    run_hash: str
    kind: str  # judge | prometheus | deriver | generate | rewrite
    condition: str
    item_id: str
    generator: str
    difficulty: str
    unit: str  # metric for prometheus, else ""
    prompt_hash: str
    row: int  # index into the context's generations (or records) frame
    needs: str | None = None  # key of the deriver unit a deref judge call waits for


def unit_key(run_hash: str, kind: str, condition: str, item_id: str, generator: str,
             difficulty: str, unit: str, prompt_hash: str) -> str:
    """Return the store key of a unit (sha256 over its identity)."""
    s = json.dumps([run_hash, kind, condition, item_id, generator, difficulty, unit, prompt_hash])
    return hashlib.sha256(s.encode()).hexdigest()[:32]


def config_hash(identity: dict[str, Any]) -> str:
    """Return the hash of a run's identity (model, backend, decoding, seeds; never secrets or URLs)."""
    return hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()[:16]


def stratified_ids(records: pd.DataFrame, limit: int | None, seed: int = 0) -> list[str]:
    """Return `limit` record ids spread evenly over topologies (all ids if limit is None)."""
    ids = records["id"].astype(str)
    if limit is None or limit >= len(ids):
        return ids.tolist()
    rng = np.random.default_rng(seed)
    pools: list[list[str]] = []
    dags = records["dag_type"].astype(str)
    order = [t for t in TOPOLOGIES if t in set(dags)] + sorted(set(dags) - set(TOPOLOGIES))
    for t in order:
        pool = sorted(ids[dags == t].tolist())
        pools.append([pool[i] for i in rng.permutation(len(pool))])
    out: list[str] = []
    while len(out) < limit and any(pools):
        for p in pools:
            if p and len(out) < limit:
                out.append(p.pop())
    return out


class Context:
    """Everything needed to render any unit's messages (records, generations, references)."""

    def __init__(self, records: pd.DataFrame, generations: pd.DataFrame, corrupt_seed: int = 0) -> None:
        """Index records by id and keep the generations frame."""
        self.records = records.assign(id=records["id"].astype(str)).set_index("id", drop=False)
        self.generations = generations.reset_index(drop=True)
        self._tools: dict[str, str] = {}
        self._donors: dict[str, str] | None = None
        self.corrupt_seed = corrupt_seed
        self.derived: dict[tuple[str, str], str] = {}  # (record id, difficulty) -> reference JSON
        self._rows: tuple[list[Any], list[Any]] | None = None  # generations' query / calls as lists
        self._refs: dict[str, str] = {}  # record id -> rendered expected calls

    def _generation(self, row: int) -> tuple[str, Any]:
        """Return (user query, generated calls) of a generations row (list access, not pandas .iloc)."""
        if self._rows is None:
            g = self.generations
            self._rows = (g["user_query"].astype(str).tolist(), g["generated_calls"].tolist())
        return self._rows[0][row], self._rows[1][row]

    def reference(self, rid: str) -> str:
        """Return (cached) a record's expected calls rendered for the reference slot."""
        t = self._refs.get(rid)
        if t is None:
            t = self._refs[rid] = prompts.calls_json(list(self.records.at[rid, "expected_calls"]))
        return t

    def donors(self) -> dict[str, str]:
        """Return the C3 donor map (computed over the whole benchmark, so --limit cannot change it)."""
        if self._donors is None:
            self._donors = corrupted_donors(self.records.reset_index(drop=True), self.corrupt_seed)
        return self._donors

    def tools_text(self, rid: str) -> str:
        """Return (cached) the rendered tool schemas of a record."""
        t = self._tools.get(rid)
        if t is None:
            t = self._tools[rid] = prompts.tools_json(list(self.records.at[rid, "tools"]))
        return t

    def query(self, rid: str, difficulty: str) -> str:
        """Return a record's query at one difficulty."""
        return str(self.records.at[rid, f"query_{difficulty}"])

    def messages(self, u: Unit) -> prompts.Messages:
        """Return the chat messages of a unit."""
        if u.kind == "deriver":
            return prompts.deriver_messages(self.query(u.item_id, u.difficulty), self.tools_text(u.item_id))
        if u.kind == "rewrite":
            r = self.records.loc[u.item_id]
            return prompts.rewrite_messages(r["query_easy"], r["query_medium"], r["query_hard"],
                                            self.tools_text(u.item_id), prompts.calls_json(list(r["expected_calls"])))
        if u.kind == "generate":
            r = self.records.loc[u.item_id]
            return prompts.generator_messages(str(r.get("system_prompt") or ""), self.query(u.item_id, u.difficulty),
                                              self.tools_text(u.item_id))
        query, calls = self._generation(u.row)
        rid = u.item_id
        ref = None
        if u.condition in ("with_gt", "freeform", "prometheus"):
            ref = self.reference(rid)
        elif u.condition == "corrupted_gt":
            ref = self.reference(self.donors()[rid])
        elif u.condition == "deref":
            ref = self.derived.get((rid, u.difficulty))
            if ref is None:
                raise KeyError(f"no derived reference for {rid}/{u.difficulty}")
        return prompts.judge_messages(u.condition, query, self.tools_text(rid),
                                      prompts.calls_json(list(calls) if calls is not None else []), ref,
                                      u.unit or None)


def judge_units(ctx: Context, conditions: list[str], run_hash: str, deriver_hash: str | None) -> tuple[list[Unit], list[Unit]]:
    """Return (deriver units, judge units) for every generation row in the context."""
    g = ctx.generations
    ids = g["id"].astype(str).tolist()
    gens = g["generator"].astype(str).tolist()
    diffs = g["difficulty"].astype(str).tolist()
    derivers: dict[tuple[str, str], Unit] = {}
    units: list[Unit] = []
    for cond in conditions:
        metrics = METRICS if cond == "prometheus" else [""]
        hashes = {m: prompts.template_hash(*prompts.condition_template_names(cond, m or None)) for m in metrics}
        for row, (rid, gen, d) in enumerate(zip(ids, gens, diffs, strict=True)):
            needs = None
            if cond == "deref":
                dk = (rid, d)
                if dk not in derivers:
                    ph = prompts.template_hash(prompts.DERIVER_TEMPLATE)
                    derivers[dk] = Unit(unit_key(deriver_hash or run_hash, "deriver", "deref", rid, "", d, "", ph),
                                        deriver_hash or run_hash, "deriver", "deref", rid, "", d, "", ph, -1)
                needs = derivers[dk].key
            for m in metrics:
                kind = "prometheus" if cond == "prometheus" else "judge"
                key = unit_key(run_hash, kind, cond, rid, gen, d, m, hashes[m])
                units.append(Unit(key, run_hash, kind, cond, rid, gen, d, m, hashes[m], row, needs))
    return list(derivers.values()), units


def record_units(ctx: Context, kind: str, run_hash: str, ids: list[str], difficulties: list[str] | None = None) -> list[Unit]:
    """Return generator units (record x difficulty) or rewrite meta-judge units (one per record)."""
    out: list[Unit] = []
    if kind == "generate":
        ph = prompts.template_hash(prompts.GENERATOR_SYSTEM, prompts.GENERATOR_USER)
        for rid in ids:
            for d in difficulties or DIFFICULTIES:
                out.append(Unit(unit_key(run_hash, kind, "", rid, "", d, "", ph), run_hash, kind, "", rid, "", d, "", ph, -1))
    else:
        ph = prompts.template_hash(prompts.REWRITE_TEMPLATE)
        for rid in ids:
            out.append(Unit(unit_key(run_hash, kind, "", rid, "", "", "", ph), run_hash, kind, "rewrite_meta_judge", rid, "", "", "", ph, -1))
    return out
