"""Fencing tokens: a settlement under a lease that was lost is refused, and nothing of it
stands (SQLite and PostgreSQL)."""

from __future__ import annotations

import dataclasses

import pytest
from store_kit import GRANT, deal, dump, outcome, players

from qipai.errors import IllegalActionError
from qipai.store import Fence, HandSettlement, Store


def fenced(hand: HandSettlement, fence: Fence) -> HandSettlement:
    """``hand`` settled under the lease ``fence``."""
    return dataclasses.replace(hand, fence=fence)


def test_a_newer_token_settles_and_an_older_one_is_refused(store: Store) -> None:
    ann, bob = players(store, 2)
    store.start_hands([deal(f"h{n}", (ann, bob, None)) for n in range(3)])
    assert store.fence_token("table:1") is None
    assert store.settle_hand(fenced(outcome("h0", (2, -1, -1)), Fence("table:1", 5)))
    assert store.fence_token("table:1") == 5
    assert store.settle_hand(fenced(outcome("h1", (2, -1, -1)), Fence("table:1", 5)))  # same lease
    before = dump(store)
    with pytest.raises(IllegalActionError) as caught:
        store.settle_hand(fenced(outcome("h2", (-2, 1, 1)), Fence("table:1", 4)))  # lost lease
    assert caught.value.code == "stale_lease"
    assert dump(store) == before  # nothing of the refused settlement stands
    assert store.settle_hand(fenced(outcome("h2", (-2, 1, 1)), Fence("table:1", 7)))
    assert store.fence_token("table:1") == 7


def test_fences_of_different_resources_do_not_meet(store: Store) -> None:
    ann, bob = players(store, 2)
    store.start_hands([deal("a", (ann, None, None)), deal("b", (bob, None, None))])
    assert store.settle_hand(fenced(outcome("a", (2, -1, -1)), Fence("table:1", 9)))
    assert store.settle_hand(fenced(outcome("b", (2, -1, -1)), Fence("table:2", 1)))
    assert (store.fence_token("table:1"), store.fence_token("table:2")) == (9, 1)
    assert (store.balance(ann), store.balance(bob)) == (GRANT + 2, GRANT + 2)  # both settled


def test_a_refused_batch_writes_nothing(store: Store) -> None:
    ann, bob = players(store, 2)
    store.start_hands([deal(f"h{n}", (ann, bob, None)) for n in range(2)])
    store.settle_hand(fenced(outcome("h0", (2, -1, -1)), Fence("match:r1", 3)))
    before = dump(store)
    with pytest.raises(IllegalActionError):
        store.settle_hands([fenced(outcome("h1", (2, -1, -1)), Fence("match:r1", 2))])
    assert dump(store) == before
