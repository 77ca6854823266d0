"""The census of the paper's text: every number of the v1 text mapped to what it rests on, or listed unmapped."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pandas as pd
import pytest

import ajb_verify as verify
from ajb_utils import paper
from ajb_verify import scorecard

V1_TEXT = Path("/work/shared/seeds/000_9389826775120f45.txt")  # the arXiv v1 HTML as Markdown (not shipped)
_SPEC = importlib.util.spec_from_file_location("make_census", paper.PAPER_DIR / "census" / "make.py")
make = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(make)  # the census maker (data/paper/census/make.py), like data/paper/transcribe.py

SNIPPET = (
    "## 4\\.2Results and Analysis\n\n"
    "Finding 1\\.All 30 \\(generator, judge\\) pairs degrade \\(Table[2](https://arxiv.org/x#S4.T2)\\), "
    "roughly1\\.5×1\\.5\\\\timeslarger; all six judges converge to a narrow7777–82%82\\\\%band "
    "\\(Kim et al\\., 2024\\) on GPT\\-5\\.4 and Qwen3\\-32B\\.\n"
)


@pytest.fixture(scope="module")
def census() -> pd.DataFrame:
    return verify.text_census(verify.paper_claim_verdicts())


def test_numbers_of_a_sentence_not_its_labels_models_or_years() -> None:
    n = make.text_numbers(SNIPPET)
    assert list(n["number"]) == ["30", "1.5", "77", "82"]
    assert set(n["section"]) == {"§4.2"} and set(n["cites"]) == {"T02"}


def test_a_number_maps_to_the_claim_of_its_section() -> None:
    m = make.map_text_numbers(make.text_numbers(SNIPPET)).set_index("number")
    assert m.at["30", "mapped_to"] == "CF1.monotone_pairs"
    assert m.at["77", "mapped_to"] == m.at["82", "mapped_to"] == "CF1.hard_nogt_band"
    assert m.at["1.5", "mapped_to"] in ("CF1.slope_ratio", "F08.slope_every_generator")


def test_counts_add_up_per_section(census) -> None:
    c = verify.census_counts(census).set_index("section")
    assert (c["numbers"] == c["mapped"] + c["unmapped"]).all()
    assert (c["mapped"] == c["consistent"] + c["self-referential"] + c["inconsistent"] + c["unchecked"]).all()
    assert (c.drop("total").sum() == c.loc["total"]).all()
    assert c.loc["total", "numbers"] == len(census) > 550


def test_each_inconsistent_number_names_both_sources(census) -> None:
    bad = census[census["status"] == "inconsistent"]
    by_claim = bad[bad["how"].str.startswith("claim")]
    assert len(by_claim) and set(by_claim["mapped_to"]) <= set(verify.PAPER_INCONSISTENCIES)
    checked = bad[bad["how"].str.startswith("check")]  # a data number checked by its kind against its table
    assert (checked["note"] != "").all() and checked["table_value"].str.match(r"^(=|<=|>=|lo|hi|~) ").all()
    assert (bad["table_value"].astype(str) != "").all()
    text = bad.assign(v=bad["number"].map(lambda s: float(s.replace(",", ""))))
    assert (text["v"] > 0).all()


def test_consistent_numbers_hold_on_the_papers_tables(census) -> None:
    own = verify.paper_claim_verdicts()
    ok = census[(census["status"] == "consistent") & census["how"].str.startswith("claim")]
    assert set(ok["mapped_to"]) <= set(own.loc[own["holds"] == "yes", "claim_id"])


@pytest.mark.skipif(not V1_TEXT.exists(), reason="the v1 text is not in this checkout")
def test_the_committed_census_is_what_the_functions_make_of_the_v1_text() -> None:
    made = make.map_text_numbers(make.text_numbers(V1_TEXT.read_text(encoding="utf-8")))
    pd.testing.assert_frame_equal(made.astype(str), verify.paper_census().astype(str), check_dtype=False)


def test_scorecard_reports_the_census(tmp_path, census) -> None:
    counts = verify.census_counts(census)
    assert scorecard.census_line(scorecard.read_census(tmp_path)) == ""
    counts.to_csv(tmp_path / scorecard.CENSUS_COUNTS_FILE, index=False)
    line = scorecard.census_line(scorecard.read_census(tmp_path))
    t = counts.set_index("section").loc["total"]
    assert f"{int(t['numbers'])} numbers" in line and f"{int(t['inconsistent'])} inconsistent" in line
    assert verify.claims() is not None


def test_a_unit_decides_between_mirrored_claims() -> None:
    """The abstract's "1.5 pp" is GPT-5.4's GT lift, §5's "approximately 1.5×" the slope ratio."""
    text = (
        "## Abstract\n\nit reduces alignment for 1.5 pp and 3.9 pp, consistent with over-anchoring.\n\n"
        "## 5Conclusion\n\nalignment degrades monotonically with difficulty, approximately1.5×1.5\\times without GT.\n"
    )
    m = make.map_text_numbers(make.text_numbers(text))
    assert list(m["unit"]) == ["pp", "pp", "×"]
    assert list(m["mapped_to"]) == ["CF2.lift_gpt_5_4", "CF2.lift_gemini", "CF1.slope_ratio"]


