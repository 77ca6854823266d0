"""Any selection of a load (generators, judges, runs) is the full load restricted to it.

Hypothesis draws selections of the embedded sample's configs and runs (empty ones included) and
holds each load against the full load filtered by hand: the same rows of generations, verdicts and
exclusions for what was selected, the same columns and dtypes however little is selected, and
verdicts about a generator left out by the selection are neither kept nor counted as bad rows.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ajb_utils.cache as bench_cache
from ajb_utils.data import load_bench
from ajb_utils.schema import GENERATORS, JUDGES, canonical_generator

RUNS = sorted(p.name.removesuffix(".jsonl") for p in Path("data/sample/runs").glob("*.jsonl"))
FRAMES = ("records", "generations", "verdicts", "exclusions")


@pytest.fixture(scope="module")
def full(tmp_path_factory) -> object:
    """Return the sample's full load, every build of this module in a cache of its own."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(bench_cache.CACHE_ENV, str(tmp_path_factory.mktemp("cache")))
        yield load_bench("sample", calls=False)


def _text(frame: pd.DataFrame) -> pd.DataFrame:
    """Return a frame with its categoricals as text (a selection's categories may be fewer)."""
    cats = [c for c in frame if isinstance(frame[c].dtype, pd.CategoricalDtype)]
    return frame.astype({c: object for c in cats}).reset_index(drop=True)


def _kinds(frame: pd.DataFrame) -> list[tuple[str, str]]:
    """Return each column's name and dtype, a categorical as 'category'."""
    return [(c, "category" if isinstance(t, pd.CategoricalDtype) else str(t)) for c, t in frame.dtypes.items()]


SELECTIONS = st.fixed_dictionaries(
    {
        "generators": st.none() | st.lists(st.sampled_from([*GENERATORS, "gpt_5_4"]), max_size=3, unique=True),
        "judges": st.none() | st.lists(st.sampled_from(JUDGES), max_size=3, unique=True),
        "runs": st.none() | st.just("shipped") | st.lists(st.sampled_from(RUNS), max_size=3, unique=True),
    }
)


@settings(max_examples=25, deadline=None)
@given(selection=SELECTIONS)
def test_a_selection_is_the_full_load_restricted_to_it(full, selection):
    """generations, verdicts and exclusions are the full load's rows of the selected configs (a
    verdict about a generator not selected is left out, not counted as a bad row); every frame has
    the full load's columns and dtypes."""
    part = load_bench("sample", calls=False, **selection)
    gens = set(GENERATORS if selection["generators"] is None else map(canonical_generator, selection["generators"]))
    runs = RUNS if selection["runs"] == "shipped" else selection["runs"] or []
    judges = set(JUDGES if selection["judges"] is None else selection["judges"]) | set(runs)
    for name in FRAMES:
        assert _kinds(getattr(part, name)) == _kinds(getattr(full, name)), name
    assert _text(part.records).equals(_text(full.records))
    g = full.generations
    pd.testing.assert_frame_equal(_text(part.generations), _text(g[g["generator"].astype(str).isin(gens)]))
    v = full.verdicts
    v = v[v["generator"].astype(str).isin(gens) & v["judge"].astype(str).isin(judges)]
    pd.testing.assert_frame_equal(_text(part.verdicts), _text(v))
    e = full.exclusions
    generator = e["generator"].map(lambda x: None if x is None else canonical_generator(str(x)))
    left_out = set(GENERATORS) - gens  # rows about them are not read, so neither kept nor bad
    judged = e["judge"].isin(judges) & ~generator.isin(left_out)
    expected = e[(e["config"] == "main") | (e["judge"].isna() & e["config"].isin(gens)) | judged]
    pd.testing.assert_frame_equal(_text(part.exclusions), _text(expected))


@settings(max_examples=6, deadline=None)
@given(selection=SELECTIONS)
def test_a_selection_read_from_the_files_is_the_one_read_from_its_build(full, selection):
    """`cache=False` (the files read again) gives the frames the build of the same selection gives."""
    built = load_bench("sample", **selection)
    read = load_bench("sample", cache=False, **selection)
    for name in (*FRAMES, "judges"):
        pd.testing.assert_frame_equal(getattr(read, name), getattr(built, name), check_exact=True)
