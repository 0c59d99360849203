"""An open private table 好友房 as it is kept in the store, so that it can be opened again
(:meth:`~qipai.hall.private.tables.PrivateTables.restore`) by the node that takes over the one
it was open on, or by its own node started again.

What is kept is what outlives a hand: the code, the owner, the options, who sits where
(and their names), who played there, the hands played and the 总成绩 rows, and whether
its owner was closing it.  What is not: the hand in play (voided, as every hand of a node
lost: its stakes back), who was ready (everyone says 准备 again), the bots (drawn again at
the next deal), the people's coins (read again when it is restored).
"""

from __future__ import annotations

import msgspec

from qipai.hall import frames
from qipai.hall.players import Player
from qipai.hall.private.options import PrivateOptions
from qipai.hall.private.state import FriendsTable

VERSION = 1
"""The kept form's version (a form this code does not know is not restored)."""


class SavedPrivate(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One open private table as kept."""

    code: str
    owner: int
    options: PrivateOptions
    seats: list[int | None]
    """The person at each seat (``None``: free)."""
    names: dict[int, str]
    """Each seated person's name."""
    members: list[int]
    """Everyone who played a hand there, in order."""
    played: int
    board_names: list[str]
    """The 总成绩's name at each seat (of its last hand)."""
    rows: list[frames.ScoreRow]
    closing: bool = False
    version: int = VERSION


def saved_of(table: FriendsTable, players: dict[int, Player]) -> SavedPrivate:
    """``table`` as it is kept."""
    names = {user: players[user].name for _, user in table.people()}
    return SavedPrivate(
        code=table.code, owner=table.owner, options=table.options, seats=list(table.seats),
        names=names, members=list(table.members), played=table.played,
        board_names=list(table.sheet.names), rows=list(table.sheet.rows), closing=table.closing,
    )  # fmt: skip


def encode_saved(saved: SavedPrivate) -> str:
    """The kept form as JSON text."""
    return msgspec.json.encode(saved).decode("utf-8")


def decode_saved(text: str) -> SavedPrivate:
    """The kept form read back.

    :raises ValueError: not one (:class:`msgspec.ValidationError`), or of another version.
    """
    saved = msgspec.json.decode(text, type=SavedPrivate)
    if saved.version != VERSION:
        raise ValueError(f"a saved private table of version {saved.version}")
    return saved
