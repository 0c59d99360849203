"""The observation of one seat as a flat vector of floats, from the seat's view alone.

Every game's vector starts with the same blocks; the shipped games add their own tail.
``n`` is the table's seat count and seat blocks are *relative*: entry 0 is the observing
seat, entry 1 the next seat in turn order, and so on.

========================  ========  ==========================================================
block                     size      content
========================  ========  ==========================================================
own cards                 55        one-hot of the seat's own cards (:func:`card_index`: 52
                                    suited cards, the two jokers, then the 财神 wildcard,
                                    counted)
seen cards                55        the cards it sees face up that are not its own (Dou
                                    Dizhu: the revealed bottom, the yifa marker, the 明牌
                                    hands; Zha Jin Hua: hands shown to it; Showhand: the
                                    others' up cards and shown hole cards)
to act                    n         1 for each seat to act (or choosing at the same time)
game tail                 varies    below; absent for a game the module does not know
========================  ========  ==========================================================

Tails (chips are divided by the env's starting ``stack``):

* ``doudizhu``: per seat ``n × 4`` (cards held / 20, is the landlord, has doubled, showed
  his hand), then the ranks played so far ``16`` (counts / 4 of ``3…2, BJ, RJ, W``), the
  ranks to beat ``16``, who played them ``n``, the phase one-hot ``len(Phase)``, and
  ``4`` scalars (standing bid / 3, bombs / 4, rockets, 明牌 factor / 5).
* ``zhajinhua``: per seat ``n × 5`` (stack, put in, has looked, folded, lost a compare),
  then ``5`` scalars (pot, round / 20, stake, call cost, compare cost).
* ``showhand``: per seat ``n × 4`` (stack, bets, bets this round, folded), then ``5``
  scalars (pot, round / 5, to call, the round's bet, the most one may bet).

Every value is clipped to ``[0, HIGH]``.

>>> from qipai.cards import Card, Suit
>>> card_index(Card("3", Suit.SPADES)), card_index(Card("A", Suit.DIAMONDS)), card_index(Card("R"))
(1, 51, 53)
>>> observation_size("doudizhu", 3), observation_size("zhajinhua", 4), observation_size("toy", 2)
(171, 139, 112)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from qipai.cards import POKER_RANKS, SUITS, Card
from qipai.games.doudizhu.combos import counts
from qipai.games.doudizhu.hand import Phase
from qipai.games.doudizhu.view import View as DoudizhuView
from qipai.games.showhand.view import View as ShowhandView
from qipai.games.zhajinhua.view import View as ZhajinhuaView

CARD_SLOTS = 55
"""52 suited cards, the black and the red joker, the wildcard."""
HIGH = 16.0
"""The upper bound of every entry (chips are relative to the starting stack)."""
_RANKS = {rank: i for i, rank in enumerate(POKER_RANKS)}
_SUITS = {suit: i for i, suit in enumerate(SUITS)}
_SPECIAL = {"B": 52, "R": 53, "W": 54}
_RANK_SLOTS = 16
_PHASES = tuple(Phase)
_TAILS = {
    "doudizhu": (4, 16 + 16 + len(_PHASES) + 4, 1),
    "zhajinhua": (5, 5, 0),
    "showhand": (4, 5, 0),
}
"""Per game: (features per seat, fixed entries, extra blocks of ``n``)."""

Vector = npt.NDArray[np.float32]
V = TypeVar("V")


class SeatView(Protocol):
    """A seat's view of any game: whose it is (a shipped game's view says much more)."""

    @property
    def seat(self) -> int:
        """The seat that sees it."""
        ...


def card_index(card: Card) -> int:
    """The card's slot: ``suit × 13 + rank`` (``2…A`` of :data:`~qipai.cards.POKER_RANKS`
    and suits in :data:`~qipai.cards.SUITS` order), then ``BJ`` 52, ``RJ`` 53, ``W`` 54."""
    if card.suit is None:
        return _SPECIAL[card.rank]
    return _SUITS[card.suit] * len(POKER_RANKS) + _RANKS[card.rank]


def observation_size(game: str, seats: int) -> int:
    """The length of ``game``'s observation at a table of ``seats``."""
    per_seat, fixed, extra = _TAILS.get(game, (0, 0, 0))
    return 2 * CARD_SLOTS + seats + seats * per_seat + fixed + extra * seats


