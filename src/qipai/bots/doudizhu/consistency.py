"""Whether a position of the card play, given in text, can happen: checked at the border.

The research interface (:func:`.research.choose_play`) takes a position from outside: the
seat's cards, the landlord, every play so far and the bottom.  Those facts must agree with
each other before any bot looks at them, or a search deep inside a bot meets a seat with
no cards, or more sevens than the deck holds, and fails there with an error that says
nothing of the input.  :func:`check_position` says instead which fact contradicts which,
as :class:`~qipai.errors.InvalidActionError` ``bad_position``:

>>> from qipai.games.doudizhu.rules import get_rules
>>> check_position("89", 1, 0, [(0, "7")], "2BR", rules=get_rules("jj"))
>>> check_position("89", 1, 0, [(0, "7")], "2", rules=get_rules("jj"))
Traceback (most recent call last):
...
qipai.errors.InvalidActionError: bad_position: bottom: 1 card, but a jj bottom has 3

What a position must satisfy (each is checked, in this order):

- ``seat`` and ``landlord`` are seats 0-2, and so is the seat of every play;
- the bottom has the rule set's number of cards (3, or 4 with the 财神);
- the plays follow the turn: the landlord plays first, then seat after seat
  (0 → 1 → 2 → 0), and ``seat`` is the one to play next;
- a pass never leads a trick (the first play, or the play after two passes);
- every seat still holds a card: 17 dealt (the landlord also the bottom) less what it
  played; a seat that played them all has ended the hand, so there is nothing to choose;
- the hand holds at least one card, and no more than the seat's count;
- no rank appears more often than the deck holds it, counting the hand, every card
  played and, for a farmer, the landlord's bottom cards he has not played yet (as far as
  ranks tell); no 财神 outside the ``caishen`` rule set;
- the landlord holds at least the bottom cards he has not played (as ranks tell);
- the cards nobody can see are enough for the other seats' counts;
- ``legal``, when given, is not empty and each of its moves is in the hand (or a pass).

A hand smaller than the count (a sketch of a position: ``choose_play("3334", 0, 0, [],
"2BR")``) is allowed: the seat's count is then its hand's.
"""

from __future__ import annotations

from collections.abc import Sequence

from qipai.cards import doudizhu_deck
from qipai.errors import InvalidActionError
from qipai.games.doudizhu.combos import (
    PASS,
    RANK_CHARS,
    WILD,
    Move,
    contains,
    count_of,
    from_text,
    pack_cards,
    parse_move,
    size,
)
from qipai.games.doudizhu.legal import HAND_SIZE
from qipai.games.doudizhu.rules import Rules

SEATS = 3
"""Dou Dizhu is played by seats 0-2."""
_DECKS = {wild: pack_cards(doudizhu_deck(wildcard=wild)) for wild in (False, True)}
"""The whole deck, packed: 54 cards, or 55 with the 财神."""

__all__ = ["check_position", "move_of"]


def _bad(message: str) -> InvalidActionError:
    return InvalidActionError("bad_position", message)


def move_of(text: str) -> Move:
    """The move written ``text`` (``"pass"`` or ``""`` is the pass).

    :raises InvalidActionError: ``bad_cards``, ``not_a_combination``.
    """
    return PASS if text in ("pass", "") else parse_move(text)


