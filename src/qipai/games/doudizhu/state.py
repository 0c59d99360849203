"""The Dou Dizhu hand: one :class:`State`, a phase machine driven by the :class:`.Rules` fields.

A hand runs ``DEAL → BID → ROB → DOUBLE → SHOW_AFTER_BOTTOM → PLAY → OVER``; phases a rule
set lacks are skipped.  Every input is an :mod:`action <.actions>` given to
:meth:`State.apply`, which validates it completely, then changes the state and returns the
:mod:`events <.events>` it caused.  Chance (the deal, the marker card, a random first
bidder, a redeal) comes from the hand's own source of chance, the seed's
:class:`~qipai.chance.DealStream` (``chance="v1"``: ``random.Random(seed)``, for old
records), so ``replay(rules, seed, state.history)`` rebuilds the same hand.

>>> state = State.new("zhengtu", seed=7)
>>> state.phase, state.current_player
(<Phase.BID: 'bid'>, 0)
>>> _ = state.apply(Bid(3))
>>> state.landlord, state.base, state.phase
(0, 3, <Phase.PLAY: 'play'>)
>>> len(state.view(0).hand), state.view(1).card_counts
(20, (20, 17, 17))
>>> state.apply(Bid(1))
Traceback (most recent call last):
...
qipai.errors.IllegalActionError: wrong_phase: bid 1 is not possible in phase play

The deal 发牌 runs in steps only where 明牌 may be chosen before or during it (caishen,
huanle, jj): the hand starts in ``DEAL`` with no card dealt, nobody's turn
(``current_player is None``), and the dealer's :class:`.Deal` actions (applied without a
seat; ``legal_actions()`` lists them) deal the cards; meanwhile any seat may
:class:`.Show` out of turn (``apply(Show(), seat)``; ``legal_actions(seat)`` lists it), and
the factor is the one for the number of cards dealt at that moment.  Elsewhere the whole
hand is dealt when it starts.  The code is split by concept: :mod:`.hand` (the data, the
physical cards, the deal), :mod:`.auction` (明牌, bidding, robbing, 加倍) and this module
(the public API, the play, the end of the hand).

Readings where the rules are silent (each a default a rule-set field could change):

- 明牌 moments.  ``cards_dealt == 0`` in ``DEAL`` is "before the deal" (明牌开始; also
  ``State.new(shows_before_deal=...)``); the bidding starts the moment the 17th card is
  dealt, so "during the deal" is 1-16 cards (huanle ×4 up to 8, ×3 after; jj ×5 up to 8,
  ×3 after: the two factors its rules name).  jj deals each seat's cards from his
  highest to his lowest ("牌张按从大到小的顺序发出").  caishen's ×2 "before the bidding
  decision" runs from the first card dealt until the seat's own first decision (call,
  pass, rob or not), out of turn.
  The first shower is the first seat whose :class:`.Show` was applied.  The landlord's
  after-bottom 明牌 is its own phase, after 加倍 (the JJ page's order), and is offered only
  to a landlord who has not shown (jj: only if nobody has).  A seat shows at most once.
- Priority.  ``shower_bids_first`` and ``shower_becomes_landlord`` (nobody calls) use
  only the shows made before the bidding starts ("在叫牌前选择'明牌'"): a seat that shows
  during the bidding earns its factor, not the seat; all pass is then a redeal.
- 抢地主.  "当某人选择'叫地主'之后，按照次序每位玩家均有且只有一次'抢地主'的机会": after a
  call, the other seats that did not pass are asked once each, in play order from the
  caller, then the caller himself, only if somebody robbed (he robs back).  Each rob is
  (robber, the standing candidate); three robs make ×8.
- yifa.  A bid over a standing bid is a rob (robber, standing bidder).  Only a bid of 3
  opens 加倍, to the seats that never had a chance to bid, in play order from the landlord:
  the second one's :class:`.Double` is 跟加倍 if the first doubled, else a plain 加倍.
  yifa has no escape model: :meth:`State.escape` is refused (``not_in_rules``); the hall
  puts a leaver in 托管 instead.
- 加倍 order: farmers in play order from the landlord, then (huanle, jj) the landlord.  A
  seat that may not double (yifa's bidders, the huanle coin threshold) is not asked.  The
  threshold (``Rules.doubling_threshold``, huanle's 0) applies when ``balances`` are
  given ("above" = strictly more).  With ``Rules.doubling_at_once`` (huanle, jj) the seats
  asked choose at the same time: any of them may apply its choice (``deciding`` lists
  those still to choose; ``current_player`` is the first of them), each :class:`.Doubled`
  is seen by its chooser alone, and once all have chosen a public
  :class:`.DoublesRevealed` shows every choice together.
- All pass.  ``AllPass.REDEAL``: a new shuffle from the same generator (yifa draws a new
  marker card, random presets a new first bidder; zhengtu keeps the hand's first bidder).
  jj's 强制记分 (``AllPass.FORCED``): the first bidder becomes landlord at base 1.
- Base.  Points presets: the winning bid; call / rob presets (and 明牌 / forced landlords):
  1 — the room's base is settlement's business.
- First bidder.  ``first_seat`` / ``hand_number`` only matter to ``SEAT_ORDER`` (zhengtu);
  the other rule sets draw (random) or turn up a marker card, among the 51 dealt cards.
- The bottom is shown when the landlord takes it, except with ``Rules.bottom_face_up``
  (caishen: "显示于游戏界面"), where it lies face up from the end of the deal.
- A play takes, of each rank it uses, the holder's cards in suit order ♠ ♥ ♣ ♦ (suits never
  matter to the rules), unless it names its very cards (``play 33 @3h3d``: the cards a
  player lifted, which must be in his hand); views show the physical cards.
- A hand is over when a seat is out (caishen: or holds only ``W``) or a seat escapes.
  Hidden hands stay hidden in the views at the end.  ``returns()`` is zeros until then.
- An escape before the landlord is known prices the standing bidder / caller / robber
  as landlord (at the standing bid, else 1), else the seat after the escaper.
- 托管: :meth:`State.set_trustee` records it (an event and a history entry); setting it to
  what it is changes nothing.  ``trustee_last_card``: the seat entered its current 托管
  with exactly one card.  :class:`.Escape` and :class:`.Trustee` are never in
  ``legal_actions()``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from qipai.cards import Card, doudizhu_deck
from qipai.chance import V2, chance_for
from qipai.errors import IllegalActionError, InvalidActionError
from qipai.games.doudizhu.actions import (
    ACTION_TYPES,
    HAND_CARDS,
    MAX_BID,
    Action,
    Bid,
    Call,
    Deal,
    Double,
    Escape,
    NoCall,
    NoDouble,
    NoRob,
    NoShow,
    Play,
    Rob,
    Show,
    Trustee,
)
from qipai.games.doudizhu.auction import Auction
from qipai.games.doudizhu.combos import (
    PASS,
    SLOT_MASK,
    WILD,
    Kind,
    Move,
    beats,
    card_slot,
    contains,
    pack_cards,
    sort_key,
    to_text,
    unit,
)
from qipai.games.doudizhu.events import (
    Escaped,
    Event,
    HandEnded,
    HandStarted,
    Played,
    TaskCompleted,
    TaskDrawn,
    TrusteeChanged,
)
from qipai.games.doudizhu.hand import (
    SEATS,
    Phase,
    Step,
    bombs_in,
    refuse,
    take_cards,
    take_picked,
)
from qipai.games.doudizhu.legal import is_valid_move, moves_for
from qipai.games.doudizhu.rules import Bidding, EscapeModel, Rules, get_rules
from qipai.games.doudizhu.scoring import HandFacts, escape_points, priced_landlord, score_hand
from qipai.games.doudizhu.tasks import completes, draw_task
from qipai.games.doudizhu.view import View, make_view
from qipai.games.events import is_spectator

__all__ = [
    "SEATS",
    "Phase",
    "State",
    "Step",
    "View",
    "bombs_in",
    "card_slot",
    "pack_cards",
    "replay",
    "sort_key",
]

_NOT_WILD = ~unit(WILD, SLOT_MASK)
_NATURAL_DECK = frozenset(doudizhu_deck())


class State(Auction):
    """One Dou Dizhu hand.  Create it with :meth:`new`; change it only with :meth:`apply`.

    The attributes (see :class:`.hand.Hand`) are read-only for callers; hidden cards leave
    only through :meth:`view` and the events' :meth:`~.events.Event.visible_to`.
    """

    __slots__ = ()

    # --- creation ---------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: str | Rules = "yifa",
        *,
        seed: int,
        first_seat: int | None = None,
        hand_number: int = 0,
        balances: Sequence[int] | None = None,
        shows_before_deal: Sequence[int] = (),
        deck: Sequence[Card] | None = None,
        chance: str = V2,
    ) -> State:
        """Start a hand and deal it (in steps where the rules have 明牌 before bidding).

        :param rules: a preset name or a :class:`.Rules`.
        :param seed: seeds the hand's own generator (deal, marker card, random first bidder).
        :param first_seat: the seat that sat down first (zhengtu: first bidder of hand 0;
            other rule sets choose the first bidder their own way and ignore it).
        :param hand_number: the hand's number at its table (zhengtu rotation).
        :param balances: coins of each seat, for a doubling threshold (huanle).
        :param shows_before_deal: seats choosing 明牌开始, in the order they chose it.
        :param deck: a prearranged first deal instead of a shuffle: the 54 natural cards,
            17 for each seat in seat order, then the bottom (the 财神 joins the bottom by
            itself).  Redeals shuffle with the seed as usual.
        :param chance: the chance version (:mod:`qipai.chance`): ``v2`` (SHA-256 stream),
            or ``v1`` (``random.Random(seed)``) to replay a ``qipai-hand/1`` record.
        :raises InvalidActionError: ``unknown_rules``, ``bad_seat``, ``bad_balances``,
            ``bad_deck`` or ``bad_chance``.
        :raises IllegalActionError: ``not_in_rules`` / ``show_closed`` if the rules have no
            明牌 before the deal.
        """
        rule_set = get_rules(rules)
        _check_table(first_seat, hand_number, balances)
        if deck is not None and (len(deck) != len(_NATURAL_DECK) or set(deck) != _NATURAL_DECK):
            raise InvalidActionError("bad_deck", "a deck is the 54 natural cards, each once")
        state = cls.__new__(cls)
        state.rules = rule_set
        state.seed = seed
        state.hand_number = hand_number
        state.first_seat = first_seat
        state.balances = None if balances is None else tuple(balances)
        state._chance = chance_for(seed, chance)
        state.deal_number = 1
        state.trustee = [False] * SEATS
        state.trustee_last_card = [False] * SEATS
        state.events = [HandStarted(rule_set.name, hand_number)]
        state.history = []
        state.task = draw_task(rule_set.tasks, seed)
        if state.task is not None:
            state.events.append(TaskDrawn(state.task))
        state._new_deal(None if deck is None else list(deck))
        for seat in shows_before_deal:
            if state.cards_dealt:
                raise refuse("show_closed", "the cards are dealt: no 明牌 before the deal")
            state.apply(Show(), seat)
        return state

    # --- queries ----------------------------------------------------------------------

    @property
    def is_terminal(self) -> bool:
        """Whether the hand is over."""
        return self.phase is Phase.OVER

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """What may be applied now.

        Without ``seat``: the actions of whoever is to act, the dealer's :class:`.Deal`
        steps while dealing.  With ``seat``: that seat's actions now, an out-of-turn
        :class:`.Show` included.  :class:`.Escape` and :class:`.Trustee` are out-of-band
        (see :meth:`escape`, :meth:`set_trustee`) and never listed.
        """
        phase = self.phase
        if phase is Phase.PLAY and seat in (None, self.current_player):
            return self._plays()  # the common case, first: no 明牌 during the play
        if phase is Phase.OVER:
            return []
        if seat is None:
            if self.current_player is None:
                return [Deal(n) for n in range(1, HAND_CARDS - self.cards_dealt + 1)]
            seat = self.current_player
        deciding = seat == self.current_player or seat in self.deciding
        actions = self._turn_actions() if deciding else []
        if (
            self.phase is not Phase.SHOW_AFTER_BOTTOM
            and seat not in self.show_order
            and self._show_factor(seat)
        ):
            actions.append(Show())
        return actions

    def _turn_actions(self) -> list[Action]:
        phase = self.phase
        if phase is Phase.BID:
            if self.rules.bidding is Bidding.POINTS:
                return [Bid(p) for p in (0, *range(self.bid + 1, MAX_BID + 1))]
            return [Call(), NoCall()]
        if phase is Phase.ROB:
            return [Rob(), NoRob()]
        if phase is Phase.DOUBLE:
            return [Double(), NoDouble()]
        if phase is Phase.SHOW_AFTER_BOTTOM:
            return [Show(), NoShow()]
        return self._plays()

    def _plays(self) -> list[Action]:
        seat = self.current_player
        assert seat is not None
        known = _PLAYS.get
        return [
            known(id(m)) or play_of(m)
            for m in moves_for(self.packed[seat], self.to_beat, self.rules)
        ]

    def view(self, seat: int) -> View:
        """What ``seat`` may see now: a fresh immutable snapshot; with
        :data:`~qipai.games.events.SPECTATOR`, what everyone may see (a spectator's view).

        :raises InvalidActionError: ``bad_seat``.
        """
        if not is_spectator(seat):
            _check_seat(seat)
        return make_view(self, seat)

    def facts(self) -> HandFacts:
        """What scoring needs to know about the hand so far.

        Before the landlord is known (an early escape) the standing bidder, caller or robber
        counts as landlord, else the seat after the escaper, at base 1 (a reading).
        """
        landlord, base = self._scored_landlord()
        return HandFacts(
            rules=self.rules,
            landlord=landlord,
            base=base,
            winner=self.winner,
            robs=tuple(self.robs),
            shows=tuple(self.shows),
            doubled=tuple(self.doubled),
            bombs=self.bombs,
            rockets=self.rockets,
            wild_bombs=self.wild_bombs,
            spring=self.spring,
            anti_spring=self.anti_spring,
            bottom=to_text(pack_cards(self.bottom)),
            trustee=tuple(self.trustee),
            trustee_last_card=tuple(self.trustee_last_card),
            bombs_in_hand=tuple(bombs_in(p) for p in self.packed),
            task=self.task,
            task_completed=self.task_completed,
        )

    def _scored_landlord(self) -> tuple[int, int]:
        return priced_landlord(
            self.landlord, self.base, self.candidate, self.bid, escaper=self.escaper
        )

    def returns(self) -> tuple[int, int, int]:
        """Points per seat: :func:`.score_hand` or :func:`.escape_points`; zeros until over."""
        if self.phase is not Phase.OVER:
            return (0, 0, 0)
        facts = self.facts()
        if self.escaper is not None:
            points = escape_points(facts, self.escaper)
        else:
            points = score_hand(facts)
        first, second, third = points
        return (first, second, third)

    # --- verify / can / do ------------------------------------------------------------

    def check(self, action: Action, seat: int | None = None) -> int | None:
        """Raise if ``action`` may not be applied now; return the acting seat.

        ``seat`` defaults to the player to act (the dealer for :class:`.Deal`).

        :raises InvalidActionError: ``bad_action`` (not an action), ``bad_seat``.
        :raises IllegalActionError: ``hand_over``, ``wrong_phase``, ``not_in_rules``,
            ``not_your_turn``, ``bid_too_low``, ``cannot_rob``, ``cannot_double``,
            ``already_shown``, ``show_closed``, ``cannot_pass``, ``illegal_move`` or
            ``deal_too_many``.
        """
        if not isinstance(action, ACTION_TYPES):
            raise InvalidActionError("bad_action", f"not a Dou Dizhu action: {action!r}")
        if seat is not None:
            _check_seat(seat)
        if self.phase is Phase.OVER:
            raise refuse("hand_over", "the hand is over")
        return _CHECKS[type(action)](self, action, seat)

    def can_apply(self, action: Action, seat: int | None = None) -> bool:
        """Whether :meth:`apply` would accept ``action`` now."""
        try:
            self.check(action, seat)
        except (IllegalActionError, InvalidActionError):
            return False
        return True

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Validate ``action`` completely, then apply it; return (and log) its events.

        ``seat`` is who acts; it defaults to :attr:`current_player`.  Out-of-turn actions
        (a :class:`.Show` during the deal, :class:`.Escape`, :class:`.Trustee`) name it.
        Setting 托管 to what it already is changes nothing and returns no event.

        :raises InvalidActionError: see :meth:`check`.
        :raises IllegalActionError: see :meth:`check`; the state is then unchanged.
        """
        actor = self.check(action, seat)
        if isinstance(action, Trustee) and actor is not None and self.trustee[actor] == action.on:
            return []
        mark = len(self.events)
        _DOS[type(action)](self, action, actor)
        self.history.append(Step(actor, action))
        return self.events[mark:]

    def escape(self, seat: int) -> list[Event]:
        """逃跑: ``seat`` leaves; the hand ends, priced by :func:`.escape_points`.

        Rule sets without an escape model (yifa: the hall puts the seat in 托管 instead)
        refuse it.

        :raises IllegalActionError: ``not_in_rules`` or ``hand_over``.
        """
        return self.apply(Escape(), seat)

    def set_trustee(self, seat: int, on: bool) -> list[Event]:
        """Record that ``seat`` enters (``on``) or leaves 托管; the hall decides when.

        :raises IllegalActionError: ``hand_over``.
        """
        return self.apply(Trustee(on), seat)

    # --- the play and the end ---------------------------------------------------------

    def _check_play(self, action: Play, seat: int | None) -> int:
        self._in_phase(action, Phase.PLAY)
        actor = self._turn(action, seat)
        move = action.move
        if not move.cards:  # the pass
            if not self.to_beat.cards:
                raise refuse("cannot_pass", "the leader must play")
        elif not self._is_legal_play(actor, move):
            raise refuse("illegal_move", f"{action} is not a legal play here")
        elif action.cards and not set(action.cards) <= set(self.hands[actor]):
            raise refuse("cards_not_held", f"seat {actor} does not hold every card after @")
        return actor

    def _is_legal_play(self, seat: int, move: Move) -> bool:
        """Held, a combination of the rules, and beating the table: exactly the moves of
        :func:`.moves_for`, checked without listing them all."""
        return (
            contains(self.packed[seat], move.cards)
            and (not self.to_beat.cards or beats(move, self.to_beat))
            and is_valid_move(move, self.rules)
        )

    def _do_play(self, action: Play, seat: int) -> None:
        move = action.move
        hand = self.hands[seat]
        if action.cards:
            taken = take_picked(hand, action.cards)
        else:
            taken = take_cards(hand, move.cards) if move.cards else []
        self.packed[seat] -= move.cards
        self.plays.append((seat, move))
        self.events.append(Played(seat, move, tuple(taken), len(self.hands[seat])))
        self.current_player = (seat + 1) % SEATS
        if not move.cards:  # the pass
            self.passes += 1
            if self.passes == SEATS - 1:
                self.to_beat, self.passes, self.trick_start = PASS, 0, len(self.plays)
            return
        self.to_beat, self.to_beat_seat, self.passes = move, seat, 0
        self.play_counts[seat] += 1
        if move.kind.is_bomb:
            self._count_bomb(move.kind)
        rest = self.packed[seat]
        if not rest or (self.rules.only_wildcard_left_wins and not rest & _NOT_WILD):
            self._finish(seat)

    def _count_bomb(self, kind: Kind) -> None:
        if kind is Kind.BOMB:
            self.bombs += 1
        elif kind is Kind.ROCKET:
            self.rockets += 1
        elif kind is Kind.WILD_BOMB:
            self.wild_bombs += 1

    def _finish(self, winner: int) -> None:
        landlord = self.landlord
        assert landlord is not None
        self.winner = winner
        self.phase, self.current_player = Phase.OVER, None
        farmers_played = sum(self.play_counts) - self.play_counts[landlord]
        self.spring = winner == landlord and farmers_played == 0
        self.anti_spring = winner != landlord and self.play_counts[landlord] == 1
        self._check_task(winner == landlord)
        self.events.append(HandEnded(winner, winner == landlord, self.spring, self.anti_spring))

    def _check_task(self, landlord_won: bool) -> None:
        """Whether the winning side completed the hand's task (:func:`.tasks.completes`)."""
        task, landlord = self.task, self.landlord
        if task is None:
            return
        side = [move for seat, move in self.plays if (seat == landlord) == landlord_won]
        if completes(task, side, spring=self.spring or self.anti_spring):
            self.task_completed = True
            self.events.append(TaskCompleted(task, "landlord" if landlord_won else "farmers"))

    def _check_escape(self, action: Escape, seat: int | None) -> int:
        if self.rules.escape is EscapeModel.NONE:
            raise refuse("not_in_rules", f"{self.rules.name} has no escape: use 托管")
        return self._out_of_turn(action, seat)

    def _do_escape(self, action: Escape, seat: int) -> None:
        self.escaper = seat
        self.phase, self.current_player = Phase.OVER, None
        self.events.append(Escaped(seat))

    def _check_trustee(self, action: Trustee, seat: int | None) -> int:
        return self._out_of_turn(action, seat)

    def _do_trustee(self, action: Trustee, seat: int) -> None:
        cards_left = len(self.hands[seat])
        self.trustee[seat] = action.on
        self.trustee_last_card[seat] = action.on and cards_left == 1
        self.events.append(TrusteeChanged(seat, action.on, cards_left))

    def _out_of_turn(self, action: Action, seat: int | None) -> int:
        actor = self.current_player if seat is None else seat
        if actor is None:
            raise refuse("not_your_turn", f"say which seat does {action}")
        return actor


_PLAYS: dict[int, Play] = {}
"""The :class:`.Play` of each move seen, by the move's id (the play keeps its move alive,
so an id found here is that move's)."""


def play_of(move: Move) -> Play:
    """``Play(move)``, made once per move object (the tables' moves recur every turn).

    An entry keeps its move alive, so no other live move can have that id: the id alone
    identifies the move.
    """
    play = _PLAYS.get(id(move))
    if play is None:
        if len(_PLAYS) >= 200_000:
            _PLAYS.clear()
        play = _PLAYS[id(move)] = Play(move)
    return play


_Check = Callable[[State, Action, "int | None"], "int | None"]
_Do = Callable[[State, Action, "int | None"], None]

_CHECKS: dict[type[Action], _Check] = {
    Deal: State._check_deal,  # type: ignore[dict-item]
    Show: State._check_show,  # type: ignore[dict-item]
    NoShow: State._check_no_show,  # type: ignore[dict-item]
    Bid: State._check_bid,  # type: ignore[dict-item]
    Call: State._check_call,  # type: ignore[dict-item]
    NoCall: State._check_call,  # type: ignore[dict-item]
    Rob: State._check_rob,  # type: ignore[dict-item]
    NoRob: State._check_rob,  # type: ignore[dict-item]
    Double: State._check_double,  # type: ignore[dict-item]
    NoDouble: State._check_double,  # type: ignore[dict-item]
    Play: State._check_play,  # type: ignore[dict-item]
    Escape: State._check_escape,  # type: ignore[dict-item]
    Trustee: State._check_trustee,  # type: ignore[dict-item]
}
_DOS: dict[type[Action], _Do] = {
    Deal: State._do_deal,  # type: ignore[dict-item]
    Show: State._do_show,  # type: ignore[dict-item]
    NoShow: State._do_no_show,  # type: ignore[dict-item]
    Bid: State._do_bid,  # type: ignore[dict-item]
    Call: State._do_call,  # type: ignore[dict-item]
    NoCall: State._do_call,  # type: ignore[dict-item]
    Rob: State._do_rob,  # type: ignore[dict-item]
    NoRob: State._do_rob,  # type: ignore[dict-item]
    Double: State._do_double,  # type: ignore[dict-item]
    NoDouble: State._do_double,  # type: ignore[dict-item]
    Play: State._do_play,  # type: ignore[dict-item]
    Escape: State._do_escape,  # type: ignore[dict-item]
    Trustee: State._do_trustee,  # type: ignore[dict-item]
}


def _check_seat(seat: object) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < SEATS:
        raise InvalidActionError("bad_seat", f"a seat is 0-{SEATS - 1}, not {seat!r}")


def _check_table(first_seat: int | None, hand_number: int, balances: Sequence[int] | None) -> None:
    if first_seat is not None:
        _check_seat(first_seat)
    if hand_number < 0:
        raise InvalidActionError("bad_hand_number", f"hand number {hand_number} < 0")
    if balances is not None and len(balances) != SEATS:
        raise InvalidActionError("bad_balances", f"{SEATS} balances expected")


def replay(
    rules: str | Rules,
    seed: int,
    history: Iterable[Step | tuple[int | None, Action] | Action],
    *,
    first_seat: int | None = None,
    hand_number: int = 0,
    balances: Sequence[int] | None = None,
    deck: Sequence[Card] | None = None,
    chance: str = V2,
) -> State:
    """Rebuild a hand from its rules, seed and actions (``state.history``).

    The keyword arguments are those the hand was created with (:meth:`State.new`); a
    ``shows_before_deal`` is part of the history already.

    A bare action is applied by whoever is to act (the dealer while dealing).

    :raises InvalidActionError: / :raises IllegalActionError: if an action does not apply.
    """
    state = State.new(
        rules,
        seed=seed,
        first_seat=first_seat,
        hand_number=hand_number,
        balances=balances,
        deck=deck,
        chance=chance,
    )
    for item in history:
        if isinstance(item, Step):
            state.apply(item.action, item.seat)
        elif isinstance(item, tuple):
            state.apply(item[1], item[0])
        else:
            state.apply(item)
    return state
