"""Which private tables this hall process knows: the open ones by code and by their live
tables' room id (``private:<id>``), the closed ones' final scoreboards (so that a closed
table's code answers ``table_closed``, not ``unknown_code``), and the drawing of fresh
codes and opaque ids.

:class:`~qipai.hall.private.tables.PrivateTables` plays the tables this book holds.
"""

from __future__ import annotations

from collections.abc import Callable

from qipai.errors import IllegalActionError
from qipai.hall import frames
from qipai.hall.private.state import FriendsTable
from qipai.hall.table.live import LiveTable

PREFIX = "private:"
"""What a private table's room id starts with (then its opaque id, never its code)."""
ID_BITS = 48
"""The random bits of a private table's opaque id (12 hex digits)."""
KEPT_CLOSED = 10_000
"""Closed tables remembered (their last ``scoreboard``) so that their code answers
``table_closed``, not ``unknown_code``; the store keeps them all."""


class TableBook:
    """The private tables known here, open and closed.

    :param fresh: random bits (codes and ids).
    """

    def __init__(self, fresh: Callable[[int], int]) -> None:
        self.tables: dict[str, FriendsTable] = {}
        """The open tables, by code."""
        self.finished: dict[str, frames.Scoreboard] = {}
        """The last :data:`KEPT_CLOSED` closed tables' final scoreboards, by code."""
        self.codes: dict[str, str] = {}
        """The code of each open table, by its room id (``private:<id>``)."""
        self._fresh = fresh

    def of(self, live: LiveTable) -> FriendsTable | None:
        """The private table ``live`` plays for, if any."""
        code = self.codes.get(live.table.room.id)
        return None if code is None else self.tables.get(code)

    def is_free(self, code: str) -> bool:
        """Whether ``code`` names no table here, open or closed."""
        return code not in self.tables and code not in self.finished

    def reset(self) -> None:
        """Drop every table (the hall was taken over)."""
        self.tables.clear()
        self.codes.clear()

    def _add(self, table: FriendsTable) -> None:
        """``table`` is open here (again: its code no longer counts as closed)."""
        self.tables[table.code] = table
        self.codes[table.room.id] = table.code  # (a new opaque id each time it opens)
        self.finished.pop(table.code, None)

    def _closed(self, table: FriendsTable, final: frames.Scoreboard) -> None:
        """``table`` closed with ``final``: its code remembered as closed."""
        del self.tables[table.code]
        self.codes.pop(table.room.id, None)
        self.finished[table.code] = final
        while len(self.finished) > KEPT_CLOSED:
            del self.finished[next(iter(self.finished))]

    def _find(self, code: str) -> FriendsTable:
        """:raises IllegalActionError: ``unknown_code``, ``table_closed``."""
        table = self.tables.get(code)
        if table is not None:
            return table
        if code in self.finished:
            raise IllegalActionError("table_closed", f"table {code} is closed")
        raise IllegalActionError("unknown_code", f"no table {code!r}")

    def _new_code(self) -> str:
        while True:
            code = f"{self._fresh(30) % 1_000_000:06d}"
            if self.is_free(code):
                return code

    def _new_id(self) -> str:
        """A table's opaque id (its room is ``private:<id>``): 48 random bits in hex, drawn
        apart from its code, so that nothing a spectator sees leads to the code."""
        while True:
            table_id = f"{self._fresh(ID_BITS):0{ID_BITS // 4}x}"
            if f"{PREFIX}{table_id}" not in self.codes:
                return table_id
