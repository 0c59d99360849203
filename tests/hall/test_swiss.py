"""瑞士移位: each round seated by score with the fewest repeated meetings the field allows
(checked against every possible seating of small fields, over many seeds), and nearest
the ranking among those."""

from __future__ import annotations

import functools
import random
import textwrap
from collections.abc import Sequence
from itertools import combinations

import pytest

from qipai.hall.match.config import MatchConfig, load_matches
from qipai.hall.match.match import MatchRun
from qipai.hall.match.parts import Seating
from qipai.hall.match.swiss import swiss_tables

Pair = frozenset[str]


def swiss_match(players: int, rounds: int) -> MatchConfig:
    text = f"""
    [[match]]
    id = "s"
    name = "s"
    kind = "regular"
    game = "doudizhu"
    rules = "jj"
    players = {players}
    minimise = false
    [[match.stage]]
    kind = "swiss"
    rounds = {rounds}
    hands = 1
    """
    [match] = load_matches(textwrap.dedent(text))
    return match


def pairs(table: Sequence[str]) -> set[Pair]:
    return {frozenset(pair) for pair in combinations(table, 2)}


def repeats(tables: Sequence[Sequence[str]], met: set[Pair]) -> int:
    return sum(len(pairs(table) & met) for table in tables)


def fewest_repeats(players: Sequence[str], met: set[Pair]) -> int:
    """The least repeats of any way to seat ``players`` at tables of three: every seating
    is tried (as sets of players left to seat: each set once)."""

    @functools.cache
    def least(left: frozenset[str]) -> int:
        if not left:
            return 0
        head, *rest = sorted(left)
        return min(
            len(pairs((head, *partners)) & met) + least(left - {head, *partners})
            for partners in combinations(rest, 2)
        )

    return least(frozenset(players))


def random_points(seating: Seating, draw: random.Random) -> tuple[int, ...]:
    stake = draw.choice((1, 2, 4))
    winner = draw.randrange(3)
    return tuple(2 * stake if seat == winner else -stake for seat in range(3))


def play_rounds(players: int, rounds: int, seed: int) -> list[tuple[list[Seating], set[Pair]]]:
    """A Swiss stage played with random results: each round's tables and the pairs that
    had met before it."""
    run = MatchRun(swiss_match(players, rounds), "s#1", random.Random(seed))
    for number in range(1, players + 1):
        run.register(f"p{number}")
    run.start()
    draw = random.Random(seed)
    met: set[Pair] = set()
    played = []
    while not run.is_over:
        tables = run.seat()
        played.append((tables, set(met)))
        for seating in tables:
            run.finish_hand(seating.hand, random_points(seating, draw))
            met |= pairs(seating.players)
    return played


@pytest.mark.parametrize(("players", "rounds"), [(6, 4), (9, 5), (12, 5)])
def test_small_fields_repeat_no_more_than_every_possible_seating_must(
    players: int, rounds: int
) -> None:
    """Over 40 seeds, each round's repeats equal the least over all seatings."""
    for seed in range(40):
        for tables, met in play_rounds(players, rounds, seed):
            seated = [p for t in sorted(tables, key=lambda s: s.table) for p in t.players]
            assert repeats([t.players for t in tables], met) == fewest_repeats(seated, met)


@pytest.mark.parametrize(("players", "rounds"), [(15, 3), (30, 3), (30, 5), (60, 4)])
def test_larger_fields_never_meet_twice(players: int, rounds: int) -> None:
    """Where the field allows it (here always: few rounds for many players), no pair meets
    twice in the stage; over 60 seeds."""
    for seed in range(60):
        assert all(
            repeats([t.players for t in tables], met) == 0
            for tables, met in play_rounds(players, rounds, seed)
        )


def test_each_round_is_seated_by_score() -> None:
    """The best-ranked player heads the first table; with no meeting to avoid the tables
    are the ranking's threes."""
    order = [f"p{n}" for n in range(1, 10)]
    assert swiss_tables(order, set(), 3) == [tuple(order[i : i + 3]) for i in (0, 3, 6)]
    met = pairs(order[0:3]) | pairs(order[3:6]) | pairs(order[6:9])
    tables = swiss_tables(order, met, 3)
    assert tables[0] == ("p1", "p4", "p7") and repeats(tables, met) == 0
