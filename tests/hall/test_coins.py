"""Coins per hand (``qipai.hall.coins``, the only place money is computed): the pages'
worked examples, every payout, the chip games' rake (Zha Jin Hua's engine no longer rakes),
the arithmetic (rake, huanle balances and fee, jj score minimisation) and, over many random
hands, coins that add up and balances that never go negative."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.bots import showhand as sh_bots
from qipai.bots import zhajinhua as zjh_bots
from qipai.errors import InvalidActionError
from qipai.games import doudizhu, showhand, zhajinhua
from qipai.games.doudizhu.rules import RULES
from qipai.games.doudizhu.scoring import HandFacts, escape_points, score_hand
from qipai.hall.coins import (
    Payout,
    Settlement,
    limit_transfers,
    limited,
    loss_of,
    minimise_scores,
    rake_on,
    settle,
    settle_losers_to_zero,
    settle_raked,
    share_in_proportion,
    to_coins,
)
from qipai.hall.rooms import Room, default_rooms, load_rooms
from qipai.registry.doudizhu import YIFA_RAKE_PERCENT

DEFAULT = {room.id: room for room in default_rooms()}

YIFA_RAKE = Fraction(YIFA_RAKE_PERCENT, 100)
"""yifa's rake: 5 % of each winner's gain."""


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


def test_an_escape_is_priced_with_the_fee_within_the_balance() -> None:
    huanle = DEFAULT["doudizhu-huanle"]
    assert huanle.fee == 1 and huanle.coefficient == 1
    assert [loss_of(huanle, 10, held) for held in (10_000, 10, 5)] == [11, 10, 5]
    assert loss_of(DEFAULT["doudizhu-yifa"], 10, 10_000) == 10  # no fee there


def test_a_jj_coins_room_may_rake_and_the_losers_payment_includes_the_platforms_fee() -> None:
    """The loser pays the least of the three, whole ("包括平台费用"); the house's 5 % comes
    out of what the winner receives."""
    jj = room("doudizhu", "jj", coefficient=1, rake_percent=5)
    s = settle(jj, (-140, 140, 0), (120, 1000, 500))
    assert s.stakes == (-120, 120, 0) and s.rake == (0, 6, 0) and s.net == (-120, 114, 0)
    assert adds_up(s) and DEFAULT["doudizhu-jj"].rake_percent == 0  # the shipped room: none


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


# --- the payout is data ------------------------------------------------------------------


def test_each_preset_has_its_payout() -> None:
    payouts = {(r.game, r.rules): r.payout for r in default_rooms()}
    assert payouts == {
        ("doudizhu", "yifa"): Payout.WITHIN_BALANCES,
        ("doudizhu", "caishen"): Payout.WITHIN_BALANCES,
        ("doudizhu", "huanle"): Payout.LOSERS_TO_ZERO,
        ("doudizhu", "zhengtu"): Payout.POINTS_ONLY,
        ("doudizhu", "jj"): Payout.MINIMISED,
        ("zhajinhua", "yifa"): Payout.CHIPS,
        ("showhand", "yifa"): Payout.CHIPS,
    }


def test_the_payout_given_replaces_the_rooms() -> None:
    """settle() reads no game name: the same room and points under each payout."""
    r = room("doudizhu", "yifa", coefficient=10)
    points, balances = (12, -6, -6), (960, 960, 960)
    assert settle(r, points, balances) == settle(r, points, balances, Payout.WITHIN_BALANCES)
    assert settle(r, points, balances, Payout.POINTS_ONLY).net == (0, 0, 0)
    assert settle(r, points, balances, Payout.CHIPS).net == (12, -6, -6)  # chips: no N
    assert settle(r, points, (960, 30, 960), Payout.MINIMISED).stakes == (90, -30, -60)


# --- the chip games ---------------------------------------------------------------------


ZJH_ROOMS = [DEFAULT["zhajinhua-yifa"], room("zhajinhua", "yifa", base=2, rake_percent=10)]


@pytest.mark.parametrize("r", ZJH_ROOMS, ids=["default", "base2-rake10"])
def test_zhajinhua_returns_are_zero_sum_and_the_hall_rakes_the_winner(r: Room) -> None:
    assert r.payout is Payout.CHIPS
    raked = 0
    for seed in range(40):
        rng = random.Random(seed)
        stacks = [r.min_coins + rng.randrange(300) for _ in range(r.seats)]
        state = zhajinhua.State.new(r.game_rules(), seed=seed, players=r.seats, stacks=stacks)
        zjh_bots.play_hand(state, [zjh_bots.RandomPolicy(seed + s) for s in range(r.seats)])
        chips, winner = state.returns(), state.winner
        assert winner is not None and sum(chips) == 0 and chips[winner] > 0  # no engine rake
        assert sum(state.stacks) == sum(stacks)
        s = settle(r, chips, stacks)
        assert s.points == s.stakes == chips and adds_up(s)
        rake = chips[winner] * r.rake_percent // 100  # the winner's gain, rounded down
        assert s.rake == tuple(rake if seat == winner else 0 for seat in range(r.seats))
        assert s.net == tuple(c - (rake if seat == winner else 0) for seat, c in enumerate(chips))
        raked += s.house
    assert raked > 0


def test_zhajinhua_rake_is_the_rooms() -> None:
    """Same chips, the room's rake: 5 % by default, 0 when the room takes none."""
    chips = (-21, 41, -10, -5, -5)
    assert settle(DEFAULT["zhajinhua-yifa"], chips, (200,) * 5).rake == (0, 2, 0, 0, 0)
    free = room("zhajinhua", "yifa", rake_percent=0)
    assert settle(free, chips, (200,) * 5).net == chips


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


