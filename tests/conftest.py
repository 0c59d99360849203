"""Test-wide settings: Hypothesis runs derandomized, so every run draws the same cases."""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("qipai", derandomize=True, deadline=None, database=None)
settings.load_profile("qipai")
