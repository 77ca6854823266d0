"""Census rules (ajb_utils.derivation) on hand-made arguments for every path and the real raw record."""

from __future__ import annotations

import pandas as pd
import pytest

from ajb_utils import derivation as dv

TOOLS = [
    {"name": "get_plan", "description": "", "properties": {"plan_id": {"type": "string"}}, "required": []},
    {
        "name": "book_room",
        "description": "Book a room.",
        "properties": {
            "amount": {"type": "number"},
            "bandwidth_mbps": {"type": "integer"},
            "start_date": {"type": "string"},
            "duration_seconds": {"type": "integer"},
            "priority": {"type": "string", "enum": ["low", "critical"]},
            "ticket_id": {"type": "string"},
            "page_size": {"type": "integer", "default": 10},
            "dry_run": {"type": "boolean", "default": False},
            "currency": {"type": "string"},
            "ratio": {"type": "number"},
            "count": {"type": "integer"},
            "plan_score": {"type": "number", "description": "Output of the get plan step."},
            "plan_ref": {"type": "string", "description": "Free text."},
            "note": {"type": "string"},
        },
        "required": [],
    },
]


def census(query: str, calls: list[dict]) -> pd.DataFrame:
    """Return the census of one record whose three queries are `query`, at difficulty easy."""
    rec = pd.DataFrame([{"id": "r1", "dag_type": "sequential", "tools": TOOLS, "expected_calls": calls}])
    rec = rec.assign(query_easy=query, query_medium=query, query_hard=query)
    return dv.derivation_census(rec, difficulties=["easy"])


def classify(query: str, args: dict) -> dict[str, str]:
    """Return {param: path} of the book_room call (second call) in a two-call trace."""
    df = census(query, [{"name": "get_plan", "arguments": {}}, {"name": "book_room", "arguments": args}])
    return dict(zip(df["param"], df["path"].astype(str)))


@pytest.mark.parametrize(
    "query,args,path",
    [
        ("amount 1500 please", {"amount": 1500.0}, "VISIBLE"),
        ("about $1500", {"amount": 1500}, "VISIBLE"),
        ("ratio 0.15", {"ratio": 0.15}, "VISIBLE"),
        ("start_date 2024-03-01", {"start_date": "2024-03-01"}, "VISIBLE"),
        ("priority critical", {"priority": "critical"}, "VISIBLE"),
        ("ticket INC-23440", {"ticket_id": "INC-23440"}, "VISIBLE"),
        ("dry_run true", {"dry_run": True}, "VISIBLE"),
        ("pay $1,500", {"amount": 1500.0}, "FORMAT"),
        ("pay $1.5k", {"amount": 1500.0}, "FORMAT"),
        ("2.5k units", {"count": 2500}, "FORMAT"),
        ("about 15%", {"ratio": 0.15}, "FORMAT"),
        ("a dozen of them", {"count": 12}, "FORMAT"),
        ("seven of them", {"count": 7}, "FORMAT"),
        ("a gigabit link", {"bandwidth_mbps": 1000}, "FORMAT"),
        ("a 10-gig link", {"bandwidth_mbps": 10000}, "FORMAT"),
        ("the first of March 2024", {"start_date": "2024-03-01"}, "FORMAT"),
        ("on March 1, 2024", {"start_date": "2024-03-01"}, "FORMAT"),
        ("for an hour", {"duration_seconds": 3600}, "FORMAT"),
        ("for 5 minutes", {"duration_seconds": 300}, "FORMAT"),
        ("ticket #23440", {"ticket_id": "INC-23440"}, "FORMAT"),
        ("pay in pounds", {"currency": "GBP"}, "FORMAT"),
        ("priority CRITICAL", {"priority": "critical"}, "FORMAT"),
        ("dry run on", {"dry_run": True}, "FORMAT"),
        ("book it", {"page_size": 10}, "DEFAULT"),
        ("book it", {"dry_run": False}, "DEFAULT"),
        ("book it", {"plan_score": 1740.23}, "HISTORY-ONLY"),
        ("book it", {"note": "step1"}, "HISTORY-ONLY"),
        ("book it", {"plan_ref": "REF-1"}, "HISTORY-ONLY"),
        ("urgent, please", {"priority": "critical"}, "NO-SOURCE"),
        ("just simulate it", {"dry_run": True}, "NO-SOURCE"),
        ("book it", {"amount": 2779.72}, "NO-SOURCE"),
        ("book it", {"page_size": 12}, "NO-SOURCE"),
    ],
)
def test_paths(query: str, args: dict, path: str) -> None:
    """Each hand-made argument lands on its derivation path."""
    assert list(classify(query, args).values()) == [path]