# --- the arithmetic: yifa and caishen ----------------------------------------------------

RICH = (10**9,) * 3


def test_settle_raked_seed_example() -> None:
    s = settle_raked((12, -6, -6), coefficient=10, rake=YIFA_RAKE)
    assert s == Settlement((114, -60, -60), (6, 0, 0), (0, 0, 0), (12, -6, -6))
    assert s.stakes == (120, -60, -60)
    assert s.house == 6
    assert sum(s.net) + s.house == 0


def test_yifa_two_winning_farmers_are_raked_separately_rounding_down() -> None:
    s = settle_raked(
        (-6, 3, 3), coefficient=10, rake=YIFA_RAKE
    )  # each farmer wins 30: rake 1.5 → 1
    assert s.rake == (0, 1, 1)
    assert s.net == (-60, 29, 29)
    assert s.house == 2  # one less than floor(60 × 5 %) = 3: rounding is per winner


def test_rake_rounds_down_and_ignores_losses() -> None:
    assert [rake_on(g, YIFA_RAKE) for g in (0, 19, 20, 39, 40, -100)] == [0, 0, 1, 1, 2, 0]
    assert rake_on(7, Fraction(1, 3)) == 2
    with pytest.raises(InvalidActionError):
        rake_on(10, Fraction(3, 2))


def test_caishen_coins_are_room_base_times_points_without_rake() -> None:
    s = settle_raked((-40, 20, 20), coefficient=50, rake=Fraction(0))
    assert s.stakes == (-2000, 1000, 1000)
    assert s.net == s.stakes
    assert s.house == 0


def test_negative_coefficient_is_rejected() -> None:
    with pytest.raises(InvalidActionError) as err:
        to_coins((2, -1, -1), -1)
    assert err.value.code == "bad_settlement"


# --- the arithmetic: huanle ----------------------------------------------------------------


def test_settle_losers_to_zero_seed_example() -> None:
    s = settle_losers_to_zero((12, -6, -6), RICH, coefficient=1000, fee=50)
    assert s.stakes == (12_000, -6_000, -6_000)
    assert s.net == (11_950, -6_050, -6_050)
    assert s.house == 150


def test_huanle_loser_stops_at_zero_and_winner_gets_only_what_was_paid() -> None:
    s = settle_losers_to_zero((12, -6, -6), (10**6, 2_000, 10**6), coefficient=1000, fee=50)
    assert s.stakes == (8_000, -2_000, -6_000)
    assert s.fees == (50, 0, 50)  # the broke farmer has nothing left for the fee
    assert s.net == (7_950, -2_000, -6_050)


