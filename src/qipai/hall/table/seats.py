"""A table's seats (:class:`~qipai.hall.table.table.Table`): what it knows of each beyond the
hand (托管, connection, escape: the :class:`SeatStatus` of its ``seat_status``), and the
checks of the seats it is given and named."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from qipai.errors import InvalidActionError
from qipai.hall.frames import SeatPlayer
from qipai.hall.rooms import Room
from qipai.hall.table.values import SeatInfo


@dataclass(slots=True)
class SeatStatus:
    """What the table knows of a seat beyond the hand."""

    trustee: bool = False
    connected: bool = True
    away_since: float | None = None
    escaped: bool = False


def is_int(value: object) -> bool:
    """Whether ``value`` is an ``int`` (not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_seats(room: Room, seats: Sequence[SeatInfo]) -> None:
    """Refuse ``seats`` unless they are one :class:`SeatInfo` per seat of ``room``, each
    with a balance >= 0.

    :raises InvalidActionError: ``bad_seats``.
    """
    if len(seats) != room.seats:
        raise InvalidActionError("bad_seats", f"room {room.id!r} has {room.seats} seats")
    for seat in seats:
        if not isinstance(seat, SeatInfo) or not is_int(seat.balance) or seat.balance < 0:
            raise InvalidActionError("bad_seats", f"a seat is a SeatInfo, balance >= 0: {seat!r}")


def check_seat(seats: int, seat: object) -> None:
    """Refuse ``seat`` unless it is a seat of a table of ``seats`` seats.

    :raises InvalidActionError: ``bad_seat``.
    """
    valid = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats
    if not valid:
        raise InvalidActionError("bad_seat", f"a seat is 0-{seats - 1}: {seat!r}")


def players(seats: Sequence[SeatInfo], statuses: Sequence[SeatStatus]) -> list[SeatPlayer]:
    """The players of the frames: each seat's name and status."""
    return [
        SeatPlayer(info.name, info.is_bot, s.trustee, s.connected, s.escaped)
        for info, s in zip(seats, statuses, strict=True)
    ]
