"""Dou Dizhu points: the pairwise landlord–farmer model, for every rule set.

The state machine records what happened in a :class:`HandFacts`; :func:`score_hand` turns
it into points per seat and :func:`escape_points` prices an escape.  Points are exact
integers; turning them into coins (room coefficient, rake, fees) is settlement, in the hall.
"""

from __future__ import annotations

from dataclasses import dataclass

from qipai.games.doudizhu.rules import Rules


@dataclass(frozen=True, slots=True)
class HandFacts:
    """Everything scoring needs to know about one hand (three seats, 0-2)."""

    rules: Rules
    """The rule set the hand was played under."""
    landlord: int
    """The landlord's seat."""
    base: int
    """底分: the winning bid (points presets) or the room's base (call / rob presets)."""
    winner: int | None = None
    """The seat that went out first; ``None`` while the hand is unfinished (escapes)."""
    robs: tuple[tuple[int, int], ...] = ()
    """Each rob as (robber, robbed): call / rob presets count them for the whole hand;
    yifa doubles only the pair of the two players (``rob_by_outbid``)."""
    shows: tuple[int, ...] = (1, 1, 1)
    """明牌 factor of each seat's showing (1 = did not show); combined per ``show_combine``."""
    doubled: tuple[bool, ...] = (False, False, False)
    """Whether each seat chose 加倍 (yifa: 加倍 or 跟加倍)."""
    bombs: int = 0
    """Four-card bombs played (wildcard-made ones included)."""
    rockets: int = 0
    """Rockets played."""
    wild_bombs: int = 0
    """Five-card 财神 bombs played."""
    spring: bool = False
    """春天."""
    anti_spring: bool = False
    """反春."""
    bottom: str = ""
    """The bottom cards in rank notation (jj bottom-card bonus)."""
    trustee: tuple[bool, ...] = (False, False, False)
    """Seats in 托管 when the hand ended (jj liability)."""
    trustee_last_card: tuple[bool, ...] = (False, False, False)
    """Seats that entered 托管 with one card left (jj: scored normally)."""
    bombs_in_hand: tuple[int, ...] = (0, 0, 0)
    """Bombs and rockets still in each seat's hand (huanle escape: they count as played)."""


def score_hand(facts: HandFacts) -> tuple[int, ...]:
    """Points per seat of a finished hand; they sum to zero."""
    raise NotImplementedError


def escape_points(facts: HandFacts, escaper: int) -> tuple[int, ...]:
    """Points per seat when ``escaper`` leaves the unfinished hand described by ``facts``."""
    raise NotImplementedError
