"""Dou Dizhu actions: a closed set of frozen values, each with ``parse`` and ``str``.

Every input to a hand is one of the classes in :data:`ACTION_TYPES`.  Text forms
(the wire protocol's and the command line's) round-trip through :meth:`Action.parse`:

>>> Action.parse("bid 2")
Bid(points=2)
>>> str(Action.parse("play 333444555666 plane_singles:5"))
'play 333444555666 plane_singles:5'
>>> str(Action.parse("play 33344"))
'play 33344'
>>> str(Action.parse("play 4567W/45678 @7d5h4sW6c"))   # the very cards: the player's pick
'play 4567W/45678 @4s5h6c7dW'
>>> str(Play(PASS))
'play pass'
>>> [str(a) for a in (Call(), NoCall(), Rob(), NoRob(), Double(), NoDouble())]
['call', 'nocall', 'rob', 'norob', 'double', 'nodouble']
>>> [str(a) for a in (Show(), NoShow(), Deal(3), Escape(), Trustee(True))]
['show', 'noshow', 'deal 3', 'escape', 'trustee on']

Who acts is not part of an action: :meth:`.State.apply` takes the seat.  Which actions a
rule set has, and when, is the state machine's business (:mod:`.state`); this module only
checks that an action is well formed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from qipai.cards import Card, parse_cards
from qipai.errors import InvalidActionError
from qipai.games.actiontext import integer, no_argument, parse_action
from qipai.games.doudizhu.combos import PASS, RANK_CHARS, Move, pack_cards, readings, sort_key

MAX_BID = 3
"""The highest bid of the points presets; it ends the bidding at once."""
HAND_CARDS = 17
"""Cards each seat is dealt."""


class Action:
    """Base of every Dou Dizhu action (never instantiated itself)."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the text form of an action (``"bid 2"``, ``"play 33344"``, ``"rob"``...).

        Called on a subclass, the text must name that subclass.

        :raises InvalidActionError: ``bad_action`` if the text is no action (or not one of
            ``cls``), ``bad_cards`` / ``not_a_combination`` for a malformed play.
        """
        return parse_action(text, _PARSERS, cls, "Dou Dizhu")


@dataclass(frozen=True, slots=True)
class Deal(Action):
    """The dealer deals ``cards`` more cards to every seat (the deal runs in steps).

    Only rule sets with 明牌 before or during the deal deal in steps; the others deal the
    whole hand when the hand starts.  The dealer is no seat: apply it without one.
    """

    cards: int = HAND_CARDS
    """How many more cards each seat gets (1-17)."""

    def __post_init__(self) -> None:
        if not 1 <= self.cards <= HAND_CARDS:
            raise InvalidActionError("bad_action", f"deal 1-{HAND_CARDS} cards, not {self.cards}")

    def __str__(self) -> str:
        return f"deal {self.cards}"


@dataclass(frozen=True, slots=True)
class Show(Action):
    """明牌: play with the hand open to all.  The moment (and so the factor) is the state's."""

    def __str__(self) -> str:
        return "show"


@dataclass(frozen=True, slots=True)
class NoShow(Action):
    """The landlord declines the after-bottom 明牌."""

    def __str__(self) -> str:
        return "noshow"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """叫分 (points presets): bid 1, 2 or 3 points; 0 is the pass 不叫."""

    points: int
    """The bid, 0 (pass) to 3."""

    def __post_init__(self) -> None:
        if not 0 <= self.points <= MAX_BID:
            raise InvalidActionError("bad_bid", f"a bid is 0-{MAX_BID}, not {self.points}")

    def __str__(self) -> str:
        return f"bid {self.points}"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """叫地主 (call / rob presets)."""

    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True, slots=True)
class NoCall(Action):
    """不叫 (call / rob presets)."""

    def __str__(self) -> str:
        return "nocall"


@dataclass(frozen=True, slots=True)
class Rob(Action):
    """抢地主: take the landlord's seat from the standing caller or robber."""

    def __str__(self) -> str:
        return "rob"


@dataclass(frozen=True, slots=True)
class NoRob(Action):
    """不抢."""

    def __str__(self) -> str:
        return "norob"


