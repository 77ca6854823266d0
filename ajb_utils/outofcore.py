"""The route for data larger than memory: Table 2's cells by DuckDB straight from the build's Parquet.

DuckDB streams `verdicts.parquet` holding only per-record and per-cell sums (benchmarks/bench_scale.py measures it).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd

from ajb_utils import schema
from ajb_utils.cache import build_meta

# Table 2's judges and conditions only (their codes), Eq. 4b per record under the authors' rule
# (a null metric is a miss: its match counts 0 of the $m metrics; a record with no verdict in its
# condition is left out), then Eq. 5a per cell
T02_SQL = """
SELECT generator, judge, difficulty, condition, 100 * avg(s / $m) AS align, count(*) AS n
FROM (
    SELECT id, generator, judge, difficulty, condition, sum(CAST(match AS DOUBLE)) AS s
    FROM read_parquet($path)
    WHERE list_contains($judges, judge) AND list_contains($conditions, condition)
    GROUP BY ALL
    HAVING count(match) > 0
)
GROUP BY ALL
ORDER BY generator, judge, difficulty, condition
"""


def table2_cells(folder: Path, threads: int = 2) -> pd.DataFrame:
    """Return Table 2's cells (align %, n records; the authors' rule) by DuckDB from a build's verdicts.parquet."""
    path, meta = Path(folder) / "verdicts.parquet", build_meta(Path(folder))
    if meta is None or not path.is_file():
        raise FileNotFoundError(f"{path} is not a frame of a complete build: make one with ajb_utils.data.build_bench")
    names = meta["layouts"]["verdicts"]["categories"]  # the columns the build stores as category codes
    judges = [i for i, name in enumerate(names["judge"]) if name in schema.JUDGES]
    conditions = [i for i, name in enumerate(names["condition"]) if name in schema.MAIN_CONDITIONS]
    given = {"path": str(path), "m": len(schema.METRICS), "judges": judges, "conditions": conditions}
    with duckdb.connect(config={"threads": threads}) as con:
        cells = con.execute(T02_SQL, given).df()
    for col in [c for c in cells.columns if c in names]:
        cells[col] = pd.Categorical.from_codes(cells[col].to_numpy(), categories=names[col]).astype(str)
    return cells.astype({"n": "int64"})
