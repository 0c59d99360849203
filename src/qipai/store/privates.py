"""Private tables 好友房 in the store: the open ones as they are kept, the closed ones'
final scoreboards for the players' 战绩.

One row of ``open_private_tables`` per open table (the node it is open on, the table as
:mod:`qipai.hall.private.saves` keeps it), written only by that node (:func:`save_open`,
:func:`drop_open`) and handed to another one in one statement (:func:`adopt_open`); one
row of ``private_tables`` per closed table (its ``scoreboard`` frame as JSON) and one row
of ``private_players`` per person who played at it (:mod:`qipai.store.schema`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, delete, insert, select, update

from qipai.store.accounts import check_limit
from qipai.store.schema import open_private_tables, private_players, private_tables


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
    drop_open(connection, row.code, None)
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


def save_open(connection: Connection, code: str, node: str, saved_json: str, now: datetime) -> bool:
    """Keep open table ``code`` of ``node`` as ``saved_json``; ``False`` (nothing written)
    if another node holds its row (it took the table over)."""
    t = open_private_tables.c
    changed = connection.execute(
        update(open_private_tables)
        .where(t.code == code, t.node == node)
        .values(saved_json=saved_json, saved_at=now)
    )
    if changed.rowcount:
        return True
    if connection.execute(select(t.node).where(t.code == code)).first() is not None:
        return False
    values = {"code": code, "node": node, "saved_json": saved_json, "saved_at": now}
    connection.execute(insert(open_private_tables).values(values))
    return True


def drop_open(connection: Connection, code: str, node: str | None) -> None:
    """Forget open table ``code`` (it closed): ``node``'s row only (``None``: whoever's)."""
    t = open_private_tables.c
    query = delete(open_private_tables).where(t.code == code)
    if node is not None:
        query = query.where(t.node == node)
    connection.execute(query)


def adopt_open(connection: Connection, old: str, new: str) -> list[tuple[str, str]]:
    """The open tables of node ``old``, now ``new``'s (code, saved JSON): one statement,
    so that of two nodes adopting at once only one gets each table."""
    t = open_private_tables.c
    query = (
        update(open_private_tables)
        .where(t.node == old)
        .values(node=new)
        .returning(t.code, t.saved_json)
    )
    return [(code, text) for code, text in connection.execute(query)]


def open_node(connection: Connection, code: str) -> str | None:
    """The node open table ``code`` is kept for (``None``: no open table of that code)."""
    t = open_private_tables.c
    node: str | None = connection.execute(select(t.node).where(t.code == code)).scalar()
    return node
