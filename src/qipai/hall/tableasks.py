"""A table's decisions asked for (:class:`~qipai.hall.table.Table` with a ``bot_wait``).

A bot's move, or a 托管 seat's in a style other than the basic one, is then not computed
by the table: it asks for it (:func:`bot_turn`), keeps the answer given back
(:func:`decided`) for the position it was asked at, and plays it when due
(``docs/bots.md``, "Bots off the event loop").  The table owns an
:class:`AskedDecisions`: its position and the answer kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from qipai.hall.tablevalues import BOT_POLICY, BotTurn
from qipai.registry import BASIC_TRUSTEE

if TYPE_CHECKING:
    from qipai.hall.table import Table

AnswerKey = tuple[str, int, int, str]
"""What an answer is for: (hand, position, seat, policy)."""


class AskedDecisions:
    """A table's position (it moves with every change a bot's decision depends on) and
    the answer given for a decision asked at it."""

    def __init__(self) -> None:
        self.position = 0
        """The table's position: a decision asked for is for one position."""
        self.answer: tuple[AnswerKey, object, float] | None = None
        """The answer kept: what it is for, the action, and when it came."""

    def moved(self) -> None:
        """The table changed: decisions asked before are for a position left."""
        self.position += 1

    def forget(self) -> None:
        """Drop the answer kept (it is played, or given up)."""
        self.answer = None


def offloaded(table: Table, seat: int) -> str | None:
    """The policy whose decision for ``seat`` is asked for rather than computed in
    :meth:`~qipai.hall.table.Table.tick`: :data:`BOT_POLICY` for a bot, the room's 托管
    style for a seat in 托管 unless it is the basic one (cheap: played at once); ``None``
    otherwise or without ``bot_wait``."""
    if table.bot_wait is None:
        return None
    if table.seats[seat].is_bot:
        return BOT_POLICY
    if table.seat_status[seat].trustee and table.room.trustee != BASIC_TRUSTEE:
        return table.room.trustee
    return None


def answer_key(table: Table, seat: int, policy: str) -> AnswerKey:
    """The key of an answer for ``seat``'s move by ``policy`` at the table's position."""
    return (table.hand_id or "", table.asked.position, seat, policy)


def answer_for(table: Table, seat: int) -> tuple[object, float] | None:
    """The answer given for ``seat``'s move at this position, and when it came."""
    answer, policy = table.asked.answer, offloaded(table, seat)
    if answer is None or policy is None or answer[0] != answer_key(table, seat, policy):
        return None
    return answer[1], answer[2]


def bot_turn(table: Table, due: tuple[float, int | None] | None) -> BotTurn | None:
    """:meth:`~qipai.hall.table.Table.bot_turn` of ``table``, whose next move is ``due``
    (:func:`~qipai.hall.tableclock.move_due`)."""
    if due is None:
        return None
    when, seat = due
    if seat is None:
        return None
    policy = offloaded(table, seat)
    if policy is None:
        return None
    view = table.hand.state.view(seat)
    position = table.asked.position
    return BotTurn(table.hand_id or "", position, seat, policy, when, table.room.game, view)


def decided(table: Table, turn: BotTurn, action: object, now: float) -> None:
    """:meth:`~qipai.hall.table.Table.decided` of ``table``."""
    key = (turn.hand, turn.position, turn.seat, turn.policy)
    current = offloaded(table, turn.seat)
    if current is not None and key == answer_key(table, turn.seat, current):
        table.asked.answer = (key, action, now)
