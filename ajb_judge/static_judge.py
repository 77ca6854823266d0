"""The static judge: a schema-only baseline that needs no model and answers like an LLM judge.

Without a reference (``without_gt``, ``without_gt_05``) it reads only the query, the tool schemas
and the plan — never the expected calls:
- tool selection: unknown tools; tools with no tie to the query (no shared name/description word,
  no query number in their arguments, no use of another call's output); plausible missing calls.
- parameter structure: per call, unknown tool or missing required parameter = 0, unknown
  parameter names = 0.5, else 1; mean snapped to {0, 0.5, 1}.
- sequence: an argument that uses an output before it is produced (``step3``, ``$tool``,
  ``{{tool.output}}``, ``<result of tool>``), duplicate calls, plausible gaps.
- query coverage: share of the query's numbers that reach some argument (the rewrite rules keep
  every required number in medium/hard queries), plus tool-mention coverage.
``without_gt_05`` scores 0.5 instead of 1.0 where the evidence is missing (C2's 0.5 default).

With a reference (``with_gt``, ``corrupted_gt``, ``freeform``, ``prometheus``, ``deref``) it applies
the with-GT rubric literally to the reference it is given (the paper's Eqs. 1-3 against that
reference, snapped to {0, 0.5, 1}): with the true GT that is the rubric-following ceiling; with a
corrupted GT it anchors completely; with ``deref`` the reference is derived from the query and
schemas by a static deriver that never sees the candidate.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from ajb_utils.schema import CONDITIONS, METRICS
from ajb_utils.scoring import match

P_COLS: dict[str, str] = {
    "tool_selection": "p_tool",
    "parameter_structure": "p_param",
    "sequence_accuracy": "p_seq",
    "query_coverage": "p_cov",
}
_WORD = re.compile(r"[a-z][a-z0-9]+")
_NUM = re.compile(r"(?<![a-z0-9_])-?\d[\d,]*(?:\.\d+)?")
_STOP = frozenset(
    "the and for with from that this into your you are was were have has get set calculate compute "
    "check fetch list create update data info value values given based current total using use "
    "tool tools function what which when then will can should would please need also about over "
    "under per each all any its their them than like just make sure".split()
)
_REF = re.compile(
    r"(?:step|call)[_\s\-#]?(\d+)|\$\{?([a-z_][a-z0-9_]*)|\{\{\s*([a-z_][a-z0-9_]*)|<\s*(?:result|output)s?\s+of\s+([a-z_][a-z0-9_]*)|(?:result|output)\s+of\s+([a-z_][a-z0-9_]*)",
    re.I,
)


def _words(text: str) -> frozenset[str]:
    """Return the content words of a text (lower-case, no stop words)."""
    return frozenset(w for w in _WORD.findall(text.lower().replace("_", " ")) if w not in _STOP and len(w) > 2)


def _numbers(text: str) -> frozenset[float]:
    """Return the numbers mentioned in a text."""
    out = set()
    for m in _NUM.findall(text.lower()):
        try:
            out.add(float(m.replace(",", "")))
        except ValueError:
            pass
    return frozenset(out)


def _arg_values(obj: Any) -> Iterable[Any]:
    """Yield every leaf value of a (nested) argument structure."""
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _arg_values(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from _arg_values(v)
    else:
        yield obj


def _arg_numbers(args: dict[str, Any]) -> set[float]:
    """Return the numbers carried by a call's arguments (numeric leaves and numbers in strings)."""
    out: set[float] = set()
    for v in _arg_values(args):
        if isinstance(v, bool):
            continue
        if isinstance(v, int | float):
            out.add(float(v))
        elif isinstance(v, str):
            out |= _numbers(v)
    return out


def _num_hit(q: float, nums: set[float]) -> bool:
    """Return whether query number q appears among argument numbers (also as a percentage)."""
    for n in nums:
        if abs(n - q) <= 1e-6 * max(1.0, abs(q)) or (q != 0 and abs(n - q / 100.0) <= 1e-9 + 1e-6 * abs(q / 100.0)):
            return True
    return False


def _snap(x: float) -> float:
    """Return x snapped to the nearest of {0, 0.5, 1} (ties upward)."""
    return 0.0 if x < 0.25 else (0.5 if x < 0.75 else 1.0)


