"""The judge README's budget table: budget, billed and booked tokens for each way a run can spend.

Each case (ajb_judge/tests/budget_cases.py: a run, a run resumed twice, batch export / import, a
batch file run twice, and each --extra-body case) runs against its own counting loopback server
(ajb_judge/tests/fake_openai_server.py), which bills every answer it generates, including those
the client stopped waiting for. Prints the markdown table the README shows.

    python benchmarks/budget_table.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "ajb_judge" / "tests"))


def main() -> None:
    """Run every case and print the table."""
    import budget_cases

    with tempfile.TemporaryDirectory() as tmp:
        rows = budget_cases.table(Path(tmp))
    print(budget_cases.markdown(rows))


if __name__ == "__main__":
    main()
