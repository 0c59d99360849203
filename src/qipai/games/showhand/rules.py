"""Showhand 梭哈 rule sets: frozen data, one preset by name, custom ones derived from it.

Every number of ``docs/rules/showhand.md`` (the 易发 page's room example: base 1,
ante 2, cap 100) is a named field of :class:`Rules`; a custom room is the preset with
some fields replaced (:meth:`Rules.derive`).  Amounts are chips; the per-round limits,
the fixed late bet and the cap are multiples of :attr:`Rules.base`.

>>> rules = RULES["yifa"]
>>> rules.round_limit(1), rules.round_limit(3), rules.late_bet, rules.cap, rules.min_stack
(5, 20, 20, 100, 100)
>>> rules.round_limit(7)
20
>>> big = rules.derive("yifa-10", base=10)
>>> big.round_limit(2), big.cap, big.ante
(100, 1000, 2)
>>> get_rules("nope")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: unknown_rules: unknown Showhand rule set 'nope'; known: yifa
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from qipai.errors import InvalidActionError
from qipai.games.presets import derive_rules, lookup

ENGINE_VERSION = 2
"""The version of this engine's replays, written in every hand record (``engine``): 1 was
the engine of ``qipai-hand/1`` records (chance ``v1`` only); 2 deals with chance ``v2``
(:mod:`qipai.chance`).  Raise it whenever a change makes an old record replay differently."""

MIN_PLAYERS = 2
"""Fewest players at a Showhand table."""
MAX_PLAYERS = 4
"""Most players at a Showhand table (28 cards, 5 each)."""
RANKS = "89TJQKA"
"""The seven ranks of the 28-card deck, low to high."""
CARDS_PER_PLAYER = 5
"""A hole card and four up cards."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One Showhand rule set.  Get the preset with :func:`get_rules`; all fields keyword-only."""

    name: str
    """The rule set's name (``yifa`` or a custom name)."""
    base: int = 1
    """底分: the unit of every limit below."""
    ante: int = 2
    """锅底: chips each player puts into the pot before the deal (not a multiple of base)."""
    round_limits: tuple[int, ...] = (5, 10, 20)
    """Rounds 1, 2, 3: the most (× base) one player may bet in that round (raise-to)."""
    late_bet_units: int = 20
    """Round 4 and the extra rounds: the only bet size (× base) besides 梭."""
    cap_units: int = 100
    """上限: the most (× base) one player may bet in one hand (the ante not counted)."""
    min_stack_units: int = 100
    """Chips (× base) a player needs to sit, and to stay seated after a hand."""
    show_hand_from_round: int = 2
    """梭 is allowed from this betting round on (round 2 follows card 3)."""
    open_from_round: int = 4
    """开: from this round on, the best up cards may open as the round's first action."""
    swap_cards: tuple[int, ...] = (3, 4)
    """Cards dealt face down with the 换牌 choice (card numbers 1-5)."""
    flush_beats_full_house: bool = False
    """The other order: a flush (rarer in 28 cards) beats a full house; the page's default
    ranks the full house higher.  Passed to the hands module."""

    def derive(self, name: str, **changes: object) -> Rules:
        """A custom rule set: this one with ``changes`` applied and a new ``name``.

        :raises InvalidActionError: ``bad_rules`` if a change names no field or a value is
            out of range.
        """
        rules = derive_rules(self, name, changes)
        rules.validate()
        return rules

    def validate(self) -> None:
        """Refuse a rule set the state machine cannot run.

        :raises InvalidActionError: ``bad_rules``.
        """
        problems = []
        if self.base < 1 or self.ante < 0:
            problems.append("base >= 1 and ante >= 0")
        if not self.round_limits or min(self.round_limits) < 1 or self.late_bet_units < 1:
            problems.append("limits >= 1")
        if self.cap_units < 1:
            problems.append("cap >= 1")
        if not set(self.swap_cards) <= {3, 4, 5}:
            problems.append("swap cards among 3, 4, 5")
        if problems:
            raise InvalidActionError("bad_rules", "; ".join(problems))

    def round_limit(self, round_number: int) -> int:
        """Chips one player may bet in betting round ``round_number`` (1 = after 2 cards).

        Rounds past :attr:`round_limits` use the late bet size (a fixed bet, see
        :meth:`is_fixed_round`).
        """
        if round_number <= len(self.round_limits):
            return self.round_limits[round_number - 1] * self.base
        return self.late_bet

    def is_fixed_round(self, round_number: int) -> bool:
        """Whether the only bet is :attr:`late_bet` (round 4 and the extra rounds)."""
        return round_number > len(self.round_limits)

    def is_extra_round(self, round_number: int) -> bool:
        """Whether ``round_number`` is an extra round after round 4 (no check there)."""
        return round_number > len(self.round_limits) + 1

    @property
    def late_bet(self) -> int:
        """The fixed bet of round 4 and the extra rounds, in chips (20 × base)."""
        return self.late_bet_units * self.base

    @property
    def cap(self) -> int:
        """The most one player may bet in one hand, in chips (100 × base)."""
        return self.cap_units * self.base

    @property
    def min_stack(self) -> int:
        """Chips needed to sit and to stay seated (100 × base)."""
        return self.min_stack_units * self.base


_YIFA = Rules(name="yifa")

RULES: Mapping[str, Rules] = MappingProxyType({_YIFA.name: _YIFA})
"""The presets by name (the 易发 page: ``yifa``)."""


def get_rules(rules: str | Rules) -> Rules:
    """The preset named ``rules``, or ``rules`` itself if it is already a :class:`Rules`.

    :raises InvalidActionError: ``unknown_rules`` for an unknown name.
    """
    return lookup(RULES, rules, "Showhand")