def test_footnote_markers_equations_and_bullets() -> None:
    text = (
        "## 4\\.2Results\n\nLower triangle: Cohen’sκ55footnotemark:5\\. Diagonal\n\n"
        "## Appendix DStats\n\nmaximum of3,808×3=11,4243\\{,\\}808\\\\times 3=11\\{,\\}424generator inputs\n\n"
        "- •Unparseable output \\(≈5\\.7%\\{\\\\approx\\}5\\.7\\\\%of inputs\\), SmolLM3\\-3B \\(−15\\.6%\\-15\\.6\\\\%\\)\n"
    )
    n = make.text_numbers(text)
    assert list(n["number"]) == ["3,808", "3", "11,424", "5.7", "-15.6"]  # no footnote 5; the bullet counted
    m = make.map_text_numbers(n).set_index("number")
    assert (
        m.at["11,424", "mapped_to"] == "X1.rows_per_generator" and m.at["-15.6", "mapped_to"] == "X1.attrition_smollm"
    )


def test_a_doubled_digit_is_one_number_only_where_the_html_doubles_it() -> None:
    text = "## Abstract\n\na narrow 77–82% band; a drop ≈55–77pp; 99of2121 disagreements\n"
    assert list(make.text_numbers(text)["number"]) == ["77", "82", "5", "7", "9", "21"]


def _perturbed_paper(tmp: Path) -> Path:
    """Return a copy of data/paper in which every value transcribed from prose alone is changed
    (a different shift per row, so orders change too); tables and figures of the draft are kept."""
    shutil.copytree(paper.PAPER_DIR, tmp / "paper")
    for p in (tmp / "paper").glob("*.csv"):
        df = pd.read_csv(p, dtype=str, keep_default_na=False)
        if p.name == "claims.csv" or "value" not in df.columns:
            continue
        prose = ~df["source"].map(verify.independent_source)
        v = pd.to_numeric(df.loc[prose, "value"])
        shift = 0.37 * v.abs().clip(lower=1) * (1 + pd.Series(range(len(v)), index=v.index) % 3)
        df.loc[prose, "value"] = (v + shift).round(4).astype(str)
        df.to_csv(p, index=False)
    return tmp / "paper"


@pytest.fixture(scope="module")
def echoed(tmp_path_factory) -> set[str]:
    """Return the claims whose verdict on the paper's numbers moves when the prose-only values move."""
    base = verify.paper_claim_verdicts()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(paper, "PAPER_DIR", _perturbed_paper(tmp_path_factory.mktemp("perturbed")))
        moved = verify.paper_claim_verdicts()
    key = ["claim_id", "checked on"]
    a = base.drop_duplicates(key).set_index(key)[["reproduced value", "holds"]]
    b = moved.drop_duplicates(key).set_index(key)[["reproduced value", "holds"]].reindex(a.index)
    return set(a.index[(a != b).any(axis=1)].get_level_values("claim_id"))


def test_the_echo_detector_sees_echoes(echoed) -> None:
    assert {"T22.all_positive", "P.null_tuples", "T23.own_all"} <= echoed  # T22, T23 and App. D's nulls are prose
    assert not {"X1.rows_per_generator", "P.rows", "X1.pair_agreement_max"} & echoed  # T07, T09, T03 are tables


def test_self_referential_claims_are_exactly_the_echoes(echoed) -> None:
    assert set(verify.SELF_REFERENTIAL) == echoed, (
        f"not declared: {sorted(echoed - set(verify.SELF_REFERENTIAL))}; "
        f"not echoes: {sorted(set(verify.SELF_REFERENTIAL) - echoed)}"
    )


