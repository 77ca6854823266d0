"""Tests for notebook 10's Table 1 and App. H cells, ajb_utils.tables.validation and ajb_utils.annotation.

Hand-computed small frames and the paper's own numbers (Table 20 counts -> unanimity %).
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import ajb_verify as verify
from ajb_utils import annotation, paper
from ajb_utils.data import load_bench
from ajb_utils.tables import ablations, anchoring, validation

NB10_CELLS = [
    "runs_c3 = bench.judges[",
    "vc3 = bench.verdicts[",
    "d = (t01 if len(t01)",
    'g = v.groupby(["judge", "generator"',
]


def _nb10(bench, markers: list[str] = NB10_CELLS, data_source: str = "sample", **names) -> dict:
    """Return the names notebook 10's C3 (Table 1) and App. H cells define on `bench` (`printed`: what they print)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from notebook_cells import run_cells

    quiet = SimpleNamespace(show=lambda *a, **k: None, write_table=lambda *a, **k: None)
    names = (
        dict(bench=bench, data_source=data_source, ablations=ablations, verify=verify, paper=paper, out=None) | names
    )
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        ns = run_cells("10", markers, report=quiet, **names)
    return ns | {"printed": printed.getvalue()}


# ------------------------------------------------------------------ App. H mining rule ---------
def _verdicts(rows):
    """Return a verdicts frame from (id, metric, p, l_with, l_without) tuples."""
    out = []
    for i, m, p, lw, lo in rows:
        for cond, llm in (("with_gt", lw), ("without_gt", lo)):
            out.append(
                {
                    "judge": "judge_gemini_2_5_pro",
                    "generator": "llama_3_3_70b_instruct",
                    "difficulty": "hard",
                    "id": i,
                    "metric": m,
                    "condition": cond,
                    "p": p,
                    "llm_score": llm,
                    "match": 1 - abs(p - llm),
                    "dag_type": "linear",
                }
            )
    return pd.DataFrame(out)


def test_mining_rule_hand_cases():
    v = _verdicts(
        [
            ("a", "sequence_accuracy", 0.5, 1.0, 0.5),  # flagged: lenient only with GT
            ("a", "tool_selection", 1.0, 1.0, 1.0),  # p = 1: never
            ("b", "sequence_accuracy", 0.5, 1.0, 1.0),  # lenient without GT too: not flagged
            ("c", "query_coverage", 0.6667, 1.0, 0.5),  # l_noGT <= p + 0.1: flagged
            ("d", "query_coverage", 0.5, 0.5, 0.0),  # l_GT == p: not flagged
            ("e", "parameter_structure", 0.45, 1.0, 0.5),  # 0.5 <= 0.55: flagged (margin 0.1)
        ]
    )
    records = pd.DataFrame({"id": list("abcde"), "dag_type": "linear"})
    ns = _nb10(SimpleNamespace(verdicts=v, records=records), NB10_CELLS[-1:])
    mined, counts = ns["mined"], ns["counts"]
    assert sorted(zip(mined["id"], mined["metric"])) == [
        ("a", "sequence_accuracy"),
        ("c", "query_coverage"),
        ("e", "parameter_structure"),
    ]
    assert counts.loc[0, "instances"] == 3 and counts.loc[0, "n_records"] == 5
    assert counts.loc[0, "share_pct"] == pytest.approx(60.0)


def test_anchoring_split_on_paper_table1():
    rep01 = paper.reported("T01")
    split = _nb10(None, NB10_CELLS[2:3], t01=rep01.iloc[0:0], rep01=rep01)["split"].set_index("judge")
    assert split.at["judge_gemini_2_5_pro", "max_abs_cGT_minus_GT"] == pytest.approx(1.8)
    assert split.at["judge_qwq_32b", "max_abs_cGT_minus_noGT"] == pytest.approx(0.2)
    assert split.at["judge_gemini_2_5_pro", "nearer by point estimate (no CI)"].startswith("with GT")
    assert split.at["judge_qwq_32b", "nearer by point estimate (no CI)"].startswith("without GT")
    assert all(v.holds for v in verify.t01_checks(split.reset_index()))


# ------------------------------------------------------------------ rewrite study --------------
def _rewrite(verdicts: dict[str, list[tuple[bool, bool, bool]]]) -> pd.DataFrame:
    """Return rewrite rows: criterion -> list of (claude, gpt, gemini) verdict triples per record."""
    rows = []
    for crit, triples in verdicts.items():
        for k, t in enumerate(triples):
            for j, v in zip(["claude_large", "gpt_5_4", "gemini_2_5_pro"], t):
                rows.append(
                    {"id": f"r{k}", "dag_type": "linear", "meta_judge": j, "pair": "x", "criterion": crit, "verdict": v}
                )
    return validation.normalise_rewrite(pd.DataFrame(rows))


