"""Adapters between our packed moves and the two research references, and their differences.

* **DouZero** 1.1.0 (``douzero.env``): cards are sorted int lists, ``3..14`` for ``3..A``,
  ``17`` for ``2``, ``20``/``30`` for the jokers; move types are the ints ``TYPE_1_SINGLE``
  … ``TYPE_14_4_22``; ``GameEnv.get_legal_card_play_actions`` is its move list.
* **RLCard** 1.2.0 (``rlcard.games.doudizhu``): cards are strings in our own notation
  (``3..A 2 B R``), a move's type is the single ``[type, weight]`` entry of the JSON table
  ``CARD_TYPE``; ``DoudizhuJudger.playable_cards_from_hand`` leads, ``get_gt_cards`` follows.

A *reading key* ``(cards, kind, length, low)`` names one reading of a move whatever the
tool: packed cards, our :class:`Kind`, units in the chain, and the slot of the lowest rank
of the main part.  Each reference's differences from ``docs/rules/doudizhu.md`` are the
named predicates at the end; the tests filter with them and nothing else.  The seeded
sampler of (hand, previous) pairs that both reference tests use is here too.

>>> from qipai.games.doudizhu.combos import from_text
>>> to_douzero(from_text("3TA2BR"))
[3, 10, 14, 17, 20, 30]
>>> to_text(from_douzero([30, 20, 17, 3]))
'32BR'
>>> kind, length, low = rlcard_reading("33344456")
>>> kind.label, length, low
('plane_singles', 2, 0)
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable
from types import SimpleNamespace

from douzero.env import move_detector, move_selector
from douzero.env.game import GameEnv
from douzero.env.move_generator import MovesGener
from rlcard.games.doudizhu.judger import DoudizhuJudger
from rlcard.games.doudizhu.utils import CARD_TYPE, get_gt_cards

from qipai.games.doudizhu import PASS, Rules, moves_for
from qipai.games.doudizhu.combos import (
    ACE,
    BLACK,
    RED,
    TWO,
    Kind,
    Move,
    contains,
    count_of,
    counts,
    natural_readings,
    to_text,
    unit,
)

Key = tuple[int, Kind, int, int]
"""A reading key: (packed cards, kind, chain units, slot of the main part's lowest rank)."""

_JOKERS = unit(BLACK) + unit(RED)
_UNITS = tuple(unit(s) for s in range(RED + 1))


def key_of(move: Move) -> Key:
    """The reading key of one of our moves."""
    return move.cards, move.kind, move.length, move.main - move.length + 1


def reading_with(cards: int, kind: Kind, length: int, low: int) -> Move | None:
    """Our reading of ``cards`` with this kind, length and lowest main rank, if any."""
    for move in natural_readings(cards):
        if key_of(move) == (cards, kind, length, low):
            return move
    return None


# --- Seeded samples ------------------------------------------------------------------------

DECK = tuple(s for s in range(RED + 1) for _ in range(4 if s <= TWO else 1))
"""The 54 cards, as slots."""
_CLUMPS = (1, 2, 3, 3, 3, 4)


def draw(rng: random.Random, deck: list[int], size: int) -> tuple[int, list[int]]:
    """``size`` cards of ``deck`` (packed) and the cards left.

    Half the draws are plain shuffles; the other half take whole groups of a rank at a
    time, so that trios, bombs, airplanes and four-with-two are common.
    """
    if rng.random() < 0.5:
        rng.shuffle(deck)
        return sum(_UNITS[s] for s in deck[:size]), deck[size:]
    left = Counter(deck)
    hand = taken = 0
    while taken < size:
        slot = rng.choice(sorted(left))
        take = min(rng.choice(_CLUMPS), left[slot], size - taken)
        hand += unit(slot, take)
        taken += take
        left[slot] -= take
        if not left[slot]:
            del left[slot]
    return hand, list(left.elements())


def random_pair(
    rng: random.Random, rules: Rules, *, kinds: frozenset[Kind] | None = None, smallest: int = 1
) -> tuple[int, Move]:
    """A hand of ``smallest``-20 cards and a random lead of another hand drawn from the rest.

    The previous move's shape (kind and chain length) is drawn uniformly among the other
    hand's (among ``kinds`` if given, drawing again until there is one); half the time only
    among shapes the first hand can also lead, so that answers exist.
    """
    by_shape: dict[tuple[Kind, int], list[Move]] = {}
    while not by_shape:
        hand, rest = draw(rng, list(DECK), rng.randint(smallest, 20))
        other, _ = draw(rng, rest, rng.randint(smallest, 20))
        for move in moves_for(other, PASS, rules):
            if kinds is None or move.kind in kinds:
                by_shape.setdefault((move.kind, move.length), []).append(move)
    mine = {(m.kind, m.length) for m in moves_for(hand, PASS, rules)} & by_shape.keys()
    choices = sorted(mine if mine and rng.random() < 0.5 else by_shape)
    return hand, rng.choice(by_shape[rng.choice(choices)])


# --- DouZero -------------------------------------------------------------------------------

DOUZERO_VALUES = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
"""DouZero's card value of each of our slots ``3 … A 2 B R``."""
_DOUZERO_SLOT = {value: slot for slot, value in enumerate(DOUZERO_VALUES)}
_DOUZERO_UNIT = {value: unit(slot) for slot, value in enumerate(DOUZERO_VALUES)}

DOUZERO_KIND = {
    1: Kind.SINGLE, 2: Kind.PAIR, 3: Kind.TRIO, 4: Kind.BOMB, 5: Kind.ROCKET,
    6: Kind.TRIO_SINGLE, 7: Kind.TRIO_PAIR, 8: Kind.CHAIN, 9: Kind.PAIR_CHAIN,
    10: Kind.TRIO_CHAIN, 11: Kind.PLANE_SINGLES, 12: Kind.PLANE_PAIRS,
    13: Kind.FOUR_TWO_SINGLES, 14: Kind.FOUR_TWO_PAIRS,
}  # fmt: skip
"""Our kind of each DouZero ``TYPE_n`` (``douzero.env.utils``)."""
_GENERATOR = {
    1: "gen_type_1_single", 2: "gen_type_2_pair", 3: "gen_type_3_triple",
    4: "gen_type_4_bomb", 5: "gen_type_5_king_bomb", 6: "gen_type_6_3_1",
    7: "gen_type_7_3_2", 8: "gen_type_8_serial_single", 9: "gen_type_9_serial_pair",
    10: "gen_type_10_serial_triple", 11: "gen_type_11_serial_3_1",
    12: "gen_type_12_serial_3_2", 13: "gen_type_13_4_2", 14: "gen_type_14_4_22",
}  # fmt: skip
"""``MovesGener`` method of each type; ``move_selector``'s filter is ``filter_…`` alike."""
_SERIAL = frozenset({8, 9, 10, 11, 12})


def to_douzero(packed: int) -> list[int]:
    """DouZero's sorted card list of a packed hand or move."""
    return [DOUZERO_VALUES[s] for s, n in enumerate(counts(packed)[: RED + 1]) for _ in range(n)]


def from_douzero(cards: Iterable[int]) -> int:
    """Packed vector of a DouZero card list (any order)."""
    return sum(map(_DOUZERO_UNIT.__getitem__, cards))


def douzero_env_moves(hand: int, previous: int) -> list[list[int]]:
    """``GameEnv.get_legal_card_play_actions`` for ``hand`` after ``previous`` (0 = lead)."""
    env = GameEnv(players={})
    env.acting_player_position = "landlord"
    env.info_sets["landlord"].player_hand_cards = to_douzero(hand)
    env.card_play_action_seq = [to_douzero(previous)] if previous else []
    moves: list[list[int]] = env.get_legal_card_play_actions()
    return moves


def douzero_detect(cards: int) -> tuple[Kind, int, int] | None:
    """(kind, length, low slot) that ``move_detector.get_move_type`` reads, or None if wrong."""
    found = move_detector.get_move_type(to_douzero(cards))
    kind = DOUZERO_KIND.get(found["type"])
    if kind is None:
        return None
    low = RED if kind is Kind.ROCKET else _DOUZERO_SLOT[found["rank"]]
    return kind, found.get("len", 1), low


def _douzero_key(move: list[int], type_: int) -> Key:
    """Key of a raw generator move; an airplane's chain is its first ``3n`` cards."""
    cards = from_douzero(move)
    kind = DOUZERO_KIND[type_]
    if kind is Kind.PLANE_SINGLES:
        return cards, kind, len(move) // 4, _DOUZERO_SLOT[move[0]]
    return cards, kind, *_main_part(cards, kind)


_MAIN_WIDTH = {
    Kind.TRIO_SINGLE: 3, Kind.TRIO_PAIR: 3, Kind.PLANE_PAIRS: 3,
    Kind.FOUR_TWO_SINGLES: 4, Kind.FOUR_TWO_PAIRS: 4,
}  # fmt: skip
"""Cards per rank of the main part of the kinds with kickers (the others: every rank)."""
_CHAIN_KINDS = frozenset({Kind.CHAIN, Kind.PAIR_CHAIN, Kind.TRIO_CHAIN, Kind.PLANE_PAIRS})


@functools.cache
def _main_part(cards: int, kind: Kind) -> tuple[int, int]:
    """(length, lowest slot) of the main part of ``cards`` read as ``kind``; not for an
    airplane with single wings, whose chain the cards alone may not tell."""
    if kind is Kind.ROCKET:
        return 1, RED
    width = _MAIN_WIDTH.get(kind)
    main = [s for s, n in enumerate(counts(cards)) if n and n == (width or n)]
    return (len(main) if kind in _CHAIN_KINDS else 1), main[0]


def move_of(key: Key) -> Move:
    """The natural move a reading key names (no check that the cards fit the kind)."""
    cards, kind, length, low = key
    return Move(kind, low + length - 1, length, cards, cards)


def douzero_readings(hand: int, previous: int) -> list[Key]:
    """DouZero's moves as reading keys, in ``GameEnv``'s order (pass left out).

    ``GameEnv`` drops each move's type; this calls the same ``MovesGener`` methods and
    ``move_selector`` filters as ``get_legal_card_play_actions`` does, typed; the tests
    check that the card lists agree with ``GameEnv``'s.
    """
    generator = MovesGener(to_douzero(hand))
    rival = move_detector.get_move_type(to_douzero(previous))
    rival_type = rival["type"]
    if rival_type == 0:
        return [
            _douzero_key(m, t) for t, name in _GENERATOR.items() for m in getattr(generator, name)()
        ]
    found: list[Key] = []
    if rival_type not in (4, 5):
        name = _GENERATOR[rival_type]
        args = (rival.get("len", 1),) if rival_type in _SERIAL else ()
        candidates = getattr(generator, name)(*args)
        chosen = getattr(move_selector, name.replace("gen_", "filter_"))(
            candidates, to_douzero(previous)
        )
        found += [_douzero_key(m, rival_type) for m in chosen]
    if rival_type != 5:
        bombs = generator.gen_type_4_bomb() + generator.gen_type_5_king_bomb()
        if rival_type == 4:
            bombs = move_selector.filter_type_4_bomb(bombs, to_douzero(previous))
        found += [_douzero_key(m, 5 if len(m) == 2 else 4) for m in bombs]
    return found


def douzero_plane_rank(cards: int) -> int:
    """The slot DouZero's ``filter_type_11_serial_3_1`` ranks an airplane by: its highest trio."""
    return max(s for s in range(RED + 1) if count_of(cards, s) == 3)


# --- RLCard --------------------------------------------------------------------------------

_RLCARD_KIND = {
    "solo": Kind.SINGLE, "pair": Kind.PAIR, "trio": Kind.TRIO, "bomb": Kind.BOMB,
    "rocket": Kind.ROCKET, "trio_solo": Kind.TRIO_SINGLE, "trio_pair": Kind.TRIO_PAIR,
    "four_two_solo": Kind.FOUR_TWO_SINGLES, "four_two_pair": Kind.FOUR_TWO_PAIRS,
}  # fmt: skip
"""Our kind of each RLCard type name that is not a chain."""
_RLCARD_CHAIN = {
    "solo": Kind.CHAIN, "pair": Kind.PAIR_CHAIN, "trio": Kind.TRIO_CHAIN,
    "trio_solo": Kind.PLANE_SINGLES, "trio_pair": Kind.PLANE_PAIRS,
}  # fmt: skip
"""Our kind of each RLCard ``<unit>_chain_<n>`` type, by its unit."""
_RLCARD_KICKED = frozenset({"trio_solo", "trio_pair", "four_two_solo", "four_two_pair"})
"""Units whose JSON weight is the lowest main rank's index *plus one*."""


def rlcard_reading(text: str) -> tuple[Kind, int, int] | None:
    """(kind, length, low slot) of a card string in RLCard's ``CARD_TYPE`` table, or None."""
    entry = CARD_TYPE[0].get(text)
    if entry is None:
        return None
    ((name, weight),) = entry  # RLCard gives every card string exactly one type
    unit_name, _, units = name.partition("_chain_")
    kind = _RLCARD_CHAIN[unit_name] if units else _RLCARD_KIND[name]
    if kind is Kind.ROCKET:
        return kind, 1, RED
    low = int(weight) - (1 if unit_name in _RLCARD_KICKED else 0)
    return kind, int(units or 1), low


def rlcard_lead(hand: int) -> set[str]:
    """``DoudizhuJudger.playable_cards_from_hand``: the card strings a hand may lead."""
    found: set[str] = DoudizhuJudger.playable_cards_from_hand(to_text(hand))
    return found


def _rlcard_card(ch: str) -> SimpleNamespace:
    """A stand-in for ``rlcard.games.base.Card`` as ``cards2str`` reads it."""
    return (
        SimpleNamespace(rank="", suit=ch + "J")
        if ch in "BR"
        else SimpleNamespace(rank=ch, suit="S")
    )


def rlcard_follow(hand: int, previous: int) -> list[str]:
    """``get_gt_cards``: the card strings (and ``"pass"``) a hand may play on ``previous``."""
    player = SimpleNamespace(current_hand=[_rlcard_card(ch) for ch in to_text(hand)])
    greater = SimpleNamespace(played_cards=to_text(previous))
    found: list[str] = get_gt_cards(player, greater)
    return found


# --- The references' differences from our rules, each a named predicate --------------------


def attaches_rocket(move: Move) -> bool:
    """Both jokers attached together as kickers or wings (DouZero allows it; the rules'
    ``rocket_as_kickers`` option, off by default)."""
    kicked = move.kind in (Kind.PLANE_SINGLES, Kind.FOUR_TWO_SINGLES)
    return kicked and contains(move.cards, _JOKERS)


def ranked_by_wing_trio(move: Move, previous: Move) -> bool:
    """DouZero reference bug: airplanes with single wings compared by the highest trio
    anywhere in the move (wings included), and here that verdict differs from the rules'."""
    if move.kind is not Kind.PLANE_SINGLES or previous.kind is not Kind.PLANE_SINGLES:
        return False
    spec = move.main > previous.main
    douzero = douzero_plane_rank(move.cards) > douzero_plane_rank(previous.cards)
    return spec != douzero


def _wing_counts(move: Move) -> list[int]:
    low = move.main - move.length + 1
    return [0 if low <= s <= move.main else n for s, n in enumerate(counts(move.cards))]


def wings_hold_bomb(move: Move) -> bool:
    """An airplane whose single wings include all four cards of a rank (RLCard forbids it)."""
    return move.kind is Kind.PLANE_SINGLES and 4 in _wing_counts(move)


def wing_trio_extends_chain(move: Move) -> bool:
    """An airplane whose single wings include a trio of the rank just below or above the
    chain, 3..A (RLCard forbids it: its ``solo_attachments`` skips "3 same cards consecutive
    with the trio")."""
    if move.kind is not Kind.PLANE_SINGLES:
        return False
    wings = _wing_counts(move)
    low = move.main - move.length + 1
    return any(0 <= s <= ACE and wings[s] == 3 for s in (low - 1, move.main + 1))


def douzero_misreads(move: Move) -> bool:
    """An airplane DouZero's ``move_detector`` types ``TYPE_15_WRONG``: 4+ units with a trio
    or a bomb among the wings (it then counts 5+ trios, or meets a four)."""
    return move.kind is Kind.PLANE_SINGLES and move.length >= 4 and max(_wing_counts(move)) >= 3
