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

from ajb_judge import prompts
from ajb_judge.static_judge import corrupted_donors
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
    inputs: str = ""  # hash of the texts the prompt is rendered from (part of the key)

    def identity(self) -> dict[str, str]:
        """Return the identity columns of the unit's store row (key, run, what was judged)."""
        return {
            "key": self.key,
            "run_hash": self.run_hash,
            "kind": self.kind,
            "condition": self.condition,
            "item_id": self.item_id,
            "generator": self.generator,
            "difficulty": self.difficulty,
            "unit": self.unit,
            "prompt_hash": self.prompt_hash,
        }


def request_hash(u: Unit) -> str:
    """Return the hash identifying a unit's request: its template(s) and the inputs rendered into them.

    Two units with the same request hash get the same messages (identical requests are sent once),
    and the hash is known without rendering the prompt.
    """
    return hashlib.sha256(json.dumps([u.kind, u.prompt_hash, u.unit, u.inputs]).encode()).hexdigest()[:24]


def unit_key(
    run_hash: str,
    kind: str,
    condition: str,
    item_id: str,
    generator: str,
    difficulty: str,
    unit: str,
    prompt_hash: str,
    inputs_hash: str = "",
) -> str:
    """Return the store key of a unit (sha256 over its identity and the hash of what it judges)."""
    s = json.dumps([run_hash, kind, condition, item_id, generator, difficulty, unit, prompt_hash, inputs_hash])
    return hashlib.sha256(s.encode()).hexdigest()[:32]


def make_unit(
    run_hash: str,
    kind: str,
    condition: str,
    item_id: str,
    generator: str,
    difficulty: str,
    unit: str,
    prompt_hash: str,
    inputs: str,
    row: int = -1,
    needs: str | None = None,
    label: str | None = None,
) -> Unit:
    """Return a unit keyed by unit_key; `label` is its condition where that differs from the key's (the rewrite units)."""
    key = unit_key(run_hash, kind, condition, item_id, generator, difficulty, unit, prompt_hash, inputs)
    return Unit(
        key, run_hash, kind, label or condition, item_id, generator, difficulty, unit, prompt_hash, row, needs, inputs
    )


