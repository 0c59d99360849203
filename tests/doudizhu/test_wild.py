"""The caishen wildcard move generator against an independent brute-force enumerator.

The reference here shares nothing with :mod:`qipai.games.doudizhu.wild` but the
:class:`Move` type and the rule-set flags: it enumerates every sub-multiset of a hand and
every assignment of its wild cards, classifies the natural ranks with its own simple
classifier, applies the rules of the wildcards, and keeps one canonical reading per
combination (the readings documented in ``wild.py``):

- fewest jokers standing for a rank (a joker kicker is itself),
- then the lowest ranks for the wild cards,
- then the black joker, not the red one, standing for a rank.

``tests/data/caishen.counts`` holds perft-style counts made by this reference; run
``python tests/doudizhu/test_wild.py`` to print them again.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from functools import cache
from itertools import product
from pathlib import Path

import pytest

from qipai.errors import InvalidActionError
from qipai.games.doudizhu import RULES, legal_moves, moves_for
from qipai.games.doudizhu.combos import (
    PASS,
    Kind,
    Move,
    contains,
    count_of,
    counts,
    from_text,
    natural_readings,
    pack,
    parse_move,
    to_text,
    unit,
)
from qipai.games.doudizhu.moves import lead_moves
from qipai.games.doudizhu.rules import Rules
from qipai.games.doudizhu.wild import wild_moves

COUNTS = Path(__file__).parent.parent / "data" / "caishen.counts"
CAISHEN = RULES["caishen"]
PRESETS = {"caishen": CAISHEN, "caishen-rk": CAISHEN.derive("caishen-rk", rocket_as_kickers=True)}
"""Rule sets of the counts file: caishen, and caishen with both jokers allowed as kickers."""
TWO, BLACK, RED, WILD = 12, 13, 14, 15
CHAIN_TOP = 11
CHAIN_KINDS = {1: (Kind.CHAIN, 5), 2: (Kind.PAIR_CHAIN, 3), 3: (Kind.TRIO_CHAIN, 2)}
SAME_RANK = {1: Kind.SINGLE, 2: Kind.PAIR, 3: Kind.TRIO, 4: Kind.BOMB, 5: Kind.WILD_BOMB}

Reading = tuple[Kind, int, int, frozenset[int]]
"""(kind, main rank, length, ranks of the main part)."""


# --- the reference: classifier -------------------------------------------------------


@cache
def classify(natural: tuple[int, ...]) -> tuple[Reading, ...]:
    """Every reading of 15 natural slot counts (jokers as themselves), by brute force."""
    n = sum(natural)
    held = [s for s in range(15) if natural[s]]
    if held == [BLACK, RED] and n == 2:
        return ((Kind.ROCKET, RED, 1, frozenset(held)),)
    if len(held) == 1:
        kind = SAME_RANK.get(n)
        return ((kind, held[0], 1, frozenset(held)),) if kind else ()
    found = [*chain_readings(natural, held), *kicker_readings(natural, n, held)]
    found += plane_readings(natural, n, held)
    return tuple(found)


def chain_readings(natural: tuple[int, ...], held: list[int]) -> list[Reading]:
    width = natural[held[0]]
    if width not in CHAIN_KINDS or held != list(range(held[0], held[-1] + 1)):
        return []
    kind, shortest = CHAIN_KINDS[width]
    ok = held[-1] <= CHAIN_TOP and len(held) >= shortest
    if ok and all(natural[s] == width for s in held):
        return [(kind, held[-1], len(held), frozenset(held))]
    return []


def kicker_readings(natural: tuple[int, ...], n: int, held: list[int]) -> list[Reading]:
    """Trio with a single or a pair, four with two singles or two pairs."""
    found: list[Reading] = []
    for main in range(TWO + 1):
        others = [natural[s] for s in held if s != main]
        if natural[main] == 3 and n == 4:
            found.append((Kind.TRIO_SINGLE, main, 1, frozenset([main])))
        if natural[main] == 3 and others == [2]:
            found.append((Kind.TRIO_PAIR, main, 1, frozenset([main])))
        if natural[main] == 4 and n == 6:
            found.append((Kind.FOUR_TWO_SINGLES, main, 1, frozenset([main])))
        if natural[main] == 4 and others == [2, 2]:
            found.append((Kind.FOUR_TWO_PAIRS, main, 1, frozenset([main])))
    return found


def plane_readings(natural: tuple[int, ...], n: int, held: list[int]) -> list[Reading]:
    found: list[Reading] = []
    for length in range(2, CHAIN_TOP + 2):
        for low in range(CHAIN_TOP - length + 2):
            chain = frozenset(range(low, low + length))
            if any(natural[s] != 3 for s in chain):
                continue
            wings = [natural[s] for s in held if s not in chain]
            if n == 4 * length:
                found.append((Kind.PLANE_SINGLES, low + length - 1, length, chain))
            if wings == [2] * length:
                found.append((Kind.PLANE_PAIRS, low + length - 1, length, chain))
    return found


# --- the reference: enumeration ------------------------------------------------------


def assignments(play: list[int]) -> list[list[tuple[int, int]]]:
    """Every (card, what it stands for) for the wild cards of a play (slot counts)."""
    cards = [WILD] * play[WILD] + [j for j in (BLACK, RED) if play[j]]
    if not any(play[: TWO + 1]) and not play[WILD]:
        return [[(j, j) for j in cards]]  # jokers alone: B, R and the rocket
    choices = [
        [(card, target) for target in range(TWO + 1)] + ([(card, card)] if card != WILD else [])
        for card in cards
    ]
    return [list(chosen) for chosen in product(*choices)]


def reference_leads(hand: int, rules: Rules) -> list[Move]:
    """Every lead of ``hand`` by brute force, one canonical reading per combination."""
    best: dict[tuple[Kind, int, int, int], tuple[tuple[object, ...], Move]] = {}
    have = counts(hand)
    for play in product(*(range(c + 1) for c in have)):
        if not any(play) or (play[WILD] and (play[BLACK] or play[RED])):
            continue
        if sum(play) == play[WILD]:
            continue  # the 财神 is played only together with other cards
        cards = pack(play)
        for chosen in assignments(list(play)):
            natural = list(play[: RED + 1])
            for card, target in chosen:
                if card != target:
                    natural[target] += 1
                    if card != WILD:
                        natural[card] -= 1
            for reading in classify(tuple(natural)):
                consider(
                    best, reading, cards=cards, natural=pack(natural), chosen=chosen, rules=rules
                )
    return [move for _, move in best.values()]


def consider(
    best: dict[tuple[Kind, int, int, int], tuple[tuple[object, ...], Move]],
    reading: Reading,
    *,
    cards: int,
    natural: int,
    chosen: list[tuple[int, int]],
    rules: Rules,
) -> None:
    """Keep ``reading`` of ``cards`` if the rules allow it and it is the canonical one."""
    kind, main, length, main_ranks = reading
    jokers = [(card, target) for card, target in chosen if card != WILD]
    if not rules.allows(kind) or (kind is Kind.WILD_BOMB and jokers):
        return
    kickers = sum(target not in main_ranks for _, target in jokers)
    if kickers == 2 and not rules.rocket_as_kickers:
        return
    stand_ins = sorted(target for card, target in chosen if card != target)
    black_itself = (BLACK, BLACK) in chosen
    score = (sum(card != target for card, target in jokers), stand_ins, black_itself)
    key = (kind, main, length, cards)
    if key not in best or score < best[key][0]:
        best[key] = (score, Move(kind, main, length, cards, natural))


def reference_beats(move: Move, previous: Move) -> bool:
    """Rocket > five-card bomb > bomb > the rest; same kind and length otherwise."""
    level = {Kind.BOMB: 1, Kind.WILD_BOMB: 2, Kind.ROCKET: 3}
    mine, theirs = level.get(move.kind, 0), level.get(previous.kind, 0)
    if mine or theirs:
        return mine > theirs or (mine == theirs < 3 and move.main > previous.main)
    same = (move.kind, move.length) == (previous.kind, previous.length)
    return same and move.main > previous.main


def reference_moves(hand: int, previous: Move, rules: Rules) -> list[Move]:
    """The reference's legal moves: every lead, or the pass and the leads that beat."""
    leads = reference_leads(hand, rules)
    if previous.is_pass:
        return leads
    return [PASS, *(m for m in leads if reference_beats(m, previous))]


