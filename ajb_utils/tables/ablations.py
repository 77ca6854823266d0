"""Tables for notebook 06-09 ablations (T04, T25, T27, T05, T26, T31)."""

from __future__ import annotations
