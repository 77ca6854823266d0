"""The "Against the paper" section's brief form (verify.audit_comparison / audit_checks)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

import ajb_verify as verify


def _cmp() -> pd.DataFrame:
    rep = pd.DataFrame({"k": ["a", "b", "c"], "value": [1.0, 2.0, 3.0]})
    rep_ = pd.DataFrame({"k": ["a", "b", "d"], "value": [1.0, 2.5, 4.0]})
    return verify.compare(rep, rep_, on=["k"])


def test_brief_comparison_is_one_line_and_still_writes_the_table(tmp_path: Path, capsys) -> None:
    verify.audit_comparison(_cmp(), "TX", tmp_path, brief=True)
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("TX: 1 of 2 values within tolerance (2 on one side only)")
    assert "SCORECARD.md" in out[0]
    written = pd.read_csv(tmp_path / "TX_compare.csv")
    assert len(written) == 4 and {"reported", "reproduced", "difference", "tolerance", "within"} <= set(written.columns)


def test_full_comparison_when_not_brief(tmp_path: Path, capsys) -> None:
    verify.audit_comparison(_cmp(), "TX", tmp_path, brief=False)
    assert "values compared" in capsys.readouterr().out  # show_comparison's own header


def test_brief_checks_count_the_verdicts(tmp_path: Path, capsys) -> None:
    table = pd.DataFrame({"claim_id": ["x", "y", "z"], "holds": ["yes", "no", "no"]})
    verify.audit_checks(table, "TX", tmp_path, brief=True)
    line = capsys.readouterr().out.strip()
    assert line.startswith("TX: 3 claims checked (1 yes, 2 no)")
    assert (tmp_path / "TX_checks.csv").exists()


def test_checks_written_elsewhere_are_not_written_twice(tmp_path: Path, capsys) -> None:
    """The scorecard reads every *checks.csv: a table the notebook wrote under another name is only counted."""
    table = pd.DataFrame({"claim_id": ["x"], "holds": ["yes"]})
    verify.audit_checks(table, "TY", tmp_path, brief=True, write=False)
    assert list(tmp_path.iterdir()) == [] and "1 claims checked (1 yes)" in capsys.readouterr().out
