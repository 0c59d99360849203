"""Dealing a private table's hands: the opener of its live tables, the seats each one
is dealt (its people with their coins, bots in the empty seats), the coins a seat needs,
and whether a live table deals its next hand.

:class:`~qipai.hall.private.tables.PrivateTables` decides when to deal; this module, what.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Protocol

from qipai.errors import IllegalActionError
from qipai.hall.players import Player
from qipai.hall.private.state import FriendsTable
from qipai.hall.rooms import Room
from qipai.hall.table.botseats import bot_seats
from qipai.hall.table.live import LiveTable, Out
from qipai.hall.table.table import HandTerms, SeatInfo


class Opener(Protocol):
    """Opens a live table (the core's): ``None`` if it was refused at once."""

    def __call__(
        self,
        room: Room,
        users: tuple[int | None, ...],
        seats: list[SeatInfo],
        *,
        terms: HandTerms | None,
        rng: random.Random,
        out: Out,
        now: float,
    ) -> LiveTable | None: ...


def check_coins(room: Room, balance: int) -> None:
    """:raises IllegalActionError: ``insufficient_coins`` (``balance`` is below the
    room's least)."""
    if balance < room.min_coins:
        message = f"the table needs {room.min_coins} coins, the player holds {balance}"
        raise IllegalActionError("insufficient_coins", message)


def can_deal(table: FriendsTable) -> bool:
    """Whether every person seated at ``table`` holds the coins a hand needs (always, at
    a ``points`` table)."""
    least = table.room.min_coins
    return not table.coins or all(table.balances[u] >= least for _, u in table.people())


def live_seats(
    table: FriendsTable, players: Mapping[int, Player], rng: random.Random
) -> list[SeatInfo]:
    """The seats of ``table``'s next live table: its people with their coins (the room's
    least at a ``points`` table), a bot drawn by ``rng`` in each empty seat."""
    room = table.room
    names = [players[u].name for _, u in table.people()]
    empty = table.seats.count(None)
    bots = iter(bot_seats(rng, min_coins=room.min_coins, count=empty, taken=names))
    seats = []
    for user in table.seats:
        if user is None:
            bot = next(bots)
            seats.append(SeatInfo(None, bot.name, bot.balance if table.coins else room.min_coins))
        else:
            balance = table.balances[user] if table.coins else room.min_coins
            seats.append(SeatInfo(str(user), players[user].name, balance))
    return seats


def deals_on(table: FriendsTable, live: LiveTable, players: Mapping[int, Player]) -> bool:
    """Whether ``live`` deals its next hand: nobody leaves or came, hands remain, not
    closing, everyone's coins enough, somebody connected."""
    if table.closing or table.over or tuple(table.seats) != live.users:
        return False
    if any(players[user].leaving for _, user in live.humans()):
        return False
    if not any(players[user].connected for _, user in live.humans()):
        return False
    least = table.room.min_coins
    return not table.coins or all(s.balance >= least for s in live.table.seats)
