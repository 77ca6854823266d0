"""Figures for notebooks 04-05, 13-14 per-metric, topology, agreement (F03, F09, F10)."""

from __future__ import annotations
