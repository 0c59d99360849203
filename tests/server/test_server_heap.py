"""The hall's start-up heap frozen out of the garbage collector's passes (``qipai serve``),
and what is made after still collected."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_kit import fast_config, running_hall

from qipai.games.doudizhu.moves import tables
from qipai.server.run.heap import freeze_start_up_heap


class _Node:
    """An object that can sit in a reference cycle and be watched by a weak reference."""

    other: object = None


@pytest.fixture
def unfrozen() -> Iterator[None]:
    """Start and end with nothing frozen (a test must not leave the process's heap frozen)."""
    gc.unfreeze()
    yield
    gc.unfreeze()


def _cycle() -> weakref.ref[_Node]:
    node = _Node()
    node.other = node
    return weakref.ref(node)


def test_the_start_up_heap_is_frozen_its_garbage_collected_first(unfrozen: None) -> None:
    tables()
    before = _cycle()  # garbage already when the heap is frozen: collected, not kept
    frozen = freeze_start_up_heap()
    # the move tables among them (not compared with gc.get_freeze_count() afterwards: in a
    # parallel run's worker, a hall an earlier module left running frees or freezes its own)
    assert frozen > 100_000
    assert before() is None
    after = _cycle()  # garbage made later is collected as before
    assert after() is not None
    gc.collect()
    assert after() is None


@pytest.mark.parametrize("freeze", [True, False])
def test_a_started_hall_freezes_its_heap_when_configured(
    unfrozen: None, tmp_path: Path, freeze: bool
) -> None:
    config = fast_config(f"sqlite:///{tmp_path / 'hall.db'}", freeze_heap=freeze)
    with running_hall(config):
        assert (gc.get_freeze_count() > 0) is freeze
