"""The v2 deal (``qipai.chance``) against known vectors and a reference implementation.

``reference_*`` re-implement the algorithm straight from its description in
``docs/records.md`` ("The deal, chance v2") with nothing but :mod:`hashlib`; the hard-coded
vectors were computed once with them.  An engine whose deal changes breaks these tests,
and so does every browser (``js/deal.js``) and third-party checker: the deal is a format.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from qipai.cards import doudizhu_deck, format_cards, poker_deck, shuffled
from qipai.chance import DealStream, LegacyChance, chance_for
from qipai.errors import InvalidActionError

BIG_SEED = 0xD1CE_5EED_0BAD_F00D_1234_5678_9ABC_DEF0


def reference_words(seed: int, count: int) -> list[int]:
    """Words of blocks SHA-256(b"qipai-deal-v2:<seed>:<i>"), 4 bytes big-endian each."""
    words: list[int] = []
    block = 0
    while len(words) < count:
        digest = hashlib.sha256(f"qipai-deal-v2:{seed}:{block}".encode("ascii")).digest()
        words += [int.from_bytes(digest[k : k + 4], "big") for k in range(0, 32, 4)]
        block += 1
    return words[:count]


def reference_shuffle(seed: int, items: list[str]) -> list[str]:
    """Fisher-Yates from the last position, each j by rejection sampling of the words."""
    words = iter(reference_words(seed, 10_000))
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % n
        out[i], out[j] = out[j], out[i]
    return out


WORDS_42 = [1906150106, 4056098717, 98666254, 4082707729, 1894782995, 2438840931, 3402038144,
            4170394452, 1244583452, 2325787262]  # fmt: skip
WORDS_BIG = [2902354798, 3769848794, 4290253350, 3115970021, 411772584, 1314676353, 999697191,
             3281790764, 3734908295, 3996967814]  # fmt: skip
DDZ_DECK_42 = (
    "2d Jh 6h 6d 8h 2h Td 6s 8d Ad Qd 3h 9c 4d 5c 9d 4h Jd BJ 5s Ts 8c 7s 3d 4c 2s 7c RJ 7d Kd "
    "Qs Th Qc 4s Ac 5d Jc 8s 9s Kh 5h Kc Tc 6c 7h 3s Ks Js As Ah Qh 2c 9h 3c"
)
POKER_DECK_7 = (
    "Qh Ks 4c Th 2d 2h Jd Ts 3d Ac Kc 6c Qc 8d Js 7c 2c Tc 5d 4s 7s Kh Qs Ah Ad 3h 5c Qd 6d 5h "
    "6h Jh Kd 3s 2s Jc 3c 8h 4h 8c Td 8s 7d 9c 9s 6s 9h 9d 5s As 7h 4d"
)


def test_the_first_block_is_the_documented_hash() -> None:
    digest = hashlib.sha256(b"qipai-deal-v2:42:0").hexdigest()
    assert digest == "719d8adaf1c3279d05e1870ef3592d1170f01813915dc263cac6fb80f8932b54"
    assert WORDS_42[0] == 0x719D8ADA


@pytest.mark.parametrize(("seed", "words"), [(42, WORDS_42), (BIG_SEED, WORDS_BIG)])
def test_words_match_the_known_vectors(seed: int, words: list[int]) -> None:
    assert reference_words(seed, 10) == words
    stream = DealStream(seed)
    assert [stream.word() for _ in range(10)] == words


def test_randbelow_matches_the_known_vectors() -> None:
    stream = DealStream(42)
    assert [stream.randbelow(n) for n in (54, 53, 52, 51, 50)] == [2, 25, 50, 37, 45]


def test_randbelow_rejects_the_biased_tail() -> None:
    """n = 3 * 2**30: words from 3 * 2**30 up are drawn again (words 2, 4, 8 of seed 42)."""
    stream = DealStream(42)
    n = 3 * 2**30
    assert [stream.randbelow(n) for _ in range(6)] == [w for w in WORDS_42 if w < n][:6]
    assert [stream.word() for _ in range(1)] == [reference_words(42, 11)[10]]


@pytest.mark.parametrize("n", [0, -1, 2**32 + 1])
def test_randbelow_refuses_bad_bounds(n: int) -> None:
    with pytest.raises(ValueError):
        DealStream(1).randbelow(n)


def test_shuffles_match_the_known_vectors() -> None:
    ddz = [str(c) for c in doudizhu_deck()]
    assert " ".join(reference_shuffle(42, ddz)) == DDZ_DECK_42
    assert format_cards(shuffled(doudizhu_deck(), DealStream(42))) == DDZ_DECK_42
    assert format_cards(shuffled(poker_deck(), DealStream(7))) == POKER_DECK_7


@pytest.mark.parametrize("seed", [0, 1, 99, BIG_SEED])
def test_the_implementation_is_the_reference(seed: int) -> None:
    deck = [str(c) for c in poker_deck("89TJQKA")]
    stream = DealStream(seed)
    mine = list(deck)
    stream.shuffle(mine)
    assert mine == reference_shuffle(seed, deck)


def test_a_clone_draws_what_the_original_draws() -> None:
    for source in (DealStream(5), LegacyChance(5)):
        source.randbelow(7)
        other = source.clone()
        assert other == source
        assert [other.randbelow(1000) for _ in range(20)] == [
            source.randbelow(1000) for _ in range(20)
        ]


def test_v1_is_python_random() -> None:
    legacy, rng = chance_for(11, "v1"), random.Random(11)
    assert [legacy.randbelow(52) for _ in range(5)] == [rng.randrange(52) for _ in range(5)]
    cards, theirs = list(range(20)), list(range(20))
    legacy.shuffle(cards)
    rng.shuffle(theirs)
    assert cards == theirs


def test_an_unknown_version_is_refused() -> None:
    with pytest.raises(InvalidActionError) as error:
        chance_for(1, "v3")
    assert error.value.code == "bad_chance"
