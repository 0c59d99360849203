"""Perft-style move counts (``tests/data/ddz.counts``) for the natural presets.

Each line of the count file names a preset, a hand, ``lead`` or ``follow … previous …``,
and the number of legal moves: every reading counts (``333444555666`` leads as a trio
chain and as two airplanes: three), and the pass counts one when following.  Every line
is checked against both our generator (:func:`qipai.games.doudizhu.legal_moves`) and the
brute-force enumerator below, which shares no code with ``combos.py`` / ``moves.py``:
it lists every sub-multiset of the hand and classifies each with a small classifier
written from the rules' table, so the file can drift from neither.  On a mismatch the
test prints a per-kind "divide": the count of each kind, ours against the brute force.

The OpenSpiel counts of ``dou_dizhu_utils_test.cc`` are checked too, on the matching
subset of kinds (OpenSpiel's "single-rank" plays are singles, pairs, trios and bombs; its
"chain-only" plays the three chain kinds; it has no four-with-two).
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from qipai.games.doudizhu import PASS, RULES, Move, legal_moves, moves_for
from qipai.games.doudizhu.combos import from_text, readings

COUNT_FILE = Path(__file__).resolve().parents[1] / "data" / "ddz.counts"
PRESETS = ("yifa", "huanle", "jj", "zhengtu")

# --- The brute force: every sub-multiset, a classifier written from the rules --------------

RANKS = "3456789TJQKA2BR"
"""Rank characters, low to high; the index is the rank's order."""
ACE, TWO, BLACK, RED = 11, 12, 13, 14
PLAIN = {1: "single", 2: "pair", 3: "trio", 4: "bomb"}
CHAINS = {1: ("chain", 5), 2: ("pair_chain", 3), 3: ("trio_chain", 2)}
"""Cards per rank of a chain → (kind, fewest ranks)."""


@dataclass(frozen=True)
class Reading:
    """One way to read a set of cards: kind, top rank of the main part, units, size."""

    kind: str
    top: int
    length: int
    size: int


def classify(c: tuple[int, ...]) -> list[Reading]:
    """Every reading of the count vector ``c`` (15 ranks), per the rules' table.

    Kickers: any other rank for a trio's single; ``n`` wing cards of ranks outside an
    airplane's chain; ``n`` pairs of distinct ranks outside it; any two other cards with a
    four; two pairs of two distinct other ranks.  Both jokers never attach together.
    """
    present = [r for r in range(15) if c[r]]
    n = sum(c)
    if len(present) == 1:
        return [Reading(PLAIN[n], present[0], 1, n)]
    if n == 2 and c[BLACK] and c[RED]:
        return [Reading("rocket", RED, 1, 2)]
    found = []
    width, lowest, top = c[present[0]], present[0], present[-1]
    run = top <= ACE and top - lowest + 1 == len(present) and all(c[r] == width for r in present)
    if run and width in CHAINS and len(present) >= CHAINS[width][1]:
        found.append(Reading(CHAINS[width][0], top, len(present), n))
    rocket = c[BLACK] and c[RED]
    if n <= 8:  # the kicker kinds with one main rank have 4 to 8 cards
        found += _kicked(c, present, n, rocket)
    trios = [r for r in present if c[r] == 3 and r <= ACE]
    for i, low in enumerate(trios):
        for j in range(i + 1, len(trios)):
            if trios[j] - low != j - i:  # the chain low..trios[j] must be consecutive
                break
            units = j - i + 1
            wings = [r for r in present if not low <= r <= trios[j]]
            if n == 4 * units and not rocket:
                found.append(Reading("plane_singles", trios[j], units, n))
            if n == 5 * units and len(wings) == units and all(c[r] == 2 for r in wings):
                found.append(Reading("plane_pairs", trios[j], units, n))
    return found


