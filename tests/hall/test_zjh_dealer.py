"""Zha Jin Hua's dealer 庄家 at the hall's tables: drawn at random for a table's first hand,
the previous winner afterwards at a table that stays together.

易发棋牌's rules page: "第一次开局的话，随机选择一个用户为庄家先发牌" and
"所有牌局在一局结束后会按照系统的分组规则重新将玩家打乱分组".  The hall regroups after
every hand, so each hand is a new :class:`~qipai.hall.table.table.Table` and its dealer is drawn
from the hand's seed; a second hand on the same ``Table`` (a table kept together) is dealt
by the previous hand's winner.
"""

from __future__ import annotations

import random

from qipai.games.zhajinhua import State
from qipai.hall.rooms import default_rooms
from qipai.hall.table.table import SeatInfo, Table

ROOM = {room.id: room for room in default_rooms()}["zhajinhua-yifa"]
RICH = 10**6
SEEDS = range(40)


def bots_table() -> Table:
    """A fresh table of bots (a newly grouped table)."""
    seats = [SeatInfo(None, f"bot{seat}", RICH) for seat in range(ROOM.seats)]
    return Table(ROOM, 1, seats, now=0.0, bot_delay=1.0, rng=random.Random(0))


def play_out(table: Table) -> None:
    """Jump from deadline to deadline until the hand is over."""
    for _ in range(10_000):
        deadline = table.deadline()
        if not table.in_hand or deadline is None:
            break
        table.tick(deadline)
    assert table.is_over and table.outcome is not None


def drawn_dealer(seed: int) -> int:
    """The dealer the engine draws from ``seed`` for a table's first hand."""
    return State.new(ROOM.game_rules(), seed=seed, players=ROOM.seats).dealer


def test_a_new_table_draws_its_dealer_from_the_seed() -> None:
    """第一次开局的话，随机选择一个用户为庄家: every seat deals some hand, as the seed draws."""
    dealers = []
    for seed in SEEDS:
        table = bots_table()
        table.start_hand(f"h{seed}", seed, now=0.0)
        state = table.game_state
        assert state.dealer_given is None and state.dealer == drawn_dealer(seed)
        dealers.append(state.dealer)
    assert set(dealers) == set(range(ROOM.seats))


def test_the_winner_deals_the_next_hand_at_a_table_that_stays_together() -> None:
    """The same Table plays on: its last winner deals, whatever the new seed would draw."""
    differs = 0
    for seed in SEEDS:
        table = bots_table()
        table.start_hand(f"h{seed}", seed, now=0.0)
        play_out(table)
        outcome = table.outcome
        assert outcome is not None and len(outcome.winners) == 1
        next_seed = seed + 1000
        table.start_hand(f"h{seed}b", next_seed, now=1e6)
        state = table.game_state
        assert state.dealer == state.dealer_given == outcome.winners[0]
        differs += state.dealer != drawn_dealer(next_seed)
    assert differs > 0  # the winner, not the seed's draw, decided
