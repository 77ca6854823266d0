"""Tables for notebook 10 anchoring (T01, GT lift, App. H mining)."""

from __future__ import annotations
