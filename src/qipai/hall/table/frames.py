"""A table's frames of the moment (:class:`~qipai.hall.table.table.Table`): the turn frame,
the ``hand_start`` frame and a seat's snapshot, built from the table as it stands
(``docs/hall.md``, "Tables").  Functions of the table, read only."""

from __future__ import annotations

from msgspec import UNSET

from qipai.hall.frames import HandStart, SeatPlayer, Snapshot, Turn
from qipai.hall.table.clock import shown_deadline
from qipai.hall.table.seats import players as players_of
from qipai.hall.table.state import TableState
from qipai.hall.wire import action_text, spectator_view_json, view_json


def turn_frame(
    table: TableState, seat: int | None, players: list[SeatPlayer] | None = None
) -> Turn:
    """``seat``'s turn frame: who acts (or who decides at once), the deadline shown,
    ``seat``'s legal actions on his turn, else what he may do out of turn (a spectator,
    ``seat`` ``None``: neither)."""
    state, engine = table.hand.dealt_state, table.engine
    deciding = engine.deciding(state)
    actor = None if deciding else state.current_player
    actions = [] if seat is None else [action_text(a) for a in engine.actions(state, seat)]
    decides = seat is not None and (seat == actor or seat in deciding)
    return Turn(
        table=table.number,
        n=table.last_event,
        seat=actor,
        deadline=shown_deadline(table),
        players=players_of(table.seats, table.seat_status) if players is None else players,
        deciding=list(deciding) if deciding else UNSET,
        legal=actions if decides else UNSET,
        options=actions if actions and not decides else UNSET,
    )


def hand_start_frame(table: TableState) -> HandStart:
    """The ``hand_start`` frame of the hand ``table`` has just started."""
    return HandStart(
        table=table.number,
        n=table.last_event,
        room=table.room.id,
        hand=table.hand_id,
        hand_number=table.hands_started - 1,
        commitment=table.commitment,
        entropy_deadline=table.hand.window_end,
        players=players_of(table.seats, table.seat_status),
    )


def snapshot(table: TableState, seat: int | None) -> Snapshot:
    """:meth:`~qipai.hall.table.table.Table.snapshot` of ``table`` for ``seat`` (checked); for a
    spectator (``seat`` ``None``) the game's spectator view."""
    state, game = table.hand.state, table.room.game
    if state is None:
        view = None
    elif seat is None:
        view = spectator_view_json(game, state)
    else:
        view = view_json(game, state.view(seat))
    return Snapshot(
        table=table.number,
        n=table.last_event,
        seat=seat,
        room=table.room.id,
        hand=table.hand_id,
        commitment=table.commitment,
        players=players_of(table.seats, table.seat_status),
        view=view,
        deadline=shown_deadline(table),
        entropy_deadline=table.hand.window_end,
    )
