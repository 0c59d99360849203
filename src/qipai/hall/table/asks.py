"""A table's decisions asked for (:class:`~qipai.hall.table.table.Table` with a ``bot_wait``).

A bot's move, or a 托管 seat's in a style other than the basic one, is then not computed
by the table: it asks for it (:func:`bot_turn`), keeps the answer given back
(:func:`decided`) for the position it was asked at, and plays it when due
(``docs/bots.md``, "Bots off the event loop").  The table owns an
:class:`~qipai.hall.table.state.AskedDecisions`: its position and the answer kept.
"""

from __future__ import annotations

from qipai.hall.table.state import AnswerKey, TableState
from qipai.hall.table.values import BOT_POLICY, BotTurn
from qipai.registry import BASIC_TRUSTEE


def offloaded(table: TableState, seat: int) -> str | None:
    """The policy whose decision for ``seat`` is asked for rather than computed in
    :meth:`~qipai.hall.table.table.Table.tick`: :data:`BOT_POLICY` for a bot, the room's 托管
    style for a seat in 托管 unless it is the basic one (cheap: played at once); ``None``
    otherwise or without ``bot_wait``."""
    if table.bot_wait is None:
        return None
    if table.seats[seat].is_bot:
        return BOT_POLICY
    if table.seat_status[seat].trustee and table.room.trustee != BASIC_TRUSTEE:
        return table.room.trustee
    return None


def answer_key(table: TableState, seat: int, policy: str) -> AnswerKey:
    """The key of an answer for ``seat``'s move by ``policy`` at the table's position."""
    return (table.hand_id or "", table.asked.position, seat, policy)


def answer_for(table: TableState, seat: int) -> tuple[object, float] | None:
    """The answer given for ``seat``'s move at this position, and when it came."""
    answer, policy = table.asked.answer, offloaded(table, seat)
    if answer is None or policy is None or answer[0] != answer_key(table, seat, policy):
        return None
    return answer[1], answer[2]


def bot_turn(table: TableState, due: tuple[float, int | None] | None) -> BotTurn | None:
    """:meth:`~qipai.hall.table.table.Table.bot_turn` of ``table``, whose next move is ``due``
    (:func:`~qipai.hall.table.clock.move_due`)."""
    if due is None:
        return None
    when, seat = due
    if seat is None:
        return None
    policy = offloaded(table, seat)
    if policy is None:
        return None
    view = table.hand.dealt_state.view(seat)
    position = table.asked.position
    return BotTurn(table.hand_id or "", position, seat, policy, when, table.room.game, view)


def decided(table: TableState, turn: BotTurn, action: object, now: float) -> None:
    """:meth:`~qipai.hall.table.table.Table.decided` of ``table``."""
    key = (turn.hand, turn.position, turn.seat, turn.policy)
    current = offloaded(table, turn.seat)
    if current is not None and key == answer_key(table, turn.seat, current):
        table.asked.answer = (key, action, now)
