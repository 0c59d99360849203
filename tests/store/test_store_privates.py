"""Closed private tables 好友房 in the store: kept with their stake (migration ``0010``),
read back by code and in each player's 战绩, on SQLite and PostgreSQL; a table kept before
``0010`` reads back with its stake unknown."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from sqlalchemy import insert
from store_kit import NOW

from qipai.errors import InvalidActionError
from qipai.store import Store, database
from qipai.store.privates import PrivateRow
from qipai.store.schema import private_players, private_tables, users

BOARD = json.dumps({"type": "scoreboard", "code": "123456", "names": ["a", "b", "c"],
                    "rows": [], "totals": [0, 0, 0], "over": True})  # fmt: skip


def _row(code: str, base: int | None) -> PrivateRow:
    return PrivateRow(code, "doudizhu", "huanle", "coins", 6, NOW, BOARD, base)


def test_a_closed_table_keeps_its_stake_for_its_code_and_its_players(store: Store) -> None:
    alice = store.register("alice", "h", grant=10, now=NOW)
    bob = store.register("bob", "h", grant=10, now=NOW)
    store.keep_private(_row("123456", 50), [alice, bob, alice])
    store.keep_private(_row("123456", 200), [bob])
    store.keep_private(_row("654321", None), [alice])
    assert store.private_table("123456") == _row("123456", 200)  # the newest of a code
    assert store.private_table("000000") is None
    assert [r.base for r in store.private_results(alice)] == [None, 50]
    assert [(r.code, r.base) for r in store.private_results(bob, limit=1)] == [("123456", 200)]
    with pytest.raises(InvalidActionError):
        store.private_results(bob, limit=0)


def test_migration_0010_adds_the_stake_and_keeps_older_tables(db_url: str) -> None:
    engine = database.create(database.normalize_url(db_url))
    database.migrate(engine, "0009")
    created = datetime(2026, 1, 1, tzinfo=UTC).replace(tzinfo=None)
    with database.writer(engine).begin() as connection:
        connection.execute(insert(users).values(name="old", password_hash="h", created_at=created))
        old = {"code": "111111", "game": "doudizhu", "rules": "huanle", "stakes": "points",
               "hands": 6, "closed_at": created, "scoreboard_json": BOARD}  # fmt: skip
        connection.execute(insert(private_tables).values(old))
        connection.execute(insert(private_players).values(table_id=1, user_id=1))
    database.migrate(engine)
    assert database.current_revision(engine) == database.head_revision()
    engine.dispose()
    with Store.open(db_url) as store:
        (kept,) = store.private_results(1)
        assert (kept.code, kept.stakes, kept.base) == ("111111", "points", None)
        store.keep_private(_row("222222", 5), [1])
        assert store.private_table("222222") == _row("222222", 5)
