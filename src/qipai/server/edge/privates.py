"""Private tables 好友房 at the edge: the two messages that take a place at one (the other
private messages are plain commands: :func:`~qipai.server.edge.links.command_of`), and
``GET /api/private/{code}`` answered here.

Creating or joining takes the player's place as joining a room does
(:meth:`~qipai.server.run.hall.HallService.take_place`: under his lock, a match
registration refused, his claim taken in the cluster), his coins read first.  A
``table_full`` refusal says whether the table may be watched instead (``watch``).  The
limits on trying codes (``private_join``, ``GET /api/private/{code}``) are the
:class:`~qipai.server.edge.limits.Gate`'s.
"""

from __future__ import annotations

import json

import msgspec
from msgspec import UNSET

from qipai.errors import IllegalActionError
from qipai.hall import commands as c
from qipai.hall import frames
from qipai.hall.frames import OutFrame, to_json
from qipai.hall.private.options import PrivateOptions, stake_of
from qipai.hall.private.state import FriendsTable
from qipai.hall.private.tables import TableFullError
from qipai.jsontypes import Json
from qipai.server.api.answers import PrivateInfo, PrivateResult
from qipai.server.api.protocol import PrivateCreate, PrivateJoin
from qipai.server.run.hall import HallService, Player
from qipai.server.run.privatenodes import reserve_code
from qipai.store.privates import PrivateRow


async def create_private(hall: HallService, player: Player, message: PrivateCreate) -> None:
    """Open a private table for ``player`` with the options ``message`` names (its code
    the hall's own, reserved in the cluster on a node of several), his place taken.

    :raises GameError: the hall's refusal (``in_match``, ``not_enough_coins``…).
    """
    chosen = msgspec.structs.asdict(message)
    del chosen["id"]
    options = PrivateOptions(**chosen)  # the message's fields are the options
    code = await reserve_code(hall)
    try:
        user = player.user
        await hall.take_place(player, lambda coins: c.CreatePrivate(user, options, coins, code))
    finally:
        if code is not None and hall.cluster is not None:
            hall.cluster.unreserve(code)


async def join_private(hall: HallService, player: Player, message: PrivateJoin) -> OutFrame | None:
    """Seat ``player`` at the private table of ``message.code``, his place taken; a full
    table is answered with an ``error`` frame saying whether it may be watched instead
    (``watch``).

    :raises GameError: the hall's other refusals (``unknown_code``, ``in_match``…).
    """
    user, code = player.user, message.code
    try:
        await hall.take_place(player, lambda coins: c.JoinPrivate(user, code, coins))
    except TableFullError as error:
        watch = True if error.watch else UNSET
        return frames.Error(code=error.code, message=error.message, id=message.id, watch=watch)
    return None


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
