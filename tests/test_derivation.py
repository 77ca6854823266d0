"""Census rules (ajb_utils.derivation) on hand-made arguments for every path and the real raw record."""

from __future__ import annotations

import json
from pathlib import Path

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


def classify(query: str, args: dict, outputs=None) -> dict[str, str]:
    """Return {param: path} of the book_room call (second call) in a two-call trace."""
    calls = [{"name": "get_plan", "arguments": {}}, {"name": "book_room", "arguments": args}]
    df = dv.census_calls(query, calls, TOOLS, outputs)
    return dict(zip(df["param"], df["path"]))


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


def test_history_from_outputs_needs_an_earlier_call() -> None:
    """A value equal to an earlier output is HISTORY-ONLY; the first call has no history."""
    assert classify("go", {"amount": 42.5}, outputs=[{"x": [1, 42.5]}, None]) == {"amount": "HISTORY-ONLY"}
    df = dv.census_calls("go", [{"name": "book_room", "arguments": {"plan_score": 3.0}}], TOOLS)
    assert df["path"].tolist() == ["NO-SOURCE"]


def test_real_raw_record() -> None:
    """The authors' raw record: step 4 reuses step 2's and step 3's outputs; query values are VISIBLE."""
    raw = json.loads((Path(__file__).parent / "fixtures" / "raw_record_example.json").read_text())
    tr = dv.raw_record_trace(raw)
    assert [c["name"] for c in tr["calls"]] == [
        "calculate_energy_imbalance",
        "predict_energy_demand",
        "assess_generator_capacity",
        "adjust_energy_allocation",
    ]
    assert tr["outputs"][1] == 1012.33
    df = dv.census_calls(tr["query"], tr["calls"], tr["tools"], tr["outputs"])
    step4 = df[df["step"] == 4].set_index("param")
    assert step4.at["predicted_demand", "path"] == "HISTORY-ONLY"
    assert step4.at["predicted_demand", "rule"] == "output"
    assert step4.at["utilization_ratio", "path"] == "HISTORY-ONLY"
    assert step4.at["max_capacity", "path"] == "VISIBLE"
    assert (df[df["step"] < 4]["path"] == "VISIBLE").all()  # 850.5, 920.3, 300, 905..915, 1000 (narrow spaces)


def test_path_shares_sum_to_100() -> None:
    """path_shares returns percentages over PATHS that sum to 100 per group."""
    census = pd.DataFrame(
        {
            "difficulty": ["easy", "easy", "hard"],
            "path": pd.Categorical(["VISIBLE", "DEFAULT", "NO-SOURCE"], categories=dv.PATHS),
        }
    )
    sh = dv.path_shares(census).set_index("difficulty")
    assert sh.loc["easy", "VISIBLE"] == 50.0 and sh.loc["hard", "NO-SOURCE"] == 100.0
    assert sh[dv.PATHS].sum(axis=1).round(6).eq(100.0).all()


# ------------------------------------------------------------------------------------------
# speed work (issue 20) must not change a single census row
# ------------------------------------------------------------------------------------------
TRICKY_QUERIES = [
    "Set a 10-gig link for half a dozen sites, 5min apart, from the first of March 2024 for an hour",
    "Phone someone often; content tenant done",  # number words inside other words
    "March 1st 2024, 1 Mar. 2024, mar 3 2024 and MAY 5, 2025; 2024/03/01",
    "fivemin TWO DOZEN Gigabit 2.5k $1,500 15% 3bn 1.2M 10 GW 500 kW 100 meg",
    "pay in pounds, euros or dollars; £5, € 7 and US dollars; yen",
    "dry run on, auto approve off",
    "naïve café at 5 minutes past noon, the twenty-first of June 2024",  # non-ASCII: full path
    "",
]


def test_query_index_prefilters_change_nothing(monkeypatch):
    from ajb_utils.data import load_bench

    recs = load_bench("sample").records
    queries = TRICKY_QUERIES + [str(q) for d in ("easy", "medium", "hard") for q in recs[f"query_{d}"]]
    fast = [dv.QueryIndex(q) for q in queries]
    monkeypatch.setattr(dv, "_PREFILTER", False)
    slow = [dv.QueryIndex(q) for q in queries]
    assert fast == slow
    assert any(q.dates for q in fast) and any(q.format_numbers for q in fast)


def test_census_equals_the_per_call_census_on_the_sample():
    from ajb_utils.data import load_bench

    recs = load_bench("sample").records
    got = dv.derivation_census(recs)
    parts = []
    for r in recs.itertuples(index=False):
        for d in ("easy", "medium", "hard"):
            df = dv.census_calls(str(getattr(r, f"query_{d}")), r.expected_calls or [], r.tools)
            parts.append(df.assign(id=str(r.id), dag_type=str(r.dag_type), difficulty=d))
    ref = pd.concat(parts, ignore_index=True)[list(got.columns)]
    ref["path"] = pd.Categorical(ref["path"], categories=dv.PATHS)
    ref["difficulty"] = pd.Categorical(ref["difficulty"], categories=["easy", "medium", "hard"])
    assert len(got) == len(ref) > 1000
    pd.testing.assert_frame_equal(got, ref)
    assert set(got["path"].astype(str)) >= {"VISIBLE", "FORMAT", "NO-SOURCE"}


def test_deref_pool_gives_the_same_X4_as_every_verdict():
    import ajb_judge as judge
    from ajb_utils import tables
    from ajb_utils.data import load_bench

    bench = load_bench("sample")
    static = judge.static_verdicts(bench, ["with_gt", "without_gt", "deref"])
    everything = pd.concat([bench.verdicts.astype({"judge": str}), static.assign(judge="static")], ignore_index=True)
    pool = tables.deref_pool(bench.verdicts, static)
    assert len(pool) < len(everything)
    pd.testing.assert_frame_equal(tables.table_X4(pool), tables.table_X4(everything))


def test_table_X3_keeps_a_topology_outside_the_papers_six():
    """A census row of a topology the paper does not name keeps its label (after the paper's six),
    instead of becoming a missing value (pandas deprecates and will refuse values outside the
    categories)."""
    import warnings

    from ajb_utils import tables
    from ajb_utils.schema import TOPOLOGIES

    census = pd.DataFrame(
        {
            "difficulty": ["easy", "easy", "hard"],
            "dag_type": pd.Categorical(["linear", "lattice", "lattice"], categories=[*TOPOLOGIES, "lattice"]),
            "path": [dv.PATHS[0], dv.PATHS[0], dv.PATHS[-1]],
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = tables.table_X3(census)
    assert out["dag_type"].notna().all()
    assert list(out["dag_type"].cat.categories) == ["all", *TOPOLOGIES, "lattice"]
    assert out.loc[out["dag_type"] == "lattice", "n_args"].sum() == 2
