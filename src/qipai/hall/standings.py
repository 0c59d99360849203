"""Ranking a match's players by score, with the platforms' tie rules (平分规则).

Players level on score are separated by:

1. 判定一 "最后一局胜者晋级": of two tied players who played their last hand *together*,
   the one who scored more in it ranks higher;
2. 判定二 "如果最后一局平分的两人之间无胜负关系（得到的分数一样），则按照报名顺序，
   先报名者晋级": otherwise (they did not meet in their last hand, or scored the same in
   it), the one who registered first ranks higher.

常规赛 and 锦标赛 apply both; a Swiss stage (瑞士移位) applies only the second.

Rule 1 compares only players who met, so it is not a total order by itself (A beat B in
their last hand, B registered before C, C before A).  The ranking is therefore built in
two steps, which always gives one order and honours both rules: the tied players are
sorted by registration (rule 2), then the places held by the players of each shared last
hand are given to those same players in the order of their points in it (rule 1).

>>> scores = {"a": 10, "b": 10, "c": 10, "d": 12}
>>> last = {"a": LastHand(7, -20), "b": LastHand(9, 0), "c": LastHand(7, 40)}
>>> numbers = {"a": 1, "b": 2, "c": 3, "d": 4}
>>> rank_players(["a", "b", "c", "d"], scores, numbers, last)
['d', 'c', 'b', 'a']
>>> rank_players(["a", "b", "c", "d"], scores, numbers, last, last_hand_rule=False)
['d', 'a', 'b', 'c']
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import groupby


@dataclass(frozen=True, slots=True)
class LastHand:
    """A player's last hand in the match: which, and the match points he made in it."""

    hand: int
    points: int


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
    :param last_hand_rule: whether 判定一 applies (not in a Swiss stage).
    """
    ordered = sorted(players, key=lambda p: (-scores[p], numbers[p]))
    if not last_hand_rule:
        return ordered
    ranked: list[str] = []
    for _, tied in groupby(ordered, key=lambda p: scores[p]):
        ranked += _by_last_hand(list(tied), numbers, last)
    return ranked


def _by_last_hand(
    tied: list[str], numbers: Mapping[str, int], last: Mapping[str, LastHand]
) -> list[str]:
    """``tied`` (in registration order) with the players of each shared last hand
    reordered among their own places by their points in it."""
    places: dict[int, list[int]] = defaultdict(list)
    for place, player in enumerate(tied):
        if player in last:
            places[last[player].hand].append(place)
    result = list(tied)
    for spots in places.values():
        members = [tied[spot] for spot in spots]
        members.sort(key=lambda p: (-last[p].points, numbers[p]))
        for spot, player in zip(spots, members, strict=True):
            result[spot] = player
    return result
