"""Our natural move generator against RLCard 1.2.0's Dou Dizhu (``rlcard.games.doudizhu``).

RLCard leads with ``DoudizhuJudger.playable_cards_from_hand`` and follows with
``get_gt_cards``; both give card strings in our notation, and its ``CARD_TYPE`` table gives
each string exactly one type.  On 10,000 seeded (hand, previous) pairs (and 2,000 more
after trio chains and airplanes) we compare readings (cards, kind, chain length, lowest
main rank) and the playable card multisets.  RLCard attaches both jokers together nowhere,
like our default, so the only differences filtered out are two wing rules of RLCard's,
both narrower than the rules' "any n cards not of the chain's ranks" and each shown real
by an example test below:

* ``wings_hold_bomb``: RLCard never puts all four cards of a rank among an airplane's
  single wings (``solo_attachments``: "attachments can not have bomb");
* ``wing_trio_extends_chain``: nor a trio of the rank just below or above the chain
  ("attachments can not have 3 same cards consecutive with the trio").

A previous move RLCard cannot type for these reasons is not followed.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest
from references import (
    key_of,
    random_pair,
    reading_with,
    rlcard_follow,
    rlcard_lead,
    rlcard_reading,
    wing_trio_extends_chain,
    wings_hold_bomb,
)

from qipai.games.doudizhu import PASS, RULES, Move, moves_for, parse_move
from qipai.games.doudizhu.combos import Kind, from_text, natural_readings, to_text

PAIRS = 10_000
PLANE_PAIRS = 2_000
SEED = 20_250_602
YIFA = RULES["yifa"]
PLANE_KINDS = frozenset({Kind.TRIO_CHAIN, Kind.PLANE_SINGLES, Kind.PLANE_PAIRS})
NATURAL_KINDS = {k.label for k in Kind} - {"pass", "wild_bomb"}

TextKey = tuple[str, Kind, int, int]
"""A reading key with the cards as text: (cards, kind, chain units, lowest main slot)."""


@dataclass(frozen=True)
class Case:
    """One sampled pair and RLCard's answers to it, computed once for every test."""

    hand: int
    previous: Move
    """Our random previous move; :attr:`followed` is the reading RLCard gives its cards."""
    followed: Move | None
    lead: set[str]
    follow: list[str]


def _rlcard_case(hand: int, previous: Move) -> Case:
    reading = rlcard_reading(to_text(previous.cards))
    followed = reading_with(previous.cards, *reading) if reading else None
    follow = rlcard_follow(hand, previous.cards) if followed else []
    return Case(hand, previous, followed, rlcard_lead(hand), follow)


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    """10,000 pairs: hands of 1-20 cards, any previous shape."""
    rng = random.Random(SEED)
    return [_rlcard_case(*random_pair(rng, YIFA)) for _ in range(PAIRS)]


@pytest.fixture(scope="module")
def plane_cases() -> list[Case]:
    """2,000 more pairs of 12-20-card hands after a trio chain or an airplane."""
    rng = random.Random(SEED + 1)
    return [
        _rlcard_case(*random_pair(rng, YIFA, kinds=PLANE_KINDS, smallest=12))
        for _ in range(PLANE_PAIRS)
    ]


def rlcard_forbids(move: Move) -> bool:
    """RLCard's two wing rules (see the module's doc)."""
    return wings_hold_bomb(move) or wing_trio_extends_chain(move)


def _our_keys(moves: list[Move]) -> Counter[TextKey]:
    return Counter((to_text(m.cards), *key_of(m)[1:]) for m in moves if not m.is_pass)


def _their_keys(cards: list[str] | set[str]) -> Counter[TextKey]:
    keys: Counter[TextKey] = Counter()
    for text in cards:
        reading = rlcard_reading(text)
        assert reading is not None, f"RLCard offers {text}, which its own CARD_TYPE lacks"
        keys[(text, *reading)] += 1
    return keys


def _compare(hand: int, previous: Move, ours: list[Move], theirs: list[str] | set[str]) -> None:
    our_keys, their_keys = _our_keys(ours), _their_keys(theirs)
    if our_keys != their_keys:
        pytest.fail(
            f"hand {to_text(hand)} previous {previous.describe}: "
            f"ours only {sorted(our_keys - their_keys)}, "
            f"RLCard only {sorted(their_keys - our_keys)}"
        )
    assert Counter(k[0] for k in our_keys.elements()) == Counter(theirs)


