"""Tables for notebook 04 per-metric and per-topology (T24, T28, C-W) and 11's T14."""

from __future__ import annotations
