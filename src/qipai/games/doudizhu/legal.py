"""Legal moves under a rule set: the one entry point for natural and wildcard hands.

>>> [str(m) for m in legal_moves("3345", "4")]
['pass', '5']
>>> [str(m) for m in legal_moves("BR", "2")]
['pass', 'B', 'R', 'BR']
>>> "777W/7777" in [str(m) for m in legal_moves("777W", "", rules="caishen")]
True
"""

from __future__ import annotations

from qipai.errors import InvalidActionError
from qipai.games.doudizhu.combos import (
    HIGH_BITS,
    PASS,
    RANK_CHARS,
    SLOT_BITS,
    TWO,
    Move,
    counts,
    from_text,
    readings,
    size,
)
from qipai.games.doudizhu.moves import follow_moves, lead_moves
from qipai.games.doudizhu.rules import Rules, get_rules

HAND_SIZE = 17
"""Cards dealt to each player before the bottom is taken."""


def _over_limits(*, wildcard: bool) -> int:
    """Added to a packed hand (counts under 8), sets bit 3 of every slot over its limit."""
    most = [4] * (TWO + 1) + [1, 1, 1 if wildcard else 0]
    return sum((7 - m) << (SLOT_BITS * s) for s, m in enumerate(most))


_OVER = (_over_limits(wildcard=False), _over_limits(wildcard=True))
""":func:`_over_limits` without and with the wildcard."""


def moves_for(hand: int, previous: Move, rules: Rules) -> list[Move]:
    """Legal moves of a packed ``hand`` after ``previous`` (:data:`PASS` = leading).

    The fast entry point used by the state machine and the bots.
    """
    if rules.wildcard or rules.jokers_wild:
        from qipai.games.doudizhu.wild import wild_moves  # noqa: PLC0415 (lazy: caishen only)

        return wild_moves(hand, previous, rules)
    if previous.cards:  # the pass is the one move without cards
        return follow_moves(hand, previous, rules)
    return lead_moves(hand, rules)


def check_hand(hand: int, rules: Rules) -> None:
    """Refuse a packed hand that the rule set's deck cannot deal.

    At most four of a rank, one of each joker, one ``W`` (``caishen`` only) and no more
    cards than a landlord holds (20, or 21 with the wildcard).

    :raises InvalidActionError: ``bad_cards``.
    """
    over = hand & HIGH_BITS or (hand + _OVER[rules.wildcard]) & HIGH_BITS
    if over or size(hand) > HAND_SIZE + rules.bottom_size:
        _refuse_hand(hand, rules)


def _refuse_hand(hand: int, rules: Rules) -> None:
    """Raise the error :func:`check_hand` found, naming the slots over their limit."""
    most = [4] * (TWO + 1) + [1, 1, 1 if rules.wildcard else 0]
    over = [RANK_CHARS[s] for s, c in enumerate(counts(hand)) if c > most[s]]
    if over:
        raise InvalidActionError("bad_cards", f"too many cards of {', '.join(over)}")
    if size(hand) > HAND_SIZE + rules.bottom_size:
        raise InvalidActionError("bad_cards", "more cards than a landlord holds")


def is_valid_move(move: Move, rules: Rules) -> bool:
    """Whether ``move`` is a combination of ``rules``: its cards, led, may be played so."""
    return move.is_pass or move in moves_for(move.cards, PASS, rules)


def legal_moves(hand: str, previous: str | Move = "", rules: str | Rules = "yifa") -> list[Move]:
    """Every legal play for ``hand`` after ``previous`` (``""`` = leading).

    The pass is included (first) when following.  A play with two readings appears once
    per reading.  An ambiguous ``previous`` string takes its preferred reading
    (:func:`~.combos.parse_move`); pass a :class:`Move` to choose another.

    :raises InvalidActionError: ``bad_cards``, ``unknown_rules`` or ``not_a_combination``.
    """
    rule_set = get_rules(rules)
    packed = from_text(hand)
    check_hand(packed, rule_set)
    if previous == "" or previous is PASS:  # leading: nothing to read or check
        return moves_for(packed, PASS, rule_set)
    if isinstance(previous, str):
        options = [m for m in readings(previous) if _valid_previous(m, rule_set)]
        if not options:
            raise InvalidActionError(
                "not_a_combination", f"{previous!r} is not a combination in {rule_set.name}"
            )
        previous = options[0]
    elif not _valid_previous(previous, rule_set):
        raise InvalidActionError(
            "not_a_combination", f"{previous} is not a combination in {rule_set.name}"
        )
    return moves_for(packed, previous, rule_set)


def _valid_previous(move: Move, rules: Rules) -> bool:
    try:
        check_hand(move.cards, rules)
    except InvalidActionError:
        return False
    return is_valid_move(move, rules)
