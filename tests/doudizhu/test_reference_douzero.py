"""Our natural move generator against DouZero 1.1.0 (``douzero.env``, numpy only, no torch).

On 10,000 seeded (hand, previous) pairs we lead and follow with both generators and
compare *readings*: (cards, kind, chain length, lowest main rank), DouZero's type mapped
to our kind.  Our list may hold the same cards twice with different readings (a trio chain
and two airplanes for ``333444555666``); so does DouZero's, so the card multisets of the
two lists are compared as multisets too.  The only differences filtered out are the named
predicates of :mod:`references`, each shown to be real by an example test below:

* ``attaches_rocket``: DouZero attaches both jokers together as kickers or wings (the
  rules' ``rocket_as_kickers`` option; with it on, there is no filter at all);
* ``ranked_by_wing_trio``: DouZero's reference bug of ranking an airplane by the highest
  trio anywhere in it, wings included;
* ``douzero_misreads``: previous moves DouZero's own move detector cannot type (it needs
  ``previous`` typed to follow it), which are then not followed.

DouZero repeats some moves verbatim (same cards, same reading): ``itertools.combinations``
over a card list with repeated ranks, deduplicated only where adjacent.  Those repeats
carry no reading of their own and are counted once (``test_douzero_repeats_moves``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest
from references import (
    DOUZERO_KIND,
    Key,
    attaches_rocket,
    douzero_detect,
    douzero_env_moves,
    douzero_misreads,
    douzero_readings,
    from_douzero,
    key_of,
    move_of,
    random_pair,
    ranked_by_wing_trio,
    reading_with,
)

from qipai.games.doudizhu import PASS, RULES, Move, Rules, moves_for, parse_move
from qipai.games.doudizhu.combos import Kind, from_text, natural_readings, to_text

PAIRS = 10_000
PLANE_PAIRS = 2_000
SEED = 20_250_601
YIFA = RULES["yifa"]
YIFA_DZ = YIFA.derive("yifa-dz", rocket_as_kickers=True)
PLANE_KINDS = frozenset({Kind.TRIO_CHAIN, Kind.PLANE_SINGLES, Kind.PLANE_PAIRS})


@dataclass(frozen=True)
class Case:
    """One sampled pair and DouZero's answers to it, computed once for every test."""

    hand: int
    previous: Move
    """Our random previous move; :attr:`followed` is the reading DouZero detects in it."""
    followed: Move | None
    lead: list[Key]
    follow: list[Key]


def _douzero_case(hand: int, previous: Move) -> Case:
    lead = douzero_readings(hand, 0)
    _check_adapter(hand, 0, lead)
    detected = douzero_detect(previous.cards)
    followed = reading_with(previous.cards, *detected) if detected else None
    follow: list[Key] = []
    if followed is not None:
        follow = douzero_readings(hand, previous.cards)
        _check_adapter(hand, previous.cards, follow)
    return Case(hand, previous, followed, lead, follow)


def _check_adapter(hand: int, previous: int, readings: list[Key]) -> None:
    """The typed readings are exactly ``GameEnv``'s card lists (the pass left aside)."""
    env = Counter(from_douzero(m) for m in douzero_env_moves(hand, previous) if m)
    assert env == Counter(key[0] for key in readings)


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    """10,000 pairs: hands of 1-20 cards, any previous shape."""
    rng = random.Random(SEED)
    return [_douzero_case(*random_pair(rng, YIFA)) for _ in range(PAIRS)]


@pytest.fixture(scope="module")
def plane_cases() -> list[Case]:
    """2,000 more pairs of 12-20-card hands after a trio chain or an airplane."""
    rng = random.Random(SEED + 1)
    return [
        _douzero_case(*random_pair(rng, YIFA, kinds=PLANE_KINDS, smallest=12))
        for _ in range(PLANE_PAIRS)
    ]


def _ours(hand: int, previous: Move, rules: Rules) -> list[Move]:
    return [m for m in moves_for(hand, previous, rules) if not m.is_pass]


def _theirs(keys: list[Key]) -> list[Move]:
    """DouZero's moves as our moves, each distinct reading once (see the module's doc)."""
    return [move_of(key) for key in dict.fromkeys(keys)]