class ToolIndex:
    """A record's tool schemas, pre-digested for the static checks."""

    def __init__(self, tools: list[dict[str, Any]]) -> None:
        """Index tool names, parameter names, required names and words."""
        self.props: dict[str, set[str]] = {}
        self.required: dict[str, set[str]] = {}
        self.words: dict[str, set[str]] = {}
        self.name_words: dict[str, set[str]] = {}
        for t in tools or []:
            n = str(t.get("name"))
            self.props[n] = set((t.get("properties") or {}).keys())
            self.required[n] = set(t.get("required") or [])
            self.name_words[n] = _words(n)
            self.words[n] = self.name_words[n] | _words(str(t.get("description", "")))


def score_without_reference(
    query: str, tix: ToolIndex, calls: list[dict[str, Any]] | None, default: float = 1.0
) -> tuple[dict[str, float], dict[str, str]]:
    """Return (scores, justifications) from the query, schemas and plan only (no reference)."""
    if not calls:
        return (
            {"tool_selection": 0.0, "parameter_structure": 1.0, "sequence_accuracy": 0.0, "query_coverage": 0.0},
            {
                "tool_selection": "The plan selects no tool although the query asks for work.",
                "parameter_structure": "No calls, so no parameter structure can be wrong.",
                "sequence_accuracy": "An empty plan has no logical sequence.",
                "query_coverage": "No part of the query is addressed.",
            },
        )
    qwords, qnums = _words(query), _numbers(query)
    names = [str(c.get("name")) for c in calls]
    args = [c.get("arguments") if isinstance(c.get("arguments"), dict) else {} for c in calls]
    unknown = [n for n in names if n not in tix.props]
    param, issues = _parameter_structure(names, args, tix)
    later_violations, consumed = _dependencies(names, args)
    dup = len(calls) - len({(n, repr(sorted(a.items(), key=str))) for n, a in zip(names, args, strict=True)})
    # --- relevance and coverage
    argnums = [_arg_numbers(a) for a in args]
    all_argnums = set().union(*argnums) if argnums else set()
    num_cov = None if not qnums else sum(_num_hit(q, all_argnums) for q in qnums) / len(qnums)
    irrelevant = [
        n
        for i, n in enumerate(names)
        if n in tix.props
        and not (tix.words[n] & qwords)
        and not any(_num_hit(q, argnums[i]) for q in qnums)
        and i not in consumed
    ]
    mentioned = {n for n, w in tix.name_words.items() if w and len(w & qwords) >= max(1, len(w) - 1) and len(w) >= 2}
    missing_tools = mentioned - set(names)
    just: dict[str, str] = {}
    tool, just["tool_selection"] = _tool_verdict(
        len(calls), unknown, irrelevant, missing_tools, mentioned, num_cov, default
    )
    just["parameter_structure"] = (
        ("; ".join(issues[:3]) + ".")
        if issues
        else "All calls use schema parameter names with every required name present."
    )
    seq, just["sequence_accuracy"] = _sequence_verdict(
        len(calls), later_violations, dup, missing_tools, num_cov, default
    )
    cov, just["query_coverage"] = _coverage_verdict(mentioned, missing_tools, num_cov, default)
    return (
        {"tool_selection": tool, "parameter_structure": param, "sequence_accuracy": seq, "query_coverage": cov},
        just,
    )


def _parameter_structure(names: list[str], args: list[dict[str, Any]], tix: ToolIndex) -> tuple[float, list[str]]:
    """Return the parameter-structure score (schema names, required ones present) and the issues found."""
    per_call, issues = [], []
    for n, a in zip(names, args, strict=True):
        if n not in tix.props:
            per_call.append(0.0)
            issues.append(f"{n} is not in the schema")
            continue
        keys = set(a)
        missing = tix.required[n] - keys
        extra = keys - tix.props[n] if tix.props[n] else set()
        if missing:
            per_call.append(0.0)
            issues.append(f"{n} misses required {sorted(missing)}")
        elif extra:
            per_call.append(0.5)
            issues.append(f"{n} has unknown parameters {sorted(extra)}")
        else:
            per_call.append(1.0)
    return _snap(float(np.mean(per_call))), issues


