"""Tables for notebook 02-03 programmatic judge and main results (EQ1-5, AppI, T15, T02, T10, T11, C-F)."""

from __future__ import annotations
