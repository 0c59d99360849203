"""Dou Dizhu settlement: coins, rake, huanle balances and fee, jj score minimisation."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.errors import InvalidActionError
from qipai.games.doudizhu.rules import RULES
from qipai.games.doudizhu.scoring import HandFacts, escape_points
from qipai.games.doudizhu.settlement import (
    YIFA_RAKE,
    Settlement,
    limit_transfers,
    minimise_scores,
    rake_on,
    settle_caishen,
    settle_huanle,
    settle_yifa,
    share_in_proportion,
    to_coins,
)

RICH = (10**9,) * 3

# --- yifa and caishen ---------------------------------------------------------------------


def test_yifa_seed_example() -> None:
    s = settle_yifa((12, -6, -6), coefficient=10)
    assert s == Settlement((120, -60, -60), (6, 0, 0), (0, 0, 0))
    assert s.net == (114, -60, -60)
    assert s.house == 6
    assert sum(s.net) + s.house == 0


def test_yifa_two_winning_farmers_are_raked_separately_rounding_down() -> None:
    s = settle_yifa((-6, 3, 3), coefficient=10)  # each farmer wins 30: rake 1.5 → 1
    assert s.rake == (0, 1, 1)
    assert s.net == (-60, 29, 29)
    assert s.house == 2  # one less than floor(60 × 5 %) = 3: rounding is per winner


def test_rake_rounds_down_and_ignores_losses() -> None:
    assert [rake_on(g, YIFA_RAKE) for g in (0, 19, 20, 39, 40, -100)] == [0, 0, 1, 1, 2, 0]
    assert rake_on(7, Fraction(1, 3)) == 2
    with pytest.raises(InvalidActionError):
        rake_on(10, Fraction(3, 2))


def test_caishen_coins_are_room_base_times_points_without_rake() -> None:
    s = settle_caishen((-40, 20, 20), room_base=50)
    assert s.stakes == (-2000, 1000, 1000)
    assert s.net == s.stakes
    assert s.house == 0


def test_negative_coefficient_is_rejected() -> None:
    with pytest.raises(InvalidActionError) as err:
        to_coins((2, -1, -1), -1)
    assert err.value.code == "bad_settlement"


# --- huanle ----------------------------------------------------------------------------------


def test_huanle_seed_example() -> None:
    s = settle_huanle((12, -6, -6), RICH, coefficient=1000, fee=50)
    assert s.stakes == (12_000, -6_000, -6_000)
    assert s.net == (11_950, -6_050, -6_050)
    assert s.house == 150


def test_huanle_loser_stops_at_zero_and_winner_gets_only_what_was_paid() -> None:
    s = settle_huanle((12, -6, -6), (10**6, 2_000, 10**6), coefficient=1000, fee=50)
    assert s.stakes == (8_000, -2_000, -6_000)
    assert s.fees == (50, 0, 50)  # the broke farmer has nothing left for the fee
    assert s.net == (7_950, -2_000, -6_050)


def test_huanle_winner_gain_capped_by_own_balance() -> None:
    s = settle_huanle((12, -6, -6), (5_000, 10**6, 10**6), coefficient=1000, fee=0)
    assert s.stakes == (5_000, -2_500, -2_500)


def test_huanle_capped_landlord_split_between_farmers_in_proportion() -> None:
    # Farmers win 1 and 2 (one doubled); each farmer's gain capped by his balance first.
    s = settle_huanle((-3, 1, 2), (2_000, 10**6, 10**6), coefficient=1000, fee=0)
    assert s.stakes == (-2_000, 667, 1_333)  # 666.67 / 1333.33: the coin to the larger rest
    t = settle_huanle((-3, 1, 2), (10**6, 10**6, 500), coefficient=1000, fee=0)
    assert t.stakes == (-1_500, 1_000, 500)


def test_huanle_escape_settles_with_the_escaper_as_centre() -> None:
    points = escape_points(HandFacts(rules=RULES["huanle"], landlord=0, base=1), 1)
    assert points == (5, -10, 5)
    s = settle_huanle(points, (10**6, 6_000, 10**6), coefficient=1000, fee=50)
    assert s.stakes == (3_000, -6_000, 3_000)
    assert s.fees == (50, 0, 50)


def test_huanle_rejects_points_that_do_not_sum_to_zero() -> None:
    with pytest.raises(InvalidActionError) as err:
        settle_huanle((-12, 0, 0), RICH, coefficient=1, fee=0)
    assert err.value.code == "bad_points"
    with pytest.raises(InvalidActionError) as err:
        settle_huanle((2, -1, -1), (1, -1, 1), coefficient=1, fee=0)
    assert err.value.code == "bad_settlement"
    with pytest.raises(InvalidActionError):
        settle_huanle((2, -1, -1), RICH, coefficient=1, fee=-5)


# --- jj score minimisation ------------------------------------------------------------------


def test_jj_seed_example_one_winner_has_little_on_the_table() -> None:
    assert minimise_scores((200, -200, 0), (30, 1000, 500)) == (30, -30, 0)


def test_jj_seed_example_two_loser_has_little_on_the_table() -> None:
    assert minimise_scores((-140, 140, 0), (120, 1000, 500)) == (-120, 120, 0)


def test_jj_amount_due_when_smallest() -> None:
    assert minimise_scores((20, -10, -10), (1000, 1000, 1000)) == (20, -10, -10)


def test_jj_landlord_is_held_to_his_table_score_in_total() -> None:
    assert minimise_scores((-300, 150, 150), (100, 1000, 1000)) == (-100, 50, 50)
    assert minimise_scores((400, -200, -200), (100, 1000, 1000)) == (100, -50, -50)
    assert minimise_scores((400, -200, -200), (1000, 1000, 30)) == (230, -200, -30)


def test_all_zero_points_move_nothing() -> None:
    assert minimise_scores((0, 0, 0), (0, 0, 0)) == (0, 0, 0)


def test_four_seats_without_a_single_centre_are_rejected() -> None:
    with pytest.raises(InvalidActionError) as err:
        limit_transfers((-2, -2, 2, 2), (9, 9, 9, 9))
    assert err.value.code == "bad_points"


# --- properties ---------------------------------------------------------------------------


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
    s = settle_huanle(points, balances, coefficient=10, fee=fee)
    assert sum(s.stakes) == 0
    assert sum(s.net) + s.house == 0
    for p, stake, balance, net in zip(points, s.stakes, balances, s.net, strict=True):
        assert abs(stake) <= min(abs(p) * 10, balance)
        assert stake * p >= 0  # nobody changes side
        assert balance + net >= 0
    uncapped = tuple(p * 10 for p in points)
    if all(abs(u) <= b for u, b in zip(uncapped, balances, strict=True)):
        assert s.stakes == uncapped


def test_huanle_winner_cap_is_an_option() -> None:
    points = (-2, 1, 1)
    capped = settle_huanle(points, (10_000, 300, 5_000), coefficient=1000, fee=0)
    assert capped.stakes == (-1300, 300, 1000)
    free = settle_huanle(points, (10_000, 300, 5_000), coefficient=1000, fee=0, cap_winners=False)
    assert free.stakes == (-2000, 1000, 1000)
