"""Any selection of a load (generators, judges, runs) is the full load restricted to it.

Hypothesis draws selections of the embedded sample's configs and runs (empty ones included) and
holds each load against the full load filtered by hand: the same rows of generations, verdicts and
exclusions for what was selected, the same columns and dtypes however little is selected, and
verdicts about a generator left out by the selection are neither kept nor counted as bad rows; with
some records (`ids`) and some call columns (`calls`) drawn too, the three restrictions compose.
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
        yield load_bench("sample")


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


def _restricted(full, selection: dict) -> dict[str, pd.DataFrame]:
    """Return the full load's records, generations, verdicts and exclusions restricted by hand to a
    selection of generators, judges and runs (categoricals as text)."""
    gens = set(GENERATORS if selection["generators"] is None else map(canonical_generator, selection["generators"]))
    runs = RUNS if selection["runs"] == "shipped" else selection["runs"] or []
    judges = set(JUDGES if selection["judges"] is None else selection["judges"]) | set(runs)
    g, v, e = full.generations, full.verdicts, full.exclusions
    generator = e["generator"].map(lambda x: None if x is None else canonical_generator(str(x)))
    left_out = set(GENERATORS) - gens  # rows about them are not read, so neither kept nor bad
    judged = e["judge"].isin(judges) & ~generator.isin(left_out)
    return {
        "records": _text(full.records),
        "generations": _text(g[g["generator"].astype(str).isin(gens)]),
        "verdicts": _text(v[v["generator"].astype(str).isin(gens) & v["judge"].astype(str).isin(judges)]),
        "exclusions": _text(e[(e["config"] == "main") | (e["judge"].isna() & e["config"].isin(gens)) | judged]),
    }


@settings(max_examples=25, deadline=None)
@given(selection=SELECTIONS)
def test_a_selection_is_the_full_load_restricted_to_it(full, selection):
    """generations, verdicts and exclusions are the full load's rows of the selected configs (a
    verdict about a generator not selected is left out, not counted as a bad row); every frame has
    the full load's columns and dtypes."""
    part = load_bench("sample", **selection)
    for name, expected in _restricted(full, selection).items():
        assert _kinds(getattr(part, name)) == _kinds(getattr(full, name)), name
        pd.testing.assert_frame_equal(_text(getattr(part, name)), expected)


CALLS = st.booleans() | st.lists(st.sampled_from(["tools", "expected_calls", "generated_calls"]), unique=True)


@settings(max_examples=15, deadline=None)
@given(selection=SELECTIONS, picks=st.none() | st.lists(st.integers(0, 999), max_size=4), calls=CALLS)
def test_some_records_of_a_selection_with_some_call_columns(full, selection, picks, calls):
    """A selection, some records' rows (`ids`) and some call columns together are the three
    restrictions of the full load applied one after the other."""
    known = sorted(full.records["id"].astype(str))
    ids = None if picks is None else [known[i % len(known)] for i in picks]
    part = load_bench("sample", ids=ids, calls=calls, **selection)
    every = {"tools", "expected_calls", "generated_calls"}
    dropped = every - (every if calls is True else set() if calls is False else set(calls))
    for name, expected in _restricted(full, selection).items():
        if ids is not None and name != "exclusions":
            expected = expected[expected["id"].astype(str).isin(ids)].reset_index(drop=True)
        expected = expected.drop(columns=[c for c in dropped if c in expected])
        pd.testing.assert_frame_equal(_text(getattr(part, name)), expected)


@settings(max_examples=6, deadline=None)
@given(selection=SELECTIONS)
def test_a_selection_read_from_the_files_is_the_one_read_from_its_build(full, selection):
    """`cache=False` (the files read again) gives the frames the build of the same selection gives."""
    built = load_bench("sample", **selection)
    read = load_bench("sample", cache=False, **selection)
    for name in (*FRAMES, "judges"):
        pd.testing.assert_frame_equal(getattr(read, name), getattr(built, name), check_exact=True)
