"""Levels: the yifa title table and its boundaries."""

from __future__ import annotations

import pytest

from qipai.errors import InvalidActionError
from qipai.hall.levels import NEWCOMER, TITLES, Level, level_for


def test_the_table_is_the_seeds() -> None:
    assert len(TITLES) == 23
    assert TITLES[0] == ("包身工", 100) and TITLES[-1] == ("帝王", 100000)
    wins = [needed for _, needed in TITLES]
    assert wins == sorted(set(wins))


@pytest.mark.parametrize("rank", range(1, len(TITLES) + 1))
def test_each_title_starts_exactly_at_its_wins(rank: int) -> None:
    title, needed = TITLES[rank - 1]
    below = level_for(needed - 1)
    at = level_for(needed)
    assert (at.title, at.rank, at.wins) == (title, rank, needed)
    assert below.rank == rank - 1 and below.next_wins == needed
    assert below.wins_to_next(needed - 1) == 1


def test_below_the_first_title_a_player_is_a_newcomer() -> None:
    assert level_for(0) == Level(NEWCOMER, 0, 0, 100)
    assert level_for(99).title == NEWCOMER
    assert level_for(0).wins_to_next(0) == 100


def test_the_top_title_has_no_next() -> None:
    top = level_for(10**9)
    assert (top.title, top.rank, top.next_wins) == ("帝王", 23, None)
    assert top.wins_to_next(10**9) is None
    assert level_for(99999).next_wins == 100000


def test_negative_wins_are_refused() -> None:
    with pytest.raises(InvalidActionError) as caught:
        level_for(-1)
    assert caught.value.code == "bad_wins"
