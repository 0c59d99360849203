"""Dou Dizhu points: seed examples, every multiplier factor, the cap, liability, escapes."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.doudizhu.rules import RULES, BombFactor, FarmerDoubling, Rules
from qipai.games.doudizhu.scoring import (
    REASONS,
    HandFacts,
    bottom_bonus,
    escape_penalty,
    escape_points,
    farmers_of,
    multiplier_breakdown,
    pair_multiplier,
    score_hand,
    split_evenly,
)
from qipai.hall.coins import settle_losers_to_zero, settle_raked
from qipai.registry.doudizhu import YIFA_RAKE_PERCENT

YIFA, CAISHEN, HUANLE, ZHENGTU, JJ = (
    RULES[n] for n in ("yifa", "caishen", "huanle", "zhengtu", "jj")
)


def facts(rules: Rules, **kw: Any) -> HandFacts:
    """Landlord seat 0, base 1, landlord wins, unless ``kw`` says otherwise."""
    kw.setdefault("landlord", 0)
    kw.setdefault("base", 1)
    kw.setdefault("winner", kw["landlord"])
    return HandFacts(rules=rules, **kw)


def pairs(f: HandFacts) -> dict[int, int]:
    """Farmer seat → pair multiplier."""
    return {p.farmer: p.multiplier for p in multiplier_breakdown(f)}


# --- the pages' worked examples --------------------------------------------------------


def test_yifa_seed_example_points_and_coins() -> None:
    points = score_hand(facts(YIFA, base=3, bombs=1))
    assert points == (12, -6, -6)
    settled = settle_raked(points, coefficient=10, rake=Fraction(YIFA_RAKE_PERCENT, 100))
    assert settled.stakes == (120, -60, -60)
    assert settled.rake == (6, 0, 0)
    assert settled.net == (114, -60, -60)


def test_huanle_seed_example() -> None:
    # X = base 1 × multiplier 6: a 明牌 ×3 after the deal and one rob ×2.
    f = facts(HUANLE, shows=(3, 1, 1), robs=((0, 1),))
    points = score_hand(f)
    assert points == (12, -6, -6)
    settled = settle_losers_to_zero(points, (100_000,) * 3, coefficient=1000, fee=50)
    assert settled.stakes == (12_000, -6_000, -6_000)
    assert settled.fees == (50, 50, 50)
    assert settled.net == (11_950, -6_050, -6_050)
    assert settled.house == 150


def test_caishen_role_factor_and_landlord_loss() -> None:
    # 游戏积分 = 底分 × 倍数 × 身份系数: one rob (×2) and one bomb (×2), landlord loses.
    f = facts(CAISHEN, base=5, robs=((1, 0),), bombs=1, winner=2)
    assert score_hand(f) == (-40, 20, 20)


def test_zhengtu_players_minus_one() -> None:
    # 地主得分 = 底分 × 倍數 × (牌桌玩家數 − 1): bid 3, a bomb and a rocket, spring.
    f = facts(ZHENGTU, landlord=1, base=3, bombs=1, rockets=1, spring=True)
    assert score_hand(f) == (-24, 48, -24)


def test_jj_formula_farmer_sign_and_landlord_negated_sum() -> None:
    # 农民得分 = 胜负参数 × 基数 × 倍数; 地主得分 = −(农民1 + 农民2).
    f = facts(JJ, landlord=2, base=10, winner=0, doubled=(True, False, False))
    assert score_hand(f) == (20, 10, -30)


# --- every multiplier factor --------------------------------------------------------------

FACTOR_CASES = [
    # (rules, facts keywords, multiplier of both pairs)
    (YIFA, {}, 1),
    (YIFA, {"bombs": 2, "rockets": 1}, 8),
    (YIFA, {"spring": True}, 2),
    (YIFA, {"winner": 1, "anti_spring": True}, 2),
    (CAISHEN, {"robs": ((1, 0), (2, 1))}, 4),
    (CAISHEN, {"wild_bombs": 1}, 4),
    (CAISHEN, {"wild_bombs": 2, "bombs": 1}, 32),
    (CAISHEN, {"shows": (4, 2, 1)}, 8),  # PRODUCT
    (CAISHEN, {"shows": (2, 2, 2)}, 8),
    (HUANLE, {"shows": (5, 3, 1)}, 5),  # LARGEST
    (HUANLE, {"shows": (2, 4, 3), "robs": ((1, 0),)}, 8),
    (HUANLE.derive("huanle15", initial_multiplier=15), {"bombs": 1}, 30),
    (ZHENGTU, {"bombs": 3, "rockets": 1}, 16),
    (JJ, {"shows": (10, 1, 1)}, 10),
    (JJ, {"bottom": "BR3"}, 4),
    (JJ, {"bottom": "9TJ", "bombs": 1}, 6),
    (JJ, {"bottom": "444"}, 3),
    (JJ, {"bottom": "R49"}, 2),
    (JJ, {"bottom": "49K"}, 1),
    (JJ, {"bombs": 3}, 8),
    (JJ.derive("jj-bombs", bomb_factor=BombFactor.JJ_LINEAR), {"bombs": 3}, 4),
    (JJ.derive("jj-bombs", bomb_factor=BombFactor.JJ_LINEAR), {"bombs": 2, "rockets": 1}, 6),
    (JJ.derive("jj-bombs", bomb_factor=BombFactor.JJ_LINEAR), {"rockets": 1}, 2),
    (JJ, {"winner": 1, "anti_spring": True, "bombs": 1}, 4),
]


@pytest.mark.parametrize(("rules", "kw", "expected"), FACTOR_CASES)
def test_common_factors(rules: Rules, kw: dict[str, Any], expected: int) -> None:
    f = facts(rules, **kw)
    assert pairs(f) == {1: expected, 2: expected}
    sign = 1 if f.winner == f.landlord else -1
    assert score_hand(f) == (sign * 2 * expected, -sign * expected, -sign * expected)


def test_breakdown_product_matches_multiplier_and_labels() -> None:
    f = facts(CAISHEN, robs=((1, 0),), shows=(2, 4, 1), bombs=2, wild_bombs=1,
              doubled=(False, True, False))  # fmt: skip
    first, second = multiplier_breakdown(f)
    assert (first.farmer, second.farmer) == farmers_of(0) == (1, 2)
    assert [x.reason for x in first.factors] == ["rob", "show", "bomb", "wild_bomb",
                                                 "farmer_double"]  # fmt: skip
    assert [x.reason for x in second.factors] == ["rob", "show", "bomb", "wild_bomb"]
    for pair in (first, second):
        product = 1
        for factor in pair.factors:
            product *= factor.factor
            assert factor.label == REASONS[factor.reason]
        assert product == pair.multiplier == pair.initial * pair.events
    assert (first.multiplier, second.multiplier) == (2 * 8 * 4 * 4 * 2, 2 * 8 * 4 * 4)
    bombs = next(x for x in first.factors if x.reason == "bomb")
    assert (bombs.count, bombs.factor) == (2, 4)


def test_initial_multiplier_is_listed_first() -> None:
    f = facts(HUANLE.derive("h3", initial_multiplier=3), bombs=1)
    assert [(x.reason, x.factor) for x in multiplier_breakdown(f)[0].factors] == [
        ("initial", 3),
        ("bomb", 2),
    ]


def test_bottom_bonus_first_match_wins_and_custom_table() -> None:
    assert bottom_bonus("BR3", JJ) == 4  # rocket before joker
    assert bottom_bonus("222", JJ) == 3  # a trio of 2s is a trio
    assert bottom_bonus("KA2", JJ) == 1  # no 2 in a straight
    assert bottom_bonus("QKA", JJ) == 3
    custom = JJ.derive("jj-bottom", bottom_bonus_table=(("joker", 5), ("rocket", 9)))
    assert bottom_bonus("BR3", custom) == 5
    assert bottom_bonus("BR3", YIFA) == 1  # option off
    with pytest.raises(InvalidActionError) as err:
        bottom_bonus("345", JJ.derive("jj-odd", bottom_bonus_table=(("flush", 3),)))
    assert err.value.code == "bad_rules"


# --- pairwise factors -------------------------------------------------------------------


def test_yifa_rob_doubles_only_robber_and_robbed() -> None:
    # Seat 1 bids 1, seat 2 bids 2 (robs 1), seat 0 bids 3 (robs 2): landlord 0.
    f = facts(YIFA, base=3, robs=((2, 1), (0, 2)))
    assert pairs(f) == {1: 1, 2: 2}
    assert score_hand(f) == (9, -3, -6)


def test_yifa_rob_between_two_future_farmers_changes_nothing() -> None:
    f = facts(YIFA, base=2, robs=((2, 1),))
    assert pairs(f) == {1: 1, 2: 1}
    assert score_hand(f) == (4, -2, -2)


def test_call_rob_presets_count_every_rob_for_the_whole_hand() -> None:
    f = facts(HUANLE, robs=((1, 0), (2, 1)))  # neither robber ends as landlord
    assert pairs(f) == {1: 4, 2: 4}


@pytest.mark.parametrize("rules", [YIFA, CAISHEN])
def test_farmer_doubling_doubles_only_his_pair(rules: Rules) -> None:
    f = facts(rules, base=3, winner=2, doubled=(False, False, True))
    assert pairs(f) == {1: 1, 2: 2}
    assert score_hand(f) == (-9, 3, 6)


@pytest.mark.parametrize("rules", [HUANLE, JJ])
def test_everyone_doubling_is_own_times_opponent_factor(rules: Rules) -> None:
    assert pairs(facts(rules, doubled=(True, False, False))) == {1: 2, 2: 2}
    assert pairs(facts(rules, doubled=(True, True, False))) == {1: 4, 2: 2}
    assert pairs(facts(rules, doubled=(False, False, True))) == {1: 1, 2: 2}
    assert score_hand(facts(rules, doubled=(True, True, True), bombs=1)) == (16, -8, -8)


# --- the yifa cap ---------------------------------------------------------------------------


def test_yifa_cap_limits_each_pair_to_sixteen() -> None:
    f = facts(YIFA, base=3, bombs=5)
    for pair in multiplier_breakdown(f):
        assert (pair.events, pair.multiplier, pair.is_capped) == (32, 16, True)
    assert score_hand(f) == (96, -48, -48)  # 96 = the 易发 page's entry minimum per N


def test_yifa_cap_counts_rob_and_doubling_per_pair() -> None:
    # 3 bombs + spring = 4 doublings for both pairs; the rob (0 robbed 1) is a 5th for pair 1.
    f = facts(YIFA, base=1, bombs=3, spring=True, robs=((0, 1),))
    first, second = multiplier_breakdown(f)
    assert (first.events, first.multiplier, first.is_capped) == (32, 16, True)
    assert (second.events, second.multiplier, second.is_capped) == (16, 16, False)
    assert score_hand(f) == (32, -16, -16)
    g = facts(YIFA, base=1, bombs=2, spring=True, robs=((0, 1),))
    assert pairs(g) == {1: 16, 2: 8}
    assert score_hand(g) == (24, -16, -8)


def test_no_cap_outside_yifa() -> None:
    assert pairs(facts(CAISHEN, bombs=5)) == {1: 32, 2: 32}
    assert pairs(facts(YIFA.derive("nocap", doubling_cap=None), bombs=5)) == {1: 32, 2: 32}


# --- jj 托管 liability -------------------------------------------------------------------

LIABILITY_CASES = [
    # (landlord, winner, doubled, trustee, last card, expected points)
    (0, 0, (False, True, False), (False, True, False), (False,) * 3, (3, -3, 0)),
    (0, 0, (False, True, False), (False, False, True), (False,) * 3, (3, 0, -3)),
    (0, 0, (False, True, False), (False, True, True), (False,) * 3, (3, -2, -1)),
    (1, 1, (False, True, False), (True, False, True), (False,) * 3, (-2, 4, -2)),
    (0, 1, (False, True, False), (False, True, False), (False,) * 3, (-3, 0, 3)),
    (0, 2, (False, False, True), (False, False, True), (False,) * 3, (-3, 3, 0)),
    (0, 1, (False, True, False), (False, True, True), (False,) * 3, (0, 0, 0)),
    (0, 0, (False, True, False), (False, True, False), (False, True, False), (3, -2, -1)),
    (0, 0, (False, True, False), (False, True, True), (False, False, True), (3, -3, 0)),
    (0, 0, (True, True, False), (True, False, False), (False,) * 3, (6, -4, -2)),
]


@pytest.mark.parametrize("case", LIABILITY_CASES)
def test_jj_trustee_liability(case: tuple[Any, ...]) -> None:
    landlord, winner, doubled, trustee, last, expected = case
    f = facts(JJ, landlord=landlord, winner=winner, doubled=doubled, trustee=trustee,
              trustee_last_card=last)  # fmt: skip
    assert score_hand(f) == expected
    assert sum(expected) == 0


def test_liability_only_where_the_rules_say() -> None:
    f = facts(HUANLE, winner=1, trustee=(False, True, False))
    assert score_hand(f) == (-2, 1, 1)


def test_split_evenly_gives_the_odd_point_to_the_first_seat() -> None:
    assert split_evenly(5, (1, 2)) == {1: 3, 2: 2}
    assert split_evenly(-5, (2, 1)) == {2: -3, 1: -2}
    assert split_evenly(6, (0,)) == {0: 6}


# --- escapes ------------------------------------------------------------------------------


def escape(rules: Rules, escaper: int, **kw: Any) -> tuple[int, ...]:
    kw.setdefault("winner", None)
    return escape_points(facts(rules, **kw), escaper)


CAISHEN_BOUNDARY = [
    # (rules, escaper, keywords, penalty): landlord 0; total multiplier incl. role factor
    (CAISHEN, 1, {"shows": (4, 2, 1)}, 10),  # farmer total 8 < 10 → as if 10
    (CAISHEN.derive("c9", initial_multiplier=9), 1, {}, 10),  # 9 → as if 10
    (CAISHEN.derive("c10", initial_multiplier=10), 1, {}, 20),  # exactly 10: 2× actual
    (CAISHEN, 1, {"bombs": 4}, 32),  # 16: 2 × 16
    (CAISHEN, 0, {"bombs": 2}, 20),  # landlord total 8 → as if 20
    (CAISHEN.derive("c3", initial_multiplier=3), 0, {"doubled": (False, True, False)}, 20),
    (CAISHEN.derive("c5", initial_multiplier=5), 0, {}, 40),  # total exactly 10: 4 × 10
    (CAISHEN, 0, {"bombs": 3}, 64),  # total 16: 4 × 16
]


@pytest.mark.parametrize(("rules", "escaper", "kw", "penalty"), CAISHEN_BOUNDARY)
def test_caishen_escape_boundaries(
    rules: Rules, escaper: int, kw: dict[str, Any], penalty: int
) -> None:
    base = 3
    points = escape(rules, escaper, base=base, **kw)
    assert points[escaper] == -penalty * base
    assert sum(points) == 0
    others = [points[s] for s in range(3) if s != escaper]
    assert others == [penalty * base // 2] * 2


HUANLE_BOUNDARY = [
    # (rules, escaper, keywords, penalty per base): landlord 0; events only, no role factor
    (HUANLE, 1, {"bombs": 3}, 10),  # events 8 < 10 → as if 10
    (HUANLE.derive("h-r3", rob_factor=3), 1, {"shows": (3, 1, 1), "robs": ((1, 0),)}, 10),  # 9
    (HUANLE, 1, {"shows": (5, 1, 1), "robs": ((1, 0),)}, 20),  # exactly 10 → 2 × 10
    (HUANLE, 0, {"shows": (5, 1, 1)}, 20),  # landlord events 5 → as if 10 (× role 2)
    (HUANLE.derive("h-r3", rob_factor=3), 0, {"shows": (3, 1, 1), "robs": ((1, 0),)}, 20),
    (HUANLE, 0, {"shows": (5, 1, 1), "robs": ((1, 0),)}, 80),  # exactly 10 → 4 × 2 × 10
    (HUANLE, 1, {"bombs": 1, "bombs_in_hand": (0, 2, 0)}, 10),  # 8: still under
    (HUANLE, 1, {"bombs": 1, "bombs_in_hand": (1, 1, 1)}, 32),  # 16: all hands count
    (HUANLE, 0, {"doubled": (False, True, True), "shows": (5, 1, 1)}, 80),  # pairs 10 + 10
]


def test_huanle_landlord_threshold_is_the_pairs_sum_against_twenty() -> None:
    # Pairs 10 and 5: sum 15 < 20 → as if 10 per pair; pairs 10 and 10 → 4 × 20.
    under = facts(HUANLE, winner=None, shows=(5, 1, 1), doubled=(False, True, False))
    assert escape_penalty(under, 0) == 20
    over = facts(HUANLE, winner=None, shows=(5, 1, 1), doubled=(False, True, True))
    assert escape_penalty(over, 0) == 80


@pytest.mark.parametrize(("rules", "escaper", "kw", "penalty"), HUANLE_BOUNDARY)
def test_huanle_escape_boundaries(
    rules: Rules, escaper: int, kw: dict[str, Any], penalty: int
) -> None:
    points = escape(rules, escaper, base=2, **kw)
    assert points[escaper] == -penalty * 2
    assert sum(points) == 0


def test_huanle_escape_ignores_the_initial_multiplier_for_the_threshold() -> None:
    rich = HUANLE.derive("h15", initial_multiplier=15)
    # Events 1 (actual multiplier 15): still "under 10" → 10 × 15 for a farmer.
    assert escape(rich, 2, base=1) == (5 * 15, 5 * 15, -10 * 15)
    # Events 16 (bombs) → 2 × actual = 2 × 15 × 16.
    assert escape(rich, 2, bombs=4)[2] == -2 * 15 * 16


def test_escape_compensation_goes_to_both_other_seats() -> None:
    assert escape(HUANLE, 2, base=1) == (5, 5, -10)
    assert escape(CAISHEN, 0, base=1, bombs=3) == (-64, 32, 32)


@pytest.mark.parametrize(
    ("escaper", "kw", "expected"),
    [
        (0, {"bombs": 1}, (-2 * 3 * 2 * 2, 0, 0)),  # base × mult × (n − 1) × 2
        (1, {"bombs": 1}, (0, -3 * 2 * 2, 0)),  # base × mult × 2
        (2, {}, (0, 0, -6)),
    ],
)
def test_zhengtu_escape(escaper: int, kw: dict[str, Any], expected: tuple[int, ...]) -> None:
    assert escape(ZHENGTU, escaper, base=3, **kw) == expected


def test_yifa_has_no_escape_penalty() -> None:
    with pytest.raises(IllegalActionError) as err:
        escape(YIFA, 1)
    assert err.value.code == "no_escape_penalty"


def test_jj_has_no_escape_penalty() -> None:
    with pytest.raises(IllegalActionError) as err:
        escape(JJ, 0)
    assert err.value.code == "no_escape_penalty"


# --- errors -----------------------------------------------------------------------------------


def test_unfinished_hand_cannot_be_scored() -> None:
    with pytest.raises(IllegalActionError) as err:
        score_hand(facts(YIFA, winner=None))
    assert err.value.code == "hand_not_finished"


@pytest.mark.parametrize(
    ("rules", "kw"),
    [
        (YIFA, {"landlord": 3}),
        (YIFA, {"winner": -1}),
        (YIFA, {"base": 0}),
        (YIFA, {"shows": (1, 1)}),
        (YIFA, {"shows": (0, 1, 1)}),
        (YIFA, {"bombs": -1}),
        (YIFA, {"robs": ((1, 1),)}),
        (YIFA, {"robs": ((1, 5),)}),
        (ZHENGTU, {"doubled": (False, True, False)}),
        (CAISHEN, {"doubled": (True, False, False)}),
        (YIFA, {"winner": 1, "spring": True}),
        (YIFA, {"winner": 0, "anti_spring": True}),
    ],
)
def test_bad_facts(rules: Rules, kw: dict[str, Any]) -> None:
    with pytest.raises(InvalidActionError) as err:
        score_hand(facts(rules, **kw))
    assert err.value.code == "bad_facts"


def test_bad_escaper_and_bad_pair_seat() -> None:
    with pytest.raises(InvalidActionError):
        escape(CAISHEN, 3)
    with pytest.raises(InvalidActionError):
        pair_multiplier(facts(YIFA), 0)
    assert pair_multiplier(facts(YIFA, bombs=1), 2) == 2


# --- properties ---------------------------------------------------------------------------

bools = st.tuples(st.booleans(), st.booleans(), st.booleans())


@st.composite
def finished_hands(draw: st.DrawFn) -> HandFacts:
    """Random, consistent facts of a finished hand under any preset."""
    rules = draw(st.sampled_from([*RULES.values(),
                                  JJ.derive("jjl", bomb_factor=BombFactor.JJ_LINEAR)]))  # fmt: skip
    landlord = draw(st.integers(0, 2))
    winner = draw(st.integers(0, 2))
    doubled = list(draw(bools))
    if rules.doubling is FarmerDoubling.NONE:
        doubled = [False] * 3
    elif rules.doubling is not FarmerDoubling.EVERYONE:
        doubled[landlord] = False
    seat_pairs = st.tuples(st.integers(0, 2), st.integers(0, 2)).filter(lambda p: p[0] != p[1])
    return HandFacts(
        rules=rules,
        landlord=landlord,
        base=draw(st.integers(1, 5)),
        winner=winner,
        robs=tuple(draw(st.lists(seat_pairs, max_size=3))),
        shows=draw(st.tuples(*[st.sampled_from((1, 2, 3, 4, 5, 10))] * 3)),
        doubled=tuple(doubled),
        bombs=draw(st.integers(0, 6)),
        rockets=draw(st.integers(0, 1)),
        wild_bombs=draw(st.integers(0, 2)),
        spring=winner == landlord and draw(st.booleans()),
        anti_spring=winner != landlord and draw(st.booleans()),
        bottom=draw(st.sampled_from(("BR3", "R45", "777", "QKA", "38K"))),
        trustee=draw(bools),
        trustee_last_card=draw(bools),
    )


@settings(max_examples=400, deadline=None, derandomize=True)
@given(finished_hands())
def test_finished_hands_sum_to_zero(f: HandFacts) -> None:
    points = score_hand(f)
    assert sum(points) == 0
    landlord_won = f.winner == f.landlord
    farmers = farmers_of(f.landlord)
    for farmer in farmers:
        assert (points[farmer] <= 0) if landlord_won else (points[farmer] >= 0)
    multipliers = pairs(f)
    if not (f.rules.trustee_liability and any(f.trustee)):
        assert [points[s] for s in farmers] == [
            (1 if not landlord_won else -1) * f.base * multipliers[s] for s in farmers
        ]
    if f.rules.doubling_cap is not None:
        assert abs(points[f.landlord]) <= 2 * f.base * 2**f.rules.doubling_cap


@settings(max_examples=200, deadline=None, derandomize=True)
@given(finished_hands(), st.integers(0, 2))
def test_escapes_are_zero_sum_except_zhengtu(f: HandFacts, escaper: int) -> None:
    if f.rules.name in ("yifa", "jj", "jjl"):
        with pytest.raises(IllegalActionError):
            escape_points(f, escaper)
        return
    points = escape_points(f, escaper)
    assert points[escaper] < 0
    if f.rules.name == "zhengtu":
        assert points.count(0) == 2
    else:
        assert sum(points) == 0


def test_exactly_ten_side_is_an_option() -> None:
    # A huanle farmer escapes with events 明牌 ×5 and one bomb ×2: exactly 10.
    huanle = RULES["huanle"]
    facts = HandFacts(rules=huanle, landlord=0, base=1, shows=(5, 1, 1), bombs=1)
    pair = next(p for p in multiplier_breakdown(facts) if p.farmer == 1)
    assert pair.counted_events == 10
    assert escape_penalty(facts, 1) == 20  # exactly 10 counts as over: 2× the actual 10
    under = huanle.derive("huanle-ten-under", escape_ten_is_over=False)
    assert escape_penalty(dataclasses.replace(facts, rules=under), 1) == 10  # as if under
