"""Ranking a match's players by score, with the platforms' tie rules (平分规则).

Players level on score are separated by:

1. 判定一 "最后一局胜者晋级": the winner of the last hand goes through;
2. 判定二 "如果最后一局平分的两人之间无胜负关系（得到的分数一样），则按照报名顺序，
   先报名者晋级": if the last hand did not separate them (they got the same in it), the
   one who registered first.

常规赛 and 锦标赛 apply both; a match whose final is Swiss (瑞士赛制) only the second.

**Reading across tables.**  Tied players need not have shared their last hand (a knockout
reseats after every hand; a fixed or Swiss stage plays at many tables).  Taken pairwise
("the winner of a hand both played, else registration") the two rules can go round in a
circle — a beat b in their last hand, b registered before c, c before a — so qipai reads
判定一 for each player alone, by what his own last hand gave him: the more match points he
made in it, the higher he ranks (+80 above +20, above one whom it left level or who has
played none, above −5, above −20).  判定二's own gloss of "无胜负关系" is "得到的分数一样":
only players who got exactly the same in their last hands are separated by registration
order.  That is one total order: the same for two players at one table (the hand's winner
first) and for any number of players from any tables.

>>> scores = {"a": 10, "b": 10, "c": 10, "d": 12}
>>> last = {"a": LastHand(7, -20), "b": LastHand(9, -5), "c": LastHand(7, 40)}
>>> numbers = {"a": 1, "b": 2, "c": 3, "d": 4}
>>> rank_players(["a", "b", "c", "d"], scores, numbers, last)
['d', 'c', 'b', 'a']
>>> rank_players(["a", "b", "c", "d"], scores, numbers, last, last_hand_rule=False)
['d', 'a', 'b', 'c']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LastHand:
    """A player's last hand in the match: which, and the match points he made in it."""

    hand: int
    points: int


def last_hand_points(last: LastHand | None) -> int:
    """What his own last hand gave a player, in match points (0: none played yet)."""
    return 0 if last is None else last.points


def rank_players(
    players: Iterable[str],
    scores: Mapping[str, int],
    numbers: Mapping[str, int],
    last: Mapping[str, LastHand],
    *,
    last_hand_rule: bool = True,
) -> list[str]:
    """``players`` best first: by score, then the tie rules (module docstring).

    :param numbers: each player's registration number (lower registered first).
    :param last: each player's last hand, where he has one.
    :param last_hand_rule: whether 判定一 applies (not in a match whose final is Swiss).
    """
    if not last_hand_rule:
        return sorted(players, key=lambda p: (-scores[p], numbers[p]))
    return sorted(players, key=lambda p: (-scores[p], -last_hand_points(last.get(p)), numbers[p]))