def encode(game: str, view: SeatView, seats: int, acting: Iterable[int], stack: int) -> Vector:
    """The observation of ``view`` (a seat's view of a ``game`` hand at a table of
    ``seats``); ``acting``: the seats to act; ``stack``: the chips chips are divided by."""
    me = int(view.seat)
    own = _cards(_own_cards(game, view))
    seen = _cards(_seen_cards(game, view, me))
    to_act = np.zeros(seats, dtype=np.float32)
    for seat in acting:
        to_act[(seat - me) % seats] = 1.0
    parts = [own, seen, to_act]
    if game == "doudizhu":
        parts += _doudizhu(_view_of(DoudizhuView, view), seats, me)
    elif game == "zhajinhua":
        view = _view_of(ZhajinhuaView, view)
        columns = (view.stacks, view.put, view.seen, view.folded, view.out)
        parts.append(_per_seat(columns, (stack, stack, 1, 1, 1), me))
        parts.append(
            _floats(
                view.pot / stack,
                view.round / 20,
                view.stake / stack,
                view.call_cost / stack,
                view.compare_cost / stack,
            )
        )
    elif game == "showhand":
        view = _view_of(ShowhandView, view)
        rows = (view.stacks, view.bets, view.round_bets, view.folded)
        parts.append(_per_seat(rows, (stack, stack, stack, 1), me))
        parts.append(
            _floats(
                view.pot / stack,
                view.round / 5,
                view.to_call / stack,
                view.level / stack,
                view.most / stack,
            )
        )
    vector = np.concatenate(parts).astype(np.float32)
    return np.clip(vector, 0.0, HIGH)


def _view_of(kind: type[V], view: object) -> V:
    """``view``, checked to be a ``kind`` (the view of the game the caller names).

    :raises TypeError: a view of another game.
    """
    if not isinstance(view, kind):
        raise TypeError(f"not a {kind.__module__} view: a {type(view).__name__}")
    return view


def _own_cards(game: str, view: SeatView) -> list[Card]:
    if game == "showhand":
        view = _view_of(ShowhandView, view)
        mine = list(view.own_cards)
        return mine if view.pending is None else [*mine, view.pending]
    return list(getattr(view, "hand", None) or ())


def _seen_cards(game: str, view: SeatView, me: int) -> list[Card]:
    seen: list[Card] = []
    if game == "doudizhu":
        view = _view_of(DoudizhuView, view)
        seen += view.bottom or ()
        if view.marker is not None and view.marker_seat != me:
            seen.append(view.marker)
        for seat, shown in enumerate(view.shown_hands):
            if seat != me and shown:
                seen += shown
    elif game == "zhajinhua":
        view = _view_of(ZhajinhuaView, view)
        for seat, known in enumerate(view.known_hands):
            if seat != me and known:
                seen += known
    elif game == "showhand":
        view = _view_of(ShowhandView, view)
        for seat, up in enumerate(view.up):
            if seat != me:
                seen += up
                hole = view.shown[seat]
                if hole is not None:
                    seen.append(hole)
    own = set(_own_cards(game, view))
    return [card for card in seen if card not in own or card.suit is None]


def _cards(cards: Iterable[Card]) -> Vector:
    vector = np.zeros(CARD_SLOTS, dtype=np.float32)
    for card in cards:
        vector[card_index(card)] += 1.0
    return vector


def _floats(*values: float) -> Vector:
    return np.array(values, dtype=np.float32)


def _per_seat(rows: Sequence[Sequence[float]], scales: Sequence[float], me: int) -> Vector:
    seats = len(rows[0])
    table = np.zeros((seats, len(rows)), dtype=np.float32)
    for column, (row, scale) in enumerate(zip(rows, scales, strict=True)):
        for seat, value in enumerate(row):
            table[(seat - me) % seats, column] = float(value) / scale
    return table.reshape(-1)


def _ranks(packed: int) -> Vector:
    return np.array(counts(packed), dtype=np.float32) / np.float32(4)


def _doudizhu(view: DoudizhuView, seats: int, me: int) -> list[Vector]:
    landlord = [seat == view.landlord for seat in range(seats)]
    shown = [factor > 1 for factor in view.show_factors]
    rows = (view.card_counts, landlord, view.doubled, shown)
    played = np.zeros(_RANK_SLOTS, dtype=np.float32)
    for _, move in view.plays:
        played += _ranks(move.cards)
    beat_seat = np.zeros(seats, dtype=np.float32)
    if view.to_beat_seat is not None:
        beat_seat[(view.to_beat_seat - me) % seats] = 1.0
    phase = np.array([view.phase is p for p in _PHASES], dtype=np.float32)
    factor = max(view.show_factors, default=1)
    bombs = view.bombs + view.wild_bombs
    return [
        _per_seat(rows, (20, 1, 1, 1), me),
        played,
        _ranks(view.to_beat.cards),
        beat_seat,
        phase,
        _floats(view.standing_bid / 3, bombs / 4, view.rockets, factor / 5),
    ]
