"""Player levels 玩家等级 (the platforms' title table), by hands won.

Each title is reached at a number of wins (包身工 at 100 … 帝王 at 100,000).  Below 100
wins a player has no title of the table yet: he is :data:`NEWCOMER` 新手, rank 0 (the
page is silent; ``docs/rules/hall.md`` reads it as "新手").

>>> level_for(0)
Level(title='新手', rank=0, wins=0, next_wins=100)
>>> level_for(150).title, level_for(150).rank, level_for(150).next_wins
('包身工', 1, 200)
>>> level_for(10**6).title, level_for(10**6).next_wins
('帝王', None)
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from qipai.errors import InvalidActionError

NEWCOMER = "新手"
"""The title of a player with fewer wins than the first title needs."""

TITLES: tuple[tuple[str, int], ...] = (
    ("包身工", 100), ("短工", 200), ("长工", 300), ("佃户", 500), ("贫农", 600),
    ("渔夫", 800), ("猎人", 900), ("中农", 1000), ("富农", 1500), ("掌柜", 2000),
    ("商人", 3000), ("衙役", 5000), ("小财主", 6000), ("大财主", 8000), ("小地主", 9000),
    ("大地主", 10000), ("知县", 20000), ("通判", 30000), ("知府", 50000), ("总督", 60000),
    ("巡抚", 80000), ("丞相", 90000), ("帝王", 100000),
)  # fmt: skip
"""The page's table: each title and the hands won needed to reach it, lowest first."""

_THRESHOLDS = tuple(wins for _, wins in TITLES)


@dataclass(frozen=True, slots=True)
class Level:
    """A player's level."""

    title: str
    """The title (:data:`NEWCOMER` below the first one)."""
    rank: int
    """0 for :data:`NEWCOMER`, then 1 (包身工) to ``len(TITLES)`` (帝王)."""
    wins: int
    """The hands won needed to reach this level (0 for :data:`NEWCOMER`)."""
    next_wins: int | None
    """The hands won needed to reach the next level; ``None`` at the top."""

    def wins_to_next(self, wins: int) -> int | None:
        """How many more wins a player with ``wins`` needs for the next level."""
        return None if self.next_wins is None else max(0, self.next_wins - wins)


def level_for(wins: int) -> Level:
    """The level of a player who has won ``wins`` hands.

    :raises InvalidActionError: ``bad_wins`` for a negative count.
    """
    if wins < 0:
        raise InvalidActionError("bad_wins", f"a count of wins cannot be negative: {wins}")
    rank = bisect_right(_THRESHOLDS, wins)
    title, reached = TITLES[rank - 1] if rank else (NEWCOMER, 0)
    following = _THRESHOLDS[rank] if rank < len(TITLES) else None
    return Level(title=title, rank=rank, wins=reached, next_wins=following)
