"""What the live hall is told about its cash rooms: the closed union of :data:`CashCommand`.

Part of :data:`~qipai.hall.commands.Command`, handled by the cash rooms
(:mod:`~qipai.hall.cash.rooms`): a person queues (:class:`Join`, his balance read from the
store just before), a matchmaking pass (:class:`Matchmake`), and the store's answers to
:class:`~qipai.hall.cash.effects.ReadBalances` (:class:`BalancesRead`,
:class:`SeatingFailed`).  Leaving is the hall's :class:`~qipai.hall.commands.Leave`: it
leaves a private table too.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Join:
    """``user`` queues in ``room`` holding ``balance`` coins (read from the store just
    before); ``once``: for one hand, in a room that regroups."""

    user: int
    room: str
    balance: int
    once: bool = False


@dataclass(frozen=True, slots=True)
class Matchmake:
    """Seat whoever can be seated now in ``rooms`` (the rooms this process owns)."""

    rooms: frozenset[str]


@dataclass(frozen=True, slots=True)
class BalancesRead:
    """The coins of each seat of seating ``seating`` (0 for a bot), read from the store
    (answers :class:`~qipai.hall.cash.effects.ReadBalances`)."""

    seating: int
    balances: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatingFailed:
    """The balances of seating ``seating`` could not be read (the store does not answer)."""

    seating: int
    message: str


CashCommand = Join | Matchmake | BalancesRead | SeatingFailed
"""Everything the live hall is told about its cash rooms."""