# --- the counts file -------------------------------------------------------------------


def read_counts() -> list[tuple[str, str, str, int]]:
    """(hand, previous or ``-``, rule set, count) of every line of the counts file."""
    lines = []
    for line in COUNTS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            hand, previous, rules, count = line.split()
            lines.append((hand, previous, rules, int(count)))
    return lines


def situation(hand: str, previous: str, rules: str) -> tuple[int, Move, Rules]:
    return from_text(hand), PASS if previous == "-" else parse_move(previous), PRESETS[rules]


def divide(moves: list[Move]) -> str:
    """Moves per kind, as perft's divide: ``single=13 pair=4 …``."""
    per_kind = Counter(m.kind.label for m in moves)
    return " ".join(f"{kind}={n}" for kind, n in sorted(per_kind.items()))


def difference(expected: list[Move], got: list[Move]) -> str:
    missing = Counter(expected) - Counter(got)
    extra = Counter(got) - Counter(expected)
    return (
        f"\n  missing {sorted(m.describe for m in missing)[:20]}"
        f"\n  extra {sorted(m.describe for m in extra)[:20]}"
        f"\n  expected {divide(expected)}\n  got      {divide(got)}"
    )


COUNT_LINES = read_counts()
LINE_IDS = [f"{h}:{p}:{r}" for h, p, r, _ in COUNT_LINES]


