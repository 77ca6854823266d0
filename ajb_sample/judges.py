"""Simulated LLM judges for the synthetic sample, driven by ``resources/sample_judges.yaml``.

Verdicts are computed vectorised from pre-drawn uniforms ``U`` of shape (rows, 4 metrics, 8), so
runs that should be paired with a released config (temperature, thinking, C3) reuse the same
draws and redraw only a small share (common random numbers). The model is documented at the top
of the YAML file; its `variants:` are the planted patterns of other samples (`planted`).
`judge_config` writes a judge config's rows, a released one's or a run's.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
from collections.abc import Iterator
from typing import Any

import numpy as np
import yaml

from ajb_sample.random_config import random_behaviour, random_seed_of
from ajb_sample.streams import RESOURCES_DIR, Rng, judge_generator_name, rng_for, valid_rows
from ajb_utils import schema
from ajb_utils.schema import DIFFICULTIES, GENERATORS, JUDGES, METRICS

BEHAVIOUR: dict[str, Any] = yaml.safe_load((RESOURCES_DIR / "sample_judges.yaml").read_text())
VARIANTS: list[str] = ["default", *BEHAVIOUR["variants"]]  # the planted patterns a sample can have
RUN_JUDGES: list[str] = JUDGES + ["qwen3_32b"]  # key index of each judge's random stream
N_UNIFORMS: int = 8  # uniforms per (row, metric) a verdict is drawn from (simulate_verdicts)
# the behaviour in force, resolved once as `planted` enters its block
_BEHAVIOUR: contextvars.ContextVar[dict[str, Any]] = contextvars.ContextVar("sample_behaviour", default=BEHAVIOUR)


@contextlib.contextmanager
def planted(variant: str) -> Iterator[None]:
    """Within the block, `behaviour()` returns the behaviour of the named variant (see VARIANTS)."""
    if variant not in VARIANTS and random_seed_of(variant) is None:
        raise ValueError(f"unknown sample variant {variant!r}; valid: {', '.join(VARIANTS)} or random-<seed>")
    token = _BEHAVIOUR.set(variant_behaviour(variant))
    try:
        yield
    finally:
        _BEHAVIOUR.reset(token)


def behaviour() -> dict[str, Any]:
    """Return the behaviour of the variant in force (`planted`; "default": the YAML as written)."""
    return _BEHAVIOUR.get()


def variant_behaviour(variant: str) -> dict[str, Any]:
    """Return the YAML behaviour with one variant's overrides (`variants:`) merged in, or for
    'random-<seed>' every planted knob drawn from the seed (`random_config`)."""
    if variant == "default":
        return BEHAVIOUR
    seed = random_seed_of(variant)
    if seed is not None:
        return random_behaviour(BEHAVIOUR, seed)
    base = reversed_effects(BEHAVIOUR) if variant == "reversed" else BEHAVIOUR
    return deep_merge(base, BEHAVIOUR["variants"][variant])


def reversed_effects(beh: dict[str, Any]) -> dict[str, Any]:
    """Return the behaviour with the with-GT / without-GT profiles swapped and difficulty flat."""
    out = copy.deepcopy(beh)
    d = out["defaults"]
    d["with_gt"], d["without_gt"] = d["without_gt"], d["with_gt"]
    for spec in out["judges"].values():
        spec["with_gt"], spec["without_gt"] = spec.get("without_gt", {}), spec.get("with_gt", {})
    out["multipliers"] = {k: {lvl: 1.0 for lvl in v} for k, v in out["multipliers"].items()}
    return out


def deep_merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Return `base` updated recursively with `over` (neither is modified)."""
    out = copy.deepcopy(base)
    for k, v in over.items():
        out[k] = deep_merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else copy.deepcopy(v)
    return out


