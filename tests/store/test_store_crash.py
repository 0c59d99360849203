"""Crash injection: a settlement cut at every step, by an exception or by SIGKILL.

Either way the database holds the settlement entirely or not at all, and recovering as the
server does (void the hands still in play, retry) leaves exactly one outcome per hand and
a clean audit.
"""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Callable

import pytest
from sqlalchemy import select
from store_crash_child import H1, H2
from store_kit import NOW, STEPS, CrashError, crash_at, crash_child, deal, dump, outcome, players

from qipai.errors import IllegalActionError
from qipai.store import Store
from qipai.store.audit import audit
from qipai.store.schema import transactions

GRANT = 1000


def test_the_hook_sees_every_step_in_order(store: Store) -> None:
    ann, bob = players(store, 2)
    store.start_hand(deal("h1", [ann, bob]))
    seen: list[str] = []
    assert store.settle_hand(outcome("h1", [5, -5]), fault=crash_at("none", seen))
    assert tuple(seen) == STEPS


def test_a_fault_at_any_step_changes_nothing_and_a_retry_settles_once(store: Store) -> None:
    ann, bob = players(store, 2)
    for step in STEPS:
        one, two = f"{step}-1", f"{step}-2"
        store.start_hands([deal(one, [ann, bob, None]), deal(two, [bob, None], minute=1)])
        batch = [outcome(one, [50, -40, -10], rake=[0, 0, 0]), outcome(two, [7, -7])]
        before = dump(store)
        with pytest.raises(CrashError, match=step):
            store.settle_hand(batch[0], fault=crash_at(step))
        assert dump(store) == before, step
        with pytest.raises(CrashError, match=step):
            store.settle_hands(batch, fault=crash_at(step))
        assert dump(store) == before, step
        assert store.settle_hands(batch) == [True, True]
        assert store.settle_hands(batch) == [False, False]
    assert audit(store) == []
    assert store.balance(ann) == 1_000_000 + 50 * len(STEPS)


def child(url: str, step: str) -> subprocess.Popen[str]:
    """Start the child that dies at ``step``."""
    return crash_child("store_crash_child.py", url, step)


def test_sigkill_at_any_step_recovers_to_one_outcome_per_hand(
    new_database: Callable[[], str],
) -> None:
    urls = {step: new_database() for step in (*STEPS, "after")}
    for url in urls.values():
        with Store.open(url) as store:
            ann, bob = players(store, 2, grant=GRANT)
            store.start_hands([deal(f"h{n}", [ann, bob, None], minute=n) for n in range(1, 5)])
    children = {step: child(url, step) for step, url in urls.items()}  # all at once: faster
    for step, process in children.items():
        out, err = process.communicate(timeout=60)
        assert process.returncode == -signal.SIGKILL, (step, out, err)
        assert out == "settled h1\n", (step, err)
    for step, url in urls.items():
        _recover_and_check(url, committed=step == "after")


def _recover_and_check(url: str, *, committed: bool) -> None:
    """Restart as the server does, then check the outcome of every hand and the coins."""
    with Store.open(url) as store:
        voided = store.void_interrupted(NOW)
        assert voided == (["h3", "h4"] if committed else ["h2", "h3", "h4"])
        if committed:
            assert store.settle_hand(H2) is False
        else:
            with pytest.raises(IllegalActionError, match="hand_voided"):
                store.settle_hand(H2)
        with store.read() as connection:
            keys = sorted(connection.execute(select(transactions.c.key)).scalars())
        outcomes = ["settle:h1", "settle:h2" if committed else "void:h2", "void:h3", "void:h4"]
        assert keys == sorted([*outcomes, "grant:signup:1", "grant:signup:2"])
        ann, bob = store.profile(1), store.profile(2)
        expected = [GRANT + H1.net[0], GRANT + H1.net[1]]
        if committed:
            expected = [expected[0] + H2.net[0], expected[1] + H2.net[1]]
        assert [ann.coins, bob.coins] == expected
        assert audit(store) == []
