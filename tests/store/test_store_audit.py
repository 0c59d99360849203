"""The audit: clean on an honest ledger, and each planted discrepancy caught with its code."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest
from store_kit import (
    NOW,
    codes,
    deal,
    entry,
    execute,
    missed_tampering,
    moved,
    outcome,
    players,
    transaction,
)

from qipai.store import Store
from qipai.store.audit import Problem, audit, audit_main


@pytest.fixture
def ledger(store: Store) -> Store:
    """Two players; h1 settled (ann wins, a bot loses), h2 voided, h3 settled (bob wins)."""
    ann, bob = players(store, 2, grant=1000)
    store.start_hands([deal(f"h{n}", [ann, bob, None], minute=n) for n in (1, 2, 3)])
    store.settle_hand(outcome("h1", [38, -20, -20], rake=[2, 0, 0]))
    store.void_hand("h2", NOW)
    store.settle_hand(outcome("h3", [-10, 10, 0]))
    return store


TAMPERING = {
    "a balance edited": (
        [moved("user:1", 5)], {"balance_mismatch", "not_conserved"},
    ),
    "coins from nowhere": (
        [transaction("refund:x", "refund"), entry("refund:x", "user:1", 10, "refund"),
         moved("user:1", 10)],
        {"unbalanced", "not_conserved"},
    ),
    "a void that moves coins": (
        [entry("void:h2", "user:1", 5, "refund"), entry("void:h2", "system:bots", -5, "loss"),
         moved("user:1", 5), moved("system:bots", -5)],
        {"void_with_entries"},
    ),
    "a voided hand marked settled": (
        ["UPDATE hands SET status = 'settled' WHERE id = 'h2'"],
        {"missing_settlement", "status_mismatch", "stats_mismatch"},
    ),
    "a settled hand marked voided": (
        ["UPDATE hands SET status = 'voided' WHERE id = 'h3'"],
        {"missing_void", "status_mismatch", "stats_mismatch"},
    ),
    "a second settlement": (
        [transaction("settle:h1:again", "settle", "h1")], {"duplicate_settlement", "bad_key"},
    ),
    "a second void": (
        [transaction("void:h2:again", "void", "h2")], {"duplicate_void", "bad_key"},
    ),
    "settled and voided": (
        [transaction("void:h1", "void", "h1")], {"two_outcomes", "status_mismatch"},
    ),
    "a settlement under another hand's key": (
        ["UPDATE transactions SET key = 'settle:h9' WHERE key = 'settle:h3'"], {"bad_key"},
    ),
    "a seat's net edited": (
        ["UPDATE hand_seats SET net = net + 1 WHERE hand_id = 'h1' AND seat = 0"],
        {"seat_mismatch"},
    ),
    "a seat's entry moved to a bot": (
        ["UPDATE entries SET account_id = (SELECT id FROM accounts WHERE name = 'system:bots')"
         " WHERE amount = -20 AND seat = 1"],
        {"seat_mismatch", "balance_mismatch"},
    ),
    "a win added": (["UPDATE users SET wins = wins + 1 WHERE id = 1"], {"stats_mismatch"}),
    "a hand left playing": (
        ["UPDATE hands SET status = 'playing' WHERE id = 'h2'"],
        {"unfinished", "status_mismatch"},
    ),
}  # fmt: skip


def test_an_honest_ledger_is_clean(ledger: Store) -> None:
    assert audit(ledger) == []


def test_each_discrepancy_is_caught(ledger: Store) -> None:
    assert missed_tampering(ledger, TAMPERING) == {}
    assert audit(ledger) == []


def test_a_negative_user_balance_is_caught(ledger: Store) -> None:
    unchecked = (
        "PRAGMA ignore_check_constraints = ON"
        if ledger.dialect == "sqlite"
        else "ALTER TABLE accounts DROP CONSTRAINT ck_accounts_user_not_negative"
    )
    execute(
        ledger,
        unchecked,
        transaction("penalty:x", "penalty"),
        entry("penalty:x", "user:1", -2000, "loss"),
        entry("penalty:x", "system:bots", 2000, "loss"),
        moved("user:1", -2000),
        moved("system:bots", 2000),
    )
    problems = audit(ledger)
    assert codes(problems) == {"negative_balance"}
    assert str(problems[0]) == "negative_balance: account user:1 holds -972"


def test_the_database_refuses_a_negative_user_balance(ledger: Store) -> None:
    with pytest.raises(Exception, match=r"(?i)check"):
        execute(ledger, moved("user:1", -5000))
    assert audit(ledger) == []


def test_hands_in_play_are_unfinished_unless_allowed(ledger: Store) -> None:
    ledger.start_hand(deal("h4", [1, None]))
    problems = audit(ledger)
    assert problems == [Problem("unfinished", "hand h4 is still playing")]
    assert audit(ledger, allow_playing=True) == []


def test_audit_main_reports_ok(ledger: Store) -> None:
    out = io.StringIO()
    assert audit_main(ledger.url, out=out) == 0
    assert out.getvalue() == (
        "ok: 5 transactions, 3 hands (2 settled, 1 voided, 0 playing), 2 users, "
        "2018 coins held by players\n"
        "paid 2026-05-10 signup 2000\npaid 2026-05-10 total 2000\n"
    )


def test_audit_main_reports_each_discrepancy(ledger: Store) -> None:
    execute(ledger, moved("user:2", 7))
    ledger.start_hand(deal("h4", [1, None]))
    out = io.StringIO()
    assert audit_main(ledger.url, out=out) == 1
    assert out.getvalue().splitlines() == [
        "balance_mismatch: account user:2 holds 997, its entries 990",
        "not_conserved: the balances of all accounts sum to 7, not 0",
        "unfinished: hand h4 is still playing",
        "failed: 3 discrepancies",
    ]
    assert audit_main(ledger.url, allow_playing=True, out=io.StringIO()) == 1


def test_audit_main_cannot_run_on_what_is_not_a_qipai_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.db"
    assert audit_main(f"sqlite:///{missing}") == 2
    assert not missing.exists()  # the audit never creates a database
    other = tmp_path / "other.db"
    sqlite3.connect(other).close()
    assert audit_main(f"sqlite:///{other}") == 2
    assert audit_main("mysql://somewhere/qipai") == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 3
    assert all(line.startswith("error: cannot audit") for line in errors)
    assert "not_migrated" in errors[1] and "bad_database_url" in errors[2]