def inputs_hash(*parts: str) -> str:
    """Return the hash of the texts a prompt is rendered from (query, schemas, plan, reference)."""
    h = hashlib.sha256()
    for p in parts:
        b = p.encode("utf-8", "surrogatepass")
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()[:24]


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
        self._plans: dict[int, str] = {}  # generations row -> hash of its query and rendered plan

    def _generation(self, row: int) -> tuple[str, Any]:
        """Return (user query, generated calls) of a generations row (list access, not pandas .iloc)."""
        if self._rows is None:
            g = self.generations
            self._rows = (g["user_query"].astype(str).tolist(), g["generated_calls"].tolist())
        return self._rows[0][row], self._rows[1][row]

    def plan_text(self, row: int) -> str:
        """Return a generations row's plan rendered for the prompt."""
        calls = self._generation(row)[1]
        return prompts.calls_json(list(calls) if calls is not None else [])

    def plan_hash(self, row: int) -> str:
        """Return (cached: small, unlike the texts) the hash of a row's query and rendered plan."""
        h = self._plans.get(row)
        if h is None:
            h = self._plans[row] = inputs_hash(self._generation(row)[0], self.plan_text(row))
        return h

    def judge_inputs(self, row: int, rid: str, difficulty: str, condition: str, needs: str | None) -> str:
        """Return the hash of what a judge call judges: query, schemas, plan and reference (or its deriver)."""
        # a deref reference: the deriver's key, which holds the hash of its own inputs
        ref = f"derived by {needs}" if condition == "deref" else self.given_reference(condition, rid) or ""
        return inputs_hash(self.plan_hash(row), self.tools_text(rid), ref)

    def record_inputs(self, kind: str, rid: str, difficulty: str) -> str:
        """Return the hash of what a deriver / generator / rewrite call reads of a record."""
        if kind == "deriver":
            return inputs_hash(self.query(rid, difficulty), self.tools_text(rid))
        r = self.records.loc[rid]
        if kind == "generate":
            return inputs_hash(str(r.get("system_prompt") or ""), self.query(rid, difficulty), self.tools_text(rid))
        return inputs_hash(*(str(r[f"query_{d}"]) for d in DIFFICULTIES), self.tools_text(rid), self.reference(rid))

    def given_reference(self, condition: str, rid: str) -> str | None:
        """Return the reference a condition puts in the prompt: the true GT, a donor's (corrupted_gt) or None."""
        if condition in ("with_gt", "freeform", "prometheus"):
            return self.reference(rid)
        return self.reference(self.donors()[rid]) if condition == "corrupted_gt" else None

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

    def ready(self, u: Unit) -> bool:
        """Return whether a unit's messages can be rendered (a deref judge call: once its reference is derived)."""
        return u.needs is None or self.derived.get((u.item_id, u.difficulty)) is not None

    def messages(self, u: Unit) -> prompts.Messages:
        """Return the chat messages of a unit."""
        if u.kind == "deriver":
            return prompts.deriver_messages(self.query(u.item_id, u.difficulty), self.tools_text(u.item_id))
        if u.kind == "rewrite":
            r = self.records.loc[u.item_id]
            return prompts.rewrite_messages(
                r["query_easy"],
                r["query_medium"],
                r["query_hard"],
                self.tools_text(u.item_id),
                prompts.calls_json(list(r["expected_calls"])),
            )
        if u.kind == "generate":
            r = self.records.loc[u.item_id]
            return prompts.generator_messages(
                str(r.get("system_prompt") or ""), self.query(u.item_id, u.difficulty), self.tools_text(u.item_id)
            )
        rid, ref = u.item_id, self.given_reference(u.condition, u.item_id)
        if u.condition == "deref":
            ref = self.derived.get((rid, u.difficulty))
            if ref is None:
                raise KeyError(f"no derived reference for {rid}/{u.difficulty}")
        query = self._generation(u.row)[0]
        return prompts.judge_messages(
            u.condition, query, self.tools_text(rid), self.plan_text(u.row), ref, u.unit or None
        )


def judge_units(
    ctx: Context, conditions: list[str], run_hash: str, deriver_hash: str | None
) -> tuple[list[Unit], list[Unit]]:
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
                if (rid, d) not in derivers:
                    ih = ctx.record_inputs("deriver", rid, d)
                    ph = prompts.template_hash(prompts.DERIVER_TEMPLATE)
                    derivers[(rid, d)] = make_unit(deriver_hash or run_hash, "deriver", "deref", rid, "", d, "", ph, ih)
                needs = derivers[(rid, d)].key
            ih = ctx.judge_inputs(row, rid, d, cond, needs)
            kind = "prometheus" if cond == "prometheus" else "judge"
            units += [make_unit(run_hash, kind, cond, rid, gen, d, m, hashes[m], ih, row, needs) for m in metrics]
    return list(derivers.values()), units


def record_units(
    ctx: Context, kind: str, run_hash: str, ids: list[str], difficulties: list[str] | None = None
) -> list[Unit]:
    """Return generator units (record x difficulty) or rewrite meta-judge units (one per record)."""
    if kind == "generate":
        ph = prompts.template_hash(prompts.GENERATOR_SYSTEM, prompts.GENERATOR_USER)
        return [
            make_unit(run_hash, kind, "", rid, "", d, "", ph, ctx.record_inputs(kind, rid, d))
            for rid in ids
            for d in difficulties or DIFFICULTIES
        ]
    ph = prompts.template_hash(prompts.REWRITE_TEMPLATE)
    return [
        make_unit(run_hash, kind, "", rid, "", "", "", ph, ctx.record_inputs(kind, rid, ""), label="rewrite_meta_judge")
        for rid in ids
    ]