NB12_CELLS = ["t19 = rw.reindex", "def unanimity(", "t22 = unanimity(rw", "panels = ["]


def _nb12(rw: pd.DataFrame, markers: list[str] = NB12_CELLS) -> dict:
    """Return the names notebook 12's cells (Tables 19, 20, 22, the panels' unanimity) define on the rewrite verdicts `rw`."""
    sys.path.insert(0, str(Path(__file__).parent))
    from notebook_cells import run_cells

    show = SimpleNamespace(show=lambda *a, **k: None, write_table=lambda *a, **k: None)
    with contextlib.redirect_stdout(io.StringIO()):
        return run_cells("12", markers, rw=rw, validation=validation, paper=paper, verify=verify, out=None, report=show)


def _t19(rw: pd.DataFrame) -> pd.DataFrame:
    """Return Table 19 as notebook 12's cell computes it from the rewrite verdicts `rw`."""
    return _nb12(rw, NB12_CELLS[:1])["t19"]


def test_unanimity_hand_counts():
    T, F = True, False
    rw = _rewrite({"hard_preserves": [(T, T, T), (T, F, T), (F, F, F), (T, F, T)]})
    ns = _nb12(rw)
    row = ns["t20"].set_index("criterion").loc["hard_preserves_gt"]
    assert (row["all_yes"], row["all_no"], row["mixed"]) == (1, 1, 2)
    assert row["unanimity"] == pytest.approx(50.0)
    t19 = ns["t19"].set_index(["meta_judge", "criterion"])["yes_rate"]
    assert t19[("judge_gpt_5_4", "hard_preserves_gt")] == pytest.approx(25.0)
    t22 = ns["t22"].set_index("criterion")
    # without GPT-5.4 every record is unanimous
    assert t22.at["hard_preserves_gt", "unanimity_2_judges"] == pytest.approx(100.0)
    assert t22.at["hard_preserves_gt", "delta_2judge_minus_3judge"] == pytest.approx(50.0)


def test_no_rewrite_verdicts_give_empty_tables():
    ns = _nb12(pd.DataFrame())
    assert ns["t20"].empty and ns["t22"].empty and ns["subsets"].empty and ns["positive"] == []
    assert list(ns["t22"].columns)[-1] == "delta_2judge_minus_3judge" and len(ns["triplet"]) == 1


def test_runner_rewrite_spelling_is_normalised():
    df = pd.DataFrame(
        {
            "id": ["a", "a"],
            "dag_type": ["linear"] * 2,
            "meta_judge": ["gpt_5_4"] * 2,
            "pair": ["easy_medium", "medium_hard"],
            "criterion": ["strictly_harder", "preserves_gt"],
            "verdict": [1, 0],
        }
    )
    out = validation.normalise_rewrite(df)
    assert out["criterion"].tolist() == ["medium_harder_than_easy", "hard_preserves_gt"]
    assert out["meta_judge"].unique().tolist() == ["judge_gpt_5_4"]


def test_paper_table20_unanimity_is_consistent():
    r = paper.reported("T20").query("stat != 'paraphrase_share'").pivot(index="variant", columns="stat", values="value")
    recomputed = 100 * (r["all_yes"] + r["all_no"]) / (r["all_yes"] + r["all_no"] + r["mixed"])
    assert np.allclose(recomputed.round(1), r["unanimity"], atol=0.05)


# ------------------------------------------------------------------ human study ---------------
def _long(rows):
    """Return long annotations from (id, dag_type, metric, p, agrees, human) tuples."""
    return pd.DataFrame(
        [
            {
                "id": i,
                "generator": "g",
                "difficulty": "hard",
                "dag_type": d,
                "metric": m,
                "programmatic_score": p,
                "human_agrees": a,
                "human_score": h,
                "note": "",
            }
            for i, d, m, p, a, h in rows
        ]
    )


def test_agreement_tables_hand_counts():
    ann = _long(
        [
            ("a", "linear", "tool_selection", 1.0, True, 1.0),
            ("a", "linear", "parameter_structure", 0.5, False, 1.0),
            ("b", "fan_in", "tool_selection", 0.5, True, 0.5),
            ("b", "fan_in", "parameter_structure", 1.0, True, 1.0),
        ]
    )
    pm, pt = annotation.agreement_tables(ann)
    pm = pm.set_index("metric")
    assert pm.at["parameter_structure", "agreement"] == pytest.approx(50.0)
    assert pm.at["overall", "agree"] == 3 and pm.at["overall", "disagree"] == 1
    assert pt.set_index("dag_type").at["linear", "agreement"] == pytest.approx(50.0)