def _check(cases: list[Case]) -> Counter[str]:
    """Compare every lead and follow; return the kinds compared and the filters' counts."""
    seen: Counter[str] = Counter()
    for case in cases:
        ours = moves_for(case.hand, PASS, YIFA)
        seen["filtered: lead"] += sum(map(rlcard_forbids, ours))
        _compare(case.hand, PASS, [m for m in ours if not rlcard_forbids(m)], case.lead)
        seen.update(m.kind.label for m in ours)
        if case.followed is None:
            assert rlcard_forbids(case.previous), case.previous.describe
            seen["filtered: previous"] += 1
            continue
        assert case.follow[0] == "pass"
        ours = moves_for(case.hand, case.followed, YIFA)
        seen["filtered: follow"] += sum(map(rlcard_forbids, ours))
        _compare(
            case.hand, case.followed, [m for m in ours if not rlcard_forbids(m)], case.follow[1:]
        )
        seen["previous " + case.followed.kind.label] += 1
    return seen


def test_leads_and_follows_equal_rlcard_but_its_wing_rules(cases: list[Case]) -> None:
    seen = _check(cases)
    assert all(seen[kind] >= 500 for kind in NATURAL_KINDS), seen
    assert all(seen["previous " + kind] >= 30 for kind in NATURAL_KINDS), seen
    assert seen["filtered: lead"] >= 1, seen


def test_airplane_leads_and_follows_equal_rlcard_but_its_wing_rules(
    plane_cases: list[Case],
) -> None:
    seen = _check(plane_cases)
    assert all(seen["previous " + kind.label] >= 400 for kind in PLANE_KINDS), seen
    assert seen["filtered: lead"] >= 20, seen


# --- Each difference is real: RLCard does it, and the predicate names exactly that ---------


def _our_leads(hand: str) -> set[str]:
    return {str(m) for m in moves_for(from_text(hand), PASS, YIFA)}


def test_rlcard_never_puts_a_bomb_among_the_wings() -> None:
    hand = "3334445556667777"
    assert hand in _our_leads(hand)
    assert hand not in rlcard_lead(from_text(hand))
    assert rlcard_reading(hand) is None
    assert [wings_hold_bomb(m) for m in natural_readings(from_text(hand))] == [True]
    assert not wings_hold_bomb(parse_move("3334445556667778"))


def test_rlcard_never_lets_a_wing_trio_extend_the_chain() -> None:
    hand = "3444555666777888"  # 444555666777 + 888 + 3, or 555666777888 + 444 + 3
    assert hand in _our_leads(hand)
    assert hand not in rlcard_lead(from_text(hand))
    readings = natural_readings(from_text(hand))
    assert len(readings) == 2 and all(map(wing_trio_extends_chain, readings))
    # 333444555666: RLCard keeps only the trio chain; ours adds two airplanes, filtered.
    assert rlcard_reading("333444555666") == (Kind.TRIO_CHAIN, 4, 0)
    kinds = [
        (m.kind, wing_trio_extends_chain(m)) for m in natural_readings(from_text("333444555666"))
    ]
    assert sorted(kinds) == [
        (Kind.TRIO_CHAIN, False),
        (Kind.PLANE_SINGLES, True),
        (Kind.PLANE_SINGLES, True),
    ]
    # A trio of 2s is not adjacent to a chain ending at A: RLCard and ours both allow it.
    assert "QQQKKKAAA222" in rlcard_lead(from_text("QQQKKKAAA222"))
    assert [wing_trio_extends_chain(m) for m in natural_readings(from_text("QQQKKKAAA222"))] == [
        False
    ]


def test_rlcard_has_none_of_the_spec_reference_bugs() -> None:
    """No filter for the rules' three reference bugs: RLCard 1.2.0 has none of them."""
    # The rocket is answered by the pass only, bombs in hand or not.
    assert rlcard_follow(from_text("33332222"), from_text("BR")) == ["pass"]
    # A chain starting at a rank held four times, leading and following.
    assert "34567" in rlcard_lead(from_text("33334567"))
    assert {"56789", "6789T"} <= set(rlcard_follow(from_text("55556789T"), from_text("34567")))
    # Airplanes compare by the chain, not by the highest trio (the wing trio KKK).
    assert "6667778889TJ" in rlcard_follow(from_text("6667778889TJ"), from_text("333444555KKK"))
    assert "333444555KKK" not in rlcard_follow(from_text("333444555KKK"), from_text("6667778889TJ"))
