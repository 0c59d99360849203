"""The fast paths of hand parsing and checking agree with the slow, explaining ones."""

from __future__ import annotations

import random

import pytest

from qipai.errors import InvalidActionError
from qipai.games.doudizhu import RULES, legal_moves
from qipai.games.doudizhu.combos import RANK_CHARS, TWO, counts, from_text, size, unit
from qipai.games.doudizhu.legal import HAND_SIZE, check_hand


def _slow_from_text(text: str) -> int:
    packed = 0
    for ch in text:
        if ch.isspace():
            continue
        slot = RANK_CHARS.index(ch.upper()) if ch.upper() in RANK_CHARS else None
        if slot is None:
            raise InvalidActionError("bad_cards", "unknown")
        packed += unit(slot)
        if counts(packed)[slot] > 7:
            raise InvalidActionError("bad_cards", "too many")
    return packed


def _outcome(parse: object, text: str) -> int | str:
    assert callable(parse)
    try:
        result = parse(text)
    except InvalidActionError as error:
        return error.code
    assert isinstance(result, int)
    return result


@pytest.mark.parametrize(
    "text",
    [
        "",
        "3",
        "33 44",
        "tjqkabrw",
        "3" * 7,
        "3" * 8,
        "3" * 16,
        "3" * 17,
        "W" * 15,
        "W" * 16,
        "W" * 32,
        "R" * 16 + "3",
        "2" * 15 + "B",
        "3x",
        "3\u30004",
        "33445566778899TJQKA2BR",
    ],
)
def test_from_text_edge_cases(text: str) -> None:
    assert _outcome(from_text, text) == _outcome(_slow_from_text, text)


def test_from_text_random_text() -> None:
    rng = random.Random(7)
    alphabet = "3456789TJQKA2BRWtjqkabrw \t\n-x"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert _outcome(from_text, text) == _outcome(_slow_from_text, text)


def test_check_hand_matches_the_limits() -> None:
    rng = random.Random(8)
    for _ in range(20_000):
        hand = sum(unit(s, rng.choice((0, 1, 1, 2, 4, 5, 7, 8, 15))) for s in range(16))
        for rules in (RULES["yifa"], RULES["caishen"]):
            most = [4] * (TWO + 1) + [1, 1, 1 if rules.wildcard else 0]
            bad = any(c > m for c, m in zip(counts(hand), most, strict=True))
            bad = bad or size(hand) > HAND_SIZE + rules.bottom_size
            try:
                check_hand(hand, rules)
            except InvalidActionError as error:
                assert bad and error.code == "bad_cards"
            else:
                assert not bad


def test_leading_from_text_equals_leading_with_a_pass_text() -> None:
    hand = "33344455566677BR"
    assert legal_moves(hand) == legal_moves(hand, "pass") == legal_moves(hand, " ")
