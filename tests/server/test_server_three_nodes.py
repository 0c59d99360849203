"""Three hall processes as one hall, on real PostgreSQL and Redis, one killed with SIGKILL
while ``qipai loadtest`` plays over the three URLs: every client resumes, no error, coins
as the results say, ``qipai audit`` clean, nothing settled twice (``kill_kit.py`` checks
it all; ``benchmarks/cluster_kill.py`` runs it many times)."""

from __future__ import annotations

from pathlib import Path

import pytest
from kill_kit import CLIENTS, three_nodes_play_on_when_one_is_killed

pytestmark = pytest.mark.postgres


def test_three_nodes_play_on_when_one_is_killed(tmp_path: Path) -> None:
    summary = three_nodes_play_on_when_one_is_killed(tmp_path)
    assert summary["resumed"] == summary["reconnects"] >= CLIENTS // 3
