"""Private tables 好友房 at the edge: their client messages become the core's commands
(:mod:`qipai.hall.private.tables`), and ``GET /api/private/{code}`` is answered here.

Creating or joining takes the player's place as joining a room does (under his lock, a
match registration refused, his claim taken in the cluster), his coins read first.  A
``table_full`` refusal says whether the table may be watched instead (``watch``).  The
limits on trying codes (``private_join``, ``GET /api/private/{code}``) are the
:class:`~qipai.server.edge.limits.Gate`'s.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import msgspec
from msgspec import UNSET

from qipai.errors import GameError, IllegalActionError
from qipai.hall import commands as c
from qipai.hall import frames
from qipai.hall.frames import OutFrame, to_json
from qipai.hall.private.options import PrivateOptions, stake_of
from qipai.hall.private.state import FriendsTable
from qipai.hall.private.tables import TableFullError
from qipai.jsontypes import Json
from qipai.server.api.answers import PrivateInfo, PrivateResult
from qipai.server.api.protocol import (
    PrivateClose,
    PrivateCreate,
    PrivateJoin,
    PrivateKick,
    PrivateStart,
    Ready,
)
from qipai.server.run.hall import HallService, Player
from qipai.server.run.privatenodes import reserve_code
from qipai.store.privates import PrivateRow

PrivateMessage = PrivateCreate | PrivateJoin | Ready | PrivateStart | PrivateKick | PrivateClose
"""The private tables' client messages."""


async def private_message(
    hall: HallService, player: Player, message: PrivateMessage
) -> OutFrame | None:
    """Apply one private table message of ``player``; the answering frame (``None``: an
    ``ack``).

    :raises GameError: the hall's refusal.
    """
    user = player.user
    match message:
        case PrivateCreate():
            chosen = msgspec.structs.asdict(message)
            del chosen["id"]
            options = PrivateOptions(**chosen)  # the message's fields are the options
            code = await reserve_code(hall)  # the hall's own (a node of several)
            try:
                await _take_place(
                    hall, player, lambda coins: c.CreatePrivate(user, options, coins, code)
                )
            finally:
                if code is not None and hall.cluster is not None:
                    hall.cluster.unreserve(code)
        case PrivateJoin(message_id, code):
            try:
                await _take_place(hall, player, lambda coins: c.JoinPrivate(user, code, coins))
            except TableFullError as error:
                watch = True if error.watch else UNSET
                return frames.Error(
                    code=error.code, message=error.message, id=message_id, watch=watch
                )
        case Ready(_, ready):
            hall.executor.run(c.Ready(user, ready))
        case PrivateStart():
            hall.executor.run(c.StartPrivate(user))
        case PrivateKick(seat):
            hall.executor.run(c.KickPrivate(user, seat))
        case PrivateClose():
            hall.executor.run(c.ClosePrivate(user))
    return None


async def _take_place(
    hall: HallService, player: Player, command: Callable[[int], c.Command]
) -> None:
    """Run ``command(coins)`` with the player's place taken (given back if refused and he
    holds nothing here).

    :raises IllegalActionError: ``in_match``, ``not_connected``, the core's refusal.
    """
    user = player.user
    async with hall.places.lock(user):
        hall.core.check_free(user)  # (checked again by the core with the balance read)
        coins = await hall.db.run(hall.db.store.balance, user)
        await hall.places.claim(user)
        try:
            if hall.players.get(user) is not player:  # gone meanwhile
                raise IllegalActionError("not_connected", "the connection closed")
            hall.executor.run(command(coins))
        except GameError:
            if not hall.core.holds(user):
                await hall.places.release(user)
            raise


async def private_info(hall: HallService, code: str) -> PrivateInfo:
    """The body of ``GET /api/private/{code}``: an open table here, else the last closed
    one of that code in the store.

    :raises IllegalActionError: ``unknown_code``.
    """
    table = hall.core.private.tables.get(code)
    if table is not None:
        return _open_info(hall, table)
    row = await hall.db.run(hall.db.store.private_table, code)
    if row is None:
        raise IllegalActionError("unknown_code", f"no table {code!r}")
    return _closed_info(row)


def _open_info(hall: HallService, table: FriendsTable) -> PrivateInfo:
    options = table.options
    watchers = hall.core.watch.watchers(table.code)
    names = [None if u is None else hall.players[u].name for u in table.seats]
    board = table.sheet.frame(None if table.live is None else table.live.number, over=False)
    return PrivateInfo(
        code=table.code, game=options.game, rules=options.rules,
        hands=options.hands, played=table.played, stakes=options.stakes,
        base=stake_of(table.room), state=table.state, seats=names,
        spectators=options.spectators, watchers=watchers, full=None not in table.seats,
        scoreboard=to_json(board) if table.sheet.rows else None,
    )  # fmt: skip


class _KeptBoard(msgspec.Struct):
    """What a closed table's answer reads of its kept scoreboard (the rest is passed on)."""

    names: list[str | None]
    rows: list[object]


def _closed_info(row: PrivateRow) -> PrivateInfo:
    board = msgspec.json.decode(row.scoreboard_json, type=_KeptBoard)
    return PrivateInfo(
        code=row.code, game=row.game, rules=row.rules, hands=row.hands,
        played=len(board.rows), stakes=row.stakes, base=row.base, state="closed",
        seats=board.names, spectators=False, watchers=0, full=False,
        scoreboard=_scoreboard(row),
    )  # fmt: skip


def private_result(row: PrivateRow) -> PrivateResult:
    """One closed private table in a player's 战绩 (``GET /api/me/private``)."""
    return PrivateResult(
        code=row.code, game=row.game, rules=row.rules, stakes=row.stakes,
        base=row.base, hands=row.hands, closed_at=row.closed_at.isoformat(),
        scoreboard=_scoreboard(row),
    )  # fmt: skip


def _scoreboard(row: PrivateRow) -> Json:
    """The table's final scoreboard frame, as it was kept."""
    board: Json = json.loads(row.scoreboard_json)
    return board
