"""What the live hall is told about its tables: the closed union of :data:`TableCommand`.

Part of :data:`~qipai.hall.commands.Command`, handled at the tables in play
(:mod:`~qipai.hall.table.live`, whichever place owns them): a seat's own commands
(:data:`SeatCommand`: :class:`Act`, :class:`Contribute`, :class:`Trustee`, :class:`Escape`)
and :class:`EscapeCost`; the world's answers to the table's effects
(:mod:`~qipai.hall.table.effects`): :class:`HandRecorded`, :class:`HandSettled`,
:class:`StoreFailed`, :class:`BotDecided`; and an operator's :class:`CloseTable`.
"""

from __future__ import annotations

from dataclasses import dataclass

from qipai.hall.table.values import BotTurn


@dataclass(frozen=True, slots=True)
class Act:
    """``user`` plays ``text`` at his table (``table``: the one his client names, if any)."""

    user: int
    text: str
    table: int | None = None


@dataclass(frozen=True, slots=True)
class Contribute:
    """``user``'s entropy ``value`` for ``hand`` at ``table``."""

    user: int
    table: int
    hand: str
    value: str


@dataclass(frozen=True, slots=True)
class Trustee:
    """托管 on or off for ``user``."""

    user: int
    on: bool


@dataclass(frozen=True, slots=True)
class Escape:
    """``user`` leaves his hand on purpose (逃跑), and the room once it is over."""

    user: int


@dataclass(frozen=True, slots=True)
class EscapeCost:
    """What leaving his hand now would cost ``user`` (answered in a
    :class:`~qipai.hall.effects.Reply`)."""

    user: int


@dataclass(frozen=True, slots=True)
class HandRecorded:
    """The start of ``hand`` at ``table`` is in the store: it may be dealt."""

    table: int
    hand: str


@dataclass(frozen=True, slots=True)
class HandSettled:
    """The settlement (or the void) of ``hand`` at ``table`` is in the store."""

    table: int
    hand: str


@dataclass(frozen=True, slots=True)
class StoreFailed:
    """The store (or the cluster's lease) refused or did not answer for ``hand`` at
    ``table``: ``code`` and ``message`` say why."""

    table: int
    hand: str
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class BotDecided:
    """The bots' worker pool decided ``turn`` at ``table``: ``action`` (answers
    :class:`~qipai.hall.table.effects.AskBot`)."""

    table: int
    turn: BotTurn
    action: object


@dataclass(frozen=True, slots=True)
class CloseTable:
    """An operator closes table ``table`` (the console): its hand voided as on a crash (no
    coin moves), its players told ``reason``."""

    table: int
    reason: str


SeatCommand = Act | Contribute | Trustee | Escape
"""A seat's own commands, each played at the table its sender sits at."""

TableCommand = (
    SeatCommand | EscapeCost | HandRecorded | HandSettled | StoreFailed | BotDecided | CloseTable
)
"""Everything the live hall is told about its tables."""
