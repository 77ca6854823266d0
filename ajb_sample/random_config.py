"""A whole planted configuration drawn from a seed over the space `resources/sample_judges.yaml` spans.

    python -m ajb_sample --random-seed 7 --scale tiny --out /tmp/random7

The shipped samples are three points of that space (default, contrast, reversed); a sentence that
holds on them may still go false on data nobody planned for. `random_behaviour(seed)` replaces every
knob a notebook's sentence can read with a draw: per judge the sensitivity without GT and a GT lift
of either sign (with-GT sensitivity = without-GT + lift), leniency, hedging, false alarms, noise (a
near-random judge is possible), anchoring and how often a corrupted reference is followed; per
generator the error rate and its slope over difficulty; the difficulty multipliers; the ablation
effect sizes (share of verdicts redrawn per temperature, thinking off, corrupted GT; the C2 default's
leniency; the free-form noise); and how correlated the judges' errors are (`error_correlation`: the
share of draws every judge shares). The record builder, vocabulary and justifications are the YAML's.
Same seed -> same configuration.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from ajb_utils.schema import DIFFICULTIES, METRICS

PREFIX = "random-"  # a drawn configuration's variant name is "random-<seed>"


def random_variant(seed: int) -> str:
    """Return the variant name of the configuration drawn from `seed`."""
    if seed < 0:
        raise ValueError(f"--random-seed must be 0 or more, got {seed}")
    return f"{PREFIX}{seed}"


def random_seed_of(variant: str) -> int | None:
    """Return the seed of a 'random-<seed>' variant name, None for any other name."""
    tail = variant.removeprefix(PREFIX)
    return int(tail) if variant.startswith(PREFIX) and tail.isdigit() else None


def _u(rng: np.random.Generator, lo: float, hi: float) -> float:
    """Return one uniform draw in [lo, hi), rounded to 3 decimals (the card prints the knobs)."""
    return round(float(rng.uniform(lo, hi)), 3)


def _per_metric(rng: np.random.Generator, centre: float, spread: float, lo: float, hi: float) -> dict[str, float]:
    """Return a value per metric: `centre` plus a uniform jitter of +-`spread`, clipped to [lo, hi]."""
    return {m: round(float(np.clip(centre + rng.uniform(-spread, spread), lo, hi)), 3) for m in METRICS}


def draw_generator(rng: np.random.Generator, spec: dict[str, Any]) -> dict[str, Any]:
    """Return a generator's behaviour with its error rate, difficulty slope and failure rates drawn."""
    base, slope = _u(rng, 0.15, 1.5), _u(rng, -0.4, 1.5)  # errors at easy; relative change easy -> hard
    steps = dict(zip(DIFFICULTIES, (0.0, 0.5, 1.0)))
    out = copy.deepcopy(spec)
    out["errors"] = {d: round(max(0.05, base * (1 + slope * s)), 3) for d, s in steps.items()}
    out["unparseable"] = {d: _u(rng, 0.0, 0.15) for d in DIFFICULTIES}
    out["empty"] = {d: _u(rng, 0.0, 0.02) for d in DIFFICULTIES}
    return out


def draw_judge(rng: np.random.Generator) -> dict[str, Any]:
    """Return one judge's with-GT, without-GT and corrupted-GT profiles, drawn."""
    quality, lift = _u(rng, 0.1, 0.9), _u(rng, -0.4, 0.6)
    noisy = rng.random() < 0.25  # a judge near random on every metric (as Prometheus-2 on some)
    anchors = rng.random() < 0.4  # credits sequence/coverage when the reference overlaps the plan
    noise = _per_metric(rng, _u(rng, 0.3, 0.95), 0.1, 0.0, 1.0) if noisy else dict.fromkeys(METRICS, 0.0)
    anchoring = dict.fromkeys(METRICS, 0.0)
    if anchors:
        anchoring |= {"sequence_accuracy": _u(rng, 0.1, 0.8), "query_coverage": _u(rng, 0.1, 0.8)}

    def condition(sensitivity: float, leniency: tuple[float, float]) -> dict[str, Any]:
        return {
            "sensitivity": _per_metric(rng, sensitivity, 0.1, 0.02, 0.98),
            "false_alarm": _per_metric(rng, _u(rng, 0.002, 0.05), 0.005, 0.0, 0.2),
            "hedge_correct": _u(rng, 0.0, 0.1),
            "hedge_flawed": _u(rng, 0.0, 0.6),
            "leniency": _u(rng, *leniency),
            "noise": noise,
        }

    with_gt = condition(quality + lift, (0.2, 0.9)) | {"anchoring": anchoring, "value_alarm": _u(rng, 0.0, 0.12)}
    without_gt = condition(quality, (0.3, 0.98))
    return {"with_gt": with_gt, "without_gt": without_gt, "corrupted_gt": {"follow_reference": _u(rng, 0.0, 1.0)}}


def random_behaviour(base: dict[str, Any], seed: int) -> dict[str, Any]:
    """Return `base` (the YAML's behaviour) with every planted knob drawn from `seed` (module docstring)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(49,)))
    out = copy.deepcopy(base)
    out["generators"] = {g: draw_generator(rng, spec) for g, spec in base["generators"].items()}
    hard = {"sensitivity": _u(rng, 0.55, 1.05), "false_alarm": _u(rng, 1.0, 3.5), "hedge": _u(rng, 1.0, 2.5)}
    out["multipliers"] = {k: {"easy": 1.0, "medium": round((1.0 + h) / 2, 3), "hard": h} for k, h in hard.items()}
    for name, spec in out["judges"].items():
        out["judges"][name] = {"display": spec["display"], **draw_judge(rng)}
    out["defaults"]["without_gt_05"]["leniency"] = _u(rng, 0.2, 0.7)
    out["freeform"] = {
        j: {
            "base": "with_gt",
            "noise_by_difficulty": {d: _u(rng, 0.0, 0.25) for d in DIFFICULTIES},
            "sensitivity_mult": _u(rng, 0.7, 1.1),
        }
        for j in base["freeform"]
    }
    out["resample"] = {
        "temperature": {t: _u(rng, 0.0, 0.5) for t in base["resample"]["temperature"]},
        "thinking_off": _u(rng, 0.0, 0.5),
        "corrupted_gt": _u(rng, 0.0, 0.1),
    }
    out["error_correlation"] = _u(rng, 0.0, 0.8)
    return out