def _compare(hand: int, previous: Move, ours: list[Move], theirs: list[Move]) -> None:
    """Assert the two lists hold the same readings, hence the same card multisets."""
    our_keys = Counter(map(key_of, ours))
    their_keys = Counter(map(key_of, theirs))
    assert max(our_keys.values(), default=1) == 1, "one reading listed twice"
    if our_keys != their_keys:
        only_ours = sorted(move_of(k).describe for k in our_keys - their_keys)
        only_theirs = sorted(move_of(k).describe for k in their_keys - our_keys)
        pytest.fail(
            f"hand {to_text(hand)} previous {previous.describe}: "
            f"ours only {only_ours}, DouZero only {only_theirs}"
        )
    assert Counter(m.cards for m in ours) == Counter(m.cards for m in theirs)


def _check_leads(cases: list[Case], rules: Rules) -> Counter[str]:
    """Compare every lead; return the kinds compared and the rocket-filtered count."""
    seen: Counter[str] = Counter()
    for case in cases:
        theirs = _theirs(case.lead)
        if not rules.rocket_as_kickers:
            seen["filtered: rocket"] += sum(map(attaches_rocket, theirs))
            theirs = [m for m in theirs if not attaches_rocket(m)]
        ours = _ours(case.hand, PASS, rules)
        _compare(case.hand, PASS, ours, theirs)
        seen.update(m.kind.label for m in ours)
    return seen


def _check_follows(cases: list[Case], rules: Rules) -> Counter[str]:
    """Compare every follow; also the sets of playable card multisets.  Return the previous
    kinds compared and how often each filter applied."""
    seen: Counter[str] = Counter()
    for case in cases:
        if case.followed is None:
            assert douzero_misreads(case.previous), case.previous.describe
            seen["filtered: misread"] += 1
            continue
        previous = case.followed
        ours, theirs = _ours(case.hand, previous, rules), _theirs(case.follow)
        if not rules.rocket_as_kickers:
            seen["filtered: rocket"] += sum(map(attaches_rocket, theirs))
            theirs = [m for m in theirs if not attaches_rocket(m)]
        seen["filtered: wing trio"] += sum(ranked_by_wing_trio(m, previous) for m in ours + theirs)
        ours = [m for m in ours if not ranked_by_wing_trio(m, previous)]
        theirs = [m for m in theirs if not ranked_by_wing_trio(m, previous)]
        _compare(case.hand, previous, ours, theirs)
        assert {m.cards for m in ours} == {m.cards for m in theirs}
        assert {m.kind for m in theirs} <= {previous.kind, Kind.BOMB, Kind.ROCKET}
        seen[previous.kind.label] += 1
    return seen


NATURAL_KINDS = {k.label for k in Kind} - {"pass", "wild_bomb"}


def test_leads_equal_douzero_but_the_rocket_as_kickers(cases: list[Case]) -> None:
    seen = _check_leads(cases, YIFA)
    assert all(seen[kind] >= 500 for kind in NATURAL_KINDS), seen
    assert seen["filtered: rocket"] >= 500, seen  # exercised, and nothing else filtered


def test_follows_equal_douzero_but_the_named_differences(cases: list[Case]) -> None:
    seen = _check_follows(cases, YIFA)
    assert all(seen[kind] >= 40 for kind in NATURAL_KINDS), seen
    assert seen["filtered: rocket"] >= 1, seen


def test_airplane_follows_equal_douzero_but_the_named_differences(
    plane_cases: list[Case],
) -> None:
    _check_leads(plane_cases, YIFA)
    seen = _check_follows(plane_cases, YIFA)
    assert all(seen[kind.label] >= 400 for kind in PLANE_KINDS), seen


def test_rocket_as_kickers_equals_douzero_with_no_rocket_filter(
    cases: list[Case], plane_cases: list[Case]
) -> None:
    for sample in (cases, plane_cases):
        _check_leads(sample, YIFA_DZ)
        _check_follows(sample, YIFA_DZ)


# --- Each difference is real: DouZero does it, and the predicate names exactly that --------


def _douzero_follow(hand: str, previous: str) -> set[str]:
    return {to_text(key[0]) for key in douzero_readings(from_text(hand), from_text(previous))}


def _our_follow(hand: str, previous: str) -> set[str]:
    return {str(m) for m in moves_for(from_text(hand), parse_move(previous), YIFA) if not m.is_pass}


