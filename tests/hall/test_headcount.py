"""The players in a room now (``Lobby.headcount``, what the lobby shows as 在线): the queue
plus the seated humans, never the bots, followed through join, match, play on, finish and
leave — and checked against a count from the lobby's own lists after every step of random
runs."""

from __future__ import annotations

import random

import pytest

from qipai.hall.cash.matchmaking import Lobby, Seating


def listed(lobby: Lobby) -> int:
    """The count the lobby's public lists give: the queue and every human seated."""
    return len(lobby.queue) + sum(len(table.humans) for table in lobby.tables)


def test_a_lone_player_with_two_bots_counts_once() -> None:
    lobby = Lobby(Seating(seats=3, bots=True, bot_wait=1.0))
    assert lobby.headcount == 0
    lobby.join("ann", now=0.0)
    assert lobby.headcount == 1  # waiting
    [table] = lobby.match(now=2.0, rng=random.Random(1))
    assert table.bots == 2 and lobby.headcount == 1  # seated, the bots not counted
    lobby.finish(table, now=3.0, leaving=["ann"])
    assert lobby.headcount == 0


def test_waiting_seated_and_leaving_players_are_counted_as_they_go() -> None:
    lobby = Lobby(Seating(seats=3))
    for number, name in enumerate(["a", "b", "c", "d", "e"]):
        lobby.join(name, now=float(number))
    assert lobby.headcount == 5
    [table] = lobby.match(now=5.0, rng=random.Random(2))
    assert lobby.headcount == 5  # three seated, two waiting
    lobby.leave(next(w.player for w in lobby.queue))
    assert lobby.headcount == 4
    lobby.finish(table, now=6.0, leaving=table.humans[:1])  # the others wait again
    assert lobby.headcount == 3 and len(lobby.queue) == 3


def test_a_table_that_plays_on_keeps_its_players_counted() -> None:
    lobby = Lobby(Seating(seats=3, regroup=False))
    for name in ("a", "b", "c"):
        lobby.join(name, now=0.0)
    [table] = lobby.match(now=1.0, rng=random.Random(3))
    assert lobby.plays_on(table) and lobby.headcount == 3


@pytest.mark.parametrize("seed", range(20))
def test_the_count_is_the_lobby_lists_after_every_step(seed: int) -> None:
    rng = random.Random(seed)
    lobby = Lobby(Seating(seats=rng.choice([2, 3, 4]), bots=rng.random() < 0.5, bot_wait=1.0))
    people = [f"p{n}" for n in range(12)]
    now = 0.0
    for _ in range(200):
        now += rng.random()
        step = rng.randrange(4)
        idle = [p for p in people if not lobby.is_queued(p) and not lobby.is_seated(p)]
        if step == 0 and idle:
            lobby.join(rng.choice(idle), now=now)
        elif step == 1 and lobby.queue:
            lobby.leave(rng.choice(lobby.queue).player)
        elif step == 2:
            lobby.match(now=now, rng=rng)
        elif step == 3 and lobby.tables:
            table = rng.choice(lobby.tables)
            lobby.finish(table, now=now, leaving=rng.sample(table.humans, rng.randint(0, 1)))
        assert lobby.headcount == listed(lobby)
        assert lobby.headcount <= len(people)
