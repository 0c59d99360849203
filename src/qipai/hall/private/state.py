"""One private table 好友房 (:mod:`~qipai.hall.private.tables` keeps them): its state, and its
``private_table`` frame."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from msgspec import UNSET

from qipai.hall import frames
from qipai.hall.players import Player
from qipai.hall.private.options import PrivateOptions, stake_of
from qipai.hall.private.scores import ScoreSheet
from qipai.hall.rooms import Room
from qipai.hall.table.live import LiveTable
from qipai.hall.table.table import HandTerms


@dataclass(eq=False)
class FriendsTable:
    """One private table."""

    code: str
    owner: int
    """The owner's user id."""
    options: PrivateOptions
    room: Room
    terms: HandTerms | None
    seats: list[int | None]
    """The person at each seat (``None``: free, or a bot's while a hand is played)."""
    sheet: ScoreSheet
    ready: set[int] = field(default_factory=set)
    balances: dict[int, int] = field(default_factory=dict)
    """Each person's coins as last known (a ``coins`` table)."""
    played: int = 0
    live: LiveTable | None = None
    closing: bool = False
    """The owner closed it during a hand: it closes when the hand is over."""
    closed: bool = False
    grace_at: float | None = None
    """When it closes if still nobody connected is there."""
    members: dict[int, None] = field(default_factory=dict)
    """Everyone who played a hand there, in order (the scoreboard is kept for each)."""

    def people(self) -> list[tuple[int, int]]:
        """(seat, user) of each person seated."""
        return [(seat, user) for seat, user in enumerate(self.seats) if user is not None]

    @property
    def over(self) -> bool:
        """Whether its 局数 are played."""
        return self.options.hands > 0 and self.played >= self.options.hands

    @property
    def coins(self) -> bool:
        """Whether it plays for coins."""
        return self.options.stakes == "coins"

    @property
    def state(self) -> str:
        """``waiting``, ``playing`` or ``closed``."""
        return "closed" if self.closed else "waiting" if self.live is None else "playing"


def table_frame(
    table: FriendsTable, players: Mapping[int, Player], user: int | None
) -> frames.PrivateTable:
    """``private_table`` as ``user`` sees it (``None``: a spectator); its code and link
    for the people seated there only."""
    seats = [_seat_frame(table, players, seat) for seat in range(len(table.seats))]
    owner = table.seats.index(table.owner) if table.owner in table.seats else None
    options = table.options
    you = table.seats.index(user) if user is not None and user in table.seats else None
    code, link = (UNSET, UNSET) if you is None else (table.code, f"/?p={table.code}")
    return frames.PrivateTable(
        code=code, link=link, room=table.room.id, owner=owner, game=options.game,
        rules=options.rules, hands=options.hands, played=table.played,
        stakes=options.stakes, base=stake_of(table.room),
        seconds=table.room.decision_seconds, bots=options.bots,
        spectators=options.spectators, tasks=options.tasks, delay=options.delay,
        state=table.state, closing=table.closing,
        table=None if table.live is None else table.live.number,
        seats=seats, you=you,
    )  # fmt: skip


def _seat_frame(
    table: FriendsTable, players: Mapping[int, Player], seat: int
) -> frames.PrivateSeat | None:
    """Who holds ``seat``: a person, a bot while a hand is played, or nobody."""
    person = table.seats[seat]
    live = table.live
    if person is None:
        if live is None or live.users[seat] is not None:
            return None
        return frames.PrivateSeat(live.table.seats[seat].name, True, True, True)
    player = players[person]
    return frames.PrivateSeat(player.name, person in table.ready, False, player.connected)
