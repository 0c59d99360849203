"""The research interface: any qipai Dou Dizhu bot's play from plain text.

Outside arenas (RLCard, DouZero's evaluation, a web service) call :func:`choose_play`
with cards in the notation (``3456789TJQKA2`` for the ranks, ``B``/``R`` for the jokers,
``W`` for the 财神; suits never matter) and get a play back, without touching the
engine's classes:

>>> choose_play("3334", seat=0, landlord=0, history=[], bottom="2BR")
'3334'
>>> choose_play("89", 1, 0, [(0, "7")], "2BR", legal=["pass", "8", "9"])
'9'
>>> choose_play("89", 1, 0, [(0, "7")], "2BR", bot="trustee")
'pass'

The bot sees what a player at that seat would: its own cards, the bottom (the landlord's
three face-up cards), the plays so far (passes included, ``"pass"``) and the card counts
they imply.  ``legal``, when given, is the list of moves allowed (the caller's own rules
may differ from qipai's); the answer is always one of them.  Without it the moves are
qipai's for ``rules``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from qipai.bots.doudizhu.consistency import check_position, move_of
from qipai.bots.doudizhu.simple import GreedyPolicy, Policy, RandomPolicy, TrusteePolicy
from qipai.bots.doudizhu.strong import StrongPolicy
from qipai.cards import SUITS, Card
from qipai.errors import InvalidActionError
from qipai.games.doudizhu.actions import Play
from qipai.games.doudizhu.combos import PASS, Move, from_text
from qipai.games.doudizhu.hand import Phase
from qipai.games.doudizhu.legal import HAND_SIZE, moves_for
from qipai.games.doudizhu.rules import Rules, get_rules
from qipai.games.doudizhu.state import State
from qipai.games.doudizhu.view import View

BOTS: Mapping[str, Callable[[int], Policy]] = MappingProxyType(
    {
        "greedy": lambda seed: GreedyPolicy(),
        "strong": StrongPolicy,
        "random": RandomPolicy,
        "trustee": lambda seed: TrusteePolicy(),
    }
)
"""Every Dou Dizhu bot by name, made from a seed (the arena's default first)."""
SAMPLED = 0.25
"""The share of a hand's decisions :func:`sample_positions` keeps."""
MAX_DEALS = 20
"""Deals after which :func:`sample_positions` gives up a hand nobody bids in."""


def make_bot(name: str, seed: int = 0) -> Policy:
    """The bot called ``name``, seeded.

    :raises InvalidActionError: ``unknown_bot``.
    """
    try:
        return BOTS[name](seed)
    except KeyError:
        known = ", ".join(BOTS)
        raise InvalidActionError("unknown_bot", f"unknown bot {name!r}; known: {known}") from None


def choose_play(  # noqa: PLR0917 (the research interface's published signature)
    hand: str,
    seat: int,
    landlord: int,
    history: Sequence[tuple[int, str]],
    bottom: str,
    legal: Sequence[str] | None = None,
    rules: str = "jj",
    bot: str = "strong",
    seed: int = 0,
) -> str:
    """The play bot ``bot`` makes at ``seat`` holding ``hand``, in text: the cards, with
    the ranks they stand for after a ``/`` when wild cards stand in (``"777W/7777"``), or
    ``"pass"``.

    :param hand: the seat's cards now.
    :param landlord: the landlord's seat (seats 0-2 play in turn, 0 → 1 → 2 → 0).
    :param history: every play of the card play so far as ``(seat, move)``.
    :param bottom: the landlord's face-up bottom cards.
    :param legal: the moves allowed, if the caller's rules decide them.
    :raises InvalidActionError: a malformed card or move (``bad_cards``,
        ``not_a_combination``), an unknown bot or rule set (``unknown_bot``,
        ``unknown_rules``), or a position whose facts contradict each other
        (``bad_position``: :func:`.consistency.check_position` says which).
    """
    view = view_of(hand, seat, landlord, history, bottom, legal=legal, rules=rules)
    action = make_bot(bot, seed).choose(view)
    assert isinstance(action, Play)
    return str(action.move)


def view_of(
    hand: str,
    seat: int,
    landlord: int,
    history: Sequence[tuple[int, str]],
    bottom: str,
    *,
    legal: Sequence[str] | None = None,
    rules: str = "jj",
) -> View:
    """The view a seat would have in the card play described in text (:func:`choose_play`).

    :raises InvalidActionError: as :func:`choose_play`.
    """
    preset = get_rules(rules)
    check_position(hand, seat, landlord, history, bottom, legal, rules=preset)
    plays = tuple((s, move_of(text)) for s, text in history)
    to_beat, to_beat_seat, trick = _table(plays)
    moves = _legal(from_text(hand), to_beat, legal, preset)
    counts = _counts(from_text(bottom), landlord, plays)
    counts[seat] = len(hand)
    return View(
        seat=seat,
        rules=preset.name,
        phase=Phase.PLAY,
        current_player=seat,
        deciding=(),
        hand=tuple(_cards(hand)),
        card_counts=tuple(counts),
        cards_dealt=HAND_SIZE,
        deal_number=1,
        marker=None,
        marker_seat=None,
        first_bidder=landlord,
        shown_hands=(None, None, None),
        show_factors=(1, 1, 1),
        show_order=(),
        auction=(),
        standing_bid=0,
        candidate=landlord,
        landlord=landlord,
        base=1,
        robs=(),
        multipliers=(),
        standing_multiplier=None,
        doubled=(False, False, False),
        bottom=tuple(_cards(bottom)),
        bottom_size=len(bottom),
        plays=plays,
        trick=trick,
        to_beat=to_beat,
        to_beat_seat=to_beat_seat,
        bombs=0,
        rockets=0,
        wild_bombs=0,
        trustee=(False, False, False),
        winner=None,
        escaper=None,
        spring=False,
        anti_spring=False,
        returns=None,
        legal_actions=tuple(Play(move) for move in moves),
    )


def _legal(hand: int, to_beat: Move, legal: Sequence[str] | None, rules: Rules) -> list[Move]:
    """The moves allowed: the caller's (his rules decide) or qipai's for ``rules``."""
    if legal is None:
        return moves_for(hand, to_beat, rules)
    return [move_of(text) for text in legal]


def _table(
    plays: tuple[tuple[int, Move], ...],
) -> tuple[Move, int | None, tuple[tuple[int, Move], ...]]:
    """The play to beat, who played it, and the current trick's plays."""
    start, passes = 0, 0
    for index, (_, move) in enumerate(plays):
        if move.is_pass:
            passes += 1
            if passes == 2:
                start, passes = index + 1, 0
        else:
            passes = 0
    trick = plays[start:]
    last = next(((s, m) for s, m in reversed(trick) if not m.is_pass), None)
    if last is None:
        return PASS, None, trick
    return last[1], last[0], trick


def _counts(bottom: int, landlord: int, plays: tuple[tuple[int, Move], ...]) -> list[int]:
    """Cards each seat holds: dealt, plus the bottom for the landlord, less those played."""
    counts = [HAND_SIZE] * 3
    counts[landlord] += sum((bottom >> (4 * slot)) & 0xF for slot in range(16))
    for seat, move in plays:
        counts[seat] -= move.size
    return counts


def _cards(text: str) -> list[Card]:
    """Cards of the ranks written in ``text`` (suits given in deck order)."""
    cards = []
    seen: dict[str, int] = {}
    for rank in text:
        if rank in "BRW":
            cards.append(Card(rank))
            continue
        number = seen.get(rank, 0)
        seen[rank] = number + 1
        cards.append(Card(rank, SUITS[number % len(SUITS)]))
    return cards


@dataclass(frozen=True, slots=True)
class Position:
    """One decision of the card play in text: :func:`choose_play`'s arguments, and the
    moves qipai's rules allow there."""

    rules: str
    """The preset."""
    hand: str
    """The seat's cards."""
    seat: int
    """Who decides."""
    landlord: int
    """The landlord's seat."""
    history: tuple[tuple[int, str], ...]
    """Every play so far."""
    bottom: str
    """The landlord's bottom cards."""
    legal: tuple[str, ...]
    """The moves allowed (the pass first when following)."""


def position_of(view: View) -> Position:
    """The text position of a seat's view in the card play."""
    assert view.landlord is not None and view.bottom is not None
    return Position(
        rules=view.rules,
        hand=_text(view.hand),
        seat=view.seat,
        landlord=view.landlord,
        history=tuple((seat, str(move)) for seat, move in view.plays),
        bottom=_text(view.bottom),
        legal=tuple(str(a.move) for a in view.legal_actions if isinstance(a, Play)),
    )


def sample_positions(rules: str, seed: int, count: int) -> list[Position]:
    """``count`` positions of the card play of ``rules``, from hands played by random
    players (hand ``i`` dealt from seed ``seed + i``), every decision of a hand with
    probability 1/4, drawn from ``random.Random(seed)``: a spread of early, middle and
    late positions, leading and following."""
    rng = random.Random(seed)
    players = [RandomPolicy(seed + s) for s in range(3)]
    found: list[Position] = []
    hand = 0
    while len(found) < count:
        state = State.new(rules, seed=seed + hand)
        hand += 1
        while not state.is_terminal and state.deal_number <= MAX_DEALS:
            seat = state.current_player
            if seat is None:
                state.apply(state.legal_actions()[0])
                continue
            view = state.view(seat)
            in_play = any(isinstance(a, Play) for a in view.legal_actions)
            if in_play and len(found) < count and rng.random() < SAMPLED:
                found.append(position_of(view))
            state.apply(players[seat].choose(view), seat)
    return found


def _text(cards: Sequence[Card]) -> str:
    return "".join(card.rank for card in cards)
