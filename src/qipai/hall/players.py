"""The live hall's record of each player it holds: where he is, and what he asked."""

from __future__ import annotations

from dataclasses import dataclass, field

from qipai.hall.chat import ChatLimit


@dataclass(eq=False)
class Player:
    """A signed-in player as the hall knows him."""

    user: int
    name: str
    room: str | None = None
    """The room he waits or plays in (a cash room), if any."""
    private: str | None = None
    """The code of the private table he holds a seat at (:mod:`~qipai.hall.private.tables`),
    if any."""
    table: int | None = None
    """The number of the table he sits at (a cash room's or a match's), if any."""
    leaving: bool = False
    """He leaves the room once his hand is over."""
    one_hand: bool = False
    """Joined for one hand (``join`` with ``once``, in a room that regroups): out of the
    room after it, as if he had asked to leave, but with no escape before its start."""
    connected: bool = True
    """Whether he has a connection open (``Presence``)."""
    chat: ChatLimit = field(default_factory=ChatLimit)
    """His quick-chat allowance."""
    watch_by_name: bool | None = None
    """Whether others may watch his table by his name (``spectate`` with ``player``), as
    he chose (``watch_by_name``); ``None``: the default (:attr:`watchable_by_name`)."""

    @property
    def watchable_by_name(self) -> bool:
        """Whether others may watch his table by his name now: as he chose, else yes at a
        cash room's or a match's table and no at a private table (only its code lets
        people watch it)."""
        if self.watch_by_name is not None:
            return self.watch_by_name
        return self.private is None

    @property
    def pid(self) -> str:
        """His id in a room's queue (:mod:`qipai.hall.cash.matchmaking`)."""
        return str(self.user)
