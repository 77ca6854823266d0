"""Tables for notebook 15-17 new judge, derivation gap, simulator (X2, X3, X4, static judge)."""

from __future__ import annotations