@dataclass(frozen=True, slots=True)
class Double(Action):
    """加倍 (yifa: 加倍 or 跟加倍)."""

    def __str__(self) -> str:
        return "double"


@dataclass(frozen=True, slots=True)
class NoDouble(Action):
    """不加倍."""

    def __str__(self) -> str:
        return "nodouble"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """出牌: play ``move`` (with its reading); ``Play(PASS)`` is 不出.

    The text form names the reading (``kind:top``) only when the cards have several, and
    the physical cards after ``@`` when the player picked them (``play 33 @3h3d``).
    """

    move: Move
    """The combination played, or :data:`~.combos.PASS`."""
    cards: tuple[Card, ...] = ()
    """The very cards played, suits and all, in hand order, when the player picked them
    (the ones he lifted): they must be in his hand and be ``move``'s cards.  Empty: of
    each rank the play takes the holder's cards in suit order ♠ ♥ ♣ ♦ (bots, 托管, a text
    without ``@``).  Suits never matter to the rules; they matter to what the table shows."""

    def __post_init__(self) -> None:
        if not self.cards:
            return
        if pack_cards(self.cards) != self.move.cards:
            raise InvalidActionError("bad_cards", f"the cards after @ are not {self.move}'s")
        if len(set(self.cards)) != len(self.cards):
            raise InvalidActionError("bad_cards", "a card is named twice after @")
        ordered = tuple(sorted(self.cards, key=sort_key))
        if ordered != self.cards:
            object.__setattr__(self, "cards", ordered)  # one text, one value

    def __str__(self) -> str:
        picked = f" @{''.join(map(str, self.cards))}" if self.cards else ""
        return f"play {self.move.wire_text()}{picked}"


@dataclass(frozen=True, slots=True)
class Escape(Action):
    """逃跑: the seat leaves the hand in progress (out of turn; see :meth:`.State.escape`)."""

    def __str__(self) -> str:
        return "escape"


@dataclass(frozen=True, slots=True)
class Trustee(Action):
    """托管 on or off for a seat (out of turn; see :meth:`.State.set_trustee`)."""

    on: bool
    """Whether the seat enters (``True``) or leaves 托管."""

    def __str__(self) -> str:
        return "trustee on" if self.on else "trustee off"


ACTION_TYPES: tuple[type[Action], ...] = (
    Deal,
    Show,
    NoShow,
    Bid,
    Call,
    NoCall,
    Rob,
    NoRob,
    Double,
    NoDouble,
    Play,
    Escape,
    Trustee,
)
"""The closed set of Dou Dizhu actions."""


def _parse_play(rest: str) -> Action:
    rest, _, picked = rest.partition(" @")
    cards, _, reading = rest.partition(" ")
    options = readings(cards)
    if reading:
        kind, _, top = reading.strip().partition(":")
        options = [
            m for m in options if m.kind.label == kind and (not top or RANK_CHARS[m.main] == top)
        ]
    if not options:
        raise InvalidActionError("not_a_combination", f"{rest!r} is not a combination")
    move = PASS if options[0].is_pass else options[0]
    return Play(move, _picked(picked) if picked and not move.is_pass else ())


def _picked(text: str) -> tuple[Card, ...]:
    """The cards written after ``@`` (``7d8hW``)."""
    try:
        return tuple(parse_cards(text))
    except InvalidActionError as error:
        raise InvalidActionError("bad_cards", f"after @: {error.message}") from None


def _parse_bid(rest: str) -> Action:
    return Bid(0 if rest == "pass" else integer(rest, "bid"))


def _parse_deal(rest: str) -> Action:
    return Deal(integer(rest, "deal") if rest else HAND_CARDS)


def _parse_trustee(rest: str) -> Action:
    if rest not in ("on", "off"):
        raise InvalidActionError("bad_action", f"trustee on or off, not {rest!r}")
    return Trustee(rest == "on")


_PARSERS: dict[str, Callable[[str], Action]] = {
    "deal": _parse_deal,
    "bid": _parse_bid,
    "play": _parse_play,
    "trustee": _parse_trustee,
    **{
        str(a): no_argument(a)
        for a in (Show(), NoShow(), Call(), NoCall(), Rob(), NoRob(), Double(), NoDouble())
    },
    "escape": no_argument(Escape()),
}