def _dependencies(names: list[str], args: list[dict[str, Any]]) -> tuple[int, set[int]]:
    """Return (outputs used before they are produced, positions of calls that consume an earlier output)."""
    later_violations, consumed = 0, set()
    first_pos: dict[str, int] = {}
    for i, n in enumerate(names):
        first_pos.setdefault(n, i)
    for i, a in enumerate(args):
        for v in _arg_values(a):
            if not isinstance(v, str):
                continue
            for m in _REF.finditer(v):
                step, *toolrefs = m.groups()
                if step is not None:
                    if int(step) - 1 >= i and int(step) - 1 < len(names) + 5:
                        later_violations += 1
                    else:
                        consumed.add(i)
                else:
                    ref = next((t for t in toolrefs if t), "")
                    if ref in first_pos:
                        if first_pos[ref] >= i:
                            later_violations += 1
                        else:
                            consumed.add(i)
    return later_violations, consumed


def _tool_verdict(
    n_calls: int,
    unknown: list[str],
    irrelevant: list[str],
    missing_tools: set[str],
    mentioned: set[str],
    num_cov: float | None,
    default: float,
) -> tuple[float, str]:
    """Return the tool-selection score and its justification."""
    if len(unknown) * 2 >= n_calls or len(irrelevant) * 2 > n_calls:
        return 0.0, f"Most selected tools do not fit the query or schema ({(unknown or irrelevant)[:3]})."
    if unknown or irrelevant or missing_tools or (num_cov is not None and num_cov < 0.75):
        what = unknown or irrelevant or sorted(missing_tools) or ["a call for some query values"]
        return 0.5, f"One or more questionable or missing tools: {what[:3]}."
    tool = default if num_cov is None and not mentioned else 1.0
    return tool, "All selected tools are in the schema and tied to the query."


def _sequence_verdict(
    n_calls: int, later_violations: int, dup: int, missing_tools: set[str], num_cov: float | None, default: float
) -> tuple[float, str]:
    """Return the sequence score and its justification."""
    if later_violations and later_violations * 2 >= n_calls:
        return 0.0, "Several calls use outputs that are produced only later."
    if later_violations or dup or (num_cov is not None and num_cov < 0.75) or missing_tools:
        why = (
            "A call uses an output before it is produced."
            if later_violations
            else "Duplicate calls."
            if dup
            else "Plausible missing steps shift the order."
        )
        return 0.5, why
    return (1.0 if n_calls > 1 or num_cov is not None else default), "The order respects every visible dependency."


def _coverage_verdict(
    mentioned: set[str], missing_tools: set[str], num_cov: float | None, default: float
) -> tuple[float, str]:
    """Return the query-coverage score and its justification."""
    if num_cov is None:
        cov = _snap(1.0 - len(missing_tools) / max(len(mentioned), 1)) if mentioned else default
        why = (
            "Coverage judged from tool mentions only." if mentioned else "No explicit values to check; assumed covered."
        )
        return cov, why
    frac = num_cov if not mentioned else 0.5 * num_cov + 0.5 * (1.0 - len(missing_tools) / len(mentioned))
    return _snap(frac), f"{num_cov:.0%} of the query's values reach the plan's arguments."


