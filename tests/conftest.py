"""Test-wide settings: Hypothesis runs derandomized, so every run draws the same cases; the
markers ``browser``, ``postgres`` and ``slow`` are put on the tests by where they are and
what they use, so that ``./test -m "not browser and not slow"`` is a quick loop."""

from __future__ import annotations

import json
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
DURATIONS = json.loads((ROOT / "tests" / "durations.json").read_text(encoding="utf-8"))
"""Seconds per test file in a recent parallel run (``benchmarks/suite_order.py`` writes it)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests (before ``-m`` selects by marker); order them by their file's recorded
    seconds, the longest first: a parallel run (``--dist loadfile --no-loadscope-reorder``,
    ``.ci/run``) gives its workers the files in this order, so that no long file is left
    to start last and end the run alone.  A file keeps its tests' order; files not measured
    yet (and the doctests) come after."""
    paths = {item.nodeid: _path(item) for item in items}
    for item in items:
        _mark(item, paths[item.nodeid])
    items.sort(key=lambda item: -DURATIONS.get(paths[item.nodeid], 0))


def _mark(item: pytest.Item, path: str) -> None:
    """Mark a test ``browser``, ``postgres`` and ``slow`` by its file (``path``) and
    parameters."""
    if path.startswith("tests/web/"):
        item.add_marker(pytest.mark.browser)
    if "postgres" in item.nodeid.lower():
        item.add_marker(pytest.mark.postgres)
    if path.startswith(SLOW):
        item.add_marker(pytest.mark.slow)


def _path(item: pytest.Item) -> str:
    """The test's file, relative to the repository (``""`` where it has none)."""
    return item.path.resolve().relative_to(ROOT).as_posix() if item.path else ""