def test_sheet_read_errors(tmp_path):
    cols = annotation.sheet_columns()
    row = {c: "" for c in cols}
    row.update({"id": "a", "generator": "g", "difficulty": "hard", "dag_type": "linear"})
    row.update(
        {
            f"programmatic_{m}": 1.0
            for m in ["tool_selection", "parameter_structure", "sequence_accuracy", "query_coverage"]
        }
    )
    good = dict(row, agree_tool_selection="yes", agree_parameter_structure="no", human_parameter_structure="0.5")
    p = annotation.export_sheet(pd.DataFrame([good]), tmp_path / "s.csv")
    sheet = annotation.read_sheet(p)
    pm, _ = annotation.agreement_tables(annotation.sheet_to_long(sheet))
    assert pm.set_index("metric").at["overall", "agree"] == 1
    long = annotation.sheet_to_long(sheet)
    assert long.set_index("metric").at["parameter_structure", "human_score"] == 0.5
    with pytest.raises(annotation.SheetError, match="yes/no"):
        annotation.read_sheet(
            annotation.export_sheet(pd.DataFrame([dict(good, agree_query_coverage="maybe")]), tmp_path / "b1.csv")
        )
    with pytest.raises(annotation.SheetError, match=r"\[0, 1\]"):
        annotation.read_sheet(
            annotation.export_sheet(pd.DataFrame([dict(good, human_tool_selection="2")]), tmp_path / "b2.csv")
        )
    with pytest.raises(annotation.SheetError, match="empty"):
        annotation.read_sheet(
            annotation.export_sheet(pd.DataFrame([dict(good, agree_sequence_accuracy="no")]), tmp_path / "b3.csv")
        )
    with pytest.raises(annotation.SheetError, match="missing column"):
        annotation.read_sheet(annotation.export_sheet(pd.DataFrame([good]).drop(columns="note"), tmp_path / "b4.csv"))


# ------------------------------------------------------------------ on the sample -------------
@pytest.fixture(scope="module")
def bench():
    from ajb_utils.data import load_bench

    return load_bench("sample")


def test_sample_round_trip_and_T13(bench, tmp_path):
    ann, where = validation.load_annotations("sample", "human")
    assert where == "the source: synthetic_human_annotations.jsonl" and len(ann) == 480
    annotation.export_sheet(annotation.sheet_from_annotations(bench, ann), tmp_path / "filled.csv")
    pm, pt = annotation.agreement_tables(annotation.sheet_to_long(annotation.read_sheet(tmp_path / "filled.csv")))
    direct, _ = annotation.agreement_tables(ann)
    pd.testing.assert_frame_equal(pm, direct)
    assert pt["total"].sum() == 480
    t13 = _t13(bench, ann)
    assert len(t13) == 6 and t13["n"].max() <= 120
    # vs-programmatic equals stats.align on the same records
    from ajb_utils import stats

    v = bench.verdicts
    ids = set(ann["id"] + "|" + ann["generator"])
    v = v[
        (v["condition"] == "with_gt")
        & (v["difficulty"] == "hard")
        & (v["id"].astype(str) + "|" + v["generator"].astype(str)).isin(ids)
        & (v["judge"] == "judge_qwq_32b")
    ]
    ref = stats.align(v, by=["judge"])["align"].iloc[0]
    assert t13.set_index("judge").at["judge_qwq_32b", "vs_programmatic"] == pytest.approx(ref)
    assert _t13(bench, pd.DataFrame()).empty


def _t13(bench, ann: pd.DataFrame) -> pd.DataFrame:
    """Return Table 13 as notebook 11's cell computes it from the human annotations `ann`."""
    sys.path.insert(0, str(Path(__file__).parent))
    from notebook_cells import run_cells

    show = SimpleNamespace(show=lambda *a, **k: None, write_table=lambda *a, **k: None)
    with contextlib.redirect_stdout(io.StringIO()):
        return run_cells(
            "11", ["t13 = pd.DataFrame("], bench=bench, ann=ann, paper=paper, verify=verify, out=None, report=show
        )["t13"]