def check_position(  # noqa: PLR0917 (the research interface's arguments)
    hand: str,
    seat: int,
    landlord: int,
    history: Sequence[tuple[int, str]],
    bottom: str,
    legal: Sequence[str] | None = None,
    *,
    rules: Rules,
) -> None:
    """Raise unless the position (:func:`.research.choose_play`'s arguments) can happen
    under ``rules``.

    :raises InvalidActionError: ``bad_position`` naming the contradiction; ``bad_cards``
        or ``not_a_combination`` for text that is no card or no move.
    """
    _check_seats(seat, landlord, history)
    cards = from_text(hand)
    packed_bottom = from_text(bottom)
    if size(packed_bottom) != rules.bottom_size:
        raise _bad(
            f"bottom: {_cards(size(packed_bottom))}, but a {rules.name} bottom has "
            f"{rules.bottom_size}"
        )
    plays = [(s, move_of(text)) for s, text in history]
    _check_turns(seat, landlord, plays)
    counts = _counts(landlord, size(packed_bottom), plays)
    if not cards:
        raise _bad(f"the hand of seat {seat} is empty")
    if size(cards) > counts[seat]:
        raise _bad(
            f"the hand holds {_cards(size(cards))}, but seat {seat} has "
            f"{_cards(counts[seat])} left (dealt, less played)"
        )
    counts[seat] = size(cards)
    played = [sum(move.cards for s, move in plays if s == who) for who in range(SEATS)]
    known = _bottom_left(packed_bottom, played[landlord]) if seat != landlord else 0
    if size(known) > counts[landlord]:
        raise _bad(
            f"the landlord holds {_cards(counts[landlord])}, fewer than the "
            f"{size(known)} bottom cards he has not played"
        )
    _check_deck(cards, sum(played), known, rules)
    unseen = _DECKS[rules.wildcard] - cards - sum(played)
    needed = sum(counts[s] for s in range(SEATS) if s != seat)
    if size(unseen) < needed:
        raise _bad(f"the other seats hold {needed} cards, but only {size(unseen)} are unseen")
    if legal is not None:
        _check_legal(cards, legal)


def _check_seats(seat: int, landlord: int, history: Sequence[tuple[int, str]]) -> None:
    for name, value in (("seat", seat), ("landlord", landlord)):
        if not _is_seat(value):
            raise _bad(f"{name} must be a seat 0-{SEATS - 1}, not {value!r}")
    for index, entry in enumerate(history):
        if len(entry) != 2 or not _is_seat(entry[0]) or not isinstance(entry[1], str):
            raise _bad(f"play {index + 1} is (seat 0-{SEATS - 1}, move text), not {entry!r}")


def _is_seat(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < SEATS


def _check_turns(seat: int, landlord: int, plays: Sequence[tuple[int, Move]]) -> None:
    """The landlord first, then seat after seat; a pass never leads a trick."""
    passes = SEATS - 1  # before the first play: a new trick
    for index, (who, move) in enumerate(plays):
        due = (landlord + index) % SEATS
        if who != due:
            raise _bad(f"play {index + 1} is seat {who}'s, but seat {due} was to play")
        leads = passes == SEATS - 1
        if move.is_pass and leads:
            raise _bad(f"play {index + 1}: seat {who} passes, but a pass cannot lead a trick")
        passes = passes + 1 if move.is_pass else 0
    due = (landlord + len(plays)) % SEATS
    if seat != due:
        raise _bad(f"seat {seat} decides, but after {len(plays)} plays seat {due} is to play")


def _counts(landlord: int, bottom: int, plays: Sequence[tuple[int, Move]]) -> list[int]:
    """Cards each seat holds: dealt, the bottom for the landlord, less those played; none
    may have run out while play goes on."""
    counts = [HAND_SIZE + (bottom if s == landlord else 0) for s in range(SEATS)]
    for index, (who, move) in enumerate(plays):
        counts[who] -= move.size
        if counts[who] < 0:
            raise _bad(f"play {index + 1}: seat {who} plays more cards than it holds")
        if counts[who] == 0:
            raise _bad(f"play {index + 1}: seat {who} has no card left, so the hand is over")
    return counts


def _bottom_left(bottom: int, played: int) -> int:
    """The landlord's bottom cards not (as far as ranks tell) among his plays."""
    return sum(
        max(0, count_of(bottom, slot) - count_of(played, slot)) << (4 * slot)
        for slot in range(WILD + 1)
    )


def _check_deck(hand: int, played: int, known: int, rules: Rules) -> None:
    """No rank more often than the deck holds it."""
    deck = _DECKS[rules.wildcard]
    for slot in range(WILD + 1):
        parts = (count_of(hand, slot), count_of(played, slot), count_of(known, slot))
        if sum(parts) > count_of(deck, slot):
            rank = RANK_CHARS[slot]
            raise _bad(
                f"rank {rank}: the hand holds {parts[0]}, the plays {parts[1]} and the "
                f"landlord's unplayed bottom {parts[2]}, but a {rules.name} deck has "
                f"{count_of(deck, slot)}"
            )


def _check_legal(hand: int, legal: Sequence[str]) -> None:
    if not legal:
        raise _bad("legal is empty: there must be a move to choose")
    for text in legal:
        move = move_of(text)
        if not contains(hand, move.cards):
            raise _bad(f"legal move {text!r} is not in the hand")


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"
