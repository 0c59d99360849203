"""Closed private tables 好友房: their final scoreboards, kept for the players' 战绩.

One row of ``private_tables`` per closed table (its ``scoreboard`` frame as JSON) and one
row of ``private_players`` per person who played at it (:mod:`qipai.store.schema`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, insert, select

from qipai.store.accounts import check_limit
from qipai.store.schema import private_players, private_tables


@dataclass(frozen=True, slots=True)
class PrivateRow:
    """A closed private table."""

    code: str
    game: str
    rules: str
    stakes: str
    hands: int
    closed_at: datetime
    scoreboard_json: str
    """Its final ``scoreboard`` frame, as JSON text."""
    base: int | None = None
    """Its stake (房间系数 or base); ``None``: not known (closed before migration 0010)."""


def keep(connection: Connection, row: PrivateRow, users: Sequence[int]) -> None:
    """Store a closed table and who played there."""
    values = {
        "code": row.code, "game": row.game, "rules": row.rules, "stakes": row.stakes,
        "hands": row.hands, "closed_at": row.closed_at, "scoreboard_json": row.scoreboard_json,
        "base": row.base,
    }  # fmt: skip
    found = connection.execute(insert(private_tables).values(values))
    (table_id,) = found.inserted_primary_key or (None,)
    if users:
        rows = [{"table_id": table_id, "user_id": user} for user in dict.fromkeys(users)]
        connection.execute(insert(private_players), rows)


def _columns() -> tuple[object, ...]:
    t = private_tables.c
    return (t.code, t.game, t.rules, t.stakes, t.hands, t.closed_at, t.scoreboard_json, t.base)


def latest(connection: Connection, code: str) -> PrivateRow | None:
    """The last closed table of ``code``, if any."""
    query = (
        select(*_columns())  # type: ignore[call-overload]
        .where(private_tables.c.code == code)
        .order_by(private_tables.c.id.desc())
        .limit(1)
    )
    row = connection.execute(query).first()
    return None if row is None else PrivateRow(*row)


def of_user(connection: Connection, user_id: int, *, limit: int) -> list[PrivateRow]:
    """The closed tables ``user_id`` played at, newest first (his 战绩).

    :raises InvalidActionError: ``bad_limit``.
    """
    check_limit(limit)
    query = (
        select(*_columns())  # type: ignore[call-overload]
        .join(private_players, private_players.c.table_id == private_tables.c.id)
        .where(private_players.c.user_id == user_id)
        .order_by(private_tables.c.id.desc())
        .limit(limit)
    )
    return [PrivateRow(*row) for row in connection.execute(query)]
