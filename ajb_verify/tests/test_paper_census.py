"""The census of the paper's text: every number of the v1 text mapped to what it rests on, or listed unmapped."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import ajb_verify as verify
from ajb_verify import scorecard

V1_TEXT = Path("/work/shared/seeds/000_9389826775120f45.txt")  # the arXiv v1 HTML as Markdown (not shipped)

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
    n = verify.text_numbers(SNIPPET)
    assert list(n["number"]) == ["30", "1.5", "77", "82"]
    assert set(n["section"]) == {"§4.2"} and set(n["cites"]) == {"T02"}


def test_a_number_maps_to_the_claim_of_its_section() -> None:
    m = verify.map_text_numbers(verify.text_numbers(SNIPPET)).set_index("number")
    assert m.at["30", "mapped_to"] == "CF1.monotone_pairs"
    assert m.at["77", "mapped_to"] == m.at["82", "mapped_to"] == "CF1.hard_nogt_band"
    assert m.at["1.5", "mapped_to"] in ("CF1.slope_ratio", "F08.slope_every_generator")


def test_counts_add_up_per_section(census) -> None:
    c = verify.census_counts(census).set_index("section")
    assert (c["numbers"] == c["mapped"] + c["unmapped"]).all()
    assert (c["mapped"] == c["consistent"] + c["inconsistent"] + c["unchecked"]).all()
    assert (c.drop("total").sum() == c.loc["total"]).all()
    assert c.loc["total", "numbers"] == len(census) > 600


def test_each_inconsistent_number_names_both_sources(census) -> None:
    bad = census[census["status"] == "inconsistent"]
    assert len(bad) and set(bad["mapped_to"]) <= set(verify.PAPER_INCONSISTENCIES)
    assert (bad["table_value"].astype(str) != "").all()
    text = bad.assign(v=bad["number"].map(lambda s: float(s.replace(",", ""))))
    assert (text["v"] > 0).all()


def test_consistent_numbers_hold_on_the_papers_tables(census) -> None:
    own = verify.paper_claim_verdicts()
    ok = census[(census["status"] == "consistent") & census["how"].str.startswith("claim")]
    assert set(ok["mapped_to"]) <= set(own.loc[own["holds"] == "yes", "claim_id"])


@pytest.mark.skipif(not V1_TEXT.exists(), reason="the v1 text is not in this checkout")
def test_the_committed_census_is_what_the_functions_make_of_the_v1_text() -> None:
    made = verify.map_text_numbers(verify.text_numbers(V1_TEXT.read_text(encoding="utf-8")))
    pd.testing.assert_frame_equal(made.astype(str), verify.paper_census().astype(str), check_dtype=False)


def test_scorecard_reports_the_census(tmp_path, census) -> None:
    counts = verify.census_counts(census)
    assert scorecard.census_line(scorecard.read_census(tmp_path)) == ""
    counts.to_csv(tmp_path / scorecard.CENSUS_COUNTS_FILE, index=False)
    line = scorecard.census_line(scorecard.read_census(tmp_path))
    t = counts.set_index("section").loc["total"]
    assert f"{int(t['numbers'])} numbers" in line and f"{int(t['inconsistent'])} inconsistent" in line
    assert verify.claims() is not None
