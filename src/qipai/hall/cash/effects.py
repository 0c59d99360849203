"""What the live hall asks of the world for its cash rooms: the closed union of
:data:`CashEffect`.

Part of :data:`~qipai.hall.effects.Effect`, asked by the cash rooms
(:mod:`~qipai.hall.cash.rooms`): the coins of a seating read before its table opens, answered
by a command of :mod:`~qipai.hall.cash.commands` (``BalancesRead`` or ``SeatingFailed``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ReadBalances:
    """Read each seat's coins of seating ``seating`` (``None``: a bot, 0).  Answered by
    ``BalancesRead`` or ``SeatingFailed``."""

    seating: int
    users: tuple[int | None, ...]


CashEffect = ReadBalances
"""Everything the live hall asks of the world for its cash rooms (one effect, so far)."""
