"""Zha Jin Hua rule sets: frozen data, the ``yifa`` preset, custom ones derived from it.

Every number of a room (ante 锅底, base bet, stake levels, top bet 顶注, cap 封顶) and every
reading of the rules (``docs/zhajinhua.md``) is a named field of :class:`Rules`; the
state machine (:mod:`.state`) only reads them.  The 易发 page gives no numbers (they are the
room's), so the preset's numbers are sensible defaults a room overrides with
:meth:`Rules.derive`.  The house's rake 抽水 is no rule of the hand: the hand's returns are
zero-sum chips, and the hall takes the room's ``rake_percent`` (:mod:`qipai.hall.coins`).

>>> RULES["yifa"].cap, RULES["yifa"].seen_factor
(200, 2)
>>> small = RULES["yifa"].derive("small", top_bet=5, cap=50)
>>> small.raise_levels(1)
(2, 5)
>>> RULES["yifa"].derive("bad", top_bet=0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: bad_rules: ...
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from qipai.errors import InvalidActionError
from qipai.games.presets import derive_rules, lookup

ENGINE_VERSION = 3
"""The version of this engine's replays, written in every hand record (``engine``): 1 was
the engine of ``qipai-hand/1`` records (chance ``v1`` only); 2 deals with chance ``v2``
(:mod:`qipai.chance`); 3 no longer rakes the winner (its returns are zero-sum chips, the
hall's :mod:`qipai.hall.coins` takes the room's rake).  Raise it whenever a change makes an
old record replay differently."""
LAST_RAKING_ENGINE = 2
"""The last engine version that raked the winner inside the hand: the ``result`` of its
records is the returns after :data:`LEGACY_RAKE_PERCENT` (``replay(..., engine=2)``)."""
LEGACY_RAKE_PERCENT: Mapping[str, int] = MappingProxyType({"yifa": 5})
"""抽水 of the engines up to :data:`LAST_RAKING_ENGINE`, by preset: that percent of the
winner's profit (the pot less his own contributions), rounded down, was kept back from his
returns.  Read only to replay their records; the hall's rake is the room's
``rake_percent``."""


class DealerRule(enum.Enum):
    """Who deals the next hand at a table that stays together (:attr:`.State.next_dealer`).

    A table's first hand — every hand of a hall that regroups its tables after each hand —
    has its dealer drawn from the hand's seed ("第一次开局的话，随机选择一个用户为庄家").
    """

    WINNER = "winner"
    """**Reading** (the default): the previous hand's winner."""
    ROTATE = "rotate"
    """The seat after the previous dealer (a common alternative)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One Zha Jin Hua rule set.  Use :func:`get_rules`; all fields are keyword-only."""

    name: str
    """The rule set's name."""
    min_players: int = 2
    """Fewest players at a table."""
    max_players: int = 6
    """Most players at a table."""
    ante: int = 1
    """锅底: what every player puts into the pot before the deal."""
    base_bet: int = 1
    """The stake 单注 every hand starts at."""
    stake_levels: tuple[int, ...] = (1, 2, 5, 10)
    """The stakes a raise may go to (the room's chips), ascending."""
    top_bet: int = 10
    """顶注: the stake 单注 may never exceed it (a raise above it is refused)."""
    cap: int = 200
    """封顶: when one player's total put into the pot reaches it, all hands are opened."""
    clip_to_cap: bool = True
    """A payment that would take a player's total past :attr:`cap` is cut to reach it
    exactly (so a stack of ``cap`` always suffices, the minimum to sit); ``False``: full
    payments, the total may overshoot the cap."""
    blind_factor: int = 1
    """A blind 暗牌 player's call costs this many stakes."""
    seen_factor: int = 2
    """**Reading:** a seen 明牌 player's call costs this many stakes."""
    compare_factor: int = 2
    """比牌 costs this many times what a call would cost the initiator."""
    compare_from_round: int = 2
    """The betting round (the initiator's own turn number) from which 比牌 is allowed."""
    auto_call: bool = True
    """自动跟注 (跟到底) may be switched on and off."""
    dealer_rule: DealerRule = DealerRule.WINNER
    """Who deals the next hand."""

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise InvalidActionError("bad_rules", "; ".join(problems))

    def derive(self, name: str, **changes: object) -> Rules:
        """A custom rule set: this one with ``changes`` applied and a new ``name``.

        :raises InvalidActionError: ``bad_rules`` for an unknown field or bad numbers.
        """
        return derive_rules(self, name, changes)

    def raise_levels(self, stake: int) -> tuple[int, ...]:
        """The stakes a raise from ``stake`` may go to (higher levels up to the top bet)."""
        return tuple(level for level in self.stake_levels if stake < level <= self.top_bet)

    def call_factor(self, seen: bool) -> int:
        """Stakes a call costs a blind (``False``) or seen (``True``) player."""
        return self.seen_factor if seen else self.blind_factor


def _problems(rules: Rules) -> list[str]:
    problems = []
    if not 2 <= rules.min_players <= rules.max_players <= 6:
        problems.append("players must satisfy 2 <= min_players <= max_players <= 6")
    if min(rules.ante, rules.base_bet, rules.blind_factor, rules.seen_factor) < 1:
        problems.append("ante, base bet and factors must be >= 1")
    if rules.compare_factor < 1 or rules.compare_from_round < 1:
        problems.append("compare factor and round must be >= 1")
    if not rules.base_bet <= rules.top_bet:
        problems.append("the base bet may not exceed the top bet")
    if list(rules.stake_levels) != sorted(set(rules.stake_levels)) or not rules.stake_levels:
        problems.append("stake levels must be strictly ascending")
    if rules.cap <= rules.ante:
        problems.append("the cap must exceed the ante")
    return problems


_YIFA = Rules(name="yifa")

RULES: Mapping[str, Rules] = MappingProxyType({_YIFA.name: _YIFA})
"""The presets by name (only ``yifa``: the one seed that has Zha Jin Hua)."""


def get_rules(rules: str | Rules) -> Rules:
    """The preset named ``rules``, or ``rules`` itself if it is already a :class:`Rules`.

    :raises InvalidActionError: ``unknown_rules`` for an unknown name.
    """
    return lookup(RULES, rules, "Zha Jin Hua")
