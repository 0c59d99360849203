"""A table's clock (:class:`~qipai.hall.table.table.Table`): when each of its timers is due.

The table owns a :class:`~qipai.hall.table.state.TurnClock`, the time its current decision
started.  From it come the due times of a hand in progress: the decision time limit, a bot's or 托管
seat's move, the end of an absent player's grace, the next step of a paced deal, and the
deadline the players are shown.  Functions of the table, read only: the table applies
what is due (:meth:`~qipai.hall.table.table.Table.tick`).
"""

from __future__ import annotations

from qipai.hall.table.asks import answer_for, offloaded
from qipai.hall.table.state import TableState

GRACE_END = 0
"""A kind of timer (:func:`next_due`): an absent player's grace ends; first of two due at once."""
TURN = 1
"""A kind of timer (:func:`next_due`): the hand in progress has a move due (:func:`turn_due`)."""

RECONNECT_GRACE = 5.0
"""Seconds a player of a game that plays the absent by 托管 rather than folding him
(:attr:`~qipai.registry.GameType.folds_absent` false) may be away before 托管 takes his
seat: a reload or a phone's dropped socket is back well within it (under half a second
measured), so it is not 断线; a seat still away after it is (the room's
``grace_seconds`` when shorter)."""


def deadline(table: TableState) -> float | None:
    """:meth:`~qipai.hall.table.table.Table.deadline` of ``table``."""
    if table.hand.window_end is not None:
        return table.hand.window_end
    times = [t for t in (turn_deadline(table), *grace_ends(table).values()) if t is not None]
    return min(times, default=None)


def turn_deadline(table: TableState, *, asked: bool = True) -> float | None:
    """When the hand's next move is played (``asked``: :func:`turn_due`, else
    :func:`move_due`); ``None`` when none is pending."""
    due = turn_due(table) if asked else move_due(table)
    return None if due is None else due[0]


def shown_deadline(table: TableState) -> float | None:
    """The deadline the players are shown: the turn's, or the time limit that the
    seats choosing at the same time share (not a bot's earlier move among them); a
    bot's turn shows a player's time limit (it moves sooner, as a quick player)."""
    state = table.hand.dealt_state if table.hand.playing else None
    if state is not None and table.engine.deciding(state):
        return table.clock.since + table.room.decision_seconds
    actor = None if state is None else state.current_player
    if actor is not None and table.seats[actor].is_bot:
        return table.clock.since + table.room.decision_seconds
    return turn_deadline(table, asked=False)


def turn_due(table: TableState) -> tuple[float, int | None] | None:
    """:func:`move_due`, where a decision asked for (:meth:`~qipai.hall.table.table.Table.bot_turn`)
    is played: when its answer has come (not before the move's time), or ``bot_wait``
    seconds after the move's time without one."""
    due = move_due(table)
    if due is None or table.bot_wait is None:
        return due
    when, seat = due
    if seat is None or offloaded(table, seat) is None:
        return due
    answer = answer_for(table, seat)
    return (when + table.bot_wait if answer is None else max(when, answer[1])), seat


def move_due(table: TableState) -> tuple[float, int | None] | None:
    """When the hand's next move is due and whose it is (``None``: the dealer's):
    the seat to act, or the first due of the seats choosing at the same time."""
    if not table.hand.playing:
        return None
    state = table.hand.dealt_state
    deciding = table.engine.deciding(state)
    if deciding:
        return min((decision_due(table, seat), seat) for seat in deciding)
    actor = state.current_player
    if actor is None:
        step = table.engine.deal_step(state)
        return None if step is None else (table.clock.since + table.deal_step, None)
    return decision_due(table, actor), actor


def decision_due(table: TableState, seat: int) -> float:
    """When ``seat``'s decision is due: a bot's or 托管 seat's move, else the end of
    the decision time (a game that folds the absent: not before his grace)."""
    if table.seats[seat].is_bot or table.seat_status[seat].trustee:
        return table.clock.since + table.bot_delay
    limit = table.clock.since + table.room.decision_seconds
    away = table.seat_status[seat].away_since
    if table.engine.folds_absent and away is not None:
        limit = max(limit, away + table.room.grace_seconds)
    return limit


def absent_grace(table: TableState) -> float:
    """How long an absent player keeps his seat out of 托管: the room's ``grace_seconds``
    in a game that folds the absent, else at most :data:`RECONNECT_GRACE`."""
    if table.engine.folds_absent:
        return table.room.grace_seconds
    return min(table.room.grace_seconds, RECONNECT_GRACE)


def grace_ends(table: TableState) -> dict[int, float]:
    """When each absent seat's grace ends during a hand (he then enters 托管); none for a
    seat in 托管 already."""
    if not table.hand.playing:
        return {}
    grace = absent_grace(table)
    return {
        seat: s.away_since + grace
        for seat, s in enumerate(table.seat_status)
        if s.away_since is not None and not s.trustee
    }


def next_due(table: TableState) -> tuple[float, int, int | None] | None:
    """The earliest pending timer: (time, :data:`GRACE_END` / :data:`TURN`, seat)."""
    due: list[tuple[float, int, int | None]] = [
        (t, GRACE_END, seat) for seat, t in grace_ends(table).items()
    ]
    turn = turn_due(table)
    if turn is not None:
        due.append((turn[0], TURN, turn[1]))
    return min(due, key=lambda d: (d[0], d[1]), default=None)