def test_first_path_wins() -> None:
    """A default value stated in the query is VISIBLE, not DEFAULT; a history value in the query is VISIBLE."""
    assert classify("page_size 10", {"page_size": 10}) == {"page_size": "VISIBLE"}
    assert classify("score 12.5", {"plan_score": 12.5}) == {"plan_score": "VISIBLE"}


def test_history_needs_an_earlier_call() -> None:
    """The first call has no history: a parameter named after an earlier tool has no source there."""
    df = census("go", [{"name": "book_room", "arguments": {"plan_score": 3.0}}])
    assert df["path"].astype(str).tolist() == ["NO-SOURCE"]


def _x3(census: pd.DataFrame) -> pd.DataFrame:
    """Return Table X3 as notebook 16's cell computes it from `census`."""
    import sys
    from pathlib import Path
    from types import SimpleNamespace

    sys.path.insert(0, str(Path(__file__).parent))
    from notebook_cells import run_cells

    fake = SimpleNamespace(derivation_census=lambda records: census, PATHS=dv.PATHS)  # the census given
    quiet = SimpleNamespace(write_table=lambda *a, **k: None, show=lambda *a, **k: None)
    return run_cells(
        "16",
        ["census = derivation.derivation_census("],
        bench=SimpleNamespace(records=None),
        derivation=fake,
        report=quiet,
        out=None,
    )["x3"]


def test_X3_shares_sum_to_100() -> None:
    """X3 holds percentages over PATHS that sum to 100 per difficulty, over all topologies and per topology."""
    census = pd.DataFrame(
        {
            "id": ["a", "a", "b"],
            "difficulty": ["easy", "easy", "hard"],
            "dag_type": ["linear", "linear", "fork"],
            "path": pd.Categorical(["VISIBLE", "DEFAULT", "NO-SOURCE"], categories=dv.PATHS),
        }
    )
    sh = _x3(census).set_index(["dag_type", "difficulty"])
    assert sh.loc[("all", "easy"), "VISIBLE"] == 50.0 and sh.loc[("all", "hard"), "NO-SOURCE"] == 100.0
    assert sh.loc[("fork", "hard"), "n_args"] == 1 and sh.loc[("linear", "easy"), "DEFAULT"] == 50.0
    full = sh[sh["n_args"] > 0]
    assert full[dv.PATHS].sum(axis=1).round(6).eq(100.0).all()


def test_table_X3_keeps_a_topology_outside_the_papers_six():
    """A census row of a topology the paper does not name keeps its label (after the paper's six),
    instead of becoming a missing value (pandas deprecates and will refuse values outside the
    categories)."""
    import warnings

    from ajb_utils.schema import TOPOLOGIES

    census = pd.DataFrame(
        {
            "id": ["a", "b", "b"],
            "difficulty": ["easy", "easy", "hard"],
            "dag_type": pd.Categorical(["linear", "lattice", "lattice"], categories=[*TOPOLOGIES, "lattice"]),
            "path": [dv.PATHS[0], dv.PATHS[0], dv.PATHS[-1]],
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = _x3(census)
    assert out["dag_type"].notna().all()
    assert list(out["dag_type"].cat.categories) == ["all", *TOPOLOGIES, "lattice"]
    assert out.loc[out["dag_type"] == "lattice", "n_args"].sum() == 2