def test_douzero_ranks_airplanes_by_the_highest_trio_anywhere() -> None:
    """Reference bug: ``filter_type_11_serial_3_1`` takes the highest trio of the whole
    move, so a wing trio outranks the chain (our rules: compare the chain's top rank)."""
    # 666777888+9TJ (chain top 8) beats 333444555+KKK (chain top 5): DouZero says K > 8.
    assert _our_follow("6667778889TJ", "333444555KKK") == {"6667778889TJ"}
    assert _douzero_follow("6667778889TJ", "333444555KKK") == set()
    # 333444555+KKK (top 5) does not beat 666777888+9TJ (top 8): DouZero offers it.
    assert _our_follow("333444555KKK", "6667778889TJ") == set()
    assert _douzero_follow("333444555KKK", "6667778889TJ") == {"333444555KKK"}
    for hand, previous in (("6667778889TJ", "333444555KKK"), ("333444555KKK", "6667778889TJ")):
        (move,) = natural_readings(from_text(hand))
        assert ranked_by_wing_trio(move, parse_move(previous))
    # Same chain tops, wings without a trio: no bug, no filter.
    assert not ranked_by_wing_trio(parse_move("6667778889TJ"), parse_move("3334445559TQ"))


def test_douzero_attaches_both_jokers() -> None:
    hand = from_text("555666BR")
    theirs = {(to_text(k[0]), k[1]) for k in douzero_readings(hand, 0)}
    assert ("555666BR", Kind.PLANE_SINGLES) in theirs
    assert "555666BR" not in {str(m) for m in moves_for(hand, PASS, YIFA)}
    assert "555666BR" in {str(m) for m in moves_for(hand, PASS, YIFA_DZ)}
    four = from_text("9999BR")
    assert ("9999BR", Kind.FOUR_TWO_SINGLES) in {
        (to_text(k[0]), k[1]) for k in douzero_readings(four, 0)
    }
    assert [attaches_rocket(m) for m in natural_readings(four)] == [True]
    assert not attaches_rocket(parse_move("9999B2"))


@pytest.mark.parametrize("cards", ["3334445556667777", "3334445556668889", "3334445556667778"])
def test_douzero_cannot_detect_big_airplanes_with_trio_or_bomb_wings(cards: str) -> None:
    """DouZero bug (not in the rules' list): its ``move_detector`` types these 16-card
    airplanes ``TYPE_15_WRONG``, though its generator makes them; so it cannot follow them."""
    packed = from_text(cards)
    planes = [m for m in natural_readings(packed) if m.kind is Kind.PLANE_SINGLES]
    assert planes and all(douzero_misreads(m) for m in planes)
    assert douzero_detect(packed) is None
    assert cards in {to_text(key[0]) for key in douzero_readings(packed, 0)}
    # Three units with a wing trio, or four with paired wings: detected, no filter.
    assert douzero_detect(from_text("333444555777")) == (Kind.PLANE_SINGLES, 3, 0)
    assert not douzero_misreads(parse_move("3334445556667788"))


def test_douzero_has_neither_other_reference_bug() -> None:
    """The rules' two other reference bugs are not DouZero 1.1.0's: no filter for them."""
    # The rocket is answered by the pass only, bombs in hand or not.
    assert douzero_env_moves(from_text("33332222"), from_text("BR")) == [[]]
    # A chain starting at a rank held four times is generated, leading and following.
    assert [3, 4, 5, 6, 7] in douzero_env_moves(from_text("33334567"), 0)
    assert [5, 6, 7, 8, 9] in douzero_env_moves(from_text("55556789T"), from_text("34567"))


def test_douzero_repeats_moves() -> None:
    """Why the adapter counts each DouZero reading once: its airplane wings come from
    ``itertools.combinations`` over cards with repeated ranks."""
    moves = [tuple(m) for m in douzero_env_moves(from_text("3334445567"), 0)]
    repeated = {m for m, n in Counter(moves).items() if n > 1}
    assert (3, 3, 3, 4, 4, 4, 5, 6) in repeated
    reading = [
        key
        for key in douzero_readings(from_text("3334445567"), 0)
        if key[0] == from_douzero([3, 3, 3, 4, 4, 4, 5, 6])
    ]
    assert len(set(reading)) == 1 and len(reading) >= 2


def test_douzero_kinds_cover_ours() -> None:
    assert set(DOUZERO_KIND.values()) == set(Kind) - {Kind.PASS, Kind.WILD_BOMB}
