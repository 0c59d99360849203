"""Fencing tokens: a settlement under a lease that was lost is refused, and nothing of it
stands (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from store_kit import balances, deal, dump, outcome, players

from qipai.errors import IllegalActionError
from qipai.store import Store
from qipai.store.fences import Fence


def test_a_newer_token_settles_and_an_older_one_is_refused(store: Store) -> None:
    ann, bob = players(store, 2)
    store.start_hands([deal(f"h{n}", (ann, bob, None)) for n in range(3)])
    assert store.fence_token("table:1") is None
    assert store.settle_hand(outcome("h0", (2, -1, -1)), fence=Fence("table:1", 5))
    assert store.fence_token("table:1") == 5
    assert store.settle_hand(outcome("h1", (2, -1, -1)), fence=Fence("table:1", 5))  # same lease
    before = dump(store)
    with pytest.raises(IllegalActionError) as caught:
        store.settle_hand(outcome("h2", (-2, 1, 1)), fence=Fence("table:1", 4))  # lost lease
    assert caught.value.code == "stale_lease"
    assert dump(store) == before  # nothing of the refused settlement stands
    assert store.settle_hand(outcome("h2", (-2, 1, 1)), fence=Fence("table:1", 7))
    assert store.fence_token("table:1") == 7


def test_fences_of_different_resources_do_not_meet(store: Store) -> None:
    ann, bob = players(store, 2)
    store.start_hands([deal("a", (ann, None, None)), deal("b", (bob, None, None))])
    assert store.settle_hand(outcome("a", (2, -1, -1)), fence=Fence("table:1", 9))
    assert store.settle_hand(outcome("b", (2, -1, -1)), fence=Fence("table:2", 1))
    assert (store.fence_token("table:1"), store.fence_token("table:2")) == (9, 1)
    assert balances(store)  # both settled


def test_a_refused_batch_writes_nothing(store: Store) -> None:
    ann, bob = players(store, 2)
    store.start_hands([deal(f"h{n}", (ann, bob, None)) for n in range(2)])
    store.settle_hand(outcome("h0", (2, -1, -1)), fence=Fence("match:r1", 3))
    before = dump(store)
    with pytest.raises(IllegalActionError):
        store.settle_hands([outcome("h1", (2, -1, -1))], fence=Fence("match:r1", 2))
    assert dump(store) == before
