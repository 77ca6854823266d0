"""Tables for notebook 13 self-preference (T23) and 14 decision guide and consistency audit (T06, X1)."""

from __future__ import annotations
