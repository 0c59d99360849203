"""Properties of the natural move generator and the combination rules, on seeded hands."""

from __future__ import annotations

import random

import pytest

from qipai.errors import InvalidActionError
from qipai.games.doudizhu import RULES, legal_moves
from qipai.games.doudizhu.combos import (
    PASS,
    Kind,
    beats,
    contains,
    from_text,
    natural_readings,
    parse_move,
    readings,
    to_text,
)
from qipai.games.doudizhu.moves import follow_moves, lead_moves

DECK = [*"3456789TJQKA2" * 4, "B", "R"]
NATURAL_PRESETS = ["yifa", "huanle", "zhengtu", "jj"]


def random_hands(seed: int, count: int) -> list[int]:
    """``count`` packed hands of 1-20 cards from a shuffled 54-card deck."""
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        deck = DECK[:]
        rng.shuffle(deck)
        hands.append(from_text("".join(deck[: rng.randint(1, 20)])))
    return hands


@pytest.mark.parametrize("preset", NATURAL_PRESETS)
def test_every_lead_is_a_reading_of_its_cards_held_once(preset: str) -> None:
    rules = RULES[preset]
    for hand in random_hands(1, 400):
        moves = lead_moves(hand, rules)
        assert len(moves) == len(set(moves)), to_text(hand)
        for move in moves:
            assert contains(hand, move.cards)
            assert move in natural_readings(move.cards)
            assert rules.allows(move.kind)


@pytest.mark.parametrize("preset", NATURAL_PRESETS)
def test_follows_are_the_leads_that_beat(preset: str) -> None:
    rules = RULES[preset]
    hands = random_hands(2, 300)
    rng = random.Random(3)
    for hand, other in zip(hands, reversed(hands), strict=True):
        options = lead_moves(other, rules)
        if not options:
            continue
        previous = rng.choice(options)
        expected = [PASS] + [m for m in lead_moves(hand, rules) if beats(m, previous)]
        assert sorted(map(str, follow_moves(hand, previous, rules))) == sorted(map(str, expected))


def test_zhengtu_lacks_trio_single_plane_singles_and_four_two() -> None:
    kinds = {m.kind for m in legal_moves("3334445555667", rules="zhengtu")}
    assert Kind.TRIO_PAIR in kinds
    assert Kind.PLANE_PAIRS in kinds
    assert not kinds & {Kind.TRIO_SINGLE, Kind.PLANE_SINGLES, Kind.FOUR_TWO_SINGLES}
    with pytest.raises(InvalidActionError) as error:
        legal_moves("3334", "5556", rules="zhengtu")
    assert error.value.code == "not_a_combination"


def test_two_readings_appear_once_each() -> None:
    moves = [m for m in legal_moves("333444555666") if str(m) == "333444555666"]
    assert sorted((m.kind.label, m.main) for m in moves) == [
        ("plane_singles", 2),
        ("plane_singles", 3),
        ("trio_chain", 3),
    ]


@pytest.mark.parametrize(
    ("hand", "previous", "expected"),
    [
        ("BR", "2222", ["pass", "BR"]),
        ("2222", "BR", ["pass"]),
        ("33334", "2", ["pass", "3333"]),
        ("55556666", "4444", ["pass", "5555", "6666"]),
        ("3456789", "34567", ["pass", "45678", "56789"]),
        ("33344455", "3334", ["pass", "4443", "4445"]),
    ],
)
def test_follow_examples(hand: str, previous: str, expected: list[str]) -> None:
    got = sorted(str(m) for m in legal_moves(hand, previous))
    assert got == sorted(to_text(from_text(e)) if e != "pass" else e for e in expected)


def test_kickers_never_share_the_main_rank_and_rocket_is_not_a_kicker_pair() -> None:
    assert readings("3333") == [parse_move("3333")]
    assert parse_move("3333").kind is Kind.BOMB
    strs = {str(m) for m in legal_moves("3333BR")}
    assert "3333BR" not in strs
    assert "3333BR" in {
        str(m)
        for m in legal_moves(
            "3333BR", rules=RULES["yifa"].derive("yifa-dz", rocket_as_kickers=True)
        )
    }


def test_kickers_do_not_change_the_comparison() -> None:
    assert not beats(parse_move("44455"), parse_move("3332"))  # different kinds
    assert beats(parse_move("4443"), parse_move("3332"))
    assert not beats(parse_move("3334"), parse_move("3335"))
    assert beats(parse_move("444555 36"), parse_move("333444 KA"))


def test_chains_stop_at_the_ace() -> None:
    assert Kind.CHAIN not in {m.kind for m in legal_moves("TJQKA2")} - {
        m.kind for m in legal_moves("TJQKA")
    }
    assert "JQKA2" not in {str(m) for m in legal_moves("TJQKA2")}
    assert "TJQKA" in {str(m) for m in legal_moves("TJQKA2")}


@pytest.mark.parametrize("text", ["3x", "33333333", "33/3", "3/W"])
def test_malformed_moves_are_rejected_with_a_code(text: str) -> None:
    with pytest.raises(InvalidActionError) as error:
        readings(text)
    assert error.value.code == "bad_cards"


def test_size_counts_every_card_of_any_vector() -> None:
    from qipai.games.doudizhu.combos import pack, size  # noqa: PLC0415

    rng = random.Random(4)
    for _ in range(5000):
        slots = [rng.randint(0, 7) for _ in range(16)]
        assert size(pack(slots)) == sum(slots)
