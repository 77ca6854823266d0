"""The loader's result and its errors: `Bench` (tidy frames plus provenance) and the data errors."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd


class BenchDataError(ValueError):
    """A data problem the loader cannot work around (missing column, unknown source)."""


class IncompleteDataError(BenchDataError):
    """A file or config shorter than it should be: cut inside a line, or fewer rows than declared."""


class HubUnavailable(BenchDataError):
    """The hub, the repo or the revision cannot be reached; `reason` says which, in one line."""

    def __init__(self, reason: str, hint: str) -> None:
        super().__init__(f"{reason}. {hint}")
        self.reason = reason


@dataclass
class Bench:
    """The benchmark as tidy frames (docs/DATA_FORMAT.md §4) plus provenance."""

    records: pd.DataFrame
    generations: pd.DataFrame
    verdicts: pd.DataFrame
    exclusions: pd.DataFrame
    judges: pd.DataFrame
    source: str
    revision: str | None
    label: str
    synthetic: bool
    messages: list[str] = field(default_factory=list)

    def has_runs(self, study: str) -> bool:
        """Return True when the bench holds judge runs of `study` (c2, c3, temperature, thinking, format);
        the release holds none, the sample holds its synthetic ones."""
        return bool(((self.judges["origin"] != "release") & (self.judges["study"] == study)).any())

    def provenance(self) -> str:
        """Return a one-line description of where the data came from."""
        kind = "SYNTHETIC sample" if self.synthetic else "data"
        return f"{kind} from {self.source} (revision {self.revision or 'unpinned'})"

    def exclusion_summary(self) -> pd.DataFrame:
        """Return exclusion counts by config and reason."""
        return self.exclusions.groupby(["config", "reason"], observed=True).size().rename("n").reset_index()
