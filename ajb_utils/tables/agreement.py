"""Tables for notebook 05 inter-judge agreement (T03, F10 data, T29, C-J)."""

from __future__ import annotations