def _kicked(c: tuple[int, ...], present: list[int], n: int, rocket: bool) -> list[Reading]:
    found = []
    for r in present:
        others = [s for s in present if s != r]
        if c[r] == 3 and n == 4:
            found.append(Reading("trio_single", r, 1, n))
        if c[r] == 3 and n == 5 and c[others[0]] == 2:
            found.append(Reading("trio_pair", r, 1, n))
        if c[r] == 4 and n == 6 and not rocket:
            found.append(Reading("four_two_singles", r, 1, n))
        if c[r] == 4 and n == 8 and len(others) == 2 and all(c[s] == 2 for s in others):
            found.append(Reading("four_two_pairs", r, 1, n))
    return found


def beats(move: Reading, previous: Reading) -> bool:
    """The rules' comparison: rocket over all, bombs over non-bombs, else same shape higher."""
    if previous.kind == "rocket":
        return False
    if move.kind in ("rocket", "bomb"):
        return move.kind == "rocket" or previous.kind != "bomb" or move.top > previous.top
    same = (move.kind, move.length, move.size) == (previous.kind, previous.length, previous.size)
    return previous.kind != "bomb" and same and move.top > previous.top


def counts_of(text: str) -> tuple[int, ...]:
    return tuple(text.count(r) for r in RANKS)


@functools.cache
def every_reading(hand: str) -> tuple[Reading, ...]:
    """Every reading of every non-empty sub-multiset of ``hand``: the brute force."""
    ranges = [range(k + 1) for k in counts_of(hand)]
    return tuple(r for sub in itertools.product(*ranges) if any(sub) for r in classify(sub))


def preset_kinds(preset: str) -> set[str]:
    rules = RULES[preset]
    kinds = {"single", "pair", "trio", "trio_pair", "chain", "pair_chain", "trio_chain"}
    kinds |= {"plane_pairs", "bomb", "rocket"}
    kinds |= {"trio_single"} if rules.trio_single else set()
    kinds |= {"plane_singles"} if rules.plane_singles else set()
    kinds |= {"four_two_singles", "four_two_pairs"} if rules.four_two else set()
    return kinds


def brute_force(preset: str, hand: str, previous: str | None) -> Counter[str]:
    """Count per kind of the legal moves (``pass`` included when following)."""
    kinds = preset_kinds(preset)
    moves = [r for r in every_reading(hand) if r.kind in kinds]
    if previous is None:
        return Counter(r.kind for r in moves)
    (prev,) = [r for r in classify(counts_of(previous)) if r.kind in kinds]
    return Counter(["pass"] + [r.kind for r in moves if beats(r, prev)])


# --- The count file ------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """``<preset> lead <hand> count N`` or ``<preset> follow <hand> previous <move> count N``."""

    preset: str
    hand: str
    previous: str | None
    count: int

    @classmethod
    def parse(cls, text: str) -> Line:
        words = text.split()
        if words[1] == "lead" and len(words) == 5 and words[3] == "count":
            return cls(words[0], words[2], None, int(words[4]))
        assert words[1] == "follow" and words[3] == "previous" and words[5] == "count", text
        return cls(words[0], words[2], words[4], int(words[6]))

    def __str__(self) -> str:
        play = "lead" if self.previous is None else f"follow {self.hand} previous"
        middle = self.hand if self.previous is None else self.previous
        return f"{self.preset} {play} {middle} count {self.count}"


def count_lines() -> list[Line]:
    text = COUNT_FILE.read_text(encoding="utf-8").splitlines()
    return [Line.parse(t) for t in text if t.strip() and not t.startswith("#")]


def ours(line: Line) -> Counter[str]:
    """Count per kind of our legal moves."""
    previous = "" if line.previous is None else line.previous
    return Counter(m.kind.label for m in legal_moves(line.hand, previous, line.preset))


def divide(mine: Counter[str], brute: Counter[str]) -> str:
    kinds = sorted(set(mine) | set(brute))
    rows = [f"  {k:<17} ours {mine[k]:>6}  brute force {brute[k]:>6}" for k in kinds]
    return "\n".join(["divide:", *rows])


