"""What the operator's console shows of a table in play: what anybody watching it sees
(the room, the stake, who sits where with his coins, 托管, connected), never a card."""

from __future__ import annotations

from dataclasses import dataclass

from qipai.hall.table.state import TableState


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat, as a spectator sees it."""

    name: str
    """The name shown at the table."""
    bot: bool
    """Whether a bot plays it."""
    coins: int
    """Coins held before the hand (as the table shows them)."""
    trustee: bool
    """In 托管."""
    connected: bool
    """The player's connection is open (a bot: always)."""


@dataclass(frozen=True, slots=True)
class TableSummary:
    """One table in play."""

    number: int
    """Its number (on its node)."""
    room: str
    """Its room's id (a private table's: ``private:<id>``, never its code)."""
    room_name: str
    """Its room's name."""
    game: str
    """The game."""
    rules: str
    """The rule set."""
    base: int
    """The stake: 底分 / the base bet."""
    hand: str | None
    """The hand in play, if any."""
    hands: int
    """Hands dealt at it so far."""
    seats: tuple[SeatSummary, ...]
    """Who sits where."""


def summarize(table: TableState) -> TableSummary:
    """``table`` as the console lists it."""
    seats = tuple(
        SeatSummary(
            name=info.name, bot=info.is_bot, coins=info.balance, trustee=status.trustee,
            connected=info.is_bot or status.connected,
        )
        for info, status in zip(table.seats, table.seat_status, strict=True)
    )  # fmt: skip
    room = table.room
    return TableSummary(
        number=table.number, room=room.id, room_name=room.name, game=room.game,
        rules=room.rules, base=room.base, hand=table.hand_id, hands=table.hands_started,
        seats=seats,
    )  # fmt: skip
