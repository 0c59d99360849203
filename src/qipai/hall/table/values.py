"""The values a table (:mod:`qipai.hall.table.table`) takes and gives: the terms its hands are
played by, who sits where, a frame for a seat, a decision asked of a bot's policy, and a
finished hand's outcome."""

from __future__ import annotations

from dataclasses import dataclass, field

from qipai.hall.coins import Settlement
from qipai.hall.frames import OutFrame
from qipai.hall.records import HandRecord
from qipai.hall.seeds import Entropy
from qipai.jsontypes import Json
from qipai.registry import GameRules, Payout

BOT_POLICY = "bot"
""":attr:`BotTurn.policy` of a bot's seat (the game's :attr:`~qipai.registry.GameType.bot`)."""


@dataclass(frozen=True, slots=True)
class HandTerms:
    """What a table's hands are played by: the rule set, and how a hand settles."""

    rules: GameRules
    """The game's rule set (the room's numbers applied, or a match's rule changes)."""
    payout: Payout
    """How a hand's points become coins (a match's: points only)."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat."""

    player: str | None
    """The player's id, or ``None`` for a bot."""
    name: str
    """The name shown at the table."""
    balance: int
    """Coins held before the next hand (updated by the table after each hand)."""

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this seat."""
        return self.player is None


@dataclass(frozen=True, slots=True)
class Outbound:
    """One frame for one seat (the caller maps the seat to its player's connections)."""

    seat: int
    """The recipient seat (always a human's)."""
    frame: OutFrame
    """The message (``docs/hall.md``, "Tables"); read-only (frames may share their nested
    values)."""


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A decision the table needs from a bot's policy
    (:meth:`~qipai.hall.table.table.Table.bot_turn`): the position it is for and what the policy
    reads.  Hand it to whoever decides (a worker process, ``server/run/bots.py``) and give the
    answer back with :meth:`~qipai.hall.table.table.Table.decided`."""

    hand: str
    """The hand's id."""
    position: int
    """The table's position number when asked (it moves with every change of the hand or
    of a seat's 托管): an answer counts only while the table is still there."""
    seat: int
    """The seat to decide for."""
    policy: str
    """Whose decision: :data:`BOT_POLICY` for a bot's seat, else the room's 托管 style of
    a seat in 托管."""
    due: float
    """When the table plays it (a bot's or 托管 seat's move time)."""
    game: str
    """The game's name in the registry."""
    view: object = field(compare=False)
    """The seat's view of the hand (``state.view(seat)``): all a policy reads."""


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """A finished (or voided) hand: what the ledger and the history need."""

    hand_id: str
    """The caller's id of the hand."""
    room_id: str
    """The room's id."""
    game: str
    """The game's name in the registry."""
    rules: str
    """The preset's name."""
    seats: tuple[str | None, ...]
    """Each seat's player id (``None`` = a bot)."""
    seed: int
    """The hand's house seed, revealed now."""
    commitment: str
    """The commitment published before the hand (of :attr:`seed`)."""
    record: HandRecord | None
    """The replayable record (:func:`~qipai.hall.records.record_hand`); ``None`` for a
    voided hand, or a room whose numbers differ from its preset's (records replay presets)."""
    settlement: Settlement
    """Coins per seat (:func:`~qipai.hall.coins.settle`); all zero when voided."""
    winners: tuple[int, ...]
    """The seats that won (none after an escape that ends the hand, or a void)."""
    escaper: int | None
    """The seat that escaped, if any (where the preset has no escape of its own the hand
    then went on with that seat in 托管)."""
    balances: tuple[int, ...]
    """Each seat's coins before the hand."""
    voided: bool = False
    """The hand was abandoned (too many redeals:
    :meth:`~qipai.registry.GameType.is_stalled`): no result."""
    entropy: Entropy = ()
    """Each seat's contribution mixed into the seed (lowercase hex or ``None``); empty for
    a hand dealt straight from its seed (a table without an entropy window)."""
    roles: tuple[str | None, ...] = ()
    """Each seat's role (:meth:`~qipai.registry.GameType.roles`); empty for a voided hand."""
    feats: tuple[frozenset[str], ...] = ()
    """What each seat did (:meth:`~qipai.registry.GameType.feats`, counted by the
    每日任务); empty for a voided hand."""
    shown: dict[str, Json] = field(default_factory=dict)
    """What the end of the hand shows every seat (JSON): ``cards``, every seat's cards
    (:meth:`~qipai.registry.GameType.reveal`: no secret once the seed is revealed), and
    ``explain``, why the points are what they are
    (:meth:`~qipai.registry.GameType.explain`); empty for a voided hand."""