LINES = count_lines()


def test_the_count_file_covers_every_natural_preset_and_both_plays() -> None:
    assert len(LINES) >= 30
    assert {line.preset for line in LINES} == set(PRESETS)
    assert {line.previous is None for line in LINES} == {True, False}
    assert "558999TJJJJKKK" in {line.hand for line in LINES}
    deck = counts_of("3456789TJQKA2" * 4 + "BR")
    for line in LINES:
        if line.previous is not None:  # an unambiguous previous move in its preset
            kinds = preset_kinds(line.preset)
            assert len([m for m in readings(line.previous) if m.kind.label in kinds]) == 1, line
        cards = counts_of(line.hand + (line.previous or ""))
        assert all(n <= most for n, most in zip(cards, deck, strict=True)), line  # one deck


@pytest.mark.parametrize("line", LINES, ids=str)
def test_count(line: Line) -> None:
    mine, brute = ours(line), brute_force(line.preset, line.hand, line.previous)
    assert mine == brute, divide(mine, brute)
    assert sum(mine.values()) == line.count, f"the file says {line.count}\n" + divide(mine, brute)


# --- OpenSpiel's hand-derived counts (open_spiel/games/dou_dizhu/dou_dizhu_utils_test.cc) -----

SINGLE_RANK = {"single", "pair", "trio", "bomb"}
CHAIN_ONLY = {"chain", "pair_chain", "trio_chain"}
TRIO_COMB = {"trio_single", "trio_pair"}
AIRPLANE_COMB = {"plane_singles", "plane_pairs"}


def _previous(text: str, top: str | None = None) -> Move:
    """The reading of ``text`` (whose chain tops at ``top`` if several)."""
    found = [m for m in readings(text) if top is None or m.main == RANKS.index(top)]
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize(
    ("hand", "previous", "kinds", "count"),
    [
        # 6 solos + 4 pairs + 3 trios + 1 bomb = 14 single-rank plays.
        ("558999TJJJJKKK", None, SINGLE_RANK, 14),
        # Following, OpenSpiel counts the plays of the previous kind (bombs apart).
        ("558999TJJJJKKK", _previous("999"), {"trio"}, 2),  # JJJ, KKK
        ("558999TJJJJKKK", _previous("B"), {"single"}, 0),
        ("5566777888999TTTJJQQKKAA22BR", None, CHAIN_ONLY, 63),
        ("5566777888999TTTJJQQKKAA22BR", _previous("666777888"), CHAIN_ONLY, 2),
        ("5566777888999TTTJJQQKKAA22BR", _previous("33445566778899TTJJ"), CHAIN_ONLY, 2),
        ("666777TTTQQQ222BR", None, TRIO_COMB, 50),
        ("666777TTTQQQ222BR", _previous("999R"), TRIO_COMB, 18),
        ("666777TTTQQQ222BR", _previous("33322"), TRIO_COMB, 20),
        ("667899TTTJJJJQQQKKKAAA222BR", None, AIRPLANE_COMB, 1052),
        ("667899TTTJJJJQQQKKKAAA222BR", _previous("777888999TTTJJJQQQ2R", "Q"), AIRPLANE_COMB, 90),
        ("667899TTTJJJJQQQKKKAAA222BR", _previous("334455TTTJJJQQQKKK22"), AIRPLANE_COMB, 1),
    ],
)
def test_openspiel_hand_derived_counts(
    hand: str, previous: Move | None, kinds: set[str], count: int
) -> None:
    """OpenSpiel's hands hold up to 28 cards: :func:`moves_for` takes them, unchecked."""
    moves = moves_for(from_text(hand), PASS if previous is None else previous, RULES["yifa"])
    assert sum(m.kind.label in kinds for m in moves) == count
