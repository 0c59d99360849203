"""Test-wide settings: Hypothesis runs derandomized, so every run draws the same cases; the
markers ``browser``, ``postgres`` and ``slow`` are put on the tests by where they are and
what they use, so that ``./test -m "not browser and not slow"`` is a quick loop."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("qipai", derandomize=True, deadline=None, database=None)
settings.load_profile("qipai")


SLOW = (
    "tests/web/",
    "tests/server/test_server_crash.py",
    "tests/server/test_server_limits.py",
    "tests/server/test_server_http_properties.py",
    "tests/server/test_server_ws_properties.py",
    "tests/server/test_server_postgres.py",
    "tests/server/test_server_cluster.py",
    "tests/server/test_server_nodes.py",
    "tests/server/test_server_partition.py",
    "tests/server/test_server_proxy.py",
    "tests/server/test_server_three_nodes.py",
    "tests/server/test_server_match_crash.py",
    "tests/server/test_server_match_takeover.py",
    "tests/server/test_server_redis_down.py",
    "tests/bots/test_strong.py",
    "tests/server/test_shuffle_uniform.py",
    "tests/store/test_store_crash.py",
    "tests/doudizhu/test_random_play.py",
    "tests/doudizhu/test_reference_douzero.py",
    "tests/doudizhu/test_reference_rlcard.py",
)
"""Where the tests that take seconds live (measured with ``--durations``)."""
ROOT = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test ``browser``, ``postgres`` and ``slow`` by its file and parameters."""
    for item in items:
        path = item.path.resolve().relative_to(ROOT).as_posix() if item.path else ""
        if path.startswith("tests/web/"):
            item.add_marker(pytest.mark.browser)
        if "postgres" in item.nodeid.lower():
            item.add_marker(pytest.mark.postgres)
        if path.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
