"""One UPDATE for many rows, each with its own values, in the connection's dialect.

PostgreSQL gets a single ``UPDATE … FROM unnest(:a::T[], :b::U[]) AS v(a, b)`` statement:
one round trip whatever the number of rows, each column of values one array parameter,
and a statement text that does not depend on the number of rows (SQLAlchemy compiles it
once).  SQLite runs the same update once per row through ``executemany`` (in process,
cheap).

Such an UPDATE locks its rows in whatever order the plan visits them, so rows that
concurrent transactions may share (account balances, users' counters) are first locked
in key order (``lock``): every transaction takes them in the same order and two
settlements can never deadlock.  SQLite needs no such care: a writer holds the whole
database.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TypeAlias

from sqlalchemy import (
    Column,
    ColumnElement,
    Connection,
    Table,
    and_,
    bindparam,
    column,
    func,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.sql.base import ReadOnlyColumnCollection
from sqlalchemy.types import TypeEngine

ValueType: TypeAlias = "TypeEngine[int] | TypeEngine[str] | TypeEngine[bool] | TypeEngine[datetime]"
"""The SQL type of a row's value: a number, a text, a flag, a time."""
Source = Mapping[str, ColumnElement[object]]
"""The per-row values, by name, as SQL expressions to use in ``where`` and ``set``."""
TableType: TypeAlias = "Table[ReadOnlyColumnCollection[str, Column[object]]]"
"""A table whatever its columns' types (a bare ``Table`` takes its type variable's default,
which mypy reads as an explicit ``Column`` of anything)."""


def update_rows(
    connection: Connection,
    table: TableType,
    types: Mapping[str, ValueType],
    rows: Sequence[Mapping[str, object]],
    *,
    match: Callable[[Source], Sequence[ColumnElement[bool]]],
    changes: Callable[[Source], Mapping[str, object]],
    lock: tuple[Column[object], str] | None = None,
) -> None:
    """``UPDATE table SET changes(row) WHERE match(row)`` for every row.

    ``types`` names the rows' keys and gives each a type (``b_``-prefixed names keep them
    apart from the table's columns); ``match`` and ``changes`` build the condition and the
    new values from the row's expressions.  ``lock`` (a key column and the row's name for
    it) locks the rows in key order first, on PostgreSQL.
    """
    if not rows:
        return
    names = list(types)
    if connection.dialect.name == "postgresql":
        if lock is not None:
            key, name = lock
            keys = sorted({row[name] for row in rows})  # type: ignore[type-var]
            locking = select(key).where(key.in_(keys)).order_by(key)
            connection.execute(locking.with_for_update(key_share=True))  # FOR NO KEY UPDATE
        arrays = [bindparam(name, type_=ARRAY(types[name])) for name in names]
        source = (
            func.unnest(*arrays)
            .table_valued(*(column(name, types[name]) for name in names))
            .render_derived(name="v")
        )
        row_values: Source = {name: source.c[name] for name in names}
        statement = update(table).where(and_(*match(row_values))).values(changes(row_values))
        connection.execute(statement, {name: [row[name] for row in rows] for name in names})
        return
    params: Source = {name: bindparam(name, type_=types[name]) for name in names}
    statement = update(table).where(and_(*match(params))).values(changes(params))
    connection.execute(statement, [dict(row) for row in rows])