def test_counts_file_covers_the_required_cases() -> None:
    hands = [(from_text(h), p) for h, p, _, _ in COUNT_LINES]
    assert len(COUNT_LINES) >= 15
    assert any(count_of(h, WILD) and not count_of(h, BLACK) + count_of(h, RED) for h, _ in hands)
    assert any(count_of(h, BLACK) + count_of(h, RED) == 1 for h, _ in hands)
    assert any(count_of(h, BLACK) and count_of(h, RED) for h, _ in hands)
    assert any(count_of(h, WILD) and 4 in counts(h)[: TWO + 1] for h, _ in hands)
    previous = [parse_move(p).kind for _, p in hands if p != "-"]
    assert {Kind.BOMB, Kind.WILD_BOMB} <= set(previous)
    assert any(p == "-" for _, p in hands)
    assert any(p != "-" and parse_move(p).uses_wild for _, p in hands)


@pytest.mark.parametrize(("hand", "previous", "rules", "count"), COUNT_LINES, ids=LINE_IDS)
def test_perft_counts(hand: str, previous: str, rules: str, count: int) -> None:
    moves = wild_moves(*situation(hand, previous, rules))
    assert len(moves) == count, divide(moves)
    assert len(set(moves)) == len(moves), "a move is listed twice"


@pytest.mark.parametrize(("hand", "previous", "rules", "count"), COUNT_LINES, ids=LINE_IDS)
def test_brute_force_gives_the_same_moves(hand: str, previous: str, rules: str, count: int) -> None:
    packed, before, rule_set = situation(hand, previous, rules)
    expected = reference_moves(packed, before, rule_set)
    got = wild_moves(packed, before, rule_set)
    assert Counter(got) == Counter(expected), difference(expected, got)
    assert len(expected) == count


# --- the readings of wild.py's docstring, one by one --------------------------------------


def plays(hand: str, previous: str = "", rules: Rules = CAISHEN) -> list[str]:
    before = parse_move(previous) if previous else PASS
    return [str(m) for m in wild_moves(from_text(hand), before, rules)]


def test_w_is_never_a_single_by_itself() -> None:
    """The 财神 stands for one of the cards it is played with: never led or followed alone
    (a player left with only the 财神 has won: "出牌到结果只剩下财神牌，则视为赢了")."""
    assert plays("W") == []
    assert plays("W", "A") == ["pass"]
    assert plays("5W") == ["5", "5W/55"]
    assert plays("5W", "4") == ["pass", "5"]
    assert "W" not in [m.split("/")[0] for m in plays("3456789TJQKA22W")]


def test_jokers_alone_are_themselves() -> None:
    assert plays("BR") == ["B", "R", "BR"]
    assert plays("B", "A") == ["pass", "B"]
    assert "3B/33" in plays("3B")
    assert plays("BR", "22") == ["pass", "BR"]


def mixes_w_and_joker(cards: int) -> bool:
    return bool(count_of(cards, WILD) and count_of(cards, BLACK) + count_of(cards, RED))


def test_no_play_holds_w_and_a_joker() -> None:
    moves = wild_moves(from_text("3345BRW"), PASS, CAISHEN)
    assert [m for m in moves if mixes_w_and_joker(m.cards)] == []
    assert {"3W/33", "3B/33", "3R/33"} <= {str(m) for m in moves}


def test_bombs_with_wild_cards() -> None:
    moves = plays("777WBR")
    for bomb in ("777W/7777", "777B/7777", "777R/7777", "77BR/7777"):
        assert bomb in moves
    assert "7777W/77777" in plays("7777W")
    assert Kind.WILD_BOMB not in {m.kind for m in wild_moves(from_text("777BR"), PASS, CAISHEN)}
    assert 5 not in {m.size for m in wild_moves(from_text("7777BR"), PASS, CAISHEN)}


def test_a_wild_card_may_replace_a_natural_card_still_held() -> None:
    assert {"33", "3W/33", "333", "33W/333"} <= set(plays("333W"))


def test_one_canonical_reading_per_combination() -> None:
    assert "333B" in plays("333B")
    assert "333B/3334" not in plays("333B")
    assert "333W/3334" in plays("333W")
    assert "44445W/344445" in plays("44445W")
    assert "3335W/33355" in plays("3335W")
    moves = plays("333BR")
    assert "33BR/333R" in moves
    assert "33BR/333B" not in moves


