"""Dou Dizhu 斗地主: five rule sets as a pure, deterministic engine.

>>> [str(m) for m in legal_moves("3345", "4")]
['pass', '5']
>>> [str(m) for m in legal_moves("BR", "2")]
['pass', 'B', 'R', 'BR']
>>> "777W/7777" in [str(m) for m in legal_moves("777W", "", rules="caishen")]
True
"""

from __future__ import annotations

from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.doudizhu.combos import PASS, Kind, Move, from_text, parse_move, readings
from qipai.games.doudizhu.moves import follow_moves, lead_moves
from qipai.games.doudizhu.rules import RULES, Rules, get_rules

__all__ = [
    "PASS",
    "RULES",
    "IllegalActionError",
    "InvalidActionError",
    "Kind",
    "Move",
    "Rules",
    "get_rules",
    "legal_moves",
    "moves_for",
    "parse_move",
    "readings",
]


def moves_for(hand: int, previous: Move, rules: Rules) -> list[Move]:
    """Legal moves of a packed ``hand`` after ``previous`` (:data:`PASS` = leading).

    The fast entry point used by the state machine and the bots.
    """
    if rules.wildcard or rules.jokers_wild:
        from qipai.games.doudizhu.wild import wild_moves

        return wild_moves(hand, previous, rules)
    if previous.is_pass:
        return lead_moves(hand, rules)
    return follow_moves(hand, previous, rules)


def legal_moves(hand: str, previous: str | Move = "", rules: str | Rules = "yifa") -> list[Move]:
    """Every legal play for ``hand`` after ``previous`` (``""`` = leading).

    The pass is included (first) when following.  A play with two readings appears once
    per reading.  An ambiguous ``previous`` string takes its preferred reading
    (:func:`~.combos.parse_move`); pass a :class:`Move` to choose another.

    :raises InvalidActionError: ``bad_cards``, ``unknown_rules`` or ``not_a_combination``.
    """
    rule_set = get_rules(rules)
    packed = from_text(hand)
    if isinstance(previous, str):
        options = [m for m in readings(previous) if rule_set.allows(m.kind)]
        if not options:
            raise InvalidActionError(
                "not_a_combination", f"{previous!r} is not a combination in {rule_set.name}"
            )
        previous = options[0]
    return moves_for(packed, previous, rule_set)
