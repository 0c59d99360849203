"""What one seat may see of a hand: the :class:`View`, the only door for hidden cards.

A view is a fresh, frozen snapshot built by :meth:`.State.view`; nothing in it aliases
the live state.  It holds the seat's own cards, the bottom cards once revealed, every
play, the card counts, the hands of seats that showed (明牌), the public marker card
(yifa), the hand's 任务, the bidding, robbing and doubling decisions and the scoring facts
everybody knows — and never a card another seat holds unseen.  Hidden hands stay hidden when the
hand is over too: revealing them is the hall's choice (the hand record).

A spectator's view (seat :data:`~qipai.games.events.SPECTATOR`) is a seat's view without a
hand: no card of its own, no legal action, every 加倍 chosen at the same time still secret;
what it shows is public: the plays, the shown hands (明牌), the marker card, the bottom
once revealed (or lying face up), the card counts, the hand's 任务.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from qipai.cards import Card
from qipai.games.doudizhu.actions import Action, Double, NoDouble
from qipai.games.doudizhu.combos import Move
from qipai.games.doudizhu.hand import Phase
from qipai.games.doudizhu.scoring import multiplier_breakdown, standing_multiplier
from qipai.games.doudizhu.tasks import Task
from qipai.games.events import is_spectator

if TYPE_CHECKING:
    from qipai.games.doudizhu.state import State


@dataclass(frozen=True, slots=True)
class View:
    """One seat's snapshot of a hand (all tuples; seats 0-2)."""

    seat: int
    """Whose view this is (:data:`~qipai.games.events.SPECTATOR`: a spectator's)."""
    rules: str
    """The rule set's name."""
    phase: Phase
    """The current phase."""
    current_player: int | None
    """The seat to act (``None`` while dealing, while seats choose 加倍 at the same time,
    and when over)."""
    deciding: tuple[int, ...]
    """The seats still to choose 加倍 or not while they choose at the same time (huanle,
    jj); ``()`` otherwise.  Their choices stay secret until all are made."""
    hand: tuple[Card, ...]
    """The seat's own cards, sorted (none for a spectator)."""
    card_counts: tuple[int, ...]
    """Cards each seat holds."""
    cards_dealt: int
    """Cards dealt to each seat so far (17 after the deal)."""
    deal_number: int
    """1, or more after redeals."""
    marker: Card | None
    """yifa: the face-up marker card (public)."""
    marker_seat: int | None
    """yifa: who was dealt the marker card."""
    first_bidder: int | None
    """Who bid first."""
    shown_hands: tuple[tuple[Card, ...] | None, ...]
    """The current cards of each seat that showed (明牌); ``None`` for the others."""
    show_factors: tuple[int, ...]
    """Each seat's 明牌 factor (1 = not shown)."""
    show_order: tuple[int, ...]
    """Seats that showed, first first."""
    auction: tuple[tuple[int, Action], ...]
    """Bids, calls, robs, doubles and the after-bottom show decision, in order."""
    standing_bid: int
    """The highest bid so far (points presets)."""
    candidate: int | None
    """The standing bidder / caller / robber."""
    landlord: int | None
    """The landlord once known."""
    base: int
    """底分."""
    robs: tuple[tuple[int, int], ...]
    """Each rob as (robber, robbed)."""
    multipliers: tuple[tuple[int, int], ...]
    """(farmer, multiplier of his pair with the landlord) once the landlord is known,
    from what happened so far (:func:`.scoring.multiplier_breakdown`)."""
    standing_multiplier: int | None
    """The table's multiplier 公共倍数, from the deal on: the hand's multiplier as it
    stands without what only one pair has (the initial multiplier times 明牌, whole-hand
    robs, and once the landlord is known the bottom, bombs, spring...:
    :func:`.scoring.standing_multiplier`; the bottom cards, still hidden, count only once
    revealed). Each pair's (:attr:`multipliers`) is it times that pair's own factors
    (yifa's robs, 加倍), capped."""
    doubled: tuple[bool, ...]
    """Seats that chose 加倍."""
    bottom: tuple[Card, ...] | None
    """The bottom cards once revealed (face up after the deal with ``bottom_face_up``)."""
    bottom_size: int
    """How many bottom cards there are (3, or 4 with the 财神)."""
    plays: tuple[tuple[int, Move], ...]
    """Every play so far, passes included."""
    trick: tuple[tuple[int, Move], ...]
    """The plays of the current trick."""
    to_beat: Move
    """The combination to beat (:data:`~.combos.PASS` when the player to act leads)."""
    to_beat_seat: int | None
    """Who played :attr:`to_beat`."""
    bombs: int
    """Four-card bombs played."""
    rockets: int
    """Rockets played."""
    wild_bombs: int
    """Five-card 财神 bombs played."""
    trustee: tuple[bool, ...]
    """Seats in 托管."""
    winner: int | None
    """Who went out first, once over."""
    escaper: int | None
    """Who escaped, if anyone."""
    spring: bool
    """春天 (once over)."""
    anti_spring: bool
    """反春 (once over)."""
    returns: tuple[int, ...] | None
    """Points per seat once the hand is over."""
    legal_actions: tuple[Action, ...]
    """What this seat may do now (an out-of-turn 明牌 included; nothing for a spectator)."""
    task: Task | None = None
    """The hand's 任务 (public from the start; ``None``: the rules draw none)."""