def derive_reference(query: str, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return a static DeRef reference: the schema tools the query points at, required args only."""
    qwords, ref = _words(query), []
    scored = []
    for i, t in enumerate(tools or []):
        nw = _words(str(t.get("name")))
        pw = set().union(*[_words(p) for p in (t.get("properties") or {})]) if t.get("properties") else set()
        s = 2 * len(nw & qwords) + len(pw & qwords)
        if nw and len(nw & qwords) >= max(1, len(nw) - 1):
            scored.append((-s, i, t))
    for _, _, t in sorted(scored)[:6]:
        ref.append(
            {
                "name": t.get("name"),
                "arguments": {p: {"value": None, "source": "query"} for p in (t.get("required") or [])},
            }
        )
    return ref


def _flat_reference(ref: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return a DeRef reference as plain calls (argument keys only) for the scorer."""
    return [{"name": c.get("name"), "arguments": dict(c.get("arguments") or {})} for c in ref]


def corrupted_donors(records: pd.DataFrame, seed: int = 0) -> dict[str, str]:
    """Return {record id: donor id}, a seeded derangement within each topology (C3)."""
    rng = np.random.default_rng(seed)
    donors: dict[str, str] = {}
    ids_all = records["id"].astype(str).tolist()
    for _, grp in records.groupby(records["dag_type"].astype(str), sort=True, observed=True, dropna=False):
        ids = sorted(grp["id"].astype(str).tolist())
        if len(ids) == 1:  # no derangement possible inside the topology: any other record
            others = [i for i in ids_all if i != ids[0]]
            donors[ids[0]] = others[int(rng.integers(len(others)))] if others else ids[0]
            continue
        perm = [ids[i] for i in rng.permutation(len(ids))]
        for a, b in zip(perm, perm[1:] + perm[:1], strict=True):
            donors[a] = b
    return donors


def _reference_scores(calls: list[Any], refs: list[Any]) -> pd.DataFrame:
    """Return snapped Eq. 1-3 scores of plans against references (vectorised)."""
    from ajb_utils.scoring import score_plans

    raw = score_plans([c or [] for c in calls], [r or [] for r in refs])
    out = pd.DataFrame({m: raw[P_COLS[m]].to_numpy() for m in METRICS})
    return out.apply(lambda col: np.select([col < 0.25, col < 0.75], [0.0, 0.5], 1.0))


_REF_JUST = {
    "tool_selection": {
        1.0: "Required tools present, none clearly irrelevant.",
        0.5: "Some required tools missing or extra tools.",
        0.0: "Tool plan fundamentally differs from the reference.",
    },
    "parameter_structure": {
        1.0: "Parameter names match the reference calls.",
        0.5: "Minor missing or extra parameter names.",
        0.0: "Required parameter names missing for most tools.",
    },
    "sequence_accuracy": {
        1.0: "Order matches the reference dependencies.",
        0.5: "Minor ordering differences from the reference.",
        0.0: "Order contradicts the reference.",
    },
    "query_coverage": {
        1.0: "Every reference step is covered.",
        0.5: "Part of the reference steps is covered.",
        0.0: "The plan covers none of the reference steps.",
    },
}


def static_verdicts(
    bench: Any,
    conditions: Iterable[str] = ("with_gt", "without_gt"),
    generations: pd.DataFrame | None = None,
    seed: int = 0,
) -> pd.DataFrame:
    """Return the static judge's long verdict frame.

    One row per (id, generator, difficulty, condition, metric) with llm_score, justification,
    p (the programmatic score against the true GT, also for corrupted_gt) and match.
    """
    conditions = [c for c in conditions]
    bad = [c for c in conditions if c not in CONDITIONS]
    if bad:
        raise ValueError(f"unknown conditions {bad}; expected among {CONDITIONS}")
    gens = (bench.generations if generations is None else generations).reset_index(drop=True)
    return _static_frame(bench, conditions, gens, seed)


def _static_frame(bench: Any, conditions: list[str], gens: pd.DataFrame, seed: int) -> pd.DataFrame:
    """Return the static verdict frame of `conditions` computed from the inputs (names and texts as categories)."""
    recs = bench.records.assign(id=bench.records["id"].astype(str)).set_index("id")
    calls = gens["generated_calls"].tolist()
    llm, justs = [], []  # one block per (condition, metric), conditions outermost
    tix_cache: dict[str, ToolIndex] = {}
    for cond in conditions:
        if cond in ("without_gt", "without_gt_05"):
            sc, cj = _without_reference_scores(recs, gens, 0.5 if cond == "without_gt_05" else 1.0, tix_cache)
        else:
            sc = _reference_scores(calls, _references(cond, bench, recs, gens, seed))
            cj = {m: [_REF_JUST[m][v] for v in sc[m].to_numpy()] for m in METRICS}
        for m in METRICS:
            llm.append(sc[m].to_numpy(float))
            justs.extend(cj[m])
    n, blocks = len(gens), len(conditions) * len(METRICS)
    p = np.concatenate([gens[P_COLS[m]].to_numpy(float) if P_COLS[m] in gens else np.full(n, np.nan) for m in METRICS])
    out = pd.DataFrame({c: _tiled(gens[c], blocks) for c in ("id", "generator", "difficulty", "dag_type")})
    out["condition"] = _blocks(conditions, np.repeat(np.arange(len(conditions)), len(METRICS)), n)
    out["metric"] = _blocks(METRICS, np.tile(np.arange(len(METRICS)), len(conditions)), n)
    out["llm_score"] = np.concatenate(llm) if llm else np.empty(0)
    out["justification"] = pd.Categorical(justs)
    out["p"] = np.tile(p, len(conditions))
    out["match"] = match(out["p"], out["llm_score"])
    out["judge"] = pd.Categorical.from_codes(np.zeros(len(out), dtype=np.int8), categories=["static"])
    return out


def _tiled(col: pd.Series, times: int) -> pd.Categorical:
    """Return `col`'s values as text categories (sorted), repeated `times` times end to end."""
    cat = pd.Categorical(col.astype(str))
    return pd.Categorical.from_codes(np.tile(cat.codes, times), categories=cat.categories)


def _blocks(names: list[str], block_codes: np.ndarray, n: int) -> pd.Categorical:
    """Return categories (sorted names) with each block's name repeated `n` times."""
    order = sorted(set(names))
    codes = np.array([order.index(names[i]) for i in block_codes], dtype=np.int16)
    return pd.Categorical.from_codes(np.repeat(codes, n), categories=order)


def _without_reference_scores(
    recs: pd.DataFrame, gens: pd.DataFrame, default: float, tix_cache: dict[str, ToolIndex]
) -> tuple[pd.DataFrame, dict[str, list[Any]]]:
    """Return (scores, justifications) per generation row from the query, schemas and plan (score_without_reference)."""
    ids = gens["id"].astype(str).to_numpy()
    calls = gens["generated_calls"].tolist()
    tools_col = recs["tools"]
    scores = {m: np.empty(len(gens)) for m in METRICS}
    justs: dict[str, list[Any]] = {m: [None] * len(gens) for m in METRICS}
    queries = gens["user_query"].astype(str).tolist()
    for i, (rid, q, c) in enumerate(zip(ids, queries, calls, strict=True)):
        tix = tix_cache.get(rid)
        if tix is None:
            tix = tix_cache[rid] = ToolIndex(tools_col.at[rid])
        s, j = score_without_reference(q, tix, c, default)
        for m in METRICS:
            scores[m][i] = s[m]
            justs[m][i] = j[m]
    return pd.DataFrame(scores), justs


def _references(cond: str, bench: Any, recs: pd.DataFrame, gens: pd.DataFrame, seed: int) -> list[Any]:
    """Return the reference each generation row is judged against under `cond` (true, corrupted or derived GT)."""
    ids = gens["id"].astype(str).to_numpy()
    if cond == "corrupted_gt":
        donors = corrupted_donors(bench.records, seed)
        return recs["expected_calls"].reindex([donors[i] for i in ids]).tolist()
    if cond == "deref":
        qcache: dict[tuple[str, str], list[Any]] = {}
        refs = []
        for rid, q in zip(ids, gens["user_query"].astype(str), strict=True):
            k = (rid, q)
            if k not in qcache:
                qcache[k] = _flat_reference(derive_reference(q, recs.at[rid, "tools"]))
            refs.append(qcache[k])
        return refs
    return recs["expected_calls"].reindex(ids).tolist()


def static_rewrite_verdicts(records: pd.DataFrame) -> pd.DataFrame:
    """Return Appendix N verdicts from a static meta-judge (numbers kept; fewer explicit names)."""
    from ajb_judge.parse import REWRITE_CRITERIA

    rows = []
    for r in records.itertuples(index=False):
        tix = ToolIndex(r.tools)
        exp_nums = set()
        for c in r.expected_calls:
            exp_nums |= _arg_numbers(c.get("arguments") or {})

        def explicit(q: str) -> int:
            """Return how many parameter/tool names and numbers a query spells out."""
            ql = q.lower()
            names = {p for ps in tix.props.values() for p in ps} | set(tix.props)  # noqa: B023 (called in this iteration)
            return sum(n.lower() in ql for n in names) + len(_numbers(q))

        def keeps(q: str) -> bool:
            """Return whether a query keeps the GT's query-stated numbers of the easy query."""
            need = {x for x in exp_nums if _num_hit(x, _numbers(r.query_easy))}  # noqa: B023 (called in this iteration)
            qn = _numbers(q)
            return all(_num_hit(x, qn) or any(abs(x - y) < 1e-9 for y in qn) for x in need) if need else True

        e, m, h = explicit(r.query_easy), explicit(r.query_medium), explicit(r.query_hard)
        ans = {
            "medium_preserves_gt": keeps(r.query_medium),
            "hard_preserves_gt": keeps(r.query_hard),
            "medium_harder_than_easy": m < e,
            "hard_harder_than_medium": h < m,
        }
        for k, (pair, crit) in REWRITE_CRITERIA.items():
            rows.append(
                {
                    "id": str(r.id),
                    "dag_type": str(r.dag_type),
                    "meta_judge": "static",
                    "pair": pair,
                    "criterion": crit,
                    "verdict": bool(ans[k]),
                }
            )
    return pd.DataFrame(rows, columns=["id", "dag_type", "meta_judge", "pair", "criterion", "verdict"])
