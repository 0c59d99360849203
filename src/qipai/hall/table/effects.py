"""What the live hall asks of the world for its tables: the closed union of
:data:`TableEffect`.

Part of :data:`~qipai.hall.effects.Effect`, asked by the tables in play
(:mod:`~qipai.hall.table.live`) and, for the hands a stopping hall leaves, by the core: a
hand's writes in the store (:class:`RecordHandStart`, :class:`SettleHand`,
:class:`VoidHand`), a bot's decision off the event loop (:class:`AskBot`), a table's lease
given back (:class:`Release`).  The world's answers come back as commands of
:mod:`~qipai.hall.table.commands` (``HandRecorded``, ``HandSettled``, ``StoreFailed``,
``BotDecided``).
"""

from __future__ import annotations

from dataclasses import dataclass

from qipai.hall.table.values import BotTurn, HandOutcome


@dataclass(frozen=True, slots=True)
class RecordHandStart:
    """Write the start of a hand before it is dealt (with the commitment of its seed);
    with several nodes the table's lease is taken first.  Answered by ``HandRecorded`` or
    ``StoreFailed``."""

    table: int
    hand: str
    room: str
    game: str
    rules: str
    commitment: str
    players: tuple[int | None, ...]
    bots: tuple[str | None, ...] = ()
    """The name each bot seat has at the table (``None`` at a person's seat; ``()``: not
    said), kept with the hand so that its replay names the bots as the table did."""


@dataclass(frozen=True, slots=True)
class SettleHand:
    """Settle the finished hand ``outcome`` in one transaction (void it, when the engine
    voided it) under the table's lease.  Answered by ``HandSettled`` or ``StoreFailed``."""

    table: int
    outcome: HandOutcome


@dataclass(frozen=True, slots=True)
class VoidHand:
    """Void ``hand`` (a hand recorded and never settled), again and again while the store
    does not answer: a hand is never left in play."""

    hand: str


@dataclass(frozen=True, slots=True)
class AskBot:
    """The bots' worker pool decides ``turn`` at ``table`` (``--bot-workers``); answered
    by ``BotDecided`` (or never: the table then plays the basic 托管 after its wait)."""

    table: int
    turn: BotTurn


@dataclass(frozen=True, slots=True)
class Release:
    """The table ``table`` is closed: its lease goes back (several nodes)."""

    table: int


TableEffect = RecordHandStart | SettleHand | VoidHand | AskBot | Release
"""Everything the live hall asks of the world for its tables."""
