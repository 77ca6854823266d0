"""Figures for notebooks 01-03 dataset statistics, degradation (F06, F07, F08)."""

from __future__ import annotations