def profile(judge: str, condition: str) -> dict[str, Any]:
    """Return the merged behaviour profile of one judge under with_gt / without_gt / C2."""
    beh = behaviour()
    spec = beh["judges"][judge]
    if condition in ("with_gt", "without_gt"):
        return deep_merge(beh["defaults"][condition], spec.get(condition, {}))
    if condition == "without_gt_05":
        over = {k: v for k, v in beh["defaults"]["without_gt_05"].items() if k != "base"}
        return deep_merge(profile(judge, "without_gt"), over)
    if condition == "freeform":
        ff = beh["freeform"][judge]
        return deep_merge(profile(judge, ff["base"]), {"_freeform": ff})
    raise ValueError(f"no profile for condition {condition}")


def follow_reference(judge: str) -> float:
    """Return P(the judge anchors to a corrupted reference as if it were correct) for C3."""
    beh = behaviour()
    default = beh["defaults"]["corrupted_gt"]["follow_reference"]
    return float(beh["judges"][judge].get("corrupted_gt", {}).get("follow_reference", default))


def resample(u: np.ndarray, rate: float, rng: Rng) -> np.ndarray:
    """Return a copy of `u` with a share `rate` of (row, metric) cells redrawn (`u` itself at rate 0: no draw)."""
    if rate <= 0:
        return u
    out = u.copy()
    mask = rng.random(u.shape[:2]) < rate
    out[mask] = rng.random((int(mask.sum()), u.shape[2]))
    return out


def metric_vec(d: dict[str, float]) -> np.ndarray:
    """Return a per-metric dict as a length-4 array in METRICS order."""
    return np.array([float(d[m]) for m in METRICS])


