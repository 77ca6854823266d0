"""The drawn configurations (`python -m ajb_sample --random-seed N`): deterministic, over the YAML's whole
space, written into the card, and able to draw the issue-49 sample nobody planned for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ajb_sample import build_sample
from ajb_sample.judges import BEHAVIOUR, base_uniforms, behaviour, planted, planted_summary, profile
from ajb_sample.random_config import random_behaviour, random_seed_of, random_variant
from ajb_utils.data import planted_effects
from ajb_utils.paths import REPO_ROOT, SAMPLE_DIR
from ajb_utils.schema import MAIN_JUDGES, METRICS

SEEDS = st.integers(min_value=0, max_value=10**9)


def lift(beh: dict, judge: str) -> float:
    """Return a judge's drawn GT lift: mean with-GT minus mean without-GT sensitivity."""
    s = {c: np.mean(list(beh["judges"][judge][c]["sensitivity"].values())) for c in ("with_gt", "without_gt")}
    return float(s["with_gt"] - s["without_gt"])


@settings(max_examples=40, deadline=None)
@given(SEEDS)
def test_a_seed_draws_one_configuration_inside_the_yaml_space(seed: int) -> None:
    """Same seed, same draw; every probability in [0, 1]; the YAML's keys kept; the name round-trips."""
    a, b = random_behaviour(BEHAVIOUR, seed), random_behaviour(BEHAVIOUR, seed)
    assert a == b and random_seed_of(random_variant(seed)) == seed
    assert a.keys() - {"error_correlation"} == BEHAVIOUR.keys() and a["judges"].keys() == BEHAVIOUR["judges"].keys()
    with planted(random_variant(seed)):
        for j in MAIN_JUDGES:
            for c in ("with_gt", "without_gt", "without_gt_05", "freeform" if j == "judge_qwq_32b" else "with_gt"):
                prof = profile(j, c)
                for knob in ("sensitivity", "false_alarm", "noise", "anchoring"):
                    assert all(0.0 <= prof[knob][m] <= 1.0 for m in METRICS), (j, c, knob)
                assert 0.0 <= prof["leniency"] <= 1.0 and 0.0 <= prof["hedge_flawed"] <= 1.0
        assert 0.0 <= behaviour()["error_correlation"] <= 1.0


def test_seeds_span_the_space_the_issue_names() -> None:
    """Over 200 seeds the draw finds each pattern of the issue-49 sample: a GT lift of either sign and about
    zero, a near-random judge, a flat-difficulty generator, ablations redrawing a third to a half of verdicts,
    strongly correlated errors."""
    draws = [random_behaviour(BEHAVIOUR, s) for s in range(200)]
    lifts = [lift(d, j) for d in draws for j in MAIN_JUDGES]
    assert min(lifts) < -0.2 and max(lifts) > 0.3 and min(abs(x) for x in lifts) < 0.02
    assert any(min(d["judges"][j]["with_gt"]["noise"].values()) > 0.8 for d in draws for j in MAIN_JUDGES)
    errors = [g["errors"] for d in draws for g in d["generators"].values()]
    assert any(abs(e["hard"] - e["easy"]) < 0.02 for e in errors) and any(e["hard"] < e["easy"] for e in errors)
    assert any(0.33 <= d["resample"]["thinking_off"] <= 0.5 for d in draws)
    assert any(min(d["resample"]["temperature"].values()) >= 0.2 for d in draws)
    assert max(d["error_correlation"] for d in draws) > 0.7 and min(d["error_correlation"] for d in draws) < 0.05


def test_error_correlation_is_the_share_of_draws_judges_share() -> None:
    """With a drawn error_correlation rho, two judges' uniforms coincide in a share rho^2 of the cells
    (each takes the shared draw with P = rho, independently); the default shares none."""
    seed = next(s for s in range(100) if random_behaviour(BEHAVIOUR, s)["error_correlation"] > 0.5)
    n = 4000
    with planted(random_variant(seed)):
        rho = behaviour()["error_correlation"]
        a, b = (base_uniforms(0, j, "qwen3_32b", "with_gt", n)[..., 0] for j in ("judge_qwq_32b", "judge_gpt_5_4"))
    share = float(np.mean(a == b))
    assert abs(share - rho**2) < 4 * np.sqrt(rho**2 * (1 - rho**2) / (n * len(METRICS)))
    a0, b0 = (base_uniforms(0, j, "qwen3_32b", "with_gt", n)[..., 0] for j in ("judge_qwq_32b", "judge_gpt_5_4"))
    assert not np.any(a0 == b0)


def test_the_cli_writes_the_drawn_configuration_into_the_card(tmp_path: Path) -> None:
    """`--random-seed 11 --scale tiny --out DIR`: the card's `planted:` is the draw's and names the command;
    the committed sample's card is the default's; a negative seed or no --out is one line."""
    out = tmp_path / "r11"
    run = [sys.executable, "-m", "ajb_sample", "--scale", "tiny"]
    proc = subprocess.run(
        [*run, "--random-seed", "11", "--out", str(out)], cwd=REPO_ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    card = planted_effects(out)
    assert card == planted_summary("random-11") and card["variant"] == "random-11"
    assert card["resample"]["thinking_off"] == random_behaviour(BEHAVIOUR, 11)["resample"]["thinking_off"]
    assert "--random-seed 11" in (out / "README.md").read_text()
    assert planted_effects(SAMPLE_DIR) == planted_summary("default")
    for bad in (["--random-seed", "-1", "--out", str(out)], ["--random-seed", "3"]):
        proc = subprocess.run([*run, *bad], cwd=REPO_ROOT, capture_output=True, text=True)
        assert proc.returncode != 0 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_a_drawn_sample_keeps_the_records_and_changes_the_verdicts(tmp_path: Path) -> None:
    """Records are the seed's; generations and verdicts follow the drawn knobs."""
    build_sample("tiny", 0, tmp_path / "a")
    build_sample("tiny", 0, tmp_path / "b", variant=random_variant(4))
    rel = ("data/main.jsonl", "data/judge_qwq_32b.jsonl", "data/smollm3_3b.jsonl")
    same = [(tmp_path / "a" / r).read_bytes() == (tmp_path / "b" / r).read_bytes() for r in rel]
    assert same == [True, False, False]
