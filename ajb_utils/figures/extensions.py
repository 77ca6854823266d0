"""Figures for notebooks 15-17 new judge, derivation gap, simulator (X2, X3, X4, X5)."""

from __future__ import annotations
