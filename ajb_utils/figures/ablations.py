"""Figures for notebooks 06-12 ablations and validation (F04, F05, ...)."""

from __future__ import annotations
