"""What escaping would cost a seat, as far as that seat can know: a price from its view.

The escape penalty (:func:`.scoring.escape_penalty`) is charged from the whole hand.  Two of
its inputs may be hidden from the seat that asks before it leaves:

- huanle counts every bomb and rocket still in *any* hand as played ("逃跑计算时将计算当盘
  所有的炸弹数量无论是否炸出"), and another seat's hand is hidden;
- a 加倍 chosen at the same time (huanle, jj) is secret until all have chosen.

Told the exact price, a farmer without a bomb would learn how many bombs the others hold
(the price doubles with each).  So the seat is told a range computed from its view alone
(:func:`escape_quote`): **at least** the price with only the bombs it sees (its own hand,
a shown hand) and every secret 加倍 declined, **at most** the price with as many bombs as
the cards it cannot see could hold (:func:`unseen_bombs`) and every secret 加倍 taken.  The
escape itself is charged the true price, which lies in that range.  Where nothing hidden
changes the price (caishen, zhengtu; huanle when the unseen cards can hold no bomb and no
choice is secret) the two are equal.

>>> from qipai.games.doudizhu.state import State
>>> state = State.new("zhengtu", seed=3)
>>> escape_quote(state.rules, state.view(0))
(2, 2)
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from qipai.games.doudizhu.combos import BLACK, RED, TWO, count_of, pack_cards, to_text
from qipai.games.doudizhu.hand import bombs_in
from qipai.games.doudizhu.rules import EscapeModel, Rules
from qipai.games.doudizhu.scoring import HandFacts, escape_penalty, priced_landlord

if TYPE_CHECKING:
    from qipai.games.doudizhu.view import View

SEATS = 3
SUITED_RANKS = TWO + 1
"""Ranks with four cards (3 … 2); the two jokers are one card each."""


def escape_quote(rules: Rules, view: View) -> tuple[int, int]:
    """The least and the most ``view.seat`` would lose by escaping now (points ≥ 0), from
    ``view`` alone (module docstring).

    :raises IllegalActionError: ``no_escape_penalty`` for a rule set without one.
    """
    facts = _seen_facts(rules, view)
    counts_bombs = rules.escape is EscapeModel.HUANLE
    seen = _seen_bombs(view) if counts_bombs else 0
    fewest, most = unseen_bombs(view) if counts_bombs else (0, 0)
    secret = _secret_choices(view)
    taken = tuple(d or s in secret for s, d in enumerate(facts.doubled))
    return (
        _penalty(facts, view.seat, seen + fewest, facts.doubled),
        _penalty(facts, view.seat, seen + most, taken),
    )


def _penalty(facts: HandFacts, seat: int, bombs: int, doubled: tuple[bool, ...]) -> int:
    """The escape penalty of ``facts`` with ``bombs`` in the hands and ``doubled``."""
    return escape_penalty(
        dataclasses.replace(facts, bombs_in_hand=(bombs, 0, 0), doubled=doubled), seat
    )


def _seen_facts(rules: Rules, view: View) -> HandFacts:
    """The scoring facts of the hand as ``view.seat`` sees them, if it escaped now: no
    bomb in a hand yet, secret 加倍 choices as declined."""
    landlord, base = priced_landlord(
        view.landlord, view.base, view.candidate, view.standing_bid, escaper=view.seat
    )
    bottom = "" if view.bottom is None else to_text(pack_cards(view.bottom))
    return HandFacts(
        rules=rules,
        landlord=landlord,
        base=base,
        robs=view.robs,
        shows=view.show_factors,
        doubled=view.doubled,
        bombs=view.bombs,
        rockets=view.rockets,
        wild_bombs=view.wild_bombs,
        bottom=bottom,
        trustee=view.trustee,
    )


def _secret_choices(view: View) -> set[int]:
    """The other seats whose 加倍 choice is made but not shown yet (while seats choose at
    the same time, those no longer choosing)."""
    if not view.deciding:
        return set()
    return {s for s in range(SEATS) if s != view.seat and s not in view.deciding}


def _known_hands(view: View) -> list[int]:
    """The packed hands ``view.seat`` sees whole: its own and any other that is shown."""
    shown = [hand for s, hand in enumerate(view.shown_hands) if s != view.seat and hand]
    return [pack_cards(view.hand), *(pack_cards(hand) for hand in shown)]


def _seen_bombs(view: View) -> int:
    """Bombs and rockets in the hands the seat sees whole."""
    return sum(bombs_in(packed) for packed in _known_hands(view))


def unseen_bombs(view: View) -> tuple[int, int]:
    """The fewest and the most bombs and rockets the hands hidden from ``view.seat`` can
    hold, as far as its view tells: at least none (the unseen cards may always be spread
    out, a reading: a tight count would weigh where each unseen card can be), at most as
    many as there are ranks none of whose four cards it has seen (and the rocket, if it has
    seen neither joker), as far as the hidden hands' sizes allow.

    >>> from qipai.games.doudizhu.actions import Deal
    >>> from qipai.games.doudizhu.state import State
    >>> state = State.new("huanle", seed=1)
    >>> _ = state.apply(Deal(17))  # seat 0 has seen no card of two ranks
    >>> unseen_bombs(state.view(0))
    (0, 2)
    """
    hidden = [
        count
        for s, count in enumerate(view.card_counts)
        if s != view.seat and view.shown_hands[s] is None
    ]
    if not any(hidden):
        return 0, 0
    seen = sum(_known_hands(view)) + sum(move.cards for _, move in view.plays)
    quads = sum(1 for slot in range(SUITED_RANKS) if count_of(seen, slot) == 0)
    rocket = count_of(seen, BLACK) == 0 and count_of(seen, RED) == 0
    return 0, _most_bombs(hidden, quads, rocket)


def _most_bombs(sizes: list[int], quads: int, rocket: bool) -> int:
    """The most bombs hands of ``sizes`` cards can hold with ``quads`` four-card bombs and
    (``rocket``) the rocket to place: the rocket in one hand or none, then four cards a
    bomb."""
    best = 0
    holders = [None, *range(len(sizes))] if rocket else [None]
    for holder in holders:
        room = [size - (2 if s == holder else 0) for s, size in enumerate(sizes)]
        if min(room) < 0:
            continue
        best = max(best, min(quads, sum(r // 4 for r in room)) + (holder is not None))
    return best
