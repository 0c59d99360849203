"""Coins per hand: the pages' worked examples, every preset's rule, the chip games' rake,
and, over many random hands, coins that add up and balances that never go negative."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qipai.bots import showhand as sh_bots
from qipai.bots import zhajinhua as zjh_bots
from qipai.errors import InvalidActionError
from qipai.games import doudizhu, showhand, zhajinhua
from qipai.games.doudizhu.rules import RULES
from qipai.games.doudizhu.scoring import HandFacts, escape_points, score_hand
from qipai.hall.coins import Settlement, settle
from qipai.hall.rooms import Room, default_rooms, load_rooms

DEFAULT = {room.id: room for room in default_rooms()}


def room(game: str, rules: str, **numbers: int) -> Room:
    lines = [f'id = "r"\nname = "r"\ngame = "{game}"\nrules = "{rules}"']
    lines += [f"{key} = {value}" for key, value in numbers.items()]
    [made] = load_rooms("[[room]]\n" + "\n".join(lines))
    return made


def adds_up(s: Settlement) -> bool:
    return sum(s.net) + sum(s.rake) + sum(s.fees) == 0


# --- the pages' worked examples ---------------------------------------------------------


def test_yifa_seed_example() -> None:
    """N 10, base 3, multiplier 2 (one bomb), the landlord wins: +114 after a 6-coin rake."""
    points = score_hand(HandFacts(rules=RULES["yifa"], landlord=0, base=3, winner=0, bombs=1))
    assert points == (12, -6, -6)
    s = settle(room("doudizhu", "yifa", coefficient=10), points, (960, 960, 960))
    assert s.net == (114, -60, -60) and s.rake == (6, 0, 0) and s.stakes == (120, -60, -60)
    assert s.fees == (0, 0, 0) and s.points == points and s.house == 6 and adds_up(s)


def test_huanle_seed_example() -> None:
    """N 1,000, X 6 (明牌 ×3, one rob ×2), fee A 50: +12,000 / −6,000 / −6,000, 50 each."""
    facts = HandFacts(
        rules=RULES["huanle"], landlord=0, base=1, winner=0, shows=(3, 1, 1), robs=((0, 1),)
    )
    points = score_hand(facts)
    assert points == (12, -6, -6)
    s = settle(room("doudizhu", "huanle", coefficient=1000, fee=50), points, (10**6,) * 3)
    assert s.stakes == (12_000, -6_000, -6_000) and s.fees == (50, 50, 50)
    assert s.net == (11_950, -6_050, -6_050) and s.rake == (0, 0, 0) and adds_up(s)


# --- each preset ------------------------------------------------------------------------


def test_caishen_is_points_times_the_room_base() -> None:
    s = settle(room("doudizhu", "caishen", coefficient=3), (-8, 4, 4), (500, 500, 500))
    assert s.net == (-24, 12, 12) and s.house == 0


def test_caishen_and_yifa_stay_within_the_balances() -> None:
    """The hall's guard: a loser pays at most what he holds, winners share it."""
    s = settle(room("doudizhu", "caishen", coefficient=10), (-64, 32, 32), (100, 0, 500))
    assert s.stakes == (-100, 0, 100)  # the farmer who brought 0 can win 0
    poor = room("doudizhu", "yifa", coefficient=10, min_coins=0)
    s = settle(poor, (12, -6, -6), (1000, 10, 1000))
    assert s.stakes == (70, -10, -60) and s.net == (67, -10, -60) and s.rake == (3, 0, 0)


def test_huanle_losers_stop_at_zero_and_winners_are_capped() -> None:
    huanle = room("doudizhu", "huanle", coefficient=1000, fee=50)
    s = settle(huanle, (12, -6, -6), (10**6, 100, 10**6))
    assert s.stakes == (6_100, -100, -6_000)  # the poor farmer pays what he holds
    assert s.fees == (50, 0, 50)  # and has nothing left for the fee
    assert adds_up(s)
    s = settle(huanle, (12, -6, -6), (3_000, 10**6, 10**6))
    assert s.stakes == (3_000, -1_500, -1_500)  # the landlord wins at most his 3,000


def test_zhengtu_moves_points_only() -> None:
    s = settle(DEFAULT["doudizhu-zhengtu"], (-12, 6, 6), (0, 0, 0))
    assert s.net == (0, 0, 0) and s.house == 0 and s.points == (-12, 6, 6)


def test_jj_minimises_with_the_balances_as_table_scores() -> None:
    jj = room("doudizhu", "jj", coefficient=1)
    assert settle(jj, (200, -200, 0), (30, 1000, 500)).net == (30, -30, 0)  # seed example 1
    assert settle(jj, (-140, 140, 0), (120, 1000, 500)).net == (-120, 120, 0)  # example 2