def test_both_jokers_as_kickers() -> None:
    allowed = PRESETS["caishen-rk"]
    for hand, move in [
        ("4444BR", "4444BR"),
        ("333444BR", "333444BR"),
        ("33344BR", "333BR/33344"),
        ("33344456BR", "33344456BR/3334445566"),
    ]:
        assert move not in plays(hand), move
        assert move in plays(hand, rules=allowed), move
    assert "3335BR/33335R" in plays("3335BR")


def test_ties_never_beat() -> None:
    assert "8W/88" not in plays("8W", "88")
    assert "9W/99" in plays("9W", "88")
    assert plays("7777W", "7777W/77777") == ["pass"]
    assert plays("777W", "777B/7777") == ["pass"]
    assert plays("888W", "777B/7777") == ["pass", "888W/8888"]


# --- properties on seeded full hands -----------------------------------------------------


def caishen_hands(seed: int, count: int) -> list[int]:
    """Landlord hands: ``W`` and 20 cards of a shuffled 54-card deck (some with both jokers)."""
    rng = random.Random(seed)
    deck = [*"3456789TJQKA2" * 4, "B", "R"]
    hands = []
    for i in range(count):
        rng.shuffle(deck)
        extra = "BR" if i % 3 == 0 else ""
        rest = [c for c in deck if c not in extra][: 20 - len(extra)]
        hands.append(from_text("".join(rest) + extra + "W"))
    return hands


def test_full_hands_properties() -> None:
    rng = random.Random(11)
    hands = caishen_hands(7, 25)
    for hand in hands:
        leads = wild_moves(hand, PASS, CAISHEN)
        assert len(set(leads)) == len(leads), to_text(hand)
        assert leads == wild_moves(hand, PASS, CAISHEN)
        natural = [m for m in leads if not m.uses_wild]
        assert natural == lead_moves(hand - unit(WILD), CAISHEN)
        for move in leads:
            assert contains(hand, move.cards), move
            assert move in natural_readings(move.natural, cards=move.cards), move.describe
            assert not mixes_w_and_joker(move.cards), move
        previous = rng.choice(leads)
        other = hands[0]
        answers = [m for m in wild_moves(other, PASS, CAISHEN) if reference_beats(m, previous)]
        follows = wild_moves(other, previous, CAISHEN)
        assert Counter(follows) == Counter([PASS, *answers]), previous.describe
        assert follows[0] == PASS


def test_random_small_hands_match_the_brute_force() -> None:
    rng = random.Random(5)
    deck = [*"3456789TJQKA2" * 4, "B", "R", "W"]
    for _ in range(12):
        hand = from_text("".join(rng.sample(deck, rng.randint(3, 8))))
        if count_of(hand, WILD) + count_of(hand, BLACK) + count_of(hand, RED) == 0:
            hand += from_text("W")
        for rules in PRESETS.values():
            expected = reference_leads(hand, rules)
            got = wild_moves(hand, PASS, rules)
            assert Counter(got) == Counter(expected), to_text(hand) + difference(expected, got)


def test_entry_points_dispatch_here() -> None:
    hand = from_text("777W")
    assert moves_for(hand, PASS, CAISHEN) == wild_moves(hand, PASS, CAISHEN)
    assert [str(m) for m in legal_moves("777W", "666B/6666", "caishen")] == ["pass", "777W/7777"]


def test_two_wildcards_are_malformed() -> None:
    with pytest.raises(InvalidActionError) as error:
        wild_moves(from_text("3WW"), PASS, CAISHEN)
    assert error.value.code == "bad_cards"


def main() -> None:
    """Print the counts file again, every count from the brute-force reference."""
    sys.stdout.write(COUNTS.read_text(encoding="utf-8").split("\n\n")[0] + "\n\n")
    for hand, previous, rules, _ in COUNT_LINES:
        count = len(reference_moves(*situation(hand, previous, rules)))
        sys.stdout.write(f"{hand:<16} {previous:<16} {rules:<12} {count}\n")


if __name__ == "__main__":
    main()


def test_kinds_a_rule_set_lacks_are_left_out() -> None:
    lacking = CAISHEN.derive("caishen-lacking", trio_single=False, four_two=False)
    hand = from_text("333344W5")
    kinds = {m.kind for m in wild_moves(hand, PASS, CAISHEN)}
    assert {Kind.TRIO_SINGLE, Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS} <= kinds
    kinds = {m.kind for m in wild_moves(hand, PASS, lacking)}
    assert not kinds & {Kind.TRIO_SINGLE, Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS}
    assert Kind.TRIO_PAIR in kinds
