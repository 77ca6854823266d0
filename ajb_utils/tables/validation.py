"""Tables for notebook 11 human validation (T12, T13) and 12 rewrite validation (T19, T20, T22)."""

from __future__ import annotations