def _blank_sheet(bench, seed: int, tmp_path) -> dict:
    """Return the names notebook 11's cell defines when it draws a blank sheet (Llama-3.3-70B's hard records)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from notebook_cells import run_cells

    quiet = SimpleNamespace(show=lambda *a, **k: None)
    names = dict(bench=bench, seed=seed, sheet_generator="llama_3_3_70b_instruct", out=tmp_path, report=quiet)
    names |= dict(load_bench=load_bench, data_source="sample", revision=None, runs="shipped")  # the picks' plans
    with contextlib.redirect_stdout(io.StringIO()):
        return run_cells(
            "11", ["picks, shortfalls = "], annotation=annotation, paths=SimpleNamespace(relpath=str), **names
        )


def test_sample_sheet_draw(bench, tmp_path):
    ns = _blank_sheet(bench, 3, tmp_path)
    sheet = ns["blank"]
    assert list(sheet.columns) == annotation.sheet_columns()
    assert sheet["id"].is_unique and (sheet["difficulty"] == "hard").all()
    pd.testing.assert_frame_equal(sheet, _blank_sheet(bench, 3, tmp_path)["blank"])
    # 20 per topology where the sample has them, else what it has, and the shortfall says so
    per = sheet.groupby("dag_type").size()
    imperfect = (sheet[[c for c in sheet if c.startswith("programmatic_")]] < 1 - 1e-9).any(axis=1)
    for topo, n in per.items():
        short = ns["shortfalls"].get(topo)
        assert (n == 20 and int(imperfect[sheet["dag_type"] == topo].sum()) == 14) or short is not None, topo


def test_sample_lift_matches_cells(bench):
    ns = _nb10(bench, ["released = bench.verdicts[", *NB10_CELLS[:2]], anchoring=anchoring, n_bootstrap=200, seed=1)
    lift = ns["lift"].set_index("judge")
    assert (lift["lo"] <= lift["lift"]).all() and (lift["lift"] <= lift["hi"]).all()
    assert (lift["n_cells"] == 12).all()
    assert set(ns["t01"]["judge"]) == {"judge_qwq_32b", "judge_gemini_2_5_pro"}
    assert bench.has_runs("c3") and not bench.has_runs("no_such_study")
    assert ns["printed"].startswith("C3 runs used: synthetic_")


# ------------------------------------------------------------------ the user's runs, and none --------
def _mini_with_c3_run(root):
    """Return a mini repo whose runs/ holds a non-synthetic C3 run judging its GPT-5.4 outputs."""
    import json

    from ajb_utils.scoring import programmatic_scores
    from mini_repo import EXPECTED, GENERATED, write_mini_repo

    write_mini_repo(root)
    (root / "runs").mkdir()
    rows = []
    for (rid, diff), gen in GENERATED.items():
        if not gen:
            continue
        p = programmatic_scores(gen, EXPECTED)

        def block(l: float, p: dict = p) -> dict:
            return {m: {"llm_score": l, "programmatic_score": s, "match_score": 1 - abs(s - l)} for m, s in p.items()}

        rows.append(
            {
                "id": rid,
                "generator": "gpt_5_4",
                "difficulty": diff,
                "with_gt": block(1.0),
                "without_gt": block(0.5),
                "corrupted_gt": block(1.0),
            }
        )
    (root / "runs" / "my_c3.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (root / "runs" / "my_c3.meta.json").write_text(
        json.dumps(
            {
                "name": "my_c3",
                "judge": "qwq_32b",
                "study": "c3",
                "synthetic": False,
                "conditions": ["with_gt", "without_gt", "corrupted_gt"],
            }
        )
    )
    return root


def test_a_user_c3_run(tmp_path):
    from ajb_utils import stats
    from ajb_utils.data import load_bench

    bench = load_bench(_mini_with_c3_run(tmp_path / "repo"))
    gen = (
        bench.verdicts["generator"].astype(str).replace({"gpt5_4": "llama_3_3_70b_instruct"})
    )  # the cell's C3 generator
    v = bench.verdicts.assign(generator=gen)
    ns = _nb10(SimpleNamespace(judges=bench.judges, verdicts=v, has_runs=bench.has_runs), NB10_CELLS[:2], "hf")
    assert bench.has_runs("c3") and "my_c3 (base judge_qwq_32b)" in ns["printed"]
    t01 = ns["t01"]
    assert set(t01["judge"]) == {"judge_qwq_32b"}
    v = bench.verdicts[bench.verdicts["judge"] == "my_c3"]
    ref = stats.align(v, by=["difficulty", "condition"]).set_index(["difficulty", "condition"])
    got = t01[t01["stat"] == "alignment"].set_index(["difficulty", "condition"])["value"]
    for key, value in got.items():
        assert value == pytest.approx(ref.loc[key, "align"])
    # corrupted GT gives the same verdicts as with GT here -> delta vs with GT is 0
    assert (t01.loc[t01["stat"] == "delta_vs_with_gt", "value"].abs() < 1e-9).all()


def test_no_runs_reproduce_nothing_and_give_the_commands(tmp_path):
    from ajb_utils.data import load_bench
    from mini_repo import write_mini_repo

    root = write_mini_repo(tmp_path / "repo")
    bench = load_bench(root)
    assert not bench.has_runs("c3")
    ns = _nb10(bench, NB10_CELLS[:3], "hf")
    assert ns["t01"].empty
    status = ns["printed"]
    assert "python -m ajb_judge run" in status and "corrupted_gt" in status and "no C3 runs" in status
    assert len(ns["rep01"]) > 0 and len(ns["split"]) == 2  # what the notebook shows instead
    empty_runs = tmp_path / "no_runs"
    for kind in ("human", "rewrite"):
        ann, where = validation.load_annotations(str(root), kind, runs_dir=empty_runs)
        assert where == "" and ann.empty
    assert len(paper.reported("T19")) == 12 and len(paper.reported("T13")) > 0  # what the notebooks show instead


def test_user_rewrite_verdicts(tmp_path):
    """Rewrite verdicts written by the judge runner under data/runs/annotations are the user's."""
    import json

    runs = tmp_path / "runs"
    (runs / "annotations").mkdir(parents=True)
    rows = [
        {
            "id": f"r{i}",
            "dag_type": "linear",
            "meta_judge": mj,
            "pair": "medium_hard",
            "criterion": "hard_harder",
            "verdict": (i + j) % 3 != 0,
        }
        for i in range(6)
        for j, mj in enumerate(["gpt_5_4", "claude_large", "gemini_2_5_pro"])
    ]
    (runs / "annotations" / "mine.rewrite_validation.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    shipped, where = validation.load_annotations("sample", "rewrite", runs_dir=runs)
    assert where.startswith("the source:") and len(shipped) != 18  # default: the sample's own study
    rw, where = validation.load_annotations("sample", "rewrite", runs_dir=runs, runs="auto")
    assert where == "your runs: mine.rewrite_validation.jsonl" and len(rw) == 18
    t19 = _t19(rw)
    yes = {
        mj: np.mean([(i + j) % 3 != 0 for i in range(6)]) * 100
        for j, mj in enumerate(["judge_gpt_5_4", "judge_claude_large", "judge_gemini_2_5_pro"])
    }
    got = t19.set_index("meta_judge")["yes_rate"]
    for mj, value in yes.items():
        assert got[mj] == pytest.approx(value)


# ---- claims we question (notebook 12) ------------------------------------------------------------
def test_dropping_a_rater_never_lowers_unanimity() -> None:
    """Hand case: 3 records x 3 raters; r0 unanimous, r1 split 2-1, r2 split 2-1 the other way."""
    votes = {"r0": (1, 1, 1), "r1": (1, 1, 0), "r2": (0, 1, 0)}
    rw = pd.DataFrame(
        [
            {"id": r, "meta_judge": j, "criterion": "hard_preserves_gt", "verdict": bool(v[k])}
            for r, v in votes.items()
            for k, j in enumerate(["a", "b", "c"])
        ]
    )
    subsets = _nb12(rw, NB12_CELLS[1:])["subsets"]
    u = subsets.set_index("raters")["unanimity"]
    assert u["a + b + c"] == pytest.approx(100 / 3)
    assert (
        u["a + b"] == pytest.approx(200 / 3)
        and u["a + c"] == pytest.approx(200 / 3)
        and u["b + c"] == pytest.approx(100 / 3)
    )
    assert (subsets["minus_all"] >= 0).all()


def test_triplet_claim() -> None:
    t = _nb12(pd.DataFrame(), NB12_CELLS[1:])["triplet"].iloc[0]
    assert t["claimed_unanimity"] == 100.0 and t["reported_unanimity"] == pytest.approx(93.9)
    assert t["implied_mixed"] == 12 == t["reported_mixed"]


def test_annotations_spelling_gpt_5_4_find_the_gpt5_4_generation(bench):
    """An annotation names its generator as the judge configs do (GPT-5.4 is `gpt_5_4`, its config
    `gpt5_4`): the sheet still finds the generation (a drawn sample that annotated GPT-5.4's plans
    stopped notebook 11 with "annotated rows have no valid generation")."""
    gens = bench.generations.astype({"id": str, "generator": str, "difficulty": str})
    row = gens[gens["generator"] == "gpt5_4"].iloc[0]
    pairs = pd.DataFrame([{"id": row["id"], "generator": "gpt_5_4", "difficulty": row["difficulty"]}])
    sheet = annotation.sheet_rows(bench, pairs)
    assert list(sheet["generator"]) == ["gpt5_4"] and list(sheet["id"]) == [row["id"]]
