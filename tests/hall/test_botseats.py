"""The bots a room seats (issue 27: every bot was 机器人N with 100,000 coins): nicknames that
read the same in every language, balances of their own that cover the room's stakes, both
drawn from the table's seeded randomness."""

from __future__ import annotations

import random

import pytest

from qipai.hall.rooms import Room, default_rooms
from qipai.hall.table.botseats import (
    BOT_NAMES,
    HIGH_FACTOR,
    HIGH_FLOOR,
    LOW_FACTOR,
    LOW_FLOOR,
    bot_seats,
)
from qipai.server.edge.auth import check_name

ROOMS = default_rooms()


def test_a_seed_gives_the_same_bots() -> None:
    first = bot_seats(random.Random(11), min_coins=960, count=2)
    assert bot_seats(random.Random(11), min_coins=960, count=2) == first
    drawn = {tuple(bot_seats(random.Random(seed), min_coins=960, count=2)) for seed in range(20)}
    assert len(drawn) == 20


@pytest.mark.parametrize("name", BOT_NAMES)
def test_a_bots_name_is_a_players_name_without_chinese(name: str) -> None:
    check_name(name)  # raises for a name a player could not have
    assert name.isascii()


def test_names_at_a_table_differ_from_each_other_and_from_its_players() -> None:
    players = list(BOT_NAMES[:40])
    for seed in range(50):
        seats = bot_seats(random.Random(seed), min_coins=96, count=4, taken=players)
        names = [seat.name for seat in seats]
        assert len(set(names)) == 4 and not set(names) & set(players)


@pytest.mark.parametrize("room", ROOMS, ids=[room.id for room in ROOMS])
def test_a_bots_coins_cover_the_rooms_stakes(room: Room) -> None:
    min_coins = room.min_coins
    low = max(LOW_FACTOR * min_coins, LOW_FLOOR)
    high = max(HIGH_FACTOR * min_coins, HIGH_FLOOR)
    balances = [
        seat.balance
        for seed in range(200)
        for seat in bot_seats(random.Random(seed), min_coins=min_coins, count=2)
    ]
    assert all(low <= balance <= high for balance in balances)
    assert min(balances) >= LOW_FACTOR * min_coins  # ten of the room's largest hands
    assert len(set(balances)) > 300  # believable: no two bots alike
    below = sum(balance < (low * high) ** 0.5 for balance in balances)
    assert 120 < below < 280  # log-uniform: about as many under the geometric mean as over
