"""A table over several hands and a table before its hand starts, at the pure level.

- 征途 keeps its tables: the lobby seats the first to enter at seat 0, and one
  :class:`~qipai.hall.table.table.Table` deals hand after hand, the first bidder turning round the
  table in play order.
- 欢乐斗地主: leaving before the hand starts (while the first deal is dealt) is an escape,
  priced by the engine; :attr:`Table.is_dealing` tells when that is.
"""

from __future__ import annotations

import random

from json_kit import Wire, wire
from qipai.games.doudizhu.scoring import escape_points
from qipai.hall.cash.matchmaking import Lobby
from qipai.hall.rooms import default_rooms
from qipai.hall.table.table import SeatInfo, Table

ROOMS = {room.id: room for room in default_rooms()}
RICH = 10**6


def _drain(table: Table) -> list[Wire]:
    return [wire(out.frame) for out in table.drain()]


def _run_out(table: Table) -> None:
    while table.in_hand:
        deadline = table.deadline()
        assert deadline is not None
        table.tick(deadline)


def _first_bidder(frames: list[Wire]) -> int:
    started = [f["event"] for f in frames if f["type"] == "event" and "event" in f]
    seat: int = next(e["seat"] for e in started if e["kind"] == "BiddingStarted")
    return seat


def test_a_zhengtu_table_plays_on_and_the_first_bidder_turns() -> None:
    """征途: "第一局由最先進入該牌桌的玩家先叫“地主”,之後每一局首先叫“地主”的玩家按照
    出牌順序輪流擔任。"  Ann clicked 加入 first: seat 0, the first hand's first bidder; then
    seat 1, seat 2 (the play order), at the same table, while she stays."""
    room = ROOMS["doudizhu-zhengtu"]
    lobby = Lobby(room.seating)
    lobby.join("ann", 0.0)
    lobby.join("bob", 1.0)
    [seating] = lobby.match(room.bot_wait + 2.0, random.Random(4))
    assert seating.seats[0] == "ann"
    seats = [SeatInfo(p, p or f"bot{s}", RICH) for s, p in enumerate(seating.seats)]
    table = Table(room, seating.number, seats, now=0.0, bot_delay=1.0, rng=random.Random(0))
    for seat, player in enumerate(seating.seats):
        if player is not None:
            table.set_trustee(seat, True, now=0.0)  # the system plays the hands through
    starts: list[tuple[int, int]] = []
    for hand in range(4):
        assert lobby.plays_on(seating)
        table.start_hand(f"h{hand}", seed=100 + hand, now=10.0 * hand)
        frames = _drain(table)
        start = next(f for f in frames if f["type"] == "hand_start")
        starts.append((start["hand_number"], _first_bidder(frames)))
        _run_out(table)
        table.drain()
        assert table.outcome is not None and table.number == seating.number
    assert starts == [(0, 0), (1, 1), (2, 2), (3, 0)]
    assert not lobby.plays_on(seating, leaving=["bob"])


def _huanle_table() -> Table:
    seats = [SeatInfo(f"p{s}", f"p{s}", RICH) for s in range(3)]
    return Table(ROOMS["doudizhu-huanle"], 1, seats, now=0.0, rng=random.Random(0))


def test_huanle_leaving_while_the_hand_is_dealt_is_an_escape() -> None:
    """欢乐斗地主: "在系统撮合成功后、游戏开始前玩家如果退出游戏一律视为逃跑".  The
    game starts with the bidding; while the first deal is dealt the table is
    ``is_dealing``, and the hall makes a player who leaves then escape."""
    table = _huanle_table()
    table.start_hand("h", seed=5, now=0.0)
    assert table.is_dealing and table.game_state.cards_dealt == 0
    table.tick(1.0)  # the 明牌开始 window is over: the first cards are dealt
    assert table.is_dealing and 0 < table.game_state.cards_dealt < 17
    table.escape(1, now=1.5)
    outcome = table.outcome
    assert outcome is not None and outcome.escaper == 1 and not table.is_dealing
    expected = escape_points(table.game_state.facts(), 1)
    assert outcome.settlement.points == expected
    assert outcome.settlement.points[1] < 0 and outcome.winners == ()


def test_the_hand_has_started_once_the_bidding_begins_and_after_a_redeal() -> None:
    table = _huanle_table()
    table.start_hand("h", seed=5, now=0.0)
    now = 0.0
    while table.game_state.current_player is None:
        now = table.deadline() or now
        table.tick(now)
    assert not table.is_dealing  # the bidding: the game has started
    for _ in range(3):
        table.act(table.game_state.current_player, "nocall", now)
    assert table.game_state.deal_number == 2 and table.game_state.cards_dealt < 17
    assert not table.is_dealing  # dealt again, but the game had started
    assert not Table(ROOMS["doudizhu-yifa"], 2, _huanle_table().seats, now=0.0,
                     rng=random.Random(0)).is_dealing  # fmt: skip
