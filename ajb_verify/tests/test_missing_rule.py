"""The authors' missing-verdict rule against the authors' script (issue 48; docs/DECISIONS.md).

The authors' analysis script averages each judge row's stored ``overall_alignment_pct`` per
(judge, generator, difficulty, condition), drops a null one, and counts every row it reads. The
package recomputes each record's mu from its per-metric verdicts (Eq. 4) under the same rule
(`stats.PAPER_MISSING`). On the sample the two agree on 207 of 210 Table 2 cells; the three others
are the two rows where the package decides otherwise, each tested here:
- a judge row duplicated in the release: counted once (the script counts it twice);
- a verdict off the scale (llm_score 4.0, a null match) under a stored overall of 100: the verdict
  is excluded and counts as a miss inside its verdict, as a null metric does (the script reads 100).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from ajb_utils import paths, schema, tables
from ajb_utils.data import load_bench, rules

KEYS = ["judge", "generator", "difficulty", "condition"]
SAMPLE = paths.DATA_DIR / "sample" / "data"


def _judge_rows(data_dir: Path) -> pd.DataFrame:
    """Return one row per (judge row, condition) of a release's judge files: keys, id, the stored
    overall, and the overall recomputed from the per-metric matches (a null match a miss)."""
    rows = []
    for p in sorted(data_dir.glob("judge_*.jsonl")):
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines()):
            r = json.loads(line)
            for c in schema.MAIN_CONDITIONS:
                b = r.get(c) or {}
                matches = [(b.get(m) or {}).get("match_score") for m in schema.METRICS]
                recomputed = 100.0 * sum(x or 0.0 for x in matches) / len(schema.METRICS)
                gen = r["generator"].replace("gpt_5_4", "gpt5_4")  # the release's spelling, the loader's name
                rows.append((p.stem, gen, r["difficulty"], c, r["id"], i, b.get("overall_alignment_pct"), recomputed))
    cols = [*KEYS, "id", "line", "overall", "recomputed"]
    return pd.DataFrame(rows, columns=cols).dropna(subset=["overall"])


def _script(rows: pd.DataFrame, column: str = "overall") -> pd.Series:
    """Return the authors' script's cells: the mean of a column over every row it reads."""
    return rows.groupby(KEYS)[column].mean()


@pytest.fixture(scope="module")
def sample() -> tuple[pd.Series, pd.DataFrame, pd.DataFrame]:
    b = load_bench("sample", calls=False)
    t = tables.table_T02(b).astype({k: str for k in KEYS}).set_index(KEYS)["align"]
    return t, _judge_rows(SAMPLE), b.exclusions


def _cells_of(exclusions: pd.DataFrame, reason: str) -> set[tuple[str, ...]]:
    """Return the Table 2 cells a loader exclusion reason touches (both conditions when it names none)."""
    ex = exclusions[exclusions["reason"] == reason]
    out = set()
    for r in ex.itertuples():
        conds = [r.condition] if isinstance(r.condition, str) and r.condition else list(schema.MAIN_CONDITIONS)
        out |= {(r.judge or r.config, r.generator, r.difficulty, c) for c in conds}
    return out


def test_the_authors_rule_and_the_authors_script_differ_on_the_two_decided_rows_only(sample) -> None:
    pkg, rows, ex = sample
    script = _script(rows)
    both = pd.concat([pkg.rename("pkg"), script.rename("script")], axis=1, join="inner")
    assert len(both) == len(pkg) == 210
    differ = set(both.index[(both["pkg"] - both["script"]).abs() > 1e-3])
    assert len(differ) == 3  # 207 of 210 cells agree
    assert differ == _cells_of(ex, rules.DUPLICATE_JUDGE) | _cells_of(ex, rules.OUT_OF_RANGE)


def test_a_duplicated_judge_row_counts_once(sample) -> None:
    """The script with the duplicate read once gives the package's cells (both conditions)."""
    pkg, rows, ex = sample
    once = rows.drop_duplicates(subset=[*KEYS, "id"], keep="first")
    assert len(once) < len(rows)
    cells = _cells_of(ex, rules.DUPLICATE_JUDGE)
    assert len(cells) == 2
    for cell in cells:
        assert pkg[cell] == pytest.approx(_script(once)[cell], abs=1e-3)


def test_a_verdict_off_the_scale_is_a_miss_not_the_stored_overall(sample) -> None:
    """The record's stored overall (100) disagrees with its verdicts (a 4.0 matches nothing): the package
    recomputes it from the per-metric matches, the off-scale verdict a miss."""
    pkg, rows, ex = sample
    cells = _cells_of(ex, rules.OUT_OF_RANGE)
    assert len(cells) == 1
    cell = next(iter(cells))
    bad = rows.set_index(KEYS).loc[cell]
    odd = bad[(bad["overall"] - bad["recomputed"]).abs() > 1e-6]
    assert len(odd) == 1 and odd["overall"].iloc[0] == 100.0 and odd["recomputed"].iloc[0] == 75.0
    fixed = rows.drop_duplicates(subset=[*KEYS, "id"], keep="first")
    fixed = fixed.assign(
        overall=fixed["overall"].where((fixed["overall"] - fixed["recomputed"]).abs() < 1e-6, fixed["recomputed"])
    )
    assert pkg[cell] == pytest.approx(_script(fixed)[cell], abs=1e-3)
    assert pkg[cell] != pytest.approx(_script(rows)[cell], abs=1e-3)
