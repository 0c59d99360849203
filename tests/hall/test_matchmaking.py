"""Matchmaking and regrouping: the matcher against a brute force over seeded random queues.

The claim checked (``docs/hall.md``): ``plan_tables`` seats ``n // k`` tables; whenever some
choice of them seats no two conflicting players together, it returns such a choice, and
among those the one whose left-out players are the worst ranked.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations

import pytest

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.hall.cash.matchmaking import Lobby, MatchedTable, Seating, Waiting, plan_tables

Conflicts = Mapping[str, set[str]]


# --- the brute force ---------------------------------------------------------------------


def partitions(players: Sequence[str], size: int) -> Iterator[list[tuple[str, ...]]]:
    """Every split of ``players`` into unordered groups of ``size``."""
    if not players:
        yield []
        return
    head, rest = players[0], players[1:]
    for mates in combinations(rest, size - 1):
        others = [p for p in rest if p not in mates]
        for split in partitions(others, size):
            yield [(head, *mates), *split]


def clashes(groups: Sequence[Sequence[str]], conflicts: Conflicts) -> int:
    """Conflicting pairs seated together."""
    return sum(b in conflicts.get(a, set()) for g in groups for a, b in combinations(g, 2))


def best_left_out(ranked: Sequence[str], size: int, conflicts: Conflicts) -> tuple[int, ...] | None:
    """Positions left out by the fairest conflict-free grouping, or None if there is none.

    Fairest: the sorted positions left out are lexicographically largest.
    """
    spare = len(ranked) % size
    found = []
    for out in combinations(range(len(ranked)), spare):
        seated = [p for i, p in enumerate(ranked) if i not in out]
        if any(clashes(split, conflicts) == 0 for split in partitions(seated, size)):
            found.append(out)
    return max(found) if found else None


def random_conflicts(rng: random.Random, players: Sequence[str], size: int) -> dict[str, set[str]]:
    """Previous tables (disjoint cliques) of random sizes, plus a few stale pairs."""
    conflicts: dict[str, set[str]] = {p: set() for p in players}
    shuffled = list(players)
    rng.shuffle(shuffled)
    while shuffled:
        group = [shuffled.pop() for _ in range(min(len(shuffled), rng.randint(1, size)))]
        for a, b in combinations(group, 2):
            conflicts[a].add(b)
            conflicts[b].add(a)
    for _ in range(rng.randint(0, 3)):
        if len(players) >= 2:
            a, b = rng.sample(list(players), 2)
            conflicts[a].add(b)
            conflicts[b].add(a)
    return conflicts


def check_plan(ranked: Sequence[str], size: int, conflicts: Conflicts) -> bool:
    """Check one queue against the brute force; return whether a clean grouping existed."""
    groups = plan_tables(ranked, size, conflicts, budget=20_000)
    seated = [p for g in groups for p in g]
    assert len(groups) == len(ranked) // size
    assert all(len(g) == size for g in groups)
    assert len(set(seated)) == len(seated) and set(seated) <= set(ranked)
    best = best_left_out(ranked, size, conflicts)
    if best is None:
        return False
    assert clashes(groups, conflicts) == 0, (ranked, conflicts, groups)
    left_out = tuple(i for i, p in enumerate(ranked) if p not in seated)
    assert left_out == best, (ranked, conflicts, groups)
    return True


@pytest.mark.parametrize("size", [2, 3, 4])
def test_matcher_finds_a_clean_fairest_grouping_whenever_one_exists(size: int) -> None:
    rng = random.Random(4000 + size)
    outcomes = {True: 0, False: 0}
    for _ in range(300):
        count = rng.randint(0, 10 if size < 4 else 9)
        ranked = [f"p{i}" for i in range(count)]
        outcomes[check_plan(ranked, size, random_conflicts(rng, ranked, size))] += 1
    # Both cases occur, so neither branch of the check is vacuous.
    assert outcomes[True] > 50 and outcomes[False] > 10, outcomes


def test_fairest_left_out_example() -> None:
    # a and b may not sit together; with 5 players and pairs, one waits.  Seating a, b, c, d
    # as (a, c), (b, d) leaves out e, the last ranked.
    conflicts = {"a": {"b"}, "b": {"a"}}
    assert plan_tables(list("abcde"), 2, conflicts, budget=100) == (("a", "c"), ("b", "d"))
    # a conflicts with everybody: no clean grouping keeps a, so the fairest leaves a out.
    conflicts = {"a": set("bcde"), **{p: {"a"} for p in "bcde"}}
    groups = plan_tables(list("abcde"), 2, conflicts, budget=100)
    assert sorted(p for g in groups for p in g) == list("bcde")


def test_no_clean_grouping_falls_back_to_few_repeats() -> None:
    # Two previous tables of 3 regrouped into 2 tables of 3: every table repeats a pair;
    # the greedy keeps it to one pair per table rather than reseating the old tables.
    old = [("a", "b", "c"), ("d", "e", "f")]
    conflicts = {p: set(g) - {p} for g in old for p in g}
    groups = plan_tables(list("abcdef"), 3, conflicts, budget=1000)
    assert [clashes([g], conflicts) for g in groups] == [1, 1]


def test_exhausted_budget_still_gives_valid_tables() -> None:
    ranked = [f"p{i}" for i in range(12)]
    groups = plan_tables(ranked, 3, {}, budget=0)
    assert sorted(p for g in groups for p in g) == sorted(ranked)
    assert all(len(g) == 3 for g in groups)


# --- the lobby ----------------------------------------------------------------------------


def play_round(
    lobby: Lobby, tables: Sequence[MatchedTable], now: float, seed: int
) -> list[MatchedTable]:
    for table in tables:
        lobby.finish(table, now)
    return lobby.match(now, random.Random(seed))


def repeated_pairs(before: Sequence[MatchedTable], after: Sequence[MatchedTable]) -> int:
    pairs = {frozenset(pair) for t in before for pair in combinations(t.humans, 2)}
    return sum(frozenset(pair) in pairs for t in after for pair in combinations(t.humans, 2))


@pytest.mark.parametrize(("size", "players"), [(3, 30), (2, 12), (4, 20), (6, 36), (3, 600)])
def test_regrouping_never_repeats_a_pair_when_the_queue_allows(size: int, players: int) -> None:
    # Every table finishes and all its players go back: the conflicts are disjoint groups of
    # `size`, `players / size` of them, at least `size` groups, so a clean regrouping exists.
    lobby = Lobby(Seating(seats=size))
    for i in range(players):
        lobby.join(f"p{i}", now=float(i))
    tables = lobby.match(players, random.Random(0))
    rounds = 20 if players < 100 else 3
    for r in range(1, rounds + 1):
        new = play_round(lobby, tables, now=1000.0 * r, seed=r)
        assert len(new) == players // size
        assert repeated_pairs(tables, new) == 0
        tables = new


def test_lobby_regrouping_matches_the_brute_force() -> None:
    # Random lobbies: some tables finish, players leave and join; after each match the
    # lobby's tables are clean whenever the brute force says the queue allowed it.
    rng = random.Random(44)
    for trial in range(60):
        size = rng.choice([2, 3])
        lobby = Lobby(Seating(seats=size))
        names = [f"t{trial}p{i}" for i in range(rng.randint(size, 9))]
        tables: list[MatchedTable] = []
        now = 0.0
        for name in names:
            lobby.join(name, now)
        for step in range(4):
            now += 10.0
            for table in rng.sample(tables, rng.randint(0, len(tables))):
                lobby.finish(table, now)
                tables.remove(table)
            ranked = sorted(lobby.queue, key=lambda w: w.since)
            players = [w.player for w in ranked]
            conflicts = {p: set(lobby.last_companions(p)) for p in players}
            for p in players:
                for q in lobby.last_companions(p):
                    conflicts.setdefault(q, set()).add(p)
            clean_exists = best_left_out(players, size, conflicts) is not None
            new = lobby.match(now, random.Random(step))
            if clean_exists:
                assert clashes([t.humans for t in new], conflicts) == 0
            tables += new


def test_longest_waiting_are_seated_first() -> None:
    lobby = Lobby(Seating(seats=3))
    for i in range(8):
        lobby.join(f"p{i}", now=float(10 - i))  # p7 joined first, p0 last
    tables = lobby.match(20.0, random.Random(3))
    seated = {p for t in tables for p in t.humans}
    assert seated == {f"p{i}" for i in range(2, 8)}
    assert [w.player for w in lobby.queue] == ["p1", "p0"]


def test_same_seed_same_tables_and_seats_are_shuffled() -> None:
    def run(seed: int) -> list[MatchedTable]:
        lobby = Lobby(Seating(seats=3))
        for i in range(30):
            lobby.join(f"p{i}", now=0.0)
        return lobby.match(0.0, random.Random(seed))

    assert run(5) == run(5)
    assert run(5) != run(6)
    first_seats = {t.seats[0] for t in run(5)}
    assert len(first_seats) == 10


def test_bots_fill_the_seats_of_a_player_who_waited_too_long() -> None:
    lobby = Lobby(Seating(seats=3, bots=True, bot_wait=5.0))
    lobby.join("ann", now=0.0)
    assert lobby.match(5.0, random.Random(1)) == []  # not longer than the wait yet
    lobby.join("bob", now=4.0)
    [table] = lobby.match(5.5, random.Random(1))
    assert sorted(table.humans) == ["ann", "bob"] and table.bots == 1
    assert len(table.seats) == 3 and lobby.queue == ()


def test_bot_tables_keep_conflicting_players_apart() -> None:
    lobby = Lobby(Seating(seats=3, bots=True, bot_wait=1.0))
    lobby.join("ann", 0.0)
    lobby.join("bob", 0.0)
    [table] = lobby.match(2.0, random.Random(0))
    lobby.finish(table, now=3.0)
    tables = lobby.match(5.0, random.Random(0))
    assert sorted(t.humans for t in tables) == [("ann",), ("bob",)]
    assert all(t.bots == 2 for t in tables)


def test_no_bots_where_the_room_forbids_them() -> None:
    lobby = Lobby(Seating(seats=3, bots=False))
    lobby.join("ann", 0.0)
    assert lobby.match(1e9, random.Random(0)) == []
    assert lobby.is_queued("ann")


def test_the_only_players_left_sit_together_again() -> None:
    lobby = Lobby(Seating(seats=2))
    lobby.join("ann", 0.0)
    lobby.join("bob", 0.0)
    [table] = lobby.match(0.0, random.Random(0))
    lobby.finish(table, 1.0)
    [again] = lobby.match(1.0, random.Random(0))
    assert sorted(again.humans) == ["ann", "bob"]


def test_finish_requeues_all_but_the_leavers_and_memory_survives_leave() -> None:
    lobby = Lobby(Seating(seats=2))
    for name in ("ann", "bob", "cat", "dan"):
        lobby.join(name, 0.0)
    tables = lobby.match(0.0, random.Random(0))
    ann_table = next(t for t in tables if "ann" in t.humans)
    mate = next(p for p in ann_table.humans if p != "ann")
    assert lobby.last_companions("ann") == {mate} and lobby.is_seated("ann")
    lobby.finish(ann_table, 2.0, leaving=[mate])
    assert lobby.is_queued("ann") and not lobby.is_queued(mate) and not lobby.is_seated(mate)
    lobby.leave("ann")
    lobby.join("ann", 3.0)
    lobby.join(mate, 3.0)  # leaving and coming back does not reset who sat together
    others = [t for t in tables if t is not ann_table]
    lobby.finish(others[0], 3.0)
    for table in lobby.match(3.0, random.Random(0)):
        assert set(table.humans) != {"ann", mate}


def test_errors_have_stable_codes_and_change_nothing() -> None:
    lobby = Lobby(Seating(seats=2))
    lobby.join("ann", 0.0)
    with pytest.raises(IllegalActionError) as caught:
        lobby.join("ann", 1.0)
    assert caught.value.code == "already_queued" and lobby.queue[0].since == 0.0
    with pytest.raises(IllegalActionError) as caught:
        lobby.leave("bob")
    assert caught.value.code == "not_queued"
    lobby.join("bob", 0.0)
    [table] = lobby.match(0.0, random.Random(0))
    with pytest.raises(IllegalActionError) as caught:
        lobby.join("ann", 1.0)
    assert caught.value.code == "already_seated"
    with pytest.raises(IllegalActionError) as caught:
        lobby.finish(table, 1.0, leaving=["cat"])
    assert caught.value.code == "not_at_table" and lobby.tables == (table,)
    lobby.finish(table, 1.0)
    with pytest.raises(IllegalActionError) as caught:
        lobby.finish(table, 1.0)
    assert caught.value.code == "unknown_table"
    with pytest.raises(IllegalActionError) as caught:
        Lobby(Seating(seats=2)).finish(MatchedTable(number=1, seats=("x", None)), 0.0)
    assert caught.value.code == "unknown_table"


@pytest.mark.parametrize(
    ("game", "seats", "code"),
    [("doudizhu", 4, "invalid_seats"), ("zhajinhua", 7, "invalid_seats"),
     ("showhand", 1, "invalid_seats"), ("mahjong", None, "unknown_game")],
)  # fmt: skip
def test_seating_rejects_bad_sizes(game: str, seats: int | None, code: str) -> None:
    with pytest.raises(InvalidActionError) as caught:
        Seating.for_game(game, seats=seats)
    assert caught.value.code == code


def test_seating_per_game() -> None:
    assert Seating.for_game("doudizhu").seats == 3
    assert Seating.for_game("zhajinhua", seats=6).seats == 6
    assert Seating.for_game("showhand", seats=2, bots=True).bots
    with pytest.raises(InvalidActionError) as caught:
        Seating(seats=3, bot_wait=-1.0)
    assert caught.value.code == "invalid_bot_wait"


# --- rooms that keep their tables (征途) ---------------------------------------------------

@pytest.mark.parametrize("seed", range(20))
def test_a_kept_table_seats_the_first_to_enter_at_seat_0(seed: int) -> None:
    """征途: "第一局由最先進入該牌桌的玩家先叫“地主”,之後每一局首先叫“地主”的玩家
    按照出牌順序輪流擔任。"  The player who waited longest (clicked 加入 first) entered the
    table first: seat 0, the first bidder of its first hand; the rest are shuffled."""
    lobby = Lobby(Seating(seats=3, bots=True, bot_wait=1.0, regroup=False))
    lobby.join("ann", 0.0)
    lobby.join("bob", 0.5)
    [table] = lobby.match(2.0, random.Random(seed))
    assert table.seats[0] == "ann" and set(table.seats[1:]) == {"bob", None}
    lobby = Lobby(Seating(seats=3, regroup=False))
    for number, player in enumerate(["cat", "dan", "eve", "fay", "gus", "hal"]):
        lobby.join(player, float(number))
    tables = lobby.match(9.0, random.Random(seed))
    firsts = {min(t.humans, key=["cat", "dan", "eve", "fay", "gus", "hal"].index) for t in tables}
    assert {t.seats[0] for t in tables} == firsts


def test_a_kept_table_plays_on_until_a_player_leaves() -> None:
    """"之後每一局首先叫“地主”的玩家按照出牌順序輪流擔任" (征途) needs hand after hand
    at one table: ``plays_on`` keeps it (nothing changes) until a player leaves; then the
    others wait again."""
    lobby = Lobby(Seating(seats=3, bots=True, bot_wait=0.0, regroup=False))
    lobby.join("ann", 0.0)
    lobby.join("bob", 0.0)
    [table] = lobby.match(1.0, random.Random(3))
    for _ in range(3):
        assert lobby.plays_on(table)
        assert lobby.tables == (table,) and lobby.is_seated("ann") and not lobby.queue
    assert not lobby.plays_on(table, leaving=["bob"])
    assert lobby.tables == (table,)  # a question only: finish ends it
    lobby.finish(table, 9.0, leaving=["bob"])
    assert lobby.queue == (Waiting("ann", 9.0),) and not lobby.is_seated("bob")
    # bots never keep a table alone: every human leaving ends it
    table = lobby.match(10.0, random.Random(3))[0]  # ann alone with two bots
    assert table.humans == ("ann",) and not lobby.plays_on(table, leaving=["ann"])


def test_a_regrouping_room_never_plays_on_and_plays_on_checks_like_finish() -> None:
    lobby = Lobby(Seating(seats=2))
    lobby.join("ann", 0.0)
    lobby.join("bob", 0.0)
    [table] = lobby.match(0.0, random.Random(0))
    assert not lobby.plays_on(table)
    for leaving, code in ([["cat"], "not_at_table"], [[], "unknown_table"]):
        if code == "unknown_table":
            lobby.finish(table, 1.0)
        with pytest.raises(IllegalActionError) as caught:
            lobby.plays_on(table, leaving=leaving)
        assert caught.value.code == code
