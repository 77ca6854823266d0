"""Seeded sub-streams and the row conventions shared by the synthetic sample's builders."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

Rng = np.random.Generator
RESOURCES_DIR = Path(__file__).resolve().parent / "resources"


def rng_for(seed: int, *key: int) -> Rng:
    """Return an independent generator for a keyed sub-stream of `seed`."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def hex_id(rng: Rng) -> str:
    """Return a record id: 16 random bytes as 32 hex digits."""
    return "".join(f"{int(b):02x}" for b in rng.integers(0, 256, size=16))


def judge_generator_name(generator: str) -> str:
    """Return the `generator` column value of judge configs (GPT-5.4 is spelled gpt_5_4)."""
    return "gpt_5_4" if generator == "gpt5_4" else generator


def valid_rows(gens: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the generations a judge sees: parseable and non-empty."""
    return [g for g in gens if g["generated_tool_calls"]]