def simulate_verdicts(
    feat: dict[str, np.ndarray], judge: str, condition: str, u: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return one judge's (verdicts (n, 4) with NaN for null metrics, whole-condition-null mask (n,)) under
    `condition` on rows described by `feat` (p, difficulty index, tool overlap, values-differ flag)."""
    p, diff, prof = feat["p"], feat["diff"], profile(judge, condition)
    sees_reference = condition in ("with_gt", "freeform", "corrupted_gt")
    mult = behaviour()["multipliers"]

    def by_difficulty(levels: dict[str, float]) -> np.ndarray:
        return np.array([levels[d] for d in DIFFICULTIES])[diff][:, None]

    sens = metric_vec(prof["sensitivity"])[None, :] * by_difficulty(mult["sensitivity"])
    noise = np.broadcast_to(metric_vec(prof["noise"])[None, :], p.shape).copy()
    ff = prof.get("_freeform")
    if ff is not None:
        noise = noise + by_difficulty(ff["noise_by_difficulty"])
        hard = ff.get("sensitivity_mult_hard", ff["sensitivity_mult"])
        sens = sens * np.where(diff == 2, hard, ff["sensitivity_mult"])[:, None]
    fa = metric_vec(prof["false_alarm"])[None, :] * by_difficulty(mult["false_alarm"])
    if sees_reference:
        fa = fa + np.outer(feat["vdev"].astype(float), [0.0, prof["value_alarm"], 0.0, 0.0])
    fa = np.clip(fa, 0.0, 0.9)
    hedge_c = prof["hedge_correct"] * by_difficulty(mult["hedge"])
    correct = p >= 0.9999
    v_correct = np.where(
        u[..., 0] < fa, np.where(u[..., 1] < 0.6, 0.5, 0.0), np.where(u[..., 0] < fa + hedge_c, 0.5, 1.0)
    )
    nearest = np.round(p * 2.0) / 2.0
    anchor = (
        metric_vec(prof["anchoring"])[None, :] * (feat["overlap"] >= prof["anchor_overlap"])[:, None]
        if sees_reference
        else np.zeros_like(p)
    )
    detected = np.where(u[..., 1] < prof["hedge_flawed"], 0.5, nearest)
    missed = np.where(u[..., 3] < prof["leniency"], 1.0, 0.5)
    v_flawed = np.where(u[..., 0] < anchor, 1.0, np.where(u[..., 2] < sens, detected, missed))
    v = np.where(correct, v_correct, v_flawed)
    random_v = np.where(u[..., 5] < 0.3, 0.0, np.where(u[..., 5] < 0.6, 0.5, 1.0))
    v = np.where(u[..., 4] < noise, random_v, v)
    v = np.where(u[..., 6] < prof["null_metric"] / len(METRICS), np.nan, v)
    cond_null = u[:, 0, 7] < prof["null_condition"]
    return v, cond_null


def justification(metric: str, verdict: float, u: float) -> str:
    """Return a one-sentence justification for a verdict, chosen by a uniform draw."""
    options = BEHAVIOUR["justifications"][metric][verdict]
    return options[int(u * len(options)) % len(options)]


def condition_block(p: list[float], verdicts: np.ndarray, cond_null: bool, u_just: np.ndarray) -> dict[str, Any]:
    """Return one condition's block: per-metric verdict, justification, p, match, overall."""
    block: dict[str, Any] = {}
    matches = []
    for k, m in enumerate(METRICS):
        v = None if cond_null or np.isnan(verdicts[k]) else float(verdicts[k])
        mt = None if v is None else round(1.0 - abs(p[k] - v), 4)
        matches.append(0.0 if mt is None else mt)
        block[m] = {
            "llm_score": v,
            "justification": None if v is None else justification(m, v, u_just[k]),
            "programmatic_score": float(p[k]),
            "match_score": mt,
        }
    # A null metric counts as a full miss (the authors' rule); a failed call is null overall.
    block["overall_alignment_pct"] = None if cond_null else round(100.0 * float(np.mean(matches)), 4)
    return block


def features(rows: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """Return the arrays the verdict model needs (p, difficulty index, overlap, value flag)."""
    return {
        "p": np.array([[r[schema.SCORE_COLUMNS[m]] for m in METRICS] for r in rows], dtype=float),
        "diff": np.array([DIFFICULTIES.index(r["difficulty"]) for r in rows], dtype=int),
        "overlap": np.array([r["_overlap"] for r in rows], dtype=float),
        "vdev": np.array([r["_vdev"] for r in rows], dtype=bool),
    }


def base_uniforms(seed: int, judge: str, generator: str, condition: str, n: int) -> np.ndarray:
    """Return the (n, 4, 8) reference uniforms of (judge, generator, with_gt | without_gt); runs reuse them.
    A share `error_correlation` of the (row, metric) cells (0 unless drawn) holds draws every judge shares."""
    key = (3, RUN_JUDGES.index(judge), GENERATORS.index(generator), schema.MAIN_CONDITIONS.index(condition))
    u = rng_for(seed, *key).random((n, len(METRICS), N_UNIFORMS))
    rho = float(behaviour().get("error_correlation", 0.0))
    if rho <= 0:
        return u
    # correlated errors: a share rho of the (row, metric) cells take draws every judge shares
    shared = rng_for(seed, 6, *key[2:]).random(u.shape)
    mask = rng_for(seed, 7, *key[1:]).random(u.shape[:2]) < rho
    u[mask] = shared[mask]
    return u


def judge_rows(
    rows: list[dict[str, Any]], generator: str, blocks: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]
) -> list[dict[str, Any]]:
    """Return judge-config rows; `blocks` maps condition -> (verdicts, null mask, uniforms)."""
    out, name = [], judge_generator_name(generator)
    for i, r in enumerate(rows):
        p = [r[schema.SCORE_COLUMNS[m]] for m in METRICS]
        row = {"id": r["id"], "generator": name, "difficulty": r["difficulty"], "dag_type": r["dag_type"]}
        for cond, (v, null, u) in blocks.items():
            row[cond] = condition_block(p, v[i], bool(null[i]), u[i, :, 5])
        out.append(row)
    return out


def judge_config(
    gens: dict[str, list[dict[str, Any]]],
    judge: str,
    generators: list[str],
    conditions: list[str],
    seed: int,
    tag: int = 0,
    rate: float = 0.0,
    difficulties: list[str] = DIFFICULTIES,
) -> list[dict[str, Any]]:
    """Return a judge config's rows: the judge's reference draws, a share `rate` redrawn (a run's)."""
    out = []
    for g in generators:
        valid = valid_rows(gens[g])
        keep = np.array([r["difficulty"] in difficulties for r in valid], dtype=bool)
        rows = [r for r, k in zip(valid, keep) if k]
        feat = features(rows)
        rng = rng_for(seed, 4, tag, GENERATORS.index(g))
        u_of = {c: base_uniforms(seed, judge, g, c, len(valid))[keep] for c in ("with_gt", "without_gt")}
        blocks = {}
        for cond in conditions:
            if cond == "corrupted_gt":
                u_gt, u_no = resample(u_of["with_gt"], rate, rng), resample(u_of["without_gt"], rate, rng)
                blocks[cond] = corrupted_block(feat, judge, u_gt, u_no, rng)
            else:
                u = resample(u_of[{"freeform": "with_gt", "without_gt_05": "without_gt"}.get(cond, cond)], rate, rng)
                blocks[cond] = (*simulate_verdicts(feat, judge, cond, u), u)
        out.extend(judge_rows(rows, g, blocks))
    return out


def corrupted_block(
    feat: dict[str, np.ndarray], judge: str, u_gt: np.ndarray, u_no: np.ndarray, rng: Rng
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return C3 verdicts: with-GT behaviour (uniforms `u_gt`) w.p. follow_reference, else without-GT
    behaviour (`u_no`)."""
    v_gt, null_gt = simulate_verdicts(feat, judge, "with_gt", u_gt)
    v_no, null_no = simulate_verdicts(feat, judge, "without_gt", u_no)
    follow = rng.random(len(u_gt)) < follow_reference(judge)
    return (
        np.where(follow[:, None], v_gt, v_no),
        np.where(follow, null_gt, null_no),
        np.where(follow[:, None, None], u_gt, u_no),
    )


def planted_summary(variant: str) -> dict[str, Any]:
    """Return what a variant plants, per judge, for the sample card's `planted:` header (the
    notebooks read it from the loaded sample instead of typing the YAML's numbers)."""
    with planted(variant):
        beh = behaviour()
        names = [j for j in beh["judges"] if j.startswith("judge_")]

        def per_judge(f: Any, conds: tuple[str, ...] = ("with_gt", "without_gt")) -> dict[str, dict[str, float]]:
            return {c: {j: round(float(f(profile(j, c))), 3) for j in names} for c in conds}

        return {
            "variant": variant,
            "knobs": "ajb_sample/resources/sample_judges.yaml",
            "leniency": per_judge(lambda prof: prof["leniency"], ("with_gt", "without_gt", "without_gt_05")),
            "sensitivity": per_judge(lambda prof: np.mean(list(prof["sensitivity"].values()))),
            "noise": per_judge(lambda prof: np.mean(list(prof["noise"].values()))),
            "anchoring": per_judge(lambda prof: max(prof["anchoring"].values()), ("with_gt",))["with_gt"],
            "follow_reference": {j: round(follow_reference(j), 3) for j in names},
            "sensitivity_by_difficulty": {k: float(v) for k, v in beh["multipliers"]["sensitivity"].items()},
            "errors_drawn": errors_drawn(float(beh.get("error_correlation", 0.0))),
            "resample": {
                "temperature": {t: float(r) for t, r in beh["resample"]["temperature"].items()},
                "thinking_off": float(beh["resample"]["thinking_off"]),
                "corrupted_gt": float(beh["resample"]["corrupted_gt"]),
            },
            "generator_errors": {
                g: {d: float(v) for d, v in spec["errors"].items()} for g, spec in beh["generators"].items()
            },
            "freeform": {
                j: {
                    "noise": {d: float(v) for d, v in ff["noise_by_difficulty"].items()},
                    "sensitivity_mult": float(ff["sensitivity_mult"]),
                }
                | (
                    {"sensitivity_mult_hard": float(ff["sensitivity_mult_hard"])}
                    if "sensitivity_mult_hard" in ff
                    else {}
                )
                for j, ff in beh["freeform"].items()
            },
        }


def errors_drawn(rho: float) -> str:
    """Return how the judges' errors are drawn, for the card: independently, or a share shared by all."""
    independent = "independently per judge given the record"
    return independent if rho <= 0 else f"{independent}, except a share {rho:.0%} of the draws that every judge shares"