def test_no_consistent_number_is_an_echo(census, echoed) -> None:
    """A number counted consistent is checked against an independent source: its claim's verdict does not
    move with the text's own values, or a draft table or figure prints it."""
    ok = census[census["status"] == "consistent"]
    claims = ok[ok["how"].str.startswith("claim")]
    assert not set(claims["mapped_to"]) & echoed, sorted(set(claims["mapped_to"]) & echoed)
    for r in ok[ok["how"].str.startswith("table cell")].itertuples():
        rep = paper.reported(r.mapped_to)
        hit = rep[
            rep["printed"].map(lambda s: str(s).lstrip("+-").replace(",", ""))
            == r.number.lstrip("+-−").replace(",", "")
        ]
        assert hit["source"].map(verify.independent_source).any(), (r.section, r.number, r.mapped_to)


def test_an_echoed_row_is_never_consistent(census) -> None:
    """T22's deltas exist only in the text: the text's 20.7 mapped to its cell is self-referential."""
    echo = pd.DataFrame(
        [{"section": "Appendix N", "number": "20.7", "how": "table cell (cited)", "mapped_to": "T22"}]
        + [{"section": "Appendix N", "number": "4", "how": "claim (its section)", "mapped_to": "T22.all_positive"}]
    )
    got = verify.text_census(verify.paper_claim_verdicts(), echo)
    assert list(got["status"]) == ["self-referential", "self-referential"]
    real = census[(census["mapped_to"] == "T22") & (census["number"] == "20.7")]
    assert len(real) and (real["status"] == "self-referential").all()


def test_a_claim_with_independent_draft_cells_is_consistent(census) -> None:
    """P.temperature_spread (T25's cells, draft tab:app-abl-temp) and T01.gemini_cgt_vs_gt (T01's cells,
    draft tab:c3-full) are computed from the draft's table cells, not the text's own maximum."""
    rows = census[census["mapped_to"].isin(["P.temperature_spread", "T01.gemini_cgt_vs_gt"])]
    assert len(rows) >= 2 and (rows["status"] == "consistent").all(), rows[["section", "number", "status"]]


def test_every_number_has_a_class_and_every_data_number_a_check(census) -> None:
    """The census by rule: every number of the v1 text gets a class; every data number is mapped to the
    claim or table it speaks of (across sections) and checked by its kind; none is left unmapped."""
    from ajb_verify import census_rule

    assert set(census["class"]) <= set(census_rule.NUMBER_CLASSES) and (census["class"] != "").all()
    data = census[census["class"] == "data"]
    assert (data["check kind"].isin(census_rule.CHECK_KINDS)).all()
    assert (data["status"] != "unmapped").all(), data.loc[data["status"] == "unmapped", ["section", "number"]]
    counts = verify.census_counts(census).set_index("section")
    assert counts.loc["total", "unmapped data"] == 0
    assert "(0 unmapped data numbers)" in scorecard.census_line(verify.census_counts(census))
    rule = verify.census_rule_counts(census).set_index("rule")
    assert rule.loc[[r for r in rule.index if r.startswith("class")], "numbers"].sum() == len(census)

    # the examples, each mapped and checked by its kind
    def at(section: str, number: str, col: str) -> set[str]:
        return set(census.loc[(census["section"] == section) & (census["number"] == number), col])

    assert "check (range/bound)" in at("Appendix C", "5", "how")  # '2-5' GT calls (T08)
    assert at("Appendix P", "0.6", "mapped_to") == {"T25"}  # 'at most 0.6 pp'
    assert at("Appendix S", "10", "mapped_to") == {"T28.easiest_hardest_gap"}  # 'roughly 10 pp'
    assert "order/extreme" in at("Appendix G", "1", "check kind")  # '1st'
    assert at("Limitations", "0.008", "mapped_to") == {"T23.seq_other_max"}  # across sections


def test_a_wrong_number_in_a_checked_sentence_is_inconsistent() -> None:
    """A planted wrong number where the census checks a data number by its kind ('2-6' GT calls, T08
    prints 2-5) reads inconsistent; the right one consistent."""
    own = verify.paper_claim_verdicts()
    row = verify.paper_census().query("section == 'Appendix C' and line == '250' and number == '5'")
    assert list(verify.text_census(own, row)["status"]) == ["consistent"]
    wrong = row.assign(context=row["context"].str.replace("2-5", "2-6"), number="6")
    check = pd.read_csv(verify.census_rule.CHECKS_FILE, dtype=str, keep_default_na=False)
    check = check.query("section == 'Appendix C' and number == '5'").assign(number="6")
    got = verify.census_rule.data_checks(verify.census_rule.classify(wrong), check)
    assert got["table value"].iloc[0].startswith("hi ") and not got["holds"].iloc[0]
