"""Who is in the hall: people and bots, in all and in each cash room (the lobby's
在线 N 人 · 机器人 M, ``GET /api/rooms/online``).

A person is a signed-in player with a connection open whom this process holds (in the
lobby, waiting in a room, at a table, watching one); a bot is a bot seat at a table in
play.  A room's people are those waiting in its queue or seated at its tables that have
not finished; its bots, the bot seats at its tables in play.  In a cluster each node counts
what it holds (:func:`here`) and says it in its beats; :func:`merged` adds them up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from qipai.hall.cash.rooms import CashRooms
from qipai.hall.players import Player
from qipai.hall.table.live import LiveTable
from qipai.jsontypes import Json


@dataclass(frozen=True, slots=True)
class Headcount:
    """People and bots in one place."""

    people: int = 0
    bots: int = 0

    def to_json(self) -> dict[str, Json]:
        """``{"people": n, "bots": m}``."""
        return {"people": self.people, "bots": self.bots}


def here(
    players: Mapping[int, Player],
    tables: Mapping[int, LiveTable],
    cash: CashRooms,
    owned: Callable[[str], bool],
) -> dict[str, Json]:
    """What this process holds: ``{"people": N, "bots": M, "rooms": {room: {"people": n,
    "bots": m}}}`` over the rooms it seats (``owned``)."""
    bots: Counter[str] = Counter()
    for live in tables.values():
        bots[live.table.room.id] += live.users.count(None)
    rooms: dict[str, Json] = {
        room_id: Headcount(entry.lobby.headcount, bots[room_id]).to_json()
        for room_id, entry in cash.rooms.items()
        if owned(room_id)
    }
    people = sum(1 for player in players.values() if player.connected)
    return {"people": people, "bots": sum(bots.values()), "rooms": rooms}


def merged(mine: Mapping[str, Json], others: Iterable[object]) -> dict[str, Json]:
    """``mine`` (:func:`here`) and what the other nodes said (theirs), added up: the totals
    summed, each room as the node that seats it said (``mine`` first).  A node's word in
    another shape (an older version's ``{room: people}``) counts its rooms' people."""
    people, bots = _number(mine.get("people")), _number(mine.get("bots"))
    rooms: dict[str, Json] = {}
    for said in others:
        if not isinstance(said, dict):
            continue
        if "rooms" in said:
            if isinstance(said["rooms"], dict):
                people += _number(said.get("people"))
                bots += _number(said.get("bots"))
                rooms.update(said["rooms"])
        else:  # {room: people}
            for room_id, count in said.items():
                rooms[str(room_id)] = Headcount(_number(count)).to_json()
                people += _number(count)
    own = mine.get("rooms")
    rooms.update(own if isinstance(own, dict) else {})
    return {"people": people, "bots": bots, "rooms": rooms}


def _number(value: object) -> int:
    """``value`` if it is a count, else 0."""
    return value if type(value) is int and value >= 0 else 0
