"""Tables for notebook 01 dataset statistics (T07, T08, T09, T18, T21)."""

from __future__ import annotations