def _bottom_on_table(state: State) -> bool:
    """Whether the bottom lies face up before the landlord takes it (caishen)."""
    return state.rules.bottom_face_up and state.phase is not Phase.DEAL


def make_view(state: State, seat: int, *, figures: bool = True) -> View:
    """Build ``seat``'s view of ``state`` (use :meth:`.State.view`).

    ``figures=False`` leaves out the multipliers so far (``multipliers`` ``()``,
    ``standing_multiplier`` ``None``): three quarters of the view's cost, which a bulk
    play-out's bot that never reads them goes without
    (:meth:`~qipai.registry.doudizhu.DoudizhuGame.quick_view`)."""
    shown = set(state.show_order)
    revealed = state.landlord is not None
    deciding = state.deciding
    secret = _secret_doubles(state, seat) if deciding else set()
    spectator = is_spectator(seat)
    return View(
        seat=seat,
        rules=state.rules.name,
        phase=state.phase,
        current_player=None if deciding else state.current_player,
        deciding=deciding,
        hand=() if spectator else tuple(state.hands[seat]),
        card_counts=tuple(len(hand) for hand in state.hands),
        cards_dealt=state.cards_dealt,
        deal_number=state.deal_number,
        marker=state.marker,
        marker_seat=state.marker_seat,
        first_bidder=state.first_bidder,
        shown_hands=tuple(tuple(h) if s in shown else None for s, h in enumerate(state.hands)),
        show_factors=tuple(state.shows),
        show_order=tuple(state.show_order),
        auction=tuple(entry for entry in state.auction if not _is_secret(entry, secret)),
        standing_bid=state.bid,
        candidate=state.candidate,
        landlord=state.landlord,
        base=state.base,
        robs=tuple(state.robs),
        multipliers=_multipliers(state, secret) if revealed and figures else (),
        standing_multiplier=_standing(state) if figures else None,
        doubled=tuple(d and s not in secret for s, d in enumerate(state.doubled)),
        bottom=state.bottom if revealed or _bottom_on_table(state) else None,
        bottom_size=len(state.bottom),
        plays=tuple(state.plays),
        trick=tuple(state.plays[state.trick_start :]),
        to_beat=state.to_beat,
        to_beat_seat=state.to_beat_seat,
        bombs=state.bombs,
        rockets=state.rockets,
        wild_bombs=state.wild_bombs,
        trustee=tuple(state.trustee),
        winner=state.winner,
        escaper=state.escaper,
        spring=state.spring,
        anti_spring=state.anti_spring,
        returns=state.returns() if state.is_terminal else None,
        legal_actions=() if spectator else tuple(state.legal_actions(seat)),
        task=state.task,
    )


def _secret_doubles(state: State, seat: int) -> set[int]:
    """The other seats whose 加倍 choice, made at the same time as ``seat``'s, is still
    secret (every choice is revealed once the last one is made)."""
    decided = {s for s, action in state.auction if isinstance(action, Double | NoDouble)}
    return decided - {seat}


def _is_secret(entry: tuple[int, Action], secret: set[int]) -> bool:
    seat, action = entry
    return seat in secret and isinstance(action, Double | NoDouble)


def _multipliers(state: State, secret: set[int]) -> tuple[tuple[int, int], ...]:
    """Each farmer's pair multiplier so far from public facts (no card in a hand, no
    secret 加倍 of another seat)."""
    facts = state.facts()
    if secret:
        doubled = tuple(d and s not in secret for s, d in enumerate(facts.doubled))
        facts = dataclasses.replace(facts, doubled=doubled)
    return tuple((p.farmer, p.multiplier) for p in multiplier_breakdown(facts))


def _standing(state: State) -> int:
    """The table's multiplier as it stands, from public facts only (the bottom cards,
    hidden until the landlord takes them, count from then on)."""
    facts = state.facts()
    if state.landlord is None:
        facts = dataclasses.replace(facts, bottom="")
    return standing_multiplier(facts)