def test_huanle_winner_gain_capped_by_own_balance() -> None:
    s = settle_losers_to_zero((12, -6, -6), (5_000, 10**6, 10**6), coefficient=1000, fee=0)
    assert s.stakes == (5_000, -2_500, -2_500)


def test_huanle_capped_landlord_split_between_farmers_in_proportion() -> None:
    # Farmers win 1 and 2 (one doubled); each farmer's gain capped by his balance first.
    s = settle_losers_to_zero((-3, 1, 2), (2_000, 10**6, 10**6), coefficient=1000, fee=0)
    assert s.stakes == (-2_000, 667, 1_333)  # 666.67 / 1333.33: the coin to the larger rest
    t = settle_losers_to_zero((-3, 1, 2), (10**6, 10**6, 500), coefficient=1000, fee=0)
    assert t.stakes == (-1_500, 1_000, 500)


def test_huanle_escape_settles_with_the_escaper_as_centre() -> None:
    points = escape_points(HandFacts(rules=RULES["huanle"], landlord=0, base=1), 1)
    assert points == (5, -10, 5)
    s = settle_losers_to_zero(points, (10**6, 6_000, 10**6), coefficient=1000, fee=50)
    assert s.stakes == (3_000, -6_000, 3_000)
    assert s.fees == (50, 0, 50)


def test_huanle_rejects_points_that_do_not_sum_to_zero() -> None:
    with pytest.raises(InvalidActionError) as err:
        settle_losers_to_zero((-12, 0, 0), RICH, coefficient=1, fee=0)
    assert err.value.code == "bad_points"
    with pytest.raises(InvalidActionError) as err:
        settle_losers_to_zero((2, -1, -1), (1, -1, 1), coefficient=1, fee=0)
    assert err.value.code == "bad_settlement"
    with pytest.raises(InvalidActionError):
        settle_losers_to_zero((2, -1, -1), RICH, coefficient=1, fee=-5)


def test_huanle_winner_cap_is_an_option() -> None:
    points = (-2, 1, 1)
    capped = settle_losers_to_zero(points, (10_000, 300, 5_000), coefficient=1000, fee=0)
    assert capped.stakes == (-1300, 300, 1000)
    free = settle_losers_to_zero(
        points, (10_000, 300, 5_000), coefficient=1000, fee=0, cap_winners=False
    )
    assert free.stakes == (-2000, 1000, 1000)


# --- the arithmetic: jj score minimisation --------------------------------------------------


def test_jj_seed_example_one_winner_has_little_on_the_table() -> None:
    assert minimise_scores((200, -200, 0), (30, 1000, 500)) == (30, -30, 0)


def test_jj_seed_example_two_loser_has_little_on_the_table() -> None:
    assert minimise_scores((-140, 140, 0), (120, 1000, 500)) == (-120, 120, 0)


def test_jj_amount_due_when_smallest() -> None:
    assert minimise_scores((20, -10, -10), (1000, 1000, 1000)) == (20, -10, -10)


def test_jj_each_payment_is_the_least_of_the_three() -> None:
    """A landlord on 30 beating two farmers who owe 200 each is paid 30 by each (not 15:
    each payment, not his total, is held to his score)."""
    assert minimise_scores((400, -200, -200), (30, 1000, 1000)) == (60, -30, -30)
    assert minimise_scores((400, -200, -200), (100, 1000, 1000)) == (200, -100, -100)
    assert minimise_scores((400, -200, -200), (1000, 1000, 30)) == (230, -200, -30)
    assert minimise_scores((-40, 20, 20), (1000, 10, 1000)) == (-30, 10, 20)


def test_jj_a_losing_landlord_pays_at_most_what_he_holds_in_all() -> None:
    assert minimise_scores((-300, 150, 150), (100, 1000, 1000)) == (-100, 50, 50)
    assert minimise_scores((-300, 100, 200), (240, 1000, 1000)) == (-240, 80, 160)
    assert minimise_scores((-300, 150, 150), (1000, 1000, 40)) == (-190, 150, 40)


def test_all_zero_points_move_nothing() -> None:
    assert minimise_scores((0, 0, 0), (0, 0, 0)) == (0, 0, 0)


