"""The hand a table has started (:class:`~qipai.hall.table.table.Table`): how it was set up,
the entropy it waits for, its engine state once dealt, and how it ended early.

A :class:`TableHand` is owned by its table, which starts a new one with each hand
(:meth:`~qipai.hall.table.table.Table.start_hand`); the table's parts read it and the changes
of :mod:`qipai.hall.table.moves` write it.

Its engine state is a :data:`HandState`: the table plays its room's game, found by name at
run time, so the hall knows no game's own action and view types; it passes actions on to
the engine (which checks them) and views out, as objects.  A table generic over its hand
(``Table[StateT]``) would need its room, and everything in the hall that holds a table,
generic too, and would check nothing more: no code in the hall knows a game statically.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TypeAlias

from qipai.hall.seeds import deal_seed
from qipai.registry import GameState, HandSetup

HandState: TypeAlias = GameState[object, object]
"""A hand of the table's game as the hall sees it: the actions it gives the engine and the
views it takes out are objects (a game's ``State`` takes its own actions only, and checks
each one; it comes from the room's game, found by name, whose ``new_hand`` leaves its type
open)."""

Setup: TypeAlias = HandSetup[HandState]
"""What a hand of the table's game is dealt from."""


@dataclass(slots=True)
class TableHand:
    """The hand a table has started (before its first hand: an empty one)."""

    entropy: list[str | None]
    """Each seat's entropy contribution so far (``None``: none yet)."""
    setup: Setup = field(default_factory=lambda: HandSetup(0, ()))
    """What the hand is dealt from (the seed without entropy; the previous hand is let go
    once it is dealt)."""
    seed: int = 0
    """The house seed the hand started from."""
    balances: tuple[int, ...] = ()
    """Each seat's coins when the hand started."""
    window_end: float | None = None
    """When the entropy window ends, while the hand waits for it (``None``: not waiting)."""
    state: HandState | None = None
    """The live engine state once the hand is dealt (``None`` before; :attr:`dealt_state`
    where it is known to be dealt)."""
    voided: bool = False
    """Whether the engine found the hand stalled: it ends, settled at nothing."""
    escaper: int | None = None
    """The seat that left the hand on purpose (逃跑), if any."""

    @property
    def playing(self) -> bool:
        """Whether the hand is dealt and being played."""
        state = self.state
        return state is not None and not state.is_terminal and not self.voided

    @property
    def dealt_state(self) -> HandState:
        """:attr:`state` where the hand is known to be dealt (the table's parts read it
        only once it is: after :attr:`playing`, or once the hand is over).

        :raises RuntimeError: the hand is not dealt (a part of the table that reads it
            then is wrong).
        """
        state = self.state
        if state is None:
            raise RuntimeError("the hand is not dealt: it has no engine state")
        return state

    @property
    def collecting(self) -> bool:
        """Whether the hand waits for its players' entropy (not dealt yet)."""
        return self.window_end is not None

    def deal_setup(self) -> Setup:
        """What the hand is dealt from: its setup, with the house seed mixed with the
        contributions in (:func:`~qipai.hall.seeds.deal_seed`)."""
        return dataclasses.replace(self.setup, seed=deal_seed(self.seed, self.entropy))

    def dealt(self, state: HandState) -> None:
        """The hand is dealt as ``state``: the entropy window closes, and the previous
        hand the setup held is let go."""
        self.state, self.window_end = state, None
        self.setup = dataclasses.replace(self.setup, previous=None)
