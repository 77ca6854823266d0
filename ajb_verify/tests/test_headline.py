"""The scorecard's headline separates the paper from the reproduction (issue 48).

Fed the paper's own numbers as a perfect reproduction (`own_numbers`: every claim computed from the
paper's tables, every comparison path with the value the paper's other tables give), the headline
reads "0 not reproduced" for values and for claims: what fails is the paper disagreeing with itself,
each such row beside its X1 audit row, or counted once (T11's two readings of p-bar).
"""

from __future__ import annotations

import json
from pathlib import Path

import hypothesis.strategies as st
import matplotlib
import pandas as pd
import pytest
from hypothesis import given, settings

import ajb_verify as verify
from ajb_utils import paper
from ajb_verify import headline, scorecard

matplotlib.use("Agg")

DISAGREEING_CLAIMS = {
    "CF1.hard_nogt_band",
    "CF1.band_generators",
    "CF3.frontier_lead_without_gt",
    "P.success_rate",
    "T10.ci_half_width",
    "T06.oss120b_tops_programmatic",
}


def _audit_all() -> pd.DataFrame:
    """Return the X1 audit notebook 18 writes (the paper's tables checked against each other)."""
    return pd.concat(
        [
            verify.audit_table2(paper.reported("T02"), paper.reported("T06")),
            verify.audit_cross_tables(),
            verify.audit_text_table(),
        ],
        ignore_index=True,
    )


def _write_perfect(out: Path, shift: dict[str, float] | None = None) -> None:
    """Write an output folder as a perfect reproduction of the paper would: the paper's own numbers
    as the reproduced side of every comparison and claim; T11 under both readings of p-bar (the
    topology reading of a perfect reproduction gives other numbers than the records reading)."""
    out.mkdir(parents=True)
    (out / "PROVENANCE.json").write_text(json.dumps({"synthetic": False}), encoding="utf-8")
    comps = verify.perfect_reproduction_comparisons()
    t11 = comps["T11"]
    comps["T11-topology"] = verify.side_by_side(
        verify.compare(
            t11[["generator", "difficulty"]].assign(value=t11["reproduced"] + 0.4),
            paper.reported("T11").query("stat == 'programmatic_accuracy'"),
            on=["generator", "difficulty"],
        )
    )
    for art, sbs in comps.items():
        sbs = sbs.copy()
        for key, d in (shift or {}).items():  # a reproduction that misses one value
            if key == art:
                sbs.loc[sbs.index[0], "reproduced"] += d
                sbs.loc[sbs.index[0], "difference"] += d
                sbs.loc[sbs.index[0], "within"] = "no"
        sbs.to_csv(out / f"{art}_compare.csv", index=False)
    own = verify.paper_claim_verdicts()
    data = own[~own["claim_id"].str.startswith("X1")].drop_duplicates("claim_id")
    data.drop(columns="checked on").to_csv(out / "C-F_findings_checks.csv", index=False)
    _audit_all().to_csv(out / "X1-all_checks.csv", index=False)


@pytest.fixture(scope="module")
def perfect(tmp_path_factory) -> tuple[Path, pd.DataFrame]:
    out = tmp_path_factory.mktemp("own") / "hf"
    _write_perfect(out)
    return out, scorecard.write_scorecard(out, "hf")


def test_a_perfect_reproduction_reads_zero_not_reproduced_in_the_headline(perfect) -> None:
    out, card = perfect
    head = headline.headline(card)
    assert head.loc["values", "not reproduced"] == 0, card.attrs["values"].query("`class` == 'not reproduced'")
    assert head.loc["claims", "not reproduced"] == 0
    assert head.loc["values", "reproduced"] > 400 and head.loc["claims", "reproduced"] > 90
    text = scorecard.summary(card, "hf", False)
    lines = [ln for ln in text.splitlines() if ln.strip().startswith(("values:", "claims:"))]
    assert len(lines) == 2 and all(", 0 not reproduced," in ln for ln in lines), text
    assert text.index("values:") < text.index("artifacts:")  # the headline comes first


def test_the_papers_own_faults_land_beside_their_audit_rows(perfect) -> None:
    out, card = perfect
    claims = card[(card["row"] == "claim") & (card["class"] == headline.DISAGREES)]
    assert set(claims["id"]) == DISAGREEING_CLAIMS
    assert claims.set_index("id").loc["P.success_rate", "audit row"] == "X1.T09_success_rate"
    assert claims.set_index("id").loc["T10.ci_half_width", "audit row"] == "X1.ci_half_width"
    values = card.attrs["values"]
    bad = values[values["class"] == headline.DISAGREES]
    # T09's success rate (truncated), F10's header against T03, QwQ's T29 value against its T02 mean
    assert {"X1.T09_success_rate", "X1.F10_from_T03", "X1.T29_from_T02"} <= set(bad["audit row"])
    assert (bad.query("artifact == 'T29'")["key"].str.contains("judge_qwq_32b")).all()
    audit = _audit_all()
    for row in set(bad["audit row"]) | set(claims["audit row"]):
        assert (audit.loc[audit["claim_id"] == row, "holds"] == "no").any(), row
    md = (out / "SCORECARD.md").read_text(encoding="utf-8")
    section = md.split("## The paper disagrees with itself", 1)[1].split("\n## ", 1)[0]
    for cid in DISAGREEING_CLAIMS:  # each row and its audit row on one line of one table
        line = next(ln for ln in section.splitlines() if ln.startswith(f"| {cid} |"))
        assert headline.audit_row(cid) in line
    assert "X1.T09_success_rate" in section and "X1.T29_from_T02" in section


def test_two_readings_of_one_table_count_once(perfect) -> None:
    _, card = perfect
    values = card.attrs["values"]
    t11 = values[values["artifact"].str.startswith("T11")]
    assert set(t11.loc[t11["class"] == headline.OTHER_READING, "artifact"]) == {"T11-topology"}
    counted = t11[t11["class"] != headline.OTHER_READING]
    assert len(counted) == 15 and (counted["class"] == headline.REPRODUCED).all()


def test_a_missed_value_is_not_reproduced(tmp_path) -> None:
    """The headline can fail: one T02 value off (and a T09 value matching neither the paper's print
    nor its counts) reads 2 not reproduced."""
    out = tmp_path / "hf"
    _write_perfect(out, shift={"T02": 1.0, "T09": 3.0})
    card = scorecard.build(out)
    assert headline.headline(card).loc["values", "not reproduced"] == 2


# ---- the class of one value: the space of reproduced values around a registered row -----------
@settings(max_examples=200, deadline=None)
@given(x=st.floats(80.0, 110.0, allow_nan=False))
def test_a_registered_value_is_the_papers_fault_only_where_the_other_table_agrees(x: float) -> None:
    """T09's overall success rate: printed 93.8, its counts give 53,608 / 57,120 = 93.852. A value
    within the print is reproduced; outside it but at the counts' value, the paper disagrees with
    itself; elsewhere it is not reproduced."""
    rep = paper.reported("T09").query("stat == 'success_rate' and generator.isna()")
    sbs = verify.side_by_side(
        verify.compare(
            rep[["generator", "difficulty", "stat"]].assign(value=x), rep, on=["generator", "difficulty", "stat"]
        )
    )
    got = headline.value_classes({"T09": sbs})
    counts = 100 * 53608 / 57120
    want = (
        headline.REPRODUCED
        if abs(x - 93.8) <= 0.05 + 1e-9
        else headline.DISAGREES
        if abs(x - counts) <= 0.05 + 1e-9
        else headline.NOT_REPRODUCED
    )
    assert list(got["class"]) == [want], (x, got)