def test_four_seats_without_a_single_centre_are_rejected() -> None:
    with pytest.raises(InvalidActionError) as err:
        limit_transfers((-2, -2, 2, 2), (9, 9, 9, 9))
    assert err.value.code == "bad_points"


# --- the arithmetic: properties -------------------------------------------------------------


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.lists(st.integers(0, 10**5), min_size=1, max_size=3))
def test_share_in_proportion(total: int, weights: list[int]) -> None:
    total = min(total, sum(weights))
    shares = share_in_proportion(total, weights)
    assert sum(shares) == total
    assert all(0 <= s <= w for s, w in zip(shares, weights, strict=True))
    whole = sum(weights)
    for s, w in zip(shares, weights, strict=True):  # within one coin of the exact share
        assert abs(s * whole - total * w) < max(whole, 1)


@st.composite
def three_seat_points(draw: st.DrawFn) -> tuple[int, int, int]:
    """Zero-sum points of a finished hand or an escape: one seat faces the other two."""
    a, b = draw(st.integers(0, 500)), draw(st.integers(0, 500))
    centre = draw(st.integers(0, 2))
    sign = draw(st.sampled_from((-1, 1)))
    points = [0, 0, 0]
    points[(centre + 1) % 3], points[(centre + 2) % 3] = sign * a, sign * b
    points[centre] = -sign * (a + b)
    return points[0], points[1], points[2]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(three_seat_points(), st.tuples(*[st.integers(0, 2_000)] * 3), st.integers(0, 100))
def test_huanle_settlement_invariants(
    points: tuple[int, int, int], balances: tuple[int, int, int], fee: int
) -> None:
    s = settle_losers_to_zero(points, balances, coefficient=10, fee=fee)
    assert sum(s.stakes) == 0
    assert sum(s.net) + s.house == 0
    assert s.points == points
    for p, stake, balance, net in zip(points, s.stakes, balances, s.net, strict=True):
        assert abs(stake) <= min(abs(p) * 10, balance)
        assert stake * p >= 0  # nobody changes side
        assert balance + net >= 0
    uncapped = tuple(p * 10 for p in points)
    if all(abs(u) <= b for u, b in zip(uncapped, balances, strict=True)):
        assert s.stakes == uncapped


@settings(max_examples=400, deadline=None, derandomize=True)
@given(three_seat_points(), st.tuples(*[st.integers(0, 2_000)] * 3))
def test_minimisation_invariants(
    points: tuple[int, int, int], scores: tuple[int, int, int]
) -> None:
    """Every payment is the least of the winner's score, the loser's and what is owed;
    nobody pays more than he holds; nothing is burnt."""
    moved = minimise_scores(points, scores)
    assert sum(moved) == 0
    for seat, (p, m) in enumerate(zip(points, moved, strict=True)):
        assert m * p >= 0 and scores[seat] + m >= 0
    moving = [seat for seat in range(3) if points[seat]]
    if not moving:
        return
    signs = [points[seat] > 0 for seat in moving]
    # the single seat: the one alone on its side (the payer when both sides are single)
    centre = next(seat for seat in moving if signs.count(points[seat] > 0) == 1
                  and (len(moving) == 3 or points[seat] < 0))  # fmt: skip
    for seat in set(moving) - {centre}:
        assert abs(moved[seat]) <= min(abs(points[seat]), scores[seat], scores[centre])
    if points[centre] > 0:  # a winning centre: each payment exactly the least of the three
        for seat in set(moving) - {centre}:
            assert abs(moved[seat]) == min(abs(points[seat]), scores[seat], scores[centre])


def test_limited_names_what_the_balances_changed() -> None:
    yifa = room("doudizhu", "yifa", coefficient=10)
    # the landlord holds 100: he wins 100, not 120; each farmer pays 50, not 60
    assert limited(yifa, settle(yifa, (12, -6, -6), (100, 1000, 1000))) == (-20, 10, 10)
    assert limited(yifa, settle(yifa, (12, -6, -6), (1000, 1000, 1000))) == (0, 0, 0)
    zjh = room("zhajinhua", "yifa", seats=2)
    assert limited(zjh, settle(zjh, (-5, 5), (200, 200))) == (0, 0)  # chips: no limit