@pytest.mark.parametrize("rules", ["caishen", "huanle", "zhengtu"])
def test_escapes_settle_as_the_engine_prices_them(rules: str) -> None:
    state = doudizhu.State.new(rules, seed=3)
    while state.current_player is None:
        state.apply(state.legal_actions()[0])
    state.escape(2)
    points = state.returns()
    assert points == escape_points(state.facts(), 2) and points[2] < 0
    r = room("doudizhu", rules, coefficient=100, **({"fee": 5} if rules == "huanle" else {}))
    s = settle(r, points, (10**6,) * 3)
    expected = {
        "caishen": tuple(p * 100 for p in points),
        "huanle": tuple(p * 100 - 5 for p in points),
        "zhengtu": (0, 0, 0),
    }
    assert s.net == expected[rules] and adds_up(s)


# --- the chip games ---------------------------------------------------------------------


ZJH_ROOMS = [DEFAULT["zhajinhua-yifa"], room("zhajinhua", "yifa", base=2, rake_percent=10)]


@pytest.mark.parametrize("r", ZJH_ROOMS, ids=["default", "base2-rake10"])
def test_zhajinhua_reports_the_engines_rake(r: Room) -> None:
    raked = 0
    for seed in range(40):
        rng = random.Random(seed)
        stacks = [r.min_coins + rng.randrange(300) for _ in range(r.seats)]
        state = zhajinhua.State.new(r.game_rules(), seed=seed, players=r.seats, stacks=stacks)
        zjh_bots.play_hand(state, [zjh_bots.RandomPolicy(seed + s) for s in range(r.seats)])
        s = settle(r, state.returns(), stacks)
        assert s.net == state.returns() and s.points == state.returns()
        assert s.rake[state.winner] == state.rake == s.house and adds_up(s)
        gain = s.stakes[state.winner]
        assert s.rake[state.winner] == gain * r.rake_percent // 100
        raked += state.rake
    assert raked > 0


def test_showhand_rakes_the_winners_gain() -> None:
    r = room("showhand", "yifa", rake_percent=10)
    raked = 0
    for seed in range(30):
        state = showhand.State.new(r.game_rules(), seed=seed, players=r.seats)
        sh_bots.play_hand(state, [sh_bots.RandomPolicy(seed + s) for s in range(r.seats)])
        stacks = state.start_stacks
        s = settle(r, state.returns(), stacks)
        assert s.stakes == state.returns() and adds_up(s)
        assert s.rake == tuple(max(c, 0) // 10 for c in state.returns())
        raked += s.house
    assert raked > 0
    default = settle(DEFAULT["showhand-yifa"], (-2, -2, 6, -2), (100,) * 4)
    assert default.net == (-2, -2, 6, -2) and default.house == 0


# --- conservation -----------------------------------------------------------------------


DDZ_ROOMS = [r for r in default_rooms() if r.game == "doudizhu"] + [
    room("doudizhu", "yifa", coefficient=50, min_coins=0),
    room("doudizhu", "huanle", coefficient=1000, fee=300),
    room("doudizhu", "jj", coefficient=10),
    room("doudizhu", "caishen", coefficient=7),
]


@st.composite
def hands(draw: st.DrawFn) -> tuple[Room, tuple[int, ...], tuple[int, ...]]:
    """A room, points as a Dou Dizhu hand gives them (one seat facing two), balances."""
    r = draw(st.sampled_from(DDZ_ROOMS))
    centre = draw(st.integers(0, 2))
    sides = [draw(st.integers(0, 400)) for _ in range(2)]
    sign = draw(st.sampled_from([1, -1]))
    points = [0, 0, 0]
    for i, amount in enumerate(sides):
        points[(centre + 1 + i) % 3] = sign * amount
    points[centre] = -sign * sum(sides)
    balances = tuple(draw(st.integers(0, 20_000)) for _ in range(3))
    return r, tuple(points), balances


@given(hands())
def test_dou_dizhu_coins_add_up_and_never_go_negative(
    hand: tuple[Room, tuple[int, ...], tuple[int, ...]],
) -> None:
    r, points, balances = hand
    s = settle(r, points, balances)
    assert adds_up(s) and min(s.rake + s.fees) >= 0
    assert all(b + n >= 0 for b, n in zip(balances, s.net, strict=True))
    assert all(abs(st) <= abs(p) * r.coefficient for st, p in zip(s.stakes, points, strict=True))


# --- refusals ---------------------------------------------------------------------------


def test_impossible_inputs_are_refused() -> None:
    yifa, zjh, sh = DEFAULT["doudizhu-yifa"], DEFAULT["zhajinhua-yifa"], DEFAULT["showhand-yifa"]
    cases = [
        (yifa, (2, -1, -1), (10, 10)),
        (yifa, (2, -1, -1), (10, -1, 10)),
        (zjh, (5, 5, -4, -4, -4), (200,) * 5),
        (zjh, (1, -1, 0, 0, 1), (200,) * 5),
        (sh, (3, -1, -1, 0), (100,) * 4),
    ]
    for r, returns, balances in cases:
        with pytest.raises(InvalidActionError, match="bad_settlement"):
            settle(r, returns, balances)
    with pytest.raises(InvalidActionError, match="bad_points"):
        settle(yifa, (2, -1, 0), (10, 10, 10))
    assert Settlement.nothing(3) == Settlement((0,) * 3, (0,) * 3, (0,) * 3, (0,) * 3)
